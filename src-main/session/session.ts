// A trading session against one exchange with one key: the REST client and its limiter, the
// stream connection, the books, the private stores and the order path. It pushes coalesced
// views through `emit`: at most one book update per market per frame (compact integer arrays),
// market data and private upserts. Nothing here knows whether the exchange is local.
import { createApiClient, type ApiClient } from '../api/client';
import { RateLimiter, seedLimiter } from '../api/limiter';
import { collectAll } from '../api/paginate';
import { InFlightOrders, type PlacedOrder } from '../api/orders';
import type { CallOptions } from '../api/client';
import type { Profile } from '../api/profiles';
import { BookMachine } from '../market/books';
import { FrameIngest, type FrameResult } from '../market/frame';
import { StreamConnection, type StreamStatus } from '../stream/connection';
import { FrameCoalescer, PUSH_INTERVAL_MS } from './coalescer';
import { ackTrace } from './ack-trace';
import { PrivateStore, type StreamNote } from './private-store';
import type { BookView, ConnectionView, MarketUpdate, OrderAck, PendingOrderView, StreamName, StreamPayloads, TickerView, TradeView } from '../../src-shared/ipc/contract';
import type { StreamRead } from '../../src-shared/wire/stream';
import { processNoveltyLog, type NoveltyLog } from '../../src-shared/wire/novelty';
import { Decimal, ticksToDollars } from '../../src-shared/money';
import { DailyPnl } from '../risk/pnl';
import { fillNotice, median, orderOfAnswer, pushBounded } from './views';
import { PendingAnnouncer } from './pending';
import { ResyncScheduler } from './resync';
import { fillLegOf } from '../risk/rows';
import type { BookTop } from '../risk/gate';

export const BOOK_DEPTH = 25;

/** Channels subscribed per watched market; `ticker` is subscribed for all markets at start. */
const WATCHED_CHANNELS = ['orderbook_delta', 'trade'] as const;
const PRIVATE_CHANNELS = ['fill', 'user_orders', 'market_positions', 'order_group_updates', 'communications'] as const;

/** Main's own consumers of the stream (alerts, local orders): called as messages arrive, books once per frame. */
export interface SessionObserver {
  trade?(t: TradeView): void;
  ticker?(t: TickerView): void;
  lifecycle?(ticker: string, eventType: string): void;
  fill?(f: Record<string, unknown>): void;
  order?(o: Record<string, unknown>): void;
  /** markets whose books changed in this frame */
  books?(tickers: string[]): void;
  /** every validated stream message as it arrives, book deltas and snapshots included (the recorder) */
  message?(m: StreamRead): void;
}

export interface SessionOptions {
  profile: Profile;
  credentials: { keyId: string; privateKeyPem: string };
  emit: <S extends StreamName>(stream: S, payload: StreamPayloads[S]) => void;
  log?: (msg: string) => void;
  /**
   * Least time between two coalesced pushes (default 4 ms). Not a display frame: the renderer
   * paints in its own animation frames, so main only bounds how often it pushes (at most 250 a
   * second) and otherwise sends at once; a 16 ms hold here added about 8 ms on average to every
   * change on its way to the screen, on top of the renderer's wait for its frame.
   */
  frameMs?: number;
  /**
   * An order in flight is announced to the page (the blotter's pending list) once it has been in
   * flight this long (default PENDING_SHOW_MS of pending.ts, 100 ms); one answered sooner never is.
   */
  pendingShowMs?: number;
  streamOptions?: { silenceMs?: number; pingMs?: number; backoff?: { initialMs?: number; maxMs?: number } };
  /** Which tolerated novelties were already logged; default: once per process. */
  noveltyLog?: NoveltyLog;
  observer?: SessionObserver;
}

type Row = Record<string, unknown>;

/** The kill switch's hold on a send: checked right before it leaves; the signal drops it from the queue. */
export type SendGuard = Pick<CallOptions, 'beforeSend' | 'queueSignal'>;

/** An order as answered: the ack, the order row when known, and the store's reset count then. */
export interface AnsweredOrder {
  ack: OrderAck;
  order: Row | null;
  resets: number;
}

