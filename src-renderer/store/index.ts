/** The one bound store, made of slices. */
import { create } from 'zustand';
import { createAgentsSlice, type AgentsSlice } from '../agents/agentsSlice.js';
import { createConnectionSlice, type ConnectionSlice } from './connectionSlice.js';
import { createEditorSlice, type EditorSlice } from './editorSlice.js';
import { createFilesSlice, type FilesSlice } from './filesSlice.js';
import { createLayoutSlice, type LayoutSlice } from './layoutSlice.js';
import { createNotifySlice, type NotifySlice } from './notifySlice.js';
import { createSandboxSlice, type SandboxSlice } from './sandboxSlice.js';
import { createStepsSlice, type StepsSlice } from './stepsSlice.js';
import { createTerminalsSlice, type TerminalsSlice } from './terminalsSlice.js';

export type AppState = ConnectionSlice &
  SandboxSlice &
  FilesSlice &
  EditorSlice &
  StepsSlice &
  TerminalsSlice &
  LayoutSlice &
  NotifySlice &
  AgentsSlice;

export const useApp = create<AppState>()((...a) => ({
  ...createConnectionSlice(...a),
  ...createSandboxSlice(...a),
  ...createFilesSlice(...a),
  ...createEditorSlice(...a),
  ...createStepsSlice(...a),
  ...createTerminalsSlice(...a),
  ...createLayoutSlice(...a),
  ...createNotifySlice(...a),
  ...createAgentsSlice(...a),
}));
