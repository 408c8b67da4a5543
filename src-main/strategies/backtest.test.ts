// Backtests over a seeded synthetic recording: the example market maker decides exactly the same
// orders on two runs of the same recording, fills through the queue model, keeps its inventory
// limit, and its report adds up; a faulting strategy stops with its orders canceled.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeTape } from '../../src-exchange/replay/tape';
import { syntheticRows } from '../../src-exchange/replay/synthetic';
import { runBacktest } from './backtest';
import { reportCsv } from './report';

const example = (name: string) => readFileSync(path.join(__dirname, 'examples', name), 'utf8');
const tape = decodeTape(syntheticRows({ markets: 3, rows: 30_000, seed: 11, rowsPerSecond: 500 }));

describe('backtest', () => {
  it('the market maker decides the same orders on the same recording, every time', async () => {
    const params = { ticker: 'SYN-1', size: '2', maxPosition: 6 };
    const a = await runBacktest({ tape, code: example('market-maker.js'), params });
    const b = await runBacktest({ tape, code: example('market-maker.js'), params });
    expect(a.fault).toBeNull();
    expect(a.orders.length).toBeGreaterThan(20);
    expect(a.fills.length).toBeGreaterThan(5);
    const decisions = (r: typeof a) => r.orders.map((o) => [o.id, o.ticker, o.side, o.price, o.count, o.decidedAt, o.status, o.filled]);
    expect(decisions(b)).toEqual(decisions(a));
    expect(b.fills).toEqual(a.fills);
    expect(b.pnl).toBe(a.pnl);
    // the inventory limit: never more than 6 contracts either way
    let pos = 0;
    for (const f of a.fills) {
      pos += f.side === 'bid' ? f.count : -f.count;
      expect(Math.abs(pos)).toBeLessThanOrEqual(600);
    }
    expect(a.orders.every((o) => o.ticker === 'SYN-1')).toBe(true);
  });

  it('the report adds up and exports as CSV', async () => {
    const r = await runBacktest({ tape, code: example('market-maker.js'), params: { ticker: 'SYN-0', size: '1', maxPosition: 3 } });
    expect(r.curve.length).toBeGreaterThan(10);
    expect(r.curve[0]!.pnl).toBe('0.00');
    expect(r.curve[r.curve.length - 1]!.pnl).toBe(r.pnl);
    expect(Number(r.maxDrawdown)).toBeGreaterThanOrEqual(0);
    expect(r.timeInMarketPct).toBeGreaterThanOrEqual(0);
    expect(r.timeInMarketPct).toBeLessThanOrEqual(100);
    expect(Number(r.fees)).toBeGreaterThanOrEqual(0);
    if (r.winRate !== null) expect(r.winRate).toBe(r.wins / (r.wins + r.losses));
    const csv = reportCsv(r);
    expect(csv).toContain(`summary,pnl,${r.pnl}`);
    expect(csv.split('\n').filter((l) => l.startsWith('fill,') && !l.startsWith('fill,time')).length).toBe(r.fills.length);
  });

  it('the take-profit follower takes and exits', async () => {
    const r = await runBacktest({ tape, code: example('take-profit-follower.js'), params: { minSize: '2', size: '1', takeTicks: 100, stopTicks: 200 } });
    expect(r.fault).toBeNull();
    expect(r.fills.some((f) => f.side === 'bid' && !f.maker)).toBe(true);
    expect(Number(r.fees)).toBeGreaterThan(0); // takers pay
  });

  it('a strategy that faults stops, says why, and leaves nothing resting', async () => {
    const code = 'var n = 0; module.exports = { onBook: function (b) { if (b.bid) api.place({ ticker: b.ticker, side: "bid", price: "0.0100", count: "1" }); if (++n > 30) { for (;;) {} } } };';
    const r = await runBacktest({ tape, code, limits: { cpuMs: 30 } });
    expect(r.fault).toMatch(/CPU budget of 30 ms in onBook/);
    expect(r.orders.length).toBeGreaterThan(0);
    expect(r.orders.every((o) => o.status !== 'resting' && o.status !== 'pending')).toBe(true);
  });
});