export class TradingSession {
  readonly client: ApiClient;
  readonly limiter = new RateLimiter();
  readonly books = new BookMachine();
  private readonly ingest = new FrameIngest(this.books);
  readonly store = new PrivateStore();
  /** orders being placed: shown in the blotter until the exchange answers or the lookup settles */
  readonly inflight = new InFlightOrders();
  /** today's fills as P&L, for the daily loss limit */
  private readonly pnl = new DailyPnl(Date.now());
  readonly stream: StreamConnection;
  private readonly coalescer: FrameCoalescer;
  private readonly watched = new Set<string>();
  /** what the renderer asked to stream, and what main's own tools pin (alerts, local orders) */
  private rendererWatch: string[] = [];
  private readonly pins = new Map<string, string[]>();
  private readonly bookVersions = new Map<string, number>();
  private market: MarketUpdate = { tickers: [], trades: [], lifecycle: [], indices: [], pyth: [] };
  private readonly pendingTickers = new Map<string, TickerView>();
  private marketDirty = false;
  /** the pending list to push with the next flush, when it changed */
  private pendingOut: PendingOrderView[] | null = null;
  private readonly pending: PendingAnnouncer;
  private balanceRead: Promise<void> | null = null;
  private balanceAgain = false;
  private streamStatus: StreamStatus = { phase: 'idle', detail: 'not started', reconnects: 0, latencyMs: null };
  /** the last ping round trips and order ack round trips, for the status bar */
  private readonly latencyHistory: number[] = [];
  private readonly ackMs: number[] = [];
  private exchangeInfo: ConnectionView['exchange'] = null;
  userId: string | null = null;
  isFcmMember = false;
  private closed = false;
  /** bumped on every (re)connect: a reconcile retry loop of an older connection stops */
  private liveGeneration = 0;
  private readonly reconcileBuffers = new Set<StreamNote[]>();
  private readonly resyncs = new ResyncScheduler((sid, list) => {
    this.stream.resync(sid, list).catch((e: unknown) => this.log(`resync failed: ${(e as Error).message}`));
  });

  constructor(private readonly opts: SessionOptions) {
    this.client = createApiClient({ profile: opts.profile, credentials: opts.credentials, limiter: this.limiter });
    this.coalescer = new FrameCoalescer(() => this.flush(), opts.frameMs ?? PUSH_INTERVAL_MS);
    this.stream = new StreamConnection({
      url: opts.profile.wsUrl,
      headers: () => this.client.wsHeaders(),
      ...(opts.streamOptions ?? {}),
      onData: (text) => this.onFrame(text),
      onStatus: (s) => {
        if (s.latencyMs !== null && s.latencyMs !== this.streamStatus.latencyMs) pushBounded(this.latencyHistory, s.latencyMs, 40);
        this.streamStatus = s;
        this.pushConnection();
      },
      onLive: ({ reconnect }) => void this.onLive(reconnect),
      log: (m) => this.log(m),
    });
    // the pending list goes out with the coalesced private push: an order's answer carries its
    // leaving the list and its row in one frame (one render in the page, not two)
    this.pending = new PendingAnnouncer(this.inflight, (views) => {
      this.pendingOut = views;
      this.coalescer.poke();
    }, opts.pendingShowMs);
  }

  private log(m: string): void {
    this.opts.log?.(`[session] ${m}`);
  }

  async start(): Promise<void> {
    await seedLimiter(this.client, this.limiter).catch((e: unknown) => this.log(`limits not seeded: ${(e as Error).message}`));
    const [id, status] = await Promise.allSettled([this.client.getCommunicationsId(), this.client.getExchangeStatus()]);
    if (id.status === 'fulfilled') this.userId = (id.value as { user_id?: string }).user_id ?? null;
    if (status.status === 'fulfilled') this.setExchangeStatus(status.value as Row);
    this.isFcmMember = await this.client
      .getSubtraders()
      .then(() => true)
      .catch(() => false);
    for (const ch of PRIVATE_CHANNELS) void this.stream.want(ch);
    void this.stream.want('market_lifecycle_v2');
    // Every market's inside quote, so lists of markets nobody watches still follow the exchange.
    void this.stream.want('ticker');
    void this.stream.want('cfbenchmarks_value', [], ['all']);
    // Pyth prices are a paid feed on the service: an account without it is refused, and that is fine.
    void this.stream.want('pyth_value', [], ['all'], { optional: true });
    this.stream.start();
    this.pushConnection();
  }

