// The orderbook stream: snapshot then deltas with seq 1, 2, 3... per sid; a book rebuilt from
// them equals the exchange's own book (REST) even when subscribers join mid-burst, because
// snapshots come from the published-events mirror and never run ahead of the deltas.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestExchange, type TestExchange } from '../test-support/exchange/harness';
import { TestStream, openTestMarket, type Frame } from '../test-support/exchange/ws-client';
import { streamOf } from '../src-exchange/ws/attach';
import { countToCenti, dollarsToTicks } from '../src-exchange/engine/units';
import { OrderbookDeltaFrame, OrderbookSnapshotFrame } from '../src-shared/wire/stream';
import type { ApiClient } from '../src-main/api/client';

let t: TestExchange;
const open: TestStream[] = [];

async function connect(signedAs?: string): Promise<TestStream> {
  const a = signedAs ? t.account(signedAs) : undefined;
  const s = await TestStream.open(t.ex.wsUrl, a ? { key: { keyId: a.api_key_id, privateKeyPem: a.private_key_pem } } : {});
  open.push(s);
  return s;
}

let marketNo = 0;
async function newMarket(): Promise<string> {
  const ticker = `WSB-${++marketNo}`;
  await openTestMarket(t.ex.svc.node, ticker);
  return ticker;
}

beforeAll(async () => {
  t = await startTestExchange();
});
afterAll(async () => {
  for (const s of open) await s.close();
  await t?.close();
});
afterEach(() => {
  for (const s of open) expect(s.malformed).toEqual([]);
});

type Book = { yes: Map<number, number>; no: Map<number, number> };

/** Replays one sid's orderbook frames: checks seq has no holes, returns the books per market. */
function replay(frames: readonly Frame[], sid: number): Map<string, Book> {
  const books = new Map<string, Book>();
  let seq = 0;
  for (const f of frames) {
    if (f.raw.sid !== sid || f.raw.seq === undefined) continue;
    expect(f.raw.seq).toBe(++seq);
    if (f.msg.type === 'orderbook_snapshot') {
      expect(OrderbookSnapshotFrame.safeParse(f.raw).success).toBe(true);
      const m = f.msg.msg;
      const level = (rows: readonly (readonly [string, string])[]) => new Map(rows.map(([p, c]) => [dollarsToTicks(p)!, countToCenti(c)!] as [number, number]));
      books.set(m.market_ticker, { yes: level(m.yes_dollars_fp), no: level(m.no_dollars_fp) });
    } else if (f.msg.type === 'orderbook_delta') {
      expect(OrderbookDeltaFrame.safeParse(f.raw).success).toBe(true);
      const m = f.msg.msg;
      const book = books.get(m.market_ticker);
      expect(book, `delta before snapshot for ${m.market_ticker}`).toBeDefined();
      const side = book![m.side];
      const price = dollarsToTicks(m.price_dollars)!;
      const next = (side.get(price) ?? 0) + countToCenti(m.delta_fp)!;
      expect(next).toBeGreaterThanOrEqual(0);
      if (next === 0) side.delete(price);
      else side.set(price, next);
    }
  }
  return books;
}

function levels(side: Map<number, number>): Array<[number, number]> {
  return [...side].sort((a, b) => b[0] - a[0]);
}

async function restBook(c: ApiClient, ticker: string): Promise<{ yes: Array<[number, number]>; no: Array<[number, number]> }> {
  const r = await c.getOrderbook({ params: { ticker } });
  const conv = (rows: readonly (readonly [string, string])[] | null | undefined) => (rows ?? []).map(([p, n]) => [dollarsToTicks(p)!, countToCenti(n)!] as [number, number]);
  return { yes: conv(r.orderbook_fp.yes_dollars), no: conv(r.orderbook_fp.no_dollars) };
}

function engineBook(ticker: string) {
  const b = t.ex.svc.node.core.engine.getBook(ticker)!;
  return { yes: b.yes, no: b.no };
}

