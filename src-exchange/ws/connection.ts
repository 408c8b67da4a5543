// One client connection: its identity (null = unsigned: public channels only), its
// subscriptions (sid per channel, `seq` on the sequenced ones), the command handler with the
// protocol's error codes, a command rate limit, and the per-socket back-pressure rule.
import type WebSocket from 'ws';
import {
  CHANNELS,
  WS_ERROR,
  WS_ERROR_TEXT,
  channelSupportsAction,
  errorReply,
  parseCommand,
  type Channel,
  type ParsedCommand,
  type WsErrorCode,
} from '../../src-shared/wire/stream';
import { INDEX_IDS, PYTH_UNDERLYINGS, isIndexId, type IndexId } from './index-feed';
import type { StreamSettings } from './settings';

export interface Identity {
  userId: string;
  apiKeyId: string;
  /** a subaccount-scoped key sees only that subaccount's private messages */
  subaccount: number | null;
}

export interface Sub {
  sid: number;
  channel: Channel;
  conn: StreamConnection;
  /** null = every market (public channels subscribed without tickers) */
  markets: Set<string> | null;
  /** index channels: the index ids */
  indices: Set<IndexId> | null;
  /**
   * `pyth_value`: the Pyth symbols named (any string: one the feed does not carry never streams)
   * and all-mode (`["all"]`), kept apart as the service does: while all-mode is on, removing a
   * symbol does not exclude it; removing `all` leaves the named ones.
   */
  underlyings: { tickers: Set<string>; all: boolean } | null;
  /** orderbook and order-group subscriptions number their messages */
  sequenced: boolean;
  /** last seq sent on this sid */
  seq: number;
  /** orderbook markets whose deltas stopped after a buffer overflow (error 25), until get_snapshot */
  stale: Set<string>;
}

/** What a connection needs from the stream server. */
export interface StreamHost {
  readonly settings: StreamSettings;
  marketExists(ticker: string): boolean;
  /** the orderbook snapshot msg of one market, as JSON, from the published-events mirror */
  snapshotJson(ticker: string): string;
  /** the current ticker msg of one market as JSON (null when unknown) */
  tickerJson(ticker: string): string | null;
  addSub(sub: Sub): void;
  removeSub(sub: Sub): void;
}

const SEQUENCED: ReadonlySet<Channel> = new Set<Channel>(['orderbook_delta', 'order_group_updates', 'pyth_value']);

class CommandFailure extends Error {
  constructor(
    readonly code: WsErrorCode,
    detail?: string,
  ) {
    super(detail ? `${WS_ERROR_TEXT[code]}: ${detail}` : WS_ERROR_TEXT[code]);
  }
}

/** Token bucket on commands (error 27 when empty). */
class CommandBucket {
  private tokens: number;
  private last = performance.now();
  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
  ) {
    this.tokens = capacity;
  }
  take(): boolean {
    const now = performance.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) * this.perSecond) / 1000);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

export class StreamConnection {
  readonly subs = new Map<number, Sub>();
  private nextSid = 1;
  private readonly bucket: CommandBucket;
  /** answered the last ping */
  alive = true;

  constructor(
    readonly ws: WebSocket,
    readonly identity: Identity | null,
    private readonly host: StreamHost,
  ) {
    this.bucket = new CommandBucket(host.settings.commandBurst, host.settings.commandsPerSecond);
  }

  /** Private messages of (userId, subaccount) are this connection's to see. */
  owns(userId: string, subaccount: number): boolean {
    const id = this.identity;
    return id !== null && id.userId === userId && (id.subaccount === null || id.subaccount === subaccount);
  }

  // ------------------------------------------------------------------ sending

  private get open(): boolean {
    return this.ws.readyState === 1;
  }

  /** Sends text unless the socket is closing; a client that stopped reading altogether is cut off. */
  sendText(text: string): void {
    if (!this.open) return;
    if (this.ws.bufferedAmount > this.host.settings.hardBufferLimitBytes) {
      this.ws.terminate();
      return;
    }
    this.ws.send(text);
  }

  reply(frame: object): void {
    this.sendText(JSON.stringify(frame));
  }

  /** A data message on a sid; `msgJson` is the msg already serialised (shared across subscribers). */
  sendData(sub: Sub, type: string, msgJson: string): void {
    const seq = sub.sequenced ? `,"seq":${++sub.seq}` : '';
    this.sendText(`{"type":"${type}","sid":${sub.sid}${seq},"msg":${msgJson}}`);
  }

  /**
   * An orderbook delta, under the back-pressure rule: once the socket's queue passes the limit,
   * the subscription gets error 25 and every market of it stops getting deltas until the client
   * asks for `get_snapshot` (or subscribes again). A stale market's deltas are dropped without
   * taking a seq, so the client's seq check stays whole and the error says what was lost.
   */
  sendBookDelta(sub: Sub, ticker: string, msgJson: string): void {
    if (sub.stale.has(ticker) || !this.open) return;
    if (this.ws.bufferedAmount > this.host.settings.bufferLimitBytes) {
      for (const t of sub.markets ?? []) sub.stale.add(t);
      this.reply({ type: 'error', sid: sub.sid, msg: { code: WS_ERROR.BUFFER_OVERFLOW, msg: `${WS_ERROR_TEXT[WS_ERROR.BUFFER_OVERFLOW]}: resync with get_snapshot` } });
      return;
    }
    this.sendData(sub, 'orderbook_delta', msgJson);
  }

