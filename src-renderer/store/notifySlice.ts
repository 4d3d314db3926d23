/** Transient notifications (errors from actions), shown as toasts. */
import type { StateCreator } from 'zustand';
import type { AppState } from './index.js';

export interface Toast {
  id: number;
  kind: 'error' | 'info';
  text: string;
}

export interface NotifySlice {
  toasts: Toast[];
  notify(kind: Toast['kind'], text: string): void;
  dismiss(id: number): void;
}

let nextToast = 1;

export const createNotifySlice: StateCreator<AppState, [], [], NotifySlice> = (set, get) => ({
  toasts: [],
  notify: (kind, text) => {
    const id = nextToast++;
    set({ toasts: [...get().toasts.slice(-4), { id, kind, text }] });
    setTimeout(() => get().dismiss(id), kind === 'error' ? 8000 : 4000);
  },
  dismiss: (id) => set({ toasts: get().toasts.filter((t) => t.id !== id) }),
});

/** Turns a rejected action into a toast. */
export function describeError(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as Error & { code?: string }).code;
    return code && !err.message.includes(code) ? `${err.message} (${code})` : err.message;
  }
  return String(err);
}
