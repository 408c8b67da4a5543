// Account, Allocation: the target balance split across exchange instances.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { rest, type RestResult } from '../../lib/rest';
import { useRest } from '../../hooks/useRest';
import { notify } from '../../stores/notices';
import { ErrorState, InlineError, Loading } from '../../ui/States';

interface AllocationRow {
  exchange_index: string;
  percent: string;
}

type Saved = RestResult<'getTargetBalanceAllocation'>;

export function Allocation() {
  const q = useRest('getTargetBalanceAllocation');
  if (q.isPending) return <Loading text="Loading the target allocation…" />;
  if (q.error) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  // The form starts from what the exchange holds in the render that shows it, and again from an
  // answer that differs (keyed by its content: a refetch that reads the same split, after a
  // reconnect, keeps what the trader is typing). Copied in by an effect, it rendered once with no
  // rows: a valid empty allocation, Save enabled, for a click to send over the trader's real one.
  return <AllocationForm key={JSON.stringify(q.data)} saved={q.data} />;
}

function AllocationForm({ saved }: { saved: Saved }) {
  const qc = useQueryClient();
  const [rows, setRows] = useState<AllocationRow[]>(() => saved.allocations.map((a) => ({ exchange_index: String(a.exchange_index), percent: String(a.percent) })));
  const [reservation, setReservation] = useState<'sum' | 'max'>(saved.resting_margin_reservation ?? 'sum');
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
  const bad = rows.map((r) => !/^\d+$/.test(r.exchange_index) || !/^\d+$/.test(r.percent) || Number(r.percent) > 100);
  const dup = new Set(rows.map((r) => r.exchange_index)).size !== rows.length;
  const total = rows.reduce((s, r) => s + (/^\d+$/.test(r.percent) ? Number(r.percent) : 0), 0);
  const valid = !bad.some(Boolean) && !dup && rows.length <= 101 && (rows.length === 0 || total === 100);
  return (
    <div className="panel-body pad col">
      <div className="dim">How automatic sweeps spread cash across shards. Percentages are whole numbers and add up to 100.</div>
      <table className="grid u-w-auto">
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
                <input className="num u-w-70" aria-label="Shard" value={r.exchange_index} aria-invalid={bad[i]} onChange={(e) => setRows(rows.map((x, j) => (j === i ? { ...x, exchange_index: e.target.value } : x)))} />
              </td>
              <td>
                <input className="num u-w-70" aria-label="Percent" value={r.percent} aria-invalid={bad[i]} onChange={(e) => setRows(rows.map((x, j) => (j === i ? { ...x, percent: e.target.value } : x)))} />
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
      <label className="field u-maxw-320">
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
