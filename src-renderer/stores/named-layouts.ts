// The active profile's named layouts ("Save layout as…"): the list as main last answered, and the
// calls that change it. Main keeps them (per profile, across restarts) and is the judge of a name
// (src-shared/ipc/layout-name.ts, which the dialog also reads as the name is typed).
import { create } from 'zustand';
import type { NamedLayoutsView } from '../../src-shared/ipc/contract';
import { getTerminalApi } from '../lib/bridge';

export type NamedLayoutEntry = NamedLayoutsView['layouts'][number];

interface NamedLayoutsState {
  profileId: string | null;
  /** null until main has answered for this profile */
  layouts: NamedLayoutEntry[] | null;
  loadError: unknown;
  /** the named layout saved or switched to last (this session), marked in the list */
  current: string | null;
  refresh(profileId: string | null): Promise<void>;
  /** Saves the layout under a name (replacing one of that name); main's refusal is thrown. */
  saveAs(profileId: string, name: string, layout: unknown): Promise<void>;
  /** The saved layout of that name, as main keeps it. */
  read(profileId: string, name: string): Promise<unknown>;
  remove(profileId: string, name: string): Promise<void>;
}

export const useNamedLayouts = create<NamedLayoutsState>()((set, get) => ({
  profileId: null,
  layouts: null,
  loadError: null,
  current: null,
  async refresh(profileId) {
    if (get().profileId !== profileId) set({ profileId, layouts: null, current: null });
    if (!profileId) return;
    set({ loadError: null });
    try {
      const view = await getTerminalApi().listNamedLayouts(profileId);
      if (get().profileId === profileId) set({ layouts: view.layouts });
    } catch (err) {
      if (get().profileId === profileId) set({ loadError: err });
    }
  },
  async saveAs(profileId, name, layout) {
    const view = await getTerminalApi().saveNamedLayout({ profileId, name, layout });
    if (get().profileId === profileId) set({ layouts: view.layouts, current: name.trim(), loadError: null });
  },
  async read(profileId, name) {
    const layout = await getTerminalApi().getNamedLayout({ profileId, name });
    if (get().profileId === profileId) set({ current: name });
    return layout;
  },
  async remove(profileId, name) {
    const view = await getTerminalApi().deleteNamedLayout({ profileId, name });
    if (get().profileId === profileId) set((s) => ({ layouts: view.layouts, current: s.current === name ? null : s.current }));
  },
}));
