// The exposure a call would take, as risk-gate intents on the YES leg, for every 'exposure' row
// the passthrough sends (order creates and amends never come this way: they go through the typed,
// gated placeOrder, placeOrders and amendOrder). RFQ quotes, their acceptance and block trades
// need the RFQ, quote or proposal they refer to, read from the exchange first; any other row has
// no reading and is refused.
//   - accepting a quote on `yes` buys YES at its yes_bid; on `no` buys NO at its no_bid (= sells YES at 1 - no_bid);
//   - the quoter takes the other side: sells YES at yes_bid, or buys YES at 1 - no_bid;
//   - a block trade's buyer buys YES at price_centi_cents / 10000, its seller sells YES there.
import type { ApiClient } from '../api/client';
import { collectAll } from '../api/paginate';
import { Decimal } from '../../src-shared/money';
import type { OrderIntent, Side } from './gate';
import type { ValidatedArgs } from '../api/client';

type Row = Record<string, unknown>;
const ONE = new Decimal(1);

export class IntentError extends Error {
  override name = 'IntentError';
}

const text = (v: unknown, what: string): string => {
  if (typeof v === 'string' && v.length > 0) return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  throw new IntentError(`cannot size the exposure: ${what} is missing`);
};
const dec = (v: unknown, what: string) => new Decimal(text(v, what));

/** The RFQ's size in contracts; an RFQ sized by cost is sized at the price it would trade at. */
function rfqCount(rfq: Row, price: Decimal): Decimal {
  if (rfq.contracts_fp !== undefined && !new Decimal(text(rfq.contracts_fp, 'contracts')).isZero()) return dec(rfq.contracts_fp, 'contracts');
  const cost = dec(rfq.target_cost_dollars, 'the RFQ contracts or target cost');
  return price.isZero() ? cost : cost.div(price).toDecimalPlaces(2, Decimal.ROUND_UP);
}

/** Both ways a quote can trade for the one who accepts side `yes` / `no`. */
function takerLeg(q: Row, side: 'yes' | 'no'): { side: Side; price: Decimal } {
  return side === 'yes' ? { side: 'bid', price: dec(q.yes_bid_dollars, 'yes_bid') } : { side: 'ask', price: ONE.minus(dec(q.no_bid_dollars, 'no_bid')) };
}
const opposite = (l: { side: Side; price: Decimal }) => ({ side: (l.side === 'bid' ? 'ask' : 'bid') as Side, price: l.price });

export interface IntentContext {
  client: ApiClient;
  userId: string | null;
}

export async function intentsFor(id: string, v: ValidatedArgs, ctx: IntentContext): Promise<OrderIntent[]> {
  const body = (v.body ?? {}) as Row;
  const params = v.params as Row;
  switch (id) {
    case 'createQuote': {
      const rfq = (await ctx.client.getRfq({ params: { rfq_id: text(body.rfq_id, 'rfq_id') } })).rfq as Row;
      const ticker = text(rfq.market_ticker, 'market_ticker');
      const q = { yes_bid_dollars: text(body.yes_bid, 'yes_bid'), no_bid_dollars: text(body.no_bid, 'no_bid') };
      const legs = (['yes', 'no'] as const).filter((s) => !new Decimal(s === 'yes' ? q.yes_bid_dollars : q.no_bid_dollars).isZero()).map((s) => opposite(takerLeg(q, s)));
      return legs.map((l) => ({ action: 'quote', ticker, ...l, count: rfqCount(rfq, l.price), offBook: true }));
    }
    case 'acceptQuote':
    case 'confirmQuote': {
      const q = (await ctx.client.getQuote({ params: { quote_id: text(params.quote_id, 'quote_id') } })).quote as Row;
      const rfq = (await ctx.client.getRfq({ params: { rfq_id: text(q.rfq_id, 'rfq_id') } })).rfq as Row;
      const accepting = id.startsWith('accept');
      const side = accepting ? body.accepted_side : q.accepted_side;
      if (side !== 'yes' && side !== 'no') throw new IntentError('cannot size the exposure: the quote has no accepted side');
      const leg = accepting ? takerLeg(q, side) : opposite(takerLeg(q, side));
      const quoted = q.contracts_fp === undefined ? null : dec(q.contracts_fp, 'contracts');
      const count = quoted && !quoted.isZero() ? quoted : rfqCount(rfq, leg.price);
      return [{ action: accepting ? 'accept_quote' : 'confirm_quote', ticker: text(rfq.market_ticker ?? q.market_ticker, 'market_ticker'), ...leg, count, offBook: true }];
    }
    case 'createBlockTradeProposal':
      return blockIntents('block_propose', body, ctx.userId);
    case 'acceptBlockTradeProposal': {
      const pid = text(params.block_trade_proposal_id, 'block_trade_proposal_id');
      const all = (await collectAll(ctx.client, 'getBlockTradeProposals', {}, { maxPages: 20 })) as Row[];
      const p = all.find((x) => x.id === pid);
      if (!p) throw new IntentError(`cannot size the exposure: no block trade proposal ${pid}`);
      return blockIntents('block_accept', p, ctx.userId);
    }
    default:
      throw new IntentError(`no exposure reading for ${id}`);
  }
}

function blockIntents(action: string, p: Row, me: string | null): OrderIntent[] {
  const price = new Decimal(text(p.price_centi_cents, 'price_centi_cents')).div(10_000);
  const count = new Decimal(text(p.centicount, 'centicount')).div(100);
  const ticker = text(p.market_ticker, 'market_ticker');
  const sides: Side[] = p.buyer_user_id === me ? ['bid'] : p.seller_user_id === me ? ['ask'] : ['bid', 'ask'];
  return sides.map((side) => ({ action, ticker, side, price, count, offBook: true }));
}
