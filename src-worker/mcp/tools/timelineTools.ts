import type { ToolDef } from '../tool.js';
export const TIMELINE_TOOLS: readonly ToolDef[] = [];
