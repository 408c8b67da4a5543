// What passed the risk gate and is not yet accounted for in what main knows of the account.
// A send that has passed the gate but not been answered still counts (80 concurrent orders
// must not all pass a limit of 50): each intent is reserved in the same synchronous step as
// its check, and stays reserved until the answer is in the private store. The filled part of an
// answered order stays reserved until the position shows it (a fill, then a position update
// after it, for that order), so an immediate fill never slips between the answer and the
// stream. A refusal, an error or an order that never came to be releases it.
import type { Decimal } from '../../src-shared/money';
import type { OrderIntent, ReservedExposure } from './gate';

export interface Reservation extends ReservedExposure {
  readonly profileId: string;
  /** after the answer: only the filled part, waiting for the position to show it */
  fill?: { orderId: string; centi: number; resets: number };
}

export class Reservations {
  private readonly byProfile = new Map<string, Set<Reservation>>();

  /** Reserves one intent (new orders count as open orders; amends and off-book trades do not). */
  reserve(profileId: string, i: OrderIntent, added: Decimal): Reservation {
    const r: Reservation = { profileId, ticker: i.ticker, side: i.side, count: added, opensOrder: !i.offBook && !i.previous };
    let set = this.byProfile.get(profileId);
    if (!set) this.byProfile.set(profileId, (set = new Set()));
    set.add(r);
    return r;
  }

  release(r: Reservation): void {
    this.byProfile.get(r.profileId)?.delete(r);
  }

  /** The answer came: what rests is in the store now; only the filled part stays, until posted. */
  answered(r: Reservation, fill: { orderId: string; centi: number; count: Decimal; resets: number } | null): void {
    if (!fill || fill.centi <= 0) return this.release(r);
    r.fill = { orderId: fill.orderId, centi: fill.centi, resets: fill.resets };
    r.count = fill.count;
    r.opensOrder = false;
  }

  /** The reservations of a profile, after dropping the fills the position now shows. */
  of(profileId: string, posted: (fill: NonNullable<Reservation['fill']>, ticker: string) => boolean): Reservation[] {
    const set = this.byProfile.get(profileId);
    if (!set) return [];
    for (const r of set) if (r.fill && posted(r.fill, r.ticker)) set.delete(r);
    return [...set];
  }

  /** Sends not yet answered, for every profile (the kill switch waits on none of them; tests look). */
  get size(): number {
    let n = 0;
    for (const s of this.byProfile.values()) n += s.size;
    return n;
  }

  clear(profileId: string): void {
    this.byProfile.delete(profileId);
  }
}
