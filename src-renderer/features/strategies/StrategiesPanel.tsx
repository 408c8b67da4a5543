// Strategies: load an example or paste a module, set its parameters, backtest it over a
// recording (P&L curve, its fills, the trade list, Sharpe, Sortino, drawdown, exposure, CSV;
// saved and reproducible by its id), sweep its parameters (with walk-forward) or run it live
// on the active profile, where every order goes through the risk gate; stop it; its log,
// orders and position. The code runs in main's sandbox (a worker thread of its own), never here;
// a live strategy is bound to the profile it starts on and stops when another is activated.
import { useCallback, useEffect, useState } from 'react';
import type { BacktestView, RecordingView, ReproducedBacktest, StrategiesView, SweepBy, SweepView } from '../../../src-shared/ipc/contract';
import { getTerminalApi } from '../../lib/bridge';
import { downloadCsv } from '../../lib/csv';
import { fmtInt } from '../../lib/format';
import { useAction, toastAction } from '../../hooks/useAction';
import { useSession } from '../../stores/session';
import { BacktestCharts } from './BacktestCharts';
import { figureEntries, SavedLine, SweepTable, TradeList } from './BacktestReport';
import { Field, KeyValues } from '../../ui/Field';
import { InlineError } from '../../ui/States';

const REFRESH_MS = 2000;

/** The parameters box: a JSON object of strings, numbers and booleans. */
export function parseParams(text: string): Record<string, string | number | boolean> {
  const v: unknown = text.trim() ? JSON.parse(text) : {};
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('parameters: a JSON object, like {"size": "1"}');
  for (const [k, x] of Object.entries(v)) if (!['string', 'number', 'boolean'].includes(typeof x)) throw new Error(`parameter ${k}: a string, number or true/false`);
  return v as Record<string, string | number | boolean>;
}

/** The sweep's grid box: empty for the strategy's declared grid, or a JSON object of value lists. */
export function parseGrid(text: string): Record<string, (string | number | boolean)[]> | undefined {
  if (!text.trim()) return undefined;
  const v: unknown = JSON.parse(text);
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('grid: a JSON object of lists, like {"maxPosition": [3, 5, 8]}');
  for (const [k, x] of Object.entries(v)) if (!Array.isArray(x) || x.length === 0 || x.some((y) => !['string', 'number', 'boolean'].includes(typeof y))) throw new Error(`grid ${k}: a list of strings, numbers or true/false`);
  return v as Record<string, (string | number | boolean)[]>;
}

interface SweepChoice {
  grid: string;
  by: SweepBy;
  windows: number;
}

const SWEEP_BY: [SweepBy, string][] = [
  ['pnl', 'P&L'],
  ['sharpe', 'Sharpe'],
  ['sortino', 'Sortino'],
  ['maxDrawdown', 'smallest drawdown'],
  ['winRate', 'win rate'],
];

