// The recorder through main's door against the real embedded exchange (a child process with the
// lively simulation): a named market is streamed because it is recorded, its snapshot and deltas
// arrive in the file with their seq, the trader's own order is there too, and the recording
// exports to CSV; bad arguments are refused by the door.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startSimTerminal, type SimTerminal } from '../../test-support/main/sim-terminal';
import { until } from '../../test-support/main/wait';
import type { RecordingsView } from '../../src-shared/ipc/contract';
import { MAX_RECORDINGS } from './recorder';

let sim: SimTerminal;
let dataDir: string;
const call = (method: string, ...args: unknown[]) => sim.call(method, ...args);
const value = <T,>(method: string, ...args: unknown[]) => sim.value<T>(method, ...args);

beforeAll(async () => {
  sim = await startSimTerminal('rec-int-', 5);
  dataDir = sim.dataDir;
}, 60_000);

afterAll(async () => {
  await sim?.stop();
});

it('records a named market (snapshot, deltas with seq, own orders) and exports it', async () => {
  const r = await value<{ markets: { ticker: string }[] }>('request', { id: 'getMarkets', query: { status: 'open', limit: 5 } });
  const tickers = r.markets.map((m) => m.ticker).slice(0, 3);
  expect(tickers.length).toBeGreaterThan(0);
  const started = await value<RecordingsView>('startRecording', { name: 'int', markets: tickers });
  const id = started.recordings[0]!.id;
  expect(started.recordings[0]).toMatchObject({ active: true, name: 'int', markets: tickers });
  // the snapshot on subscribe, then the simulation's flow
  await until('rows recorded', async () => ((await value<RecordingsView>('getRecordings')).recordings[0]?.rows ?? 0) > 20, 30_000);
  // the lively simulation pauses a random market now and then (20 s at a time): the order goes
  // to a recorded market that trades, as a trader would send it
  await until('an order placed in a recorded market', async () => {
    for (const ticker of tickers) {
      const placed = await call('placeOrder', { ticker, side: 'bid', price: '0.0100', count: '1', origin: 'ticket' });
      if (placed.ok) return true;
      if (!/ is paused/.test(placed.error.message)) throw new Error(`placeOrder: ${placed.error.message}`);
    }
    return false;
  }, 60_000);
  const out = path.join(dataDir, 'recordings', 'exports', `${id}.csv`);
  await until('own order recorded', async () => {
    await value('exportRecording', { id, format: 'csv' });
    return readFileSync(out, 'utf8').includes(',order,');
  }, 30_000);
  const stopped = await value<RecordingsView>('stopRecording');
  const rec = stopped.recordings.find((x) => x.id === id)!;
  expect(rec.active).toBe(false);
  expect(rec.stoppedAt).not.toBeNull();
  expect(rec.bytes).toBeGreaterThan(0);
  expect(rec.recordedMarkets.every((m) => tickers.includes(m))).toBe(true);
  expect(rec.firstMs).not.toBeNull();
  expect(rec.lastMs! >= rec.firstMs!).toBe(true);
  const { path: csv } = await value<{ path: string }>('exportRecording', { id, format: 'csv' });
  const lines = readFileSync(csv, 'utf8').trim().split('\n');
  expect(lines).toHaveLength(rec.rows + 1);
  const snap = lines.find((l) => l.split(',')[2] === 'snapshot')!;
  expect(Number(snap.split(',')[5])).toBeGreaterThan(0); // its seq
});

it('refuses bad arguments and a second stop changes nothing', async () => {
  expect(await call('startRecording', { markets: ['not a ticker!'] })).toMatchObject({ ok: false, error: { kind: 'validation' } });
  expect(await call('exportRecording', { id: '../x', format: 'csv' })).toMatchObject({ ok: false, error: { kind: 'validation' } });
  expect(await call('exportRecording', { id: 'rec-none', format: 'xlsx' })).toMatchObject({ ok: false, error: { kind: 'validation' } });
  expect(await call('saveRecorderSettings', { retentionDays: -1 })).toMatchObject({ ok: false, error: { kind: 'validation' } });
  const before = await value<RecordingsView>('getRecordings');
  await value('stopRecording');
  expect((await value<RecordingsView>('getRecordings')).recordings.map((x) => x.id)).toEqual(before.recordings.map((x) => x.id));
  const saved = await value<RecordingsView>('saveRecorderSettings', { retentionDays: 7 });
  expect(saved.settings).toEqual({ retentionDays: 7 });
});

