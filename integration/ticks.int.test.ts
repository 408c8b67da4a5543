// Price grids through REST: the seeded catalog publishes the real service's price level
// structures (mostly cents), and every request that carries a price off its market's tick is
// refused as the service refuses it (400 invalid_price) and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestExchange, type TestExchange } from '../test-support/exchange/harness';
import { apiError } from '../test-support/exchange/trading-fixtures';
import type { ApiClient } from '../src-main/api/client';
import { isPriceLevelStructure, rangesOf, type PriceLevelStructure } from '../src-shared/price-ranges';
import { Decimal } from '../src-shared/money';

let t: TestExchange;
let trader: ApiClient;
let counterparty: ApiClient;
type Row = { ticker: string; status: string; volume_fp: string; price_level_structure?: string; price_ranges?: unknown; mve_collection_ticker?: string; yes_ask_dollars?: string };
let open: Row[] = [];

beforeAll(async () => {
  t = await startTestExchange();
  trader = t.client('trader');
  counterparty = t.client('counterparty');
  open = (await trader.getMarkets({ query: { status: 'open', limit: 1000 } })).markets as Row[];
});
afterAll(async () => {
  await t?.close();
});

const structureOf = (m: Row) => m.price_level_structure as PriceLevelStructure;
const first = (s: PriceLevelStructure) => {
  const m = open.find((x) => structureOf(x) === s && !x.mve_collection_ticker);
  if (!m) throw new Error(`no open ${s} market`);
  return m.ticker;
};
const order = (ticker: string, price: string, side: 'bid' | 'ask' = 'bid') => trader.createOrder({ body: { ticker, side, price, count: '1', client_order_id: randomUUID() } });
/** The order a create made, as the exchange lists it. */
async function placed(p: ReturnType<typeof order>): Promise<{ order_id: string; status: string; yes_price_dollars?: string }> {
  const r = (await p) as { order_id?: string; order?: { order_id: string } };
  return (await trader.getOrder({ params: { order_id: r.order?.order_id ?? r.order_id! } })).order;
}

describe('the catalog publishes real price grids', () => {
  it('every market names one of the four structures with its exact ranges; most trade in cents, some tapered and deci-cent', async () => {
    expect(open.length).toBeGreaterThan(20);
    const counts = new Map<string, number>();
    for (const m of open) {
      expect(isPriceLevelStructure(m.price_level_structure), `${m.ticker}: ${m.price_level_structure}`).toBe(true);
      expect(m.price_ranges).toEqual(rangesOf(structureOf(m)));
      counts.set(structureOf(m), (counts.get(structureOf(m)) ?? 0) + 1);
    }
    expect(counts.get('linear_cent')!).toBeGreaterThan(open.length / 2);
    expect(counts.get('tapered_deci_cent')).toBeGreaterThan(0);
    expect(counts.get('deci_cent')).toBeGreaterThan(0);
    expect(counts.get('linear_centi_cent')).toBeUndefined();
  });

  it('the three busiest open markets (the simulation trades them most) are in cents', () => {
    const busiest = [...open].sort((a, b) => new Decimal(b.volume_fp).cmp(a.volume_fp) || (a.ticker < b.ticker ? -1 : 1)).slice(0, 3);
    expect(busiest.map((m) => [m.ticker, m.price_level_structure])).toEqual(busiest.map((m) => [m.ticker, 'linear_cent']));
  });
});

describe("prices off the market's tick are refused", () => {
  it('a create in a cent market: 400 invalid_price, and nothing rests', async () => {
    const ticker = first('linear_cent');
    const err = await apiError(order(ticker, '0.0150'));
    expect([err.status, err.code, err.serverMessage]).toEqual([400, 'invalid_price', 'invalid price']);
    expect(err.details).toContain('0.0100');
    const resting = await trader.getOrders({ query: { ticker, status: 'resting' } });
    expect(resting.orders).toHaveLength(0);
    expect((await placed(order(ticker, '0.0200'))).status).toBe('resting');
  });

  it('a tapered market: tenths of a cent in the tails, cents between', async () => {
    const ticker = first('tapered_deci_cent');
    expect((await placed(order(ticker, '0.0150'))).status).toBe('resting');
    expect((await apiError(order(ticker, '0.1050'))).code).toBe('invalid_price');
    expect((await apiError(order(ticker, '0.9155', 'ask'))).code).toBe('invalid_price');
    expect((await apiError(order(ticker, '0.0995'))).code).toBe('invalid_price');
    expect((await placed(order(ticker, '0.9950', 'ask'))).status).toBe('resting');
  });

  it('a batch create: the off-tick entry carries the refusal, the others are placed', async () => {
    const ticker = first('linear_cent');
    const r = await trader.batchCreateOrders({
      body: {
        orders: [
          { ticker, client_order_id: randomUUID(), side: 'bid', count: '1', price: '0.0400' },
          { ticker, client_order_id: randomUUID(), side: 'bid', count: '1', price: '0.0405' },
        ],
      },
    });
    expect(r.orders[0]!.error ?? null).toBeNull();
    expect(r.orders[1]).toMatchObject({ order_id: null, error: { code: 'invalid_price' } });
  });

  it('an amend to an off-tick price: refused, the order keeps its price', async () => {
    // the bid must rest to be amended: a market whose seeded book offers nothing at 0.03 or below
    // (the first cent market's book once offered at 0.03 and filled it: a 404 for an executed order)
    const ticker = open.find((m) => structureOf(m) === 'linear_cent' && !m.mve_collection_ticker && (!m.yes_ask_dollars || new Decimal(m.yes_ask_dollars).gt('0.0300')))?.ticker;
    if (!ticker) throw new Error('no open cent market offering above 0.03');
    const o = await placed(order(ticker, '0.0300'));
    expect(o.status).toBe('resting');
    const err = await apiError(trader.amendOrder({ params: { order_id: o.order_id }, body: { ticker, side: 'bid', price: '0.0350', count: '1' } }));
    expect([err.status, err.code]).toEqual([400, 'invalid_price']);
    expect((await trader.getOrder({ params: { order_id: o.order_id } })).order.yes_price_dollars).toBe('0.0300');
  });

  it('an RFQ quote off the tick: refused; on the tick: taken', async () => {
    const ticker = first('linear_cent');
    const rfqId = (await trader.createRfq({ body: { market_ticker: ticker, rest_remainder: false, contracts: 1 } })).rfq.rfq_id;
    const err = await apiError(counterparty.createQuote({ body: { rfq_id: rfqId, yes_bid: '0.4050', no_bid: '0.5000', rest_remainder: false } }));
    expect([err.status, err.code]).toEqual([400, 'invalid_price']);
    expect(err.details).toContain('yes_bid');
    expect((await counterparty.createQuote({ body: { rfq_id: rfqId, yes_bid: '0.4000', no_bid: '0.5000', rest_remainder: false } })).quote.quote_id).toBeTruthy();
  });
});
