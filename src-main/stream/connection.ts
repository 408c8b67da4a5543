// One WebSocket session to the exchange's stream: signed upgrade (re-signed on every connect),
// commands with ids and awaited replies, a registry of wanted subscriptions that is replayed
// after every reconnect and reconciled with `list_subscriptions`, reconnect with backoff and
// jitter, ping liveness plus a data-silence watchdog, and a terminal state on 401/403.
// Data frames go to `onData` as raw text (the books parse their own, on the hot path).
import WebSocket from 'ws';
import { Backoff, type BackoffOptions } from './backoff';
import { CHANNELS, isChannel } from '../../src-shared/wire/stream';
import { NudgeBound } from '../base/nudge';

export type StreamPhase = 'idle' | 'connecting' | 'live' | 'reconnecting' | 'unauthorized' | 'closed';

export interface StreamStatus {
  phase: StreamPhase;
  detail: string;
  reconnects: number;
  /** last ping round trip, ms */
  latencyMs: number | null;
}

export interface Subscription {
  channel: string;
  /** market tickers; empty = all markets (public channels) */
  markets: string[];
  /** index ids for the index channels (`underlying_tickers` on a channel scoped by Pyth underlyings) */
  indices?: string[];
  /**
   * A feed the server may refuse (one it does not offer, or one the account has not bought, as
   * `pyth_value`): a refusal is logged and the channel no longer wanted, instead of failing the
   * whole (re)subscribe and cutting the connection.
   */
  optional?: boolean;
}

export interface Reply {
  id?: number;
  type: string;
  sid?: number;
  seq?: number;
  msg?: unknown;
}

export class CommandError extends Error {
  override name = 'CommandError';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export interface StreamConnectionOptions {
  url: string;
  /** headers for the upgrade, made fresh per connect (signing needs a current timestamp) */
  headers?: () => Record<string, string>;
  commandTimeoutMs?: number;
  backoff?: BackoffOptions;
  /** no data frame and no reply for this long while subscribed: probe, then reconnect */
  silenceMs?: number;
  /** our own ping interval (the server pings too) */
  pingMs?: number;
  onData?: (text: string) => void;
  onStatus?: (s: StreamStatus) => void;
  /** every (re)connect after subscriptions are restored; the session resyncs and reconciles */
  onLive?: (info: { reconnect: boolean; sidsByChannel: Map<string, number> }) => void;
  /** subscription replies tell which sid serves which channel */
  onSubscribed?: (channel: string, sid: number) => void;
  log?: (msg: string) => void;
}

interface Pending {
  resolve: (r: Reply[]) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
  /** replies expected (subscribe answers one per channel) */
  expect: number;
  got: Reply[];
}

export class StreamConnection {
  private ws: WebSocket | null = null;
  /** the socket whose subscriptions are being made or are live (set on open, before the resubscribe) */
  private subscribing: WebSocket | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly wanted = new Map<string, Subscription>();
  private readonly sids = new Map<string, number>();
  private readonly backoff: Backoff;
  private retryTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private silenceTimer: NodeJS.Timeout | null = null;
  private lastTraffic = 0;
  private openedAt = 0;
  /** how soon a nudge may cut the backoff short (created with the backoff, below) */
  private readonly nudges: NudgeBound;
  private stopped = true;
  private everLive = false;
  private status: StreamStatus = { phase: 'idle', detail: 'not started', reconnects: 0, latencyMs: null };
  private pingSentAt = 0;

  constructor(private readonly opts: StreamConnectionOptions) {
    this.backoff = new Backoff(opts.backoff);
    this.nudges = new NudgeBound(this.backoff.maxMs);
  }

  get phase(): StreamPhase {
    return this.status.phase;
  }

  get snapshot(): StreamStatus {
    return { ...this.status };
  }

  sidOf(channel: string): number | undefined {
    return this.sids.get(channel);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.clearTimers();
    this.failPending(new Error('stream stopped'));
    const ws = this.ws;
    this.ws = null;
    if (ws && ws.readyState !== WebSocket.CLOSED) {
      await new Promise<void>((resolve) => {
        ws.once('close', () => resolve());
        ws.close(1000, 'client stop');
        setTimeout(() => {
          ws.terminate();
          resolve();
        }, 1000).unref();
      });
    }
    this.setStatus('closed', 'stopped');
  }

