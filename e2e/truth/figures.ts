// What the judge works with: the panels, a shown value and how to find its truth, and the
// comparisons (numbers as decimals, cash at the cents the panel shows, marks as the panels take them).
import { Decimal } from '../../src-shared/money';
import type { ExchangeSnapshot } from './exchange';

export const TWO_FRAMES_MS = 2 * (1000 / 60);
export type Panel = 'ladder' | 'heatmap' | 'markets' | 'tape' | 'blotter' | 'positions' | 'pnl' | 'risk' | 'balance' | 'status';
export const PANELS: Panel[] = ['ladder', 'heatmap', 'markets', 'tape', 'blotter', 'positions', 'pnl', 'risk', 'balance', 'status'];

/** A shown value and how to find its truth in a snapshot (undefined: the snapshot cannot say). */
export interface Shown {
  key: string;
  panel: Panel;
  shown: string;
  truth: (ex: ExchangeSnapshot) => string | undefined;
  /** compared as text (composite values), else as numbers */
  exact?: boolean;
  /** whether the exchange's value moved (and perhaps came back) between two moments, when known */
  movedBetween?: (from: number, to: number) => boolean;
  /** cash shown in cents: the exchange's finer value is compared rounded as the panel rounds it (half to even) */
  cash?: boolean;
  /**
   * Whether the exchange has published this value on its stream: it applies a command (and its
   * REST shows it) before the journal makes it durable, and streams it only then; a value not yet
   * streamed is one no client could show, so it is not judged until it is.
   */
  published?: (truth: string) => boolean;
  /** more to say in the report when it is wrong */
  note?: () => string;
  /** a comparison of its own */
  matches?: (shown: string, truth: string) => boolean;
}

/** "1,234.50" / "$12.00" / "-$0.40" / "+$1.20" / "" -> a canonical decimal string ('' stays ''). */
export function num(text: string): string {
  const t = text.replace(/[,$+\s]/g, '').replace(/^—$/, '');
  if (t === '') return '';
  try {
    return new Decimal(t).toString();
  } catch {
    return `?${text}`;
  }
}
export const same = (a: string, b: string) => num(a) === num(b);
/** Cash as shown: "$1.00" for the exchange's 0.995 (cents, half to even, as fmtCash does). */
export function sameCash(shown: string, truth: string): boolean {
  const s = num(shown);
  const t = num(truth);
  if (s === '' || t === '' || s.startsWith('?') || t.startsWith('?')) return s === t;
  return new Decimal(s).eq(new Decimal(t).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN));
}
export const dollarsToTicks = (d: string) => new Decimal(d).mul(10_000).toNumber();

/** The mark a panel names: 'mid' is the book's (floored to the tick), 'last' the last trade; "price source". */
export function markTruth(ex: ExchangeSnapshot, ticker: string, source: string): string | undefined {
  if (source === 'last') {
    const last = ex.markets.get(ticker)?.last;
    return last === undefined ? undefined : `${num(last)} last`;
  }
  const b = ex.books.get(ticker);
  if (!b) return undefined;
  const bid = b.yes.reduce<number | null>((m, [p]) => Math.max(m ?? 0, dollarsToTicks(p)), null);
  const noBid = b.no.reduce<number | null>((m, [p]) => Math.max(m ?? 0, dollarsToTicks(p)), null);
  if (bid === null || noBid === null) return 'no mark';
  return `${num(new Decimal(Math.floor((bid + 10_000 - noBid) / 2)).div(10_000).toString())} mid`;
}

