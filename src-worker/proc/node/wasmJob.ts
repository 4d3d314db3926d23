/**
 * The wasm job of a process worker: instantiate the (already compiled)
 * module with our WASI glue bound to the process's syscall channel, run
 * `_start`, and report the exit through the channel (EXIT).
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

const enc = new TextEncoder();

/** Modules this worker holds, by the kernel's id (it says which to drop). */
const modules = new Map<number, WebAssembly.Module>();

export function runWasm(msg: WasmStartMessage): void {
  for (const id of msg.forget ?? []) modules.delete(id);
  if (msg.module) modules.set(msg.moduleId, msg.module);
  const module = modules.get(msg.moduleId);
  let sys: ChannelClient;
  try {
    sys = new ChannelClient(msg.sab);
  } catch (e) {
    parentPort?.postMessage({ type: 'fatal', message: (e as Error).message });
    return;
  }
  const ctx: GlueContext = {
    mem: new GuestMemory(new WebAssembly.Memory({ initial: 0 })),
    sys,
    argv: msg.argv,
    env: msg.env,
    handles: new Map(),
    nextHandle: 1,
    files: new GuestFiles(sys),
  };
  const fail = (text: string, code: number): void => {
    sys.call(
      Sys.EXIT,
      [code, EXIT_KIND.refused, 0],
      enc.encode(`sandglass: ${msg.name}: ${text}\n`),
    );
  };
  if (!module) return fail(`module ${msg.moduleId} is not in this worker`, 126);
  const p1 = preview1Imports(ctx);
  const why = checkImports(module, msg.role, new Set(Object.keys(p1)));
  if (why) return fail(why, 126);
  let instance: WebAssembly.Instance;
  try {
    instance = new WebAssembly.Instance(module, {
      wasi_snapshot_preview1: p1,
      sandglass: sandglassImports(ctx, msg.role),
      sandglass_heap: heapImports(sys),
    });
  } catch (e) {
    return fail(`cannot instantiate: ${(e as Error).message}`, 126);
  }
  const ex = instance.exports;
  const memory = ex['memory'];
  const start = ex['_start'];
  if (!(memory instanceof WebAssembly.Memory)) return fail('module exports no memory', 126);
  if (typeof start !== 'function') return fail('module exports no _start', 126);
  ctx.mem = new GuestMemory(memory);
  sys.reportMemory(memory.buffer.byteLength);
  if (importsSandglass(module)) {
    const v = ex['sandglass_abi_version'];
    const got = typeof v === 'function' ? (v as () => unknown)() : undefined;
    if (got !== ABI_VERSION) {
      return fail(
        `sandglass ABI version ${String(got)} does not match the host's ${ABI_VERSION}`,
        126,
      );
    }
  }
  let code = 0;
  let kind: number = EXIT_KIND.normal;
  let text = '';
  try {
    (start as () => void)();
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
  const refused = ex['sandglass_heap_refused'];
  const refusedPages =
    kind === EXIT_KIND.trap && typeof refused === 'function'
      ? Number((refused as () => unknown)())
      : 0;
  const needed = memory.buffer.byteLength + (refusedPages > 0 ? refusedPages * 65536 : 0);
  sys.call(Sys.EXIT, [code, kind, needed], enc.encode(text));
}
