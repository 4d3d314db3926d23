/** A sandbox without shells: no session states to keep (the benchmark times files only). */
import type { SessionStateSource } from '../../src-worker/timeline/host.js';

export const NO_SESSION_STATES: SessionStateSource = {
  sessionStates: () => new Map(),
  restoreSessionStates: async () => undefined,
};
