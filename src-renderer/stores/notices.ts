// Toasts: notices from main, acks and errors from actions. Errors stay until dismissed.
import { create } from 'zustand';
import type { Notice } from '../../src-shared/ipc/contract';

export interface Toast extends Notice {
  id: number;
}

interface NoticesState {
  toasts: Toast[];
  push(n: Omit<Notice, 'ts'> & { ts?: number }): void;
  dismiss(id: number): void;
}

let nextId = 1;
// A few at a time: they sit over the blotters' corner, so they must not wall it off.
const LIMIT = 3;

export const useNotices = create<NoticesState>()((set, get) => ({
  toasts: [],
  push(n) {
    const toast: Toast = { ...n, ts: n.ts ?? Date.now(), id: nextId++ };
    set({ toasts: [...get().toasts, toast].slice(-LIMIT) });
    if (n.level !== 'error') setTimeout(() => get().dismiss(toast.id), n.level === 'warning' ? 8000 : 3000);
  },
  dismiss(id) {
    set({ toasts: get().toasts.filter((t) => t.id !== id) });
  },
}));

export function notify(level: Notice['level'], title: string, body = ''): void {
  useNotices.getState().push({ level, title, body });
}