  async stop(): Promise<void> {
    this.closed = true;
    this.coalescer.stop();
    this.pending.stop();
    this.resyncs.stop();
    await this.stream.stop();
  }

  /** The markets the renderer wants live (the ladder, watchlist and chart ask for these); main's pins are kept. */
  async watchMarkets(tickers: string[]): Promise<void> {
    this.rendererWatch = tickers;
    await this.applyWatch();
  }

  /** Markets main's own tools need streamed whatever the renderer shows (by owner; an empty list unpins). */
  async pin(owner: string, tickers: string[]): Promise<void> {
    if (tickers.length) this.pins.set(owner, tickers);
    else this.pins.delete(owner);
    await this.applyWatch();
  }

  private async applyWatch(): Promise<void> {
    const next = new Set(this.rendererWatch);
    for (const list of this.pins.values()) for (const t of list) next.add(t);
    const add = [...next].filter((t) => !this.watched.has(t));
    const remove = [...this.watched].filter((t) => !next.has(t));
    for (const t of add) this.watched.add(t);
    for (const t of remove) this.watched.delete(t);
    if (add.length) {
      try {
        await Promise.all(WATCHED_CHANNELS.map((ch) => this.stream.want(ch, add)));
      } catch (err) {
        // not streamed: the next watch asks again instead of believing it is
        for (const t of add) this.watched.delete(t);
        throw err;
      }
    }
    if (remove.length) {
      await Promise.all(WATCHED_CHANNELS.map((ch) => this.stream.unwant(ch, remove).catch(() => undefined)));
    }
  }

  get isLive(): boolean {
    return this.streamStatus.phase === 'live';
  }

  // ------------------------------------------------------------------ orders

  // Creating goes through session/orders.ts with amend and cancel; the session keeps the ack:
  // its time, the connection view, and the answered order into the store.

  /** The store changed outside the stream (a FIX execution report): push it to the page. */
  storeChanged(): void {
    this.coalescer.poke();
  }

  /** An order answered by another route (FIX): its round trip counts in the ack figures. */
  noteAck(ms: number): void {
    pushBounded(this.ackMs, Math.round(ms), 50);
    this.pushConnection();
  }

  /** An order the exchange answered (placed t0): the ack, with the order in the store before it returns. */
  async answered(placed: PlacedOrder, t0: number): Promise<AnsweredOrder> {
    pushBounded(this.ackMs, Math.round(performance.now() - t0), 50);
    // the create answer (its schema normalised the counts), or the order as listed after a lost answer
    const counts = placed.created
      ? { fill_count: placed.created.fill_count, remaining_count: placed.created.remaining_count }
      : { fill_count: placed.listed?.fill_count_fp ?? '0', remaining_count: placed.listed?.remaining_count_fp ?? '0' };
    const ack: OrderAck = { client_order_id: placed.clientOrderId, order_id: placed.orderId, ...counts };
    // The answer holds the order (the create's `order`, or the listed row): into the store at once,
    // so the blotter shows it in the next push. Only an answer without it costs a read.
    let order = orderOfAnswer(placed);
    if (!order) {
      order = await this.client
        .getOrder({ params: { order_id: placed.orderId } })
        .then((r) => r.order as Row)
        .catch(() => null);
    }
    // pushed before the answer goes back: the page paints the order, then reads the ack (and its toast).
    // Also when the stream told of it first: its push may be waiting for the coalescer's interval.
    if (order) {
      this.store.putAnsweredOrder({ ...order, ticker: order.ticker ?? order.market_ticker });
      ackTrace.mark('stored');
      this.coalescer.flushNow();
      ackTrace.mark('pushed');
    }
    // the status bar's ack latency after the order itself (the page renders them in that order)
    this.pushConnection();
    return { ack, order, resets: this.store.resets };
  }

  // ------------------------------------------------------------------ stream

  private onFrame(text: string): void {
    const r = this.ingest.ingest(text);
    if (r.novelties.length) this.logNovelties(r.novelties);
    for (const a of r.actions) {
      if (a.kind === 'resync') {
        this.log(`resync sid ${a.sid} ${a.marketTickers.join(',') || '(all)'}: ${a.reason}`);
        this.resyncs.request(a.sid, a.marketTickers);
      } else {
        this.log(`malformed frame: ${a.reason}`);
      }
    }
    if (r.touched) this.coalescer.poke();
    if (r.message && this.opts.observer?.message) {
      const m = r.message;
      this.observe((o) => o.message?.(m));
    }
    if (r.message) this.route(r.message);
    else if (r.actions.length) this.coalescer.poke();
  }

