// The native confirmation shows the exact change its answer allows, and its safe button is the
// default (Enter or Escape on a fresh dialog never allows).
import { describe, expect, it } from 'vitest';
import { ALLOW_RESPONSE, confirmDialog } from './confirm-dialog';

describe('confirmDialog', () => {
  it('shows the exact change, defaults to Cancel, and allows only on the second button', () => {
    const change = 'risk limits of profile p: maxOpenOrdersPerMarket 50 -> 51; the new limits {...}';
    const o = confirmDialog({ title: 'Loosen the risk limits?', message: 'Loosen maxOpenOrdersPerMarket 50 -> 51?', allow: 'Loosen', change });
    expect(o.detail).toContain(change);
    expect(o.buttons).toEqual(['Cancel', 'Loosen']);
    expect(o.defaultId).toBe(0);
    expect(o.cancelId).toBe(0);
    expect(ALLOW_RESPONSE).toBe(1);
  });
});
