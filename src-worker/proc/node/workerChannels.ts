/**
 * What the kernel keeps per pooled wasm worker between processes: its syscall
 * channel and the modules it already holds. Both are fixed costs of a spawn
 * otherwise: sending a new 1 MiB SharedArrayBuffer to a thread costs
 * 0.2-0.7 ms (allocation, zeroing, registering the backing store on both
 * sides), and every module sent is deserialized again on the worker's side.
 * A worker that ran a killed program is terminated, and its entry goes with
 * it (WeakMap). After its first wasm job a worker takes its jobs through
 * the channel (see jobChannel.ts).
 */
import type { Worker } from 'node:worker_threads';
import type { WasmImage } from '../../programs/image.js';
import { JOB_CHANNEL, JOB_MESSAGE, postJob, writeJob } from './jobChannel.js';
import type { WasmStartMessage, WorkerJob } from './messages.js';
import {
  ChannelView,
  S_IDLE,
  W_CLOSE,
  W_MEM_PAGES,
  W_MORE,
  W_SIG_HI,
  W_SIG_LO,
  W_STATE,
} from '../../channel/layout.js';

/** Modules a worker keeps; past this the kernel tells it to drop the oldest. */
export const WORKER_MODULES = 16;

interface WorkerState {
  readonly view: ChannelView;
  /** Module ids the worker holds, oldest first. */
  readonly modules: Set<number>;
  /** It was given a wasm job: between jobs it now waits on the channel, not for messages. */
  listening: boolean;
}

const states = new WeakMap<Worker, WorkerState>();
const moduleIds = new WeakMap<WebAssembly.Module, number>();
let nextModuleId = 1;

function stateOf(worker: Worker): WorkerState {
  let s = states.get(worker);
  if (!s) {
    s = { view: ChannelView.create(), modules: new Set(), listening: false };
    states.set(worker, s);
  }
  return s;
}

/**
 * The worker's channel, ready for a new process. The worker is idle (its
 * last program's EXIT was answered before it went back to the pool), so the
 * words a new process must not inherit are cleared here: the state, the
 * pending signals, a deferred close, the memory report. The data area keeps
 * stale bytes; every reply sets its length and nothing reads past it.
 */
export function channelFor(worker: Worker): ChannelView {
  const s = states.get(worker);
  if (!s) return stateOf(worker).view;
  const w = s.view.words;
  // W_JOB is left alone: it is the worker's to clear when it takes a job.
  for (const i of [W_SIG_LO, W_SIG_HI, W_CLOSE, W_MEM_PAGES, W_MORE]) Atomics.store(w, i, 0);
  Atomics.store(w, W_STATE, S_IDLE);
  return s.view;
}

/** How a start job names its module for `worker`: by id alone once the worker holds it. */
export interface ModuleRef {
  readonly moduleId: number;
  /** Set when the worker does not hold the module yet. */
  readonly module?: WebAssembly.Module;
  /** Ids the worker may drop (it holds at most `WORKER_MODULES`). */
  readonly forget?: number[];
}

export function moduleFor(worker: Worker, module: WebAssembly.Module): ModuleRef {
  let moduleId = moduleIds.get(module);
  if (moduleId === undefined) {
    moduleId = nextModuleId++;
    moduleIds.set(module, moduleId);
  }
  const held = stateOf(worker).modules;
  if (held.has(moduleId)) {
    // Most recently used last, so eviction drops what has not run for longest.
    held.delete(moduleId);
    held.add(moduleId);
    return { moduleId };
  }
  held.add(moduleId);
  const forget: number[] = [];
  for (const id of held) {
    if (held.size <= WORKER_MODULES) break;
    held.delete(id);
    forget.push(id);
  }
  return forget.length ? { moduleId, module, forget } : { moduleId, module };
}

/**
 * Posts a job message to `worker`, waking it if it is waiting on its
 * channel (it takes the message synchronously there).
 */
export function sendJob(worker: Worker, job: WorkerJob): void {
  worker.postMessage(job);
  const s = states.get(worker);
  if (s?.listening) postJob(s.view, JOB_MESSAGE);
}

/** What a wasm process needs from the worker besides its channel: its image and environment. */
export type WasmStart = Pick<
  WasmImage,
  'module' | 'argv' | 'role' | 'name' | 'memory' | 'restartable'
> & { readonly env: Uint8Array[] };

/**
 * Starts a wasm process on idle `worker`, whose channel `channelFor` has
 * made ready: through the channel when the worker already waits there and
 * holds the module, else as a message.
 */
export function startWasm(worker: Worker, start: WasmStart): void {
  const s = stateOf(worker);
  const ref = moduleFor(worker, start.module);
  const { argv, env, role, name, memory, restartable } = start;
  const fields = {
    argv,
    env,
    role,
    name,
    ...(memory ? { memory } : {}),
    ...(restartable ? { restartable } : {}),
  };
  if (s.listening && !ref.module) {
    if (writeJob(s.view, { moduleId: ref.moduleId, ...fields })) {
      postJob(s.view, JOB_CHANNEL);
      return;
    }
  }
  const job: WasmStartMessage = { type: 'start', sab: s.view.sab, ...ref, ...fields };
  sendJob(worker, job);
  s.listening = true;
}
