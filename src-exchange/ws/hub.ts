// The fan-out: published exchange events (after durability, in apply order) become stream
// messages on the subscriptions that may see them. Public market data for everyone subscribed;
// private messages only to their owner's signed connections; domain events by audience.
import type { ExchangeEvent, DomainEvent } from '../state/domain';
import type { EngineEvent, MarketEvent } from '../engine/types';
import type { Services } from '../core/services';
import { CHANNELS, isChannel, parseStreamValue, type Channel } from '../../src-shared/wire/stream';
import { CATALOG, type CatalogState } from '../state/catalog';
import { BookMirror } from './book-mirror';
import { deltaMsg, fillMsg, lifecycleMsg, orderGroupMsg, positionMsg, snapshotMsg, tickerMsg, tradeMsg, userOrderMsg } from './present';
import type { StreamConnection, StreamHost, Sub } from './connection';
import { IndexFeed } from './index-timer';
import type { StreamSettings } from './settings';

export class StreamHub implements StreamHost {
  readonly connections = new Set<StreamConnection>();
  private readonly byChannel = new Map<Channel, Set<Sub>>();
  private readonly mirror: BookMirror;
  /** markets paused as published (a later `activated` reads as un-deactivation) */
  private readonly paused = new Set<string>();
  private readonly dirtyTickers = new Set<string>();
  private tickerFlush: NodeJS.Immediate | null = null;
  private readonly lastTicker = new Map<string, string>();
  private readonly lastTradeSize = new Map<string, number>();
  private readonly indexFeed: IndexFeed;
  private readonly unlisten: () => void;

  constructor(
    private readonly svc: Services,
    readonly settings: StreamSettings,
  ) {
    const engine = svc.node.core.engine;
    // Baseline at attach time: no command sits between apply and publish now (startup is over).
    this.mirror = BookMirror.fromEngine(engine);
    for (const m of engine.listMarkets({ status: 'paused' })) this.paused.add(m.ticker);
    this.indexFeed = new IndexFeed(svc.seed, settings.indexTickMs, () => svc.node.now(), () => this.indexSubs());
    this.unlisten = svc.node.onEvents((events) => this.onEvents(events));
  }

  // ------------------------------------------------------------------ StreamHost

  marketExists(ticker: string): boolean {
    return this.svc.node.core.engine.getMarket(ticker) !== undefined;
  }

  snapshotJson(ticker: string): string {
    return JSON.stringify(snapshotMsg(ticker, this.mirror.levels(ticker, 'yes'), this.mirror.levels(ticker, 'no')));
  }

  tickerJson(ticker: string): string | null {
    const market = this.svc.node.core.engine.getMarket(ticker);
    if (!market) return null;
    return JSON.stringify(tickerMsg(market, this.mirror.top(ticker), this.lastTradeSize.get(ticker), this.svc.node.now()));
  }

  addSub(sub: Sub): void {
    let set = this.byChannel.get(sub.channel);
    if (!set) this.byChannel.set(sub.channel, (set = new Set()));
    set.add(sub);
    if (sub.indices || sub.underlyings) this.indexFeed.wake();
  }

  removeSub(sub: Sub): void {
    this.byChannel.get(sub.channel)?.delete(sub);
  }

  private subsOf(channel: Channel): ReadonlySet<Sub> {
    return this.byChannel.get(channel) ?? EMPTY;
  }

  private indexSubs(): { value: ReadonlySet<Sub>; fast: ReadonlySet<Sub>; pyth: ReadonlySet<Sub> } {
    return { value: this.subsOf('cfbenchmarks_value'), fast: this.subsOf('cfbenchmarks_value_5hz'), pyth: this.subsOf('pyth_value') };
  }

  // ------------------------------------------------------------------ events

  onEvents(events: readonly ExchangeEvent[]): void {
    for (const e of events) {
      if (e.type === 'domain') this.onDomain(e);
      else this.onEngine(e);
    }
  }

  private onEngine(e: EngineEvent): void {
    switch (e.type) {
      case 'book': {
        this.mirror.apply(e);
        this.markTicker(e.ticker);
        let plain: string | undefined;
        let owned: string | undefined;
        for (const sub of this.subsOf('orderbook_delta')) {
          if (!sub.markets?.has(e.ticker)) continue;
          const own = e.client_order_id !== '' && sub.conn.identity?.userId === e.user_id;
          const json = own ? (owned ??= JSON.stringify(deltaMsg(e, true))) : (plain ??= JSON.stringify(deltaMsg(e, false)));
          sub.conn.sendBookDelta(sub, e.ticker, json);
        }
        return;
      }
      case 'trade': {
        this.lastTradeSize.set(e.trade.ticker, e.trade.count);
        this.markTicker(e.trade.ticker);
        this.toMarket('trade', e.trade.ticker, 'trade', () => tradeMsg(e.trade));
        return;
      }
      case 'fill':
        this.toOwner('fill', e.fill.user_id, e.fill.subaccount, e.fill.ticker, 'fill', () => fillMsg(e.fill));
        return;
      case 'order':
        this.toOwner('user_orders', e.order.user_id, e.order.subaccount, e.order.ticker, 'user_order', () => userOrderMsg(e.order));
        return;
      case 'position': {
        const p = e.position;
        this.toOwner('market_positions', p.user_id, p.subaccount, p.ticker, 'market_position', () => positionMsg(p, this.volumeOf(p.user_id, p.subaccount, p.ticker)));
        return;
      }
      case 'orderGroup':
        this.toOwner('order_group_updates', e.group.user_id, e.group.subaccount, null, 'order_group_updates', () => orderGroupMsg(e));
        return;
      case 'market':
        this.onMarket(e);
        return;
      default:
        return; // balance, settlement, transfer: no stream channel carries them
    }
  }

