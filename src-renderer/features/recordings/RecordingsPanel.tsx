// Recordings: what main records (the markets the terminal watches, or the ones named here) into
// DuckDB files: size, markets, time range; start and stop; export to Parquet or CSV (main writes
// the file under its data folder and says where); the retention setting.
import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import type { RecordingView, RecordingsView } from '../../../src-shared/ipc/contract';
import { getTerminalApi } from '../../lib/bridge';
import { fmtDateTime, fmtDuration, fmtInt, isoTime } from '../../lib/format';
import { toastAction, useAction } from '../../hooks/useAction';
import { notify } from '../../stores/notices';
import { col, DataTable, type Columns } from '../../ui/DataTable';
import { Field } from '../../ui/Field';
import { InlineError } from '../../ui/States';
import { showReplay } from '../../stores/replay';

const REFRESH_MS = 2000;

export function fmtBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

/** "KX-A, KX-B" -> the tickers; empty: every watched market. */
export function parseMarkets(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).map((t) => t.trim()).filter(Boolean))];
}

/** The recordings as main sees them, read every 2 s and four times a second while an export runs. */
function useRecordingsView() {
  const [view, setView] = useState<RecordingsView | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const refresh = useCallback(async () => {
    try {
      const v = await getTerminalApi().getRecordings();
      setView(v);
      setLoadError(null);
    } catch (e) {
      setLoadError(e);
    }
  }, []);
  useEffect(() => {
    void refresh();
    const t = setInterval(() => void refresh(), REFRESH_MS);
    return () => clearInterval(t);
  }, [refresh]);
  // while an export runs, its progress is read four times a second
  const exporting = view?.exports?.length ?? 0;
  useEffect(() => {
    if (!exporting) return;
    const t = setInterval(() => void refresh(), 250);
    return () => clearInterval(t);
  }, [exporting, refresh]);
  return { view, setView, loadError, refresh };
}

/** The recordings table's columns, with each row's replay, export and delete buttons. */
function recordingColumns(refresh: () => Promise<void>, setView: (v: RecordingsView) => void): Columns<RecordingView> {
  const exportAs = (r: RecordingView, format: 'parquet' | 'csv') =>
    void toastAction(`Could not export ${r.name}`, async () => {
      const done = getTerminalApi().exportRecording({ id: r.id, format });
      // the list shows its progress from the next read on
      void refresh();
      const { path } = await done;
      notify('success', `Exported ${r.name}`, path);
    });
  const remove = (r: RecordingView) =>
    void toastAction(`Could not delete ${r.name}`, async () => {
      if (!window.confirm(`Delete the recording ${r.name}? Its file is removed.`)) return;
      setView(await getTerminalApi().deleteRecording({ id: r.id }));
    });
  const replay = (r: RecordingView) =>
    void toastAction(`Could not replay ${r.name}`, async () => {
      showReplay(await getTerminalApi().startReplay({ id: r.id, speed: 10 }));
      notify('success', `Replaying ${r.name}`, 'in the embedded exchange, at 10x: the replay bar above has its controls');
    });
  return [
    col<RecordingView>({ id: 'state', header: '', size: 80, accessorFn: (r) => (r.active ? 'recording' : r.problem ? 'problem' : 'stopped'), cell: ({ row }) => <span className={`badge ${row.original.active ? 'badge-warn' : row.original.problem ? 'badge-error' : ''}`} title={row.original.problem ?? ''}>{row.original.active ? '● rec' : row.original.problem ? 'problem' : 'stopped'}</span> }),
    col<RecordingView>({ id: 'name', header: 'Name', size: 150, accessorFn: (r) => r.name }),
    col<RecordingView>({ id: 'markets', header: 'Markets', size: 200, accessorFn: (r) => (r.markets ? r.markets.join(' ') : `watched (${r.recordedMarkets.length})`), cell: ({ row }) => <span title={row.original.recordedMarkets.join('\n')}>{row.original.markets ? row.original.markets.join(' ') : `watched: ${row.original.recordedMarkets.length} markets`}</span> }),
    col<RecordingView>({ id: 'from', header: 'From', size: 130, accessorFn: (r) => r.firstMs ?? r.startedAt, cell: ({ row }) => fmtDateTime(row.original.firstMs ?? row.original.startedAt), meta: { csv: (r) => isoTime(r.firstMs ?? r.startedAt) } }),
    col<RecordingView>({ id: 'span', header: 'Span', size: 70, accessorFn: (r) => (r.firstMs !== null && r.lastMs !== null ? r.lastMs - r.firstMs : 0), cell: ({ getValue }) => fmtDuration(getValue() as number) }),
    col<RecordingView>({ id: 'rows', header: 'Events', size: 80, accessorFn: (r) => r.rows, cell: ({ getValue }) => <span className="num">{fmtInt(getValue() as number)}</span> }),
    col<RecordingView>({ id: 'trades', header: 'Trades', size: 70, accessorFn: (r) => r.trades, cell: ({ getValue }) => <span className="num">{fmtInt(getValue() as number)}</span> }),
    col<RecordingView>({ id: 'bytes', header: 'Size', size: 80, accessorFn: (r) => r.bytes, cell: ({ getValue }) => <span className="num">{fmtBytes(getValue() as number)}</span> }),
    col<RecordingView>({
      id: '_actions',
      header: '',
      size: 260,
      enableSorting: false,
      cell: ({ row }) => (
        <>
          <button type="button" className="btn btn-sm" disabled={row.original.active} title="Replay into the embedded exchange (the embedded profile shows it)" onClick={() => replay(row.original)}>
            Replay
          </button>
          <button type="button" className="btn btn-sm" title="Export to Parquet (DuckDB writes it; the schema is in the README)" onClick={() => exportAs(row.original, 'parquet')}>
            Parquet
          </button>
          <button type="button" className="btn btn-sm" onClick={() => exportAs(row.original, 'csv')}>
            CSV
          </button>
          <button type="button" className="btn btn-sm btn-danger" disabled={row.original.active} onClick={() => remove(row.original)}>
            Delete
          </button>
        </>
      ),
      meta: { csv: false },
    }),
  ];
}

