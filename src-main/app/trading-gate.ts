// The one risk gate on the order path: what main knows of the profile's exposure (positions,
// resting orders, today's P&L, the books, the orders of the last minute, and what passed the gate
// but is not yet in the stores), each intent checked against the profile's limits, and what
// passed held as a reservation until the stores show it.
import { countToCenti, Decimal } from '../../src-shared/money';
import type { OrderDraft } from '../../src-shared/ipc/contract';
import { checkOrder, recentOf, RiskRefusal, type OrderIntent, type RecentOrder, type RiskState } from '../risk/gate';
import { Reservations, type Reservation } from '../risk/reservations';
import { OrderOutcomeUnknownError } from '../api/orders';
import { restingOrderOf, positionCountOf, tickerOf } from '../risk/rows';
import type { RiskStore } from '../risk/store';
import type { AnsweredOrder } from '../session/private-sync';
import type { AuditBase, TradingAudit } from './trading-audit';
import type { ActiveSession } from './profiles-service';

const D = (s: string) => new Decimal(s);
const RECENT_MS = 60_000;

/** A new order's intent, as the gate checks it. */
export function draftIntent(d: Pick<OrderDraft, 'ticker' | 'side' | 'price' | 'count'>, action = 'place'): OrderIntent {
  return { action, ticker: d.ticker, side: d.side, price: D(d.price), count: D(d.count) };
}

export class RiskGate {
  private recent: RecentOrder[] = [];
  /** what passed the gate and is not yet accounted for in the session's stores */
  readonly reservations = new Reservations();

  constructor(
    private readonly risk: RiskStore,
    private readonly audit: TradingAudit,
  ) {}

  /** A new session: the orders of the last one no longer count as recent. */
  forgetRecent(): void {
    this.recent = [];
  }

  /**
   * What the gate counts: the session's store, and where the session's key sees only part of the
   * account (a subaccount-scoped key), the rest of the account as its account view last read it
   * (risk/account-view.ts); an order the store holds counts once, as the store has it.
   */
  private state(active: ActiveSession): RiskState {
    const { session: s, profileId } = active;
    const now = Date.now();
    this.recent = this.recent.filter((r) => now - r.at <= RECENT_MS);
    const others = active.account?.others() ?? { resting: [], positions: [] };
    const positions = new Map<string, Decimal>();
    for (const p of [...s.store.positions.values(), ...others.positions]) {
      const t = tickerOf(p);
      if (t) positions.set(t, (positions.get(t) ?? D('0')).plus(positionCountOf(p)));
    }
    const resting = s.store.restingOrders().map(restingOrderOf).filter((o) => o !== null);
    const known = new Set(resting.map((o) => o.orderId));
    for (const row of others.resting) {
      const o = restingOrderOf(row);
      if (o && !known.has(o.orderId) && !s.store.orders.has(o.orderId)) resting.push(o);
    }
    return {
      accountIncomplete: active.account?.incomplete() ?? null,
      now,
      killSwitch: this.risk.killSwitch(profileId).engaged,
      book: (t) => s.bookTop(t),
      position: (t) => positions.get(t) ?? D('0'),
      resting,
      dailyPnl: s.dailyPnl(),
      recent: this.recent,
      reserved: this.reservations.of(profileId, (f, t) => s.store.fillPosted(f.orderId, t, f.centi) || s.store.resets > f.resets),
    };
  }

  /**
   * Checks every intent; the first refusal is audited and thrown, nothing is sent. Each intent
   * that passes is reserved in the same step (no await between the check and the reservation),
   * so the next check, in this call or a concurrent one, counts it.
   */
  pass(active: ActiveSession, intents: OrderIntent[], base: AuditBase, confirmed: boolean | undefined): Reservation[] {
    const limits = this.risk.limits(active.profileId);
    const st = this.state(active);
    const held: Reservation[] = [];
    for (const i of intents) {
      const v = checkOrder({ ...i, confirmed: confirmed === true }, limits, { ...st, reserved: [...(st.reserved ?? []), ...held] });
      if (!v.ok) {
        this.release(held);
        this.audit.record(active, { ...base, gate: `refused: ${v.code}` }, 'refused', v.message, null);
        throw new RiskRefusal(v.code, v.message, v.confirmable);
      }
      const added = i.previous && i.previous.side === i.side ? Decimal.max(D('0'), i.count.minus(i.previous.count)) : i.count;
      held.push(this.reservations.reserve(active.profileId, i, added));
    }
    const now = Date.now();
    for (const i of intents) this.recent.push(recentOf(i, now));
    return held;
  }

  /**
   * Would this order pass the gate now? For what main will send later by itself (a local
   * order's trigger, a bracket's target): refused at creation rather than when it fires. The
   * limits that depend on the book at the time (the collar, a stale book) are checked when it
   * fires. Nothing is recorded and nothing counts as a recent order.
   */
  precheck(active: ActiveSession, o: { ticker: string; side: 'bid' | 'ask'; price: string; count: string; confirmed: boolean }): void {
    const v = checkOrder({ ...draftIntent(o), confirmed: o.confirmed }, this.risk.limits(active.profileId), {
      ...this.state(active),
      recent: [],
      // the book it will meet is the one at the trigger: the collar and the book's state are judged then
      book: () => ({ stale: false, yesBid: null, yesAsk: null }),
    });
    if (!v.ok) throw new RiskRefusal(v.code, `${v.message} (checked when the local order was set up)`, v.confirmable);
  }

  /** Reservations whose orders are in the stores now (or never went). */
  release(held: readonly Reservation[]): void {
    for (const r of held) this.reservations.release(r);
  }

  /**
   * An order answered: what rests is in the store now, the filled part stays reserved until the
   * position shows it. Says whether the order rests.
   */
  answered(r: Reservation, a: AnsweredOrder): boolean {
    const row = a.order;
    const filled = row ? (row.fill_count_fp ?? row.fill_count) : a.ack.fill_count;
    let centi = 0;
    try {
      centi = countToCenti(String(filled ?? '0'));
    } catch {
      centi = Number.POSITIVE_INFINITY; // unreadable: held until a reconcile shows it
    }
    this.reservations.answered(r, { orderId: a.ack.order_id, centi, count: D(String(Number.isFinite(centi) ? filled : r.count)), resets: a.resets });
    return row ? row.status === 'resting' : D(a.ack.remaining_count).gt(0);
  }

  /** A send that failed: nothing rests, unless its outcome is unknown (then a reconcile settles it). */
  failed(active: ActiveSession, r: Reservation, err: unknown): void {
    if (err instanceof OrderOutcomeUnknownError) {
      this.reservations.answered(r, { orderId: err.clientOrderId, centi: Number.POSITIVE_INFINITY, count: r.count, resets: active.session.store.resets });
      void active.session.reconcile().catch(() => undefined);
    } else {
      this.reservations.release(r);
    }
  }
}
