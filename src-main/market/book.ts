// One market's L2 book on integer ticks (0.0001 $, 0..10000) and centi-contracts (0.01).
// A binary market has one book: YES bids and NO bids. A NO bid at p is a YES ask at 10000 - p,
// so YES asks are derived, never stored. Levels live in a typed array indexed by tick, with a
// bitmap of non-empty levels so the best price is found again without walking 10,001 slots.
import { MAX_PRICE_TICKS, countToCenti, dollarsToTicks } from '../../src-shared/money';

export type BookSide = 0 | 1;
export const YES: BookSide = 0;
export const NO: BookSide = 1;

const SLOTS = MAX_PRICE_TICKS + 1;
const WORDS = (SLOTS + 31) >>> 5;

/** Outcome of `applyDelta`. */
export const DELTA_APPLIED = 0;
/** The level would go below zero: the book no longer matches the exchange and is now stale. */
export const DELTA_CORRUPT = 1;
/** Price outside 0..10000 or a non-integer tick/count: nothing applied. */
export const DELTA_INVALID = 2;
export type DeltaOutcome = typeof DELTA_APPLIED | typeof DELTA_CORRUPT | typeof DELTA_INVALID;

export type SnapshotOutcome = { ok: true } | { ok: false; reason: string };

/** Levels as flat pairs `[tick, centi, tick, centi, ...]` or as `[tick, centi]` tuples, in any order. */
export type LevelInput = ArrayLike<number> | readonly (readonly [number, number])[];

export interface TopOfBook {
  /** Flat `[tick, centi, ...]`, best (highest) first. */
  yesBids: Float64Array;
  /** Flat `[tick, centi, ...]`, best (lowest) first; derived from NO bids. */
  yesAsks: Float64Array;
}

function isLevelTick(p: number): boolean {
  return Number.isInteger(p) && p >= 0 && p <= MAX_PRICE_TICKS;
}

export class OrderBook {
  /** Size per tick, YES bids in [0, SLOTS), NO bids in [SLOTS, 2*SLOTS). Integers only. */
  private readonly levels = new Float64Array(2 * SLOTS);
  /** Bit per tick set when that level is non-empty, YES words then NO words. */
  private readonly bits = new Int32Array(2 * WORDS);
  /** Best bid tick per side, -1 when the side is empty. */
  private readonly best = new Int32Array([-1, -1]);
  /** Non-empty levels per side. */
  private readonly counts = new Int32Array(2);
  private staleWhy: string | undefined = 'no snapshot yet';

  constructor(readonly marketTicker: string) {}

  // --- state --------------------------------------------------------------------------------

  /** True until a snapshot arrives, and again after a gap, a corrupt delta or a disconnect. */
  get stale(): boolean {
    return this.staleWhy !== undefined;
  }
  get staleReason(): string | undefined {
    return this.staleWhy;
  }
  /** Mark the book untrustworthy until the next snapshot. Returns whether it was fresh before. */
  markStale(reason: string): boolean {
    const wasFresh = this.staleWhy === undefined;
    this.staleWhy = reason;
    return wasFresh;
  }

  // --- writes -------------------------------------------------------------------------------

  /**
   * Replace both sides. Levels may come in any order; a price listed twice is summed. A bad
   * level (tick off 0..10000, negative or fractional count) rejects the snapshot and leaves the
   * book empty and stale.
   */
  applySnapshot(yesLevels: LevelInput, noLevels: LevelInput): SnapshotOutcome {
    this.clear();
    const bad = this.load(YES, yesLevels) ?? this.load(NO, noLevels);
    if (bad !== undefined) {
      this.clear();
      this.staleWhy = `bad snapshot: ${bad}`;
      return { ok: false, reason: bad };
    }
    this.best[YES] = this.scanBelow(YES, SLOTS);
    this.best[NO] = this.scanBelow(NO, SLOTS);
    this.staleWhy = undefined;
    return { ok: true };
  }

  /** Add `deltaCenti` (signed) to the bid level at `priceTicks` on `side`. */
  applyDelta(side: BookSide, priceTicks: number, deltaCenti: number): DeltaOutcome {
    if (!(priceTicks >= 0 && priceTicks <= MAX_PRICE_TICKS) || (priceTicks | 0) !== priceTicks || !Number.isSafeInteger(deltaCenti)) {
      return DELTA_INVALID;
    }
    const i = side * SLOTS + priceTicks;
    const before = this.levels[i]!;
    const after = before + deltaCenti;
    if (after < 0) {
      this.staleWhy = `level ${priceTicks} on ${side === YES ? 'yes' : 'no'} went negative (${before} ${deltaCenti >= 0 ? '+' : ''}${deltaCenti})`;
      return DELTA_CORRUPT;
    }
    this.levels[i] = after;
    if (before === 0) {
      if (after !== 0) {
        this.bits[side * WORDS + (priceTicks >>> 5)]! |= 1 << (priceTicks & 31);
        this.counts[side]!++;
        if (priceTicks > this.best[side]!) this.best[side] = priceTicks;
      }
    } else if (after === 0) {
      this.bits[side * WORDS + (priceTicks >>> 5)]! &= ~(1 << (priceTicks & 31));
      if (--this.counts[side]! === 0) this.best[side] = -1;
      else if (priceTicks === this.best[side]) this.best[side] = this.scanBelow(side, priceTicks);
    }
    return DELTA_APPLIED;
  }

  /** Empty both sides (the stale flag is left as it is). */
  clear(): void {
    if (this.counts[YES] !== 0 || this.counts[NO] !== 0) {
      this.levels.fill(0);
      this.bits.fill(0);
    }
    this.counts.fill(0);
    this.best.fill(-1);
  }

