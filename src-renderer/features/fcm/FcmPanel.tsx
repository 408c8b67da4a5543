// Clearing-member tools: subtraders (list, create), and per subtrader the blocked categories,
// the daily cap, orders and positions; FCM fills across subtraders; resting order value.
import { useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FcmFill, Subtrader } from '../../../src-shared/wire/fcm';
import type { Order } from '../../../src-shared/wire/orders';
import type { MarketPosition } from '../../../src-shared/wire/portfolio';
import { rest } from '../../lib/rest';
import { errorText } from '../../lib/errors';
import { fmtCash, fmtCents, fmtCount, fmtPrice, fmtTime, isoTime } from '../../lib/format';
import { parseUserDecimal } from '../../lib/order-check';
import { useRest, useRestPages } from '../../hooks/useRest';
import { useConnection } from '../../stores/connection';
import { notify } from '../../stores/notices';
import { confirmAction } from '../../ui/confirm';
import { col, DataTable, type Columns, queryState } from '../../ui/DataTable';
import { Field } from '../../ui/Field';
import { Empty, ErrorState, InlineError, Loading } from '../../ui/States';
import { Tabs } from '../../ui/Tabs';

const SUFFIX_RE = /^[A-Za-z0-9]{1,16}$/;

const subtraderColumns: Columns<Subtrader> = [
  col<Subtrader>({ id: 'id', header: 'Subtrader', size: 200, accessorFn: (s) => s.subtrader_id, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
  col<Subtrader>({ id: 'shards', header: 'Shards', size: 70, accessorFn: (s) => (s.exchange_indices ?? []).join(',') }),
  col<Subtrader>({ id: 'blocked', header: 'Trading', size: 110, accessorFn: (s) => (s.trading_blocked || s.fcm_trading_blocked ? 'blocked' : 'allowed'), cell: ({ getValue }) => <span className={`badge${getValue() === 'blocked' ? ' badge-error' : ' badge-ok'}`}>{String(getValue())}</span> }),
  col<Subtrader>({ id: 'pending', header: 'Propagating', size: 86, accessorFn: (s) => (s.propagation_pending ? 'yes' : '') }),
];

const orderColumns: Columns<Order> = [
  col<Order>({ id: 'time', header: 'Created', size: 78, accessorFn: (o) => o.created_time ?? '', cell: ({ getValue }) => fmtTime((getValue() as string) || null), meta: { csv: (o) => isoTime(o.created_time ?? null) } }),
  col<Order>({ id: 'ticker', header: 'Market', size: 160, accessorFn: (o) => o.ticker, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
  col<Order>({ id: 'side', header: 'Side', size: 60, accessorFn: (o) => o.book_side ?? `${o.action ?? ''} ${o.side ?? ''}` }),
  col<Order>({ id: 'price', header: 'YES price', size: 70, accessorFn: (o) => o.yes_price_dollars ?? '', cell: ({ getValue }) => fmtPrice((getValue() as string) || null), meta: { num: true } }),
  col<Order>({ id: 'remaining', header: 'Resting', size: 66, accessorFn: (o) => o.remaining_count_fp, cell: ({ getValue }) => fmtCount(getValue() as string), meta: { num: true } }),
  col<Order>({ id: 'filled', header: 'Filled', size: 60, accessorFn: (o) => o.fill_count_fp ?? '', cell: ({ getValue }) => fmtCount((getValue() as string) || null), meta: { num: true } }),
  col<Order>({ id: 'status', header: 'Status', size: 72, accessorFn: (o) => o.status }),
  col<Order>({ id: 'id', header: 'Order id', accessorFn: (o) => o.order_id, cell: ({ getValue }) => <span className="mono faint">{String(getValue())}</span> }),
];

const positionColumns: Columns<MarketPosition> = [
  col<MarketPosition>({ id: 'ticker', header: 'Market', size: 170, accessorFn: (p) => p.ticker, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
  col<MarketPosition>({ id: 'position', header: 'Position', size: 80, accessorFn: (p) => p.position_fp, cell: ({ getValue }) => fmtCount(getValue() as string), meta: { num: true } }),
  col<MarketPosition>({ id: 'exposure', header: 'Exposure', size: 86, accessorFn: (p) => p.market_exposure_dollars, cell: ({ getValue }) => fmtCash(getValue() as string), meta: { num: true } }),
  col<MarketPosition>({ id: 'realized', header: 'Realized', size: 86, accessorFn: (p) => p.realized_pnl_dollars, cell: ({ getValue }) => fmtCash(getValue() as string), meta: { num: true } }),
  col<MarketPosition>({ id: 'fees', header: 'Fees', size: 70, accessorFn: (p) => p.fees_paid_dollars, cell: ({ getValue }) => fmtCash(getValue() as string), meta: { num: true } }),
];

const fillColumns: Columns<FcmFill> = [
  col<FcmFill>({ id: 'time', header: 'Time', size: 78, accessorFn: (f) => f.ts ?? 0, cell: ({ getValue }) => fmtTime((getValue() as number) || null), meta: { csv: (f) => isoTime(f.ts ?? null) } }),
  col<FcmFill>({ id: 'ticker', header: 'Market', size: 160, accessorFn: (f) => f.ticker, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
  col<FcmFill>({ id: 'taker', header: 'Taker side', size: 70, accessorFn: (f) => f.taker_outcome_side }),
  col<FcmFill>({ id: 'price', header: 'YES price', size: 70, accessorFn: (f) => f.yes_price_dollars, cell: ({ getValue }) => fmtPrice(getValue() as string), meta: { num: true } }),
  col<FcmFill>({ id: 'count', header: 'Count', size: 66, accessorFn: (f) => f.count_fp, cell: ({ getValue }) => fmtCount(getValue() as string), meta: { num: true } }),
  col<FcmFill>({ id: 'maker', header: 'Maker subtrader', size: 150, accessorFn: (f) => f.maker_subtrader_id ?? '' }),
  col<FcmFill>({ id: 'takerSub', header: 'Taker subtrader', size: 150, accessorFn: (f) => f.taker_subtrader_id ?? '' }),
  col<FcmFill>({ id: 'fees', header: 'Fees (m/t)', size: 100, accessorFn: (f) => `${f.maker_fee_cost ?? ''}/${f.taker_fee_cost ?? ''}` }),
];

function Blocked({ id }: { id: string }) {
  const qc = useQueryClient();
  const q = useRest('getSubtraderBlockedCategories', { query: { subtrader_id: id } });
  const [category, setCategory] = useState('');
  const set = async (cat: string, blocked: boolean) => {
    try {
      await rest('setSubtraderBlockedCategory', { body: { subtrader_id: id, category: cat, blocked } });
      notify('success', `${blocked ? 'Blocked' : 'Unblocked'} ${cat} for ${id}`);
      void qc.invalidateQueries({ queryKey: ['rest', 'getSubtraderBlockedCategories'] });
      setCategory('');
    } catch (err) {
      notify('error', 'Could not change the blocked categories', errorText(err));
    }
  };
  if (q.isPending) return <Loading text="Loading blocked categories…" />;
  if (q.error) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  return (
    <div className="panel-body pad col">
      {q.data.categories.length === 0 ? (
        <div className="dim">Nothing is blocked for {id}.</div>
      ) : (
        <ul style={{ margin: 0, paddingLeft: 16 }}>
          {q.data.categories.map((c) => (
            <li key={c}>
              {c}{' '}
              <button type="button" className="btn btn-sm" onClick={() => void set(c, false)}>
                Unblock
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (category.trim()) void set(category.trim(), true);
        }}
      >
        <input placeholder="Category, e.g. Sports" aria-label="Category to block" value={category} onChange={(e) => setCategory(e.target.value)} />
        <button type="submit" className="btn btn-sm" disabled={!category.trim()}>
          Block category
        </button>
      </form>
    </div>
  );
}

function DailyCap({ id }: { id: string }) {
  const qc = useQueryClient();
  const q = useRest('getSubtraderDailyCap', { query: { subtrader_id: id } });
  const [limit, setLimit] = useState('');
  const d = parseUserDecimal(limit);
  const valid = !!d && d.gte(0) && d.mul(10_000).isInteger();
  const refresh = () => void qc.invalidateQueries({ queryKey: ['rest', 'getSubtraderDailyCap'] });
  const setCap = useMutation({ mutationFn: () => rest('setSubtraderDailyCap', { body: { subtrader_id: id, limit: d!.toFixed(2) } }), onSuccess: () => (notify('success', `Daily cap of ${id} set to ${fmtCash(d!)}`), refresh()) });
  const clear = useMutation({ mutationFn: () => rest('clearSubtraderDailyCap', { query: { subtrader_id: id } }), onSuccess: () => (notify('success', `Cleared the daily cap of ${id}`), refresh()) });
  if (q.isPending) return <Loading text="Loading the daily cap…" />;
  if (q.error) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  return (
    <div className="panel-body pad col">
      <div>
        Daily event-contract cap: <strong>{q.data.limit === null ? 'none' : fmtCash(q.data.limit)}</strong>
        {q.data.cap_date ? <span className="dim"> (for {q.data.cap_date})</span> : null}
      </div>
      <div className="dim">
        Used: executed {fmtCash(q.data.executed_utilization ?? null)}, resting {fmtCash(q.data.resting_order_utilization ?? null)}, pending {fmtCash(q.data.pending_order_utilization ?? null)}
      </div>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) setCap.mutate();
        }}
      >
        <Field label="New cap ($)" error={limit && !valid ? 'A dollar amount like 5000.00' : undefined}>
          <input className="num" value={limit} onChange={(e) => setLimit(e.target.value)} />
        </Field>
        <button type="submit" className="btn btn-sm btn-primary" disabled={!valid || setCap.isPending} style={{ alignSelf: 'end' }}>
          Set cap
        </button>
        <button
          type="button"
          className="btn btn-sm btn-danger"
          style={{ alignSelf: 'end' }}
          disabled={q.data.limit === null || clear.isPending}
          onClick={() => void confirmAction({ title: 'Clear the cap?', body: `Remove the daily cap of ${id}.`, confirmLabel: 'Clear', danger: true }).then((ok) => ok && clear.mutate())}
        >
          Clear cap
        </button>
      </form>
      <InlineError error={setCap.error ?? clear.error} />
    </div>
  );
}

function SubtraderOrders({ id }: { id: string }) {
  const q = useRestPages('getFcmOrders', { query: { subtrader_id: id } }, { pageSize: 200 });
  const rows = useMemo(() => q.data?.pages.flatMap((p) => p.orders) ?? [], [q.data]);
  return (
    <DataTable label={`FCM orders of ${id}`} data={rows} columns={orderColumns} getRowId={(o) => o.order_id} loading={q.isPending} loadingText="Loading orders…" error={q.error} onRetry={() => void q.refetch()} emptyText={`No orders for ${id}.`} />
  );
}

function SubtraderPositions({ id }: { id: string }) {
  const q = useRestPages('getFcmPositions', { query: { subtrader_id: id } }, { pageSize: 500 });
  const rows = useMemo(() => q.data?.pages.flatMap((p) => p.market_positions) ?? [], [q.data]);
  return (
    <DataTable
      label={`FCM positions of ${id}`}
      data={rows}
      columns={positionColumns}
      getRowId={(p) => `${p.ticker}-${p.exchange_index}`}
      {...queryState(q)}
      loadingText="Loading positions…"
      emptyText={`No positions for ${id}.`}
    />
  );
}

function FcmFills() {
  const q = useRestPages('getFcmFills', { query: {} }, { sizeParam: null });
  const rows = useMemo(() => q.data?.pages.flatMap((p) => p.fills) ?? [], [q.data]);
  return (
    <DataTable
      label="FCM fills"
      data={rows}
      columns={fillColumns}
      getRowId={(f) => f.fill_id}
      {...queryState(q)}
      loadingText="Loading FCM fills…"
      emptyText="No fills by any subtrader."
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

type SubTab = 'blocked' | 'cap' | 'orders' | 'positions';

export function FcmPanel() {
  const member = useConnection((s) => s.view?.isFcmMember ?? false);
  const qc = useQueryClient();
  const subtraders = useRest('getSubtraders', undefined, { enabled: member });
  const resting = useRest('getTotalRestingOrderValue', undefined, { enabled: member });
  const [picked, setPicked] = useState<string | null>(null);
  const [sub, setSub] = useState<SubTab>('blocked');
  const [view, setView] = useState<'subtraders' | 'fills'>('subtraders');
  const [suffix, setSuffix] = useState('');
  const create = useMutation({
    mutationFn: () => rest('createSubtrader', { body: { subtrader_suffix: suffix } }),
    onSuccess: (r) => {
      notify('success', `Created subtrader ${r.subtrader_id}`);
      setSuffix('');
      void qc.invalidateQueries({ queryKey: ['rest', 'getSubtraders'] });
    },
  });
  if (!member) return <Empty>FCM tools are for clearing-member accounts; this account is not one.</Empty>;
  return (
    <div className="panel">
      <div className="panel-bar">
        <Tabs
          label="FCM views"
          tabs={[
            { id: 'subtraders', label: 'Subtraders' },
            { id: 'fills', label: 'FCM fills' },
          ]}
          value={view}
          onChange={setView}
        />
        <span className="grow" />
        <span className="dim">Resting order value: {resting.data ? fmtCents(resting.data.total_resting_order_value) : resting.error ? 'unavailable' : '…'}</span>
      </div>
      {view === 'fills' ? (
        <FcmFills />
      ) : (
        <div className="split">
          <div style={{ flex: '1 1 45%', display: 'flex', flexDirection: 'column', borderRight: '1px solid var(--border)' }}>
            <DataTable
              label="Subtraders"
              data={subtraders.data?.subtraders ?? []}
              columns={subtraderColumns}
              getRowId={(s) => s.subtrader_id}
              {...queryState(subtraders)}
              loadingText="Loading subtraders…"
              emptyText="No subtraders yet."
              onActivate={(s) => setPicked(s.subtrader_id)}
              rowClassName={(s) => (s.subtrader_id === picked ? 'active-row' : undefined)}
              tools={
                <form
                  className="row"
                  onSubmit={(e) => {
                    e.preventDefault();
                    if (SUFFIX_RE.test(suffix)) create.mutate();
                  }}
                >
                  <input placeholder="New subtrader suffix" aria-label="Suffix of the new subtrader" value={suffix} onChange={(e) => setSuffix(e.target.value)} aria-invalid={!!suffix && !SUFFIX_RE.test(suffix)} style={{ width: 150 }} />
                  <button type="submit" className="btn btn-sm" disabled={!SUFFIX_RE.test(suffix) || create.isPending}>
                    Create
                  </button>
                  {suffix && !SUFFIX_RE.test(suffix) && <span className="inline-error">1-16 letters or digits</span>}
                  {create.error ? <InlineError error={create.error} /> : null}
                </form>
              }
            />
          </div>
          <div style={{ flex: '1 1 55%', display: 'flex', flexDirection: 'column', minWidth: 0 }}>
            {picked ? (
              <>
                <div className="panel-bar">
                  <strong className="mono">{picked}</strong>
                  <Tabs
                    label="Subtrader views"
                    tabs={[
                      { id: 'blocked', label: 'Blocked categories' },
                      { id: 'cap', label: 'Daily cap' },
                      { id: 'orders', label: 'Orders' },
                      { id: 'positions', label: 'Positions' },
                    ]}
                    value={sub}
                    onChange={setSub}
                  />
                </div>
                <div className="tabpanel">
                  {sub === 'blocked' && <Blocked id={picked} />}
                  {sub === 'cap' && <DailyCap id={picked} />}
                  {sub === 'orders' && <SubtraderOrders id={picked} />}
                  {sub === 'positions' && <SubtraderPositions id={picked} />}
                </div>
              </>
            ) : (
              <div className="state">Open a subtrader (Enter or double-click) to manage it.</div>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
