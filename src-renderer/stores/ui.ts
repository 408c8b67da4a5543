// Which overlay is open. Only one at a time; hotkeys pause while any is open.
import { create } from 'zustand';

export type Overlay = 'palette' | 'help' | 'settings' | 'layouts' | null;

export const useOverlay = create<{ open: Overlay; show(o: Overlay): void }>()((set) => ({
  open: null,
  show(open) {
    set({ open });
  },
}));
