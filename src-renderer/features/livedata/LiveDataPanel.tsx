// Live data: milestone and event live data with game stats, the weather index with its
// calibrations, and reference index values with their windowed averages.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { IndexValueView, PythValueView } from '../../../src-shared/ipc/contract';
import type { WeatherCalibration } from '../../../src-shared/wire/live-data';
import { getTerminalApi } from '../../lib/bridge';
import { fmtDateTime, fmtTime } from '../../lib/format';
import { useDebounced } from '../../hooks/useDebounced';
import { useMarketInfo } from '../../hooks/useMarketInfo';
import { useRest } from '../../hooks/useRest';
import { useSession } from '../../stores/session';
import { useTrading } from '../../stores/trading';
import { LineChart, type LineDef } from '../../ui/charts';
import { col, DataTable, type Columns } from '../../ui/DataTable';
import { Field, freeForm, KeyValues } from '../../ui/Field';
import { Empty, ErrorState, Loading, QueryView } from '../../ui/States';
import { TabbedPanel, type PanelTab } from '../../ui/TabbedPanel';

type Tab = 'milestones' | 'event' | 'weather' | 'index';

function details(d: Record<string, unknown>): [string, ReactNode][] {
  return Object.entries(d).map(([k, v]) => [k, freeForm(v)]);
}

function GameStats({ milestone }: { milestone: string }) {
  const q = useRest('getGameStats', { params: { milestone_id: milestone } }, { refetchInterval: 15_000 });
  if (q.isPending) return <Loading text="Loading game stats…" />;
  if (q.error) return <ErrorState error={q.error} onRetry={() => void q.refetch()} context="Game stats" />;
  if (!q.data.pbp) return <div className="dim">No play-by-play for this kind of milestone.</div>;
  return (
    <div className="col">
      {q.data.pbp.periods.map((p, i) => (
        <details key={i} open={i === (q.data.pbp?.periods.length ?? 0) - 1}>
          <summary>
            Period {i + 1} ({p.events.length} events)
          </summary>
          <ol className="u-m-0-pl-20">
            {p.events.map((e, j) => (
              <li key={j} className="mono u-fs-11">
                {Object.entries(e)
                  .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
                  .join('  ')}
              </li>
            ))}
          </ol>
        </details>
      ))}
    </div>
  );
}

