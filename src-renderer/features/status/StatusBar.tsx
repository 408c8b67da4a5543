// The status bar: this page's link to main, main's connection to the exchange (phase, latency,
// reconnects), exchange and per-shard trading status, the schedule and the next maintenance
// window, rate-limit headroom, the active profile.
import { memo, useEffect, useState } from 'react';
import type { ConnectionView } from '../../../src-shared/ipc/contract';
import { getTerminalApi } from '../../lib/bridge';
import { fmtDateTime, fmtDuration, toDate } from '../../lib/format';
import { useRest } from '../../hooks/useRest';
import { useConnection } from '../../stores/connection';
import { activeProfile, useSession } from '../../stores/session';
import { useRisk } from '../../stores/risk';
import { useFix } from '../../stores/fix';
import { engageKillSwitch, releaseKillSwitch } from '../../services/risk';

/** Always visible: whether new orders can leave at all, and the one click that stops everything. */
// memo: no props, so the bar's re-render on every connection view (latency, limits) skips it
const KillSwitchItem = memo(function KillSwitchItem() {
  const ks = useRisk((s) => s.view?.killSwitch);
  const hasProfile = useRisk((s) => !!s.view?.profileId);
  if (!hasProfile) return null;
  return ks?.engaged ? (
    <span className="item" role="status" aria-live="polite" title={ks.detail}>
      <span className="kill-engaged">KILL SWITCH ON</span>
      <span className="dim">orders refused</span>
      <button type="button" className="btn btn-sm" onClick={() => void releaseKillSwitch()}>
        Release…
      </button>
    </span>
  ) : (
    <span className="item">
      <button type="button" className="btn btn-sm btn-danger" title="Cancel every resting order and refuse new ones (Ctrl/Cmd+Shift+K)" onClick={() => void engageKillSwitch()}>
        Kill switch
      </button>
    </span>
  );
});

/**
 * FIX, when the profile uses it: the order entry session (orders go over REST while it is down)
 * and the drop copy, red with a count when it and the terminal disagree on some order.
 */
const FixItem = memo(function FixItem() {
  const v = useFix((s) => s.view);
  const oe = v?.orderEntry ?? null;
  const dc = v?.dropCopy ?? null;
  if (!oe && !dc) return null;
  const n = dc?.disagreements.length ?? 0;
  const dcTitle = dc ? (n ? dc.disagreements.map((d) => `${d.orderId} ${d.ticker}: drop copy ${d.dropCopy}, terminal ${d.terminal}`).join('\n') : `drop copy ${dc.phase}: ${dc.detail}`) : '';
  return (
    <span className="item" role="status" aria-label="FIX">
      {oe && (
        <span title={`FIX order entry ${oe.phase} (${oe.endpoint}): ${oe.detail}${oe.phase === 'up' ? '' : '. Orders go over REST meanwhile.'}`}>
          <span className={oe.phase === 'up' ? 'dot dot-ok' : 'dot dot-warn'} aria-hidden="true" />
          FIX {oe.phase === 'up' ? 'up' : `${oe.phase} · REST`}
        </span>
      )}
      {dc && (
        <span title={dcTitle} className={n ? 'neg' : dc.phase === 'up' ? '' : 'dim'}>
          {n ? `⚠ Drop copy: ${n} disagreement${n === 1 ? '' : 's'}` : dc.phase === 'up' ? 'DC agrees' : `DC ${dc.phase}`}
        </span>
      )}
    </span>
  );
});

/** A tiny line of the last values (oldest left), scaled to its own range. */
function Sparkline({ values, label }: { values: readonly number[]; label: string }) {
  if (values.length < 2) return null;
  const w = 48;
  const h = 12;
  const max = Math.max(...values);
  const min = Math.min(...values);
  const span = max - min || 1;
  const points = values.map((v, i) => `${((i / (values.length - 1)) * w).toFixed(1)},${(h - ((v - min) / span) * (h - 2) - 1).toFixed(1)}`).join(' ');
  return (
    <svg className="sparkline" width={w} height={h} viewBox={`0 0 ${w} ${h}`} role="img" aria-label={label}>
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1" />
    </svg>
  );
}

