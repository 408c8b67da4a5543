// The benchmark's market on the exchange under test: its ticker and order paths, opening it
// (with the accounts funded), and cancelling every resting order between runs (not timed).
// Used in this process and by the exchange's own process (exchange-child.ts).
import type { RunningExchange } from '../../src-exchange/server';
import { API_PREFIX } from '../../src-shared/endpoints';

export const TICKER = 'BENCH-HTTP';
export const CREATE_PATH = `${API_PREFIX}/portfolio/events/orders`;
export const ORDER_PATH = (id: string) => `${API_PREFIX}/portfolio/events/orders/${id}`;

export async function openBenchMarket(ex: RunningExchange, ids: string[]): Promise<void> {
  const node = ex.svc.node;
  for (const cmd of [
    { type: 'addMarket', ticker: TICKER, eventTicker: 'BENCH', seriesTicker: 'BENCH', title: 'HTTP benchmark market' },
    { type: 'openMarket', ticker: TICKER },
    ...ids.map((userId) => ({ type: 'deposit', userId, amountMicro: 100_000_000 * 1_000_000 })),
  ]) {
    const r = await node.submit({ ...cmd, nowMs: node.now() });
    if (!r.ok) throw new Error(`${cmd.type}: ${JSON.stringify(r.result)}`);
  }
}

export async function cancelAll(ex: RunningExchange, ids: string[]): Promise<void> {
  const node = ex.svc.node;
  for (const userId of ids) await node.submit({ type: 'cancelAllOrders', nowMs: node.now(), userId });
}
