// Strategies: load an example or paste a module, set its parameters, backtest it over a
// recording (P&L curve, its fills, drawdown, win rate, fees, time in market, CSV) or run it live
// on the active profile, where every order goes through the risk gate; stop it; its log,
// orders and position. The code runs in main's sandbox (a worker thread of its own), never here;
// a live strategy is bound to the profile it starts on and stops when another is activated.
import { useCallback, useEffect, useState } from 'react';
import type { BacktestView, RecordingView, StrategiesView } from '../../../src-shared/ipc/contract';
import { getTerminalApi } from '../../lib/bridge';
import { downloadCsv } from '../../lib/csv';
import { useAction, toastAction } from '../../hooks/useAction';
import { useSession } from '../../stores/session';
import { BacktestCharts } from './BacktestCharts';
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

export function StrategiesPanel() {
  const [view, setView] = useState<StrategiesView | null>(null);
  const [recordings, setRecordings] = useState<RecordingView[]>([]);
  const [name, setName] = useState('market-maker');
  const [code, setCode] = useState('');
  const [params, setParams] = useState('{"size": "1", "maxPosition": 5}');
  const [recordingId, setRecordingId] = useState('');
  /** what becomes of its orders when the trader activates another profile (it stops either way) */
  const [onSwitch, setOnSwitch] = useState<'cancel' | 'leave'>('cancel');
  const [report, setReport] = useState<BacktestView | null>(null);
  const { busy, error, run } = useAction();
  const theme = useSession((s) => s.settings.theme);

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
  useEffect(() => {
    if (!code && view?.examples[0]) setCode(view.examples[0].code);
  }, [view, code]);
  useEffect(() => {
    if (!recordingId && recordings[0]) setRecordingId(recordings[0].id);
  }, [recordings, recordingId]);

  const backtest = () =>
    void run(async () => {
      setReport(null);
      setReport(await getTerminalApi().backtestStrategy({ code, params: parseParams(params), recordingId }));
    });
  const start = () => void run(async () => setView(await getTerminalApi().startStrategy({ name: name.trim() || 'strategy', code, params: parseParams(params), onProfileSwitch: onSwitch })));
  const stop = (id: string) => void toastAction('Could not stop the strategy', async () => setView(await getTerminalApi().stopStrategy({ id })));

  return (
    <div className="panel" data-testid="strategies-panel">
      <div className="alert-form">
        <Field label="Example">
          <select aria-label="Example strategy" onChange={(e) => {
            const ex = view?.examples.find((x) => x.name === e.target.value);
            if (ex) {
              setCode(ex.code);
              setName(ex.name.replace(/\.js$/, ''));
            }
          }}>
            {(view?.examples ?? []).map((x) => (
              <option key={x.name} value={x.name}>
                {x.name}
              </option>
            ))}
          </select>
        </Field>
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
        <Field label="Recording">
          <select value={recordingId} onChange={(e) => setRecordingId(e.target.value)} aria-label="Backtest recording">
            {recordings.length === 0 && <option value="">no finished recording</option>}
            {recordings.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name} ({r.rows.toLocaleString()} events)
              </option>
            ))}
          </select>
        </Field>
        <button type="button" className="btn btn-sm btn-primary u-as-end" disabled={busy || !code || !recordingId} onClick={backtest}>
          {busy ? 'Working…' : 'Backtest'}
        </button>
        <button type="button" className="btn btn-sm u-as-end" disabled={busy || !code} onClick={start} title="On the active profile: every order goes through the risk gate">
          Run live
        </button>
        {error !== null && <InlineError error={error} />}
      </div>
      <textarea className="mono strategy-code" value={code} onChange={(e) => setCode(e.target.value)} aria-label="Strategy code" spellCheck={false} rows={10} style={{ width: '100%' }} />
      {report && (
        <div data-testid="backtest-report">
          <KeyValues
            entries={[
              ['P&L', `$${report.pnl}`],
              ['Max drawdown', `$${report.maxDrawdown}`],
              ['Win rate', report.winRate === null ? '—' : `${(report.winRate * 100).toFixed(1)}% (${report.wins}/${report.wins + report.losses})`],
              ['Fees', `$${report.fees}`],
              ['Time in market', `${report.timeInMarketPct}%`],
              ['Orders / fills', `${report.orders} / ${report.fills.length}`],
              ['Events', `${report.events.toLocaleString()} (${report.eventsPerSec.toLocaleString()}/s)`],
              ...(report.fault ? ([['Stopped', report.fault]] as [string, string][]) : []),
            ]}
          />
          <button type="button" className="btn btn-sm" onClick={() => downloadCsv('backtest.csv', report.csv)}>
            CSV
          </button>
          <BacktestCharts report={report} theme={theme} />
        </div>
      )}
      <div className="alert-list">
        {(view?.running ?? []).map((r) => (
          <div key={r.id} className="strategy-run" data-testid="strategy-run">
            <strong>{r.name}</strong> <span className={`badge ${r.status === 'running' ? 'badge-ok' : r.status === 'faulted' ? 'badge-error' : ''}`}>{r.status}</span>{' '}
            {Object.entries(r.positions).map(([t, p]) => `${t} ${p}`).join(' · ')} · fees ${r.fees} · {r.fills} fills
            {r.status === 'running' && (
              <button type="button" className="btn btn-sm btn-danger" onClick={() => stop(r.id)}>
                Stop
              </button>
            )}
            {r.fault && <div className="u-err">{r.fault}</div>}
            <pre className="mono strategy-log">{r.log.slice(-8).join('\n')}</pre>
          </div>
        ))}
      </div>
    </div>
  );
}
