// The backtest report a professional reads: round trips with their P&L, fees and slippage against
// the mid (checked by hand on made-up fills), Sharpe and Sortino per bucket as the header of
// report.ts states them, drawdown and its duration, exposure; over a seeded synthetic recording
// the trades add up to the P&L, a sweep covers the strategy's declared grid and picks the best,
// and walk-forward tests each fitted choice on the span that follows.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import Decimal from 'decimal.js';
import { decodeTape } from '../../src-exchange/replay/tape';
import { syntheticRows } from '../../src-exchange/replay/synthetic';
import { runBacktest } from './backtest';
import { combinations, declaredGrid, runSweep, windowsOf } from './backtest-sweep';
import { bucketEquity, drawdown, reportCsv, riskRatios, tradeList } from './report';
import type { StrategyFill } from './runner';

const mm = readFileSync(path.join(__dirname, 'examples', 'market-maker.js'), 'utf8');
const tape = decodeTape(syntheticRows({ markets: 3, rows: 20_000, seed: 11, rowsPerSecond: 500 }));
// the six-way sweep reads a shorter recording: its six backtests still end with P&Ls that differ
// (0.12-0.23), and the full one cost 5 s of CPU here (42 s beside the stress run's busy loops)
const short = decodeTape(syntheticRows({ markets: 3, rows: 6_000, seed: 11, rowsPerSecond: 500 }));
/**
 * The sweeps run a fixed number of backtests (a count of QuickJS events, not a clock), all CPU: a
 * slower or busier machine only takes longer, so their tests' time limit is a hang guard.
 */
const HANG_GUARD_MS = 180_000;
const fill = (x: Partial<StrategyFill> & Pick<StrategyFill, 'side' | 'price' | 'count' | 'ts'>): StrategyFill => ({ orderId: 's1', ticker: 'A', maker: false, fee: 0, mid: null, ...x });

describe('the trade list', () => {
  it('pairs fills into round trips, flat to flat, with P&L, fees and slippage against the mid', () => {
    const trades = tradeList(
      [
        // long 3 at 0.40 (mid 0.395: paid half a cent over it), then sell 1 at 0.45, then 2 at 0.50
        fill({ side: 'bid', price: 4000, count: 300, ts: 1000, fee: 21_000, mid: 3950 }),
        fill({ side: 'ask', price: 4500, count: 100, ts: 2000, maker: true, mid: 4500 }),
        // sells 4: closes the 2 left and turns short 2 (the fee and slippage split by count)
        fill({ side: 'ask', price: 5000, count: 400, ts: 3000, fee: 40_000, mid: 5050 }),
        // short 2 from 0.50 still open at the end, marked at 0.52
      ],
      new Map([['A', 5200]]),
    );
    expect(trades).toHaveLength(2);
    const [a, b] = trades;
    // 1 x 0.05 + 2 x 0.10 = 0.25 gross; fees 0.021 + half of 0.04; slippage 3 x 0.005 + 0 + 2 x 0.005
    expect(a).toMatchObject({ ticker: 'A', direction: 'long', entryT: 1000, exitT: 3000, entryPrice: '0.4000', exitPrice: '0.4833', contracts: '3.00', fills: 3, gross: '0.25', fees: '0.04', slippage: '0.03', net: '0.21', open: false });
    expect(b).toMatchObject({ direction: 'short', entryT: 3000, exitT: null, entryPrice: '0.5000', contracts: '2.00', gross: '-0.04', fees: '0.02', slippage: '0.01', open: true });
  });
});