  private onMarket(e: MarketEvent): void {
    const wasPaused = this.paused.has(e.market.ticker);
    if (e.event === 'paused') this.paused.add(e.market.ticker);
    else if (e.event !== 'fees_updated') this.paused.delete(e.market.ticker);
    const meta = this.catalogMeta(e.market.ticker);
    const msg = lifecycleMsg(e, wasPaused, meta?.subtitle);
    if (!msg) return;
    let json: string | undefined;
    for (const sub of this.subsOf('market_lifecycle_v2')) sub.conn.sendData(sub, 'market_lifecycle_v2', (json ??= JSON.stringify(msg)));
    // A market of a multivariate collection also reports on the multivariate channel.
    if (meta?.mve_collection_ticker) {
      for (const sub of this.subsOf('multivariate_market_lifecycle')) sub.conn.sendData(sub, 'multivariate_market_lifecycle', (json ??= JSON.stringify(msg)));
    }
  }

  /** The catalog's record of a market (titles, collection), when the catalog module is present. */
  private catalogMeta(ticker: string): { subtitle: string; mve_collection_ticker: string | null } | undefined {
    const catalog = this.svc.node.core.domains[CATALOG] as CatalogState | undefined;
    return catalog?.markets[ticker];
  }

  /** Contracts traded in a position: the fills' counts (the position view carries cost only). */
  private volumeOf(userId: string, subaccount: number, ticker: string): number {
    let v = 0;
    for (const f of this.svc.node.core.engine.getFills(userId, { subaccount, ticker })) v += f.count;
    return v;
  }

  private toMarket(channel: Channel, ticker: string, type: string, msg: () => object): void {
    let json: string | undefined;
    for (const sub of this.subsOf(channel)) {
      if (sub.markets && !sub.markets.has(ticker)) continue;
      sub.conn.sendData(sub, type, (json ??= JSON.stringify(msg())));
    }
  }

  private toOwner(channel: Channel, userId: string, subaccount: number, ticker: string | null, type: string, msg: () => object): void {
    let json: string | undefined;
    for (const sub of this.subsOf(channel)) {
      if (!sub.conn.owns(userId, subaccount)) continue;
      if (ticker !== null && sub.markets && !sub.markets.has(ticker)) continue;
      sub.conn.sendData(sub, type, (json ??= JSON.stringify(msg())));
    }
  }

  /**
   * A domain event: `{type: kind, sid, msg: payload}` on its channel, to its audience. An event
   * whose frame would not parse (unknown channel, a kind the channel does not carry, a payload
   * off the schema) is logged and not sent: a client must never get a malformed frame.
   */
  private onDomain(e: DomainEvent): void {
    const channel = e.channel;
    if (!isChannel(channel) || !(CHANNELS[channel].messageTypes as readonly string[]).includes(e.kind)) {
      console.error(`[exchange] domain event ${e.kind} on unknown channel ${e.channel}: not streamed`);
      return;
    }
    const subs = this.subsOf(channel);
    if (subs.size === 0) return;
    const check = parseStreamValue({ type: e.kind, sid: 1, seq: 1, msg: e.payload });
    if (!check.ok) {
      console.error(`[exchange] domain event ${e.kind} does not fit the stream schema (${check.reason}): not streamed`);
      return;
    }
    const json = JSON.stringify(e.payload);
    const ticker = typeof e.payload.market_ticker === 'string' ? e.payload.market_ticker : null;
    for (const sub of subs) {
      if (e.audience !== 'public') {
        const user = sub.conn.identity?.userId;
        if (user === undefined || !e.audience.includes(user)) continue;
      }
      if (ticker !== null && sub.markets && !sub.markets.has(ticker)) continue;
      sub.conn.sendData(sub, e.kind, json);
    }
  }

  // ------------------------------------------------------------------ ticker coalescing

  /** One ticker message per market per turn of the event loop, and only when something shown changed. */
  private markTicker(ticker: string): void {
    if (this.subsOf('ticker').size === 0) return;
    this.dirtyTickers.add(ticker);
    this.tickerFlush ??= setImmediate(() => this.flushTickers());
  }

  private flushTickers(): void {
    this.tickerFlush = null;
    const engine = this.svc.node.core.engine;
    const now = this.svc.node.now();
    for (const ticker of this.dirtyTickers) {
      const market = engine.getMarket(ticker);
      if (!market) continue;
      const msg = tickerMsg(market, this.mirror.top(ticker), this.lastTradeSize.get(ticker), now);
      const { ts: _ts, ts_ms: _tsMs, ...shown } = msg;
      const key = JSON.stringify(shown);
      if (this.lastTicker.get(ticker) === key) continue;
      this.lastTicker.set(ticker, key);
      this.toMarket('ticker', ticker, 'ticker', () => msg);
    }
    this.dirtyTickers.clear();
  }

  // ------------------------------------------------------------------ lifetime

  close(): void {
    this.unlisten();
    this.indexFeed.stop();
    if (this.tickerFlush) clearImmediate(this.tickerFlush);
    this.tickerFlush = null;
  }
}

const EMPTY: ReadonlySet<Sub> = new Set();
