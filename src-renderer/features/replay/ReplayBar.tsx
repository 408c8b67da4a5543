// The replay bar: shown while a recording plays in the embedded exchange and the embedded profile
// is the active one (the Recordings panel's Replay starts one). Play or pause, the speed, a seek
// slider over the recording's time, and where the replay is. Native controls, so every part is
// reachable and usable by keyboard (Tab, Space, arrows on the slider and the list).
import { useCallback, useEffect, useState } from 'react';
import type { ReplaySpeed, ReplayView } from '../../../src-shared/ipc/contract';
import { getTerminalApi } from '../../lib/bridge';
import { fmtDateTimeMs, fmtInt } from '../../lib/format';
import { toastAction } from '../../hooks/useAction';
import { activeProfile, useSession } from '../../stores/session';
import { onReplayShown } from '../../stores/replay';

/** while a replay plays: its position moves on the slider */
const POLL_MS = 500;
/**
 * while none plays: only to notice one started elsewhere (another window of this terminal). Each
 * read is a call through main to the exchange, and the bar was asking twice a second all day.
 * One this page starts (the Recordings panel) is shown at once (`showReplay`).
 */
export const IDLE_POLL_MS = 5_000;
const SPEEDS: ReplaySpeed[] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 'max'];

export function ReplayBar() {
  const profile = useSession((s) => activeProfile(s));
  const embedded = profile?.kind === 'embedded';
  const [view, setView] = useState<ReplayView>({ active: false });
  /** the slider's value while the trader drags it (seek happens on release) */
  const [dragMs, setDragMs] = useState<number | null>(null);

  const refresh = useCallback(async () => {
    try {
      setView(await getTerminalApi().getReplay());
    } catch {
      setView({ active: false });
    }
  }, []);
  useEffect(() => {
    if (!embedded) return;
    void refresh();
    return onReplayShown(setView);
  }, [embedded, refresh]);
  // the pace follows whether one plays
  useEffect(() => {
    if (!embedded) return;
    const t = setInterval(() => void refresh(), view.active ? POLL_MS : IDLE_POLL_MS);
    return () => clearInterval(t);
  }, [embedded, refresh, view.active]);

  if (!embedded || !view.active) return null;
  const act = (what: string, f: () => Promise<ReplayView>) => void toastAction(`Replay: could not ${what}`, async () => setView(await f()));
  const api = getTerminalApi();
  const pos = dragMs ?? view.positionMs;
  const seek = (ms: number) => {
    setDragMs(null);
    act('seek', () => api.replayControl({ action: 'seek', tsMs: Math.round(ms) }));
  };
  return (
    <div className="replay-bar banner" role="region" aria-label="Replay" data-testid="replay-bar">
      <span className="badge badge-warn" title={view.recordingId ?? ''}>
        Replay{view.recordingId ? ` ${view.recordingId}` : ''}
      </span>
      <button type="button" className="btn btn-sm" aria-label={view.playing ? 'Pause replay' : 'Play replay'} onClick={() => act(view.playing ? 'pause' : 'play', () => api.replayControl({ action: view.playing ? 'pause' : 'play' }))} disabled={view.done && !view.playing}>
        {view.playing ? 'Pause' : 'Play'}
      </button>
      <label className="u-row">
        Speed{' '}
        <select
          aria-label="Replay speed"
          value={String(view.speed)}
          onChange={(e) => {
            const v = e.target.value;
            act('change the speed', () => api.replayControl({ action: 'speed', speed: v === 'max' ? 'max' : Number(v) }));
          }}
        >
          {SPEEDS.map((s) => (
            <option key={String(s)} value={String(s)}>
              {s === 'max' ? 'max' : `${s}x`}
            </option>
          ))}
        </select>
      </label>
      <input
        type="range"
        className="grow"
        aria-label="Replay position"
        aria-valuetext={fmtDateTimeMs(pos)}
        min={view.firstMs}
        max={Math.max(view.lastMs, view.firstMs + 1)}
        step={Math.max(1, Math.round((view.lastMs - view.firstMs) / 1000))}
        value={pos}
        onChange={(e) => setDragMs(Number(e.target.value))}
        onPointerUp={(e) => seek(Number((e.target as HTMLInputElement).value))}
        onKeyUp={(e) => {
          if (dragMs !== null) seek(Number((e.target as HTMLInputElement).value));
        }}
      />
      <span className="num" data-testid="replay-time">
        {fmtDateTimeMs(pos)}
      </span>
      <span className="num muted" data-testid="replay-rows">
        {fmtInt(view.row)} / {fmtInt(view.rows)} events{view.done ? ' · end' : ''}
      </span>
      {view.subaccount !== null && (
        <span className="muted" data-testid="replay-account" title="Orders placed while the replay is loaded go to the replay's own account (a subaccount), never the live one">
          trading in sub {view.subaccount}
        </span>
      )}
      {view.skippedMarkets.length > 0 && (
        <span className="muted" title={view.skippedMarkets.join('\n')}>
          {view.skippedMarkets.length} markets not open here
        </span>
      )}
      <button type="button" className="btn btn-sm" onClick={() => act('stop', () => api.stopReplay())}>
        Stop replay
      </button>
    </div>
  );
}
