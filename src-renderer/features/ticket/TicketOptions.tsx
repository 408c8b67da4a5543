// The ticket's order options: time in force, self-trade prevention, order group, subaccount,
// expiry and post-only.
import { fmtCash, fmtCount } from '../../lib/format';
import { useRest } from '../../hooks/useRest';
import { useTrading, type StpChoice, type TimeInForceChoice } from '../../stores/trading';
import { Field } from '../../ui/Field';

export function TicketOptions() {
  const draft = useTrading((s) => s.draft);
  const setDraft = useTrading((s) => s.setDraft);
  const groups = useRest('getOrderGroups', undefined, { staleTime: 30_000 });
  const subaccounts = useRest('getSubaccountBalances', undefined, { staleTime: 60_000 });
  return (
    <div className="form-grid u-gtc-1fr-1fr">
      <Field label="Time in force">
        <select value={draft.tif} onChange={(e) => setDraft({ tif: e.target.value as TimeInForceChoice })}>
          <option value="good_till_canceled">Good till canceled</option>
          <option value="immediate_or_cancel">Immediate or cancel</option>
          <option value="fill_or_kill">Fill or kill</option>
        </select>
      </Field>
      <Field label="Self-trade prevention">
        <select value={draft.stp} onChange={(e) => setDraft({ stp: e.target.value as StpChoice })}>
          <option value="">Exchange default</option>
          <option value="taker_at_cross">Cancel the taker</option>
          <option value="maker">Cancel the resting maker</option>
        </select>
      </Field>
      <Field label="Order group" hint={groups.error ? 'order groups unavailable' : undefined}>
        <select value={draft.orderGroupId} onChange={(e) => setDraft({ orderGroupId: e.target.value })}>
          <option value="">None</option>
          {(groups.data?.order_groups ?? []).map((g) => (
            <option key={g.order_group_id} value={g.order_group_id}>
              {g.order_group_id} ({fmtCount(g.contracts_used ?? '0')}/{fmtCount(g.contracts_limit ?? '0')})
            </option>
          ))}
        </select>
      </Field>
      <Field label="Subaccount">
        <select value={draft.subaccount} onChange={(e) => setDraft({ subaccount: e.target.value })}>
          <option value="">Primary (0)</option>
          {(subaccounts.data?.subaccount_balances ?? [])
            .filter((s) => s.subaccount_number !== 0)
            .map((s) => (
              <option key={s.subaccount_number} value={String(s.subaccount_number)}>
                #{s.subaccount_number} ({fmtCash(s.balance)})
              </option>
            ))}
        </select>
      </Field>
      <Field label="Expires (optional)">
        <input type="datetime-local" value={draft.expiration} onChange={(e) => setDraft({ expiration: e.target.value })} />
      </Field>
      <label className="check u-as-end-h-22">
        <input type="checkbox" checked={draft.postOnly} onChange={(e) => setDraft({ postOnly: e.target.checked })} />
        Post only (never take)
      </label>
    </div>
  );
}
