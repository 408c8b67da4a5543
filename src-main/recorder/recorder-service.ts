// The recorder behind TerminalApi: start and stop a recording, list recordings with their size,
// markets and time range, export, delete, and the retention setting (`<data>/recordings/settings.json`,
// applied at start and every hour). Named markets are pinned on the session so they stream
// whatever the panels show.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { StreamRead } from '../../src-shared/wire/stream';
import type { ChannelImpl, ParsedArgs } from '../../src-shared/ipc/contract';
import type { ExportProgress, RecordingView, RecordingsView, RecorderSettingsInput } from '../../src-shared/ipc/recordings';
import type { ActiveSession } from '../session/active-session';
import { StateError } from '../base/errors';
import { DEFAULT_RECORDER_SETTINGS, Recorder, type RecordingInfo } from './recorder';

export interface RecorderServiceOptions {
  dataDir: string;
  active: () => ActiveSession | null;
  log?: (m: string) => void;
}

const PIN = 'recorder';

export class RecorderService implements ChannelImpl<'recorder'> {
  readonly recorder: Recorder;
  private settings: RecorderSettingsInput = { ...DEFAULT_RECORDER_SETTINGS };
  private readonly dir: string;
  private retentionTimer: NodeJS.Timeout | null = null;
  private saving: Promise<void> = Promise.resolve();
  /** exports under way, by recording and format: the list shows their progress */
  private readonly exporting = new Map<string, ExportProgress>();
  private exportSeq = 0;

  constructor(private readonly opts: RecorderServiceOptions) {
    this.dir = path.join(opts.dataDir, 'recordings');
    this.recorder = new Recorder({ dir: this.dir, ...(opts.log ? { log: opts.log } : {}) });
    // the recorder's own snapshots read main's books (the active session's)
    this.recorder.bookSource = {
      markets: () => {
        const out: string[] = [];
        for (const b of this.opts.active()?.session.books.books() ?? []) if (!b.stale) out.push(b.marketTicker);
        return out;
      },
      levels: (market) => {
        const b = this.opts.active()?.session.books.book(market);
        return b && !b.stale ? { yes: b.bids(0), no: b.bids(1) } : undefined;
      },
    };
  }

  async start(): Promise<void> {
    try {
      const s = JSON.parse(await readFile(path.join(this.dir, 'settings.json'), 'utf8')) as Partial<RecorderSettingsInput>;
      if (typeof s.retentionDays === 'number' && Number.isInteger(s.retentionDays) && s.retentionDays >= 0) this.settings = { retentionDays: s.retentionDays };
    } catch {
      // none yet: the defaults
    }
    await this.retain();
    this.retentionTimer = setInterval(() => void this.retain(), 3_600_000);
    this.retentionTimer.unref();
  }

  async stop(): Promise<void> {
    if (this.retentionTimer) clearInterval(this.retentionTimer);
    await this.recorder.close();
  }

  /** Every stream message main receives (the session's observer). */
  message(m: StreamRead): void {
    this.recorder.onMessage(m);
  }

  async onSession(active: ActiveSession | null): Promise<void> {
    await this.pin(active);
  }

  private async pin(active = this.opts.active()): Promise<void> {
    const markets = this.recorder.current?.markets ?? [];
    await active?.session.pin(PIN, markets).catch((e: unknown) => this.opts.log?.(`[recorder] could not stream ${markets.join(',')}: ${(e as Error).message}`));
  }

  private async retain(): Promise<void> {
    try {
      const gone = await this.recorder.applyRetention(this.settings);
      if (gone.length) this.opts.log?.(`[recorder] retention: deleted ${gone.join(', ')}`);
    } catch (e) {
      this.opts.log?.(`[recorder] retention failed: ${(e as Error).message}`);
    }
  }

  async getRecordings(): Promise<RecordingsView> {
    const list = await this.recorder.list();
    return { recordings: list.map(view), settings: { ...this.settings }, ...(this.exporting.size ? { exports: [...this.exporting.values()].map((e) => ({ ...e })) } : {}) };
  }

  async startRecording(input: ParsedArgs<'startRecording'>[0]): Promise<RecordingsView> {
    // main receives nothing without a session: a recording then would be empty by construction
    if (!this.opts.active()) throw new StateError('no connected profile: connect one to record its markets');
    await this.recorder.start(input);
    await this.pin();
    return this.getRecordings();
  }

  async stopRecording(): Promise<RecordingsView> {
    await this.recorder.stop();
    await this.pin();
    return this.getRecordings();
  }

  async exportRecording(input: ParsedArgs<'exportRecording'>[0]): Promise<{ path: string }> {
    const key = `${input.id}.${input.format}.${++this.exportSeq}`;
    const state: ExportProgress = { id: input.id, format: input.format, pct: 0 };
    this.exporting.set(key, state);
    try {
      return { path: await this.recorder.export(input.id, input.format, (pct) => (state.pct = pct)) };
    } finally {
      this.exporting.delete(key);
    }
  }

  async deleteRecording(input: ParsedArgs<'deleteRecording'>[0]): Promise<RecordingsView> {
    await this.recorder.remove(input.id);
    return this.getRecordings();
  }

  /**
   * Saves run one after another, in the order asked: two at once would both write settings.json.tmp
   * and the second rename would find it gone, or leave the older settings on disk.
   */
  saveRecorderSettings(input: ParsedArgs<'saveRecorderSettings'>[0]): Promise<RecordingsView> {
    const run = this.saving.then(async () => {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      const p = path.join(this.dir, 'settings.json');
      await writeFile(`${p}.tmp`, JSON.stringify(input), { mode: 0o600 });
      await rename(`${p}.tmp`, p);
      this.settings = { ...input };
      await this.retain();
      return this.getRecordings();
    });
    this.saving = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }
}

function view(r: RecordingInfo): RecordingView {
  const s = r.stats;
  return {
    id: r.id,
    name: r.name,
    markets: r.markets,
    startedAt: r.startedAt,
    stoppedAt: r.stoppedAt,
    active: r.active,
    bytes: r.bytes,
    rows: s?.rows ?? 0,
    deltas: s?.deltas ?? 0,
    trades: s?.trades ?? 0,
    recordedMarkets: s?.markets ?? [],
    firstMs: s?.firstUs === null || s?.firstUs === undefined ? null : Math.floor(s.firstUs / 1000),
    lastMs: s?.lastUs === null || s?.lastUs === undefined ? null : Math.floor(s.lastUs / 1000),
    problem: r.problem,
  };
}
