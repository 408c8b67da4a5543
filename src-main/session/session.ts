// A trading session against one exchange with one key: the REST client and its limiter, the
// stream connection, the books, the private stores and the order path. It pushes coalesced
// views through `emit`: at most one book update per market per frame (compact integer arrays),
// market data and private upserts. Nothing here knows whether the exchange is local.
// The parts, each in its own module: the stream's routing (router.ts), public market data
// between pushes (market-buffer.ts), the books as views (book-views.ts), the private store kept
// in line with the exchange and an order's answer (private-sync.ts), the watched markets
// (watch.ts) and the status bar's figures (connection-figures.ts).
import { createApiClient, type ApiClient } from '../api/client';
import { RateLimiter, seedLimiter } from '../api/limiter';
import { InFlightOrders, type PlacedOrder } from '../api/orders';
import type { CallOptions } from '../api/client';
import type { Profile } from '../api/profiles';
import { BookMachine } from '../market/books';
import { FrameIngest } from '../market/frame';
import { StreamConnection } from '../stream/connection';
import { FrameCoalescer, PUSH_INTERVAL_MS } from './coalescer';
import { PrivateStore } from './private-store';
import type { BookView, ConnectionView, PendingOrderView, StreamName, StreamPayloads } from '../../src-shared/ipc/contract';
import type { NoveltyLog } from '../../src-shared/wire/novelty';
import type { Decimal } from '../../src-shared/money';
import type { BookTop } from '../risk/gate';
import { PendingAnnouncer } from './pending';
import { ResyncScheduler } from './resync';
import { BookViews } from './book-views';
import type { BookPush } from '../../src-shared/ipc/book-stream';
import { ConnectionFigures } from './connection-figures';
import { MarketBuffer } from './market-buffer';
import { observing, type Observe, type SessionObserver } from './observer';
import { PrivateSync, type AnsweredOrder } from './private-sync';
import { StreamRouter } from './router';
import { MarketWatch } from './watch';
import { DownProbe } from './down-probe';

const PRIVATE_CHANNELS = ['fill', 'user_orders', 'market_positions', 'order_group_updates', 'communications'] as const;

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

export class TradingSession {
  readonly client: ApiClient;
  readonly limiter = new RateLimiter();
  readonly books = new BookMachine();
  readonly store = new PrivateStore();
  /** orders being placed: shown in the blotter until the exchange answers or the lookup settles */
  readonly inflight = new InFlightOrders();
  readonly stream: StreamConnection;
  private readonly bookViews = new BookViews(this.books);
  private readonly market = new MarketBuffer();
  private readonly figures = new ConnectionFigures();
  private readonly coalescer: FrameCoalescer;
  private readonly sync: PrivateSync;
  private readonly router: StreamRouter;
  private readonly watch: MarketWatch;
  private readonly observe: Observe;
  /** the pending list to push with the next flush, when it changed */
  private pendingOut: PendingOrderView[] | null = null;
  private readonly pending: PendingAnnouncer;
  /** a public read every 2 s while the stream is down: its answer brings the stream back at once */
  private readonly probe = new DownProbe(
    () => this.client.getExchangeStatus(),
    (status) => {
      this.figures.setExchangeStatus(status as Row);
      this.pushConnection();
    },
  );
  userId: string | null = null;
  isFcmMember = false;
  private readonly resyncs = new ResyncScheduler((sid, list) => {
    this.stream.resync(sid, list).catch((e: unknown) => this.log(`resync failed: ${(e as Error).message}`));
  });

  /** called on each answer from the exchange's REST API (not a 5xx) */
  private readonly answerListeners = new Set<() => void>();

  /**
   * Calls `fn` on each answer from the exchange's REST API that says it is up (any status under
   * 500): connections waiting out a reconnect backoff (the FIX sessions) try again at once.
   * Returns the unsubscribe.
   */
  onExchangeAnswer(fn: () => void): () => void {
    this.answerListeners.add(fn);
    return () => this.answerListeners.delete(fn);
  }