/** Round trips a trader feels: the stream's ping (with its recent history) and order acknowledgements. */
function LatencyItem({ view }: { view: ConnectionView }) {
  const hist = view.latencyHistory ?? [];
  const ack = view.orderAck ?? null;
  if (view.latencyMs == null && !ack) return null;
  return (
    <span className="item" title={`Stream ping round trip${hist.length ? `, last ${hist.length}: ${hist.join(', ')} ms` : ''}${ack ? `\nOrder acknowledgements: last ${ack.lastMs} ms, median ${ack.p50Ms} ms of ${ack.count}` : ''}`}>
      {view.latencyMs != null && (
        <>
          ping <span className="num-cell">{Math.round(view.latencyMs)}</span> ms
        </>
      )}
      <Sparkline values={hist} label={`Ping history, last ${hist.length} round trips`} />
      {ack && (
        <span className="dim">
          {view.latencyMs != null ? '· ' : ''}ack {ack.lastMs} ms (p50 {ack.p50Ms})
        </span>
      )}
    </span>
  );
}

/** The offset applied to signing timestamps, and why signing stopped when it is too far off. */
function ClockItem({ view }: { view: ConnectionView }) {
  if (view.clockProblem) {
    return (
      <span className="item neg" role="alert" title={view.clockProblem}>
        ⚠ Clock: not signing
      </span>
    );
  }
  // within the Date header's 1 s resolution nothing is corrected, so nothing to say
  if (view.clockOffsetMs === null || Math.abs(view.clockOffsetMs) < 1000) return null;
  const s = view.clockOffsetMs / 1000;
  return (
    <span className="item" title="The exchange's clock differs from this computer's; signed timestamps are corrected by this much (refused beyond 30 s)">
      clock {s > 0 ? '+' : ''}
      {s.toFixed(1)} s
    </span>
  );
}

const PHASE_TEXT: Record<ConnectionView['phase'], string> = {
  idle: 'Not connected',
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  unauthorized: 'Key refused',
  offline: 'Offline',
};

function dotFor(phase: ConnectionView['phase'] | undefined): string {
  if (phase === 'live') return 'dot dot-ok';
  if (phase === 'connecting' || phase === 'reconnecting') return 'dot dot-warn';
  if (phase === 'unauthorized' || phase === 'offline') return 'dot dot-error';
  return 'dot';
}

/**
 * A rate-limit meter. It changes every second or so, so nothing in it changes a box's size: the bar
 * is scaled (a transform: painted, never laid out) and the figure sits in a cell of fixed width.
 */
function Meter({ label, available, capacity }: { label: string; available: number; capacity: number }) {
  const pct = capacity > 0 ? Math.max(0, Math.min(100, Math.round((available / capacity) * 100))) : 0;
  return (
    <span className="item" title={`${label} tokens: ${Math.floor(available)} of ${capacity} available`}>
      {label}
      <span className={`meter${pct < 25 ? ' low' : ''}`} role="meter" aria-label={`${label} rate-limit headroom`} aria-valuenow={pct} aria-valuemin={0} aria-valuemax={100}>
        <span style={{ transform: `scaleX(${pct / 100})` }} />
      </span>
      <span className="num-cell pct-cell">{pct}%</span>
    </span>
  );
}

function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}

const Maintenance = memo(function Maintenance() {
  const schedule = useRest('getExchangeSchedule', undefined, { staleTime: 300_000, refetchInterval: 300_000 });
  const announcements = useRest('getExchangeAnnouncements', undefined, { staleTime: 300_000, refetchInterval: 600_000 });
  const now = useNow(30_000);
  if (schedule.error) return <span className="item" title={String((schedule.error as Error).message)}>schedule unavailable</span>;
  const windows = (schedule.data?.schedule.maintenance_windows ?? [])
    .map((w) => ({ start: toDate(w.start)?.getTime() ?? 0, end: toDate(w.end)?.getTime() ?? 0 }))
    .filter((w) => w.end > now)
    .sort((a, b) => a.start - b.start);
  const next = windows[0];
  const hours = (schedule.data?.schedule.standard_hours ?? []).map((h) => `${h.start_time}–${h.end_time}`).join(', ');
  const notices = (announcements.data?.announcements ?? []).filter((a) => a.status !== 'inactive');
  return (
    <>
      {next ? (
        <span className={`item${next.start <= now ? ' neg' : ''}`} title={`Maintenance ${fmtDateTime(next.start)} to ${fmtDateTime(next.end)}${hours ? `. Standard hours: ${hours}` : ''}`}>
          {next.start <= now ? `⚠ Maintenance until ${fmtDateTime(next.end)}` : `Maintenance in ${fmtDuration(next.start - now)}`}
        </span>
      ) : schedule.data ? (
        <span className="item" title={hours ? `Standard hours: ${hours}` : 'No standard hours published'}>
          No maintenance scheduled
        </span>
      ) : null}
      {notices.length > 0 && (
        <span className="item" title={notices.map((n) => `${n.type}: ${n.message}`).join('\n')}>
          {notices.length} exchange notice{notices.length === 1 ? '' : 's'}
        </span>
      )}
    </>
  );
});