/** The sweep's choices: the grid (empty: the strategy's declared one), the figure to rank by, walk-forward spans. */
function SweepForm({ disabled, onSweep }: { disabled: boolean; onSweep: (s: SweepChoice) => void }) {
  const [grid, setGrid] = useState('');
  const [by, setBy] = useState<SweepBy>('sharpe');
  const [windows, setWindows] = useState(0);
  return (
    <>
      <Field label="Sweep grid (JSON; empty: the strategy's own)">
        <input className="mono" value={grid} onChange={(e) => setGrid(e.target.value)} aria-label="Sweep grid" placeholder='{"maxPosition": [3, 5, 8]}' />
      </Field>
      <Field label="Best by">
        <select value={by} onChange={(e) => setBy(SWEEP_BY.find(([k]) => k === e.target.value)?.[0] ?? 'sharpe')} aria-label="Sweep best by">
          {SWEEP_BY.map(([k, label]) => (
            <option key={k} value={k}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Walk-forward spans">
        <select value={windows} onChange={(e) => setWindows(Number(e.target.value))} aria-label="Walk-forward spans">
          {[0, 2, 3, 4, 5].map((n) => (
            <option key={n} value={n}>
              {n === 0 ? 'none' : `${n} (fit on one, test on the next)`}
            </option>
          ))}
        </select>
      </Field>
      <button type="button" className="btn btn-sm u-as-end" disabled={disabled} onClick={() => onSweep({ grid, by, windows })}>
        Sweep
      </button>
    </>
  );
}

/** The strategies main runs and the finished recordings a backtest can use, read every 2 s. */
function useStrategiesView() {
  const [view, setView] = useState<StrategiesView | null>(null);
  const [recordings, setRecordings] = useState<RecordingView[]>([]);
  const refresh = useCallback(async () => {
    const api = getTerminalApi();
    const [v, r] = await Promise.all([api.getStrategies(), api.getRecordings()]);
    setView(v);
    setRecordings(r.recordings.filter((x) => !x.active && x.rows > 0));
  }, []);
  useEffect(() => {
    void refresh().catch(() => undefined);
    const t = setInterval(() => void refresh().catch(() => undefined), REFRESH_MS);
    return () => clearInterval(t);
  }, [refresh]);
  return { view, setView, recordings };
}

type Example = StrategiesView['examples'][number];
type StrategyRun = StrategiesView['running'][number];

function ExamplePicker({ examples, onPick }: { examples: Example[]; onPick: (ex: Example) => void }) {
  return (
    <Field label="Example">
      <select aria-label="Example strategy" onChange={(e) => {
        const ex = examples.find((x) => x.name === e.target.value);
        if (ex) onPick(ex);
      }}>
        {examples.map((x) => (
          <option key={x.name} value={x.name}>
            {x.name}
          </option>
        ))}
      </select>
    </Field>
  );
}

function RecordingPicker({ recordings, value, onChange }: { recordings: RecordingView[]; value: string; onChange: (id: string) => void }) {
  return (
    <Field label="Recording">
      <select value={value} onChange={(e) => onChange(e.target.value)} aria-label="Backtest recording">
        {recordings.length === 0 && <option value="">no finished recording</option>}
        {recordings.map((r) => (
          <option key={r.id} value={r.id}>
            {r.name} ({fmtInt(r.rows)} events)
          </option>
        ))}
      </select>
    </Field>
  );
}

function BacktestResult({ report, reproduced, busy, onReproduce }: { report: BacktestView; reproduced: ReproducedBacktest | null; busy: boolean; onReproduce: (id: string) => void }) {
  const theme = useSession((s) => s.settings.theme);
  return (
    <div data-testid="backtest-report">
      <KeyValues
        entries={[
          ...figureEntries(report),
          ['Orders / fills', `${report.orders} / ${report.fills.length}`],
          ['Events', `${fmtInt(report.events)} (${fmtInt(report.eventsPerSec)}/s)`],
          ...(report.fault ? ([['Stopped', report.fault]] as [string, string][]) : []),
        ]}
      />
      <SavedLine report={report} reproduced={reproduced} busy={busy} onReproduce={() => report.saved && onReproduce(report.saved.id)} />
      <button type="button" className="btn btn-sm" onClick={() => downloadCsv('backtest.csv', report.csv)}>
        CSV
      </button>
      <BacktestCharts report={report} theme={theme} />
      <TradeList report={report} />
    </div>
  );
}

function RunningStrategy({ r, onStop }: { r: StrategyRun; onStop: () => void }) {
  return (
    <div className="strategy-run" data-testid="strategy-run">
      <strong>{r.name}</strong> <span className={`badge ${r.status === 'running' ? 'badge-ok' : r.status === 'faulted' ? 'badge-error' : ''}`}>{r.status}</span>{' '}
      {Object.entries(r.positions).map(([t, p]) => `${t} ${p}`).join(' · ')} · fees ${r.fees} · {r.fills} fills
      {r.status === 'running' && (
        <button type="button" className="btn btn-sm btn-danger" onClick={onStop}>
          Stop
        </button>
      )}
      {r.fault && <div className="u-err">{r.fault}</div>}
      <pre className="mono strategy-log">{r.log.slice(-8).join('\n')}</pre>
    </div>
  );
}

export function StrategiesPanel() {
  const { view, setView, recordings } = useStrategiesView();
  const [name, setName] = useState('market-maker');
  /** null until the trader picks an example or types: then what they chose, even an emptied box */
  const [typedCode, setTypedCode] = useState<string | null>(null);
  const [params, setParams] = useState('{"size": "1", "maxPosition": 5}');
  const [pickedRecording, setPickedRecording] = useState('');
  /** what becomes of its orders when the trader activates another profile (it stops either way) */
  const [onSwitch, setOnSwitch] = useState<'cancel' | 'leave'>('cancel');
  const [report, setReport] = useState<BacktestView | null>(null);
  const [sweep, setSweep] = useState<SweepView | null>(null);
  const [reproduced, setReproduced] = useState<ReproducedBacktest | null>(null);
  const { busy, error, run } = useAction();
  // Defaults derived in the same render that shows the lists, not set by an effect one render
  // later: the Backtest button is enabled the moment the recording it would use is on screen.
  const code = typedCode ?? view?.examples[0]?.code ?? '';
  const recordingId = pickedRecording || recordings[0]?.id || '';

  const backtest = () =>
    void run(async () => {
      setReport(null);
      setReport(await getTerminalApi().backtestStrategy({ code, params: parseParams(params), recordingId }));
    });
  const runSweep = (s: SweepChoice) =>
    void run(async () => {
      setSweep(null);
      const g = parseGrid(s.grid);
      setSweep(await getTerminalApi().sweepStrategy({ code, params: parseParams(params), recordingId, by: s.by, ...(g ? { grid: g } : {}), ...(s.windows >= 2 ? { windows: s.windows } : {}) }));
    });
  const reproduce = (id: string) => void run(async () => setReproduced(await getTerminalApi().reproduceBacktest({ id })));
  const start = () => void run(async () => setView(await getTerminalApi().startStrategy({ name: name.trim() || 'strategy', code, params: parseParams(params), onProfileSwitch: onSwitch })));
  const stop = (id: string) => void toastAction('Could not stop the strategy', async () => setView(await getTerminalApi().stopStrategy({ id })));

  return (
    <div className="panel" data-testid="strategies-panel">
      <div className="alert-form">
        <ExamplePicker
          examples={view?.examples ?? []}
          onPick={(ex) => {
            setTypedCode(ex.code);
            setName(ex.name.replace(/\.js$/, ''));
          }}
        />
        <Field label="Name">
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={60} aria-label="Strategy name" />
        </Field>
        <Field label="Parameters (JSON)">
          <input className="mono" value={params} onChange={(e) => setParams(e.target.value)} aria-label="Strategy parameters" />
        </Field>
        <Field label="On profile switch">
          <select value={onSwitch} onChange={(e) => setOnSwitch(e.target.value === 'leave' ? 'leave' : 'cancel')} aria-label="On profile switch" title="A strategy runs on the profile it started on and stops when another is activated">
            <option value="cancel">stop, cancel its orders</option>
            <option value="leave">stop, leave its orders resting</option>
          </select>
        </Field>
        <RecordingPicker recordings={recordings} value={recordingId} onChange={setPickedRecording} />
        <button type="button" className="btn btn-sm btn-primary u-as-end" disabled={busy || !code || !recordingId} onClick={backtest}>
          {busy ? 'Working…' : 'Backtest'}
        </button>
        <SweepForm disabled={busy || !code || !recordingId} onSweep={runSweep} />
        <button type="button" className="btn btn-sm u-as-end" disabled={busy || !code} onClick={start} title="On the active profile: every order goes through the risk gate">
          Run live
        </button>
        {error !== null && <InlineError error={error} />}
      </div>
      <textarea className="mono strategy-code" value={code} onChange={(e) => setTypedCode(e.target.value)} aria-label="Strategy code" spellCheck={false} rows={10} style={{ width: '100%' }} />
      {report && <BacktestResult report={report} reproduced={reproduced} busy={busy} onReproduce={reproduce} />}
      {sweep && <SweepTable sweep={sweep} />}
      <div className="alert-list">
        {(view?.running ?? []).map((r) => (
          <RunningStrategy key={r.id} r={r} onStop={() => stop(r.id)} />
        ))}
      </div>
    </div>
  );
}
