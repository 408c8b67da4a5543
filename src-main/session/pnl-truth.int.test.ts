// P&L truth through a scripted session: a real embedded exchange, main's session for the trader
// (its stream and reconcile), every 'private' push merged by market as the page's store merges it,
// and the Positions panel's figures (positionFigures, pnlTotals) and today's P&L (the Risk panel's) read
// at each step of long -> flat -> short -> flat -> long -> settlement. Each figure is checked
// against what the exchange's own fills and settlements (over REST) and the book give. The trades
// main pushes carry the exchange's time to the millisecond.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestExchange, avoidUtcMidnight, type TestExchange } from '../../test-support/exchange/harness';
import { freshTicker, openMarket } from '../../test-support/exchange/trading-fixtures';
import { until } from '../../test-support/main/wait';
import { resolveProfile } from '../api/profiles';
import type { ApiClient } from '../api/client';
import { Decimal } from '../../src-shared/money';
import { TradingSession } from './session';
import type { TradeView } from '../../src-shared/ipc/contract';
import { markOf, pnlTotals, positionFigures } from '../../src-shared/position-pnl';
import type { PrivateUpdate } from '../../src-shared/ipc/contract';

let t: TestExchange;
let trader: ApiClient;
let counterparty: ApiClient;
let session: TradingSession;
let ticker: string;
const pushedTrades: TradeView[] = [];

/** The positions as the page holds them: main's pushed rows merged by market (a reset starts over). */
type Row = Record<string, unknown>;
let positions = new Map<string, Row>();
function applyPush(u: PrivateUpdate): void {
  if (u.reset) positions = new Map();
  for (const r of (u.positions ?? []) as Row[]) {
    const key = String(r.ticker ?? r.market_ticker);
    positions.set(key, { ...positions.get(key), ...Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) });
  }
}
/** A pushed row in the panel's terms (the page's normalizePosition: the wire's field names). */
const rowOf = (r: Row) => ({
  position: String(r.position_fp),
  exposure: (r.market_exposure_dollars ?? r.position_cost_dollars) as string | undefined,
  realized: r.realized_pnl_dollars as string | undefined,
  fees: r.fees_paid_dollars as string | undefined,
});

beforeAll(async () => {
  await avoidUtcMidnight();
  t = await startTestExchange();
  trader = t.client('trader');
  counterparty = t.client('counterparty');
  ticker = freshTicker('PNLT');
  await openMarket(t, ticker, 'PNLT');
  const a = t.account('trader');
  session = new TradingSession({
    profile: resolveProfile({ kind: 'custom', name: 'pnl', baseUrl: t.ex.baseUrl, wsUrl: t.ex.wsUrl, headerPrefix: 'SVC-' }),
    credentials: { keyId: a.api_key_id, privateKeyPem: a.private_key_pem },
    emit: (stream, payload) => {
      if (stream === 'private') applyPush(payload as PrivateUpdate);
      if (stream === 'market') pushedTrades.push(...(payload as { trades: TradeView[] }).trades);
    },
    frameMs: 5,
  });
  await session.start();
  await session.watchMarkets([ticker]);
}, 60_000);

afterAll(async () => {
  await session?.stop();
  await t?.close();
});

const D = (s: string | number) => new Decimal(s);
const order = (c: ApiClient, side: 'bid' | 'ask', price: string, count: number) =>
  c.createOrder({ body: { ticker, side, price, count: String(count), client_order_id: randomUUID() } });

/** The trader crosses a counterparty order resting at `price`: buys (bid) or sells (ask) `count` YES. */
async function trade(side: 'bid' | 'ask', price: string, count: number): Promise<void> {
  await order(counterparty, side === 'bid' ? 'ask' : 'bid', price, count);
  await order(trader, side, price, count);
}

interface Truth {
  position: Decimal;
  cost: Decimal;
  realized: Decimal;
  fees: Decimal;
  /** today's cash from fills (YES sells in, buys out) and today's net YES contracts */
  cash: Decimal;
  net: Decimal;
}

/**
 * The account as the exchange's records give it: each fill buys an outcome (YES, or NO at 1 - the
 * YES price), netting against the opposite outcome held ($1 a pair) with its cost taken out in
 * proportion; each settlement pays its revenue against the cost still held.
 */
