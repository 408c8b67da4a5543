// Orders main is still placing: sent with no answer yet, or being looked up by their
// client_order_id after an answer was lost. Shown above the blotter until the exchange's answer
// (or the lookup) settles them, so the trader never wonders whether a click went out.
import { fmtCount } from '../../lib/format';
import { fmtPx } from '../../lib/ticks';
import { usePrivate } from '../../stores/private';
import type { PendingOrderView } from '../../../src-shared/ipc/contract';

const STATE_TEXT: Record<PendingOrderView['state'], string> = {
  sending: 'sending',
  checking: 'answer lost: checking whether it reached the exchange',
  waiting: 'retrying shortly',
};

export function PendingOrders() {
  const pending = usePrivate((s) => s.pending);
  if (pending.length === 0) return null;
  return (
    <ul className="pending-orders" aria-label="Orders being placed" aria-live="polite">
      {pending.map((o) => (
        <li key={o.clientOrderId} title={`client_order_id ${o.clientOrderId}${o.lastError ? `\nlast error: ${o.lastError}` : ''}`}>
          <span className="spinner" aria-hidden="true" />
          <span className={o.side === 'bid' ? 'bid-text' : 'ask-text'}>{o.side === 'bid' ? '▲ Buy' : '▼ Sell'}</span>
          <span>
            {fmtCount(o.count)} <span className="mono">{o.ticker}</span> @ {fmtPx(o.ticker, o.price)}
          </span>
          <span className="dim">
            {STATE_TEXT[o.state]}
            {o.sends > 1 ? ` (send ${o.sends})` : ''}
            {o.lookups > 0 ? ` (lookup ${o.lookups})` : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}
