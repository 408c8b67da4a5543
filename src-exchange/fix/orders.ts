// FIX order entry on the exchange's one core: NewOrderSingle (D), OrderCancelRequest (F) and
// OrderCancelReplaceRequest (G) become the same commands REST's handlers submit (apiCreateOrder,
// cancelOrder, amendOrder: one engine, one journal, the same limits and errors), answered with
// ExecutionReports (8) and OrderCancelRejects (9) as docs.kalshi.com/fix/order-entry lays them out.
// Prices are cents (44, 1-99) unless the Logon set UseDollars (21005=Y): then dollars to 4 places.
import type { OrderView, FillView } from '../engine/types';
import { centiToCount, countToCenti, dollarsToTicks } from '../engine/units';
import type { CoreOutcome } from '../core/core';
import { rejectionError, type Services } from '../core/services';
import type { FixMessage } from '../../src-shared/fix/codec';
import { CXL_REJ, ORD_REJ, cxlRejReason, ordRejReason, type EngineRefusal } from './reasons';

export type Fields = Array<readonly [number, string | number]>;

/** Who the session trades as (from the Logon's key). */
export interface FixTrader {
  userId: string;
  /** a subaccount-scoped key's subaccount (null: any the order names) */
  subaccount: number | null;
  canWrite: boolean;
  useDollars: boolean;
}

/**
 * A refusal of the request itself, before any order is touched. `reason` is the FIX standard's
 * code: OrdRejReason (103) on an order, CxlRejReason (102) on a cancel or replace (reasons.ts).
 */
export class FixReject extends Error {
  constructor(
    readonly kind: 'order' | 'cancel',
    message: string,
    readonly reason: number = 99,
  ) {
    super(message);
  }
}

const CLORDID_RE = /^[-\w:+=/]{1,64}$/;
const TIF: Record<string, OrderView['time_in_force'] | 'day' | 'gtd'> = { '0': 'day', '1': 'good_till_canceled', '3': 'immediate_or_cancel', '4': 'fill_or_kill', '6': 'gtd' };
const TIF_OUT: Record<OrderView['time_in_force'], string> = { good_till_canceled: '1', immediate_or_cancel: '3', fill_or_kill: '4' };

function required(m: FixMessage, tag: number, name: string): string {
  const v = m.get(tag);
  if (v === undefined || v === '') throw new FixReject('order', `${name} (${tag}) is required`);
  return v;
}

/** Price (44) in engine ticks of $0.0001. */
export function readPrice(raw: string, useDollars: boolean): number {
  if (useDollars) {
    const t = dollarsToTicks(raw);
    if (t === undefined || t <= 0 || t >= 10_000) throw new FixReject('order', `Price (44) ${raw} must be a dollar price between 0 and 1 with at most 4 decimals`, ORD_REJ.invalidPriceIncrement);
    return t;
  }
  if (!/^\d{1,2}$/.test(raw) || Number(raw) < 1) throw new FixReject('order', `Price (44) ${raw} must be whole cents, 1 to 99`, ORD_REJ.invalidPriceIncrement);
  return Number(raw) * 100;
}

export function writePrice(ticks: number, useDollars: boolean): string {
  return useDollars ? (ticks / 10_000).toFixed(4) : String(Math.round(ticks / 100));
}

function readQty(raw: string): number {
  const c = countToCenti(raw);
  if (c === undefined || c <= 0) throw new FixReject('order', `OrderQty (38) ${raw} must be a positive count with at most 2 decimals`, ORD_REJ.incorrectQuantity);
  return c;
}

/** Endpoint of the trader's subaccount: AllocAccount (79), confined to a scoped key's own. */
export function readSubaccount(m: FixMessage, t: FixTrader): number {
  const raw = m.get(79);
  const n = raw === undefined ? (t.subaccount ?? 0) : Number(raw);
  if (!Number.isSafeInteger(n) || n < 0 || n > 63) throw new FixReject('order', `AllocAccount (79) ${raw} must be a subaccount number 0-63`, ORD_REJ.unknownAccount);
  if (t.subaccount !== null && n !== t.subaccount) throw new FixReject('order', `this key trades subaccount ${t.subaccount} only`, ORD_REJ.unknownAccount);
  return n;
}

/**
 * The ExecID of one execution event, the same on every session that reports it (order entry,
 * listener, drop copy) and across restarts: it is made from the event itself. A fill is its
 * trade on this order; an order's acceptance (and the answer to a create, fills included) is
 * `<order>:0`; its cancel (any cause) `<order>:4`; a replace is named by the state it made.
 */
export function execIdOf(o: OrderView, execType: string, fill?: FillView): string {
  if (fill) return `${o.order_id}:F:${fill.trade_id}`;
  if (execType === '4') return `${o.order_id}:4`;
  if (execType === '5') return `${o.order_id}:5:${o.last_update_time}:${o.yes_price}:${o.initial_count}`;
  return `${o.order_id}:0`;
}

