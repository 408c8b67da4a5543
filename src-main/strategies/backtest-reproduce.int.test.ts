// A backtest report reproduced from its saved id: a recording on disk (the recorder's DuckDB
// file and description, made from a seeded synthetic flow), backtested through the strategies
// service (the recorder reads it, a worker thread replays it), saved with the source's hash and
// the recording's id, then run again from that id alone: the same figures. A saved report whose
// source was changed is refused; a sweep runs in its thread and answers with its table.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { syntheticRows } from '../../src-exchange/replay/synthetic';
import { SweepInput } from '../../src-shared/ipc/strategies';
import { EVENTS_DDL } from '../recorder/batch';
import { Recorder } from '../recorder/recorder';
import type { TradingPort } from '../session/active-session';
import { sourceHash } from './backtest-saved';
import { StrategiesService } from './strategies-service';

const REC = 'rec-20261128t120000-synt';
const mm = readFileSync(path.join(__dirname, 'examples', 'market-maker.js'), 'utf8');
let dir: string;
let recorder: Recorder;
let service: StrategiesService;

async function writeRecording(file: string): Promise<void> {
  const rows = syntheticRows({ markets: 3, rows: 12_000, seed: 5, rowsPerSecond: 400 });
  const inst = await DuckDBInstance.create(file, { threads: '1' });
  const conn = await inst.connect();
  await conn.run(EVENTS_DDL);
  const a = await conn.createAppender('events');
  const str = (v: string | null | undefined) => (v === null || v === undefined ? a.appendNull() : a.appendVarchar(v));
  for (let i = 0; i < rows.n; i++) {
    a.appendBigInt(BigInt(i));
    a.appendBigInt(BigInt(Math.round(rows.ts[i]!)));
    a.appendVarchar(rows.kind[i]!);
    a.appendVarchar(rows.market[i]!);
    a.appendNull();
    a.appendNull();
    str(rows.side[i]);
    str(rows.price[i]);
    str(rows.size[i]);
    a.appendNull();
    a.endRow();
  }
  a.closeSync();
  conn.closeSync();
  inst.closeSync();
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'bt-repro-'));
  await writeRecording(path.join(dir, `${REC}.duckdb`));
  await writeFile(path.join(dir, `${REC}.json`), JSON.stringify({ id: REC, name: 'synthetic', markets: null, startedAt: 1, stoppedAt: 2 }));
  recorder = new Recorder({ dir });
  // the backtest path reads recordings only: no session, no trading
  service = new StrategiesService({ trading: {} as TradingPort, recorder, active: () => null });
}, 120_000);

afterAll(async () => {
  await recorder?.close();
  await rm(dir, { recursive: true, force: true });
});

it('a saved report runs again from its id to the same figures', async () => {
  const params = { ticker: 'SYN-1', size: '2', maxPosition: 6 };
  const view = await service.backtestStrategy({ code: mm, params, recordingId: REC });
  expect(view.fault).toBeNull();
  expect(view.tradeList.length).toBeGreaterThan(0);
  const saved = view.saved!;
  expect(saved).toMatchObject({ recordingId: REC, rows: 12_000, params, codeHash: sourceHash(mm) });
  expect(saved.codeHash).toMatch(/^[0-9a-f]{64}$/);
  const again = await service.reproduceBacktest({ id: saved.id });
  expect(again.differences).toEqual([]);
  expect(again.rerun).toEqual(again.figures);
  expect(again.figures.pnl).toBe(view.pnl);
  expect(again.figures.sharpe).toBe(view.sharpe);
  expect(again.figures.trades).toBe(view.trades);

  // a saved report whose source no longer matches its hash is refused, not re-run
  const file = path.join(dir, 'backtests', `${saved.id}.json`);
  const s = JSON.parse(await readFile(file, 'utf8')) as { code: string };
  await writeFile(file, JSON.stringify({ ...s, code: `${s.code}\n// changed` }));
  await expect(service.reproduceBacktest({ id: saved.id })).rejects.toThrow(/does not match its hash/);
  await expect(service.reproduceBacktest({ id: 'bt-nope' })).rejects.toThrow(/no saved backtest/);
}, 300_000);

it('a sweep with walk-forward runs in its thread and answers with its table', async () => {
  const input = SweepInput.parse({ code: mm, params: { ticker: 'SYN-0', size: '1' }, recordingId: REC, grid: { maxPosition: [2, 6] }, by: 'sharpe', windows: 2 });
  const v = await service.sweepStrategy(input);
  expect(v.rows.map((r) => r.params.maxPosition)).toEqual([2, 6]);
  expect(v.walkForward!.folds).toHaveLength(1);
  // a grid past the bound is refused with a reason
  await expect(service.sweepStrategy({ ...input, grid: { a: [1, 2, 3, 4, 5, 6, 7, 8, 9], b: [1, 2, 3, 4, 5, 6, 7, 8] }, windows: undefined } as typeof input)).rejects.toThrow(/at most 64/);
  expect(() => SweepInput.parse({ ...input, by: 'luck' })).toThrow();
}, 300_000);