  /** Each new kind of tolerated novelty once (a field the service always leaves out must not log per frame). */
  private logNovelties(novelties: FrameResult['novelties']): void {
    for (const n of (this.opts.noveltyLog ?? processNoveltyLog).fresh(novelties)) {
      this.log(n.kind === 'type' ? `passing on a message of unknown type ${n.key}` : `read with tolerance (${n.kind}): ${n.key}`);
    }
  }

  private route(m: StreamRead): void {
    switch (m.type) {
      case 'unknown':
        // Nothing in the terminal consumes it yet; it was logged once with the novelties.
        return;
      case 'ticker': {
        const t = m.msg;
        const view: TickerView = {
          ticker: t.market_ticker,
          yes_bid_dollars: t.yes_bid_dollars,
          yes_ask_dollars: t.yes_ask_dollars,
          price_dollars: t.price_dollars,
          volume_fp: t.volume_fp,
          open_interest_fp: t.open_interest_fp,
          ts: t.ts,
        };
        // the latest per market within a frame (every market streams its ticker)
        this.pendingTickers.set(view.ticker, view);
        this.marketDirty = true;
        this.observe((o) => o.ticker?.(view));
        break;
      }
      case 'trade': {
        const t = m.msg;
        const view: TradeView = {
          trade_id: t.trade_id,
          ticker: t.market_ticker,
          yes_price_dollars: t.yes_price_dollars,
          no_price_dollars: t.no_price_dollars,
          count_fp: t.count_fp,
          taker_side: t.taker_side,
          ts: t.ts,
          ...(t.is_block_trade ? { is_block_trade: true } : {}),
        };
        this.market.trades.push(view);
        this.marketDirty = true;
        this.observe((o) => o.trade?.(view));
        break;
      }
      case 'market_lifecycle_v2': {
        const msg = m.msg as Row;
        const l = { ticker: String(msg.market_ticker ?? ''), event_type: String(msg.event_type ?? ''), ts: Date.now() };
        this.market.lifecycle.push(l);
        this.marketDirty = true;
        this.observe((o) => o.lifecycle?.(l.ticker, l.event_type));
        break;
      }
      case 'cfbenchmarks_value': {
        const v = m.msg;
        this.market.indices = this.market.indices.filter((x) => x.index_id !== v.index_id);
        this.market.indices.push(v);
        this.marketDirty = true;
        break;
      }
      case 'pyth_value': {
        const v = m.msg;
        const view = { underlying_ticker: v.underlying_ticker, value_usd: v.value_usd, source_ts_ms: v.source_ts_ms, received_at: v.received_at };
        this.market.pyth = [...(this.market.pyth ?? []).filter((x) => x.underlying_ticker !== v.underlying_ticker), view];
        this.marketDirty = true;
        break;
      }
      case 'fill': {
        const f = m.msg as Row;
        this.putPrivate('fill', { ...f, ticker: f.market_ticker });
        this.notePnl(f);
        this.opts.emit('notices', fillNotice(f, typeof f.order_id === 'string' ? this.store.orders.get(f.order_id)?.side : undefined));
        this.refreshBalanceSoon();
        this.observe((o) => o.fill?.(f));
        break;
      }
      case 'user_order': {
        const o = m.msg as Row;
        this.putPrivate('order', { ...o, ticker: o.ticker ?? o.market_ticker });
        // the cash available moves with what resting orders hold, not only with fills
        this.refreshBalanceSoon();
        this.observe((x) => x.order?.(o));
        break;
      }
      case 'market_position': {
        const p = m.msg as Row;
        this.putPrivate('position', { ...p, ticker: p.market_ticker, position_fp: p.position_fp });
        break;
      }
      case 'order_group_updates':
        this.store.putOrderGroup(m.msg as Row);
        break;
      case 'rfq_created':
      case 'rfq_deleted':
        this.store.putRfq({ ...(m.msg as Row), event: m.type });
        break;
      case 'quote_created':
      case 'quote_accepted':
      case 'quote_executed':
        this.store.putQuote({ ...(m.msg as Row), event: m.type });
        break;
      default:
        return;
    }
    this.coalescer.poke();
  }

