/**
 * The wasm job of a process worker: instantiate the (already compiled)
 * module with our WASI glue bound to the process's syscall channel, run
 * `_start`, and report the exit through the channel (EXIT, not waiting for
 * the reply). The channel stays the worker's: its next jobs come through it
 * (see jobChannel.ts and workerEntry.ts).
 */
import { parentPort } from 'node:worker_threads';
import { ChannelClient } from '../../channel/client.js';
import { EXIT_KIND, Sys } from '../../base/syscalls.js';
import { ProcExit, type GlueContext } from '../../wasi/context.js';
import { GuestMemory } from '../../wasi/memory.js';
import { GuestFiles } from '../../guest/guestFiles.js';
import { preview1Imports } from '../../wasi/preview1/index.js';
import {
  checkImports,
  heapImports,
  importsSandglass,
  sandglassImports,
} from '../../wasi/sandglass/index.js';
import { ABI_VERSION } from '../../wasi/sandglass/roles.js';
import type { WasmStartMessage } from './messages.js';
import { ChannelView } from '../../channel/layout.js';
import { MEMORY_IMPORT } from '../../limits/memoryLimit.js';
import { keepMemory, takeMemory } from './spareMemories.js';
import { saveWorkerCodeCache } from './workerCodeCache.js';
import {
  keepInstance,
  snapshotInstance,
  takeInstance,
  type WarmInstance,
} from './warmInstances.js';

const enc = new TextEncoder();

/** Modules this worker holds, by the kernel's id (it says which to drop). */
const modules = new Map<number, WebAssembly.Module>();

/** The channel the worker was given with its first wasm job; later jobs arrive on it. */
let jobView: ChannelView | undefined;

export function jobChannel(): ChannelView | undefined {
  return jobView;
}

/** What the glue sees before the instance exists (never read: no guest code runs yet). */
const NO_MEMORY = new GuestMemory(new WebAssembly.Memory({ initial: 0 }));

/**
 * Why the module may not run with `role` (see checkImports), remembered per
 * module: the answer only depends on the module, the role and whether the
 * worker hands it a memory.
 */
const verdicts = new WeakMap<WebAssembly.Module, Map<string, string | undefined>>();
function verdict(
  module: WebAssembly.Module,
  msg: WasmStartMessage,
  preview1: Record<string, unknown>,
): string | undefined {
  let byRole = verdicts.get(module);
  if (!byRole) verdicts.set(module, (byRole = new Map()));
  const key = `${msg.role}:${msg.memory ? 1 : 0}`;
  if (byRole.has(key)) return byRole.get(key);
  const why = checkImports(module, msg.role, new Set(Object.keys(preview1)), !!msg.memory);
  byRole.set(key, why);
  return why;
}

/**
 * The worker's one channel client (kept instances' glue is bound to it),
 * reset for each process. The kernel gives a worker one channel for its
 * life (workerChannels.ts); each message carrying it arrives as a new
 * SharedArrayBuffer object over the same memory, so the first is kept.
 */
let client: ChannelClient | undefined;

function clientFor(sab: SharedArrayBuffer): ChannelClient {
  if (client) {
    client.reset();
    return client;
  }
  client = new ChannelClient(sab);
  jobView = new ChannelView(sab);
  return client;
}

