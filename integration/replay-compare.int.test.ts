// The replay is the recording's truth (issue 38), at every step: a recording made here, through
// main's recorder, of a live embedded exchange with the lively simulation (the markets streamed
// before the recording starts, so no exchange snapshot opens them), replayed into a fresh
// exchange on 127.0.0.1 port 0 one recorded moment per step. After each step every market's book
// equals the recording's (folded here from the recorded rows themselves), and the exchange's tape
// equals the recorded trades: same taker side, price, count and time to the millisecond.
import { afterAll, expect, it } from 'vitest';
import path from 'node:path';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { DuckDBInstance } from '@duckdb/node-api';
import type { RecordingsView } from '../src-shared/ipc/contract';
import { startSimTerminal, type SimTerminal } from '../test-support/main/sim-terminal';
import { until } from '../test-support/main/wait';
import { startTestExchange, type TestExchange } from '../test-support/exchange/harness';
import { openMarket } from '../test-support/exchange/trading-fixtures';
import { readRecording } from '../src-exchange/replay/read';
import { K_BOOK, K_DELTA, K_SNAPSHOT, K_TRADE } from '../src-exchange/replay/tape';

let sim: SimTerminal | undefined;
let x: TestExchange | undefined;
afterAll(async () => {
  await sim?.stop();
  await x?.close();
});

interface Row {
  tsUs: number;
  kind: string;
  market: string;
  side: string | null;
  price: string | null;
  size: string | null;
}

async function rowsOf(file: string): Promise<Row[]> {
  const inst = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  try {
    const c = await inst.connect();
    const r = await c.runAndReadAll(`SELECT ts_us::DOUBLE AS ts, kind, market, side, price, size FROM events WHERE kind IN ('snapshot', 'book', 'level', 'delta', 'trade') ORDER BY n`);
    c.closeSync();
    return (r.getRowObjectsJS() as Record<string, unknown>[]).map((o) => ({
      tsUs: o.ts as number,
      kind: o.kind as string,
      market: o.market as string,
      side: o.side as string | null,
      price: o.price as string | null,
      size: o.size as string | null,
    }));
  } finally {
    inst.closeSync();
  }
}

const ticks = (d: string) => Math.round(Number(d) * 10_000);
const centi = (d: string) => Math.round(Number(d) * 100);

