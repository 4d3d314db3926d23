/** The one bound store, made of slices. */
import { create } from 'zustand';
import { createAgentsSlice, type AgentsSlice } from '../agents/agentsSlice.js';
import { createConnectionSlice, type ConnectionSlice } from './connectionSlice.js';
import { createEditorSlice, type EditorSlice } from './editorSlice.js';
import { createFilesSlice, type FilesSlice } from './filesSlice.js';
import { createImportsSlice, type ImportsSlice } from './importsSlice.js';
import { createLayoutSlice, type LayoutSlice } from './layoutSlice.js';
import { createNotifySlice, type NotifySlice } from './notifySlice.js';
import { createSandboxSlice, type SandboxSlice } from './sandboxSlice.js';
import { createTerminalsSlice, type TerminalsSlice } from './terminalsSlice.js';
import { createTimelineSlice, type TimelineSlice } from './timelineSlice.js';

export type AppState = ConnectionSlice &
  SandboxSlice &
  FilesSlice &
  ImportsSlice &
  EditorSlice &
  TimelineSlice &
  TerminalsSlice &
  LayoutSlice &
  NotifySlice &
  AgentsSlice;

export const useApp = create<AppState>()((...a) => ({
  ...createConnectionSlice(...a),
  ...createSandboxSlice(...a),
  ...createFilesSlice(...a),
  ...createImportsSlice(...a),
  ...createEditorSlice(...a),
  ...createTimelineSlice(...a),
  ...createTerminalsSlice(...a),
  ...createLayoutSlice(...a),
  ...createNotifySlice(...a),
  ...createAgentsSlice(...a),
}));