/** The ExecutionReport body for an order's present state (`fill`: a Trade report of that fill). */
export function execReport(o: OrderView, execType: string, t: FixTrader, extra: Fields = [], fill?: FillView): Fields {
  const status = o.status === 'canceled' ? '4' : o.status === 'executed' ? '2' : o.fill_count > 0 ? '1' : '0';
  // costs are micro-dollars, counts centi-contracts: cost / count is ticks of $0.0001 per contract
  const avgTicks = o.fill_count > 0 ? Math.round((o.taker_fill_cost + o.maker_fill_cost) / o.fill_count) : 0;
  // average on the YES leg: an ask sells YES (buys NO), whose cost is on the NO leg
  const avgYes = o.fill_count > 0 ? (o.side === 'bid' ? avgTicks : 10_000 - avgTicks) : 0;
  return [
    [37, o.order_id],
    [11, o.client_order_id],
    [17, execIdOf(o, execType, fill)],
    [150, execType],
    [39, status],
    [55, o.ticker],
    [54, o.side === 'bid' ? '1' : '2'],
    [38, centiToCount(o.initial_count)],
    [40, '2'],
    [44, writePrice(o.yes_price, t.useDollars)],
    [59, TIF_OUT[o.time_in_force]],
    [14, centiToCount(o.fill_count)],
    [151, centiToCount(o.remaining_count)],
    [6, writePrice(avgYes, t.useDollars)],
    [79, o.subaccount],
    // a Trade report of the order's own command (fills in its answer): the fills as one, at the average
    ...(execType === 'F' && !extra.some(([tag]) => tag === 32)
      ? ([
          [31, writePrice(avgYes, t.useDollars)],
          [32, centiToCount(o.fill_count)],
        ] as Fields)
      : []),
    ...extra,
  ];
}

/** The Trade ExecutionReport of one fill (150=F) on the order's state after it. */
export function fillReport(o: OrderView, f: FillView, t: FixTrader): Fields {
  return execReport(
    o,
    'F',
    t,
    [
      [31, writePrice(f.yes_price, t.useDollars)],
      [32, centiToCount(f.count)],
      [1057, f.is_taker ? 'Y' : 'N'],
      [880, f.trade_id],
    ],
    f,
  );
}

function failMessage(outcome: CoreOutcome): string {
  const e = rejectionError(outcome);
  return `${e.code}: ${e.message}`;
}

export interface OrderGateway {
  create(m: FixMessage): Promise<OrderView>;
  cancel(m: FixMessage): Promise<{ order: OrderView; origClOrdId: string }>;
  replace(m: FixMessage): Promise<{ order: OrderView; origClOrdId: string }>;
  ownOrder(m: FixMessage, kind: 'cancel' | 'order'): OrderView;
}

export function orderGateway(svc: Services, t: FixTrader): OrderGateway {
  const needWrite = (kind: 'order' | 'cancel') => {
    if (!t.canWrite) throw new FixReject(kind, 'this API key is read-only');
  };

  const ownOrder = (m: FixMessage, kind: 'cancel' | 'order'): OrderView => findOwnOrder(svc, t, m, kind);

  return {
    ownOrder,
    async create(m) {
      needWrite('order');
      const clOrdId = required(m, 11, 'ClOrdID');
      if (!CLORDID_RE.test(clOrdId)) throw new FixReject('order', 'ClOrdID (11) must be 1-64 characters of letters, digits and - _ : + = /');
      if (required(m, 40, 'OrdType') !== '2') throw new FixReject('order', 'OrdType (40) must be 2 (limit)', ORD_REJ.unsupportedCharacteristic);
      const side = required(m, 54, 'Side');
      if (side !== '1' && side !== '2') throw new FixReject('order', 'Side (54) must be 1 (buy yes) or 2 (sell yes)');
      const ticker = required(m, 55, 'Symbol');
      const priceTicks = readPrice(required(m, 44, 'Price'), t.useDollars);
      const countCenti = readQty(required(m, 38, 'OrderQty'));
      const { timeInForce, expirationTime } = readTimeInForce(m, () => svc.node.now());
      const stp = m.get(2964);
      if (stp !== undefined && stp !== '1' && stp !== '2') throw new FixReject('order', 'SelfTradePreventionType (2964) must be 1 or 2', ORD_REJ.unsupportedCharacteristic);
      const nowMs = svc.node.now();
      const outcome = await svc.node.submit({
        type: 'apiCreateOrder',
        nowMs,
        order: {
          userId: t.userId,
          ticker,
          side: side === '1' ? 'bid' : 'ask',
          priceTicks,
          countCenti,
          timeInForce,
          selfTradePreventionType: stp === '2' ? 'maker' : 'taker_at_cross',
          clientOrderId: clOrdId,
          subaccount: readSubaccount(m, t),
          orderGroupId: m.get(526),
          expirationTime,
          postOnly: (m.get(18) ?? '').split(' ').includes('6'),
        },
      });
      if (!outcome.ok) throw new FixReject('order', failMessage(outcome), ordRejReason(outcome.result as EngineRefusal));
      return (outcome.result as { order: OrderView }).order;
    },
    async cancel(m) {
      needWrite('cancel');
      required(m, 11, 'ClOrdID');
      const o = ownOrder(m, 'cancel');
      const outcome = await svc.node.submit({ type: 'cancelOrder', nowMs: svc.node.now(), userId: t.userId, orderId: o.order_id, subaccount: o.subaccount });
      if (!outcome.ok) throw new FixReject('cancel', failMessage(outcome), cxlRejReason(outcome.result as EngineRefusal));
      return { order: (outcome.result as { order: OrderView }).order, origClOrdId: o.client_order_id };
    },
    async replace(m) {
      needWrite('cancel');
      const clOrdId = required(m, 11, 'ClOrdID');
      if (!CLORDID_RE.test(clOrdId)) throw new FixReject('cancel', 'ClOrdID (11) must be 1-64 characters of letters, digits and - _ : + = /');
      const o = ownOrder(m, 'cancel');
      const priceRaw = m.get(44);
      const qtyRaw = m.get(38);
      const outcome = await svc.node.submit({
        type: 'amendOrder',
        nowMs: svc.node.now(),
        userId: t.userId,
        orderId: o.order_id,
        subaccount: o.subaccount,
        ticker: m.get(55) ?? o.ticker,
        side: m.get(54) === undefined ? o.side : m.get(54) === '1' ? 'bid' : 'ask',
        priceTicks: priceRaw === undefined ? o.yes_price : readPrice(priceRaw, t.useDollars),
        countCenti: qtyRaw === undefined ? o.initial_count : readQty(qtyRaw),
        updatedClientOrderId: clOrdId,
      });
      if (!outcome.ok) throw new FixReject('cancel', failMessage(outcome), cxlRejReason(outcome.result as EngineRefusal));
      return { order: (outcome.result as { order: OrderView }).order, origClOrdId: o.client_order_id };
    },
  };
}

