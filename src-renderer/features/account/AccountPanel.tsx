// Account: profiles and keys, the exchange's view of my API keys, rate limits, endpoint costs,
// volume progress and the usage-level upgrade, deposits, withdrawals, transfers between exchange
// instances, and the target balance allocation.
import { useEffect, useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKey } from '../../../src-shared/wire/api-keys';
import type { EndpointCost } from '../../../src-shared/wire/account';
import type { Deposit, IntraExchangeTransfer } from '../../../src-shared/wire/portfolio';
import { Decimal } from '../../../src-shared/money';
import { rest } from '../../lib/rest';
import { getTerminalApi } from '../../lib/bridge';
import { errorText } from '../../lib/errors';
import { fmtCash, fmtCents, fmtCount, fmtDateTime, fmtInt, isoTime } from '../../lib/format';
import { useRest, useRestPages } from '../../hooks/useRest';
import { notify } from '../../stores/notices';
import { confirmAction } from '../../ui/confirm';
import { col, DataTable, type Columns, queryState } from '../../ui/DataTable';
import { KeyValues } from '../../ui/Field';
import { Modal } from '../../ui/Modal';
import { ErrorState, InlineError, Loading, QueryView } from '../../ui/States';
import { TabbedPanel, type PanelTab } from '../../ui/TabbedPanel';
import { Profiles } from './Profiles';

type Tab = 'profiles' | 'apikeys' | 'limits' | 'funding' | 'allocation';