const order = (c: ApiClient, ticker: string, side: 'bid' | 'ask', price: string, count: string, clientOrderId?: string) =>
  c.createOrder({ body: { ticker, side, price, count, ...(clientOrderId ? { client_order_id: clientOrderId } : {}) } });

describe('orderbook_delta', () => {
  it('sends a snapshot with both sides (empty ones too), then deltas numbered on from it', async () => {
    const ticker = await newMarket();
    const trader = t.client('trader');
    await order(trader, ticker, 'bid', '0.4000', '3');
    const s = await connect();
    const sub = await s.command('subscribe', { channels: ['orderbook_delta'], market_ticker: ticker });
    const sid = (sub.raw.msg as { sid: number }).sid;
    const snap = await s.until((fs) => fs.find((f) => f.msg.type === 'orderbook_snapshot'));
    expect(snap.raw).toEqual({ type: 'orderbook_snapshot', sid, seq: 1, msg: { market_ticker: ticker, yes_dollars_fp: [['0.4000', '3.00']], no_dollars_fp: [] } });

    await order(trader, ticker, 'bid', '0.4500', '2');
    await order(trader, ticker, 'ask', '0.6000', '1.5');
    const deltas = await s.until((fs) => {
      const d = fs.filter((f) => f.msg.type === 'orderbook_delta');
      return d.length >= 2 ? d : undefined;
    });
    expect(deltas.map((d) => ({ seq: d.raw.seq, ...(d.raw.msg as object) }))).toEqual([
      { seq: 2, market_ticker: ticker, price_dollars: '0.4500', delta_fp: '2.00', side: 'yes', ts: expect.any(String) },
      // an ask at 0.60 on the YES leg rests as a NO bid at 0.40
      { seq: 3, market_ticker: ticker, price_dollars: '0.4000', delta_fp: '1.50', side: 'no', ts: expect.any(String) },
    ]);
    expect(Number.isNaN(Date.parse((deltas[0]!.raw.msg as { ts: string }).ts))).toBe(false);

    // a crossing order takes liquidity: a negative delta on the resting side
    await order(t.client('counterparty'), ticker, 'ask', '0.4500', '1');
    const neg = await s.until((fs) => fs.find((f) => f.msg.type === 'orderbook_delta' && f.raw.seq === 4));
    expect(neg.raw.msg).toMatchObject({ side: 'yes', price_dollars: '0.4500', delta_fp: '-1.00' });
    const book = replay(s.frames, sid).get(ticker)!;
    expect({ yes: levels(book.yes), no: levels(book.no) }).toEqual(await restBook(trader, ticker));
  });

  it('carries client_order_id only to the order owner on a signed connection', async () => {
    const ticker = await newMarket();
    const owner = await connect('trader');
    const other = await connect('counterparty');
    const anon = await connect();
    for (const s of [owner, other, anon]) await s.command('subscribe', { channels: ['orderbook_delta'], market_ticker: ticker });
    const coid = randomUUID();
    await order(t.client('trader'), ticker, 'bid', '0.3000', '1', coid);
    const got = await Promise.all([owner, other, anon].map((s) => s.until((fs) => fs.find((f) => f.msg.type === 'orderbook_delta'))));
    expect((got[0]!.raw.msg as { client_order_id?: string }).client_order_id).toBe(coid);
    expect(got[1]!.raw.msg).not.toHaveProperty('client_order_id');
    expect(got[2]!.raw.msg).not.toHaveProperty('client_order_id');
  });

  it('get_snapshot answers ok (taking a seq) and a fresh snapshot; deltas go on numbering from it', async () => {
    const ticker = await newMarket();
    const s = await connect();
    await s.command('subscribe', { channels: ['orderbook_delta'], market_ticker: ticker });
    await order(t.client('trader'), ticker, 'bid', '0.2000', '1');
    await s.until((fs) => fs.find((f) => f.msg.type === 'orderbook_delta'));
    const ok = await s.command('update_subscription', { sid: 1, action: 'get_snapshot' });
    expect(ok.raw).toMatchObject({ type: 'ok', sid: 1, seq: 3, msg: { market_tickers: [ticker] } });
    const snap = await s.until((fs) => fs.find((f) => f.msg.type === 'orderbook_snapshot' && f.raw.seq === 4));
    expect(snap.raw.msg).toEqual({ market_ticker: ticker, yes_dollars_fp: [['0.2000', '1.00']], no_dollars_fp: [] });
    await order(t.client('trader'), ticker, 'bid', '0.2000', '2');
    const d = await s.until((fs) => fs.find((f) => f.msg.type === 'orderbook_delta' && f.raw.seq === 5));
    expect(d.raw.msg).toMatchObject({ price_dollars: '0.2000', delta_fp: '2.00' });
  });

  it('add_markets sends the new market a snapshot; delete_markets stops its deltas; unsubscribe stops all', async () => {
    const [a, b] = [await newMarket(), await newMarket()];
    const trader = t.client('trader');
    await order(trader, b, 'bid', '0.1000', '4');
    const s = await connect();
    await s.command('subscribe', { channels: ['orderbook_delta'], market_ticker: a });
    await s.command('update_subscription', { sid: 1, market_tickers: [b], action: 'add_markets' });
    const snapB = await s.until((fs) => fs.find((f) => f.msg.type === 'orderbook_snapshot' && (f.raw.msg as { market_ticker: string }).market_ticker === b));
    expect(snapB.raw.msg).toMatchObject({ yes_dollars_fp: [['0.1000', '4.00']] });
    await order(trader, b, 'bid', '0.1100', '1');
    await s.until((fs) => fs.find((f) => f.msg.type === 'orderbook_delta' && (f.raw.msg as { market_ticker: string }).market_ticker === b));

    await s.command('update_subscription', { sid: 1, market_tickers: [b], action: 'delete_markets' });
    await order(trader, b, 'bid', '0.1200', '1');
    await order(trader, a, 'bid', '0.1300', '1');
    await s.until((fs) => fs.find((f) => f.msg.type === 'orderbook_delta' && (f.raw.msg as { market_ticker: string }).market_ticker === a));
    expect(s.data('orderbook_delta').filter((f) => (f.raw.msg as { price_dollars: string }).price_dollars === '0.1200')).toEqual([]);

    await s.command('unsubscribe', { sids: [1] });
    const before = s.frames.length;
    await order(trader, a, 'bid', '0.1400', '1');
    await s.sync();
    expect(s.frames.slice(before).filter((f) => f.raw.sid === 1)).toEqual([]);
    replay(s.frames, 1); // seq whole throughout
  });

  it('a snapshot never counts a change whose event is not yet published (durability lag)', async () => {
    const ticker = await newMarket();
    const hub = streamOf(t.ex.svc)!.hub;
    const node = t.ex.svc.node;
    const pending = node.submit({ type: 'createOrder', nowMs: node.now(), userId: t.account('trader').user_id, ticker, side: 'bid', priceTicks: 5_000, countCenti: 100 });
    // Applied (the engine shows it) but not yet journaled, so not yet published.
    expect(node.core.engine.getBook(ticker)!.yes).toEqual([[5_000, 100]]);
    expect(JSON.parse(hub.snapshotJson(ticker))).toEqual({ market_ticker: ticker, yes_dollars_fp: [], no_dollars_fp: [] });
    await pending;
    expect(JSON.parse(hub.snapshotJson(ticker))).toEqual({ market_ticker: ticker, yes_dollars_fp: [['0.5000', '1.00']], no_dollars_fp: [] });
  });

  it('after a concurrent random burst from two accounts, snapshot + deltas equal the REST book level for level', async () => {
    const tickers = [await newMarket(), await newMarket()];
    const clients = [t.client('trader'), t.client('counterparty')];
    const early = await connect('trader');
    await early.command('subscribe', { channels: ['orderbook_delta'], market_tickers: tickers });

    let rnd = 0x2545f491;
    const rand = (n: number) => {
      rnd ^= rnd << 13;
      rnd ^= rnd >>> 17;
      rnd ^= rnd << 5;
      return (rnd >>> 0) % n;
    };
    const late: TestStream[] = [];
    const inFlight: Promise<unknown>[] = [];
    const resting: Array<{ c: ApiClient; id: string }> = [];
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 25; i++) {
        const c = clients[rand(2)]!;
        const ticker = tickers[rand(2)]!;
        const side = rand(2) === 0 ? 'bid' : 'ask';
        const price = (0.3 + rand(40) / 100).toFixed(4); // 0.30..0.69: crosses often
        const count = `${1 + rand(5)}.${rand(2) === 0 ? '00' : '50'}`;
        inFlight.push(
          order(c, ticker, side, price, count).then((r) => {
            if (rand(3) === 0) resting.push({ c, id: r.order_id });
          }),
        );
      }
      // cancels of earlier orders (404 when already filled or cancelled)
      for (const r of resting.splice(0)) inFlight.push(r.c.cancelOrder({ params: { order_id: r.id } }).catch(() => undefined));
      // a new subscriber joins while this round is in flight
      const s = await connect();
      s.send('subscribe', { channels: ['orderbook_delta'], market_tickers: tickers });
      late.push(s);
      await new Promise((r) => setTimeout(r, rand(15)));
    }
    await Promise.all(inFlight);
    for (const s of [early, ...late]) await s.sync();

    const trades = t.ex.svc.node.core.engine.getTrades({ ticker: tickers[0] }).length + t.ex.svc.node.core.engine.getTrades({ ticker: tickers[1] }).length;
    expect(trades).toBeGreaterThan(0);
    for (const ticker of tickers) {
      const truth = await restBook(clients[0]!, ticker);
      expect(truth).toEqual(engineBook(ticker));
      expect(truth.yes.length + truth.no.length).toBeGreaterThan(0);
      for (const s of [early, ...late]) {
        const book = replay(s.frames, 1).get(ticker)!;
        expect({ yes: levels(book.yes), no: levels(book.no) }).toEqual(truth);
      }
    }
  });
});