  /** Want a channel for these markets (merged with what is already wanted). */
  async want(channel: string, markets: string[] = [], indices?: string[], opts: { optional?: boolean } = {}): Promise<void> {
    const cur = this.wanted.get(channel);
    if (!cur) {
      this.wanted.set(channel, { channel, markets: [...new Set(markets)], ...(indices ? { indices } : {}), ...(opts.optional ? { optional: true } : {}) });
      // on a socket whose subscriptions are being made (or live): now; otherwise the next open does
      if (this.ws && this.subscribing === this.ws) await this.subscribe([this.wanted.get(channel)!]);
      return;
    }
    const add = markets.filter((m) => !cur.markets.includes(m));
    if (add.length === 0 || cur.markets.length === 0) return;
    cur.markets.push(...add);
    // a sid is only known for the current socket (cleared on open): with one, the server is told
    // now; without, the subscribe in flight or the next open's catches up (see catchUp)
    const sid = this.sids.get(channel);
    if (sid !== undefined) {
      await this.command({ cmd: 'update_subscription', params: { sid, market_tickers: add, action: 'add_markets' } });
    }
  }

  /** Stop wanting markets of a channel (all of it when markets is omitted). */
  async unwant(channel: string, markets?: string[]): Promise<void> {
    const cur = this.wanted.get(channel);
    if (!cur) return;
    const sid = this.sids.get(channel);
    // the channel goes when none of its markets is left (not when as many names were given)
    if (!markets || cur.markets.every((m) => markets.includes(m))) {
      this.wanted.delete(channel);
      this.sids.delete(channel);
      if (sid !== undefined) await this.command({ cmd: 'unsubscribe', params: { sids: [sid] } });
      return;
    }
    cur.markets = cur.markets.filter((m) => !markets.includes(m));
    if (sid !== undefined) {
      await this.command({ cmd: 'update_subscription', params: { sid, market_tickers: markets, action: 'delete_markets' } });
    }
  }

  wantedSubscriptions(): Subscription[] {
    return [...this.wanted.values()].map((s) => ({ ...s, markets: [...s.markets] }));
  }

  /** Ask for fresh snapshots (after a seq hole or error 25). */
  async resync(sid: number, markets: string[]): Promise<void> {
    await this.command({ cmd: 'update_subscription', params: { sid, ...(markets.length ? { market_tickers: markets } : {}), action: 'get_snapshot' } });
  }

  /** Compare what the server says we have with what we want; fix any drift. */
  async reconcile(): Promise<{ missing: string[]; extra: number[] }> {
    const [reply] = await this.command({ cmd: 'list_subscriptions' });
    const listed = Array.isArray(reply?.msg) ? (reply.msg as { channel: string; sid: number }[]) : [];
    const serverByChannel = new Map(listed.map((s) => [s.channel, s.sid]));
    const missing = [...this.wanted.keys()].filter((c) => !serverByChannel.has(c));
    const extra = listed.filter((s) => !this.wanted.has(s.channel)).map((s) => s.sid);
    for (const [channel, sid] of serverByChannel) if (this.wanted.has(channel)) this.sids.set(channel, sid);
    if (extra.length) await this.command({ cmd: 'unsubscribe', params: { sids: extra } });
    if (missing.length) await this.subscribe(missing.map((c) => this.wanted.get(c)!));
    return { missing, extra };
  }

