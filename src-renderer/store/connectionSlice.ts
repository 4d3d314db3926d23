/** Connection to the engine: state, mode and the engine's kernel name. */
import type { StateCreator } from 'zustand';
import type { AppState } from './index.js';

export interface ConnectionSlice {
  connection: 'connecting' | 'ready' | 'lost';
  connectionError: string | null;
  kernel: string;
  mode: 'web' | 'electron';
  setConnection(
    state: Partial<Pick<ConnectionSlice, 'connection' | 'connectionError' | 'kernel' | 'mode'>>,
  ): void;
}

export const createConnectionSlice: StateCreator<AppState, [], [], ConnectionSlice> = (set) => ({
  connection: 'connecting',
  connectionError: null,
  kernel: '',
  mode: 'web',
  setConnection: (state) => set(state),
});