  constructor(private readonly opts: SessionOptions) {
    const log = (m: string) => this.log(m);
    // an answer from the exchange (not a gateway's 5xx) says it is up: a stream waiting out its
    // backoff reconnects now instead of up to 15 s later (StreamConnection.nudge bounds how often),
    // and so do the FIX sessions that listen (onExchangeAnswer)
    const onAnswer = (status: number) => {
      if (status >= 500) return;
      this.stream.nudge();
      for (const fn of this.answerListeners) {
        try {
          fn();
        } catch (err) {
          this.log(`an exchange-answer listener failed: ${(err as Error).message}`);
        }
      }
    };
    this.client = createApiClient({ profile: opts.profile, credentials: opts.credentials, limiter: this.limiter, onAnswer });
    this.coalescer = new FrameCoalescer(() => this.flush(), opts.frameMs ?? PUSH_INTERVAL_MS);
    this.sync = new PrivateSync(this.client, this.store, this.coalescer, log);
    this.observe = observing(opts.observer, log);
    this.router = new StreamRouter({
      ingest: new FrameIngest(this.books),
      resyncs: this.resyncs,
      market: this.market,
      sync: this.sync,
      store: this.store,
      poke: () => this.coalescer.poke(),
      notice: (n) => opts.emit('notices', n),
      observer: opts.observer,
      noveltyLog: opts.noveltyLog,
      log,
    });
    this.stream = new StreamConnection({
      url: opts.profile.wsUrl,
      headers: () => this.client.wsHeaders(),
      ...(opts.streamOptions ?? {}),
      onData: (text) => this.router.frame(text),
      onStatus: (s) => {
        this.figures.onStatus(s);
        this.probe.phase(s.phase);
        this.pushConnection();
      },
      onLive: ({ reconnect }) => void this.sync.onLive(reconnect),
      log,
    });
    this.watch = new MarketWatch(this.stream);
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
    if (status.status === 'fulfilled') this.figures.setExchangeStatus(status.value as Row);
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
    this.probe.stop();
    this.sync.stop();
    this.coalescer.stop();
    this.pending.stop();
    this.resyncs.stop();
    // the books this session showed are no one's from here (the next session has none until its
    // stream sends them): the page stops showing them as live, as the risk gate already refuses them
    const gone = this.bookViews.gone();
    if (gone.length) this.opts.emit('books', gone);
    await this.stream.stop();
  }

  /** The markets the renderer wants live (the ladder, watchlist and chart ask for these); main's pins are kept. */
  async watchMarkets(tickers: string[]): Promise<void> {
    await this.watch.watchMarkets(tickers);
    // a page that subscribes gets the full view of every listed book main already shows (a quiet
    // book would never send it a delta to notice it lacks one)
    const full = this.bookViews.snapshots(tickers, true);
    if (full.length) this.opts.emit('books', full);
  }

  /** Full views of these books as last pushed, each under its seq: for a page that saw a gap. */
  bookSnapshots(tickers: readonly string[]): BookPush[] {
    return this.bookViews.snapshots(tickers);
  }

  /** Markets main's own tools need streamed whatever the renderer shows (by owner; an empty list unpins). */
  pin(owner: string, tickers: string[]): Promise<void> {
    return this.watch.pin(owner, tickers);
  }

  get isLive(): boolean {
    return this.figures.status.phase === 'live';
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
    this.figures.noteAck(ms);
    this.pushConnection();
  }

  /** An order the exchange answered (placed t0): the ack, with the order in the store before it returns. */
  async answered(placed: PlacedOrder, t0: number): Promise<AnsweredOrder> {
    this.figures.noteAck(performance.now() - t0);
    const a = await this.sync.answered(placed);
    // the status bar's ack latency after the order itself (the page renders them in that order)
    this.pushConnection();
    return a;
  }

  /** Orders, positions, fills, order groups and balance read again over REST (the stream's meanwhile replayed on top). */
  reconcile(): Promise<void> {
    return this.sync.reconcile();
  }

  /** Today's P&L from today's fills, marked on the books main holds. */
  dailyPnl(): Decimal {
    return this.sync.dailyPnl((t) => this.bookTop(t));
  }

  /** The inside market of a book main holds, for the risk gate; undefined when none is held. */
  bookTop(ticker: string): BookTop | undefined {
    return this.bookViews.top(ticker);
  }

  /** Book view of one market (compact, best first). */
  bookView(ticker: string): BookView | undefined {
    return this.bookViews.view(ticker);
  }

  connectionView(): ConnectionView {
    return this.figures.view({ limits: this.limiter.snapshot(), clock: this.client.clock.snapshot(), userId: this.userId, isFcmMember: this.isFcmMember });
  }

  private pushConnection(): void {
    this.opts.emit('connection', this.connectionView());
  }

  private flush(): void {
    const dirty = this.books.takeDirty();
    if (dirty.length) this.observe((o) => o.books?.(dirty));
    if (dirty.length) {
      const pushes = this.bookViews.pushes(dirty);
      if (pushes.length) this.opts.emit('books', pushes);
    }
    const market = this.market.take();
    if (market) this.opts.emit('market', market);
    let priv = this.store.take();
    if (this.pendingOut) {
      priv = { ...priv, pending: this.pendingOut };
      this.pendingOut = null;
    }
    if (priv) this.opts.emit('private', priv);
  }
}
