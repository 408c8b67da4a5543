import { describe, expect, it } from 'vitest';
import { checkTypedSize } from './useTypedSize';

describe('checkTypedSize: what digits typed on the ladder may set', () => {
  it('a whole count from 1 up to the limit is a size', () => {
    expect(checkTypedSize('1', '1000')).toEqual({ ok: true, count: '1' });
    expect(checkTypedSize('007', '1000')).toEqual({ ok: true, count: '7' });
    expect(checkTypedSize('1000', '1000')).toEqual({ ok: true, count: '1000' });
  });
  it('0 is refused with the reason', () => {
    const c = checkTypedSize('000', '1000');
    expect(c.ok).toBe(false);
    expect(c.message).toMatch(/Size 0 is not a size/);
  });
  it('over the risk limit is refused, naming the limit', () => {
    const c = checkTypedSize('1001', '1000');
    expect(c.ok).toBe(false);
    expect(c.message).toMatch(/over the largest order the risk limits allow \(1,000 contracts\)/);
  });
  it('nothing typed is not a size', () => {
    expect(checkTypedSize('', '1000').ok).toBe(false);
  });
});
