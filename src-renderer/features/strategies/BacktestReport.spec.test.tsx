// @vitest-environment jsdom
// The backtest report as the Strategies panel shows what main answered: the figures (Sharpe and
// Sortino labelled per bucket, not annualised), the trade list with each round trip's P&L, fees
// and slippage, where the report was saved and its reproduction by id; the sweep's table with the
// best row marked and the walk-forward folds; the grid box refuses what is not a grid.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../../test/fake-terminal';
import type { BacktestFigures, BacktestView, RecordingsView, StrategiesView, SweepView } from '../../../src-shared/ipc/contract';
import { StrategiesPanel, parseGrid } from './StrategiesPanel';

vi.mock('./BacktestCharts', () => ({ BacktestCharts: () => <div data-testid="charts" /> }));

let fake: FakeTerminal;
const recordings: RecordingsView = {
  settings: { retentionDays: 30 },
  recordings: [{ id: 'rec-1', name: 'morning', markets: null, startedAt: 1, stoppedAt: 2, active: false, bytes: 10, rows: 5000, deltas: 4000, trades: 50, recordedMarkets: ['KX-A'], firstMs: 1, lastMs: 2, problem: null }],
};
const idle: StrategiesView = { examples: [{ name: 'market-maker.js', code: 'module.exports = {};' }], running: [] };
const figures: BacktestFigures = { pnl: '-1.25', fees: '0.07', slippage: '0.03', maxDrawdown: '2.40', maxDrawdownMs: 90_000, sharpe: -0.1234, sortino: -0.2, bucketMs: 1000, buckets: 240, trades: 2, wins: 1, losses: 1, winRate: 0.5, timeInMarketPct: 41.5, avgExposure: '0.80', maxExposure: '2.10', maxContracts: '3.00' };
const saved = { id: 'bt-20261128t120000000z-abc123', savedAt: 1, codeHash: 'ab'.repeat(32), recordingId: 'rec-1', rows: 5000, params: { size: '1', maxPosition: 5 } };
const report: BacktestView = {
  ...figures,
  events: 5000,
  eventsPerSec: 70000,
  fault: null,
  orders: 12,
  fills: [],
  tradeList: [
    { ticker: 'KX-A', direction: 'long', entryT: 1_764_000_000_000, exitT: 1_764_000_060_000, entryPrice: '0.5000', exitPrice: '0.5200', contracts: '3.00', fills: 3, gross: '0.06', fees: '0.02', slippage: '0.01', net: '0.04', open: false },
    { ticker: 'KX-A', direction: 'short', entryT: 1_764_000_070_000, exitT: null, entryPrice: '0.5100', exitPrice: null, contracts: '1.00', fills: 1, gross: '-1.24', fees: '0.05', slippage: '0.02', net: '-1.29', open: true },
  ],
  curve: [],
  log: [],
  csv: '',
  saved,
};
const row = (maxPosition: number, pnl: string, sharpe: number) => ({ ...figures, params: { size: '1', maxPosition }, pnl, sharpe, fault: null });
const sweep: SweepView = {
  grid: { maxPosition: [3, 5] },
  by: 'sharpe',
  rows: [row(3, '0.50', 0.1), row(5, '0.40', 0.3)],
  best: 1,
  walkForward: { windows: 2, folds: [{ fitFrom: 1_764_000_000_000, fitTo: 1_764_000_100_000, testFrom: 1_764_000_100_001, testTo: 1_764_000_200_000, params: { size: '1', maxPosition: 5 }, fit: row(5, '0.20', 0.3), test: row(5, '0.15', 0.2) }], testPnl: '0.15' },
};

beforeAll(() => {
  stubLayout();
  fake = installFakeTerminal();
});
beforeEach(() => {
  for (const m of ['getStrategies', 'getRecordings', 'backtestStrategy', 'sweepStrategy', 'reproduceBacktest'] as const) fake.api[m].mockReset();
  fake.api.getStrategies.mockResolvedValue(idle);
  fake.api.getRecordings.mockResolvedValue(recordings);
});
afterEach(cleanup);

describe('the backtest report', () => {
  it('shows the figures, the trade list and where it was saved, and reproduces it by its id', async () => {
    fake.api.backtestStrategy.mockResolvedValue(report);
    fake.api.reproduceBacktest.mockResolvedValue({ saved, figures, rerun: figures, differences: [] });
    render(withQueries(<StrategiesPanel />));
    const user = userEvent.setup();
    await screen.findByRole('option', { name: /morning/ });
    await user.click(screen.getByRole('button', { name: 'Backtest' }));
    const r = await screen.findByTestId('backtest-report');
    expect(r.textContent).toContain('-$1.25');
    expect(r.textContent).toContain('Sharpe (per 1.0 s, not annualised)');
    expect(r.textContent).toContain('-0.123');
    expect(r.textContent).toContain('$2.40 (underwater 1.5 min)');
    expect(r.textContent).toContain('Slippage vs mid$0.03');
    const trades = within(r).getByRole('table', { name: 'Backtest trades' });
    const rows = within(trades).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]!.textContent).toContain('0.5200');
    expect(rows[2]!.textContent).toContain('open');
    expect(rows[2]!.textContent).toContain('-1.29');
    expect(within(r).getByTestId('backtest-saved').textContent).toContain(saved.id);
    await user.click(within(r).getByRole('button', { name: 'Reproduce' }));
    expect(fake.api.reproduceBacktest).toHaveBeenCalledWith({ id: saved.id });
    expect((await screen.findByTestId('backtest-reproduced')).textContent).toBe('reproduced: the same figures');
  });

  it('sweeps with the chosen figure and walk-forward, and marks the best row', async () => {
    fake.api.sweepStrategy.mockResolvedValue(sweep);
    render(withQueries(<StrategiesPanel />));
    const user = userEvent.setup();
    await screen.findByRole('option', { name: /morning/ });
    await user.click(screen.getByRole('textbox', { name: 'Sweep grid' }));
    await user.paste('{"maxPosition": [3, 5]}');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sweep best by' }), 'sharpe');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Walk-forward spans' }), '2');
    await user.click(screen.getByRole('button', { name: 'Sweep' }));
    expect(fake.api.sweepStrategy).toHaveBeenCalledWith({ code: 'module.exports = {};', params: { size: '1', maxPosition: 5 }, recordingId: 'rec-1', by: 'sharpe', grid: { maxPosition: [3, 5] }, windows: 2 });
    const s = await screen.findByTestId('sweep-report');
    const table = within(s).getByRole('table', { name: 'Sweep results' });
    const best = within(table).getAllByRole('row').filter((x) => x.getAttribute('aria-selected') === 'true');
    expect(best).toHaveLength(1);
    expect(best[0]!.textContent).toContain('best by sharpe');
    expect(best[0]!.textContent).toContain('0.40');
    const wf = within(s).getByRole('table', { name: 'Walk-forward' });
    expect(wf.textContent).toContain('maxPosition=5');
    expect(wf.textContent).toContain('0.15');
  });

  it('the grid box takes a JSON object of lists, or nothing for the strategy\'s own', () => {
    expect(parseGrid('')).toBeUndefined();
    expect(parseGrid('{"a": [1, "2", true]}')).toEqual({ a: [1, '2', true] });
    expect(() => parseGrid('{"a": 1}')).toThrow(/grid a/);
    expect(() => parseGrid('{"a": []}')).toThrow(/grid a/);
    expect(() => parseGrid('[1]')).toThrow(/JSON object of lists/);
  });
});
