/** Connection to the engine: state, mode and the engine's kernel name. */
import type { StateCreator } from 'zustand';
import type { AppState } from './index.js';

export interface ConnectionSlice {
  connection: 'connecting' | 'ready' | 'lost';
  connectionError: string | null;
  kernel: string;
  mode: 'web' | 'electron';
  /** The engine died and this one replaced it (shown as a banner until dismissed). */
  engineRestarted: boolean;
  setConnection(
    state: Partial<
      Pick<
        ConnectionSlice,
        'connection' | 'connectionError' | 'kernel' | 'mode' | 'engineRestarted'
      >
    >,
  ): void;
}

export const createConnectionSlice: StateCreator<AppState, [], [], ConnectionSlice> = (set) => ({
  connection: 'connecting',
  connectionError: null,
  kernel: '',
  mode: 'web',
  engineRestarted: false,
  setConnection: (state) => set(state),
});
