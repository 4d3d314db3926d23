/** Per-worker channels and module caches: reused across processes, never leaking state between them. */
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { S_IDLE, W_MEM_PAGES, W_SIG_LO, W_STATE } from '../../channel/layout.js';
import { Sandbox } from '../../sandbox/sandbox.js';
import { fixtureProgramsDir } from '../../sandbox/testPrograms.js';
import { runProgram } from '../../sandbox/testUtil.js';
import { WasmRunnerFactory } from './wasmRunner.js';
import { channelFor, moduleFor, WORKER_MODULES } from './workerChannels.js';
import { WorkerPool } from './workerPool.js';

afterAll(async () => {
  expect(await WorkerPool.drained()).toBe(true);
});

/**
 * (module (import "wasi_snapshot_preview1" "proc_exit" ...) (memory 1)
 *   [(global (mut i32) (i32.const 0))] (func _start BODY))
 */
function startModule(body: number[], global = false): Uint8Array {
  const name = (s: string): number[] => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];
  const imp = [1, ...name('wasi_snapshot_preview1'), ...name('proc_exit'), 0, 0];
  const exp = [2, ...name('memory'), 2, 0, ...name('_start'), 0, 1];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...[0x01, 0x08, 0x02, 0x60, 0x01, 0x7f, 0x00, 0x60, 0x00, 0x00],
    ...[0x02, imp.length, ...imp],
    ...[0x03, 0x02, 0x01, 0x01],
    ...[0x05, 0x03, 0x01, 0x00, 0x01],
    ...(global ? [0x06, 0x06, 0x01, 0x7f, 0x01, 0x41, 0x00, 0x0b] : []),
    ...[0x07, exp.length, ...exp],
    ...[0x0a, body.length + 2, 0x01, body.length, ...body],
  ]);
}

/** Exits with `code` (proc_exit). */
function exitModule(code: number): Uint8Array {
  if (code < 0 || code > 63) throw new Error('one-byte LEB codes only');
  return startModule([0x00, 0x41, code, 0x10, 0x00, 0x0b]);
}

/** Exits with the byte at address 1000 (zero in a fresh memory), after storing 42 there. */
const PEEK_POKE = startModule([
  ...[0x01, 0x01, 0x7f], // one i32 local
  ...[0x41, 0xe8, 0x07, 0x2d, 0x00, 0x00, 0x21, 0x00], // local0 = mem[1000]
  ...[0x41, 0xe8, 0x07, 0x41, 0x2a, 0x3a, 0x00, 0x00], // mem[1000] = 42
  ...[0x20, 0x00, 0x10, 0x00, 0x0b], // proc_exit(local0)
]);

/** Exits with its global (zero at first), after setting it to 42. */
const GLOBAL_POKE = startModule(
  [
    ...[0x01, 0x01, 0x7f],
    ...[0x23, 0x00, 0x21, 0x00], // local0 = global0
    ...[0x41, 0x2a, 0x24, 0x00], // global0 = 42
    ...[0x20, 0x00, 0x10, 0x00, 0x0b],
  ],
  true,
);

/** A sandbox whose programs all run on `pool`'s one worker. */
async function oneWorkerSandbox(pool: WorkerPool): Promise<Sandbox> {
  const sb = await Sandbox.create({
    programsDir: fixtureProgramsDir(),
    runners: () => ({ wasm: new WasmRunnerFactory(pool) }),
  });
  await sb.warm();
  return sb;
}

// The worker returns to the pool as its process's exit arrives.
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

describe('workerChannels', () => {
  it('sends a module once per worker and tells it which to drop past the cap', () => {
    const w = {} as Worker;
    const other = {} as Worker;
    const mods = Array.from(
      { length: WORKER_MODULES + 1 },
      (_, i) => new WebAssembly.Module(exitModule(i)),
    );
    const first = moduleFor(w, mods[0] as WebAssembly.Module);
    expect(first.module).toBe(mods[0]);
    expect(moduleFor(w, mods[0] as WebAssembly.Module)).toEqual({ moduleId: first.moduleId });
    // Another worker holds nothing yet; the id names the module engine-wide.
    expect(moduleFor(other, mods[0] as WebAssembly.Module)).toMatchObject({
      moduleId: first.moduleId,
      module: mods[0],
    });
    const refs = mods.slice(1).map((m) => moduleFor(w, m));
    // The 17th module pushes out the least recently used: the first.
    expect(refs.slice(0, -1).every((r) => r.forget === undefined)).toBe(true);
    expect(refs.at(-1)?.forget).toEqual([first.moduleId]);
    expect(moduleFor(w, mods[0] as WebAssembly.Module).module).toBe(mods[0]);
  });

  it('hands a reused channel back idle, without the last process signals or memory', () => {
    const w = {} as Worker;
    const a = channelFor(w);
    a.words[W_STATE] = 2;
    a.words[W_SIG_LO] = 1 << 2;
    a.words[W_MEM_PAGES] = 99;
    const b = channelFor(w);
    expect(b.sab).toBe(a.sab);
    expect([b.words[W_STATE], b.words[W_SIG_LO], b.words[W_MEM_PAGES]]).toEqual([S_IDLE, 0, 0]);
    expect(channelFor({} as Worker).sab).not.toBe(a.sab);
  });

  it('runs more programs than a worker keeps, on one worker, each with its own exit', async () => {
    const pool = new WorkerPool({ warm: 1, idleMs: 60_000, refill: false });
    const sb = await oneWorkerSandbox(pool);
    try {
      const n = WORKER_MODULES + 4;
      for (let i = 0; i < n; i++)
        await sb.writeFile(`/tmp/exit${i}`, exitModule(i + 1), { mode: 0o755 });
      const order = [...Array(n).keys(), 0, n - 1, 1];
      const got: number[] = [];
      for (const i of order) {
        await settle();
        got.push((await runProgram(sb, `/tmp/exit${i}`, ['x'])).status);
      }
      expect(got).toEqual(order.map((i) => i + 1));
      // And a real program after them, on the same thread and channel.
      await settle();
      expect(await runProgram(sb, '/usr/bin/fixture-exit', ['exit', '5'])).toMatchObject({
        status: 5,
      });
      expect(WorkerPool.liveWorkers()).toBe(1);
    } finally {
      await sb.destroy();
      pool.dispose();
    }
  });

  it('starts each process as new: memory and globals never what the last one left', async () => {
    const pool = new WorkerPool({ warm: 1, idleMs: 60_000, refill: false });
    const sb = await oneWorkerSandbox(pool);
    try {
      await sb.writeFile('/tmp/peek', PEEK_POKE, { mode: 0o755 });
      await sb.writeFile('/tmp/global', GLOBAL_POKE, { mode: 0o755 });
      // Kept instances (restarted), spare memories (a third program pushes one out) and traps.
      const order = ['peek', 'peek', 'global', 'global', 'peek', 'global', 'peek'];
      const got: number[] = [];
      for (const name of order) {
        await settle();
        got.push((await runProgram(sb, `/tmp/${name}`, [name])).status);
      }
      const ran = await runProgram(sb, '/usr/bin/fixture-exit', ['exit', '5']);
      expect(ran.status).toBe(5);
      await settle();
      got.push((await runProgram(sb, '/tmp/peek', ['peek'])).status);
      expect(got).toEqual(order.map(() => 0).concat([0]));
      expect(WorkerPool.liveWorkers()).toBe(1);
    } finally {
      await sb.destroy();
      pool.dispose();
    }
  });
});
