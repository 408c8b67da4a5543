// Snapshots: the whole state as plain JSON and back. Books, slots and the expiry heap are
// not stored; restore rebuilds them from resting orders in queue-priority order (seq),
// so a restored engine behaves exactly like the one that wrote the snapshot.

import { NIL } from './book';
import { addMarketState } from './markets';
import { DEFAULT_PRICE_LEVEL_STRUCTURE } from './price-levels';
import { syncGroupCapacity, State, type AccountState, type Counters, type GroupState, type MarketState, type PositionState, type SubaccountState, type Totals } from './engine-state';
import type { OrderState } from './order-state';
import type { FillView, SettlementView, TradeView, TransferView } from './types';
import { newSubaccount } from './ledger';
import { TradeLog } from './trade-log';
import { FillLog } from './fill-log';

export const SNAPSHOT_VERSION = 1;

export type OrderSnapshot = Omit<OrderState, 'slot'>;
/** `price_level_structure` is absent in snapshots written before markets carried one. */
export type MarketSnapshot = Omit<MarketState, 'book' | 'price_level_structure'> & Partial<Pick<MarketState, 'price_level_structure'>>;
/** A subaccount as stored: its record with its positions listed (the touched flag is runtime only). */
export type SubaccountSnapshot = Omit<SubaccountState, 'positions' | 'touched'> & { positions: PositionState[] };
export interface AccountSnapshot {
  user_id: string;
  subs: Array<SubaccountSnapshot | null>;
  client_orders: Array<[string, string]>;
  client_transfers: Array<[string, string]>;
  orders: string[];
  fills: FillView[];
  settlements: SettlementView[];
  transfers: TransferView[];
  groups: string[];
}
/** A group as stored: its record with its orders listed (its capacity slot is rebuilt on restore). */
export type GroupSnapshot = Omit<GroupState, 'index' | 'orders'> & { orders: string[] };
export interface EngineSnapshot {
  version: typeof SNAPSHOT_VERSION;
  id_seed: number;
  counters: Counters;
  totals: Totals;
  markets: MarketSnapshot[];
  trades: Array<[string, TradeView[]]>;
  orders: OrderSnapshot[];
  accounts: AccountSnapshot[];
  groups: GroupSnapshot[];
}

export function toSnapshot(st: State): EngineSnapshot {
  const orders: OrderSnapshot[] = [];
  for (const o of st.orders.values()) {
    const { slot: _slot, ...rest } = o;
    orders.push(rest);
  }
  return {
    version: SNAPSHOT_VERSION,
    id_seed: st.idSeed,
    counters: { ...st.counters },
    totals: { ...st.totals },
    markets: marketSnapshots(st),
    trades: [...st.trades].map(([t, log]) => [t, log.toArray()]),
    orders,
    accounts: st.accountList.map((a) => ({
      user_id: a.user_id,
      subs: subSnapshots(a),
      client_orders: [...a.clientOrders],
      client_transfers: [...a.clientTransfers],
      orders: [...a.orders],
      fills: a.fills.toArray(),
      settlements: a.settlements.map((s) => ({ ...s })),
      transfers: a.transfers.map((t) => ({ ...t })),
      groups: [...a.groups],
    })),
    groups: toSnapshotGroups(st),
  };
}

/** One order as its snapshot holds it. */
export function orderJson(o: OrderState): string {
  const { slot: _slot, ...rest } = o;
  return JSON.stringify(rest);
}

/**
 * The live part of a snapshot whose history is in the archive (archive.ts): exactly
 * `JSON.stringify(toSnapshot(st))` but with resting orders only, no fills, every market's trade
 * tape empty and no account's list of its order ids (history too: the restore rebuilds it from
 * the orders, see hydrateEngineSnapshot; archive.test.ts holds the live part plus the archive
 * equal to toSnapshot). `orderText` may answer from a cache (the archiver's, for resting orders
 * that did not change); `resting`, when given, is every resting order in creation order (the
 * archiver keeps that set, so the whole history is not walked to find them).
 */
export function liveSnapshotJson(st: State, orderText: (o: OrderState) => string = orderJson, resting?: Iterable<OrderState>): string {
  const parts: string[] = [
    `{"version":${SNAPSHOT_VERSION},"id_seed":${JSON.stringify(st.idSeed)},"counters":${JSON.stringify({ ...st.counters })},"totals":${JSON.stringify({ ...st.totals })}`,
    `,"markets":${JSON.stringify(marketSnapshots(st))},"trades":`,
    JSON.stringify([...st.trades.keys()].map((ticker) => [ticker, []])),
    ',"orders":[',
  ];
  let first = true;
  const add = (o: OrderState): void => {
    if (o.status !== 'resting') return;
    parts.push(first ? orderText(o) : `,${orderText(o)}`);
    first = false;
  };
  if (resting) for (const o of resting) add(o);
  else st.orders.forEach(add);
  parts.push('],"accounts":[');
  st.accountList.forEach((a, i) => {
    parts.push(
      `${i ? ',' : ''}{"user_id":${JSON.stringify(a.user_id)},"subs":${JSON.stringify(subSnapshots(a))},"client_orders":${JSON.stringify([...a.clientOrders])}` +
        `,"client_transfers":${JSON.stringify([...a.clientTransfers])},"fills":[]` +
        `,"settlements":${JSON.stringify(a.settlements)},"transfers":${JSON.stringify(a.transfers)},"groups":${JSON.stringify(a.groups)}}`,
    );
  });
  parts.push('],"groups":');
  parts.push(JSON.stringify(toSnapshotGroups(st)));
  parts.push('}');
  return parts.join('');
}

