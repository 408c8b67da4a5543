import { readdirSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { StreamRead } from '../../src-shared/wire/stream';
import { Recorder } from './recorder';

const dirs: string[] = [];
const recorders: Recorder[] = [];
afterEach(async () => {
  for (const r of recorders.splice(0)) await r.close();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function make(): Promise<Recorder> {
  const dir = await mkdtemp(path.join(tmpdir(), 'rec-'));
  dirs.push(dir);
  const r = new Recorder({ dir, flushMs: 20 });
  recorders.push(r);
  return r;
}

const msg = (x: unknown) => x as StreamRead;
const delta = (t: string, seq: number, price: string, d: string) => msg({ type: 'orderbook_delta', sid: 1, seq, msg: { market_ticker: t, side: 'yes', price_dollars: price, delta_fp: d } });
const snapshot = (t: string, seq: number) =>
  msg({ type: 'orderbook_snapshot', sid: 1, seq, msg: { market_ticker: t, yes_dollars_fp: [['0.5000', '10.00'], ['0.4900', '3.00']], no_dollars_fp: [['0.4700', '2.50']] } });
const ticker = (t: string) => msg({ type: 'ticker', sid: 2, seq: 1, msg: { market_ticker: t, price_dollars: '0.5000', yes_bid_dollars: '0.5000', yes_ask_dollars: '0.5300', volume_fp: '10.00', open_interest_fp: '5.00', ts: 1 } });
const trade = (t: string) => msg({ type: 'trade', sid: 3, seq: 1, msg: { trade_id: 'tr1', market_ticker: t, yes_price_dollars: '0.5000', no_price_dollars: '0.5000', count_fp: '2.00', taker_side: 'yes', ts: 1 } });
const fill = (t: string) => msg({ type: 'fill', sid: 4, seq: 1, msg: { trade_id: 'f1', market_ticker: t, side: 'yes', yes_price_dollars: '0.5000', count_fp: '1.00' } });

async function until(cond: () => Promise<boolean> | boolean): Promise<void> {
  for (let i = 0; i < 2000 && !(await cond()); i++) await new Promise((r) => setTimeout(r, 10));
  expect(await cond()).toBe(true);
}

test('watched mode keeps books, trades, own fills, and tickers only of markets with books', async () => {
  const rec = await make();
  const meta = await rec.start({ name: 'watch' });
  expect(rec.current?.id).toBe(meta.id);
  rec.onMessage(snapshot('A', 1), 1_000);
  rec.onMessage(delta('A', 2, '0.5000', '-1.00'), 2_000);
  rec.onMessage(ticker('A'), 3_000);
  rec.onMessage(ticker('UNWATCHED'), 3_500);
  rec.onMessage(trade('A'), 4_000);
  rec.onMessage(fill('OTHER'), 5_000);
  await rec.stop();
  const [info] = await rec.list();
  expect(info!.id).toBe(meta.id);
  expect(info!.active).toBe(false);
  expect(info!.stoppedAt).not.toBeNull();
  expect(info!.bytes).toBeGreaterThan(0);
  // snapshot + 3 levels + delta + ticker + trade + fill
  expect(info!.stats).toMatchObject({ rows: 8, firstUs: 1_000, lastUs: 5_000, deltas: 1, trades: 1, markets: ['A'] });
  const rows = await rec.read(meta.id, 0, 100);
  expect(rows.kind).toEqual(['snapshot', 'level', 'level', 'level', 'delta', 'ticker', 'trade', 'fill']);
  expect(rows.n).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  expect(rows.price.slice(1, 5)).toEqual(['0.5000', '0.4900', '0.4700', '0.5000']);
  expect(rows.size.slice(1, 5)).toEqual(['10.00', '3.00', '2.50', '-1.00']);
  expect(rows.seq.slice(0, 5)).toEqual([1, 1, 1, 1, 2]);
  expect(rows.market[7]).toBe('OTHER');
});

test('named mode keeps only the named markets; export to CSV and Parquet', async () => {
  const rec = await make();
  const meta = await rec.start({ markets: ['B'] });
  for (let i = 0; i < 1000; i++) rec.onMessage(delta(i % 2 ? 'B' : 'C', i + 1, '0.2500', '1.00'), 10_000 + i);
  await until(async () => ((await rec.list())[0]?.stats?.rows ?? 0) === 500);
  const csv = await rec.export(meta.id, 'csv');
  const text = await readFile(csv, 'utf8');
  const lines = text.trim().split('\n');
  expect(lines[0]).toBe('n,ts_us,kind,market,sid,seq,side,price,size,extra');
  expect(lines).toHaveLength(501);
  expect(lines[1]).toBe('0,10001,delta,B,1,2,yes,0.2500,1.00,');
  const pq = await rec.export(meta.id, 'parquet');
  expect((await stat(pq)).size).toBeGreaterThan(0);
  expect((await readFile(pq)).subarray(0, 4).toString()).toBe('PAR1');
  await rec.stop();
  // the owner's alone, like the rest of the data directory
  if (process.platform !== 'win32') {
    const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [path.join(d, e.name), ...walk(path.join(d, e.name))] : [path.join(d, e.name)]));
    for (const p of [rec.dir, ...walk(rec.dir)]) expect([p, (statSync(p).mode & 0o777).toString(8)]).toEqual([p, statSync(p).isDirectory() ? '700' : '600']);
  }
});

test('one recording at a time; bad ids refused; retention deletes what ended long ago', async () => {
  const rec = await make();
  const a = await rec.start({});
  await expect(rec.start({})).rejects.toThrow(/already recording/);
  await rec.stop();
  expect(() => rec.fileOf('../../etc/passwd')).toThrow(/not a recording id/);
  await expect(rec.export('rec-nope', 'csv')).rejects.toThrow(/no recording/);
  // an old recording, as if it had ended 40 days ago
  const old = { id: 'rec-old-1', name: 'old', markets: null, startedAt: Date.now() - 41 * 86_400_000, stoppedAt: Date.now() - 40 * 86_400_000 };
  await writeFile(path.join(rec.dir, 'rec-old-1.json'), JSON.stringify(old));
  expect(await rec.applyRetention({ retentionDays: 0 })).toEqual([]);
  expect(await rec.applyRetention({ retentionDays: 30 })).toEqual(['rec-old-1']);
  expect((await rec.list()).map((x) => x.id)).toEqual([a.id]);
});
