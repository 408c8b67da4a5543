// Subaccounts: balances, creating one, cash transfers between them, the transfer history and
// netting per subaccount.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SubaccountTransfer } from '../../../src-shared/wire/portfolio';
import { Decimal } from '../../../src-shared/money';
import { rest } from '../../lib/rest';
import { errorText } from '../../lib/errors';
import { fmtCash, fmtCents, fmtTime, isoTime } from '../../lib/format';
import { parseUserDecimal } from '../../lib/order-check';
import { useRest, useRestRows } from '../../hooks/useRest';
import { notify } from '../../stores/notices';
import { col, DataTable, type Columns, queryState } from '../../ui/DataTable';
import { Field } from '../../ui/Field';
import { ErrorState, InlineError, Loading } from '../../ui/States';

const transferColumns: Columns<SubaccountTransfer> = [
  col<SubaccountTransfer>({ id: 'time', header: 'Time', size: 118, accessorFn: (t) => t.created_ts, cell: ({ getValue }) => fmtTime(getValue() as number), meta: { csv: (t) => isoTime(t.created_ts) } }),
  col<SubaccountTransfer>({ id: 'from', header: 'From', size: 60, accessorFn: (t) => t.from_subaccount, meta: { num: true } }),
  col<SubaccountTransfer>({ id: 'to', header: 'To', size: 60, accessorFn: (t) => t.to_subaccount, meta: { num: true } }),
  col<SubaccountTransfer>({ id: 'amount', header: 'Amount', size: 90, accessorFn: (t) => t.amount_cents, cell: ({ getValue }) => fmtCents(getValue() as number), meta: { num: true, csv: (t) => new Decimal(t.amount_cents).div(100).toFixed(2) } }),
  col<SubaccountTransfer>({ id: 'id', header: 'Transfer id', accessorFn: (t) => t.transfer_id, cell: ({ getValue }) => <span className="mono faint">{String(getValue())}</span> }),
];

/** "12.34" dollars to whole cents, or a message. */
export function centsFromText(text: string): { cents?: number; message?: string } {
  const d = parseUserDecimal(text);
  if (!d) return { message: 'Amount must be a number like 25.00' };
  const cents = d.mul(100);
  if (!cents.isInteger()) return { message: 'Amount must be whole cents' };
  if (cents.lte(0)) return { message: 'Amount must be positive' };
  if (cents.gt(Number.MAX_SAFE_INTEGER)) return { message: 'Amount is too large' };
  return { cents: cents.toNumber() };
}

type BalancesQuery = ReturnType<typeof useRest<'getSubaccountBalances'>>;
type NettingQuery = ReturnType<typeof useRest<'getSubaccountNetting'>>;

