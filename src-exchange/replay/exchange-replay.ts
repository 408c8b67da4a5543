// A recording replayed into the running exchange: the driver. The recorded books are held by one
// account (`replay-maker`): at every recorded level it rests orders of the recorded size, so the
// REST, WebSocket and FIX surfaces show the recording like any book, and the trader's orders meet
// it in the engine itself. Recorded trades are printed by a second account (`replay-taker`). What
// a step sends, and the queue model it carries, is level-sync.ts; this module paces the steps
// (player.ts: the recording's time, 1x to 1,000x or as fast as possible), journals each step's
// commands as one batch record, seeks, and follows the trader's orders from the published events.
import { randomUUID } from 'node:crypto';
import type { CoreCommand, CoreOutcome } from '../core/core';
import type { NodeBatch } from '../core/node';
import type { ExchangeEvent } from '../state/domain';
import type { Engine } from '../engine/engine';
import type { OrderView } from '../engine/types';
import { users, type Services } from '../core/services';
import { LevelSync, type TraderOrder } from './level-sync';
import { ReplayPlayer, type PlayerState, type Speed } from './player';
import { ReplayCursor } from './queue';
import type { Tape } from './tape';

const TICKS = 10_000;
/** cash of each replay account (micro-dollars): the books it holds never run out */
const REPLAY_CASH_MICRO = 1_000_000_000_000_000;
/** commands per journal record at most (a long seek forward is many; a record stays far below the journal's 16 MiB) */
const BATCH_COMMANDS = 10_000;

export const REPLAY_MAKER = 'replay-maker';
export const REPLAY_TAKER = 'replay-taker';

export interface ReplayState extends PlayerState {
  /** recorded markets the exchange does not list as open (their rows are skipped) */
  skippedMarkets: string[];
  /** commands sent to the exchange by the replay */
  commands: number;
  /** the trader's replay subaccount (their orders go there while the replay is loaded); null when none was asked for */
  traderSubaccount: number | null;
}

export interface ExchangeReplayOptions {
  speed?: Speed;
  /** wall ms between steps when not as fast as possible (default 10) */
  tickMs?: number;
  /** rows per step when playing as fast as possible (default the player's, 65,536) */
  chunk?: number;
  /** commands per journal record at most (default 10,000) */
  batchCommands?: number;
}

export class ExchangeReplay {
  readonly player: ReplayPlayer;
  private readonly sync: LevelSync;
  makerId = '';
  takerId = '';
  /** the trader's replay subaccount, when the load named the trader */
  traderSubaccount: number | null = null;
  /** market index -> exchange ticker, null when the exchange does not have it open */
  readonly live: (string | null)[];
  private readonly marketIndex = new Map<string, number>();
  /** the trader's resting orders (every account but the replay's), by order id: where rows must go in order (level-sync.ts) */
  readonly traderResting = new Map<string, TraderOrder>();
  readonly restingCount: Int32Array;
  private playing = false;
  private loop: Promise<void> = Promise.resolve();
  /** the step's commands: applied at once, journaled as one record when the step ends (flush) */
  private batch: NodeBatch | null = null;
  private batchSize = 0;
  /** batches committed within a step (a long one is cut into records of BATCH_COMMANDS), not yet durable */
  private committing: Promise<void>[] = [];
  private commands = 0;
  /** the recorded time (µs) of the row being sent (level-sync sets it): replayed books, trades and fills carry it, not the wall clock; 0 outside a step */
  clockUs = 0;
  private unsubscribe: () => void = () => undefined;
  private closed = false;

  private constructor(
    private readonly svc: Services,
    readonly tape: Tape,
    private readonly opts: ExchangeReplayOptions,
  ) {
    // the player only paces (where and when): the recorded books are level-sync's
    this.player = new ReplayPlayer(tape, { newBooks: (t) => new ReplayCursor(t), ...(opts.chunk !== undefined ? { chunk: opts.chunk } : {}) });
    this.player.setSpeed(opts.speed ?? 1);
    this.live = tape.markets.map(() => null);
    tape.markets.forEach((t, i) => this.marketIndex.set(t, i));
    this.restingCount = new Int32Array(tape.markets.length);
    this.sync = new LevelSync(tape, this);
  }

