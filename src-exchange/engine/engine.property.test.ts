// Property tests over random command streams from several accounts: after every command
// money is conserved (cash + fees + 1 dollar per open pair = deposits - withdrawals),
// no book rests crossed, levels are FIFO and locks match orders; rejected commands change
// nothing; client_order_id is idempotent; snapshot + restore and plain replay both
// reproduce the exact same results and state.

import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Engine } from './engine';
import { ArchivedHistory, HistoryArchiver, hydrateEngineSnapshot, type ArchiveRecord } from './archive';
import type { EngineSnapshot } from './snapshot';
import type { BookSide, Command, OrderView, SelfTradePreventionType, TimeInForce } from './types';

const USERS = ['u0', 'u1', 'u2', 'u3'];
const MARKETS = ['M1', 'M2'];
const T0 = 1_700_000_000_000;

type Tpl =
  | {
      k: 'order';
      u: number;
      sub: number;
      m: number;
      side: BookSide;
      price: number;
      count: number;
      tif: TimeInForce;
      stp: SelfTradePreventionType;
      coid: number | null;
      exp: number | null;
      group: number | null;
      postOnly: boolean;
    }
  | { k: 'cancel'; pick: number; live: boolean; wrongUser: boolean }
  | { k: 'amend'; pick: number; live: boolean; price: number; count: number; keepPrice: boolean }
  | { k: 'decrease'; pick: number; live: boolean; by: number | null; to: number | null }
  | { k: 'cancelAll'; u: number; sub: number | null }
  | { k: 'group'; u: number; limit: number }
  | { k: 'groupOp'; pick: number; op: 'reset' | 'trigger' | 'limit' | 'delete'; limit: number }
  | { k: 'deposit'; u: number; amount: number }
  | { k: 'withdraw'; u: number; amount: number }
  | { k: 'transfer'; u: number; tid: number; amount: number; toSub: boolean }
  | { k: 'expire' }
  | { k: 'pause' | 'open'; m: number }
  | { k: 'lifecycle' }
  | { k: 'fees'; m: number; makers: boolean; mult: number }
  | { k: 'prune'; users: number; ageMs: number };

const price = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 4_950, max: 5_050 }) },
  { weight: 1, arbitrary: fc.integer({ min: 4_500, max: 5_500 }) },
  { weight: 1, arbitrary: fc.constantFrom(1, 100, 4_000, 6_000, 9_900, 9_999) },
);
const live = fc.constantFrom(true, true, true, false);
const count = fc.oneof(fc.integer({ min: 1, max: 600 }), fc.constantFrom(100, 1_000, 5_000));

const orderTpl = fc.record({
  k: fc.constant('order' as const),
  u: fc.integer({ min: 0, max: 3 }),
  sub: fc.constantFrom(0, 0, 0, 1),
  m: fc.constantFrom(0, 0, 1),
  side: fc.constantFrom<BookSide>('bid', 'ask'),
  price,
  count,
  tif: fc.constantFrom<TimeInForce>('good_till_canceled', 'good_till_canceled', 'immediate_or_cancel', 'fill_or_kill'),
  stp: fc.constantFrom<SelfTradePreventionType>('taker_at_cross', 'maker'),
  coid: fc.option(fc.integer({ min: 0, max: 15 }), { nil: null, freq: 2 }),
  exp: fc.option(fc.integer({ min: 1, max: 120 }), { nil: null, freq: 5 }),
  group: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null, freq: 2 }),
  postOnly: fc.constantFrom(false, false, false, false, false, false, false, false, false, true),
});

const cancelTpl = fc.record({ k: fc.constant('cancel' as const), pick: fc.nat(), live: live, wrongUser: fc.boolean() });
const amendTpl = fc.record({ k: fc.constant('amend' as const), pick: fc.nat(), live, price, count, keepPrice: fc.boolean() });