const keyColumns = (onDelete: (k: ApiKey) => void): Columns<ApiKey> => [
  col<ApiKey>({ id: 'id', header: 'Key id', size: 220, accessorFn: (k) => k.api_key, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
  col<ApiKey>({ id: 'name', header: 'Name', accessorFn: (k) => k.name }),
  col<ApiKey>({ id: 'scopes', header: 'Scopes', size: 130, accessorFn: (k) => k.scopes.join(' ') }),
  col<ApiKey>({ id: 'sub', header: 'Subaccount', size: 80, accessorFn: (k) => k.subaccount ?? '', meta: { num: true } }),
  col<ApiKey>({ id: 'created', header: 'Created', size: 118, accessorFn: (k) => k.created_ts ?? 0, cell: ({ getValue }) => fmtDateTime((getValue() as number) || null) }),
  col<ApiKey>({
    id: '_actions',
    header: '',
    size: 70,
    enableSorting: false,
    cell: ({ row }) => (
      <button type="button" className="btn btn-sm btn-danger" onClick={() => onDelete(row.original)}>
        Revoke
      </button>
    ),
    meta: { csv: false },
  }),
];

function ExchangeKeys() {
  const qc = useQueryClient();
  const q = useRest('getApiKeys');
  const columns = useMemo(
    () =>
      keyColumns((k) => {
        void confirmAction({ title: 'Revoke this key on the exchange?', body: `Requests signed with ${k.api_key} will be refused from now on.`, confirmLabel: 'Revoke', danger: true }).then(async (ok) => {
          if (!ok) return;
          try {
            await getTerminalApi().revokeExchangeKey(k.api_key);
            notify('success', `Revoked ${k.api_key}`);
            void qc.invalidateQueries({ queryKey: ['rest', 'getApiKeys'] });
          } catch (err) {
            notify('error', 'Could not revoke the key', errorText(err));
          }
        });
      }),
    [qc],
  );
  return (
    <DataTable
      label="API keys on the exchange"
      data={q.data?.api_keys ?? []}
      columns={columns}
      getRowId={(k) => k.api_key}
      {...queryState(q)}
      loadingText="Loading API keys…"
      emptyText="The exchange lists no API keys for this account."
      tools={<span className="dim">The keys the exchange knows for this account; the terminal's own keys are under Profiles.</span>}
    />
  );
}

const costColumns: Columns<EndpointCost> = [
  col<EndpointCost>({ id: 'method', header: 'Method', size: 70, accessorFn: (c) => c.method }),
  col<EndpointCost>({ id: 'path', header: 'Path', accessorFn: (c) => c.path, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
  col<EndpointCost>({ id: 'cost', header: 'Tokens', size: 70, accessorFn: (c) => c.cost, meta: { num: true } }),
];

function Limits() {
  const qc = useQueryClient();
  const limits = useRest('getAccountLimits');
  const costs = useRest('getEndpointCosts');
  const volume = useRest('getVolumeProgress');
  const upgrade = useMutation({
    mutationFn: () => rest('upgradeApiUsageLevel', { body: {} }),
    onSuccess: () => {
      notify('success', 'Usage level upgrade requested');
      void qc.invalidateQueries({ queryKey: ['rest', 'getAccountLimits'] });
      void qc.invalidateQueries({ queryKey: ['rest', 'getVolumeProgress'] });
    },
  });
  return (
    <div className="vsplit">
      <div className="section">
        <h3>Rate limits</h3>
        <QueryView query={limits} loading="Loading limits…">
          {(l) => (
            <KeyValues
              entries={[
                ['Usage tier', <strong key="t">{l.usage_tier}</strong>],
                ['Read bucket', `${fmtInt(l.read.bucket_capacity)} tokens, refills ${fmtInt(l.read.refill_rate)}/s`],
                ['Write bucket', `${fmtInt(l.write.bucket_capacity)} tokens, refills ${fmtInt(l.write.refill_rate)}/s`],
                ['Grants', l.grants.length ? l.grants.map((g) => `${g.exchange_instance}: ${g.level} (${g.source}${g.expires_ts ? `, until ${fmtDateTime(g.expires_ts)}` : ''})`).join('; ') : 'none'],
              ]}
            />
          )}
        </QueryView>
      </div>
      <div className="section">
        <h3>Volume progress</h3>
        <QueryView query={volume} loading="Loading volume progress…">
          {(v) =>
            v.volume_progress.length === 0 ? (
              <div className="dim">No volume recorded.</div>
            ) : (
              <div className="col">
                {v.volume_progress.map((s) => (
                  <div key={s.computed_ts}>
                    <div>
                      Trailing 30 days: <strong>{fmtCount(s.trailing_30d_volume_fp)}</strong> contracts <span className="dim">(as of {fmtDateTime(s.computed_ts)})</span>
                    </div>
                    {s.goals.map((g) => {
                      const goal = new Decimal(g.earn_volume_goal_fp);
                      const pct = goal.gt(0) ? Decimal.min(100, new Decimal(s.trailing_30d_volume_fp).div(goal).mul(100)).toFixed(0) : '100';
                      return (
                        <div key={g.level} className="row" style={{ flexWrap: 'nowrap' }}>
                          <span style={{ width: 90 }}>{g.level}</span>
                          <div className="progress grow" role="progressbar" aria-valuenow={Number(pct)} aria-valuemin={0} aria-valuemax={100} aria-label={`Progress to ${g.level}`}>
                            <div style={{ width: `${pct}%` }} />
                          </div>
                          <span className="num dim" style={{ width: 200 }}>
                            {pct}% of {fmtCount(g.earn_volume_goal_fp)} (keep {fmtCount(g.keep_volume_goal_fp)})
                          </span>
                        </div>
                      );
                    })}
                  </div>
                ))}
              </div>
            )
          }
        </QueryView>
        <div className="row" style={{ marginTop: 6 }}>
          <button
            type="button"
            className="btn btn-sm"
            disabled={upgrade.isPending}
            onClick={() =>
              void confirmAction({ title: 'Upgrade the usage level?', body: 'Ask the exchange to move this account to the API usage level its volume has earned.', confirmLabel: 'Upgrade' }).then((ok) => ok && upgrade.mutate())
            }
          >
            Request upgrade
          </button>
          {upgrade.error ? <InlineError error={upgrade.error} /> : null}
        </div>
      </div>
      <div style={{ flex: '1 1 auto', minHeight: 160, display: 'flex' }}>
        <DataTable
          label="Endpoint costs"
          data={costs.data?.endpoint_costs ?? []}
          columns={costColumns}
          getRowId={(c) => `${c.method} ${c.path}`}
          {...queryState(costs)}
          loadingText="Loading endpoint costs…"
          emptyText={costs.data ? `Every endpoint costs the default ${costs.data.default_cost} tokens.` : 'No endpoint costs.'}
          tools={costs.data ? <span className="dim">Default cost {costs.data.default_cost} tokens a request</span> : null}
        />
      </div>
    </div>
  );
}

const moneyColumns: Columns<Deposit> = [
  col<Deposit>({ id: 'time', header: 'Created', size: 118, accessorFn: (d) => d.created_ts, cell: ({ getValue }) => fmtDateTime(getValue() as number), meta: { csv: (d) => isoTime(d.created_ts) } }),
  col<Deposit>({ id: 'type', header: 'Type', size: 70, accessorFn: (d) => d.type }),
  col<Deposit>({ id: 'amount', header: 'Amount', size: 90, accessorFn: (d) => d.amount_cents, cell: ({ getValue }) => fmtCents(getValue() as number), meta: { num: true, csv: (d) => new Decimal(d.amount_cents).div(100).toFixed(2) } }),
  col<Deposit>({ id: 'fee', header: 'Fee', size: 70, accessorFn: (d) => d.fee_cents, cell: ({ getValue }) => fmtCents(getValue() as number), meta: { num: true, csv: (d) => new Decimal(d.fee_cents).div(100).toFixed(2) } }),
  col<Deposit>({ id: 'status', header: 'Status', size: 80, accessorFn: (d) => d.status }),
  col<Deposit>({ id: 'final', header: 'Finalized', size: 118, accessorFn: (d) => d.finalized_ts ?? 0, cell: ({ getValue }) => fmtDateTime((getValue() as number) || null) }),
  col<Deposit>({ id: 'id', header: 'Id', accessorFn: (d) => d.id, cell: ({ getValue }) => <span className="mono faint">{String(getValue())}</span> }),
];

const transferColumns: Columns<IntraExchangeTransfer> = [
  col<IntraExchangeTransfer>({ id: 'time', header: 'Created', size: 118, accessorFn: (t) => t.created_ts, cell: ({ getValue }) => fmtDateTime(getValue() as number), meta: { csv: (t) => isoTime(t.created_ts) } }),
  col<IntraExchangeTransfer>({ id: 'from', header: 'From', size: 110, accessorFn: (t) => `${t.source}${t.source_exchange_shard !== undefined ? ` #${t.source_exchange_shard}` : ''}` }),
  col<IntraExchangeTransfer>({ id: 'to', header: 'To', size: 110, accessorFn: (t) => `${t.destination}${t.destination_exchange_shard !== undefined ? ` #${t.destination_exchange_shard}` : ''}` }),
  col<IntraExchangeTransfer>({ id: 'amount', header: 'Amount', size: 90, accessorFn: (t) => t.amount, cell: ({ getValue }) => fmtCash(getValue() as string), meta: { num: true } }),
  col<IntraExchangeTransfer>({ id: 'status', header: 'Status', size: 80, accessorFn: (t) => t.status }),
  col<IntraExchangeTransfer>({ id: 'id', header: 'Transfer id', accessorFn: (t) => t.transfer_id, cell: ({ getValue }) => <span className="mono faint">{String(getValue())}</span> }),
];

function TransferDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const q = useRest('getIntraExchangeTransfer', { params: { transfer_id: id } });
  return (
    <Modal open narrow onClose={onClose} title={`Transfer ${id}`}>
      <QueryView query={q} loading="Loading the transfer…">
        {(d) => (
          <KeyValues
            entries={[
              ['From', `${d.transfer.source}${d.transfer.source_exchange_shard !== undefined ? ` shard ${d.transfer.source_exchange_shard}` : ''}`],
              ['To', `${d.transfer.destination}${d.transfer.destination_exchange_shard !== undefined ? ` shard ${d.transfer.destination_exchange_shard}` : ''}`],
              ['Amount', fmtCash(d.transfer.amount)],
              ['Status', d.transfer.status],
              ['Created', fmtDateTime(d.transfer.created_ts)],
            ]}
          />
        )}
      </QueryView>
    </Modal>
  );
}

function Funding() {
  const [kind, setKind] = useState<'deposits' | 'withdrawals' | 'transfers'>('deposits');
  const deposits = useRestPages('getDeposits', { query: {} }, { enabled: kind === 'deposits' });
  const withdrawals = useRestPages('getWithdrawals', { query: {} }, { enabled: kind === 'withdrawals' });
  const transfers = useRestPages('getIntraExchangeTransfers', { query: {} }, { enabled: kind === 'transfers' });
  const [detail, setDetail] = useState<string | null>(null);
  const switcher = (
    <div className="seg" role="group" aria-label="Money movements">
      {(['deposits', 'withdrawals', 'transfers'] as const).map((k) => (
        <button key={k} type="button" aria-pressed={kind === k} onClick={() => setKind(k)}>
          {k === 'transfers' ? 'Instance transfers' : k[0]!.toUpperCase() + k.slice(1)}
        </button>
      ))}
    </div>
  );
  if (kind === 'transfers') {
    const rows = transfers.data?.pages.flatMap((p) => p.transfers) ?? [];
    return (
      <>
        <DataTable
          label="Transfers between exchange instances"
          data={rows}
          columns={transferColumns}
          getRowId={(t) => t.transfer_id}
          {...queryState(transfers)}
          loadingText="Loading transfers…"
          emptyText="No transfers between exchange instances."
          onActivate={(t) => setDetail(t.transfer_id)}
          tools={switcher}
        />
        {detail && <TransferDetail id={detail} onClose={() => setDetail(null)} />}
      </>
    );
  }
  const q = kind === 'deposits' ? deposits : withdrawals;
  const rows = q.data?.pages.flatMap((p) => ('deposits' in p ? p.deposits : (p as { withdrawals: Deposit[] }).withdrawals)) ?? [];
  return (
    <DataTable
      key={kind}
      label={kind === 'deposits' ? 'Deposits' : 'Withdrawals'}
      data={rows}
      columns={moneyColumns}
      getRowId={(d) => d.id}
      {...queryState(q)}
      loadingText={`Loading ${kind}…`}
      emptyText={kind === 'deposits' ? 'No deposits.' : 'No withdrawals.'}
      tools={switcher}
      footer={
        q.hasNextPage ? (
          <div className="table-tools">
            <button type="button" className="btn btn-sm" onClick={() => void q.fetchNextPage()}>
              Load older
            </button>
          </div>
        ) : null
      }
    />
  );
}

interface AllocationRow {
  exchange_index: string;
  percent: string;
}

function Allocation() {
  const qc = useQueryClient();
  const q = useRest('getTargetBalanceAllocation');
  const [rows, setRows] = useState<AllocationRow[]>([]);
  const [reservation, setReservation] = useState<'sum' | 'max'>('sum');
  useEffect(() => {
    if (!q.data) return;
    setRows(q.data.allocations.map((a) => ({ exchange_index: String(a.exchange_index), percent: String(a.percent) })));
    setReservation(q.data.resting_margin_reservation ?? 'sum');
  }, [q.data]);
  const save = useMutation({
    mutationFn: () =>
      rest('setTargetBalanceAllocation', {
        body: { allocations: rows.map((r) => ({ exchange_index: Number(r.exchange_index), percent: Number(r.percent) })), resting_margin_reservation: reservation },
      }),
    onSuccess: () => {
      notify('success', 'Saved the target allocation');
      void qc.invalidateQueries({ queryKey: ['rest', 'getTargetBalanceAllocation'] });
    },
  });
  if (q.isPending) return <Loading text="Loading the target allocation…" />;
  if (q.error) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  const bad = rows.map((r) => !/^\d+$/.test(r.exchange_index) || !/^\d+$/.test(r.percent) || Number(r.percent) > 100);
  const dup = new Set(rows.map((r) => r.exchange_index)).size !== rows.length;
  const total = rows.reduce((s, r) => s + (/^\d+$/.test(r.percent) ? Number(r.percent) : 0), 0);
  const valid = !bad.some(Boolean) && !dup && rows.length <= 101 && (rows.length === 0 || total === 100);
  return (
    <div className="panel-body pad col">
      <div className="dim">How automatic sweeps spread cash across shards. Percentages are whole numbers and add up to 100.</div>
      <table className="grid" style={{ width: 'auto' }}>
        <thead>
          <tr>
            <th>Shard</th>
            <th>Percent</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              <td>
                <input className="num" aria-label="Shard" value={r.exchange_index} aria-invalid={bad[i]} onChange={(e) => setRows(rows.map((x, j) => (j === i ? { ...x, exchange_index: e.target.value } : x)))} style={{ width: 70 }} />
              </td>
              <td>
                <input className="num" aria-label="Percent" value={r.percent} aria-invalid={bad[i]} onChange={(e) => setRows(rows.map((x, j) => (j === i ? { ...x, percent: e.target.value } : x)))} style={{ width: 70 }} />
              </td>
              <td>
                <button type="button" className="btn btn-sm" onClick={() => setRows(rows.filter((_, j) => j !== i))} aria-label="Remove row">
                  ✕
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="row">
        <button type="button" className="btn btn-sm" onClick={() => setRows([...rows, { exchange_index: String(rows.length), percent: '0' }])}>
          Add shard
        </button>
        <span className={total === 100 || rows.length === 0 ? 'dim' : 'inline-error'}>Total {total}%</span>
        {dup && <span className="inline-error">Each shard once</span>}
      </div>
      <label className="field" style={{ maxWidth: 320 }}>
        <span>Collateral left for resting orders</span>
        <select value={reservation} onChange={(e) => setReservation(e.target.value as 'sum' | 'max')}>
          <option value="sum">Sum of resting orders</option>
          <option value="max">Largest resting order</option>
        </select>
      </label>
      <div className="row">
        <button type="button" className="btn btn-primary" disabled={!valid || save.isPending} onClick={() => save.mutate()}>
          {save.isPending ? 'Saving…' : 'Save allocation'}
        </button>
        {save.error ? <InlineError error={save.error} /> : null}
      </div>
    </div>
  );
}

const ACCOUNT_TABS: readonly PanelTab<Tab>[] = [
  { id: 'profiles', label: 'Profiles & keys', render: () => <Profiles /> },
  { id: 'apikeys', label: 'Exchange keys', render: () => <ExchangeKeys /> },
  { id: 'limits', label: 'Limits & volume', render: () => <Limits /> },
  { id: 'funding', label: 'Funding', render: () => <Funding /> },
  { id: 'allocation', label: 'Allocation', render: () => <Allocation /> },
];

export function AccountPanel() {
  return <TabbedPanel label="Account views" tabs={ACCOUNT_TABS} />;
}