  /** Makes (or finds) the replay's two accounts; the replay starts paused at the recording's start. */
  static async start(svc: Services, tape: Tape, opts: ExchangeReplayOptions = {}): Promise<ExchangeReplay> {
    const r = new ExchangeReplay(svc, tape, opts);
    r.makerId = await account(svc, REPLAY_MAKER);
    r.takerId = await account(svc, REPLAY_TAKER);
    r.unsubscribe = svc.node.onEvents((evs) => r.onEvents(evs));
    // the first rows (the recording's opening snapshots) are the book the trader sees at the start
    r.seekTo(r.player.state().firstUs);
    await r.flush();
    return r;
  }

  state(): ReplayState {
    this.refreshLive();
    this.commitSoon();
    return { ...this.player.state(), playing: this.playing, skippedMarkets: this.tape.markets.filter((_, i) => this.live[i] === null), commands: this.commands, traderSubaccount: this.traderSubaccount };
  }

  setSpeed(speed: Speed): void {
    this.player.setSpeed(speed);
  }

  play(): void {
    if (this.playing || this.closed) return;
    this.playing = true;
    this.loop = this.run();
  }

  async pause(): Promise<void> {
    this.playing = false;
    await this.loop;
  }

  /** Jump to a recorded time (µs). Back: the books are rebuilt, and the trader's resting orders in the replayed markets are canceled (their place in the queue is gone). */
  async seek(tsUs: number): Promise<void> {
    if (!Number.isFinite(tsUs)) throw new Error('seek needs a time in µs');
    const wasPlaying = this.playing;
    await this.pause();
    this.seekTo(tsUs);
    await this.flush();
    if (wasPlaying) this.play();
  }

  /** Resolves when the recording has played to its end (or the replay paused or closed). */
  async finished(): Promise<void> {
    await this.loop;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.pause();
    this.clockUs = 0;
    // the recording's books leave with it
    this.submit({ type: 'cancelAllOrders', userId: this.makerId });
    await this.flush();
    this.unsubscribe();
  }

  private async run(): Promise<void> {
    let last = performance.now();
    while (this.playing && !this.closed) {
      const now = performance.now();
      const from = this.player.books.cursor;
      this.player.step(now - last);
      last = now;
      this.apply(from, this.player.books.cursor);
      await this.flush();
      if (this.player.state().done) {
        // levels the trader's last fills freed are set to the recording, as a further step would
        this.apply(this.player.books.cursor, this.player.books.cursor);
        await this.flush();
        break;
      }
      const speed = this.player.state().speed;
      await new Promise<void>((res) => (speed === 'max' ? setImmediate(res) : setTimeout(res, this.opts.tickMs ?? 10)));
    }
    this.playing = false;
  }

  private seekTo(tsUs: number): void {
    const from = this.player.books.cursor;
    const back = tsUs < this.player.books.nowUs;
    this.player.seek(tsUs);
    if (back) {
      const c = this.player.books.cursor;
      this.clockUs = this.tape.length ? this.tape.tsUs[Math.max(0, c - 1)]! : 0;
      this.sync.rebuild(c);
      // their cancels (published after this) find them gone
      for (const [id, o] of this.traderResting) if (this.live[o.m] !== null) this.traderResting.delete(id);
      for (let m = 0; m < this.live.length; m++) if (this.live[m] !== null) this.restingCount[m] = 0;
      return;
    }
    this.apply(from, this.player.books.cursor);
  }

  /** Sends the rows [from, to) to the exchange (level-sync.ts); a market opened meanwhile gets its recorded book first. */
  private apply(from: number, to: number): void {
    this.refreshLive();
    this.sync.apply(from, to);
  }

