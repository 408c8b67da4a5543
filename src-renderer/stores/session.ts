// The app's state from main (profiles, active profile, shell) and the user's settings. Settings
// are saved through api.saveSettings; the key map is resolved here once for every reader.
import { create } from 'zustand';
import type { AppState, Settings } from '../../src-shared/ipc/contract';
import { DEFAULT_SETTINGS } from '../../src-shared/ipc/defaults';

export { DEFAULT_SETTINGS };
import { getTerminalApi } from '../lib/bridge';
import { resolveKeymap, type Keymap } from '../lib/keymap';


export interface SessionState {
  app: AppState | null;
  loadError: unknown;
  settings: Settings;
  keymap: Keymap;
  setApp(app: AppState): void;
  setLoadError(err: unknown): void;
  /** asks main for the app state again (after a profile or key change) */
  reload(): Promise<void>;
  /** applies at once, then persists; rolls back and rethrows when main refuses */
  saveSettings(patch: Partial<Settings>): Promise<void>;
}

export const useSession = create<SessionState>()((set, get) => ({
  app: null,
  loadError: null,
  settings: DEFAULT_SETTINGS,
  keymap: resolveKeymap(),
  setApp(app) {
    set({ app, loadError: null, settings: app.settings, keymap: resolveKeymap(app.settings.keymap) });
  },
  setLoadError(err) {
    set({ loadError: err });
  },
  async reload() {
    get().setApp(await getTerminalApi().getAppState());
  },
  async saveSettings(patch) {
    const before = get().settings;
    const settings = { ...before, ...patch };
    set({ settings, keymap: resolveKeymap(settings.keymap) });
    try {
      await getTerminalApi().saveSettings(settings);
    } catch (err) {
      set({ settings: before, keymap: resolveKeymap(before.keymap) });
      throw err;
    }
  },
}));

export function activeProfile(s: Pick<SessionState, 'app'>) {
  const app = s.app;
  return app?.profiles.find((p) => p.id === app.activeProfileId) ?? null;
}
