// Display formatting. Money and counts stay decimal strings or decimal.js values end to end;
// nothing here turns a price or a count into a binary float.
import { Decimal, isDecimalString } from '../../src-shared/money';

function group(intPart: string): string {
  return intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function toDecimal(value: string | Decimal | null | undefined): Decimal | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') return value;
  return isDecimalString(value) ? new Decimal(value) : null;
}

/** Fixed decimals with thousands separators: "1,234.50", "-0.25". */
export function fmtFixed(value: string | Decimal | null | undefined, decimals: number, dash = '—'): string {
  const d = toDecimal(value);
  if (!d) return dash;
  const text = d.toFixed(decimals, Decimal.ROUND_HALF_EVEN);
  const neg = text.startsWith('-');
  const [int = '0', frac] = (neg ? text.slice(1) : text).split('.');
  const body = group(int) + (frac !== undefined ? `.${frac}` : '');
  return neg && !/^[0.,]+$/.test(body) ? `-${body}` : body;
}

/**
 * A contract price in dollars as traders read it: at the market's own decimals when known (2 for
 * a cent market, 3 or 4 for finer ticks: "0.53", "0.5312"), otherwise with the digits it has and
 * at least two ("0.5300" shows "0.53", "0.5312" stays). Never rounded: a price finer than the
 * decimals asked keeps its digits.
 */
export function fmtPrice(value: string | Decimal | null | undefined, decimals?: number): string {
  const d = toDecimal(value);
  if (!d) return '—';
  const own = d.decimalPlaces();
  return fmtFixed(d, Math.max(2, decimals ?? 0, decimals === undefined ? own : Math.min(own, 6)));
}

/** Cash: "$1,234.56", negative "-$3.10". */
export function fmtCash(value: string | Decimal | null | undefined, decimals = 2): string {
  const text = fmtFixed(value, decimals);
  if (text === '—') return text;
  return text.startsWith('-') ? `-$${text.slice(1)}` : `$${text}`;
}

/**
 * Cash to the cent, with more digits only when the amount has them (a fractional count at a
 * sub-cent tick): "$150.00", "$0.645". Never rounded away.
 */
export function fmtCashExact(value: string | Decimal | null | undefined): string {
  const d = toDecimal(value);
  if (!d) return '—';
  return fmtCash(d, Math.max(2, Math.min(d.decimalPlaces(), 6)));
}

/** Signed cash for P&L: "+$1.20", "-$0.40", "$0.00". */
export function fmtPnl(value: string | Decimal | null | undefined): string {
  const d = toDecimal(value);
  if (!d) return '—';
  const text = fmtCash(d);
  return d.gt(0) && text !== '$0.00' ? `+${text}` : text;
}

/** Integer cents as cash. */
export function fmtCents(cents: number | null | undefined): string {
  if (cents === null || cents === undefined || !Number.isSafeInteger(cents)) return '—';
  return fmtCash(new Decimal(cents).div(100));
}

/** Contracts: whole numbers without decimals, fractions with two: "12", "12.50". */
export function fmtCount(value: string | Decimal | null | undefined): string {
  const d = toDecimal(value);
  if (!d) return '—';
  return d.isInteger() ? fmtFixed(d, 0) : fmtFixed(d, 2);
}

/** A sign word so P&L and sides read without colour. */
export function signOf(value: string | Decimal | null | undefined): 'pos' | 'neg' | 'zero' | 'none' {
  const d = toDecimal(value);
  if (!d) return 'none';
  return d.gt(0) ? 'pos' : d.lt(0) ? 'neg' : 'zero';
}

const timeFmt = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
const dateTimeFmt = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

/** Unix seconds, milliseconds or an RFC 3339 string to a Date (null when unreadable). */
export function toDate(value: number | string | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return new Date(value < 1e12 ? value * 1000 : value);
  if (/^\d+$/.test(value)) return toDate(Number(value));
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms);
}

const otherDay = (d: Date, now: Date) => d.toDateString() !== now.toDateString();

/** Whether fmtTime and fmtTimeMs print this moment with its date (it is not of `now`'s day). */
export function printsDate(value: number | string | null | undefined, now: Date = new Date()): boolean {
  const d = toDate(value);
  return !!d && otherDay(d, now);
}

/** Today's times as HH:MM:SS, older ones with the date. */
export function fmtTime(value: number | string | null | undefined, now: Date = new Date()): string {
  const d = toDate(value);
  if (!d) return '—';
  return otherDay(d, now) ? dateTimeFmt.format(d) : timeFmt.format(d);
}

const timeMsFmt = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', fractionalSecondDigits: 3, hour12: false });
const dateTimeMsFmt = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', fractionalSecondDigits: 3, hour12: false });

/** To the millisecond (the tape, the audit journal): trades and events in the same second tell apart. Today's show the time only. */
export function fmtTimeMs(value: number | string | null | undefined, now: Date = new Date()): string {
  const d = toDate(value);
  if (!d) return '—';
  return otherDay(d, now) ? dateTimeMsFmt.format(d) : timeMsFmt.format(d);
}

/** Date and time to the millisecond. */
export function fmtDateTimeMs(value: number | string | null | undefined): string {
  const d = toDate(value);
  return d ? dateTimeMsFmt.format(d) : '—';
}

export function fmtDateTime(value: number | string | null | undefined): string {
  const d = toDate(value);
  return d ? dateTimeFmt.format(d) : '—';
}

/** ISO text for CSV (machines read it back). */
export function isoTime(value: number | string | null | undefined): string {
  const d = toDate(value);
  return d ? d.toISOString() : '';
}

/** "3m 20s", "2h 5m", "4d 1h" */
export function fmtDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${m % 60}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

export function fmtInt(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  return group(String(Math.trunc(n)));
}