/** The order a cancel or replace names (OrderID 37 or OrigClOrdID 41), which must be the trader's own. */
function findOwnOrder(svc: Services, t: FixTrader, m: FixMessage, kind: 'cancel' | 'order'): OrderView {
  const engine = () => svc.node.core.engine;
  const orderId = m.get(37);
  const orig = m.get(41);
  if (orderId === undefined && orig === undefined) throw new FixReject(kind, 'OrigClOrdID (41) or OrderID (37) is required');
  const o = orderId !== undefined ? engine().getOrder(orderId) : engine().getOrderByClientId(t.userId, orig!);
  if (!o || o.user_id !== t.userId || (t.subaccount !== null && o.subaccount !== t.subaccount)) {
    throw new FixReject(kind, `unknown order ${orderId ?? orig}`, kind === 'cancel' ? CXL_REJ.unknownOrder : ORD_REJ.other);
  }
  if (orig !== undefined && orderId !== undefined && o.client_order_id !== orig) throw new FixReject(kind, `OrigClOrdID ${orig} is not order ${orderId}'s`, kind === 'cancel' ? CXL_REJ.unknownOrder : ORD_REJ.other);
  return o;
}

/** TimeInForce (59, default 1 GTC) and, for GTD, ExpireTime (126); a Day order expires at 11:59:59 pm New York time. */
function readTimeInForce(m: FixMessage, now: () => number): { timeInForce: OrderView['time_in_force']; expirationTime: number | undefined } {
  const tifRaw = m.get(59) ?? '1';
  const tif = TIF[tifRaw];
  if (tif === undefined) throw new FixReject('order', `TimeInForce (59) ${tifRaw} is not one of 0, 1, 3, 4, 6`, ORD_REJ.unsupportedCharacteristic);
  let expirationTime: number | undefined;
  let timeInForce: OrderView['time_in_force'] = 'good_till_canceled';
  if (tif === 'gtd') {
    const exp = m.get(126);
    const ms = exp === undefined ? NaN : Date.parse(`${exp.slice(0, 4)}-${exp.slice(4, 6)}-${exp.slice(6, 8)}T${exp.slice(9)}Z`);
    if (!Number.isFinite(ms)) throw new FixReject('order', 'ExpireTime (126) is required with TimeInForce 6 (GTD)');
    // a past date is treated as immediate-or-cancel (order entry page)
    if (ms <= now()) timeInForce = 'immediate_or_cancel';
    else expirationTime = Math.floor(ms / 1000);
  } else if (tif === 'day') {
    expirationTime = endOfDayEt(now());
  } else timeInForce = tif;
  return { timeInForce, expirationTime };
}

/** 11:59:59 pm in New York on the day of `nowMs`, as Unix seconds (Day orders expire then). */
function endOfDayEt(nowMs: number): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', hour12: false, timeZoneName: 'shortOffset' }).formatToParts(new Date(nowMs));
  const get = (k: string) => parts.find((p) => p.type === k)?.value ?? '';
  const off = /GMT([+-]\d+)/.exec(get('timeZoneName'))?.[1] ?? '-5';
  const local = Date.UTC(+get('year'), +get('month') - 1, +get('day'), 23, 59, 59);
  return Math.floor((local - Number(off) * 3_600_000) / 1000);
}
