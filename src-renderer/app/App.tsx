// Composes the terminal: live wiring, the dockable panels, the status bar, overlays and the
// global keyboard map. Features never import each other; they meet here and in the stores.
import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getTerminalApi } from '../lib/bridge';
import { useCommand } from '../lib/commands';
import { formatCombo, isMacPlatform } from '../lib/keymap';
import { errorText } from '../lib/errors';
import { notify } from '../stores/notices';
import { useConnection } from '../stores/connection';
import { reseedAll } from '../stores/seed';
import { activeProfile, useSession } from '../stores/session';
import { useTrading } from '../stores/trading';
import { useOverlay } from '../stores/ui';
import { CommandPalette } from '../features/keyboard/CommandPalette';
import { HelpOverlay } from '../features/keyboard/HelpOverlay';
import { useGlobalHotkeys } from '../features/keyboard/useGlobalHotkeys';
import { SettingsDialog } from '../features/settings/SettingsDialog';
import { useFontSize } from '../features/settings/font-size';
import { StatusBar } from '../features/status/StatusBar';
import { ReplayBar } from '../features/replay/ReplayBar';
import { useTradingCommands } from '../features/ticket/useTradingCommands';
import { useRiskCommands } from '../features/risk/useRiskCommands';
import { KillReleaseHost } from '../features/risk/KillReleaseDialog';
import { useReverseCommand } from '../features/ticket/reverse';
import { ConfirmHost } from '../ui/confirm';
import { exportFocusedTable } from '../ui/DataTable';
import { ErrorState } from '../ui/States';
import { Toasts } from '../ui/Toasts';
import { DockLayout } from './Layout';
import { loadAppState, startLive } from './live';
import { startWatching } from './watch';
import { startHeatHistory } from '../features/heatmap/heat-history';

function useAppCommands() {
  const show = useOverlay((s) => s.show);
  const open = useOverlay((s) => s.open);
  useCommand('app.palette', () => show(open === 'palette' ? null : 'palette'));
  useCommand('app.help', () => show(open === 'help' ? null : 'help'));
  useCommand('app.settings', () => show(open === 'settings' ? null : 'settings'));
  useCommand('app.toggleTheme', () => {
    const s = useSession.getState();
    s.saveSettings({ theme: s.settings.theme === 'dark' ? 'light' : 'dark' }).catch((err: unknown) => notify('error', 'Could not save the theme', errorText(err)));
  });
  useCommand('app.exportCsv', () => {
    if (!exportFocusedTable()) notify('info', 'No blotter to export', 'Focus a table first, then export.');
  });
}

function TopBar() {
  const ticker = useTrading((s) => s.ticker);
  const profile = useSession((s) => activeProfile(s));
  const keymap = useSession((s) => s.keymap);
  const show = useOverlay((s) => s.show);
  const mac = isMacPlatform();
  const k = (id: string) => (keymap[id] ? formatCombo(keymap[id]!, mac) : '');
  return (
    <header className="app-top">
      <span className="app-brand">Event Terminal</span>
      <span className="dim">{profile ? `${profile.name}` : 'no profile'}</span>
      {ticker && <span className="mono">{ticker}</span>}
      <span className="grow" />
      <button type="button" className="btn btn-sm" onClick={() => show('palette')} title="Command palette">
        Commands <span className="kbd">{k('app.palette')}</span>
      </button>
      <button type="button" className="btn btn-sm" onClick={() => show('help')} title="Keyboard help">
        Keys <span className="kbd">{k('app.help')}</span>
      </button>
      <button type="button" className="btn btn-sm" onClick={() => show('layouts')} title="Save the layout as a name, switch to a saved one, delete one, reset">
        Layouts <span className="kbd">{k('layout.manage')}</span>
      </button>
      <button type="button" className="btn btn-sm" onClick={() => show('settings')} title="Settings">
        Settings
      </button>
    </header>
  );
}

function BridgeBanner() {
  const bridge = useConnection((s) => s.bridge);
  if (bridge.phase === 'open' || bridge.phase === 'connecting') return null;
  return (
    <div className={`banner ${bridge.phase === 'refused' ? 'banner-error' : 'banner-warn'}`} role="alert">
      <span className="spinner" aria-hidden="true" />
      <span className="grow">
        {bridge.phase === 'refused' ? 'The terminal host refused this page.' : 'Lost the connection to the terminal host; reconnecting.'} {bridge.detail}. Live data is paused; orders cannot be sent until it is back.
      </span>
      <button type="button" className="btn btn-sm" onClick={() => getTerminalApi().bridge.retryNow()}>
        Retry now
      </button>
    </div>
  );
}

export function App() {
  const qc = useQueryClient();
  const theme = useSession((s) => s.settings.theme);
  const loadError = useSession((s) => s.loadError);
  const profileId = useSession((s) => s.app?.activeProfileId ?? null);
  const hasApp = useSession((s) => s.app !== null);

  useEffect(() => {
    const api = getTerminalApi();
    const stopLive = startLive(api, qc);
    const stopWatch = startWatching();
    // the depth heatmaps' history of the linked markets, from the start (a heatmap opened later shows it)
    const stopHeat = startHeatHistory();
    void loadAppState(api);
    return () => {
      stopLive();
      stopWatch();
      stopHeat();
    };
  }, [qc]);

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  // a new profile is a new account: its own watchlist, orders, positions and cached reads
  const seenProfile = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (!hasApp) return;
    useTrading.getState().useWatchlistOf(profileId);
    reseedAll();
    if (seenProfile.current !== undefined && seenProfile.current !== profileId) void qc.invalidateQueries();
    seenProfile.current = profileId;
  }, [profileId, hasApp, qc]);

  useAppCommands();
  useFontSize();
  useTradingCommands();
  useReverseCommand();
  useRiskCommands();
  useGlobalHotkeys();

  return (
    <div className="app">
      <TopBar />
      <BridgeBanner />
      {loadError !== null && loadError !== undefined && (
        <div className="banner banner-error" role="alert">
          <div className="grow">
            <ErrorState error={loadError} context="Could not load the terminal state" onRetry={() => void loadAppState(getTerminalApi())} />
          </div>
        </div>
      )}
      <ReplayBar />
      <DockLayout />
      <StatusBar />
      <Toasts />
      <ConfirmHost />
      <KillReleaseHost />
      <CommandPalette />
      <HelpOverlay />
      <SettingsDialog />
    </div>
  );
}
