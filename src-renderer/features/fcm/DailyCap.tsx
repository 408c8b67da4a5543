// FCM, a subtrader's daily event-contract cap and what is used of it.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { rest } from '../../lib/rest';
import { fmtCash } from '../../lib/format';
import { parseUserDecimal } from '../../lib/order-check';
import { useRest } from '../../hooks/useRest';
import { notify } from '../../stores/notices';
import { confirmAction } from '../../ui/confirm';
import { Field } from '../../ui/Field';
import { ErrorState, InlineError, Loading } from '../../ui/States';

export function DailyCap({ id }: { id: string }) {
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
        <button type="submit" className="btn btn-sm btn-primary u-as-end" disabled={!valid || setCap.isPending} >
          Set cap
        </button>
        <button
          type="button"
          className="btn btn-sm btn-danger u-as-end"
          
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
