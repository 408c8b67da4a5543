// Saved backtest reports: each report is kept with what it was made of (the strategy's source and
// its sha256, the parameters, the recording's id and how many of its rows were read), so a result
// can be run again from its id and compared figure by figure (`reproduceBacktest`). The files
// sit beside the recordings (`<data>/recordings/backtests/<id>.json`, the owner's alone) so a
// team that shares its recordings shares the reports made from them. The newest MAX_SAVED stay.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BacktestFigures, BacktestView, SavedBacktestInfo } from '../../src-shared/ipc/strategies';
import { figuresOf } from './report';

export const MAX_SAVED = 200;
const ID = /^bt-[0-9a-z-]{1,60}$/;

export interface SavedBacktest {
  info: SavedBacktestInfo;
  code: string;
  figures: BacktestFigures;
}

export const sourceHash = (code: string): string => createHash('sha256').update(code, 'utf8').digest('hex');

export class SavedBacktests {
  constructor(readonly dir: string) {}

  private file(id: string): string {
    if (!ID.test(id)) throw new Error(`${JSON.stringify(id)} is not a saved backtest id`);
    return path.join(this.dir, `${id}.json`);
  }

  async save(x: { code: string; params: SavedBacktestInfo['params']; recordingId: string; rows: number; view: BacktestView }, now = Date.now()): Promise<SavedBacktestInfo> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const id = `bt-${new Date(now).toISOString().replace(/[-:.]/g, '').toLowerCase()}-${randomBytes(3).toString('hex')}`;
    const info: SavedBacktestInfo = { id, savedAt: now, codeHash: sourceHash(x.code), recordingId: x.recordingId, rows: x.rows, params: x.params };
    const saved: SavedBacktest = { info, code: x.code, figures: figuresOf(x.view) };
    await writeFile(this.file(id), `${JSON.stringify({ ...saved, tradeList: x.view.tradeList })}\n`, { mode: 0o600 });
    await this.prune();
    return info;
  }

  async load(id: string): Promise<SavedBacktest> {
    const text = await readFile(this.file(id), 'utf8').catch(() => {
      throw new Error(`no saved backtest ${id}`);
    });
    const s = JSON.parse(text) as SavedBacktest;
    if (sourceHash(s.code) !== s.info.codeHash) throw new Error(`saved backtest ${id}: its source does not match its hash (the file was changed)`);
    return s;
  }

  private async prune(): Promise<void> {
    const names = (await readdir(this.dir)).filter((n) => ID.test(n.replace(/\.json$/, '')) && n.endsWith('.json')).sort();
    for (const n of names.slice(0, Math.max(0, names.length - MAX_SAVED))) await rm(path.join(this.dir, n), { force: true });
  }
}

/** The figures that differ between a saved report and its re-run, as "name: saved -> rerun". */
export function differences(a: BacktestFigures, b: BacktestFigures): string[] {
  const out: string[] = [];
  for (const k of Object.keys(a) as (keyof BacktestFigures)[]) if (a[k] !== b[k]) out.push(`${k}: ${String(a[k])} -> ${String(b[k])}`);
  return out;
}