// The parts toSnapshot and liveSnapshotJson write alike (liveSnapshotJson keeps the field order
// by hand around them: archive.test.ts holds the outputs equal).
function marketSnapshots(st: State): MarketSnapshot[] {
  return st.marketList.map(({ book: _book, ...m }) => ({ ...m }));
}

function subSnapshots(a: AccountState): Array<SubaccountSnapshot | null> {
  return a.subs.map((s) =>
    s ? { number: s.number, cash: s.cash, locked: s.locked, updated_ms: s.updated_ms, positions: [...s.positions.values()].map((p) => ({ ...p })) } : null,
  );
}

function toSnapshotGroups(st: State): GroupSnapshot[] {
  return st.groupList.map((g) => ({
    order_group_id: g.order_group_id,
    user_id: g.user_id,
    subaccount: g.subaccount,
    contracts_limit: g.contracts_limit,
    contracts_used: g.contracts_used,
    tripped: g.tripped,
    deleted: g.deleted,
    created_ms: g.created_ms,
    orders: [...g.orders],
  }));
}

/**
 * Rebuild a State from a snapshot. The snapshot is copied, unless `adopt`: the caller's snapshot
 * is its own, fresh from a file or a worker's message and read by nothing else after (a start
 * then skips copying megabytes it is about to drop).
 */
export function fromSnapshot(raw: EngineSnapshot, adopt = false): State {
  const snap = adopt ? raw : (JSON.parse(JSON.stringify(raw)) as EngineSnapshot);
  if (snap.version !== SNAPSHOT_VERSION) throw new Error(`unsupported engine snapshot version ${String(snap.version)}`);
  const st = new State(snap.id_seed);
  st.counters = { ...snap.counters };
  st.totals = { ...snap.totals };
  // a snapshot from before markets carried a price grid: they traded on the engine's own
  for (const m of snap.markets) addMarketState(st, { ...m, price_level_structure: m.price_level_structure ?? DEFAULT_PRICE_LEVEL_STRUCTURE, book: 0 });
  for (const [ticker, list] of snap.trades) st.trades.set(ticker, TradeLog.from(ticker, st.idSeed, list));
  for (const a of snap.accounts) {
    st.accountList.push({
      user_id: a.user_id,
      index: st.accountList.length,
      subs: a.subs.map((s) => {
        if (!s) return undefined;
        const sub = newSubaccount(s.number, s.updated_ms);
        sub.cash = s.cash;
        sub.locked = s.locked;
        for (const p of s.positions) sub.positions.set(p.ticker, p);
        return sub;
      }),
      clientOrders: new Map(a.client_orders),
      clientTransfers: new Map(a.client_transfers),
      orders: a.orders,
      fills: FillLog.from(a.user_id, snap.id_seed, a.fills),
      settlements: a.settlements,
      transfers: a.transfers,
      groups: a.groups,
    });
    st.accounts.set(a.user_id, st.accountList[st.accountList.length - 1]!);
  }
  for (const g of snap.groups) {
    const group: GroupState = { ...g, index: st.groupList.length, orders: new Set(g.orders) };
    st.groups.set(group.order_group_id, group);
    st.groupList.push(group);
    syncGroupCapacity(st, group);
  }
  const resting: OrderState[] = [];
  for (const o of snap.orders) {
    const order: OrderState = { ...o, slot: NIL };
    st.orders.set(order.order_id, order);
    st.orders.admit(order);
    if (order.status === 'resting') resting.push(order);
  }
  st.orders.settle();
  resting.sort((a, b) => a.seq - b.seq);
  for (const order of resting) {
    const market = st.markets.get(order.ticker)!;
    const owner = st.accounts.get(order.user_id)!.index;
    const group = order.order_group_id === null ? undefined : st.groups.get(order.order_group_id);
    const own = order.side === 'bid' ? order.yes_price : 10_000 - order.yes_price;
    const slot = st.bookOf(market).add(order.side === 'bid' ? 0 : 1, own, order.remaining_count, owner, group ? group.index : NIL);
    order.slot = slot;
    st.slotOrders[slot] = order;
  }
  for (const order of [...resting].sort((a, b) => a.num - b.num)) {
    if (order.expiration_time !== null) st.expiry.push({ atMs: order.expiration_time * 1000, num: order.num, orderId: order.order_id });
  }
  return st;
}