it(`keeps at most ${MAX_RECORDINGS} recordings: one more is refused at start with a clear error, and the list of them opens no file`, async () => {
  await value('stopRecording');
  // one real recording, then copies of it (as days of recording leave them), up to the cap
  const r = await value<{ markets: { ticker: string }[] }>('request', { id: 'getMarkets', query: { status: 'open', limit: 1 } });
  const made = await value<RecordingsView>('startRecording', { name: 'model', markets: [r.markets[0]!.ticker] });
  const model = made.recordings.find((x) => x.active)!.id;
  await until('rows recorded', async () => ((await value<RecordingsView>('getRecordings')).recordings.find((x) => x.id === model)?.rows ?? 0) > 0, 30_000);
  await value('stopRecording');
  const dir = path.join(dataDir, 'recordings');
  const meta = JSON.parse(readFileSync(path.join(dir, `${model}.json`), 'utf8')) as { id: string; name: string };
  const have = (await value<RecordingsView>('getRecordings')).recordings.length;
  for (let i = have; i < MAX_RECORDINGS; i++) {
    const id = `rec-copy-${i}`;
    copyFileSync(path.join(dir, `${model}.duckdb`), path.join(dir, `${id}.duckdb`));
    if (existsSync(path.join(dir, `${model}.duckdb.wal`))) copyFileSync(path.join(dir, `${model}.duckdb.wal`), path.join(dir, `${id}.duckdb.wal`));
    writeFileSync(path.join(dir, `${id}.json`), JSON.stringify({ ...meta, id, name: `copy ${i}` }));
  }
  // what a stopped recording holds was read at its stop: the list takes it from there and opens no
  // recording's file (this one is not a database any more, and it is listed all the same)
  writeFileSync(path.join(dir, `rec-copy-${MAX_RECORDINGS - 1}.duckdb`), 'not a database');
  const t0 = performance.now();
  const full = await value<RecordingsView>('getRecordings');
  listFigures.listMs = Math.round(performance.now() - t0);
  const t1 = performance.now();
  await value<RecordingsView>('getRecordings');
  listFigures.secondListMs = Math.round(performance.now() - t1);
  expect(full.recordings).toHaveLength(MAX_RECORDINGS);
  const modelRows = full.recordings.find((x) => x.id === model)!.rows;
  expect(modelRows).toBeGreaterThan(0);
  expect(full.recordings.filter((x) => x.id.startsWith('rec-copy-')).every((x) => x.rows === modelRows && x.problem === null)).toBe(true);

  const refused = await call('startRecording', { name: 'one too many' });
  expect(refused).toMatchObject({ ok: false, error: { kind: 'state', code: 'too_many_recordings' } });
  expect((refused as { error: { message: string } }).error.message).toMatch(new RegExp(`at most ${MAX_RECORDINGS}: delete one .* before starting another; nothing started`));
  const after = await value<RecordingsView>('getRecordings');
  expect(after.recordings).toHaveLength(MAX_RECORDINGS);
  expect(after.recordings.some((x) => x.active || x.name === 'one too many')).toBe(false);

  // room again once one is deleted
  await value('deleteRecording', { id: 'rec-copy-5' });
  const again = await value<RecordingsView>('startRecording', { name: 'room again' });
  expect(again.recordings.find((x) => x.active)?.name).toBe('room again');
  await value('stopRecording');
}, 120_000);

const listFigures: Record<string, number> = {};
afterAll(() => console.log('recordings list figures', listFigures));
