import { describe, expect, it } from 'vitest';
import { fmtCash, fmtCents, fmtCount, fmtDateTimeMs, fmtFixed, fmtPnl, fmtPrice, fmtTimeMs, toDate } from './format';

describe('display formatting', () => {
  it('formats prices with four decimals and cash with separators', () => {
    expect(fmtPrice('0.53')).toBe('0.53');
    expect(fmtPrice('0.5300')).toBe('0.53');
    expect(fmtPrice('0.5312')).toBe('0.5312');
    expect(fmtPrice('0.53', 4)).toBe('0.5300');
    expect(fmtPrice('0.5312', 2)).toBe('0.5312'); // never rounded away
    expect(fmtCash('1234567.891')).toBe('$1,234,567.89');
    expect(fmtCash('-3.1')).toBe('-$3.10');
    expect(fmtCents(-12345)).toBe('-$123.45');
  });
  it('signs P&L and never shows minus zero', () => {
    expect(fmtPnl('1.2')).toBe('+$1.20');
    expect(fmtPnl('-0.001')).toBe('$0.00');
    expect(fmtFixed('-0.0001', 2)).toBe('0.00');
  });
  it('shows whole counts without decimals', () => {
    expect(fmtCount('12.00')).toBe('12');
    expect(fmtCount('12.5')).toBe('12.50');
    expect(fmtCount('1000')).toBe('1,000');
    expect(fmtCount(undefined)).toBe('—');
  });
  it('reads seconds, milliseconds and RFC 3339', () => {
    expect(toDate(1700000000)?.toISOString()).toBe('2023-11-14T22:13:20.000Z');
    expect(toDate(1700000000000)?.toISOString()).toBe('2023-11-14T22:13:20.000Z');
    expect(toDate('2023-11-14T22:13:20Z')?.getTime()).toBe(1700000000000);
    expect(toDate('nope')).toBeNull();
  });

  it('shows the tape and journal times to the millisecond', () => {
    const t = new Date(2026, 10, 26, 23, 5, 7, 42);
    expect(fmtTimeMs(t.getTime(), t)).toMatch(/23.05.07[.,]042/);
    expect(fmtTimeMs(t.getTime() + 1, t)).not.toBe(fmtTimeMs(t.getTime(), t));
    expect(fmtDateTimeMs(t.getTime())).toMatch(/2026/);
    expect(fmtDateTimeMs(t.getTime())).toMatch(/[.,]042/);
  });
});