function Milestones() {
  const ticker = useTrading((s) => s.ticker);
  const info = useMarketInfo(ticker);
  const ev = useRest('getEvents', info.eventTicker ? { query: { tickers: info.eventTicker, with_milestones: true, limit: 1 } } : undefined, { enabled: !!info.eventTicker });
  const milestones = ev.data?.milestones ?? [];
  const [typed, setTyped] = useState('');
  const [legacyType, setLegacyType] = useState('');
  const [picked, setPicked] = useState<string | null>(null);
  const id = picked ?? (typed.trim() || null);
  const idDebounced = useDebounced(id);
  const batch = useRest('getLiveDataBatch', { query: { milestone_ids: milestones.slice(0, 100).map((m) => m.id), include_player_stats: false } }, { enabled: milestones.length > 0, refetchInterval: 15_000 });
  const live = useRest('getMilestoneLiveData', idDebounced ? { params: { milestone_id: idDebounced }, query: { include_player_stats: true } } : undefined, {
    enabled: !!idDebounced && !legacyType.trim(),
    refetchInterval: 10_000,
  });
  const legacy = useRest('getLegacyMilestoneLiveData', idDebounced && legacyType.trim() ? { params: { type: legacyType.trim(), milestone_id: idDebounced }, query: { include_player_stats: true } } : undefined, {
    enabled: !!idDebounced && !!legacyType.trim(),
    refetchInterval: 10_000,
  });
  const q = legacyType.trim() ? legacy : live;
  const batchBy = new Map((batch.data?.live_datas ?? []).map((d) => [d.milestone_id ?? '', d]));
  return (
    <div className="split">
      <div className="u-fx-0-0-260px-br-1px-solid-var-border-ov-auto">
        <div className="section col">
          <Field label="Milestone id">
            <input value={typed} onChange={(e) => (setTyped(e.target.value), setPicked(null))} placeholder="milestone id" />
          </Field>
          <Field label="Type (legacy route, optional)">
            <input value={legacyType} onChange={(e) => setLegacyType(e.target.value)} placeholder="e.g. football" />
          </Field>
        </div>
        <div className="section">
          <h3>Milestones of {info.eventTicker ?? 'the selected event'}</h3>
          {!ticker ? (
            <div className="dim">Select a market to list its event's milestones.</div>
          ) : ev.isPending ? (
            <Loading text="Loading milestones…" />
          ) : ev.error ? (
            <ErrorState error={ev.error} onRetry={() => void ev.refetch()} />
          ) : milestones.length === 0 ? (
            <div className="dim">This event has no milestones.</div>
          ) : (
            <ul className="u-ls-none-m-0-p-0">
              {milestones.map((m) => (
                <li key={m.id}>
                  <button type="button" className={`btn btn-ghost btn-sm${id === m.id ? ' btn-on' : ''}`} onClick={() => setPicked(m.id)} style={{ width: '100%', justifyContent: 'flex-start' }}>
                    {m.title ?? m.id} <span className="faint">{batchBy.get(m.id)?.type ?? m.type ?? ''}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
      <div className="panel-body pad u-fx-1">
        {!id ? (
          <Empty>Pick a milestone or type its id.</Empty>
        ) : q.isPending ? (
          <Loading text={`Loading live data of ${id}…`} />
        ) : q.error ? (
          <ErrorState error={q.error} onRetry={() => void q.refetch()} context="Live data" />
        ) : q.data ? (
          <div className="col">
            <KeyValues entries={[['Type', q.data.live_data.type], ...details(q.data.live_data.details)]} />
            <h3 className="dim u-m-6px-0-0-fs-11-tt-uppercase">
              Game stats
            </h3>
            <GameStats milestone={id} />
          </div>
        ) : null}
      </div>
    </div>
  );
}

function EventLive() {
  const ticker = useTrading((s) => s.ticker);
  const info = useMarketInfo(ticker);
  const [range, setRange] = useState('');
  const q = useRest('getEventLiveData', info.eventTicker ? { params: { event_ticker: info.eventTicker }, query: range ? { range } : {} } : undefined, { enabled: !!info.eventTicker, refetchInterval: 15_000 });
  if (!ticker) return <Empty>Select a market to see its event's live data.</Empty>;
  if (!info.eventTicker) return <Loading text="Finding the event…" />;
  return (
    <div className="panel-body pad">
      <QueryView query={q} loading="Loading event live data…" context="Event live data">
        {(d) => (
          <div className="col">
            <div className="row">
              <strong>{info.eventTicker}</strong>
              <span className="badge">{d.live_data.type}</span>
              {d.live_data.is_historical && <span className="badge badge-warn">historical snapshot</span>}
              {(d.live_data.range_options?.length ?? 0) > 0 && (
                <select aria-label="Range" value={range || d.live_data.default_range || ''} onChange={(e) => setRange(e.target.value)}>
                  {d.live_data.range_options?.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              )}
            </div>
            <KeyValues entries={details(d.live_data.details)} />
          </div>
        )}
      </QueryView>
    </div>
  );
}

const calibrationColumns: Columns<WeatherCalibration> = [
  col<WeatherCalibration>({ id: 'effective', header: 'Effective', size: 130, accessorFn: (c) => c.effective_at_ms, cell: ({ getValue }) => fmtDateTime(getValue() as number) }),
  col<WeatherCalibration>({ id: 'version', header: 'Config', size: 90, accessorFn: (c) => c.config_version }),
  col<WeatherCalibration>({ id: 'ref', header: 'City ref °C', size: 80, accessorFn: (c) => c.city_reference_c, meta: { num: true } }),
  col<WeatherCalibration>({ id: 'stations', header: 'Stations (weight, offset °C)', accessorFn: (c) => (c.stations ?? []).map((s) => `${s.station_id} ${s.weight}/${s.offset_c}`).join(', ') }),
  col<WeatherCalibration>({ id: 'reason', header: 'Reason', size: 160, accessorFn: (c) => c.change_reason ?? '' }),
];

function Weather() {
  const [city, setCity] = useState('nyc');
  const [hours, setHours] = useState('24');
  const c = useDebounced(city.trim());
  const theme = useSession((s) => s.settings.theme);
  const lastSec = Math.max(1, (/^\d+$/.test(hours) ? Number(hours) : 24) * 3600);
  const idx = useRest('getWeatherIndex', c ? { params: { city: c }, query: { last_sec: lastSec } } : undefined, { enabled: !!c, refetchInterval: 60_000 });
  const cal = useRest('getWeatherCalibrations', c ? { params: { city: c } } : undefined, { enabled: !!c });
  const lines = useMemo<LineDef[]>(() => {
    const pts = (idx.data?.timeseries ?? []).filter((p) => p.v !== undefined).map((p) => ({ time: Math.floor(p.t / 1000), value: p.v! }));
    return pts.length ? [{ id: 'v', label: `${idx.data?.city ?? c} (${idx.data?.units ?? '°F'})`, points: pts }] : [];
  }, [idx.data, c]);
  const latest = idx.data?.timeseries.filter((p) => p.v !== undefined).at(-1);
  return (
    <div className="vsplit">
      <div className="panel-bar">
        <label className="check">
          City <input value={city} onChange={(e) => setCity(e.target.value)} className="u-w-80" />
        </label>
        <label className="check">
          Last hours <input className="num u-w-50" value={hours} onChange={(e) => setHours(e.target.value)} />
        </label>
        {latest && (
          <span>
            Latest <strong>{latest.v}</strong> {idx.data?.units} at {fmtTime(latest.t)} <span className="dim">({latest.status})</span>
          </span>
        )}
      </div>
      <div className="u-fx-1-1-55-d-flex-minh-0">
        {!c ? <Empty>Type a city code.</Empty> : idx.isPending ? <Loading text="Loading the weather index…" /> : idx.error ? <ErrorState error={idx.error} onRetry={() => void idx.refetch()} context="Weather index" /> : lines.length === 0 ? <Empty>No index values in this window.</Empty> : <LineChart lines={lines} theme={theme} decimals={1} label="Weather index" />}
      </div>
      <div className="u-fx-1-1-45-d-flex-minh-0-bt-1px-solid-var-border">
        <DataTable
          label="Weather calibrations"
          data={cal.data?.calibrations ?? []}
          columns={calibrationColumns}
          getRowId={(r) => `${r.config_version}-${r.effective_at_ms}`}
          loading={!!c && cal.isPending}
          loadingText="Loading calibrations…"
          error={cal.error}
          onRetry={() => void cal.refetch()}
          emptyText="No calibrations for this city."
        />
      </div>
    </div>
  );
}

type IndexValue = IndexValueView;

function IndexValues() {
  const [values, setValues] = useState<Record<string, IndexValue & { at: number }>>({});
  const [pyth, setPyth] = useState<Record<string, PythValueView>>({});
  useEffect(
    () =>
      getTerminalApi().on('market', (u) => {
        const indices = u.indices;
        if (indices.length) {
          setValues((prev) => {
            const next = { ...prev };
            for (const v of indices) next[v.index_id] = { ...v, at: Date.now() };
            return next;
          });
        }
        const prices = u.pyth ?? [];
        if (prices.length) {
          setPyth((prev) => {
            const next = { ...prev };
            for (const v of prices) next[v.underlying_ticker] = v;
            return next;
          });
        }
      }),
    [],
  );
  const rows = Object.values(values);
  const pythRows = Object.values(pyth).sort((a, b) => a.underlying_ticker.localeCompare(b.underlying_ticker));
  if (!rows.length && !pythRows.length)
    return (
      <Empty>
        No reference index values have arrived. They come from the exchange's index channels (cfbenchmarks_value, pyth_value) through main's 'market'
        stream; this terminal host is not forwarding them yet.
      </Empty>
    );
  return (
    <div className="panel-body">
      {rows.length > 0 && (
        <table className="grid" aria-label="CF Benchmarks indices">
          <thead>
            <tr>
              <th>Index</th>
              <th className="num">Value</th>
              <th className="num">60 s average</th>
              <th className="num">15 min settlement average</th>
              <th>Window</th>
              <th>Received</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((v) => (
              <tr key={v.index_id}>
                <td className="mono">{v.index_id}</td>
                <td className="num">{v.data}</td>
                <td className="num">{v.avg_60s_data.value}</td>
                <td className="num">{v.last_60s_windowed_average_15min?.value ?? '—'}</td>
                <td className="dim">
                  {fmtTime(v.avg_60s_data.window_start_ts_ms)}–{fmtTime(v.avg_60s_data.window_end_ts_exclusive)} ({v.avg_60s_data.window_size} pts)
                </td>
                <td className="dim">{fmtTime(v.received_at ?? v.at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pythRows.length > 0 && (
        <table className="grid" aria-label="Pyth prices">
          <thead>
            <tr>
              <th>Pyth underlying</th>
              <th className="num">Value (USD)</th>
              <th>Source time</th>
              <th>Received</th>
            </tr>
          </thead>
          <tbody>
            {pythRows.map((v) => (
              <tr key={v.underlying_ticker}>
                <td className="mono">{v.underlying_ticker}</td>
                <td className="num">{v.value_usd}</td>
                <td className="dim">{fmtTime(v.source_ts_ms)}</td>
                <td className="dim">{fmtTime(v.received_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

const LIVE_TABS: readonly PanelTab<Tab>[] = [
  { id: 'milestones', label: 'Milestones', render: () => <Milestones /> },
  { id: 'event', label: 'Event', render: () => <EventLive /> },
  { id: 'weather', label: 'Weather', render: () => <Weather /> },
  { id: 'index', label: 'Reference index', render: () => <IndexValues /> },
];

export function LiveDataPanel() {
  return <TabbedPanel label="Live data views" tabs={LIVE_TABS} />;
}
