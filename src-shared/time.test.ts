import { describe, expect, it } from 'vitest';
import { msUntilUtcMidnight, waitToAvoidUtcMidnight } from './time';

describe('UTC day boundaries', () => {
  it('measures to the next midnight', () => {
    expect(msUntilUtcMidnight(Date.UTC(2026, 10, 21, 23, 59, 0))).toBe(60_000);
    expect(msUntilUtcMidnight(Date.UTC(2026, 10, 22, 0, 0, 0))).toBe(86_400_000);
  });
  it('waits only when midnight is within the margin', () => {
    expect(waitToAvoidUtcMidnight(Date.UTC(2026, 10, 21, 23, 59, 0))).toBe(61_000);
    expect(waitToAvoidUtcMidnight(Date.UTC(2026, 10, 21, 23, 50, 0))).toBe(0);
  });
});