  /** A recorded market the exchange opens (now or later) gets the recorded book as it stands. */
  private refreshLive(): void {
    const e = this.engine();
    for (let m = 0; m < this.live.length; m++) {
      if (this.live[m] !== null) continue;
      const ticker = this.tape.markets[m]!;
      if (e.getMarket(ticker)?.status !== 'open') continue;
      this.live[m] = ticker;
      this.sync.setMarket(m);
    }
  }

  engine(): Engine {
    return this.svc.node.core.engine;
  }

  submit(cmd: Omit<CoreCommand, 'nowMs'>): CoreOutcome {
    this.commands++;
    // the engine applies the command at once (the next row sees its effect); the step's commands
    // are journaled as one record when it ends, and flush() waits for that before the next step
    this.batch ??= this.svc.node.beginBatch();
    // the command is the caller's own literal: stamped in place (nowMs last, as a spread put it)
    const stamped = cmd as CoreCommand;
    // recorded time: the tape and the chart show when it happened, not when it was replayed
    stamped.nowMs = this.clockUs > 0 ? Math.floor(this.clockUs / 1000) : this.svc.node.now();
    const outcome = this.batch.apply(stamped);
    if (++this.batchSize >= (this.opts.batchCommands ?? BATCH_COMMANDS)) {
      // appended now, in apply order; durable and published behind
      this.committing.push(this.batch.commit());
      this.batch = null;
      this.batchSize = 0;
    }
    return outcome;
  }

  /** Journals the step's commands (called before the event loop turns: no other command may come between). */
  private async flush(): Promise<void> {
    const b = this.batch;
    this.batch = null;
    this.batchSize = 0;
    const all = this.committing;
    this.committing = [];
    if (b) all.push(b.commit());
    await Promise.all(all);
  }

  /** Commits what a call outside a step (a market opening, a state read) sent. */
  private commitSoon(): void {
    if (this.batch) this.flush().catch((err: unknown) => console.error('[replay] journaling the replay batch failed', err));
  }

  /** A recorded market opening gets its book; the trader's resting orders are followed. */
  private onEvents(evs: readonly ExchangeEvent[]): void {
    for (const ev of evs) {
      if (ev.type === 'market' && this.marketIndex.has((ev as { market: { ticker: string } }).market.ticker)) {
        this.refreshLive();
        this.commitSoon();
      }
      if (ev.type === 'order') this.trackOrder((ev as { order: OrderView }).order);
    }
  }

  /** Keeps count of the trader's resting orders per replayed market. */
  private trackOrder(o: OrderView): void {
    if (o.user_id === this.makerId || o.user_id === this.takerId) return;
    const m = this.marketIndex.get(o.ticker);
    if (m === undefined) return;
    const was = this.traderResting.has(o.order_id);
    if (o.status === 'resting' && !was) {
      this.traderResting.set(o.order_id, { m, side: o.side === 'bid' ? 0 : 1, price: o.side === 'bid' ? o.yes_price : TICKS - o.yes_price });
      this.restingCount[m]!++;
    } else if (o.status !== 'resting' && was) {
      this.traderResting.delete(o.order_id);
      this.restingCount[m]!--;
    }
  }
}

async function account(svc: Services, name: string): Promise<string> {
  for (const u of Object.values(users(svc).users)) if (u.name === name) return u.user_id;
  const userId = randomUUID();
  const created = await svc.node.submit({ type: 'createUser', nowMs: svc.node.now(), user_id: userId, name, is_fcm_member: false });
  if (!created.ok) throw new Error(`replay: cannot create ${name}: ${JSON.stringify(created.result)}`);
  const dep = await svc.node.submit({ type: 'deposit', nowMs: svc.node.now(), userId, amountMicro: REPLAY_CASH_MICRO });
  if (!dep.ok) throw new Error(`replay: cannot fund ${name}: ${JSON.stringify(dep.result)}`);
  return userId;
}
