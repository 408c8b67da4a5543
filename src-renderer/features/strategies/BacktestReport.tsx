// A backtest's report as main computed it (src-main/strategies/report.ts; this only shows it):
// the figures (Sharpe and Sortino per bucket, not annualised, as labelled), the trade list with
// each round trip's P&L, fees and slippage against the mid, and where it was saved, with a button
// that runs it again from that id and says whether the figures are the same. The sweep's table
// (best row marked) and its walk-forward folds are shown by SweepTable.
import type { ReactNode } from 'react';
import type { BacktestFigures, BacktestView, ReproducedBacktest, SweepView } from '../../../src-shared/ipc/contract';

/** trade rows drawn at once (the CSV has them all) */
const TRADE_ROWS = 500;

const time = (t: number | null) => (t === null ? 'open' : new Date(t).toISOString().slice(11, 23));
const ratio = (x: number | null) => (x === null ? '—' : x.toFixed(3));
const span = (ms: number) => (ms >= 60_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 1000).toFixed(1)} s`);
const money = (s: string) => (s.startsWith('-') ? `-$${s.slice(1)}` : `$${s}`);

export function figureEntries(f: BacktestFigures): [string, ReactNode][] {
  return [
    ['P&L', money(f.pnl)],
    ['Fees', money(f.fees)],
    ['Slippage vs mid', money(f.slippage)],
    ['Max drawdown', `${money(f.maxDrawdown)} (underwater ${span(f.maxDrawdownMs)})`],
    [`Sharpe (per ${span(f.bucketMs)}, not annualised)`, ratio(f.sharpe)],
    [`Sortino (per ${span(f.bucketMs)}, not annualised)`, ratio(f.sortino)],
    ['Trades', `${f.trades}`],
    ['Win rate', f.winRate === null ? '—' : `${(f.winRate * 100).toFixed(1)}% (${f.wins}/${f.wins + f.losses})`],
    ['Time in market', `${f.timeInMarketPct}%`],
    ['Exposure avg / max', `${money(f.avgExposure)} / ${money(f.maxExposure)} (max ${f.maxContracts} contracts)`],
  ];
}

export function TradeList({ report }: { report: BacktestView }) {
  const rows = report.tradeList.slice(0, TRADE_ROWS);
  return (
    <table className="grid u-w-auto" aria-label="Backtest trades" data-testid="backtest-trades">
      <thead>
        <tr>
          {['Entry', 'Exit', 'Market', 'Side', 'Entry price', 'Exit price', 'Contracts', 'Fills', 'Gross', 'Fees', 'Slippage', 'Net'].map((h) => (
            <th key={h}>{h}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((t, i) => (
          <tr key={i} className={t.net.startsWith('-') ? 'u-err' : undefined}>
            <td className="mono">{time(t.entryT)}</td>
            <td className="mono">{time(t.exitT)}</td>
            <td>{t.ticker}</td>
            <td>{t.direction}</td>
            <td className="mono">{t.entryPrice}</td>
            <td className="mono">{t.exitPrice ?? '—'}</td>
            <td className="mono">{t.contracts}</td>
            <td className="mono">{t.fills}</td>
            <td className="mono">{t.gross}</td>
            <td className="mono">{t.fees}</td>
            <td className="mono">{t.slippage}</td>
            <td className="mono">{t.net}</td>
          </tr>
        ))}
        {report.tradeList.length > rows.length && (
          <tr>
            <td colSpan={12}>{(report.tradeList.length - rows.length).toLocaleString()} more in the CSV</td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

export function SavedLine({ report, reproduced, busy, onReproduce }: { report: BacktestView; reproduced: ReproducedBacktest | null; busy: boolean; onReproduce: () => void }) {
  if (!report.saved) return null;
  const s = report.saved;
  return (
    <div data-testid="backtest-saved">
      Saved as <span className="mono">{s.id}</span> (source sha256 <span className="mono">{s.codeHash.slice(0, 12)}</span>, recording <span className="mono">{s.recordingId}</span>, {s.rows.toLocaleString()} rows){' '}
      <button type="button" className="btn btn-sm" disabled={busy} onClick={onReproduce}>
        Reproduce
      </button>
      {reproduced && reproduced.saved.id === s.id && (
        <span className={reproduced.differences.length ? 'u-err' : 'badge badge-ok'} data-testid="backtest-reproduced">
          {reproduced.differences.length ? `differs: ${reproduced.differences.join('; ')}` : 'reproduced: the same figures'}
        </span>
      )}
    </div>
  );
}

const params = (p: Record<string, string | number | boolean> | null) => (p === null ? '—' : Object.entries(p).map(([k, v]) => `${k}=${String(v)}`).join(' '));

export function SweepTable({ sweep }: { sweep: SweepView }) {
  const keys = Object.keys(sweep.grid).sort();
  return (
    <div data-testid="sweep-report">
      <table className="grid u-w-auto" aria-label="Sweep results">
        <thead>
          <tr>
            {[...keys, 'P&L', 'Sharpe', 'Sortino', 'Max DD', 'Trades', 'Win rate', 'Fees', ''].map((h, i) => (
              <th key={`${h}${i}`}>{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sweep.rows.map((r, i) => (
            <tr key={i} aria-selected={i === sweep.best}>
              {keys.map((k) => (
                <td key={k} className="mono">
                  {String(r.params[k])}
                </td>
              ))}
              <td className="mono">{r.pnl}</td>
              <td className="mono">{ratio(r.sharpe)}</td>
              <td className="mono">{ratio(r.sortino)}</td>
              <td className="mono">{r.maxDrawdown}</td>
              <td className="mono">{r.trades}</td>
              <td className="mono">{r.winRate === null ? '—' : `${(r.winRate * 100).toFixed(1)}%`}</td>
              <td className="mono">{r.fees}</td>
              <td>{i === sweep.best ? `best by ${sweep.by}` : r.fault ? `stopped: ${r.fault}` : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {sweep.walkForward && (
        <table className="grid u-w-auto" aria-label="Walk-forward">
          <thead>
            <tr>
              {['Fit span', 'Chosen', `Fit ${sweep.by}`, 'Test span', 'Test P&L', 'Test Sharpe'].map((h) => (
                <th key={h}>{h}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {sweep.walkForward.folds.map((f, i) => (
              <tr key={i}>
                <td className="mono">
                  {time(f.fitFrom)}–{time(f.fitTo)}
                </td>
                <td className="mono">{params(f.params)}</td>
                <td className="mono">{f.fit ? (sweep.by === 'pnl' ? f.fit.pnl : sweep.by === 'maxDrawdown' ? f.fit.maxDrawdown : ratio(f.fit[sweep.by])) : '—'}</td>
                <td className="mono">
                  {time(f.testFrom)}–{time(f.testTo)}
                </td>
                <td className="mono">{f.test?.pnl ?? '—'}</td>
                <td className="mono">{ratio(f.test?.sharpe ?? null)}</td>
              </tr>
            ))}
            <tr>
              <td colSpan={4}>Out-of-sample P&L, all test spans</td>
              <td className="mono">{sweep.walkForward.testPnl}</td>
              <td />
            </tr>
          </tbody>
        </table>
      )}
    </div>
  );
}

