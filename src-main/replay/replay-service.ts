// Replays a recording into the embedded exchange, which the terminal is already connected to
// (the `embedded` profile): main exports the recording to Parquet, tells the exchange to load it
// at its admin route (/admin/replay, not part of the real service: docs/protocol-notes-extra.md),
// and relays the replay bar's controls. The exchange pauses its simulation while a recording
// plays, so every panel shows the recorded books and the trader's orders meet them.
import path from 'node:path';
import { credentialsOf } from '../embedded/credentials-file';
import type { ChannelImpl, ParsedArgs, ReplayView } from '../../src-shared/ipc/contract';
import { StateError } from '../base/errors';
import type { RecorderService } from '../recorder/recorder-service';

export interface ReplayServiceOptions {
  /** the embedded exchange's REST base URL (absent: no embedded exchange) */
  baseUrl: (() => string | undefined) | undefined;
  /** the embedded exchange's data dir (its credentials.json holds the control token) */
  exchangeDataDir: string;
  recorder: RecorderService;
  /** the trader's user id at the exchange: a replay trades in a subaccount of it */
  account?: () => string | null | undefined;
  log?: (m: string) => void;
}

interface ExchangeAnswer {
  active: boolean;
  playing?: boolean;
  speed?: number | 'max';
  positionUs?: number;
  firstUs?: number;
  lastUs?: number;
  row?: number;
  rows?: number;
  done?: boolean;
  skippedMarkets?: string[];
  traderSubaccount?: number | null;
  error?: { message?: string };
  message?: string;
}

export class ReplayService implements ChannelImpl<'replay'> {
  private recordingId: string | null = null;
  /** the replay's own account while one is loaded: the trading service sends orders there */
  private replaySubaccount: number | null = null;

  /** Where orders go while a replay is loaded (its own subaccount), or null: the live account. */
  get subaccount(): number | null {
    return this.replaySubaccount;
  }

  constructor(private readonly opts: ReplayServiceOptions) {}

  private async call(body?: Record<string, unknown>): Promise<ReplayView> {
    const base = this.opts.baseUrl?.();
    if (!base) throw new StateError('replay needs the embedded exchange, and this terminal runs without it');
    const token = (credentialsOf(this.opts.exchangeDataDir) as { replay_token?: unknown }).replay_token;
    if (typeof token !== 'string') throw new StateError('the embedded exchange gave no replay control token (credentials.json has no replay_token): restart it');
    const res = await fetch(`${new URL(base).origin}/admin/replay`, {
      method: body ? 'POST' : 'GET',
      headers: { 'x-replay-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const a = (await res.json()) as ExchangeAnswer;
    if (!res.ok) throw new StateError(a.error?.message ?? a.message ?? `the exchange's replay control answered ${res.status}`);
    // (the recording's id is forgotten only by stopReplay: a poll answered before a load lands must not clear it)
    if (!a.active) {
      this.replaySubaccount = null;
      return { active: false };
    }
    if (typeof a.traderSubaccount === 'number') this.replaySubaccount = a.traderSubaccount;
    return {
      active: true,
      recordingId: this.recordingId,
      playing: a.playing === true,
      speed: a.speed ?? 1,
      positionMs: Math.floor((a.positionUs ?? 0) / 1000),
      firstMs: Math.floor((a.firstUs ?? 0) / 1000),
      lastMs: Math.floor((a.lastUs ?? 0) / 1000),
      row: a.row ?? 0,
      rows: a.rows ?? 0,
      done: a.done === true,
      skippedMarkets: a.skippedMarkets ?? [],
      subaccount: this.replaySubaccount,
    };
  }

  getReplay(): Promise<ReplayView> {
    return this.opts.baseUrl?.() ? this.call() : Promise.resolve({ active: false });
  }

  async startReplay(input: ParsedArgs<'startReplay'>[0]): Promise<ReplayView> {
    // the exchange reads the Parquet export: the recorder keeps its own file open
    const { path: file } = await this.opts.recorder.exportRecording({ id: input.id, format: 'parquet' });
    this.recordingId = input.id;
    const account = this.opts.account?.();
    const v = await this.call({ action: 'load', file: path.resolve(file), ...(input.speed !== undefined ? { speed: input.speed } : {}), ...(account ? { account } : {}) });
    this.opts.log?.(`replay: ${input.id} loaded into the embedded exchange`);
    return v.active ? { ...v, recordingId: input.id } : v;
  }

  replayControl(input: ParsedArgs<'replayControl'>[0]): Promise<ReplayView> {
    if (input.action === 'seek') return this.call({ action: 'seek', tsUs: input.tsMs * 1000 });
    return this.call(input);
  }

  async stopReplay(): Promise<ReplayView> {
    const v = await this.call({ action: 'unload' });
    this.recordingId = null;
    this.replaySubaccount = null;
    return v;
  }
}