describe('the risk figures', () => {
  it('Sharpe and Sortino are the mean per-bucket change over its sd and downside deviation, not annualised', () => {
    // changes of +1, -1, +2, +2 dollars: mean 1, sample sd sqrt(2), downside sqrt(1/4)
    const r = riskRatios([0, 1e6, 0, 2e6, 4e6]);
    expect(r.sharpe).toBeCloseTo(1 / Math.sqrt(2), 4);
    expect(r.sortino).toBeCloseTo(2, 4);
    expect(riskRatios([0, 1e6, 2e6]).sortino).toBeNull(); // no losing bucket
    expect(riskRatios([5]).sharpe).toBeNull();
  });

  it('the drawdown is the largest fall from a peak, its duration the longest time under one', () => {
    const pts = [0, 5, 3, 6, 1, 2, 7, 6].map((e, i) => ({ t: i * 1000, equityMicro: e * 1e6 }));
    expect(drawdown(pts)).toEqual({ maxMicro: 5e6, longestMs: 3000 });
    // buckets read the last point at or before each edge
    const b = bucketEquity([{ t: 0, equityMicro: 1, exposureMicro: 0 }, { t: 1500, equityMicro: 2, exposureMicro: 0 }, { t: 4200, equityMicro: 3, exposureMicro: 0 }], 0, 4200, 1000);
    expect(b.map((x) => [x.t, x.equityMicro])).toEqual([[0, 1], [1000, 1], [2000, 2], [3000, 2], [4000, 2], [4200, 3]]);
  });

  it('over a recording: the trades add up to the P&L, and every figure is there', async () => {
    const r = await runBacktest({ tape, code: mm, params: { ticker: 'SYN-1', size: '2', maxPosition: 6 } });
    expect(r.fault).toBeNull();
    expect(r.tradeList.length).toBeGreaterThan(2);
    expect(r.trades).toBe(r.tradeList.length);
    const net = r.tradeList.reduce((a, t) => a.plus(t.net), new Decimal(0));
    // each trade is rounded to the cent
    expect(net.minus(r.pnl).abs().lte(new Decimal('0.01').mul(r.trades + 1))).toBe(true);
    expect(r.fills.every((f) => typeof f.mid === 'number')).toBe(true);
    expect(r.tradeList.reduce((a, t) => a.plus(t.slippage), new Decimal(0)).minus(r.slippage).abs().lte(new Decimal('0.01').mul(r.trades + 1))).toBe(true);
    expect(r.sharpe).not.toBeNull();
    expect(r.buckets).toBeGreaterThan(10);
    expect(r.maxDrawdownMs).toBeGreaterThanOrEqual(0);
    expect(new Decimal(r.maxExposure).gte(r.avgExposure)).toBe(true);
    expect(new Decimal(r.maxContracts).lte(6)).toBe(true);
    const csv = reportCsv(r);
    expect(csv).toContain(`summary,sharpe,${r.sharpe}`);
    expect(csv.split('\n').filter((l) => l.startsWith('trade,') && !l.startsWith('trade,entry_time')).length).toBe(r.tradeList.length);
  });
});

describe('sweeps and walk-forward', () => {
  it('reads the grid the strategy declares and sweeps every combination, the best by the chosen figure', async () => {
    const grid = await declaredGrid(mm, {});
    expect(grid).toEqual({ size: ['1', '2'], maxPosition: [3, 5, 8] });
    expect(combinations(grid, { ticker: 'SYN-0' })).toHaveLength(6);
    const seen: number[] = [];
    const v = await runSweep({ tape: short, code: mm, params: { ticker: 'SYN-0' }, limits: {}, by: 'pnl', onProgress: (d) => seen.push(d) });
    expect(v.rows.map((r) => [r.params.maxPosition, r.params.size])).toEqual([[3, '1'], [3, '2'], [5, '1'], [5, '2'], [8, '1'], [8, '2']]);
    // the combinations differ, or "the best" would say nothing
    expect(new Set(v.rows.map((r) => r.pnl)).size).toBeGreaterThan(1);
    const best = v.rows.reduce((b, r, i) => (new Decimal(r.pnl).gt(v.rows[b]!.pnl) ? i : b), 0);
    expect(v.best).toBe(best);
    expect(Math.max(...seen)).toBe(6);
    // the trader's grid replaces the declared one; the smallest drawdown ranks first
    const dd = await runSweep({ tape, code: mm, params: { ticker: 'SYN-0', size: '1' }, grid: { maxPosition: [2, 9] }, limits: {}, by: 'maxDrawdown' });
    expect(dd.rows).toHaveLength(2);
    expect(new Decimal(dd.rows[dd.best!]!.maxDrawdown).lte(dd.rows[1 - dd.best!]!.maxDrawdown)).toBe(true);
  }, HANG_GUARD_MS);

  it('walk-forward fits on each span and tests the choice, unchanged, on the next', async () => {
    const edges = windowsOf(tape, 3);
    expect(edges[0]).toBe(0);
    expect(edges[3]).toBe(tape.length);
    const v = await runSweep({ tape, code: mm, params: { ticker: 'SYN-2', size: '1' }, grid: { maxPosition: [2, 6] }, limits: {}, by: 'pnl', windows: 3 });
    const wf = v.walkForward!;
    expect(wf.folds).toHaveLength(2);
    for (const f of wf.folds) {
      expect(f.fitTo).toBeLessThan(f.testFrom);
      expect(f.test!.params).toEqual(f.params);
      // the fit span's best is what was tested
      expect(f.fit!.params).toEqual(f.params);
    }
    expect(wf.folds[0]!.testFrom).toBe(wf.folds[1]!.fitFrom);
    expect(wf.testPnl).toBe(wf.folds.reduce((a, f) => a.plus(f.test!.pnl), new Decimal(0)).toFixed(2));
    // a windowed backtest is the same as a standalone one over those rows
    const alone = await runBacktest({ tape, code: mm, params: wf.folds[1]!.params!, from: edges[2]!, to: edges[3]! });
    expect(wf.folds[1]!.test!.pnl).toBe(alone.pnl);
  }, HANG_GUARD_MS);
});
