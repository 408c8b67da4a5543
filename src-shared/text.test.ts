import { describe, expect, it } from 'vitest';
import { plural } from './text';

describe('plural', () => {
  it('says one thing and many things', () => {
    expect(plural(1, 'order')).toBe('1 order');
    expect(plural(0, 'order')).toBe('0 orders');
    expect(plural(3, 'subaccount')).toBe('3 subaccounts');
    expect(plural(2, 'entry', 'entries')).toBe('2 entries');
  });
});