/** Start or stop a recording, and the retention setting. */
function RecordingForm({ view, setView, loadError }: { view: RecordingsView | null; setView: (v: RecordingsView) => void; loadError: unknown }) {
  const [name, setName] = useState('');
  const [markets, setMarkets] = useState('');
  /** what the trader typed in Retention days; null: untouched, so the field shows the saved setting */
  const [typedRetention, setRetention] = useState<string | null>(null);
  const retention = typedRetention ?? (view ? String(view.settings.retentionDays) : '');
  const { busy, error, run } = useAction();

  const recording = view?.recordings.find((r) => r.active) ?? null;

  const start = (e: FormEvent) => {
    e.preventDefault();
    const list = parseMarkets(markets);
    const sent = name;
    void run(async () => {
      setView(await getTerminalApi().startRecording({ ...(sent.trim() ? { name: sent.trim() } : {}), ...(list.length ? { markets: list } : {}) }));
      // cleared only if it still holds what was sent (as the Alerts form)
      setName((n) => (n === sent ? '' : n));
    });
  };
  const stop = () => void run(async () => setView(await getTerminalApi().stopRecording()));
  const saveRetention = () => void run(async () => setView(await getTerminalApi().saveRecorderSettings({ retentionDays: Number(retention) })));

  return (
    <form className="alert-form" onSubmit={start} aria-label="Recording">
      {recording ? (
        <>
          <span className="badge badge-warn" data-testid="recording-now">
            ● recording {recording.name}: {fmtInt(recording.rows)} events, {fmtBytes(recording.bytes)}
          </span>
          <button type="button" className="btn btn-sm btn-danger u-as-end" onClick={stop} disabled={busy}>
            Stop recording
          </button>
        </>
      ) : (
        <>
          <Field label="Name (optional)">
            <input value={name} onChange={(e) => setName(e.target.value)} maxLength={80} aria-label="Recording name" />
          </Field>
          <Field label="Markets (blank: every watched market)">
            <input className="mono" value={markets} onChange={(e) => setMarkets(e.target.value)} placeholder="KX-A, KX-B" aria-label="Recording markets" />
          </Field>
          <button type="submit" className="btn btn-sm btn-primary u-as-end" disabled={busy}>
            Start recording
          </button>
        </>
      )}
      <Field label="Keep (days, 0: for ever)">
        <input className="num" inputMode="numeric" value={retention} onChange={(e) => setRetention(e.target.value)} aria-label="Retention days" />
      </Field>
      <button type="button" className="btn btn-sm u-as-end" onClick={saveRetention} disabled={busy || !/^\d{1,4}$/.test(retention)}>
        Save
      </button>
      {error !== null && <InlineError error={error} />}
      {loadError !== null && <InlineError error={loadError} />}
    </form>
  );
}

export function RecordingsPanel() {
  const { view, setView, loadError, refresh } = useRecordingsView();
  const columns = useMemo(() => recordingColumns(refresh, setView), [refresh, setView]);

  return (
    <div className="panel" data-testid="recordings-panel">
      <RecordingForm view={view} setView={setView} loadError={loadError} />
      <div className="alert-list">
      {(view?.exports ?? []).map((x, k) => (
        <div key={k} data-testid="export-progress">
          Exporting {view?.recordings.find((r) => r.id === x.id)?.name ?? x.id} to {x.format === 'parquet' ? 'Parquet' : 'CSV'}{' '}
          <progress value={x.pct} max={100} aria-label={`Export of ${x.id} to ${x.format}`} /> {x.pct}%
        </div>
      ))}
        <DataTable label="Recordings" data={view?.recordings ?? []} columns={columns} getRowId={(r) => r.id} loading={view === null && loadError === null} loadingText="Loading recordings…" emptyText="No recordings yet. Start one: main records book deltas with their seq, trades, tickers, lifecycle and your own orders and fills." initialSorting={[{ id: 'from', desc: true }]} />
      </div>
    </div>
  );
}
