// Toasts: notices from main, acks and errors from actions. Each goes by itself (an error after
// 20 s, long enough to read; the dismiss button sooner); the same notice again is counted on the
// one shown instead of stacking another over the blotters.
import { create } from 'zustand';
import type { Notice } from '../../src-shared/ipc/contract';

export interface Toast extends Notice {
  id: number;
  /** how many times this same notice came (shown as ×N from 2) */
  repeat: number;
}

interface NoticesState {
  toasts: Toast[];
  push(n: Omit<Notice, 'ts'> & { ts?: number }): void;
  dismiss(id: number): void;
}

let nextId = 1;
// A few at a time: they sit over the blotters' corner, so they must not wall it off.
const LIMIT = 3;
const SHOWN_MS: Record<Notice['level'], number> = { error: 20_000, warning: 8_000, success: 3_000, info: 3_000 };
const timers = new Map<number, ReturnType<typeof setTimeout>>();

export const useNotices = create<NoticesState>()((set, get) => {
  const expireLater = (t: Toast) => {
    clearTimeout(timers.get(t.id));
    timers.set(t.id, setTimeout(() => get().dismiss(t.id), SHOWN_MS[t.level] ?? 3_000));
  };
  return {
    toasts: [],
    push(n) {
      const same = get().toasts.find((t) => t.level === n.level && t.title === n.title && (t.body ?? '') === (n.body ?? ''));
      if (same) {
        const again: Toast = { ...same, ts: n.ts ?? Date.now(), repeat: same.repeat + 1 };
        set({ toasts: [...get().toasts.filter((t) => t.id !== same.id), again] });
        expireLater(again);
        return;
      }
      const toast: Toast = { ...n, ts: n.ts ?? Date.now(), id: nextId++, repeat: 1 };
      set({ toasts: [...get().toasts, toast].slice(-LIMIT) });
      expireLater(toast);
    },
    dismiss(id) {
      clearTimeout(timers.get(id));
      timers.delete(id);
      set({ toasts: get().toasts.filter((t) => t.id !== id) });
    },
  };
});

export function notify(level: Notice['level'], title: string, body = ''): void {
  useNotices.getState().push({ level, title, body });
}
