// Seeds the private store over REST (orders, positions, fills, balance) and tracks how each seed
// went, so blotters can say "Loading orders…" or show the exchange's error with a retry.
import { create } from 'zustand';
import { centsToDollars } from '../../src-shared/money';
import { rest } from '../lib/rest';
import { walkPages } from '../lib/paginate';
import { seedBalance, seedFills, seedOrders, seedPositions } from './private';

export type SeedKind = 'orders' | 'positions' | 'fills' | 'balance';
export interface SeedStatus {
  state: 'idle' | 'loading' | 'ok' | 'error';
  error?: unknown;
  at?: number;
}

export const useSeed = create<Record<SeedKind, SeedStatus>>()(() => ({
  orders: { state: 'idle' },
  positions: { state: 'idle' },
  fills: { state: 'idle' },
  balance: { state: 'idle' },
}));

type Rec = Record<string, unknown>;

const loaders: Record<SeedKind, () => Promise<void>> = {
  async orders() {
    // every resting order, then the most recent page of everything for the executed/canceled tabs
    const resting = (await walkPages('getOrders', { query: { status: 'resting' } }, { items: 'orders', maxItems: 10_000 })) as Rec[];
    const recent = await rest('getOrders', { query: { limit: 500 } });
    seedOrders([...(recent.orders as unknown as Rec[]), ...resting]);
  },
  async positions() {
    const rows = (await walkPages('getPositions', { query: { count_filter: 'position,total_traded', settlement_status: 'all' } }, { items: 'market_positions', maxItems: 5000 })) as Rec[];
    seedPositions(rows);
  },
  async fills() {
    const page = await rest('getFills', { query: { limit: 500 } });
    seedFills(page.fills as unknown as Rec[]);
  },
  async balance() {
    const b = await rest('getBalance');
    seedBalance({ balance_dollars: b.balance_dollars, portfolio_value_dollars: centsToDollars(b.portfolio_value), updated_ts: b.updated_ts });
  },
};

const inFlight = new Map<SeedKind, Promise<void>>();

export function reseed(kind: SeedKind): Promise<void> {
  const running = inFlight.get(kind);
  if (running) return running;
  useSeed.setState({ [kind]: { ...useSeed.getState()[kind], state: 'loading' } });
  const p = loaders[kind]()
    .then(() => useSeed.setState({ [kind]: { state: 'ok', at: Date.now() } }))
    .catch((error: unknown) => useSeed.setState({ [kind]: { state: 'error', error, at: Date.now() } }))
    .finally(() => inFlight.delete(kind));
  inFlight.set(kind, p);
  return p;
}

export function reseedAll(): void {
  for (const k of Object.keys(loaders) as SeedKind[]) void reseed(k);
}