  /** After every (re)connect: books resync by themselves (snapshots on subscribe); reconcile the rest over REST. */
  private async onLive(reconnect: boolean): Promise<void> {
    // Until a reconcile succeeds the screen may hold what the stream missed while it was down:
    // retried with backoff for as long as this connection lasts (a newer one starts its own).
    const generation = ++this.liveGeneration;
    for (let attempt = 1; !this.closed && generation === this.liveGeneration; attempt++) {
      try {
        await this.reconcile();
        if (reconnect || attempt > 1) this.log(`reconnected: orders, positions and balance reconciled over REST${attempt > 1 ? ` (attempt ${attempt})` : ''}`);
        return;
      } catch (e) {
        this.log(`reconcile failed (attempt ${attempt}), retrying: ${(e as Error).message}`);
        await new Promise((r) => setTimeout(r, Math.min(5_000, 250 * 2 ** (attempt - 1))));
      }
    }
  }

  /**
   * A private stream message into the store, and noted for every reconcile reading REST meanwhile
   * (replayed on top of its snapshot).
   */
  private putPrivate(kind: StreamNote['kind'], row: Row): void {
    if (kind === 'fill') this.store.addFill(row);
    else if (kind === 'order') this.store.putOrder(row);
    else this.store.putPosition(row);
    for (const b of this.reconcileBuffers) b.push({ kind, row });
  }

  async reconcile(): Promise<void> {
    // A reconcile whose connection has since been replaced must not write: a newer one has read
    // newer data, and what this one missed on the dropped connection is in no buffer.
    const generation = this.liveGeneration;
    const seen: StreamNote[] = [];
    this.reconcileBuffers.add(seen);
    let reads;
    try {
      reads = await Promise.all([
        collectAll(this.client, 'getOrders', { query: { status: 'resting' } }, { maxPages: 50 }),
        this.client.getPositions({ query: { count_filter: 'position', limit: 1000 } }),
        this.client.getBalance(),
        this.client.getOrderGroups().catch(() => ({ order_groups: [] })),
        this.client.getFills({ query: { limit: 200 } }).catch(() => ({ fills: [] })),
        // every fill since midnight UTC, for today's P&L (the daily loss limit)
        collectAll(this.client, 'getFills', { query: { min_ts: Math.floor(Date.now() / 86_400_000) * 86_400, limit: 1000 } }, { maxPages: 20 }).catch(() => []),
      ]);
    } finally {
      this.reconcileBuffers.delete(seen);
    }
    if (generation !== this.liveGeneration || this.closed) return;
    const [orders, positions, balance, groups, fills, today] = reads;
    const b = balance as Row;
    for (const f of today as Row[]) this.notePnl(f);
    const restingIds = new Set((orders as Row[]).map((o) => String(o.order_id)));
    this.store.reset({
      orders: orders as Row[],
      positions: ((positions as { market_positions?: Row[] }).market_positions ?? []) as Row[],
      fills: ((fills as { fills?: Row[] }).fills ?? []) as Row[],
      orderGroups: ((groups as { order_groups?: Row[] }).order_groups ?? []) as Row[],
      balance: { balance_dollars: String(b.balance_dollars), updated_ts: Number(b.updated_ts ?? 0) },
    });
    const unsure = this.store.replay(seen, restingIds);
    for (const id of unsure) {
      const o = ((await this.client.getOrder({ params: { order_id: id } })) as { order: Row }).order;
      if (generation !== this.liveGeneration) return;
      this.store.putOrder({ ...o, ticker: o.ticker ?? o.market_ticker });
    }
    this.coalescer.poke();
  }

  /** One balance read at a time; changes during it ask for one more read after it (a burst of orders costs two reads). */
  private refreshBalanceSoon(): void {
    if (this.balanceRead) {
      this.balanceAgain = true;
      return;
    }
    this.balanceRead = this.refreshBalance().finally(() => {
      this.balanceRead = null;
      if (this.balanceAgain && !this.closed) {
        this.balanceAgain = false;
        this.refreshBalanceSoon();
      }
    });
  }

