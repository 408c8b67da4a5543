// What the ticket's order costs and pays: cost or collateral, the estimated taker and maker fees,
// the payout and the profit after fee, with the fee formula it used.
import type { TicketQuote } from '../../lib/order-check';
import { fmtCash, fmtCashExact } from '../../lib/format';
import type { FeeTerms } from '../../hooks/useMarketInfo';

export function TicketSummary({ side, quote: q, fee }: { side: 'bid' | 'ask'; quote: TicketQuote | null; fee: FeeTerms }) {
  return (
    <>
      <dl className="summary" aria-live="polite">
        <dt>{side === 'bid' ? 'Cost' : 'Collateral (NO side)'}</dt>
        <dd className="num">{q ? fmtCashExact(q.cost) : '—'}</dd>
        <dt>Fee if it takes (est.)</dt>
        <dd className="num">{q ? fmtCash(q.takerFee) : '—'}</dd>
        {q?.makerFee && (
          <>
            <dt>Fee if it rests (est.)</dt>
            <dd className="num">{fmtCash(q.makerFee)}</dd>
          </>
        )}
        <dt>Pays if {side === 'bid' ? 'YES' : 'NO'} wins</dt>
        <dd className="num">{q ? fmtCash(q.payout) : '—'}</dd>
        <dt>Max profit after fee</dt>
        <dd className="num">{q ? fmtCashExact(q.maxProfit) : '—'}</dd>
      </dl>
      <div className="faint u-fs-11">
        Fee: ceil to the cent of 0.07 × {fee.multiplier ?? '1'} × C × P × (1 − P)
        {fee.overridden ? ' (event override)' : ''}
        {fee.type ? `; type ${fee.type}` : ''}.
      </div>
    </>
  );
}