  // --- reads --------------------------------------------------------------------------------

  get bestYesBid(): number {
    return this.best[YES]!;
  }
  get bestNoBid(): number {
    return this.best[NO]!;
  }
  /** Lowest YES ask = 10000 - best NO bid; -1 when there is none. */
  get bestYesAsk(): number {
    const b = this.best[NO]!;
    return b < 0 ? -1 : MAX_PRICE_TICKS - b;
  }
  /** Lowest NO ask = 10000 - best YES bid; -1 when there is none. */
  get bestNoAsk(): number {
    const b = this.best[YES]!;
    return b < 0 ? -1 : MAX_PRICE_TICKS - b;
  }
  /** Centi-contracts bid at `priceTicks` on `side` (0 when empty or out of range). */
  bidSize(side: BookSide, priceTicks: number): number {
    return isLevelTick(priceTicks) ? this.levels[side * SLOTS + priceTicks]! : 0;
  }
  /** Centi-contracts offered to sell YES at `priceTicks` (= NO bid at 10000 - p). */
  yesAskSize(priceTicks: number): number {
    return isLevelTick(priceTicks) ? this.levels[NO * SLOTS + MAX_PRICE_TICKS - priceTicks]! : 0;
  }
  levelCount(side: BookSide): number {
    return this.counts[side]!;
  }
  /** YES bid at or above the YES ask (a locked book counts too): corrupt or mid-update. */
  isCrossed(): boolean {
    const y = this.best[YES]!;
    const n = this.best[NO]!;
    return y >= 0 && n >= 0 && y + n >= MAX_PRICE_TICKS;
  }

  /** Up to `n` bid levels of `side`, best first, as flat `[tick, centi, ...]`. */
  bids(side: BookSide, n = Infinity): Float64Array {
    const k = Math.min(n, this.counts[side]!);
    const out = new Float64Array(2 * k);
    let p = this.best[side]!;
    for (let j = 0; j < k; j++) {
      out[2 * j] = p;
      out[2 * j + 1] = this.levels[side * SLOTS + p]!;
      p = this.scanBelow(side, p);
    }
    return out;
  }

  /** The ladder a view paints: `n` YES bids and `n` YES asks, best first, compact. */
  top(n: number): TopOfBook {
    const yesBids = this.bids(YES, n);
    const yesAsks = this.bids(NO, n);
    for (let j = 0; j < yesAsks.length; j += 2) yesAsks[j] = MAX_PRICE_TICKS - yesAsks[j]!;
    return { yesBids, yesAsks };
  }

  // --- internals ----------------------------------------------------------------------------

  /** Highest non-empty tick strictly below `from` on `side`, or -1. */
  private scanBelow(side: BookSide, from: number): number {
    if (from <= 0) return -1;
    const base = side * WORDS;
    let w = (from - 1) >>> 5;
    const shift = ((from - 1) & 31) + 1; // bits 0..shift-1 of word w lie below `from`
    let word = this.bits[base + w]! & (shift === 32 ? -1 : (1 << shift) - 1);
    while (word === 0) {
      if (w === 0) return -1;
      word = this.bits[base + --w]!;
    }
    return (w << 5) + 31 - Math.clz32(word);
  }

  private load(side: BookSide, input: LevelInput): string | undefined {
    const flat = input.length === 0 || typeof input[0] === 'number';
    const n = flat ? input.length >>> 1 : input.length;
    if (flat && input.length % 2 !== 0) return 'flat level list has an odd length';
    const levels = input as ArrayLike<number>;
    const tuples = input as readonly (readonly [number, number])[];
    for (let j = 0; j < n; j++) {
      const p = flat ? levels[2 * j]! : tuples[j]![0];
      const c = flat ? levels[2 * j + 1]! : tuples[j]![1];
      if (!isLevelTick(p)) return `price tick ${p} outside 0..${MAX_PRICE_TICKS}`;
      if (!Number.isSafeInteger(c) || c < 0) return `count ${c} at tick ${p} is not a non-negative integer of centi-contracts`;
      if (c === 0) continue;
      const i = side * SLOTS + p;
      if (this.levels[i] === 0) {
        this.bits[side * WORDS + (p >>> 5)]! |= 1 << (p & 31);
        this.counts[side]!++;
      }
      this.levels[i]! += c;
    }
    return undefined;
  }
}

/** The REST orderbook's two bid lists (`orderbook_fp.yes_dollars` / `no_dollars`, `[price, count]`). */
export interface RestOrderbook {
  yes_dollars?: readonly (readonly [string, string])[] | null;
  no_dollars?: readonly (readonly [string, string])[] | null;
}

/** Differences between `book` and a REST orderbook read; empty when they agree level for level. */
export function diffAgainstRest(book: OrderBook, rest: RestOrderbook): string[] {
  const diffs: string[] = [];
  const sides: [BookSide, string, readonly (readonly [string, string])[]][] = [
    [YES, 'yes', rest.yes_dollars ?? []],
    [NO, 'no', rest.no_dollars ?? []],
  ];
  for (const [side, name, rows] of sides) {
    const want = new Map<number, number>();
    for (const [price, count] of rows) {
      const t = dollarsToTicks(price);
      want.set(t, (want.get(t) ?? 0) + countToCenti(count));
    }
    for (const [t, c] of want) {
      if (c !== 0 && book.bidSize(side, t) !== c) diffs.push(`${name} ${t}: book ${book.bidSize(side, t)}, rest ${c}`);
    }
    const have = book.bids(side);
    for (let j = 0; j < have.length; j += 2) {
      if (!want.has(have[j]!)) diffs.push(`${name} ${have[j]}: book ${have[j + 1]}, rest 0`);
    }
  }
  return diffs;
}
