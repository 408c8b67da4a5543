import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RiskStore } from '../risk/store';
import type { AnsweredOrder } from '../session/private-sync';
import { TradingAudit } from './trading-audit';
import { draftIntent, RiskGate } from './trading-gate';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function gate(): RiskGate {
  const dir = mkdtempSync(path.join(tmpdir(), 'trading-gate-'));
  dirs.push(dir);
  return new RiskGate(new RiskStore(path.join(dir, 'risk')), new TradingAudit(path.join(dir, 'audit'), (e) => ({ code: 'x', message: String(e) }) as never));
}

const answer = (order: Record<string, unknown> | null, fill = '0', remaining = '0'): AnsweredOrder => ({
  ack: { client_order_id: 'c1', order_id: 'o1', fill_count: fill, remaining_count: remaining },
  order,
  resets: 4,
});

describe("an order's reservation as its answer comes", () => {
  it('keeps only the filled part, waiting for the position, and says the order rests', () => {
    const g = gate();
    const i = draftIntent({ ticker: 'KX', side: 'bid', price: '0.50', count: '5' });
    const r = g.reservations.reserve('p', i, i.count);
    expect(g.answered(r, answer({ status: 'resting', fill_count_fp: '2.00' }))).toBe(true);
    expect(r.fill).toEqual({ orderId: 'o1', centi: 200, resets: 4 });
    expect(r.count.toString()).toBe('2');
    expect(g.reservations.of('p', () => false)).toEqual([r]);
  });

  it('releases it when nothing filled, and reads the ack when the answer had no row', () => {
    const g = gate();
    const i = draftIntent({ ticker: 'KX', side: 'ask', price: '0.50', count: '3' });
    const r = g.reservations.reserve('p', i, i.count);
    expect(g.answered(r, answer(null, '0', '3'))).toBe(true);
    expect(g.reservations.size).toBe(0);
    const r2 = g.reservations.reserve('p', i, i.count);
    expect(g.answered(r2, answer(null, '3', '0'))).toBe(false);
    expect(r2.fill?.centi).toBe(300);
  });

  it('holds the whole order until a reconcile when the filled count cannot be read', () => {
    const g = gate();
    const i = draftIntent({ ticker: 'KX', side: 'bid', price: '0.50', count: '7' });
    const r = g.reservations.reserve('p', i, i.count);
    expect(g.answered(r, answer({ status: 'executed', fill_count_fp: 'lots' }))).toBe(false);
    expect(r.fill?.centi).toBe(Number.POSITIVE_INFINITY);
    expect(r.count.toString()).toBe('7');
  });
});