  private sendSnapshot(sub: Sub, ticker: string): void {
    sub.stale.delete(ticker);
    this.sendData(sub, 'orderbook_snapshot', this.host.snapshotJson(ticker));
  }

  // ------------------------------------------------------------------ commands

  /** One frame from the client. Never throws and never drops the connection: errors are replies. */
  handle(text: string): void {
    const parsed = parseCommand(text, {
      authenticated: this.identity !== null,
      maxMarkets: this.host.settings.maxMarketsPerSubscription,
    });
    const id = parsed.ok ? parsed.cmd.id : parsed.id;
    if (!this.bucket.take()) {
      this.reply(errorReply(id, WS_ERROR.TOO_MANY_REQUESTS));
      return;
    }
    if (!parsed.ok) {
      this.reply(errorReply(parsed.id, parsed.code, parsed.msg));
      return;
    }
    try {
      this.dispatch(parsed.cmd);
    } catch (err) {
      if (err instanceof CommandFailure) this.reply(errorReply(id, err.code, err.message));
      else {
        console.error('[exchange] stream command failed', err);
        this.reply(errorReply(id, WS_ERROR.UNABLE_TO_PROCESS));
      }
    }
  }

  private dispatch(cmd: ParsedCommand): void {
    switch (cmd.cmd) {
      case 'subscribe':
        return this.subscribe(cmd.id, cmd.params);
      case 'unsubscribe':
        return this.unsubscribe(cmd.id, cmd.params.sids);
      case 'list_subscriptions':
        return this.reply({ id: cmd.id, type: 'ok', msg: [...this.subs.values()].map((s) => ({ channel: s.channel, sid: s.sid })) });
      case 'update_subscription':
        return this.update(cmd.id, cmd.params);
    }
  }

  private checkMarkets(tickers: readonly string[]): void {
    const unknown = tickers.filter((t) => !this.host.marketExists(t));
    if (unknown.length) throw new CommandFailure(WS_ERROR.INVALID_PARAMETER, `unknown market ticker ${unknown.slice(0, 5).join(', ')}`);
  }

  /** `undefined` or `["all"]` = every index. */
  private readIndices(ids: readonly string[] | undefined): IndexId[] {
    if (ids === undefined || ids.includes('all')) return [...INDEX_IDS];
    const unknown = ids.filter((i) => !isIndexId(i));
    if (unknown.length) throw new CommandFailure(WS_ERROR.INVALID_PARAMETER, `unknown index id ${unknown.join(', ')}; available: ${INDEX_IDS.join(', ')}`);
    return ids as IndexId[];
  }

  /** The subscribe's `underlying_tickers`: none = an empty subscription (nothing streams until some are added). */
  private readUnderlyings(ids: readonly string[] | undefined): { tickers: Set<string>; all: boolean } {
    const named = (ids ?? []).filter((i) => i !== 'all');
    return { tickers: new Set(named), all: (ids ?? []).includes('all') };
  }

  private subscribe(id: number, p: Extract<ParsedCommand, { cmd: 'subscribe' }>['params']): void {
    const scopes = p.channels.map((c) => CHANNELS[c].scope);
    const byMarket = scopes.some((s) => s === 'markets_required' || s === 'markets_optional');
    if (byMarket && p.market_tickers) this.checkMarkets(p.market_tickers);
    const indices = scopes.includes('indices') ? this.readIndices(p.index_ids) : null;

    for (const channel of p.channels) {
      const scope = CHANNELS[channel].scope;
      const sub: Sub = {
        sid: this.nextSid++,
        channel,
        conn: this,
        markets: (scope === 'markets_required' || scope === 'markets_optional') && p.market_tickers ? new Set(p.market_tickers) : null,
        indices: scope === 'indices' ? new Set(indices) : null,
        underlyings: scope === 'underlyings' ? this.readUnderlyings(p.underlying_tickers) : null,
        sequenced: SEQUENCED.has(channel),
        seq: 0,
        stale: new Set(),
      };
      this.subs.set(sub.sid, sub);
      this.host.addSub(sub);
      this.reply({ id, type: 'subscribed', msg: { channel, sid: sub.sid } });
      if (channel === 'orderbook_delta') {
        for (const t of sub.markets ?? []) this.sendSnapshot(sub, t);
      } else if (channel === 'ticker' && p.send_initial_snapshot && sub.markets) {
        for (const t of sub.markets) {
          const json = this.host.tickerJson(t);
          if (json) this.sendData(sub, 'ticker', json);
        }
      }
    }
  }

