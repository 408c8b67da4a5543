// The harness's own P&L truth: fills of one instant (the fills API gives whole seconds) are taken
// in the exchange's order, not the order the API listed them (newest first).
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src-shared/money';
import { ledgerOf, type FillRec } from './ledger';

const fill = (seq: number, yesDelta: number, yesPrice: string, at = 1_000): FillRec => ({ id: `f${seq}`, ticker: 'M', yesDelta: new Decimal(yesDelta), yesPrice: new Decimal(yesPrice), fee: new Decimal(0), at, seq });

describe('ledgerOf', () => {
  it('takes fills of one second in the exchange order, whatever order they come in', () => {
    // buy 2 YES at 0.50, sell 1 at 0.60 (close half), buy 1 at 0.54: all in one second
    const inOrder = [fill(1, 2, '0.50'), fill(2, -1, '0.60'), fill(3, 1, '0.54')];
    const newestFirst = [...inOrder].reverse();
    const a = ledgerOf(inOrder, []).get('M')!;
    const b = ledgerOf(newestFirst, []).get('M')!;
    expect(a.position.toString()).toBe('2');
    expect(a.cost.toString()).toBe('1.04');
    expect(a.realized.toString()).toBe('0.1');
    expect([b.position.toString(), b.cost.toString(), b.realized.toString()]).toEqual(['2', '1.04', '0.1']);
  });

  it('orders by time before the log order', () => {
    const l = ledgerOf([fill(9, -1, '0.60', 2_000), fill(1, 1, '0.50', 1_000)], []).get('M')!;
    expect(l.position.toString()).toBe('0');
    expect(l.realized.toString()).toBe('0.1');
  });
});
