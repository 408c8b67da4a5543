// My orders, positions, fills, balance, RFQs, quotes and order groups: seeded over REST, then
// kept current by upserts from the 'private' stream. A vanilla store so non-React code (the
// ladder painter, hotkeys) reads it without rendering.
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { PendingOrderView, PrivateUpdate } from '../../src-shared/ipc/contract';
import { normalizeFill, normalizeOrder, normalizePosition, recordId, type FillRow, type OrderRow, type PositionRow } from './normalize';

type Rec = Record<string, unknown>;

export interface PrivateState {
  orders: Record<string, OrderRow>;
  positions: Record<string, PositionRow>;
  fills: FillRow[];
  balance: { balance_dollars: string; portfolio_value_dollars?: string; updated_ts: number } | null;
  rfqs: Record<string, Rec>;
  quotes: Record<string, Rec>;
  orderGroups: Record<string, Rec>;
  /** orders main is still placing (no answer yet, or being looked up after a lost one) */
  pending: PendingOrderView[];
  /** bumps on every change of rfqs/quotes/orderGroups so blotters can refetch */
  commsVersion: number;
  /** bumps when the stream says to replace everything */
  resets: number;
}

/** Fills kept: the newest this many (the Fills blotter pages older ones from REST). */
export const MAX_FILLS = 5000;

const empty = (): PrivateState => ({
  pending: [],
  orders: {},
  positions: {},
  fills: [],
  balance: null,
  rfqs: {},
  quotes: {},
  orderGroups: {},
  commsVersion: 0,
  resets: 0,
});

export const privateStore = createStore<PrivateState>()(() => empty());

/**
 * Finished orders (canceled, executed) kept for the blotters: the newest this many; resting ones
 * are always kept. A session that trades all day no longer grows the store by every order.
 */
export const MAX_DONE_ORDERS = 2_000;
const DONE = new Set(['canceled', 'executed']);

/** Each order's fields as received; a Map in the order they last changed (the first keys changed longest ago). */
const rawOrders = new Map<string, Rec>();

/** Drops the finished orders that changed longest ago past MAX_DONE_ORDERS (in place). */
function capDone(orders: Record<string, OrderRow>): void {
  if (rawOrders.size <= MAX_DONE_ORDERS) return;
  let done = 0;
  for (const id of rawOrders.keys()) if (DONE.has(orders[id]?.status ?? '')) done++;
  for (const id of rawOrders.keys()) {
    if (done <= MAX_DONE_ORDERS) break;
    if (!DONE.has(orders[id]?.status ?? '')) continue;
    rawOrders.delete(id);
    delete orders[id];
    done--;
  }
}

function positionKey(p: PositionRow): string {
  return p.subaccount ? `${p.ticker}#${p.subaccount}` : p.ticker;
}

function upsertOrders(state: PrivateState, records: Rec[]): Record<string, OrderRow> {
  const orders = { ...state.orders };
  for (const r of records) {
    const id = typeof r.order_id === 'string' ? r.order_id : undefined;
    if (!id) continue;
    const merged = { ...(rawOrders.get(id) ?? {}), ...r };
    const row = normalizeOrder(merged);
    if (!row) continue;
    rawOrders.delete(id);
    rawOrders.set(id, merged);
    orders[id] = row;
  }
  capDone(orders);
  return orders;
}

function mergeFills(existing: FillRow[], records: Rec[]): FillRow[] {
  const seen = new Set(existing.map((f) => f.fill_id));
  const added: FillRow[] = [];
  for (const r of records) {
    const f = normalizeFill(r);
    if (f && !seen.has(f.fill_id)) {
      seen.add(f.fill_id);
      added.push(f);
    }
  }
  if (!added.length) return existing;
  const all = [...added, ...existing];
  all.sort((a, b) => tsNumber(b.ts) - tsNumber(a.ts));
  return all.slice(0, MAX_FILLS);
}

function tsNumber(ts: number | string | undefined): number {
  if (ts === undefined) return 0;
  if (typeof ts === 'number') return ts < 1e12 ? ts * 1000 : ts;
  const n = Date.parse(ts);
  return Number.isNaN(n) ? 0 : n;
}