  private async refreshBalance(): Promise<void> {
    try {
      const b = (await this.client.getBalance()) as Row;
      this.store.setBalance({ balance_dollars: String(b.balance_dollars), updated_ts: Number(b.updated_ts ?? 0) });
      this.coalescer.poke();
    } catch {
      /* the next reconcile catches up */
    }
  }

  private notePnl(f: Row): void {
    const leg = fillLegOf(f);
    if (leg) this.pnl.add(leg, Date.now());
  }

  /** Today's P&L from today's fills, marked on the books main holds. */
  dailyPnl(): Decimal {
    return this.pnl.value(Date.now(), (t) => this.bookTop(t));
  }

  /** The inside market of a book main holds, for the risk gate; undefined when none is held. */
  bookTop(ticker: string): BookTop | undefined {
    const b = this.books.book(ticker);
    if (!b) return undefined;
    const bid = b.bestYesBid;
    const ask = b.bestYesAsk;
    return { stale: b.stale, yesBid: bid < 0 ? null : new Decimal(ticksToDollars(bid)), yesAsk: ask < 0 ? null : new Decimal(ticksToDollars(ask)) };
  }

  private setExchangeStatus(s: Row): void {
    const shards = (s.exchange_index_statuses as Row[] | undefined) ?? [];
    this.exchangeInfo = {
      exchangeActive: s.exchange_active === true,
      tradingActive: s.trading_active === true,
      shards: shards.map((x) => ({ index: Number(x.exchange_index), label: String(x.description), tradingActive: x.trading_active === true })),
    };
  }

  connectionView(): ConnectionView {
    const lim = this.limiter.snapshot();
    const clock = this.client.clock.snapshot();
    return {
      phase: this.streamStatus.phase === 'closed' ? 'offline' : this.streamStatus.phase,
      detail: this.streamStatus.detail,
      latencyMs: this.streamStatus.latencyMs,
      latencyHistory: [...this.latencyHistory],
      orderAck: this.ackMs.length ? { lastMs: this.ackMs[this.ackMs.length - 1]!, p50Ms: median(this.ackMs), count: this.ackMs.length } : null,
      reconnects: this.streamStatus.reconnects,
      limits: {
        read: { available: Math.floor(lim.read.available), capacity: lim.read.capacity },
        write: { available: Math.floor(lim.write.available), capacity: lim.write.capacity },
      },
      exchange: this.exchangeInfo,
      userId: this.userId,
      isFcmMember: this.isFcmMember,
      clockOffsetMs: clock.measuredMs === undefined ? null : Math.round(clock.measuredMs),
      ...(clock.refusal ? { clockProblem: clock.refusal } : {}),
    };
  }

  private pushConnection(): void {
    this.opts.emit('connection', this.connectionView());
  }

  /** Book view of one market (compact, best first). */
  bookView(ticker: string): BookView | undefined {
    const b = this.books.book(ticker);
    if (!b) return undefined;
    const top = b.top(BOOK_DEPTH);
    const version = (this.bookVersions.get(ticker) ?? 0) + 1;
    this.bookVersions.set(ticker, version);
    return { ticker, stale: b.stale, yesBids: Array.from(top.yesBids), yesAsks: Array.from(top.yesAsks), version };
  }

  /** Calls main's observer; a tool that throws is logged and never breaks the stream. */
  private observe(call: (o: SessionObserver) => void): void {
    const o = this.opts.observer;
    if (!o) return;
    try {
      call(o);
    } catch (e) {
      this.log(`observer failed: ${(e as Error).stack ?? String(e)}`);
    }
  }

  private flush(): void {
    const dirty = this.books.takeDirty();
    if (dirty.length) this.observe((o) => o.books?.(dirty));
    if (dirty.length) {
      const views: BookView[] = [];
      for (const t of dirty) {
        const v = this.bookView(t);
        if (v) views.push(v);
      }
      if (views.length) this.opts.emit('books', views);
    }
    if (this.marketDirty) {
      this.market.tickers = [...this.pendingTickers.values()];
      this.pendingTickers.clear();
      this.opts.emit('market', this.market);
      this.market = { tickers: [], trades: [], lifecycle: [], indices: [], pyth: [] };
      this.marketDirty = false;
    }
    let priv = this.store.take();
    if (this.pendingOut) {
      priv = { ...priv, pending: this.pendingOut };
      this.pendingOut = null;
    }
    if (priv) this.opts.emit('private', priv);
  }
}
