// Wires main's view streams into the stores, and recovers after the bridge reconnects: fresh app
// state, the watch list re-sent, private stores re-seeded, cached reads invalidated.
import type { QueryClient } from '@tanstack/react-query';
import type { BridgedApi } from '../lib/bridge';
import { applyBookPushes, forgetBookSeqs } from '../stores/books';
import { useConnection } from '../stores/connection';
import { applyMarketUpdate } from '../stores/market';
import { useNotices } from '../stores/notices';
import { applyPrivateUpdate } from '../stores/private';
import { setRiskView } from '../stores/risk';
import { setAlertsView, setLocalView } from '../stores/tools';
import { setFixView } from '../stores/fix';
import { chime } from '../lib/sound';
import { reseedAll } from '../stores/seed';
import { useSession } from '../stores/session';
import { resendWatch, watchFailed } from './watch';
import { runCommand } from '../lib/commands';

/** The app menu's items (Electron) by the name main sends, and the action each runs. */
export const MENU_COMMANDS: Record<string, string> = {
  palette: 'app.palette',
  help: 'app.help',
  'cancel-all-market': 'trade.cancelAllMarket',
  'release-kill-switch': 'risk.releaseKill',
  'save-layout-as': 'layout.saveAs',
  layouts: 'layout.manage',
};

export async function loadAppState(api: BridgedApi): Promise<void> {
  try {
    const app = await api.getAppState();
    useSession.getState().setApp(app);
    useConnection.setState({ view: app.connection });
    setRiskView(app.risk);
    const [alerts, local, fix] = await Promise.all([api.getAlerts(), api.getLocalOrders(), api.getFix()]);
    setAlertsView(alerts);
    setLocalView(local);
    setFixView(fix);
  } catch (err) {
    useSession.getState().setLoadError(err);
  }
}

/**
 * Whether a call the page queued before its bridge first opened has already failed (a queued call
 * fails once it waited the bridge's queue timeout, or at once when the bridge is closed): then
 * the first open recovers as a reconnect does. The app state is the first call the page makes,
 * so its failure says the queue timed out; a failed read or watch says so too.
 */
function failedBeforeFirstOpen(queryClient: QueryClient): boolean {
  if (useSession.getState().loadError !== null) return true;
  if (watchFailed()) return true;
  return queryClient.getQueryCache().findAll({ predicate: (q) => q.state.status === 'error' }).length > 0;
}

export function startLive(api: BridgedApi, queryClient: QueryClient): () => void {
  let wasOpen = api.bridge.status().phase === 'open';
  /** whether the bridge has been open since the page started (Electron's always is) */
  let everOpen = wasOpen;
  const offs = [
    // only the levels that changed; a gap in a market's seq asks main for its full view
    api.on('books', (pushes) => void applyBookPushes(pushes, (tickers) => api.bookSnapshots(tickers))),
    api.on('market', applyMarketUpdate),
    api.on('private', (u) => {
      applyPrivateUpdate(u);
      if (u.reset) {
        reseedAll();
        void queryClient.invalidateQueries({ queryKey: ['rest'] });
      }
      // Fill notices come from main (one source: it also raises native notifications in Electron).
    }),
    api.on('connection', (view) => {
      const prev = useConnection.getState().view;
      useConnection.setState({ view });
      // a fresh session with the exchange: what we hold may be stale
      if (prev && prev.phase !== 'live' && view.phase === 'live') reseedAll();
    }),
    api.on('risk', setRiskView),
    api.on('notices', (n) => {
      if ((n.source === 'fill' || (n.level === 'success' && /^Filled /.test(n.title))) && !useSession.getState().settings.notifyOnFill) return;
      useNotices.getState().push(n);
      if (n.sound && useSession.getState().app?.shell !== 'electron') chime();
    }),
    api.on('alerts', setAlertsView),
    api.on('local', setLocalView),
    api.on('fix', setFixView),
    // App-menu accelerators (Electron) name an action; run it like its key would.
    api.on('commands', ({ command }) => {
      const id = MENU_COMMANDS[command];
      if (id) runCommand(id, 'menu');
    }),
    api.bridge.onStatus((status) => {
      useConnection.setState({ bridge: status });
      const open = status.phase === 'open';
      // The first open of the page's bridge is not a reconnect: the calls the page made while it
      // connected (the app state, the watch list, every read) were queued and have just gone out
      // on it. Recovering as after a reconnect sent each of them a second time at every start (and
      // every cached read a third time once main's private session reset), unless a queued call
      // already gave up (failedBeforeFirstOpen).
      const reopened = open && !wasOpen && (everOpen || failedBeforeFirstOpen(queryClient));
      if (open) everOpen = true;
      if (reopened) {
        // main may have restarted (its seqs start over): the watch re-sent below brings full views
        forgetBookSeqs();
        void loadAppState(api).then(() => {
          resendWatch();
          reseedAll();
          void queryClient.invalidateQueries();
        });
      }
      wasOpen = open;
    }),
  ];
  useConnection.setState({ bridge: api.bridge.status() });
  return () => offs.forEach((off) => off());
}