it('replays a recording of three busy markets with every book and the tape equal to the recording at every step', async () => {
  sim = await startSimTerminal('replay-cmp-', 17);
  const s = sim;
  const value = <T,>(method: string, ...args: unknown[]) => s.value<T>(method, ...args);
  const open = await value<{ markets: { ticker: string }[] }>('request', { id: 'getMarkets', query: { status: 'open', limit: 6 } });
  const watched = open.markets.map((m) => m.ticker);
  await value('watchMarkets', watched);
  // streamed well before the recording starts: their snapshots are not in it
  await until('books streamed', async () => ((await value<{ markets?: unknown[] }>('getAppState')) !== null), 10_000);
  await new Promise((r) => setTimeout(r, 1_500));
  const started = await value<RecordingsView>('startRecording', { name: 'compare' });
  const id = started.recordings[0]!.id;
  await until(
    'three busy markets recorded',
    async () => {
      const r = (await value<RecordingsView>('getRecordings')).recordings.find((z) => z.id === id);
      return (r?.deltas ?? 0) >= 400 && (r?.trades ?? 0) >= 10 && (r?.recordedMarkets.length ?? 0) >= 3;
    },
    90_000,
  );
  await value('stopRecording');
  // kept apart: stopping the terminal removes its data directory
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'replay-cmp-rec-')), 'recording.duckdb');
  copyFileSync(path.join(s.dataDir, 'recordings', `${id}.duckdb`), file);
  await s.stop();
  sim = undefined;

  const tape = await readRecording(file);
  const rows = await rowsOf(file);
  expect(rows.length).toBe(tape.length);
  // at least three busy markets, each opening with its book
  const busy = tape.markets.filter((_, m) => {
    let deltas = 0;
    for (let i = 0; i < tape.length; i++) if (tape.market[i] === m && tape.kind[i] === K_DELTA) deltas++;
    return deltas >= 20;
  });
  expect(busy.length).toBeGreaterThanOrEqual(3);
  for (let m = 0; m < tape.markets.length; m++) {
    const firstBookRow = tape.kind.findIndex((k, i) => i < tape.length && tape.market[i] === m && k !== K_TRADE);
    expect([K_BOOK, K_SNAPSHOT], `${tape.markets[m]} opens with its book`).toContain(tape.kind[firstBookRow]);
  }

  x = await startTestExchange();
  // replayed under tickers of their own: the exchange's catalogue holds markets of these names,
  // with resting orders a load does not clear (only the simulation's)
  const renamed = (t: string) => `CMP-${t}`;
  tape.markets = tape.markets.map(renamed);
  for (const r of rows) r.market = renamed(r.market);
  for (const t of tape.markets) await openMarket(x, t, 'CMP', 'CMPS');
  const e = x.ex.svc.node.core.engine;
  const replay = await x.ex.replays.load(tape, 'max');

  // the recording's books, folded from its rows; and the trades still to print at a level whose
  // maker delta came first (the replay holds that size until the print takes it: tape.traded)
  const recorded = new Map<string, Map<string, number>>();
  const pending = new Map<string, number>();
  const recordedTrades: string[] = [];
  let applied = 0;
  const foldTo = (end: number) => {
    for (; applied < end; applied++) {
      const r = rows[applied]!;
      if (r.kind === 'snapshot' || r.kind === 'book') {
        recorded.set(r.market, new Map());
        if (r.kind === 'snapshot') for (const k of [...pending.keys()]) if (k.startsWith(`${r.market} `)) pending.delete(k);
        continue;
      }
      if (r.kind === 'trade') {
        // taker bought YES: it took NO bids at 1 - price
        const key = r.side === 'yes' ? `${r.market} no ${10_000 - ticks(r.price!)}` : `${r.market} yes ${ticks(r.price!)}`;
        pending.set(key, (pending.get(key) ?? 0) - centi(r.size!));
        recordedTrades.push(`${r.market} ${r.side} ${ticks(r.price!)} ${centi(r.size!)} ${Math.floor(r.tsUs / 1000)}`);
        continue;
      }
      const b = recorded.get(r.market) ?? new Map<string, number>();
      recorded.set(r.market, b);
      const lk = `${r.side} ${ticks(r.price!)}`;
      const now = r.kind === 'level' ? centi(r.size!) : Math.max(0, (b.get(lk) ?? 0) + centi(r.size!));
      if (now === 0) b.delete(lk);
      else b.set(lk, now);
      if (r.kind === 'delta' && tape.traded[applied]! > 0) {
        const key = `${r.market} ${lk}`;
        pending.set(key, (pending.get(key) ?? 0) + tape.traded[applied]!);
      }
    }
  };
  const expectedBook = (t: string) => {
    const out = new Map(recorded.get(t) ?? []);
    for (const [k, v] of pending) {
      if (v <= 0 || !k.startsWith(`${t} `)) continue;
      const lk = k.slice(t.length + 1);
      out.set(lk, (out.get(lk) ?? 0) + v);
    }
    return [...out.entries()].map(([k, v]) => `${k} ${v}`).sort();
  };
  const exchangeBook = (t: string) => {
    const b = e.getBook(t)!;
    return [...b.yes.map(([p, q]) => `yes ${p} ${q}`), ...b.no.map(([p, q]) => `no ${p} ${q}`)].sort();
  };
  const exchangeTrades = () =>
    tape.markets
      .flatMap((t) => e.getTrades({ ticker: t }).map((z) => ({ t, z })))
      // one recorded trade may print as several (one per replay order it meets): summed per moment
      .reduce((acc, { t, z }) => {
        const k = `${t} ${z.taker_side} ${z.taker_side === 'yes' ? z.yes_price : z.yes_price} ${z.created_time}`;
        acc.set(k, (acc.get(k) ?? 0) + z.count);
        return acc;
      }, new Map<string, number>());
  const recordedTradeSums = () => {
    const acc = new Map<string, number>();
    for (const r of recordedTrades) {
      const [t, side, price, count, ms] = r.split(' ');
      const k = `${t} ${side} ${price} ${ms}`;
      acc.set(k, (acc.get(k) ?? 0) + Number(count));
    }
    return acc;
  };

  // every recorded moment is one step
  let steps = 0;
  let compared = 0;
  /** step ends with no trade still to print (a seek back lands there) */
  const settled: number[] = [];
  for (let i = 0; i < tape.length; ) {
    let j = i;
    while (j < tape.length && tape.tsUs[j] === tape.tsUs[i]) j++;
    await replay.seek(tape.tsUs[i]!);
    expect(replay.player.books.cursor).toBe(j);
    foldTo(j);
    steps++;
    for (const t of tape.markets) {
      const want = expectedBook(t);
      const got = exchangeBook(t);
      if (got.join() !== want.join() && process.env.DBG) console.log(rows.slice(0, j).map((r) => `${r.market} ${r.tsUs} ${r.kind} ${r.side} ${r.price} ${r.size}`).join('\n'));
      if (got.join() !== want.join()) expect({ step: steps, row: j, market: t, book: got }).toEqual({ step: steps, row: j, market: t, book: want });
      compared++;
    }
    const tw = recordedTradeSums();
    const tg = exchangeTrades();
    if (JSON.stringify([...tg].sort()) !== JSON.stringify([...tw].sort())) expect({ step: steps, row: j, tape: [...tg].sort() }).toEqual({ step: steps, row: j, tape: [...tw].sort() });
    if (![...pending.values()].some((v) => v > 0)) settled.push(j);
    i = j;
  }
  // a seek back rebuilds the books from the nearest snapshots: the recording's books again
  const back = settled[Math.floor(settled.length / 2)]!;
  await replay.seek(tape.tsUs[back - 1]!);
  expect(replay.player.books.cursor).toBe(back);
  recorded.clear();
  pending.clear();
  applied = 0;
  foldTo(back);
  for (const t of tape.markets) expect({ market: t, book: exchangeBook(t) }).toEqual({ market: t, book: expectedBook(t) });
  if (process.env.DBG) console.log(`steps ${steps}, rows ${tape.length}, markets ${tape.markets.length}, trades ${recordedTrades.length}`);
  expect(steps).toBeGreaterThan(400);
  expect(compared).toBe(steps * tape.markets.length);
  expect(recordedTrades.length).toBeGreaterThanOrEqual(10);
  await replay.close();
}, 300_000);