/** A new instance of `module` with the glue bound to a new context, or why there is none. */
function instantiate(
  module: WebAssembly.Module,
  msg: WasmStartMessage,
  sys: ChannelClient,
  memory: WebAssembly.Memory | undefined,
): WarmInstance | string {
  const ctx: GlueContext = {
    mem: NO_MEMORY,
    sys,
    argv: msg.argv,
    env: msg.env,
    handles: new Map(),
    nextHandle: 1,
    files: new GuestFiles(sys),
  };
  const p1 = preview1Imports(ctx);
  const why = verdict(module, msg, p1);
  if (why) return why;
  let instance: WebAssembly.Instance;
  try {
    instance = new WebAssembly.Instance(module, {
      wasi_snapshot_preview1: p1,
      sandglass: sandglassImports(ctx, msg.role),
      sandglass_heap: heapImports(sys),
      ...(memory ? { [MEMORY_IMPORT.module]: { [MEMORY_IMPORT.name]: memory } } : {}),
    });
  } catch (e) {
    return `cannot instantiate: ${(e as Error).message}`;
  }
  const ex = instance.exports;
  const mem = ex['memory'];
  const start = ex['_start'];
  if (!(mem instanceof WebAssembly.Memory)) return 'module exports no memory';
  if (typeof start !== 'function') return 'module exports no _start';
  // Before any export runs: a command's exports run its constructors, which use the glue.
  ctx.mem = new GuestMemory(mem);
  if (importsSandglass(module)) {
    const v = ex['sandglass_abi_version'];
    const got = typeof v === 'function' ? (v as () => unknown)() : undefined;
    if (got !== ABI_VERSION)
      return `sandglass ABI version ${String(got)} does not match the host's ${ABI_VERSION}`;
  }
  return { instance, memory: mem, ctx, start: start as () => void };
}

export function runWasm(msg: WasmStartMessage): void {
  for (const id of msg.forget ?? []) modules.delete(id);
  if (msg.module) modules.set(msg.moduleId, msg.module);
  const module = modules.get(msg.moduleId);
  let sys: ChannelClient;
  try {
    sys = clientFor(msg.sab);
  } catch (e) {
    parentPort?.postMessage({ type: 'fatal', message: (e as Error).message });
    return;
  }
  const fail = (text: string): void => {
    sys.post(
      Sys.EXIT,
      [126, EXIT_KIND.refused, 0],
      enc.encode(`sandglass: ${msg.name}: ${text}\n`),
    );
  };
  if (!module) return fail(`module ${msg.moduleId} is not in this worker`);
  const shape = msg.memory;
  const key = `${msg.moduleId}:${msg.role}`;
  let w = msg.restartable ? takeInstance(key) : undefined;
  if (w) {
    // A kept instance: the new process's own argv, env, handles and caches.
    Object.assign(w.ctx, {
      argv: msg.argv,
      env: msg.env,
      handles: new Map(),
      nextHandle: 1,
      files: new GuestFiles(sys),
    });
  } else {
    const given = shape ? takeMemory(shape) : undefined;
    const made = instantiate(module, msg, sys, given);
    if (typeof made === 'string') {
      fail(made);
      if (given && shape) keepMemory(given, shape);
      return;
    }
    w = made;
    if (msg.restartable) snapshotInstance(w);
  }
  const { memory, instance } = w;
  sys.reportMemory(memory.buffer.byteLength);
  let code = 0;
  let kind: number = EXIT_KIND.normal;
  let text = '';
  try {
    w.start();
  } catch (e) {
    if (e instanceof ProcExit) {
      code = e.code;
    } else {
      kind = EXIT_KIND.trap;
      code = 134;
      text = `wasm trap: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  // The memory the program needed: what it has plus a growth its limit refused
  // (crates/wasm-heap), so the kernel can say the limit ended it.
  const refused = instance.exports['sandglass_heap_refused'];
  const refusedPages =
    kind === EXIT_KIND.trap && typeof refused === 'function'
      ? Number((refused as () => unknown)())
      : 0;
  const needed = memory.buffer.byteLength + (refusedPages > 0 ? refusedPages * 65536 : 0);
  // Before EXIT: once the kernel has it, a one-shot CLI may end the process.
  saveWorkerCodeCache();
  sys.post(Sys.EXIT, [code, kind, needed], enc.encode(text));
  // Ready the instance or its memory for the next process while the kernel handles the exit.
  if (!shape) return;
  if (msg.restartable && kind === EXIT_KIND.normal && keepInstance(key, w, shape.initial * 65536))
    return;
  keepMemory(memory, shape);
}
