// @vitest-environment jsdom
// The Strategies panel: backtests the loaded example over a recording and shows the report,
// starts it live with its parameters, stops it, and refuses parameters that are not an object.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../../test/fake-terminal';
import type { BacktestView, RecordingsView, StrategiesView } from '../../../src-shared/ipc/contract';
import { StrategiesPanel, parseParams } from './StrategiesPanel';

// jsdom has no canvas to draw lightweight-charts on: the charts are stood in for by their data
vi.mock('./BacktestCharts', () => ({ BacktestCharts: ({ report }: { report: BacktestView }) => <div data-testid="charts">{report.curve.length} points, {report.fills.length} fills</div> }));

let fake: FakeTerminal;
const recordings: RecordingsView = {
  settings: { retentionDays: 30 },
  recordings: [{ id: 'rec-1', name: 'morning', markets: null, startedAt: 1, stoppedAt: 2, active: false, bytes: 10, rows: 5000, deltas: 4000, trades: 50, recordedMarkets: ['KX-A'], firstMs: 1, lastMs: 2, problem: null }],
};
const idle: StrategiesView = { examples: [{ name: 'market-maker.js', code: 'module.exports = {};' }], running: [] };
const report: BacktestView = {
  pnl: '1.25',
  maxDrawdown: '0.40',
  maxDrawdownMs: 12_000,
  sharpe: 0.21,
  sortino: 0.35,
  bucketMs: 1000,
  buckets: 60,
  trades: 5,
  slippage: '-0.02',
  avgExposure: '0.80',
  maxExposure: '2.10',
  maxContracts: '3.00',
  tradeList: [],
  winRate: 0.6,
  wins: 3,
  losses: 2,
  fees: '0.07',
  timeInMarketPct: 41.5,
  events: 5000,
  eventsPerSec: 70000,
  fault: null,
  orders: 12,
  fills: [{ t: 1_764_000_000_000, ticker: 'KX-A', side: 'bid', price: '0.5000', count: '1.00', maker: true, fee: '0.000000', mid: '0.5050' }],
  curve: [
    { t: 1_764_000_000_000, pnl: '0.00' },
    { t: 1_764_000_060_000, pnl: '1.25' },
  ],
  log: [],
  csv: 'section,key,value\n',
};

beforeAll(() => {
  stubLayout();
  fake = installFakeTerminal();
});
beforeEach(() => {
  for (const m of ['getStrategies', 'getRecordings', 'backtestStrategy', 'startStrategy', 'stopStrategy'] as const) fake.api[m].mockReset();
  fake.api.getStrategies.mockResolvedValue(idle);
  fake.api.getRecordings.mockResolvedValue(recordings);
});
afterEach(cleanup);

describe('the Strategies panel', () => {
  it('backtests the example over a recording and shows the report', async () => {
    fake.api.backtestStrategy.mockResolvedValue(report);
    render(withQueries(<StrategiesPanel />));
    const user = userEvent.setup();
    await screen.findByRole('option', { name: /morning/ });
    await user.click(screen.getByRole('button', { name: 'Backtest' }));
    expect(fake.api.backtestStrategy).toHaveBeenCalledWith({ code: 'module.exports = {};', params: { size: '1', maxPosition: 5 }, recordingId: 'rec-1' });
    const r = await screen.findByTestId('backtest-report');
    expect(r.textContent).toContain('$1.25');
    expect(r.textContent).toContain('60.0% (3/5)');
    expect(r.textContent).toContain('41.5%');
    expect(r.textContent).toContain('12 / 1');
    expect(screen.getByTestId('charts').textContent).toBe('2 points, 1 fills');
  });

  it('Backtest and Run live are enabled in the very frame that shows the example and the recording they would use', async () => {
    const frames: string[] = [];
    const seen = new MutationObserver(() => {
      if (!screen.queryByRole('option', { name: /morning/ })) return;
      const b = (name: string) => ((screen.getByRole('button', { name }) as HTMLButtonElement).disabled ? 'off' : 'on');
      frames.push(`Backtest ${b('Backtest')}, Run live ${b('Run live')}`);
    });
    seen.observe(document.body, { subtree: true, childList: true, attributes: true });
    render(withQueries(<StrategiesPanel />));
    await screen.findByRole('option', { name: /morning/ });
    seen.disconnect();
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.filter((f) => f.includes('off')), frames.join('; ')).toEqual([]);
  });

  it('a code box the trader clears stays empty (Backtest and Run live off) instead of refilling the example; typed code is what runs', async () => {
    fake.api.startStrategy.mockResolvedValue(idle);
    render(withQueries(<StrategiesPanel />));
    const user = userEvent.setup();
    await screen.findByRole('option', { name: /morning/ });
    const box = screen.getByRole('textbox', { name: 'Strategy code' }) as HTMLTextAreaElement;
    expect(box.value).toBe('module.exports = {};');
    await user.clear(box);
    expect(box.value).toBe('');
    expect((screen.getByRole('button', { name: 'Backtest' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Run live' }) as HTMLButtonElement).disabled).toBe(true);
    await user.type(box, 'x');
    await user.click(screen.getByRole('button', { name: 'Run live' }));
    expect(fake.api.startStrategy).toHaveBeenCalledWith({ name: 'market-maker', code: 'x', params: { size: '1', maxPosition: 5 }, onProfileSwitch: 'cancel' });
  });

  it('runs it live and stops it', async () => {
    fake.api.startStrategy.mockResolvedValue({ ...idle, running: [{ id: 'st-1', name: 'market-maker', status: 'running', fault: null, log: ['hello'], orders: [], fills: 0, positions: {}, fees: '0.000000' }] });
    fake.api.stopStrategy.mockResolvedValue(idle);
    render(withQueries(<StrategiesPanel />));
    const user = userEvent.setup();
    await screen.findByRole('option', { name: /morning/ });
    await user.click(screen.getByRole('button', { name: 'Run live' }));
    expect(fake.api.startStrategy).toHaveBeenCalledWith({ name: 'market-maker', code: 'module.exports = {};', params: { size: '1', maxPosition: 5 }, onProfileSwitch: 'cancel' });
    const run = await screen.findByTestId('strategy-run');
    await user.click(within(run).getByRole('button', { name: 'Stop' }));
    expect(fake.api.stopStrategy).toHaveBeenCalledWith({ id: 'st-1' });
  });

  it('starts it to leave its orders resting on a profile switch when the trader chooses so', async () => {
    fake.api.startStrategy.mockResolvedValue(idle);
    render(withQueries(<StrategiesPanel />));
    const user = userEvent.setup();
    await screen.findByRole('option', { name: /morning/ });
    await user.selectOptions(screen.getByRole('combobox', { name: 'On profile switch' }), 'leave');
    await user.click(screen.getByRole('button', { name: 'Run live' }));
    expect(fake.api.startStrategy).toHaveBeenCalledWith({ name: 'market-maker', code: 'module.exports = {};', params: { size: '1', maxPosition: 5 }, onProfileSwitch: 'leave' });
  });

  it('refuses parameters that are not an object of plain values', () => {
    expect(parseParams('')).toEqual({});
    expect(() => parseParams('[1]')).toThrow(/JSON object/);
    expect(() => parseParams('{"a": {"b": 1}}')).toThrow(/parameter a/);
    expect(() => parseParams('{oops')).toThrow();
  });
});
