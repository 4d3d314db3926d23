/**
 * The Sandglass TypeScript SDK: `import { Sandbox } from 'sandglass'`.
 * See docs/agent-api.md.
 */
export { Sandbox, type CreateOptions, type RunOptions } from './sandbox.js';
export { Connection, type ConnectOptions } from './connection.js';
export { SandglassError } from './errors.js';
export type {
  ApiEvent,
  ApiMethod,
  ApiParams,
  ApiResult,
  ClientInfo,
  DiffEntry,
  FileEntry,
  RunResult,
  SandboxInfo,
  SandboxLimits,
  SandboxSettings,
  Step,
} from '../../src-worker/contract/api.js';
