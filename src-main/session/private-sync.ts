// The private store kept in line with the exchange: rows from the stream (noted for any reconcile
// reading REST meanwhile, which replays them over its snapshot), the reconcile after every
// (re)connect (retried with backoff while that connection lasts), the balance read after what
// moves it, today's P&L from the fills, and an order's answer (its ack, and its row in the store
// before the answer returns).
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import { collectAll } from '../api/paginate';
import type { PlacedOrder } from '../api/orders';
import type { OrderAck } from '../../src-shared/ipc/contract';
import { Decimal } from '../../src-shared/money';
import { DailyPnl } from '../risk/pnl';
import { fillLegOf } from '../risk/rows';
import type { BookTop } from '../risk/gate';
import type { FrameCoalescer } from './coalescer';
import type { PrivateStore, StreamNote } from './private-store';
import { ackTrace } from './ack-trace';
import { ackOf, orderOfAnswer } from './views';

type Row = Record<string, unknown>;

/** An order as answered: the ack, the order row when known, and the store's reset count then. */
export interface AnsweredOrder {
  ack: OrderAck;
  order: Row | null;
  resets: number;
}

export class PrivateSync {
  /** today's fills as P&L, for the daily loss limit */
  private readonly pnl = new DailyPnl(Date.now());
  private readonly reconcileBuffers = new Set<StreamNote[]>();
  /** bumped on every (re)connect: a reconcile retry loop of an older connection stops */
  private liveGeneration = 0;
  private closed = false;
  private balanceRead: Promise<void> | null = null;
  private balanceAgain = false;

  constructor(
    private readonly client: ApiClient,
    private readonly store: PrivateStore,
    /** the session's pushes to the page: soon (coalesced), or now */
    private readonly push: Pick<FrameCoalescer, 'poke' | 'flushNow'>,
    private readonly log: (m: string) => void,
  ) {}

  stop(): void {
    this.closed = true;
  }

  /** After every (re)connect: books resync by themselves (snapshots on subscribe); reconcile the rest over REST. */
  async onLive(reconnect: boolean): Promise<void> {
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
  put(kind: StreamNote['kind'], row: Row): void {
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
    // what the screen shows resting now: any of these the paged read below lacks is read back
    const shownResting = this.store.restingOrders().map((o) => String(o.order_id));
    let reads;
    try {
      reads = await Promise.all([
        collectAll(this.client, 'getOrders', { query: { status: 'resting' } }, { maxPages: 50 }),
        // flat and settled positions too: their realized P&L and fees are the account's (the Positions totals)
        this.client.getPositions({ query: { count_filter: 'position,total_traded', settlement_status: 'all', limit: 1000 } }),
        this.client.getBalance(),
        this.client.getOrderGroups().catch(() => ({ order_groups: [] })),
        this.client.getFills({ query: { limit: 200 } }).catch(() => ({ fills: [] })),
        // every fill since midnight UTC, for today's P&L (the daily loss limit)
        collectAll(this.client, 'getFills', { query: { min_ts: Math.floor(Date.now() / 86_400_000) * 86_400, limit: 1000 } }, { maxPages: 20 }).catch(() => []),
        // and today's settlements: what today's contracts there ended at
        collectAll(this.client, 'getSettlements', { query: { min_ts: Math.floor(Date.now() / 86_400_000) * 86_400, limit: 200 } }, { maxPages: 20 }).catch(() => []),
      ]);
    } finally {
      this.reconcileBuffers.delete(seen);
    }
    if (generation !== this.liveGeneration || this.closed) return;
    const [orders, positions, balance, groups, fills, today, settled] = reads;
    for (const f of today as Row[]) this.notePnl(f);
    for (const st of settled as Row[]) {
      if (st.market_result === 'yes' || st.market_result === 'no') this.noteResult(String(st.ticker), st.market_result === 'yes' ? '1' : '0', Number(st.settled_at) * 1000);
    }
    const restingIds = new Set((orders as Row[]).map((o) => String(o.order_id)));
    this.store.reset({
      orders: orders as Row[],
      positions: ((positions as { market_positions?: Row[] }).market_positions ?? []) as Row[],
      fills: ((fills as { fills?: Row[] }).fills ?? []) as Row[],
      orderGroups: ((groups as { order_groups?: Row[] }).order_groups ?? []) as Row[],
      balance: balanceOf(balance as Row),
    });
    const unsure = this.store.replay(seen, restingIds);
    // An order shown resting before that the snapshot lacks, and that no stream message meanwhile
    // accounted for, is read back, not dropped: it may have filled or been canceled while the
    // stream was down, or the paged read may have skipped it (a cursor that is an offset moves
    // when orders on an earlier page leave the list between the pages: seen in the chaos run, an
    // order resting at the exchange and never shown again).
    const accounted = new Set(seen.filter((n) => n.kind === 'order').map((n) => String(n.row.order_id)));
    for (const id of shownResting) if (!restingIds.has(id) && !accounted.has(id)) unsure.add(id);
    for (const id of unsure) {
      let o: Row;
      try {
        o = ((await this.client.getOrder({ params: { order_id: id } })) as { order: Row }).order;
      } catch (e) {
        // gone from the live list (past the historical cutoff): nothing to show as resting
        if (e instanceof ApiError && e.status === 404) continue;
        throw e;
      }
      if (generation !== this.liveGeneration) return;
      this.store.putOrder(o);
    }
    this.push.poke();
  }

  /** One balance read at a time; changes during it ask for one more read after it (a burst of orders costs two reads). */
  refreshBalanceSoon(): void {
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
      this.store.setBalance(balanceOf((await this.client.getBalance()) as Row));
      this.push.poke();
    } catch {
      /* the next reconcile catches up */
    }
  }

  notePnl(f: Row): void {
    const leg = fillLegOf(f);
    if (leg) this.pnl.add(leg, Date.now());
  }

  /** A market's result (its YES value, "1" or "0"), determined or settled at `at` ms: today's contracts there are worth it. */
  noteResult(ticker: string, yesValue: string, at: number): void {
    if (!ticker || (yesValue !== '1' && yesValue !== '0')) return;
    this.pnl.settle(ticker, new Decimal(yesValue), at, Date.now());
  }

  /** Today's P&L from today's fills, marked on the books `top` gives. */
  dailyPnl(top: (ticker: string) => BookTop | undefined): Decimal {
    return this.pnl.value(Date.now(), top);
  }

  /** An order the exchange answered: the ack, with the order in the store (and pushed) before it returns. */
  async answered(placed: PlacedOrder): Promise<AnsweredOrder> {
    const ack = ackOf(placed);
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
      this.store.putAnsweredOrder(order);
      ackTrace.mark('stored');
      this.push.flushNow();
      ackTrace.mark('pushed');
    }
    return { ack, order, resets: this.store.resets };
  }
}

/** The balance as the store keeps it. */
function balanceOf(b: Row): { balance_dollars: string; updated_ts: number } {
  return { balance_dollars: String(b.balance_dollars), updated_ts: Number(b.updated_ts ?? 0) };
}