/** The page's link to main while it is down, with the countdown to the next try (the only 1 s clock of the bar). */
function HostLinkItem() {
  const bridge = useConnection((s) => s.bridge);
  const now = useNow(1000);
  return (
    <span className="item" role="status">
      <span className={bridge.phase === 'refused' ? 'dot dot-error' : 'dot dot-warn'} />
      Host link: {bridge.phase === 'connecting' ? 'connecting…' : bridge.phase === 'refused' ? 'refused' : `reconnecting (attempt ${bridge.attempt}${bridge.retryAt ? `, next in ${fmtDuration(Math.max(0, bridge.retryAt - now))}` : ''})`}
      <button type="button" className="btn btn-sm" onClick={() => getTerminalApi().bridge.retryNow()}>
        Retry
      </button>
    </span>
  );
}

export function StatusBar() {
  const view = useConnection((s) => s.view);
  const bridgeDown = useConnection((s) => s.bridge.phase !== 'open');
  const profile = useSession((s) => activeProfile(s));
  const shell = useSession((s) => s.app?.shell);
  return (
    <footer className="statusbar" role="contentinfo" aria-label="Status">
      {bridgeDown ? <HostLinkItem /> : null}
      {bridgeDown ? (
        <span className="item dim" title="Main's connection to the exchange cannot be seen while this page is cut off from main">
          <span className="dot" aria-hidden="true" />
          Exchange: unknown
        </span>
      ) : (
        <span className="item" title={view?.detail ?? ''} role="status">
          <span className={dotFor(view?.phase)} aria-hidden="true" />
          {view ? PHASE_TEXT[view.phase] : 'Waiting for main…'}
          {view && view.phase !== 'live' && view.detail ? <span className="dim">: {view.detail}</span> : null}
        </span>
      )}
      {!bridgeDown && view && <LatencyItem view={view} />}
      {!bridgeDown && view && <ClockItem view={view} />}
      {view && view.reconnects > 0 && <span className="item">{view.reconnects} reconnect{view.reconnects === 1 ? '' : 's'}</span>}
      {view?.exchange && (
        <span className="item" title={view.exchange.shards.map((s) => `${s.label} (shard ${s.index}): trading ${s.tradingActive ? 'on' : 'halted'}`).join('\n')}>
          Exchange {view.exchange.exchangeActive ? 'open' : 'closed'} · trading {view.exchange.tradingActive ? 'on' : <strong className="neg">halted</strong>}
          {view.exchange.shards.length > 1 &&
            view.exchange.shards.map((s) => (
              <span key={s.index} className={`badge${s.tradingActive ? '' : ' badge-error'}`}>
                {s.label}
                {s.tradingActive ? '' : ' halted'}
              </span>
            ))}
        </span>
      )}
      <Maintenance />
      <span className="grow" />
      <FixItem />
      <KillSwitchItem />
      {view?.limits && (
        <>
          <Meter label="Read" available={view.limits.read.available} capacity={view.limits.read.capacity} />
          <Meter label="Write" available={view.limits.write.available} capacity={view.limits.write.capacity} />
        </>
      )}
      {profile && (
        <span className="item" title={`${profile.baseUrl}${view?.userId ? `\nuser ${view.userId}` : ''}`}>
          {profile.name} ({profile.kind}){view?.isFcmMember ? ' · FCM' : ''}
        </span>
      )}
      {shell && <span className="item faint">{shell}</span>}
    </footer>
  );
}