/**
 * RFQs and quotes kept (each): the open and accepted ones always, and the others that changed last
 * up to this many in all. Their blotters read the REST pages; the stream's records only tell them
 * to refetch, so a session of RFQs no longer grows the store by every one.
 */
export const MAX_COMMS = 500;
const LIVE_COMMS = new Set(['open', 'accepted']);

/** Drops the finished records that changed longest ago (the first keys) past MAX_COMMS (in place). */
function capComms(map: Record<string, Rec>): void {
  let over = Object.keys(map).length - MAX_COMMS;
  for (const id in map) {
    if (over <= 0) break;
    if (LIVE_COMMS.has(String(map[id]!.status))) continue;
    delete map[id];
    over--;
  }
}

function upsertById(map: Record<string, Rec>, records: Rec[], key: 'rfq_id' | 'quote_id' | 'order_group_id'): Record<string, Rec> {
  const next = { ...map };
  for (const r of records) {
    const id = recordId(r, key);
    if (!id) continue;
    if (key === 'order_group_id' && r.event_type === 'deleted') {
      delete next[id];
      continue;
    }
    const merged: Rec = { ...(next[id] ?? {}), ...r, [key]: id };
    if (r.deleted_ts !== undefined && key === 'rfq_id') merged.status = 'canceled';
    // moved to the end: the first keys are the records changed longest ago
    delete next[id];
    next[id] = merged;
  }
  if (key !== 'order_group_id') capComms(next);
  return next;
}

export function applyPrivateUpdate(u: PrivateUpdate): void {
  privateStore.setState((prev) => {
    const state = u.reset ? { ...empty(), resets: prev.resets + 1, commsVersion: prev.commsVersion + 1 } : prev;
    if (u.reset) rawOrders.clear();
    // the pending list is main's own and always whole: a reset of the account's data keeps it
    const next: PrivateState = { ...state, pending: u.pending ?? prev.pending };
    if (u.orders?.length) next.orders = upsertOrders(state, u.orders);
    if (u.positions?.length) {
      const positions = { ...state.positions };
      for (const r of u.positions) {
        const p = normalizePosition(r);
        if (p) positions[positionKey(p)] = { ...positions[positionKey(p)], ...dropUndefined(p) } as PositionRow;
      }
      next.positions = positions;
    }
    if (u.fills?.length) next.fills = mergeFills(state.fills, u.fills);
    if (u.balance) next.balance = u.balance;
    let comms = false;
    if (u.rfqs?.length) {
      next.rfqs = upsertById(state.rfqs, u.rfqs, 'rfq_id');
      comms = true;
    }
    if (u.quotes?.length) {
      next.quotes = upsertById(state.quotes, u.quotes, 'quote_id');
      comms = true;
    }
    if (u.orderGroups?.length) {
      next.orderGroups = upsertById(state.orderGroups, u.orderGroups, 'order_group_id');
      comms = true;
    }
    if (comms) next.commsVersion = state.commsVersion + 1;
    return next;
  }, true);
}

function dropUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** REST seeds: replace what the read returned without dropping stream updates for other keys. */
export function seedOrders(records: Rec[]): void {
  privateStore.setState((s) => ({ orders: upsertOrders(s, records) }));
}
export function seedPositions(records: Rec[]): void {
  privateStore.setState(() => {
    const positions: Record<string, PositionRow> = {};
    for (const r of records) {
      const p = normalizePosition(r);
      if (p) positions[positionKey(p)] = p;
    }
    return { positions };
  });
}
export function seedFills(records: Rec[]): void {
  privateStore.setState((s) => ({ fills: mergeFills(s.fills, records) }));
}
export function seedBalance(b: PrivateState['balance']): void {
  privateStore.setState({ balance: b });
}

export function usePrivate<T>(selector: (s: PrivateState) => T): T {
  return useStore(privateStore, selector);
}

/** My resting orders in one market. */
export function restingOrdersIn(state: PrivateState, ticker: string): OrderRow[] {
  return Object.values(state.orders).filter((o) => o.ticker === ticker && o.status === 'resting');
}

/** My net position in one market (all subaccounts), as a decimal string. */
export function positionIn(state: PrivateState, ticker: string): PositionRow | undefined {
  return state.positions[ticker];
}
