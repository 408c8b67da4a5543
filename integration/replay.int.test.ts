// A recording replayed into the real exchange on 127.0.0.1 port 0: the books on the REST surface
// follow the recording, the control route answers only with the replay token and refuses bad
// input without changing anything, and the trader's orders fill the same at two speeds.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../test-support/exchange/harness';
import { openMarket } from '../test-support/exchange/trading-fixtures';
import { decodeTape, type Tape } from '../src-exchange/replay/tape';
import { syntheticRows } from '../src-exchange/replay/synthetic';
import { REPLAY_PATH } from '../src-exchange/replay/admin';
import type { Speed } from '../src-exchange/replay/player';
import { ExchangeReplay } from '../src-exchange/replay/exchange-replay';

const TICKERS = ['RPL-A', 'RPL-B'];

function recording(): Tape {
  const rows = syntheticRows({ markets: 2, rows: 6_000, seed: 11, rowsPerSecond: 2_000 });
  // recorded an hour ago: replayed trades carry their recorded time, and REST lists trades and
  // fills only within the exchange's live window (the synthetic rows are dated 2025)
  const shift = Date.now() * 1000 - 3_600_000_000 - rows.ts[0]!;
  return decodeTape({ ...rows, ts: rows.ts.map((x) => x + shift), market: rows.market.map((m) => TICKERS[Number(m.slice(4))]!) });
}

let t: TestExchange | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function start(tape: Tape, speed: Speed): Promise<TestExchange> {
  const x = await startTestExchange({ replay: { tape, speed } });
  for (const ticker of TICKERS) await openMarket(x, ticker, 'RPL', 'RPLS');
  return x;
}

