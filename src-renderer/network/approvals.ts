/**
 * Pending network approvals: the engine's `request` events of kind
 * `approval`, queued oldest first until answered here, elsewhere, cancelled
 * or timed out (`requestClosed`). Its own small store, so the dialog and the
 * status bar read it without touching the app's slices.
 */
import { create } from 'zustand';
import type { EngineRequest, RequestAnswer } from '../../src-worker/contract/api.js';

export interface ApprovalsState {
  pending: EngineRequest[];
  /** Requests answered here whose answer is on its way (buttons disabled). */
  sending: ReadonlySet<string>;
  add(request: EngineRequest): void;
  closed(requestId: string): void;
  /** Sends the answer; the request leaves the queue when the engine closes it. */
  answer(requestId: string, answer: RequestAnswer): Promise<void>;
}

/** How an answer reaches the engine (set at startup to the API client's `answer`). */
let send: (requestId: string, answer: RequestAnswer) => Promise<unknown> = () =>
  Promise.reject(new Error('not connected to the engine'));

export function setAnswerSender(fn: typeof send): void {
  send = fn;
}

export const useApprovals = create<ApprovalsState>()((set, get) => ({
  pending: [],
  sending: new Set(),
  add: (request) => {
    if (request.kind !== 'approval' || get().pending.some((r) => r.id === request.id)) return;
    set({ pending: [...get().pending, request] });
  },
  closed: (requestId) => {
    const sending = new Set(get().sending);
    sending.delete(requestId);
    set({ pending: get().pending.filter((r) => r.id !== requestId), sending });
  },
  answer: async (requestId, answer) => {
    set({ sending: new Set(get().sending).add(requestId) });
    try {
      await send(requestId, answer);
      get().closed(requestId);
    } catch {
      // Answered elsewhere or gone: requestClosed removes it; allow a retry meanwhile.
      const sending = new Set(get().sending);
      sending.delete(requestId);
      set({ sending });
    }
  },
}));

/** The answers the dialog offers, with their keys. */
export const CHOICES = [
  { key: 'a', label: 'Allow once', answer: { allow: true, remember: 'once' } },
  { key: 's', label: 'Allow host for this session', answer: { allow: true, remember: 'session' } },
  { key: 'w', label: 'Always allow host', answer: { allow: true, remember: 'always' } },
  { key: 'd', label: 'Deny', answer: { allow: false, remember: 'once' } },
  { key: 'n', label: 'Always deny host', answer: { allow: false, remember: 'always' } },
] as const satisfies readonly { key: string; label: string; answer: RequestAnswer }[];

/** The choice a key press picks: Enter allows once, Escape denies, letters as labelled. */
export function choiceForKey(key: string): (typeof CHOICES)[number] | undefined {
  if (key === 'Enter') return CHOICES[0];
  if (key === 'Escape') return CHOICES[3];
  return CHOICES.find((c) => c.key === key.toLowerCase());
}