/** Each subaccount's balance and netting switch, and the button that creates one. */
function BalancesSection({ balances, netting, refresh }: { balances: BalancesQuery; netting: NettingQuery; refresh: () => void }) {
  const create = useMutation({
    mutationFn: () => rest('createSubaccount', { body: {} }),
    onSuccess: (r) => {
      notify('success', `Created subaccount #${r.subaccount_number}`);
      refresh();
    },
  });
  const setNet = async (n: number, enabled: boolean) => {
    try {
      await rest('setSubaccountNetting', { body: { subaccount_number: n, enabled } });
      refresh();
    } catch (err) {
      notify('error', `Could not change netting of #${n}`, errorText(err));
    }
  };
  const nettingOf = new Map((netting.data?.netting_configs ?? []).map((c) => [c.subaccount_number, c.enabled]));
  return (
    <section className="section">
      <h3>Balances</h3>
      {balances.isPending ? (
        <Loading text="Loading subaccounts…" />
      ) : balances.error ? (
        <ErrorState error={balances.error} onRetry={() => void balances.refetch()} />
      ) : (
        <table className="grid u-w-auto-minw-360">
          <thead>
            <tr>
              <th>Subaccount</th>
              <th className="num">Balance</th>
              <th>Netting</th>
              <th>Updated</th>
            </tr>
          </thead>
          <tbody>
            {balances.data.subaccount_balances.map((b) => (
              <tr key={`${b.subaccount_number}-${b.exchange_index ?? 0}`}>
                <td>{b.subaccount_number === 0 ? 'Primary (0)' : `#${b.subaccount_number}`}</td>
                <td className="num">{fmtCash(b.balance)}</td>
                <td>
                  <label className="check">
                    <input type="checkbox" checked={nettingOf.get(b.subaccount_number) ?? false} onChange={(e) => void setNet(b.subaccount_number, e.target.checked)} />
                    {nettingOf.get(b.subaccount_number) ? 'on' : 'off'}
                  </label>
                </td>
                <td className="dim">{fmtTime(b.updated_ts)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {netting.error ? <InlineError error={netting.error} /> : null}
      <div className="row u-mt-6">
        <button type="button" className="btn btn-sm" onClick={() => create.mutate()} disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'New subaccount'}
        </button>
        {create.error ? <InlineError error={create.error} /> : null}
      </div>
    </section>
  );
}

/** Move cash from one subaccount to another. */
function TransferSection({ numbers, refresh }: { numbers: number[]; refresh: () => void }) {
  const [from, setFrom] = useState('0');
  const [to, setTo] = useState('1');
  const [amount, setAmount] = useState('');
  const amountCheck = amount ? centsFromText(amount) : {};
  const transfer = useMutation({
    mutationFn: () =>
      rest('transferBetweenSubaccounts', {
        body: { client_transfer_id: crypto.randomUUID(), from_subaccount: Number(from), to_subaccount: Number(to), amount_cents: amountCheck.cents! },
      }),
    onSuccess: () => {
      notify('success', `Moved ${fmtCents(amountCheck.cents ?? 0)} from #${from} to #${to}`);
      setAmount('');
      refresh();
    },
  });
  const validTransfer = amountCheck.cents !== undefined && from !== to;
  return (
    <section className="section">
      <h3>Transfer cash</h3>
      <form
        className="form-grid"
        onSubmit={(e) => {
          e.preventDefault();
          if (validTransfer) transfer.mutate();
        }}
      >
        <Field label="From">
          <select value={from} onChange={(e) => setFrom(e.target.value)}>
            {(numbers.length ? numbers : [0]).map((n) => (
              <option key={n} value={n}>
                {n === 0 ? 'Primary (0)' : `#${n}`}
              </option>
            ))}
          </select>
        </Field>
        <Field label="To" error={from === to ? 'Pick a different subaccount' : undefined}>
          <select value={to} onChange={(e) => setTo(e.target.value)}>
            {(numbers.length ? numbers : [0, 1]).map((n) => (
              <option key={n} value={n}>
                {n === 0 ? 'Primary (0)' : `#${n}`}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Amount ($)" error={amountCheck.message}>
          <input className="num" value={amount} onChange={(e) => setAmount(e.target.value)} placeholder="25.00" />
        </Field>
        <button type="submit" className="btn btn-primary" disabled={!validTransfer || transfer.isPending}>
          {transfer.isPending ? 'Transferring…' : 'Transfer'}
        </button>
      </form>
      {transfer.error ? <InlineError error={transfer.error} /> : null}
    </section>
  );
}

export function Subaccounts() {
  const qc = useQueryClient();
  const balances = useRest('getSubaccountBalances');
  const netting = useRest('getSubaccountNetting');
  const { pages: transfers, rows: transferRows } = useRestRows('getSubaccountTransfers', { query: {} }, 'transfers', { pageSize: 200 });
  const refresh = () => void qc.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'rest' && String(q.queryKey[1]).startsWith('getSubaccount') });
  const numbers = (balances.data?.subaccount_balances ?? []).map((b) => b.subaccount_number);

  return (
    <div className="panel-body">
      <BalancesSection balances={balances} netting={netting} refresh={refresh} />
      <TransferSection numbers={numbers} refresh={refresh} />
      <section className="u-d-flex-fd-column-h-260">
        <DataTable
          label="Subaccount transfers"
          data={transferRows}
          columns={transferColumns}
          getRowId={(t) => t.transfer_id}
          {...queryState(transfers)}
          loadingText="Loading transfers…"
          emptyText="No transfers between subaccounts."
        />
      </section>
    </div>
  );
}
