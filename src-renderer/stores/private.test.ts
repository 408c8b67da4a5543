import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_COMMS, MAX_DONE_ORDERS, MAX_FILLS, applyPrivateUpdate, privateStore, restingOrdersIn, seedOrders } from './private';

const order = (id: string, extra: Record<string, unknown> = {}) => ({
  order_id: id,
  ticker: 'T',
  status: 'resting',
  book_side: 'bid',
  yes_price_dollars: '0.5000',
  remaining_count_fp: '10.00',
  fill_count_fp: '0.00',
  ...extra,
});

describe('private store upserts', () => {
  beforeEach(() => applyPrivateUpdate({ reset: true }));

  it('merges a partial stream update into the order it already holds', () => {
    seedOrders([order('o1')]);
    applyPrivateUpdate({ orders: [{ order_id: 'o1', remaining_count_fp: '4.00', fill_count_fp: '6.00' }] });
    expect(privateStore.getState().orders.o1).toMatchObject({ price: '0.5000', side: 'bid', remaining: '4.00', filled: '6.00', status: 'resting' });
  });

  it('drops an order from the resting set when the stream says it was canceled', () => {
    seedOrders([order('o1'), order('o2')]);
    applyPrivateUpdate({ orders: [{ order_id: 'o1', status: 'canceled' }] });
    expect(restingOrdersIn(privateStore.getState(), 'T').map((o) => o.order_id)).toEqual(['o2']);
  });

  it('keeps fills once each, newest first', () => {
    const fill = (id: string, ts: number) => ({ fill_id: id, order_id: 'o1', ticker: 'T', yes_price_dollars: '0.5', count_fp: '1.00', is_taker: true, ts });
    applyPrivateUpdate({ fills: [fill('f1', 100), fill('f2', 200)] });
    applyPrivateUpdate({ fills: [fill('f2', 200), fill('f3', 150)] });
    expect(privateStore.getState().fills.map((f) => f.fill_id)).toEqual(['f2', 'f3', 'f1']);
  });

  it('replaces everything on reset and counts the resets', () => {
    seedOrders([order('o1')]);
    const before = privateStore.getState().resets;
    applyPrivateUpdate({ reset: true, orders: [order('o9')] });
    expect(Object.keys(privateStore.getState().orders)).toEqual(['o9']);
    expect(privateStore.getState().resets).toBe(before + 1);
  });

  it('removes a deleted order group and bumps the communications version', () => {
    applyPrivateUpdate({ orderGroups: [{ order_group_id: 'g1', contracts_limit: 10 }] });
    const v = privateStore.getState().commsVersion;
    applyPrivateUpdate({ orderGroups: [{ order_group_id: 'g1', event_type: 'deleted' }] });
    expect(privateStore.getState().orderGroups.g1).toBeUndefined();
    expect(privateStore.getState().commsVersion).toBe(v + 1);
  });

  it('marks a deleted RFQ canceled, reading either id spelling', () => {
    applyPrivateUpdate({ rfqs: [{ id: 'r1', market_ticker: 'T', status: 'open' }] });
    applyPrivateUpdate({ rfqs: [{ rfq_id: 'r1', deleted_ts: 5 }] });
    expect(privateStore.getState().rfqs.r1).toMatchObject({ rfq_id: 'r1', status: 'canceled', market_ticker: 'T' });
  });

  it(`keeps every resting order and the ${MAX_DONE_ORDERS} finished ones that changed last`, () => {
    seedOrders([order('keep-resting')]);
    for (let b = 0; b < MAX_DONE_ORDERS * 2; b += 100) {
      const ids = Array.from({ length: 100 }, (_, j) => `o${b + j}`);
      applyPrivateUpdate({ orders: ids.map((id) => order(id)) });
      applyPrivateUpdate({ orders: ids.map((id, j) => ({ order_id: id, status: j % 2 ? 'canceled' : 'executed' })) });
    }
    const orders = privateStore.getState().orders;
    expect(orders['keep-resting']?.status).toBe('resting');
    expect(Object.keys(orders).length).toBe(MAX_DONE_ORDERS + 1);
    expect(orders[`o${MAX_DONE_ORDERS * 2 - 1}`]).toBeDefined();
    expect(orders.o0).toBeUndefined();
  });

  it(`keeps the newest ${MAX_FILLS} fills of a long session`, () => {
    const fill = (i: number) => ({ fill_id: `f${i}`, order_id: 'o1', ticker: 'T', yes_price_dollars: '0.5', count_fp: '1.00', is_taker: true, ts: 1_000 + i });
    for (let b = 0; b < MAX_FILLS + 600; b += 200) applyPrivateUpdate({ fills: Array.from({ length: 200 }, (_, j) => fill(b + j)) });
    const fills = privateStore.getState().fills;
    expect(fills.length).toBe(MAX_FILLS);
    expect(fills[0]?.fill_id).toBe(`f${MAX_FILLS + 599}`);
    expect(fills.some((f) => f.fill_id === 'f0')).toBe(false);
  });

  it(`keeps every open RFQ and accepted quote, and the ${MAX_COMMS} that changed last of the rest`, () => {
    applyPrivateUpdate({ rfqs: [{ rfq_id: 'r-open', market_ticker: 'T', status: 'open' }], quotes: [{ quote_id: 'q-acc', rfq_id: 'r-open', status: 'accepted' }] });
    for (let b = 0; b < MAX_COMMS * 3; b += 100) {
      const ids = Array.from({ length: 100 }, (_, j) => b + j);
      applyPrivateUpdate({ rfqs: ids.map((i) => ({ rfq_id: `r${i}`, market_ticker: 'T', status: 'open' })), quotes: ids.map((i) => ({ quote_id: `q${i}`, rfq_id: `r${i}`, status: 'open' })) });
      applyPrivateUpdate({ rfqs: ids.map((i) => ({ rfq_id: `r${i}`, deleted_ts: 5 })), quotes: ids.map((i) => ({ quote_id: `q${i}`, status: 'canceled' })) });
    }
    const { rfqs, quotes } = privateStore.getState();
    expect(Object.keys(rfqs).length).toBeLessThanOrEqual(MAX_COMMS);
    expect(Object.keys(quotes).length).toBeLessThanOrEqual(MAX_COMMS);
    expect(rfqs['r-open']?.status).toBe('open');
    expect(quotes['q-acc']?.status).toBe('accepted');
    expect(rfqs[`r${MAX_COMMS * 3 - 1}`]?.status).toBe('canceled');
    expect(quotes[`q${MAX_COMMS * 3 - 1}`]?.status).toBe('canceled');
    expect(rfqs.r0).toBeUndefined();
  });
});