  private unsubscribe(id: number, sids: readonly number[]): void {
    const unknown = sids.filter((s) => !this.subs.has(s));
    if (unknown.length) throw new CommandFailure(WS_ERROR.UNKNOWN_SID, unknown.join(', '));
    for (const sid of sids) {
      const sub = this.subs.get(sid)!;
      this.drop(sub);
      this.reply(sub.sequenced ? { id, sid, seq: ++sub.seq, type: 'unsubscribed' } : { id, sid, type: 'unsubscribed' });
    }
  }

  private okReply(id: number, sub: Sub): void {
    const msg = sub.indices
      ? { index_ids: [...sub.indices] }
      : sub.underlyings
        ? { underlying_tickers: [...(sub.underlyings.all ? ['all'] : []), ...sub.underlyings.tickers] }
        : { market_tickers: [...(sub.markets ?? [])] };
    this.reply(sub.sequenced ? { id, sid: sub.sid, seq: ++sub.seq, type: 'ok', msg } : { id, sid: sub.sid, type: 'ok', msg });
  }

  private update(id: number, p: Extract<ParsedCommand, { cmd: 'update_subscription' }>['params']): void {
    const sub = this.subs.get(p.sid);
    if (!sub) throw new CommandFailure(WS_ERROR.UNKNOWN_SID, String(p.sid));
    if (!channelSupportsAction(sub.channel, p.action)) throw new CommandFailure(WS_ERROR.UNSUPPORTED_ACTION, `${p.action} on ${sub.channel}`);
    const tickers = p.market_tickers ?? [];
    switch (p.action) {
      case 'add_markets': {
        const markets = this.explicitMarkets(sub);
        this.checkMarkets(tickers);
        const added = tickers.filter((t) => !markets.has(t));
        if (markets.size + added.length > this.host.settings.maxMarketsPerSubscription) {
          throw new CommandFailure(WS_ERROR.MARKET_LIMIT, `at most ${this.host.settings.maxMarketsPerSubscription} markets per subscription`);
        }
        for (const t of added) markets.add(t);
        this.okReply(id, sub);
        if (sub.channel === 'orderbook_delta') for (const t of added) this.sendSnapshot(sub, t);
        return;
      }
      case 'delete_markets': {
        const markets = this.explicitMarkets(sub);
        for (const t of tickers) {
          markets.delete(t);
          sub.stale.delete(t);
        }
        this.okReply(id, sub);
        return;
      }
      case 'get_snapshot': {
        const markets = this.explicitMarkets(sub);
        const wanted = tickers.length ? tickers : [...markets];
        const foreign = wanted.filter((t) => !markets.has(t));
        if (foreign.length) throw new CommandFailure(WS_ERROR.INVALID_PARAMETER, `not in subscription ${sub.sid}: ${foreign.slice(0, 5).join(', ')}`);
        this.okReply(id, sub);
        for (const t of wanted) this.sendSnapshot(sub, t);
        return;
      }
      case 'subscribe_indices':
        for (const i of this.readIndices(p.index_ids)) sub.indices!.add(i);
        this.okReply(id, sub);
        return;
      case 'unsubscribe_indices':
        for (const i of this.readIndices(p.index_ids)) sub.indices!.delete(i);
        this.okReply(id, sub);
        return;
      case 'indexlist':
        this.reply({ type: `${sub.channel}_indexlist`, id, sid: sub.sid, msg: { index_ids: [...INDEX_IDS] } });
        return;
      case 'subscribe_underlyings': {
        const u = sub.underlyings!;
        for (const t of p.underlying_tickers ?? []) {
          if (t === 'all') u.all = true;
          else u.tickers.add(t);
        }
        this.okReply(id, sub);
        return;
      }
      case 'unsubscribe_underlyings': {
        const u = sub.underlyings!;
        for (const t of p.underlying_tickers ?? []) {
          if (t === 'all') u.all = false;
          else u.tickers.delete(t);
        }
        this.okReply(id, sub);
        return;
      }
      case 'underlying_list':
        // Every underlying the feed streams (the embedded feed never goes quiet, so "seen in the last two hours" is all of them).
        this.reply({ type: 'pyth_value_underlying_list', id, sid: sub.sid, seq: ++sub.seq, msg: { underlying_tickers: [...PYTH_UNDERLYINGS] } });
        return;
    }
  }

  /** The market set of a subscription that names its markets (one over every market cannot add or drop). */
  private explicitMarkets(sub: Sub): Set<string> {
    if (!sub.markets) throw new CommandFailure(WS_ERROR.INVALID_PARAMETER, `subscription ${sub.sid} covers every market; subscribe with market_tickers to choose`);
    return sub.markets;
  }

  private drop(sub: Sub): void {
    this.subs.delete(sub.sid);
    this.host.removeSub(sub);
  }

  /** The socket closed: forget every subscription. */
  dispose(): void {
    for (const sub of [...this.subs.values()]) this.drop(sub);
  }
}