  /** Send a command and wait for its reply (or replies: subscribe answers per channel). */
  command(body: { cmd: string; params?: Record<string, unknown> }, expect = 1): Promise<Reply[]> {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return Promise.reject(new Error(`stream not connected (${this.phase})`));
    const id = this.nextId++;
    return new Promise<Reply[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`no reply to ${body.cmd} #${id} within ${this.opts.commandTimeoutMs ?? 5000} ms`));
      }, this.opts.commandTimeoutMs ?? 5000);
      this.pending.set(id, { resolve, reject, timer, expect, got: [] });
      ws.send(JSON.stringify({ id, ...body }));
    });
  }

  // ------------------------------------------------------------------ internals

  /**
   * Every channel's subscribe goes out at once and each is answered on its own (one round trip
   * for all of them: one after another, a start waited for a dozen in a row, about 0.8 s on a busy
   * machine before the first book). The first refusal of a channel that is not optional fails it.
   */
  private async subscribe(subs: Subscription[]): Promise<void> {
    await Promise.all(subs.map((s) => this.subscribeOne(s)));
  }

  private async subscribeOne(s: Subscription): Promise<void> {
    // dropped (or dropped and wanted anew, subscribed by that want) before this subscribe was made
    if (this.wanted.get(s.channel) !== s) return;
    const params: Record<string, unknown> = { channels: [s.channel] };
    // what this subscribe asks for: wants that change before its answer are sent after it
    const sent = [...s.markets];
    if (sent.length) params.market_tickers = sent;
    if (s.indices?.length) params[isChannel(s.channel) && CHANNELS[s.channel].scope === 'underlyings' ? 'underlying_tickers' : 'index_ids'] = s.indices;
    let replies: Reply[];
    try {
      replies = await this.command({ cmd: 'subscribe', params });
    } catch (err) {
      if (!s.optional || !(err instanceof CommandError)) throw err;
      this.opts.log?.(`stream: ${s.channel} refused (${err.code}: ${err.message}); not subscribing to it again on this connection's profile`);
      this.wanted.delete(s.channel);
      return;
    }
    for (const r of replies) {
      const info = r.msg as { channel?: string; sid?: number } | undefined;
      if (r.type === 'subscribed' && info?.channel && typeof info.sid === 'number') {
        this.sids.set(info.channel, info.sid);
        this.opts.onSubscribed?.(info.channel, info.sid);
        await this.catchUp(info.channel, info.sid, sent);
      }
    }
  }

  /**
   * `want`/`unwant` while a channel's subscribe was unanswered (no sid yet) only changed the
   * wanted list: once the sid is known, send the difference between what the subscribe asked
   * for and what is wanted now (or drop the channel if it is no longer wanted at all).
   */
  private async catchUp(channel: string, sid: number, sent: readonly string[]): Promise<void> {
    const cur = this.wanted.get(channel);
    if (!cur) {
      this.sids.delete(channel);
      await this.command({ cmd: 'unsubscribe', params: { sids: [sid] } });
      return;
    }
    // a subscription for every market (no tickers) covers whatever was added meanwhile
    if (sent.length === 0) return;
    const add = cur.markets.filter((m) => !sent.includes(m));
    const drop = sent.filter((m) => !cur.markets.includes(m));
    if (add.length) await this.command({ cmd: 'update_subscription', params: { sid, market_tickers: add, action: 'add_markets' } });
    if (drop.length) await this.command({ cmd: 'update_subscription', params: { sid, market_tickers: drop, action: 'delete_markets' } });
  }

  /**
   * The exchange answered on another path (a REST call): if the stream is waiting out its backoff,
   * it tries now. The backoff is for a service that does not answer, and this one just did: after
   * a restart or a network blip the stream would otherwise stay down for up to the backoff's cap
   * (15 s) while orders go through. Bounded (NudgeBound): 1 s since the last try, doubling with
   * each nudge taken, up to the backoff's cap, until the stream is live again.
   */
  nudge(): void {
    if (this.stopped || !this.retryTimer) return;
    if (!this.nudges.take()) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.opts.log?.('the exchange answers again: the stream reconnects now');
    this.connect();
  }

  private connect(): void {
    // the timer that called this has fired: it is no longer a wait a nudge could cut short
    this.retryTimer = null;
    if (this.stopped) return;
    this.nudges.tried();
    this.setStatus(this.everLive ? 'reconnecting' : 'connecting', `connecting to ${this.opts.url}`);
    let headers: Record<string, string> = {};
    try {
      headers = this.opts.headers?.() ?? {};
    } catch (err) {
      this.setStatus('unauthorized', `cannot sign the stream upgrade: ${(err as Error).message}`);
      return;
    }
    const ws = new WebSocket(this.opts.url, { headers, perMessageDeflate: false, handshakeTimeout: 10_000 });
    this.ws = ws;
    ws.on('unexpected-response', (_req, res) => {
      const code = res.statusCode ?? 0;
      if (code === 401 || code === 403) {
        this.stopped = true;
        this.setStatus('unauthorized', `the exchange refused the stream (HTTP ${code}); check the API key`);
        ws.terminate();
      } else {
        this.opts.log?.(`stream upgrade answered HTTP ${code}`);
        ws.terminate();
      }
    });
    ws.on('open', () => void this.onOpen(ws));
    ws.on('message', (data, isBinary) => {
      if (ws !== this.ws) return;
      this.lastTraffic = Date.now();
      this.onMessage(isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString());
    });
    ws.on('pong', () => {
      if (this.pingSentAt) this.status.latencyMs = Date.now() - this.pingSentAt;
      this.lastTraffic = Date.now();
    });
    ws.on('ping', () => {
      this.lastTraffic = Date.now();
    });
    ws.on('error', (err) => this.opts.log?.(`stream error: ${err.message}`));
    ws.on('close', () => this.onClose(ws));
  }

  private async onOpen(ws: WebSocket): Promise<void> {
    if (ws !== this.ws) return;
    this.openedAt = Date.now();
    this.lastTraffic = Date.now();
    this.sids.clear();
    this.subscribing = ws;
    const reconnect = this.everLive;
    try {
      await this.subscribe([...this.wanted.values()]);
    } catch (err) {
      this.opts.log?.(`resubscribe failed: ${(err as Error).message}`);
      ws.terminate();
      return;
    }
    this.everLive = true;
    this.nudges.up();
    this.setStatus('live', 'streaming');
    this.startTimers(ws);
    this.opts.onLive?.({ reconnect, sidsByChannel: new Map(this.sids) });
  }

  private onMessage(text: string): void {
    // Replies carry an id; data frames do not (index list replies echo an id too: they are replies).
    if (text.includes('"id"')) {
      let parsed: Reply | null = null;
      try {
        parsed = JSON.parse(text) as Reply;
      } catch {
        parsed = null;
      }
      if (parsed && typeof parsed.id === 'number' && this.pending.has(parsed.id)) {
        const p = this.pending.get(parsed.id)!;
        if (parsed.type === 'error') {
          const m = parsed.msg as { code?: number; msg?: string } | undefined;
          clearTimeout(p.timer);
          this.pending.delete(parsed.id);
          p.reject(new CommandError(m?.code ?? 0, m?.msg ?? 'stream command failed'));
          this.opts.onData?.(text);
          return;
        }
        p.got.push(parsed);
        if (p.got.length >= p.expect) {
          clearTimeout(p.timer);
          this.pending.delete(parsed.id);
          p.resolve(p.got);
        }
      }
    }
    // Replies go to the data path too: the books track sids from `subscribed` and count the
    // seq that `ok`/`unsubscribed` replies take on an orderbook sid.
    this.opts.onData?.(text);
  }

  private onClose(ws: WebSocket): void {
    if (ws !== this.ws) return;
    this.ws = null;
    // sids belong to the socket that made them: wants until the next open only change the list
    this.sids.clear();
    this.subscribing = null;
    this.clearTimers();
    this.failPending(new Error('stream connection closed'));
    if (this.stopped) return;
    if (Date.now() - this.openedAt > this.backoff.resetAfterMs) this.backoff.reset();
    const delay = this.backoff.next();
    this.status.reconnects++;
    this.setStatus('reconnecting', `connection lost; retrying in ${(delay / 1000).toFixed(1)} s`);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  private startTimers(ws: WebSocket): void {
    const pingMs = this.opts.pingMs ?? 10_000;
    this.pingTimer = setInterval(() => {
      if (ws.readyState !== WebSocket.OPEN) return;
      this.pingSentAt = Date.now();
      ws.ping();
    }, pingMs);
    const silenceMs = this.opts.silenceMs ?? 30_000;
    this.silenceTimer = setInterval(() => {
      if (this.wanted.size === 0) return;
      if (Date.now() - this.lastTraffic < silenceMs) return;
      // Silence with pings still flowing is possible: probe with a command; no answer -> reconnect.
      this.opts.log?.(`no stream traffic for ${silenceMs} ms; probing`);
      this.command({ cmd: 'list_subscriptions' }).catch(() => {
        this.opts.log?.('probe unanswered; reconnecting');
        ws.terminate();
      });
      this.lastTraffic = Date.now();
    }, Math.max(250, Math.floor(silenceMs / 4)));
  }

  private clearTimers(): void {
    for (const t of [this.retryTimer, this.pingTimer, this.silenceTimer]) if (t) clearTimeout(t);
    this.retryTimer = this.pingTimer = this.silenceTimer = null;
  }

  private failPending(err: Error): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(err);
      this.pending.delete(id);
    }
  }

  private setStatus(phase: StreamPhase, detail: string): void {
    this.status = { ...this.status, phase, detail };
    this.opts.onStatus?.({ ...this.status });
  }
}
