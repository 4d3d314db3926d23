/** Every tool the MCP server offers, in the order clients list them. */
import type { ToolDef } from '../tool.js';
import { editFile, listDir, readFile, writeFile } from './fileTools.js';
import { run } from './runTool.js';
import { createSandbox, destroySandbox, listSandboxes } from './sandboxTools.js';
import { TIMELINE_TOOLS } from './timelineTools.js';

export const TOOLS: readonly ToolDef[] = [
  createSandbox,
  listSandboxes,
  destroySandbox,
  run,
  readFile,
  writeFile,
  editFile,
  listDir,
  ...TIMELINE_TOOLS,
];