async function control(x: TestExchange, body?: unknown, token = String(x.ex.credentials.replay_token)): Promise<{ status: number; json: Record<string, unknown> }> {
  const r = await fetch(`http://127.0.0.1:${x.ex.port}${REPLAY_PATH}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-replay-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: r.status, json: (await r.json()) as Record<string, unknown> };
}

async function untilDone(x: TestExchange): Promise<void> {
  for (;;) {
    const s = await control(x);
    if (s.json.done === true && s.json.playing === false) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The exchange's book of a ticker as [side, price ticks, centi] rows, and the recording's at the same row. */
async function books(x: TestExchange, m: number): Promise<{ exchange: string[]; recorded: string[] }> {
  const b = await x.client('counterparty').getOrderbook({ params: { ticker: TICKERS[m]! } });
  const ticks = (p: string) => Math.round(Number(p) * 10_000);
  const exchange = [
    ...b.orderbook_fp.yes_dollars.map(([p, q]) => `yes ${ticks(p)} ${q}`),
    ...b.orderbook_fp.no_dollars.map(([p, q]) => `no ${ticks(p)} ${q}`),
  ].sort();
  const r = x.ex.replay!.player.books;
  const recorded: string[] = [];
  for (let side = 0; side < 2; side++) for (let p = 1; p < 10_000; p++) {
    const c = r.level(m, side, p);
    if (c > 0) recorded.push(`${side ? 'no' : 'yes'} ${p} ${(c / 100).toFixed(2)}`);
  }
  return { exchange, recorded: recorded.sort() };
}

describe('replay into the exchange', () => {
  it('shows the recorded books on REST as it plays, and guards its control route', async () => {
    const tape = recording();
    t = await start(tape, 'max');
    // the opening books, before playing
    for (const m of [0, 1]) {
      const b = await books(t, m);
      expect(b.recorded.length).toBeGreaterThan(4);
      expect(b.exchange).toEqual(b.recorded);
    }
    expect((await control(t, undefined, 'wrong')).status).toBe(401);
    const before = (await control(t)).json;
    expect(before).toMatchObject({ playing: false, rows: tape.length, skippedMarkets: [] });
    for (const bad of [{ action: 'speed', speed: 5000 }, { action: 'seek' }, { action: 'jump' }, { action: 'play', extra: 1 }]) {
      const r = await control(t, bad);
      expect(r.status).toBe(400);
      expect(String((r.json.error as { message?: string } | undefined)?.message ?? JSON.stringify(r.json))).toMatch(/replay control/);
    }
    expect((await control(t)).json).toEqual(before);
    // seek half way: the books are the recording's there
    const mid = tape.tsUs[3_000]!;
    expect((await control(t, { action: 'seek', tsUs: mid })).json.positionUs).toBe(mid);
    for (const m of [0, 1]) {
      const b = await books(t, m);
      expect(b.exchange).toEqual(b.recorded);
    }
    expect((await control(t, { action: 'play' })).status).toBe(200);
    await untilDone(t);
    for (const m of [0, 1]) {
      const b = await books(t, m);
      expect(b.exchange).toEqual(b.recorded);
    }
    // recorded trades printed on the public tape
    const trades = await t.client('counterparty').getTrades({ query: { ticker: TICKERS[0]!, limit: 100 } });
    expect(trades.trades.length).toBeGreaterThan(10);
  }, 120_000);

  it("fills the trader's orders the same at 10x and as fast as possible", async () => {
    const tape = recording();
    const run = async (speed: Speed) => {
      t = await start(tape, speed);
      await control(t, { action: 'seek', tsUs: tape.tsUs[600]! });
      const trader = t.client('trader');
      // join the best bid on both sides of both markets, and cross the NO side of the first once
      for (const m of [0, 1]) {
        const b = await t.client('counterparty').getOrderbook({ params: { ticker: TICKERS[m]! } });
        const yes = b.orderbook_fp.yes_dollars.map(([p]) => p).sort().at(-1)!;
        const no = b.orderbook_fp.no_dollars.map(([p]) => p).sort().at(-1)!;
        await trader.createOrder({ body: { ticker: TICKERS[m]!, client_order_id: `y${m}`, side: 'bid', count: '30', price: yes } });
        await trader.createOrder({ body: { ticker: TICKERS[m]!, client_order_id: `n${m}`, side: 'ask', count: '30', price: (1 - Number(no)).toFixed(4) } });
      }
      await control(t, { action: 'play' });
      await untilDone(t);
      const fills = [];
      for (const ticker of TICKERS) fills.push(...(await trader.getFills({ query: { ticker: [ticker], limit: 1000 } })).fills);
      const out = fills.map((f) => `${f.ticker} ${f.side} ${f.yes_price_dollars} ${f.count_fp} ${f.is_taker ? 'taker' : 'maker'}`).sort();
      await t.close();
      t = undefined;
      return out;
    };
    const fast = await run('max');
    expect(fast.length).toBeGreaterThan(3);
    expect(await run(10)).toEqual(fast);
  }, 180_000);
});

describe('replay in batches', () => {
  it("gives the same books and the same trader fills one row per step as 65,536 rows per step", async () => {
    const rows = syntheticRows({ markets: 2, rows: 4_000, seed: 23, rowsPerSecond: 2_000 });
    const tape = decodeTape({ ...rows, market: rows.market.map((m) => TICKERS[Number(m.slice(4))]!) });
    const run = async (chunk: number, batchCommands?: number) => {
      t = await startTestExchange();
      for (const ticker of TICKERS) await openMarket(t, ticker, 'RPL', 'RPLS');
      const node = t.ex.svc.node;
      const replay = await ExchangeReplay.start(t.ex.svc, tape, { speed: 'max', chunk, ...(batchCommands ? { batchCommands } : {}) });
      await replay.seek(tape.tsUs[400]!);
      const trader = t.account('trader').user_id;
      const e = node.core.engine;
      const order = (ticker: string, side: 'bid' | 'ask', priceTicks: number, countCenti: number) =>
        node.submit({ type: 'createOrder', nowMs: node.now(), userId: trader, ticker, side, priceTicks, countCenti });
      // join the best bid of both sides, rest one level deeper, a small order that fills and
      // leaves its level early, and a taker crossing the NO side once
      for (const ticker of TICKERS) {
        const b = e.getBook(ticker, 2)!;
        await order(ticker, 'bid', b.yes[0]![0], 3_000);
        await order(ticker, 'ask', 10_000 - b.no[0]![0], 3_000);
        if (b.yes[1]) await order(ticker, 'bid', b.yes[1][0], 700);
        await order(ticker, 'bid', b.yes[0]![0], 100);
      }
      await order(TICKERS[0]!, 'bid', 10_000 - e.getBook(TICKERS[0]!, 1)!.no[0]![0], 150);
      replay.play();
      await replay.finished();
      expect(replay.state().done).toBe(true);
      const books = TICKERS.map((ticker) => JSON.stringify(e.getBook(ticker)));
      const fills = e.getFills(trader).map((f) => `${f.ticker} ${f.side} ${f.yes_price} ${f.count} ${f.is_taker ? 'taker' : 'maker'}`);
      const resting = e.listOrders({ userId: trader, status: 'resting' }).map((o) => `${o.ticker} ${o.side} ${o.yes_price} ${o.remaining_count} ${e.queuePosition(o.order_id)}`);
      const commands = replay.state().commands;
      const records = node.journalStats.appends;
      await replay.close();
      await t.close();
      t = undefined;
      return { books, fills, resting, commands, records };
    };
    const batched = await run(65_536);
    const oneByOne = await run(1);
    expect(batched.fills.length).toBeGreaterThan(5);
    expect(oneByOne.books).toEqual(batched.books);
    expect(oneByOne.fills).toEqual(batched.fills);
    expect(oneByOne.resting).toEqual(batched.resting);
    // netting: far fewer commands in big steps
    expect(batched.commands).toBeLessThan(oneByOne.commands);
    // a step's commands cut into journal records of 7: the same again
    const cut = await run(65_536, 7);
    expect(cut.records).toBeGreaterThan(batched.records + 10);
    expect(cut.books).toEqual(batched.books);
    expect(cut.fills).toEqual(batched.fills);
    expect(cut.resting).toEqual(batched.resting);
  }, 240_000);
});

describe('replay and restart', () => {
  it('a restart from the journal of batched steps gives the same books and fills', async () => {
    const rows = syntheticRows({ markets: 2, rows: 3_000, seed: 31, rowsPerSecond: 2_000 });
    const tape = decodeTape({ ...rows, market: rows.market.map((m) => TICKERS[Number(m.slice(4))]!) });
    t = await startTestExchange();
    for (const ticker of TICKERS) await openMarket(t, ticker, 'RPL', 'RPLS');
    const replay = await ExchangeReplay.start(t.ex.svc, tape, { speed: 'max', batchCommands: 50 });
    const trader = t.account('trader').user_id;
    const node = t.ex.svc.node;
    for (const ticker of TICKERS) {
      const b = node.core.engine.getBook(ticker, 1)!;
      await node.submit({ type: 'createOrder', nowMs: node.now(), userId: trader, ticker, side: 'bid', priceTicks: b.yes[0]![0], countCenti: 2_000 });
    }
    replay.play();
    await replay.finished();
    const state = (x: TestExchange) => {
      const e = x.ex.svc.node.core.engine;
      return { books: TICKERS.map((ticker) => e.getBook(ticker)), fills: e.getFills(trader).length, resting: e.listOrders({ userId: trader, status: 'resting' }).map((o) => `${o.order_id} ${o.remaining_count} ${e.queuePosition(o.order_id)}`) };
    };
    const before = state(t);
    expect(before.fills).toBeGreaterThan(0);
    await t.restart();
    expect(t.ex.svc.node.recovered.records).toBeGreaterThan(0);
    expect(state(t)).toEqual(before);
  }, 120_000);
});

describe('loading a recording into a running exchange', () => {
  it('a second load of a recording in the same exchange shows its books again (the replay account\'s orders are not told apart by reused client ids)', async () => {
    const tape = recording();
    t = await startTestExchange();
    for (const ticker of TICKERS) await openMarket(t, ticker, 'RPL', 'RPLS');
    const e = t.ex.svc.node.core.engine;
    const book = () => TICKERS.map((ticker) => e.getBook(ticker));
    for (let round = 0; round < 2; round++) {
      const replay = await ExchangeReplay.start(t.ex.svc, tape, { speed: 'max' });
      replay.play();
      await replay.finished();
      const r = replay.player.books;
      const recorded = TICKERS.map((ticker, m) => {
        const side = (s: number) => {
          const out: [number, number][] = [];
          for (let p = 9_999; p >= 1; p--) if (r.level(m, s, p) > 0) out.push([p, r.level(m, s, p)]);
          return out;
        };
        return { ticker, yes: side(0), no: side(1) };
      });
      expect(book()).toEqual(recorded);
      await replay.close();
      expect(e.listOrders({ status: 'resting' }).filter((o) => TICKERS.includes(o.ticker))).toEqual([]);
    }
  }, 120_000);


  it('loads a recorder file by the control route, replays it, and unloads leaving no replay order', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const rows = syntheticRows({ markets: 2, rows: 3_000, seed: 5, rowsPerSecond: 1_000 });
    const dir = mkdtempSync(path.join(tmpdir(), 'replay-file-'));
    const csv = path.join(dir, 'rows.csv');
    writeFileSync(csv, ['n,ts_us,kind,market,side,price,size', ...rows.ts.map((ts, i) => [i, ts, rows.kind[i], TICKERS[Number(rows.market[i]!.slice(4))], rows.side[i] ?? '', rows.price[i] ?? '', rows.size[i] ?? ''].join(','))].join('\n'));
    const file = path.join(dir, 'rec-test.duckdb');
    const inst = await DuckDBInstance.create(file);
    const conn = await inst.connect();
    await conn.run(`CREATE TABLE events AS SELECT n::BIGINT AS n, ts_us::BIGINT AS ts_us, kind::VARCHAR AS kind, market::VARCHAR AS market, nullif(side, '')::VARCHAR AS side, nullif(price, '')::VARCHAR AS price, nullif(size, '')::VARCHAR AS size FROM read_csv('${csv}', all_varchar = true)`);
    conn.closeSync();
    inst.closeSync();

    t = await startTestExchange();
    for (const ticker of TICKERS) await openMarket(t, ticker, 'RPL', 'RPLS');
    expect((await control(t)).json).toEqual({ active: false });
    expect((await control(t, { action: 'play' })).status).toBe(409);
    const missing = await control(t, { action: 'load', file: path.join(dir, 'nope.duckdb') });
    expect(missing.status).toBe(400);
    expect((await control(t)).json).toEqual({ active: false });

    const loaded = await control(t, { action: 'load', file, speed: 'max' });
    expect(loaded.json).toMatchObject({ active: true, rows: rows.n, playing: false });
    await control(t, { action: 'play' });
    await untilDone(t);
    const b = await books(t, 0);
    expect(b.exchange).toEqual(b.recorded);
    expect((await control(t, { action: 'unload' })).json).toEqual({ active: false });
    const maker = Object.values(t.ex.svc.node.core.engine.listOrders({ ticker: TICKERS[0]!, status: 'resting' }));
    expect(maker).toEqual([]);
  }, 120_000);
});