const tpl: fc.Arbitrary<Tpl> = fc.oneof(
  { weight: 30, arbitrary: orderTpl },
  { weight: 2, arbitrary: cancelTpl },
  { weight: 3, arbitrary: amendTpl },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('decrease' as const),
      pick: fc.nat(),
      live,
      by: fc.option(fc.integer({ min: 0, max: 400 }), { nil: null }),
      to: fc.option(fc.integer({ min: 0, max: 400 }), { nil: null }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('cancelAll' as const), u: fc.integer({ min: 0, max: 3 }), sub: fc.option(fc.constantFrom(0, 1), { nil: null }) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('group' as const), u: fc.integer({ min: 0, max: 3 }), limit: fc.integer({ min: 1, max: 2_000 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('groupOp' as const),
      pick: fc.nat(),
      op: fc.constantFrom('reset' as const, 'trigger' as const, 'limit' as const, 'delete' as const),
      limit: fc.integer({ min: 1, max: 2_000 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('deposit' as const), u: fc.integer({ min: 0, max: 3 }), amount: fc.integer({ min: 1, max: 50_000_000 }) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('withdraw' as const), u: fc.integer({ min: 0, max: 3 }), amount: fc.integer({ min: 1, max: 30_000_000 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('transfer' as const),
      u: fc.integer({ min: 0, max: 3 }),
      tid: fc.integer({ min: 0, max: 5 }),
      amount: fc.integer({ min: 1, max: 20_000_000 }),
      toSub: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ k: 'expire' as const }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constantFrom('pause' as const, 'open' as const, 'open' as const, 'open' as const), m: fc.integer({ min: 0, max: 1 }) }) },
  { weight: 1, arbitrary: fc.constant({ k: 'lifecycle' as const }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('fees' as const), m: fc.integer({ min: 0, max: 1 }), makers: fc.boolean(), mult: fc.integer({ min: 0, max: 30_000 }) }) },
  // the simulation's pruning of its own finished orders and fills (a bit mask of users)
  { weight: 1, arbitrary: fc.record({ k: fc.constant('prune' as const), users: fc.integer({ min: 1, max: 15 }), ageMs: fc.integer({ min: 0, max: 20_000 }) }) },
);

const step = fc.record({ dt: fc.integer({ min: 0, max: 3_000 }), t: tpl });
/** Dense trading on one market: orders, cancels and amends only. */
const tradingStep = fc.record({
  dt: fc.integer({ min: 0, max: 500 }),
  t: fc.oneof(
    { weight: 8, arbitrary: orderTpl.map((o): Tpl => ({ ...o, m: 0, postOnly: false, exp: null, count: Math.min(o.count, 800) })) },
    { weight: 1, arbitrary: cancelTpl },
    { weight: 1, arbitrary: amendTpl },
  ),
});

function setupCommands(): Command[] {
  const cmds: Command[] = [];
  MARKETS.forEach((ticker, i) => {
    cmds.push({ type: 'addMarket', nowMs: T0, ticker, eventTicker: 'EV', seriesTicker: 'SR', feeType: i === 0 ? 'quadratic_with_maker_fees' : 'quadratic' });
    cmds.push({ type: 'openMarket', nowMs: T0, ticker });
  });
  for (const userId of USERS) {
    cmds.push({ type: 'deposit', nowMs: T0, userId, amountMicro: 200_000_000 });
    cmds.push({ type: 'createSubaccount', nowMs: T0, userId });
    cmds.push({ type: 'transfer', nowMs: T0, userId, clientTransferId: 'seed', fromSubaccount: 0, toSubaccount: 1, amountMicro: 10_000_000 });
  }
  return cmds;
}

/** Turn a template into a concrete command against the engine's current state. */
function resolve(e: Engine, t: Tpl, nowMs: number, orders: string[], groups: string[], index: number): Command {
  const pickOrder = (pick: number, live: boolean) => {
    const resting = live ? e.listOrders({ status: 'resting' }) : [];
    if (resting.length) return resting[pick % resting.length];
    return orders.length ? e.getOrder(orders[pick % orders.length]!) : undefined;
  };
  switch (t.k) {
    case 'order': {
      const userId = USERS[t.u]!;
      const mine = groups.filter((g) => e.getOrderGroup(userId, g)?.subaccount === t.sub);
      return {
        type: 'createOrder',
        nowMs,
        userId,
        ticker: MARKETS[t.m]!,
        side: t.side,
        priceTicks: t.price,
        countCenti: t.count,
        timeInForce: t.tif,
        selfTradePreventionType: t.stp,
        subaccount: t.sub,
        ...(t.coid !== null ? { clientOrderId: `c${t.coid}` } : {}),
        ...(t.exp !== null && t.tif === 'good_till_canceled' ? { expirationTime: Math.floor(nowMs / 1000) + t.exp } : {}),
        ...(t.group !== null && mine.length ? { orderGroupId: mine[t.group % mine.length]! } : {}),
        ...(t.postOnly && t.tif === 'good_till_canceled' ? { postOnly: true } : {}),
      };
    }
    case 'cancel': {
      const o = pickOrder(t.pick, t.live);
      return { type: 'cancelOrder', nowMs, userId: t.wrongUser ? 'u1' : (o?.user_id ?? 'u0'), orderId: o?.order_id ?? 'none' };
    }
    case 'amend': {
      const o = pickOrder(t.pick, t.live);
      if (!o) return { type: 'expire', nowMs };
      return {
        type: 'amendOrder',
        nowMs,
        userId: o.user_id,
        orderId: o.order_id,
        ticker: o.ticker,
        side: o.side,
        priceTicks: t.keepPrice ? o.yes_price : t.price,
        countCenti: o.fill_count + t.count,
      };
    }
    case 'decrease': {
      const o = pickOrder(t.pick, t.live);
      return {
        type: 'decreaseOrder',
        nowMs,
        userId: o?.user_id ?? 'u0',
        orderId: o?.order_id ?? 'none',
        ...(t.by !== null ? { reduceBy: t.by } : {}),
        ...(t.to !== null ? { reduceTo: t.to } : {}),
      };
    }
    case 'cancelAll':
      return { type: 'cancelAllOrders', nowMs, userId: USERS[t.u]!, ...(t.sub !== null ? { subaccount: t.sub } : {}) };
    case 'group':
      return { type: 'createOrderGroup', nowMs, userId: USERS[t.u]!, contractsLimitCenti: t.limit, subaccount: t.u % 2 };
    case 'groupOp': {
      if (!groups.length) return { type: 'expire', nowMs };
      const id = groups[t.pick % groups.length]!;
      const owner = USERS.find((u) => e.getOrderGroup(u, id)) ?? 'u0';
      if (t.op === 'reset') return { type: 'resetOrderGroup', nowMs, userId: owner, orderGroupId: id };
      if (t.op === 'trigger') return { type: 'triggerOrderGroup', nowMs, userId: owner, orderGroupId: id };
      if (t.op === 'delete') return { type: 'deleteOrderGroup', nowMs, userId: owner, orderGroupId: id };
      return { type: 'updateOrderGroupLimit', nowMs, userId: owner, orderGroupId: id, contractsLimitCenti: t.limit };
    }
    case 'deposit':
      return { type: 'deposit', nowMs, userId: USERS[t.u]!, amountMicro: t.amount };
    case 'withdraw':
      return { type: 'withdraw', nowMs, userId: USERS[t.u]!, amountMicro: t.amount };
    case 'transfer':
      return {
        type: 'transfer',
        nowMs,
        userId: USERS[t.u]!,
        clientTransferId: `t${t.tid}`,
        fromSubaccount: t.toSub ? 0 : 1,
        toSubaccount: t.toSub ? 1 : 0,
        amountMicro: t.amount,
      };
    case 'expire':
      return { type: 'expire', nowMs };
    case 'pause':
      return { type: 'pauseMarket', nowMs, ticker: MARKETS[t.m]! };
    case 'open':
      return { type: 'openMarket', nowMs, ticker: MARKETS[t.m]! };
    case 'lifecycle': {
      if (index < 100) return { type: 'expire', nowMs };
      const status = e.getMarket('M2')!.status;
      if (status === 'determined') return { type: 'settleMarket', nowMs, ticker: 'M2' };
      if (status === 'closed') return { type: 'determineMarket', nowMs, ticker: 'M2', result: nowMs % 2 === 0 ? 'yes' : 'no' };
      return { type: 'closeMarket', nowMs, ticker: 'M2' };
    }
    case 'fees':
      return { type: 'updateMarketFees', nowMs, ticker: MARKETS[t.m]!, feeType: t.makers ? 'quadratic_with_maker_fees' : 'quadratic', feeMultiplierE4: t.mult };
    case 'prune':
      return { type: 'pruneOrders', nowMs, userIds: USERS.filter((_, i) => (t.users >> i) & 1), olderThanMs: nowMs - t.ageMs };
  }
}

interface Run {
  commands: Command[];
  results: string[];
  engine: Engine;
}

/** Apply a stream, checking invariants after every command. */
function runStream(steps: Array<{ dt: number; t: Tpl }>, check = true): Run {
  const e = new Engine({ idSeed: 42 });
  const commands: Command[] = [];
  const results: string[] = [];
  const orders: string[] = [];
  const groups: string[] = [];
  const coids = new Map<string, string>();
  // levels rebuilt from book events alone must equal the book (what the WebSocket layer relies on)
  const levels = new Map<string, number>();
  for (const c of setupCommands()) {
    commands.push(c);
    results.push(JSON.stringify(e.apply(c)));
  }
  let now = T0;
  for (const s of steps) {
    now += s.dt;
    const cmd = resolve(e, s.t, now, orders, groups, commands.length);
    const before = check ? JSON.stringify(e.toSnapshot()) : '';
    const r = e.apply(cmd);
    commands.push(cmd);
    results.push(JSON.stringify(r));
    note(`${cmd.type}:${r.ok ? 'ok' : `${r.code}:${r.details ?? ''}`}`);
    if (r.ok && cmd.type === 'createOrder' && 'order' in r) note(`order:${r.order.time_in_force}:${r.order.status}:${r.order.fill_count > 0 ? 'filled' : 'unfilled'}`);
    for (const x of r.events) if (x.type === 'trade' || x.type === 'settlement' || (x.type === 'orderGroup' && x.event === 'triggered')) note(`event:${x.type}`);
    for (const x of r.events) {
      if (x.type !== 'book') continue;
      const k = `${x.ticker}|${x.side}|${x.price}`;
      const q = (levels.get(k) ?? 0) + x.delta;
      if (q === 0) levels.delete(k);
      else levels.set(k, q);
    }
    if (check) {
      const fromBooks = new Map<string, number>();
      for (const m of MARKETS) {
        const b = e.getBook(m)!;
        for (const [p, q] of b.yes) fromBooks.set(`${m}|yes|${p}`, q);
        for (const [p, q] of b.no) fromBooks.set(`${m}|no|${p}`, q);
      }
      expect(new Map([...levels].sort())).toEqual(new Map([...fromBooks].sort()));
      const problems = e.checkInvariants();
      if (problems.length) throw new Error(`after ${JSON.stringify(cmd)}:\n${problems.join('\n')}`);
      if (!r.ok && !r.mutated) expect(JSON.stringify(e.toSnapshot())).toBe(before);
      if (!r.mutated && r.events.length) throw new Error('events from a command that changed nothing');
    }
    if (r.ok && cmd.type === 'createOrder' && 'duplicate' in r && 'order' in r) {
      const key = `${cmd.userId}/${cmd.clientOrderId ?? ''}`;
      if (cmd.clientOrderId !== undefined) {
        const first = coids.get(key);
        if (first !== undefined) {
          // idempotency: the same client_order_id returns the original order
          expect(r.duplicate).toBe(true);
          expect(r.order.order_id).toBe(first);
        } else coids.set(key, r.order.order_id);
      }
      if (!r.duplicate) orders.push(r.order.order_id);
    }
    if (r.ok && cmd.type === 'createOrderGroup' && 'group' in r) groups.push(r.group.order_group_id);
    // a pruned order takes its client_order_id with it: the id may name a new order afterwards
    if (r.ok && cmd.type === 'pruneOrders') for (const [key, id] of coids) if (!e.getOrder(id)) coids.delete(key);
  }
  return { commands, results, engine: e };
}

const stats = new Map<string, number>();
const note = (k: string) => stats.set(k, (stats.get(k) ?? 0) + 1);
afterAll(() => { if (process.env.ENGINE_PROP_STATS) console.log([...stats].sort()); });

describe('engine properties over random command streams', () => {
  it('conserves money, never rests crossed, keeps FIFO and locks consistent, rejects without side effects', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 150, size: 'max' }), (steps) => {
        const { engine } = runStream(steps);
        const audit = engine.audit();
        expect(audit.imbalance).toBe(0);
        expect(audit.cash).toBeGreaterThanOrEqual(audit.locked);
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it('keeps the same invariants under dense trading on one book', () => {
    fc.assert(
      fc.property(fc.array(tradingStep, { minLength: 50, maxLength: 200, size: 'max' }), (steps) => {
        expect(runStream(steps).engine.audit().imbalance).toBe(0);
      }),
      { numRuns: 20 },
    );
  }, 120_000);

  it('replaying the same commands gives identical results and state', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 150, size: 'max' }), (steps) => {
        const first = runStream(steps, false);
        const replay = new Engine({ idSeed: 42 });
        const results = first.commands.map((c) => {
          const r = replay.apply(c);
          // an answer's order is the order as it is once the command is done (answerView reuses event views)
          const order = r.ok ? (r as { order?: OrderView }).order : undefined;
          if (order) expect(order).toEqual(replay.getOrder(order.order_id));
          return JSON.stringify(r);
        });
        expect(results).toEqual(first.results);
        expect(JSON.stringify(replay.toSnapshot())).toBe(JSON.stringify(first.engine.toSnapshot()));
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it('the archive plus the live snapshot restore exactly the whole snapshot at every point of a stream', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 2, maxLength: 150, size: 'max' }), fc.integer({ min: 1, max: 7 }), (steps, every) => {
        const full = runStream(steps, false);
        const e = new Engine({ idSeed: 42 });
        const archiver = new HistoryArchiver();
        const archived = new ArchivedHistory();
        const check = () => {
          const { records, liveJson } = e.collectArchive(archiver);
          for (const r of records) archived.apply(JSON.parse(r) as ArchiveRecord);
          const live = JSON.parse(liveJson) as EngineSnapshot;
          expect(live.orders.every((o) => o.status === 'resting')).toBe(true);
          expect(JSON.stringify(hydrateEngineSnapshot(live, archived))).toBe(JSON.stringify(e.toSnapshot()));
          // nothing is archived twice: a second look at the same state has nothing to add
          expect(e.collectArchive(archiver).records).toEqual([]);
        };
        full.commands.forEach((c, i) => {
          e.apply(c);
          if (i % every === 0) check();
        });
        check();
        // what was restored behaves like the original from then on
        const restored = Engine.fromSnapshot(hydrateEngineSnapshot(JSON.parse(e.collectArchive(archiver).liveJson) as EngineSnapshot, archived));
        expect(restored.checkInvariants()).toEqual([]);
        expect(JSON.stringify(restored.toSnapshot())).toBe(JSON.stringify(e.toSnapshot()));
      }),
      { numRuns: 60 },
    );
  }, 120_000);

  it('snapshot + restore behaves exactly like the original from then on', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 2, maxLength: 150, size: 'max' }), fc.nat(), (steps, cutSeed) => {
        const full = runStream(steps, false);
        const cut = 1 + (cutSeed % (full.commands.length - 1));
        const original = new Engine({ idSeed: 42 });
        for (const c of full.commands.slice(0, cut)) original.apply(c);
        const snap = JSON.parse(JSON.stringify(original.toSnapshot()));
        const restored = Engine.fromSnapshot(snap);
        expect(JSON.stringify(restored.toSnapshot())).toBe(JSON.stringify(original.toSnapshot()));
        expect(restored.checkInvariants()).toEqual([]);
        for (const c of full.commands.slice(cut)) {
          expect(JSON.stringify(restored.apply(c))).toBe(JSON.stringify(original.apply(c)));
        }
        expect(JSON.stringify(restored.toSnapshot())).toBe(JSON.stringify(original.toSnapshot()));
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it('never throws on malformed input, and a rejection leaves the state as it was', () => {
    const junk = fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.integer({ min: -5, max: 20_000 }),
      fc.double(),
      fc.constant(null),
      fc.constant(undefined),
      fc.boolean(),
      fc.constantFrom('M1', 'u0', 'bid', 'ask', 'yes', 0, 1, 100, 5_000, Number.MAX_SAFE_INTEGER, 2 ** 60),
      fc.array(fc.integer(), { maxLength: 2 }),
    );
    const types = [
      'addMarket', 'openMarket', 'pauseMarket', 'closeMarket', 'determineMarket', 'settleMarket', 'updateMarketFees',
      'deposit', 'withdraw', 'createSubaccount', 'transfer', 'createOrder', 'cancelOrder', 'cancelAllOrders', 'amendOrder',
      'decreaseOrder', 'createOrderGroup', 'resetOrderGroup', 'triggerOrderGroup', 'updateOrderGroupLimit', 'deleteOrderGroup', 'expire',
    ];
    const fields = [
      'ticker', 'eventTicker', 'seriesTicker', 'feeType', 'feeMultiplierE4', 'result', 'userId', 'subaccount', 'amountMicro',
      'clientTransferId', 'fromSubaccount', 'toSubaccount', 'side', 'priceTicks', 'countCenti', 'timeInForce',
      'selfTradePreventionType', 'clientOrderId', 'orderGroupId', 'expirationTime', 'postOnly', 'orderId', 'reduceBy',
      'reduceTo', 'contractsLimitCenti', 'updatedClientOrderId', 'openTime', 'closeTime', 'title',
    ];
    const e = runStream([], false).engine;
    fc.assert(
      fc.property(fc.constantFrom(...types), fc.dictionary(fc.constantFrom(...fields), junk, { maxKeys: 8 }), (type, body) => {
        const before = JSON.stringify(e.toSnapshot());
        const r = e.apply({ ...body, type, nowMs: T0 } as unknown as Command);
        if (!r.ok) expect(JSON.stringify(e.toSnapshot())).toBe(before);
        expect(e.checkInvariants()).toEqual([]);
      }),
      { numRuns: 400 },
    );
  }, 120_000);
});
