// The ticket's order types as plain functions: when each can be sent, where a bracket's legs
// land at the market's step, what the submit button says, and which keys the price and count
// fields take.
import { describe, expect, it, vi } from 'vitest';
import type { KeyboardEvent } from 'react';
import { Decimal } from '../../../src-shared/money';
import { rangesOf } from '../../../src-shared/price-ranges';
import { noteMarkets } from '../../lib/ticks';
import { bracketHint, DEFAULT_LOCAL_OPTS, fieldKey, intOf, submitText, ticketReady, ticksThrough, type LocalOpts } from './ticket-modes';

const ok = { ready: true, count: { ok: true } };
const badPrice = { ready: false, count: { ok: true } };
const badCount = { ready: false, count: { ok: false } };
const opts = (o: Partial<LocalOpts> = {}): LocalOpts => ({ ...DEFAULT_LOCAL_OPTS, ...o });

describe('intOf', () => {
  it('takes whole numbers of up to four digits within the bounds', () => {
    expect(intOf('0', 0, 100)).toBe(0);
    expect(intOf('100', 0, 100)).toBe(100);
    expect(intOf('5000', 1, 5000)).toBe(5000);
  });
  it('refuses anything else', () => {
    for (const t of ['', ' 5', '5 ', '-1', '1.5', '1e3', '101', '12345', 'abc']) expect(intOf(t, 0, 100), t).toBeNull();
    expect(intOf('0', 1, 5000)).toBeNull();
  });
  it('ticks through: 0 to 100', () => {
    expect(ticksThrough(opts({ through: '0' }))).toBe(0);
    expect(ticksThrough(opts({ through: '101' }))).toBeNull();
  });
});

describe('ticketReady', () => {
  it('a limit follows the ticket check alone (the local fields do not matter)', () => {
    expect(ticketReady('limit', opts({ through: 'x' }), ok)).toBe(true);
    expect(ticketReady('limit', opts(), badPrice)).toBe(false);
  });
  it('a stop and a take profit need a price, a count and ticks through', () => {
    for (const mode of ['stop', 'take_profit'] as const) {
      expect(ticketReady(mode, opts(), ok)).toBe(true);
      expect(ticketReady(mode, opts(), badPrice)).toBe(false);
      expect(ticketReady(mode, opts({ through: '' }), ok)).toBe(false);
    }
  });
  it('a trailing stop needs no price, only a count, a trail and ticks through', () => {
    expect(ticketReady('trailing_stop', opts(), badPrice)).toBe(true);
    expect(ticketReady('trailing_stop', opts(), badCount)).toBe(false);
    expect(ticketReady('trailing_stop', opts({ trail: '0' }), badPrice)).toBe(false);
    expect(ticketReady('trailing_stop', opts({ through: '200' }), badPrice)).toBe(false);
  });
  it('a bracket needs a target and a stop of 1 to 5000 ticks as well', () => {
    expect(ticketReady('bracket', opts(), ok)).toBe(true);
    expect(ticketReady('bracket', opts({ target: '' }), ok)).toBe(false);
    expect(ticketReady('bracket', opts({ stop: '5001' }), ok)).toBe(false);
    expect(ticketReady('bracket', opts(), badPrice)).toBe(false);
  });
});

describe('bracketHint', () => {
  it("puts a buy's target above and its stop below, at the market's step", () => {
    expect(bracketHint('bracket', opts({ target: '5', stop: '3' }), 'bid', 'KXB-CENT', new Decimal('0.45'), rangesOf('linear_cent'))).toEqual({ target: 'target 0.50', stop: 'stop 0.42' });
  });
  it("puts a sell's target below and its stop above", () => {
    expect(bracketHint('bracket', opts({ target: '5', stop: '3' }), 'ask', 'KXB-CENT', new Decimal('0.45'), rangesOf('linear_cent'))).toEqual({ target: 'target 0.40', stop: 'stop 0.48' });
  });
  it('steps a deci-cent market by 0.001', () => {
    noteMarkets([{ ticker: 'KXB-DECI', price_ranges: rangesOf('deci_cent') }]);
    expect(bracketHint('bracket', opts({ target: '5', stop: '2' }), 'bid', 'KXB-DECI', new Decimal('0.450'), rangesOf('deci_cent'))).toEqual({ target: 'target 0.455', stop: 'stop 0.448' });
  });
  it('has nothing to say outside bracket mode, without a price, or with a bad leg', () => {
    expect(bracketHint('stop', opts(), 'bid', 'KXB-CENT', new Decimal('0.45'), undefined)).toBeNull();
    expect(bracketHint('bracket', opts(), 'bid', 'KXB-CENT', undefined, undefined)).toBeNull();
    expect(bracketHint('bracket', opts({ stop: 'x' }), 'bid', 'KXB-CENT', new Decimal('0.45'), undefined)).toBeNull();
  });
});

describe('submitText', () => {
  const base = { busy: false, ready: true, side: 'bid' as const, count: '5', ticker: 'KXB-CENT', price: new Decimal('0.45'), source: 'last' as const };
  it('says what a press sends, in each mode', () => {
    expect(submitText({ ...base, mode: 'limit' })).toBe('Buy YES 5 @ 0.45');
    expect(submitText({ ...base, mode: 'bracket', side: 'ask' })).toBe('Sell YES 5 @ 0.45 + bracket');
    expect(submitText({ ...base, mode: 'trailing_stop' })).toBe('Set trailing stop: buy 5');
    expect(submitText({ ...base, mode: 'stop', side: 'ask', source: 'bid' })).toBe('Set stop: sell 5 at bid 0.45');
    expect(submitText({ ...base, mode: 'take_profit' })).toBe('Set take profit: buy 5 at last 0.45');
  });
  it('says Sending while busy, and only the kind of order while not ready', () => {
    expect(submitText({ ...base, mode: 'limit', busy: true })).toBe('Sending…');
    expect(submitText({ ...base, mode: 'limit', ready: false })).toBe('Buy YES');
    expect(submitText({ ...base, mode: 'stop', ready: false })).toBe('Stop (local)');
  });
});

describe('fieldKey', () => {
  const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) => {
    const preventDefault = vi.fn();
    return { e: { key: k, ctrlKey: false, metaKey: false, altKey: false, ...mods, preventDefault } as unknown as KeyboardEvent<HTMLInputElement>, preventDefault };
  };
  it('steps the price with the arrows and = + -, and keeps them out of the field', () => {
    for (const [k, want] of [['ArrowUp', 'up'], ['=', 'up'], ['+', 'up'], ['ArrowDown', 'down'], ['-', 'down']] as const) {
      const { e, preventDefault } = key(k);
      expect(fieldKey(e, true), k).toBe(want);
      expect(preventDefault).toHaveBeenCalled();
    }
  });
  it('lets digits, the point and editing keys type, and swallows other printable keys', () => {
    for (const k of ['0', '9', '.', 'Backspace', 'Tab']) {
      const { e, preventDefault } = key(k);
      expect(fieldKey(e, true)).toBeNull();
      expect(preventDefault, k).not.toHaveBeenCalled();
    }
    const { e, preventDefault } = key('b');
    expect(fieldKey(e, true)).toBeNull();
    expect(preventDefault).toHaveBeenCalled();
  });
  it('the count field does not step, and a modified key is left to the app', () => {
    const up = key('ArrowUp');
    expect(fieldKey(up.e, false)).toBeNull();
    const ctrl = key('b', { ctrlKey: true });
    expect(fieldKey(ctrl.e, true)).toBeNull();
    expect(ctrl.preventDefault).not.toHaveBeenCalled();
  });
});
