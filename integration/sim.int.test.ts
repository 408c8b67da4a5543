// The live simulation on a real exchange: participants trade through the node (books change,
// trades and candles appear), markets close, determine and settle when their close time
// passes, a restart reuses the participants, and stopping leaves nothing running.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../test-support/exchange/harness';
import type { SimOptions } from '../src-exchange/sim/options';
import { activeAndHot, DEFAULT_SIM, startSim } from '../src-exchange/sim/index';
import { onTick } from '../src-exchange/engine/price-levels';
import { catalogOf } from '../src-exchange/core/catalog-module';
import type { UsersState } from '../src-exchange/state/users';
import { TestStream } from '../test-support/exchange/ws-client';
import { entryArgs } from '../test-support/entry';

const FAST: Partial<SimOptions> = {
  tickMs: 50,
  ratePerSecond: 200,
  lifecycleMs: 100,
  determineDelayMs: 200,
  settleDelayMs: 200,
  pauseEveryMs: 0,
  newMarketEveryMs: 0,
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, f: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const simNames = (t: TestExchange) =>
  Object.values(t.ex.svc.node.core.domain<UsersState>('users').users)
    .map((u) => u.name)
    .filter((n) => n.startsWith('sim-'))
    .sort();

describe('live simulation', () => {
  let t: TestExchange;

  beforeAll(async () => {
    t = await startTestExchange({ sim: true, simOptions: FAST });
    await until('the participants', () => (simNames(t).length === 5 ? true : undefined));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates its participants as exchange accounts, never in credentials.json', async () => {
    expect(simNames(t)).toEqual(['sim-maker-1', 'sim-maker-2', 'sim-maker-3', 'sim-taker-1', 'sim-taker-2']);
    const file = JSON.parse(readFileSync(path.join(t.dataDir, 'credentials.json'), 'utf8')) as { accounts: { name: string }[] };
    expect(file.accounts.map((a) => a.name).sort()).toEqual(['counterparty', 'fcm', 'trader']);
    // no API keys for them either: nobody can sign as a participant
    const u = t.ex.svc.node.core.domain<UsersState>('users');
    const simIds = new Set(Object.values(u.users).filter((x) => x.name.startsWith('sim-')).map((x) => x.user_id));
    expect(Object.values(u.keys).filter((k) => simIds.has(k.user_id))).toEqual([]);
  });

  it('moves the books of open markets and prints trades and candles', async () => {
    const trader = t.client('trader');
    const pub = t.publicClient();
    const open = (await pub.getMarkets({ query: { status: 'open', limit: 200 } })).markets;
    expect(open.length).toBeGreaterThan(0);
    const tickers = open.slice(0, 20).map((m) => m.ticker);
    const snapshot = async () => JSON.stringify((await trader.getOrderbooks({ query: { tickers } })).orderbooks);
    const before = await snapshot();
    const startTs = Math.floor(Date.now() / 1000);
    await until('books to change', async () => ((await snapshot()) !== before ? true : undefined));

    const simIds = new Set(Object.values(t.ex.svc.node.core.domain<UsersState>('users').users).filter((x) => x.name.startsWith('sim-')).map((x) => x.user_id));
    const engine = t.ex.svc.node.core.engine;
    const trades = await until('trades', async () => {
      const page = await pub.getTrades({ query: { min_ts: startTs, limit: 100 } });
      return page.trades.length >= 3 ? page.trades : undefined;
    });
    const ticker = trades[0]!.ticker;
    // those trades are the participants' (their fills), made with no request of ours
    const simFills = [...simIds].flatMap((id) => engine.getFills(id, { ticker }));
    expect(simFills.map((f) => f.trade_id)).toContain(trades[0]!.trade_id);

    const series = engine.getMarket(ticker)!.series_ticker;
    const candles = await pub.getMarketCandlesticks({
      params: { series_ticker: series, ticker },
      query: { start_ts: startTs - 120, end_ts: Math.floor(Date.now() / 1000) + 60, period_interval: 60 },
    });
    expect(candles.candlesticks.length).toBeGreaterThan(0);
    const traded = candles.candlesticks.filter((c) => /[1-9]/.test(String(c.volume_fp)));
    expect(traded.length).toBeGreaterThan(0);
  });

  it('is lively where traders look: the busiest markets (by volume) get most of the activity', async () => {
    // Every book change, from the stream (one orderbook_delta each): polling the books would count
    // a hot market's several changes between two polls as one, and the slower the machine, the
    // fewer polls, so the busiest market's share would shrink with the machine's speed.
    // The busiest are chosen again as volumes move (every lifecycleMs, 100 ms here): each change
    // counts as hot when its market was among them as it arrived, not at the test's start (the
    // slower the machine, the longer 200 changes take and the more the busiest turn over: a set
    // fixed at the start got 23% on a loaded run).
    const engine = t.ex.svc.node.core.engine;
    const open = engine.listMarkets({ status: 'open' });
    const opts = { ...DEFAULT_SIM, ...FAST };
    const hotNow = () => new Set(activeAndHot(engine.listMarkets({ status: 'open' }), opts).hot.map((m) => m.ticker));
    const s = await TestStream.open(t.ex.wsUrl);
    try {
      await s.command('subscribe', { channels: ['orderbook_delta'], market_tickers: open.map((m) => m.ticker) });
      const counts = new Map<string, number>();
      let changes = 0;
      let hotChanges = 0;
      let seen = s.data('orderbook_delta').length;
      // 200 changes, however long the machine takes to make them; the stream's own frames, each
      // new one read against the busiest as the wait wakes for it
      await s.until(
        () => {
          const deltas = s.data('orderbook_delta');
          const hot = hotNow();
          for (; seen < deltas.length; seen++) {
            const ticker = String((deltas[seen]!.raw.msg as { market_ticker?: unknown } | undefined)?.market_ticker);
            changes++;
            if (hot.has(ticker)) hotChanges++;
            counts.set(ticker, (counts.get(ticker) ?? 0) + 1);
          }
          return changes >= 200 || undefined;
        },
        60_000,
        '200 book changes',
      );
      // the simulation gives its 3 busiest 60% of its commands; a uniform pick would give them 3/N
      expect(hotChanges / changes, JSON.stringify(Object.fromEntries(counts))).toBeGreaterThan(Math.max(0.3, (2 * 3) / Math.max(Math.min(open.length, opts.maxActiveMarkets), 3)));
    } finally {
      await s.close();
    }
  });

  it('closes, determines and settles a market once its close time passes; the stream sees it', async () => {
    // (in a mutually exclusive event the result waits until every market of it stopped trading)
    const node = t.ex.svc.node;
    const cat = catalogOf(node.core);
    const openEvent = node.core.engine.listMarkets({ status: 'open' }).map((m) => cat.events[m.event_ticker]).find((e) => e && e.collection_ticker === null && !e.mutually_exclusive)!;
    expect(openEvent).toBeDefined();
    const s = await TestStream.open(t.ex.wsUrl);
    await s.command('subscribe', { channels: ['market_lifecycle_v2'] });
    const ticker = `${openEvent.event_ticker}-SHORT`;
    const now = node.now();
    const created = await node.submit({
      type: 'catalogCreateMarket',
      nowMs: now,
      open: true,
      market: { ticker, event_ticker: openEvent.event_ticker, title: 'Short-lived', open_ms: now, close_ms: now + 1_500 },
    });
    expect(created.ok, JSON.stringify(created.result)).toBe(true);
    const pub = t.publicClient();
    const settled = await until('settlement', async () => {
      const m = (await pub.getMarket({ params: { ticker } })).market;
      return m.status === 'settled' || m.status === 'finalized' ? m : undefined;
    });
    expect(['yes', 'no']).toContain(settled.result);
    const m = node.core.engine.getMarket(ticker)!;
    expect(m.determined_ms).toBeGreaterThanOrEqual(now + 1_500);
    // nothing rests in a settled market
    expect(node.core.engine.getBook(ticker)).toEqual({ ticker, yes: [], no: [] });
    const kinds = await s.until((fs) => {
      const got = fs.filter((f) => f.msg.type === 'market_lifecycle_v2' && (f.raw.msg as { market_ticker?: string }).market_ticker === ticker).map((f) => (f.raw.msg as { event_type: string }).event_type);
      return got.includes('settled') ? got : undefined;
    });
    expect(kinds).toEqual(expect.arrayContaining(['created', 'activated', 'determined', 'settled']));
    s.ws.close();
  });

  it("quotes and takes on every market's tick: no invalid_price refusal, every resting order on its grid", async () => {
    const engine = t.ex.svc.node.core.engine;
    const sim = startSim(t.ex.svc, { ...FAST, seed: 41 });
    await sim.ready;
    await until('orders and amends from the participants', () => {
      const s = sim.stats();
      return (s.byType.createOrder ?? 0) + (s.byType.amendOrder ?? 0) > 300 ? true : undefined;
    });
    await sim.stop();
    expect(sim.stats().rejectedByCode.invalid_price).toBeUndefined();
    const structures = new Set<string>();
    for (const name of Object.keys(sim.participants())) {
      for (const o of engine.listOrders({ userId: sim.participants()[name]!, status: 'resting' })) {
        const structure = engine.getMarket(o.ticker)!.price_level_structure;
        structures.add(structure);
        expect(onTick(structure, o.yes_price), `${o.ticker} (${structure}) at ${o.yes_price}`).toBe(true);
      }
    }
    expect(structures.size).toBeGreaterThan(1);
  });

  it('keeps markets open: below the minimum, it opens new ones in existing events', async () => {
    const node = t.ex.svc.node;
    const sim = startSim(t.ex.svc, { ...FAST, seed: 99, minOpenMarkets: 1_000, newMarketLifetimeMs: 60_000, ratePerSecond: 1 });
    await sim.ready;
    const cat = catalogOf(node.core);
    const added = await until('a new market', () => {
      const m = node.core.engine.listMarkets({ status: 'open' }).find((x) => x.ticker.includes('-SIM'));
      return m;
    });
    await sim.stop();
    expect(cat.markets[added.ticker]?.event_ticker).toBe(added.event_ticker);
    expect(cat.events[added.event_ticker]?.markets).toContain(added.ticker);
    expect(cat.markets[added.ticker]!.close_ms - cat.markets[added.ticker]!.open_ms).toBe(60_000);
  });

  it('pauses a market now and then and resumes it (all of them on stop)', async () => {
    const engine = t.ex.svc.node.core.engine;
    const sim = startSim(t.ex.svc, { ...FAST, seed: 5, ratePerSecond: 1, pauseEveryMs: 100, pauseMs: 400, minOpenMarkets: 0 });
    await sim.ready;
    const first = await until('a pause', () => sim.paused()[0]);
    expect(engine.getMarket(first)?.status).toBe('paused');
    await until('its resumption', () => (engine.getMarket(first)?.status === 'open' ? true : undefined));
    const pausedNow = await until('another pause', () => sim.paused()[0]);
    await sim.stop();
    expect(sim.paused()).toEqual([]);
    expect(engine.getMarket(pausedNow)?.status).toBe('open');
  });

  it('a timed pause lives in state: it is resumed even if the pause was not made by this run (a crash lost it)', async () => {
    const node = t.ex.svc.node;
    const cat = node.core.domain<{ markets: Record<string, unknown> }>('catalog');
    const open = node.core.engine.listMarkets({ status: 'open' }).filter((m) => cat.markets[m.ticker]);
    expect(open.length).toBeGreaterThanOrEqual(2);
    const [timed, forever] = [open[0]!.ticker, open[1]!.ticker];
    const pause = (ticker: string, resumeAt?: number) =>
      node.submit({ type: 'catalogMarketLifecycle', nowMs: node.now(), ticker, action: 'pause', ...(resumeAt ? { resume_at_ms: resumeAt } : {}) });
    expect((await pause(timed, node.now() + 300)).ok).toBe(true);
    expect((await pause(forever)).ok).toBe(true);
    await until('the timed pause to end', () => (node.core.engine.getMarket(timed)?.status === 'open' ? true : undefined));
    await sleep(500);
    expect(node.core.engine.getMarket(forever)?.status).toBe('paused');
    await node.submit({ type: 'catalogMarketLifecycle', nowMs: node.now(), ticker: forever, action: 'open' });
  });

  it('a restart reuses the participants (no duplicates) and they keep trading', async () => {
    const before = Object.values(t.ex.svc.node.core.domain<UsersState>('users').users).filter((u) => u.name.startsWith('sim-'));
    await t.restart();
    const engine = () => t.ex.svc.node.core.engine;
    const trades0 = engine().getTrades().length;
    await until('trades after the restart', () => (engine().getTrades().length > trades0 + 2 ? true : undefined));
    const after = Object.values(t.ex.svc.node.core.domain<UsersState>('users').users).filter((u) => u.name.startsWith('sim-'));
    expect(after.map((u) => u.user_id).sort()).toEqual(before.map((u) => u.user_id).sort());
    expect(simNames(t)).toEqual(['sim-maker-1', 'sim-maker-2', 'sim-maker-3', 'sim-taker-1', 'sim-taker-2']);
  });
});

describe('which markets are quoted', () => {
  it('quotes the newest open markets up to the cap and withdraws from one that drops out', async () => {
    const t = await startTestExchange();
    try {
      const node = t.ex.svc.node;
      const engine = node.core.engine;
      const sim = startSim(t.ex.svc, { ...FAST, seed: 3, maxActiveMarkets: 2, takerShare: 0, minOpenMarkets: 0 });
      await sim.ready;
      const makers = Object.entries(sim.participants()).filter(([n]) => n.startsWith('sim-maker')).map(([, id]) => id);
      const restingIn = (ticker: string) => makers.flatMap((userId) => engine.listOrders({ userId, ticker, status: 'resting' }));
      const add = async (ticker: string) => {
        for (const cmd of [{ type: 'addMarket', ticker, eventTicker: 'QUOTE-EV', seriesTicker: 'QUOTE' }, { type: 'openMarket', ticker }]) {
          const r = await node.submit({ ...cmd, nowMs: node.now() });
          expect(r.ok, JSON.stringify(r.result)).toBe(true);
        }
        await sleep(5);
      };
      await add('QUOTE-A');
      await add('QUOTE-B');
      await until('quotes in both new markets', () => (restingIn('QUOTE-A').length > 0 && restingIn('QUOTE-B').length > 0 ? true : undefined));
      // an older open market is not quoted by this simulation
      const older = engine.listMarkets({ status: 'open' }).find((m) => m.ticker.startsWith('KX'))!;
      expect(restingIn(older.ticker)).toEqual([]);
      await add('QUOTE-C');
      await until('QUOTE-A withdrawn, QUOTE-C quoted', () => (restingIn('QUOTE-A').length === 0 && restingIn('QUOTE-C').length > 0 ? true : undefined));
      await sim.stop();
      expect(sim.stats().rejected).toBe(0);
    } finally {
      await t.close();
    }
  });
});

describe('stopping the simulation', () => {
  it('leaves no timer or socket behind: a process that closes the exchange exits by itself', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sim-exit-'));
    const server = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src-exchange/server.ts');
    const script = `
      const { startExchange } = await import(${JSON.stringify(server)});
      const ex = await startExchange({ dataDir: ${JSON.stringify(dataDir)}, port: 0, sim: true, rateLimits: false, simOptions: { tickMs: 20, ratePerSecond: 300, lifecycleMs: 50 } });
      await new Promise((r) => setTimeout(r, 1500));
      const trades = ex.svc.node.core.engine.getTrades().length;
      await ex.close();
      console.log('closed ' + trades);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    let closedAt = 0;
    const code = await new Promise<number | null>((resolve) => {
      // the start (tsx compiling the exchange's modules) takes what the machine gives it (it took
      // over 30 s with the cores shared five ways, and a watchdog from the spawn killed it); once
      // it says it closed, 30 s more is a leftover timer or socket, whatever the machine
      let watchdog = setTimeout(() => child.kill('SIGKILL'), 600_000);
      child.stdout.on('data', () => {
        if (!closedAt && out.includes('closed ')) {
          closedAt = Date.now();
          clearTimeout(watchdog);
          watchdog = setTimeout(() => child.kill('SIGKILL'), 30_000);
        }
      });
      child.on('exit', (c) => {
        clearTimeout(watchdog);
        resolve(c);
      });
    });
    rmSync(dataDir, { recursive: true, force: true });
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toMatch(/closed \d+/);
    // exited promptly after close (a leftover timer would keep it alive until the watchdog)
    expect(Date.now() - closedAt).toBeLessThan(5_000);
  }, 660_000);
});

describe('--sim-rate', () => {
  const run = (args: string[]) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, [...entryArgs('exchange'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      child.on('exit', (code) => resolve({ code, out }));
    });

  it('refuses a rate that is not a whole number of commands per second (and market minutes out of range, pause minutes not a number), with usage, before touching the data dir', async () => {
    const dataDir = path.join(tmpdir(), `sim-rate-${process.pid}-never-made`);
    // the six CLIs at once: each compiles the exchange with tsx first (seconds each on a busy machine)
    const minutes = run(['--port', '0', '--data-dir', dataDir, '--sim-market-minutes', '0']);
    const pauses = run(['--port', '0', '--data-dir', dataDir, '--sim-pause-minutes', 'often']);
    const [neg, ...bads] = await Promise.all(['-5', 'fast', '2.5', '999999'].map((rate) => run(['--port', '0', '--data-dir', dataDir, '--sim-rate', rate])));
    const m = await minutes;
    expect(m.code).toBe(2);
    expect(m.out).toContain('--sim-market-minutes must be');
    expect(m.out).toContain('usage:');
    const p = await pauses;
    expect(p.code).toBe(2);
    expect(p.out).toContain("--sim-pause-minutes must be a whole number of mean minutes between the simulation's pauses");
    for (const r of bads) {
      expect(r.code).toBe(2);
      expect(r.out).toContain('--sim-rate must be a whole number of commands per second');
      expect(r.out).toContain('usage:');
    }
    // a negative number reads as another option: refused by the parser, naming the option
    expect(neg!.code).toBe(2);
    expect(neg!.out).toContain("'--sim-rate'");
    expect(() => readFileSync(path.join(dataDir, 'credentials.json'))).toThrow();
    // the hang guard only: four child processes that compile before they refuse
  }, 300_000);
});