describe('back-pressure', () => {
  it('a client that stops reading gets error 25 for its orderbook subscription; get_snapshot resumes it', async () => {
    const ticker = await newMarket();
    const node = t.ex.svc.node;
    const trader = t.account('trader').user_id;
    // a deep book makes big snapshots
    const placed: Promise<unknown>[] = [];
    for (let p = 100; p < 4_900; p += 2) placed.push(node.submit({ type: 'createOrder', nowMs: node.now(), userId: trader, ticker, side: 'bid', priceTicks: p, countCenti: 100 }));
    await Promise.all(placed);

    const stream = streamOf(t.ex.svc)!;
    const saved = { ...stream.hub.settings };
    stream.hub.settings.bufferLimitBytes = 256 * 1024;
    stream.hub.settings.commandBurst = 1_000; // the 200 get_snapshot below must not meet error 27
    const s = await connect();
    let keepAlive: ReturnType<typeof setInterval> | undefined;
    try {
      await s.command('subscribe', { channels: ['orderbook_delta'], market_ticker: ticker });
      await s.until((fs) => fs.find((f) => f.msg.type === 'orderbook_snapshot'));
      const socket = (s.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
      socket.pause();
      // ask for snapshots until the server's queue to us is far past the limit
      for (let i = 0; i < 200; i++) s.send('update_subscription', { sid: 1, action: 'get_snapshot' });
      const conn = [...stream.connections].find((c) => c.subs.get(1)?.markets?.has(ticker))!;
      // the client reads nothing while paused, and then its Pong waits behind megabytes of
      // snapshots: on a busy machine that outlasted the keep-alive (a Ping unanswered for a round
      // of 10 s closes the connection), and the test waited for frames that never came. The
      // keep-alive has its own tests; here the connection stays counted as alive.
      keepAlive = setInterval(() => (conn.alive = true), 500);
      // how the server's side of it ends, should it end: a failure says so
      const ended: string[] = [];
      conn.ws.on('error', (e) => ended.push(`server socket error: ${e.message}`));
      conn.ws.on('close', (code) => ended.push(`server side closed ${code} (${conn.ws.bufferedAmount} bytes queued)`));
      const deadline = Date.now() + 10_000;
      while (conn.ws.bufferedAmount <= 256 * 1024 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(conn.ws.bufferedAmount).toBeGreaterThan(256 * 1024);
      // an order now: its delta finds the queue full -> error 25, deltas stop
      await node.submit({ type: 'createOrder', nowMs: node.now(), userId: trader, ticker, side: 'bid', priceTicks: 4_951, countCenti: 100 });
      await node.submit({ type: 'createOrder', nowMs: node.now(), userId: trader, ticker, side: 'bid', priceTicks: 4_953, countCenti: 100 });
      socket.resume();
      // a wait that gives up says how the server's side of the connection stood too
      const server = (e: unknown) => {
        throw new Error(`${(e as Error).message}; the server ${stream.connections.has(conn) ? 'holds' : 'no longer holds'} the connection (readyState ${conn.ws.readyState}, ${conn.ws.bufferedAmount} bytes queued${ended.length ? `; ${ended.join('; ')}` : ''})`);
      };
      const overflow = await s.until((fs) => fs.find((f) => f.msg.type === 'error' && f.raw.id === undefined), 20_000, 'error 25').catch(server);
      expect(overflow.raw).toMatchObject({ type: 'error', sid: 1, msg: { code: 25 } });
      const answers = await s.until((fs) => {
        const got = fs.filter((f) => f.raw.id !== undefined && f.msg.type !== 'subscribed');
        return got.length === 200 ? got : undefined;
      }, 20_000, 'the 200 answers').catch(server);
      expect(answers.every((f) => f.msg.type === 'ok')).toBe(true);
      await s.sync();
      expect(s.data('orderbook_delta')).toEqual([]);

      stream.hub.settings.bufferLimitBytes = saved.bufferLimitBytes;
      // still stale: more orders send nothing
      await node.submit({ type: 'createOrder', nowMs: node.now(), userId: trader, ticker, side: 'bid', priceTicks: 4_955, countCenti: 100 });
      await s.sync();
      expect(s.data('orderbook_delta')).toEqual([]);
      // resync
      const ok = await s.command('update_subscription', { sid: 1, action: 'get_snapshot' });
      expect(ok.msg.type).toBe('ok');
      const lastSnap = await s.until((fs) => fs.find((f) => f.msg.type === 'orderbook_snapshot' && f.raw.seq === (ok.raw.seq as number) + 1));
      expect((lastSnap.raw.msg as { yes_dollars_fp: unknown[] }).yes_dollars_fp[0]).toEqual(['0.4955', '1.00']);
      await node.submit({ type: 'createOrder', nowMs: node.now(), userId: trader, ticker, side: 'bid', priceTicks: 4_957, countCenti: 100 });
      const d = await s.until((fs) => fs.find((f) => f.msg.type === 'orderbook_delta'));
      expect(d.raw.msg).toMatchObject({ price_dollars: '0.4957', delta_fp: '1.00' });
      // seq stayed whole from the first frame to the last, and the rebuilt book matches
      const book = replay(s.frames, 1).get(ticker)!;
      expect(levels(book.yes)).toEqual(engineBook(ticker).yes);
    } finally {
      clearInterval(keepAlive);
      Object.assign(stream.hub.settings, saved);
    }
    // only a hang guard: its waits (10 s for the queue, 20 s for error 25, 20 s for the answers)
    // each say what did not come; vitest's 30 s cut them short under load with no word of which
  }, 120_000);
});
