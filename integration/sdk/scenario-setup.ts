// State the contract scenario needs that no public operation creates: fresh events and
// markets in seeded series, market lifecycle (close, determine, settle), and activity at past
// times so the caller's archive has rows. All through the node's ordinary journaled commands,
// as the other integration tests and the simulation do.
import { randomUUID } from 'node:crypto';
import type { TestExchange } from '../../test-support/exchange/harness';

const DAY = 86_400_000;

export async function submit(t: TestExchange, cmd: Record<string, unknown>, nowMs = t.ex.svc.node.now()): Promise<Record<string, unknown>> {
  const o = await t.ex.svc.node.submit({ nowMs, ...cmd } as never);
  if (!o.ok) throw new Error(`${String(cmd.type)}: ${JSON.stringify(o.result)}`);
  return o.result as Record<string, unknown>;
}

/** A new event in a seeded series with one open market; returns its tickers. */
export async function freshMarket(t: TestExchange, series: string, tag: string): Promise<{ event: string; ticker: string }> {
  const event = `${series}-${tag}${randomUUID().slice(0, 4).toUpperCase()}`;
  const ticker = `${event}-M1`;
  const now = Date.now();
  await submit(t, { type: 'catalogUpsertEvent', event: { event_ticker: event, series_ticker: series, title: `SDK contract ${tag}` } });
  await submit(t, { type: 'catalogCreateMarket', open: true, market: { ticker, event_ticker: event, title: `SDK contract ${tag} market`, open_ms: now - 3 * DAY, close_ms: now + DAY } });
  return { event, ticker };
}

/** Closes, determines (YES) and settles a market now. */
export async function settle(t: TestExchange, ticker: string): Promise<void> {
  await submit(t, { type: 'catalogMarketLifecycle', ticker, action: 'close' });
  await submit(t, { type: 'catalogMarketLifecycle', ticker, action: 'determine', result: 'yes' });
  await submit(t, { type: 'catalogMarketLifecycle', ticker, action: 'settle' });
}

/**
 * The trader's archived activity: a market traded (one fill, one canceled order) and settled
 * 40 days ago, before the 30-day historical cutoff. Returns the archived market's ticker.
 */
export async function archivedActivity(t: TestExchange): Promise<string> {
  const traderId = t.account('trader').user_id;
  const cpId = t.account('counterparty').user_id;
  const past = Math.floor(Date.now() / DAY) * DAY - 40 * DAY;
  const event = 'KXCPI-SDKARCH';
  const ticker = `${event}-T2.5`;
  await submit(t, { type: 'catalogUpsertEvent', event: { event_ticker: event, series_ticker: 'KXCPI', title: 'Archived SDK contract event' } }, past);
  await submit(t, { type: 'catalogCreateMarket', open: true, market: { ticker, event_ticker: event, title: 'Archived SDK contract market', open_ms: past, close_ms: past + DAY } }, past);
  await submit(t, { type: 'createOrder', userId: cpId, ticker, side: 'ask', priceTicks: 3000, countCenti: 1000, clientOrderId: randomUUID() }, past + 1000);
  await submit(t, { type: 'createOrder', userId: traderId, ticker, side: 'bid', priceTicks: 3000, countCenti: 1000, timeInForce: 'immediate_or_cancel', clientOrderId: randomUUID() }, past + 2000);
  const rested = await submit(t, { type: 'createOrder', userId: traderId, ticker, side: 'bid', priceTicks: 1000, countCenti: 500, clientOrderId: randomUUID() }, past + 3000);
  await submit(t, { type: 'cancelOrder', userId: traderId, orderId: (rested.order as { order_id: string }).order_id }, past + 4000);
  await submit(t, { type: 'catalogMarketLifecycle', ticker, action: 'close' }, past + DAY);
  await submit(t, { type: 'catalogMarketLifecycle', ticker, action: 'determine', result: 'yes' }, past + DAY + 1000);
  await submit(t, { type: 'catalogMarketLifecycle', ticker, action: 'settle' }, past + DAY + 2000);
  return ticker;
}
