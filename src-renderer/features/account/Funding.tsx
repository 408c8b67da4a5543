// Account, Funding: deposits, withdrawals and transfers between exchange instances.
import { useState } from 'react';
import type { Deposit, IntraExchangeTransfer } from '../../../src-shared/wire/portfolio';
import { Decimal } from '../../../src-shared/money';
import { fmtCash, fmtCents, fmtDateTime, isoTime } from '../../lib/format';
import { useRest, useRestPages } from '../../hooks/useRest';
import { col, DataTable, type Columns, queryState } from '../../ui/DataTable';
import { KeyValues } from '../../ui/Field';
import { Modal } from '../../ui/Modal';
import { QueryView } from '../../ui/States';
import { LoadMore } from '../../ui/LoadMore';

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

export function Funding() {
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
      footer={<LoadMore pages={q} label="Load older" />}
    />
  );
}