async function truthFromExchange(): Promise<Truth> {
  const fills = (await trader.getFills({ query: { ticker, limit: 1000 } })).fills as unknown as Record<string, string | number>[];
  const settlements = (await trader.getSettlements({ query: { ticker } })).settlements as unknown as Record<string, string | number>[];
  let position = D(0);
  let cost = D(0);
  let realized = D(0);
  let fees = D(0);
  let cash = D(0);
  // the exchange lists the newest first: oldest first here
  for (const f of [...fills].reverse()) {
    const count = D(f.count_fp!);
    const yes = D(f.yes_price_dollars!);
    const buysYes = (f.side === 'yes') === (f.action === 'buy');
    const price = buysYes ? yes : D(1).minus(yes);
    fees = fees.plus(f.fee_cost!);
    cash = buysYes ? cash.minus(count.mul(yes)) : cash.plus(count.mul(yes));
    if (position.isZero() || position.gt(0) === buysYes) {
      cost = cost.plus(price.mul(count));
    } else {
      const held = position.abs();
      const closing = Decimal.min(count, held);
      const removed = closing.eq(held) ? cost : cost.mul(closing).div(held).toDecimalPlaces(6, Decimal.ROUND_FLOOR);
      realized = realized.plus(closing.minus(price.mul(closing)).minus(removed));
      cost = cost.minus(removed).plus(price.mul(count.minus(closing)));
    }
    position = position.plus(buysYes ? count : count.neg());
  }
  for (const s of settlements) {
    realized = realized.plus(D(s.revenue!).div(100)).minus(D(s.yes_total_cost_dollars ?? 0).plus(s.no_total_cost_dollars ?? 0));
    position = D(0);
    cost = D(0);
  }
  let net = D(0);
  for (const f of fills) net = net.plus((f.side === 'yes') === (f.action === 'buy') ? D(f.count_fp!) : D(f.count_fp!).neg());
  return { position, cost, realized, fees, cash, net };
}

/** The Positions panel's figures for the market, from the renderer's store fed by main's pushes, marked on main's book. */
function shown() {
  const raw = positions.get(ticker);
  if (!raw) return null;
  const p = rowOf(raw);
  const top = session.bookTop(ticker);
  const ticks = (d: Decimal | null | undefined) => (d ? d.mul(10_000).toNumber() : null);
  const mark = markOf({ bid: ticks(top?.yesBid), ask: ticks(top?.yesAsk) }, undefined);
  const figures = positionFigures(p, mark);
  return { p, mark, figures, totals: pnlTotals([...positions.values()].map((x) => positionFigures(rowOf(x), mark))) };
}

/** Waits until every figure agrees with the exchange's records (the pushes are asynchronous); fails with the last difference. */
async function expectTruth(step: string, settledValue?: Decimal): Promise<void> {
  let last = '';
  try {
    await until(`${step}: the figures agree with the exchange`, async () => {
      const truth = await truthFromExchange();
      const s = shown();
      if (!s) return (last = 'no position row'), false;
      const top = session.bookTop(ticker);
      const mid = s.mark ? D(s.mark.ticks).div(10_000) : null;
      const value = truth.position.isZero() ? D(0) : mid ? (truth.position.gt(0) ? truth.position.mul(mid) : truth.position.abs().mul(D(1).minus(mid))) : null;
      const unrealized = value === null ? null : value.minus(truth.cost);
      const want = {
        position: truth.position.toFixed(2),
        cost: truth.cost.toFixed(4),
        realized: truth.realized.toFixed(4),
        fees: truth.fees.toFixed(4),
        unrealized: unrealized?.toFixed(4) ?? null,
        net: unrealized === null ? null : unrealized.plus(truth.realized).minus(truth.fees).toFixed(4),
      };
      const got = {
        position: D(s.p.position).toFixed(2),
        cost: D(s.p.exposure ?? 'NaN').abs().toFixed(4),
        realized: D(s.figures.realized ?? 'NaN').toFixed(4),
        fees: D(s.figures.fees ?? 'NaN').toFixed(4),
        unrealized: s.figures.unrealized === null ? null : D(s.figures.unrealized).toFixed(4),
        net: s.figures.net === null ? null : D(s.figures.net).toFixed(4),
      };
      // today's P&L (the Risk panel's): cash from today's fills, fees, today's net contracts where they could be closed or at the result
      const close = settledValue ?? (truth.net.gt(0) ? top?.yesBid : truth.net.lt(0) ? top?.yesAsk : D(0));
      const daily = close ? truth.cash.minus(truth.fees).plus(truth.net.mul(close)).toFixed(2) : null;
      const totals = { realized: D(s.totals.realized).toFixed(4), fees: D(s.totals.fees).toFixed(4), net: D(s.totals.net).toFixed(4) };
      const wantTotals = { realized: want.realized, fees: want.fees, net: want.net ?? 'none' };
      const gotAll = { ...got, totals, daily: session.dailyPnl().toFixed(2) };
      const wantAll = { ...want, totals: wantTotals, daily };
      last = `shown ${JSON.stringify(gotAll)} vs the exchange's ${JSON.stringify(wantAll)}`;
      return JSON.stringify(gotAll) === JSON.stringify(wantAll);
    });
  } catch (e) {
    throw new Error(`${(e as Error).message}: ${last}`);
  }
}

