// Reverse (issue 24): turn my position in the market into the same size on the other side (YES 3
// -> NO 3) with one order for twice the size, crossing the spread at the inside, after a question
// that focuses Keep. The order goes the way every order goes (services/trade placeAt: main's risk
// gate checks it, asks where it wants a confirmation, and refuses it with the kill switch on).
import { Decimal, ticksToDollars } from '../../../src-shared/money';
import { originOf, useCommand } from '../../lib/commands';
import { wireCount } from '../../lib/order-check';
import { fmtCount } from '../../lib/format';
import { fmtPx } from '../../lib/ticks';
import { bookOf, insideOf } from '../../stores/books';
import { notify } from '../../stores/notices';
import { privateStore } from '../../stores/private';
import { useRisk } from '../../stores/risk';
import { useTrading } from '../../stores/trading';
import { refuseWhileTyping } from '../../stores/typed-size';
import { placeAt } from '../../services/trade';
import { confirmAction } from '../../ui/confirm';

export type ReversePlan =
  | { ok: true; side: 'bid' | 'ask'; count: string; priceTicks: number; holds: string; becomes: string }
  | { ok: false; title: string; detail: string };

/**
 * The one order that reverses a position: holding YES (positive) sells twice the size at the best
 * bid; holding NO (negative) buys twice the size at the best offer. Nothing to reverse without a
 * position or without the side of the book to cross into.
 */
export function planReverse(ticker: string, position: string | undefined, inside: { bid: number | null; ask: number | null }): ReversePlan {
  const p = new Decimal(position && /^-?\d+(?:\.\d+)?$/.test(position) ? position : '0');
  if (p.isZero()) return { ok: false, title: `No position in ${ticker}`, detail: 'Nothing to reverse.' };
  const side = p.gt(0) ? 'ask' : 'bid';
  const priceTicks = side === 'ask' ? inside.bid : inside.ask;
  if (priceTicks === null) return { ok: false, title: `Cannot reverse ${ticker}`, detail: `There is no ${side === 'ask' ? 'bid to sell into' : 'offer to buy from'}.` };
  const size = fmtCount(p.abs());
  return {
    ok: true,
    side,
    count: wireCount(p.abs().mul(2)),
    priceTicks,
    holds: `${size} ${p.gt(0) ? 'YES' : 'NO'}`,
    becomes: `${size} ${p.gt(0) ? 'NO' : 'YES'}`,
  };
}

/** The reverse key (Shift+R by default) and palette action, for the ticket's linked market. */
export function useReverseCommand(): void {
  useCommand('trade.reverse', (via) => {
    if (refuseWhileTyping()) return;
    const t = useTrading.getState().ticker;
    if (!t) {
      notify('warning', 'No market selected', 'Pick a market first (Alt+1, then Enter on a row).');
      return;
    }
    if (useRisk.getState().view?.killSwitch.engaged) {
      notify('error', `Reverse ${t} refused`, 'The kill switch is engaged: no new orders until it is released.');
      return;
    }
    const plan = planReverse(t, privateStore.getState().positions[t]?.position, insideOf(bookOf(t)));
    if (!plan.ok) {
      notify('info', plan.title, plan.detail);
      return;
    }
    void (async () => {
      const ok = await confirmAction({
        title: 'Reverse position?',
        body: `You hold ${plan.holds} in ${t}. ${plan.side === 'ask' ? 'Sell' : 'Buy'} ${fmtCount(plan.count)} YES at ${fmtPx(t, ticksToDollars(plan.priceTicks))} (crossing the spread) to hold ${plan.becomes}. Any part not filled at that price rests.`,
        confirmLabel: 'Reverse',
        danger: true,
      });
      if (ok) await placeAt(t, plan.side, plan.priceTicks, plan.count, originOf(via)).catch(() => undefined);
    })();
  });
}