it('every P&L figure agrees with the exchange through long, flat, short, flat and a settlement', async () => {
  // a book to mark on: 0.40 / 0.60, mid 0.50
  await order(counterparty, 'bid', '0.40', 50);
  await order(counterparty, 'ask', '0.60', 50);

  await trade('bid', '0.52', 5); // long 5 at 0.52
  await expectTruth('long 5');
  expect(shown()?.p.position).toBe('5.00');

  await trade('ask', '0.50', 5); // flat: -0.10 realized, and the fees
  await expectTruth('flat');
  const flat = shown()!;
  expect(flat.figures.flat).toBe(true);
  expect(D(flat.figures.realized!).toFixed(2)).toBe('-0.10');
  expect(D(flat.totals.fees).gt(0)).toBe(true);
  expect(D(flat.totals.net).lt(D('-0.10'))).toBe(true);

  await trade('ask', '0.46', 3); // short 3 (NO at 0.54)
  await expectTruth('short 3');
  expect(shown()?.p.position).toBe('-3.00');

  await trade('bid', '0.58', 3); // flat again: -0.36 more
  await expectTruth('flat again');
  expect(D(shown()!.figures.realized!).toFixed(2)).toBe('-0.46');

  await trade('bid', '0.55', 2); // long 2, then the market settles YES: +0.90
  await expectTruth('long 2');
  const node = t.ex.svc.node;
  for (const cmd of [
    { type: 'determineMarket', nowMs: node.now(), ticker, result: 'yes' },
    { type: 'settleMarket', nowMs: node.now(), ticker },
  ]) {
    const r = await node.submit(cmd);
    if (!r.ok) throw new Error(`${cmd.type}: ${JSON.stringify(r.result)}`);
  }
  await expectTruth('settled YES', D(1));
  const settled = shown()!;
  expect(settled.figures.flat).toBe(true);
  expect(D(settled.figures.realized!).toFixed(2)).toBe('0.44');

  // a reconcile (what a reconnect does) keeps the flat, settled row and its figures
  await session.reconcile();
  await expectTruth('settled YES, after a reconcile', D(1));
}, 120_000);

it("pushes each trade with the exchange's millisecond (its REST created_time)", async () => {
  const trades = (await t.publicClient().getTrades({ query: { ticker, limit: 100 } })).trades;
  expect(trades.length).toBeGreaterThan(4);
  await until('every trade pushed', () => trades.every((x) => pushedTrades.some((p) => p.trade_id === x.trade_id)));
  for (const x of trades) {
    const pushed = pushedTrades.find((p) => p.trade_id === x.trade_id)!;
    expect(pushed.ts_ms, x.trade_id).toBe(Date.parse(x.created_time!));
  }
  // the script's trades came within a second or so: not all on whole seconds
  expect(trades.some((x) => Date.parse(x.created_time!) % 1000 !== 0)).toBe(true);
});
