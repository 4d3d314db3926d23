/**
 * The interpreter pool: nothing of Pyodide is loaded until the first python3
 * (an app that never runs Python pays nothing for it), then the pool keeps
 * its configured number of interpreters booted in the background, recycling
 * the workers of processes that exited.
 */
import { mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Sandbox } from '../../sandbox/sandbox.js';
import { defaultPythonDir, pythonAvailable } from '../../programs/python.js';
import { WasmRunnerFactory } from '../../proc/node/wasmRunner.js';
import { ChannelView } from '../../channel/layout.js';
import { PythonPool, type Lease, type PythonProcess } from './pythonPool.js';
import type { PythonRunner } from './pythonRunner.js';
import { PythonRunnerFactory } from './pythonRunner.js';

const LONG = 300_000;

/** A process whose syscalls nobody answers (it runs until ended); `crashed` collects onCrash. */
function unserved(crashed: string[] = []): PythonProcess {
  return {
    job: JSON.stringify({ argv: ['python3'], env: {}, cwd: '/', memoryLimit: 0 }),
    channel: ChannelView.create().sab,
    interrupt: new SharedArrayBuffer(4),
    onCrash: (m) => crashed.push(m),
  };
}

/** Waits (up to 20 s) for `n` live interpreter workers; returns how many there are. */
async function waitLive(n: number): Promise<number> {
  const end = Date.now() + 20_000;
  while (PythonPool.liveWorkers() !== n && Date.now() < end)
    await new Promise((r) => setTimeout(r, 10));
  return PythonPool.liveWorkers();
}

describe.skipIf(!pythonAvailable())('python interpreter pool', () => {
  const pools: PythonPool[] = [];
  afterAll(() => pools.forEach((p) => p.dispose()));
  /** A pool of its own, booted, once every earlier interpreter has ended. */
  const bootedPool = async (size: number): Promise<PythonPool> => {
    expect(await PythonPool.drained(20_000)).toBe(true);
    const pool = new PythonPool({ size });
    pools.push(pool);
    await pool.whenReady();
    return pool;
  };

  it(
    'loads no interpreter until python3 runs, then refills to its size in the background',
    async () => {
      const sb = await Sandbox.create();
      try {
        const r = await sb.run('echo hi; ls / > /dev/null; cat /etc/hostname > /dev/null', {
          timeoutMs: 60_000,
        });
        expect(r.stdout).toBe('hi\n');
        expect(PythonPool.liveWorkers()).toBe(0);
        const py = await sb.run('python3 -c "print(6 * 7)"', { timeoutMs: 120_000 });
        expect(py.stdout).toBe('42\n');
        const pool = PythonPool.acquireShared();
        pools.push(pool);
        await pool.whenReady();
        // The process's interpreter ends (one per process); the pool holds its size, booted.
        expect(await waitLive(pool.options.size)).toBe(pool.options.size);
      } finally {
        await sb.destroy();
        pools.forEach((p) => p.dispose());
      }
    },
    LONG,
  );

  it(
    'refills when the process ends or has run a while, not when it is taken (its start keeps the cores)',
    async () => {
      const pool = await bootedPool(1);
      // A process that runs on (its syscalls unanswered here): the pool refills after a while.
      const a = pool.start(unserved());
      await new Promise((r) => setImmediate(r));
      expect(PythonPool.liveWorkers()).toBe(1);
      expect(await waitLive(2)).toBe(2);
      pool.end(a);
      expect(await waitLive(1)).toBe(1);
      // A process that ends at once: the refill follows its end (its interpreter was booted:
      // one that had to wait for a boot starts the refill at once, see the burst below).
      await pool.whenReady();
      const b = pool.start(unserved());
      await new Promise((r) => setImmediate(r));
      expect(PythonPool.liveWorkers()).toBe(1);
      pool.end(b);
      expect(await waitLive(1)).toBe(1);
      await pool.whenReady();
      pool.dispose();
      expect(await PythonPool.drained(20_000)).toBe(true);
    },
    LONG,
  );

  it(
    'recycles the worker of a process that exited (a new realm in it) and ends that of one killed',
    async () => {
      expect(await PythonPool.drained(20_000)).toBe(true);
      const sb = await Sandbox.create();
      const pool = PythonPool.acquireShared();
      pools.push(pool);
      try {
        const opts = { timeoutMs: 120_000 };
        expect((await sb.run('python3 -c "print(1)"', opts)).stdout).toBe('1\n');
        await pool.whenReady();
        const before = PythonPool.recycledBoots();
        // Back to back: an exited process's worker boots the next interpreter (a process that runs
        // past the refill delay, as under a heavy load, gets a fresh worker instead: try a few).
        for (let i = 0; i < 8 && PythonPool.recycledBoots() === before; i++) {
          const r = await sb.run('python3 -c "print(2)"; python3 -c "print(3)"', opts);
          expect(r.stdout).toBe('2\n3\n');
          await pool.whenReady();
        }
        expect(PythonPool.recycledBoots()).toBeGreaterThan(before);
        const exited = PythonPool.recycledBoots();
        // SIGKILL: a SIGTERM may now end the interpreter from inside (its wait wakes for the
        // signal), which is an exit whose worker may be recycled; SIGKILL never reaches Python.
        const killed = await sb.run(
          'timeout -s KILL 1 python3 -c "import time; time.sleep(60)"; echo $?',
          opts,
        );
        expect(killed.stdout).toBe('137\n');
        await pool.whenReady();
        expect(PythonPool.recycledBoots()).toBe(exited);
        expect(await waitLive(pool.options.size)).toBe(pool.options.size);
      } finally {
        await sb.destroy();
        pools.forEach((p) => p.dispose());
      }
    },
    LONG,
  );

  it(
    'keeps one more interpreter while processes find the pool empty, and ends it when they stop',
    async () => {
      expect(await PythonPool.drained(20_000)).toBe(true);
      const pool = new PythonPool({ size: 1 });
      pools.push(pool);
      const sb = await Sandbox.create({
        runners: () => ({ wasm: new WasmRunnerFactory(), python: new PythonRunnerFactory(pool) }),
      });
      try {
        const opts = { timeoutMs: 120_000 };
        expect((await sb.run('python3 -c "print(1)"', opts)).stdout).toBe('1\n');
        await pool.whenReady();
        // The second finds the first's worker still booting its next interpreter: a burst.
        const r = await sb.run('python3 -c "print(2)"; python3 -c "print(3)"', opts);
        expect(r.stdout).toBe('2\n3\n');
        const end = Date.now() + 5000;
        while (pool.readyCount() < 2 && Date.now() < end)
          await new Promise((t) => setTimeout(t, 5));
        expect(pool.readyCount()).toBe(2);
        // No process for a while: back to the pool's size.
        const trimmed = Date.now() + 20_000;
        while (pool.readyCount() > 1 && Date.now() < trimmed)
          await new Promise((t) => setTimeout(t, 20));
        expect(pool.readyCount()).toBe(1);
        expect(await waitLive(1)).toBe(1);
      } finally {
        await sb.destroy();
        pool.dispose();
      }
    },
    LONG,
  );

  it(
    "serves a process that finds no booted interpreter with the first to boot: the exited process's worker",
    async () => {
      expect(await PythonPool.drained(20_000)).toBe(true);
      // No burst, no refill while a process runs: only an exited process's worker boots.
      const pool = new PythonPool({ size: 1, burst: false, refillAfterMs: 600_000 });
      pools.push(pool);
      const leases: Lease[] = [];
      class Recording extends PythonRunnerFactory {
        override start(...args: Parameters<PythonRunnerFactory['start']>): PythonRunner {
          const r = super.start(...args) as PythonRunner;
          leases.push(r.lease);
          return r;
        }
      }
      const sb = await Sandbox.create({
        runners: () => ({ wasm: new WasmRunnerFactory(), python: new Recording(pool) }),
      });
      try {
        const opts = { timeoutMs: 120_000 };
        expect((await sb.run('python3 -c "print(1)"', opts)).stdout).toBe('1\n');
        expect(leases.map((l) => l.boot)).toEqual([1]);
        await pool.whenReady();
        // Each of the next two starts while the previous one's worker is about to boot its
        // next interpreter, which serves it: no new thread (2-3x the boot) is started for it.
        const started = PythonPool.workersStarted();
        const r = await sb.run(
          'python3 -c "print(2)"; python3 -c "print(3)"; python3 -c "print(4)"',
          opts,
        );
        expect(r.stdout).toBe('2\n3\n4\n');
        // (Whether each found its interpreter booted or waited for it depends on the load.)
        expect(leases.map((l) => l.boot)).toEqual([1, 2, 3, 4]);
        expect(leases[0]?.waited).toBe(true);
        expect(PythonPool.workersStarted()).toBe(started);
      } finally {
        await sb.destroy();
        pool.dispose();
      }
    },
    LONG,
  );

  it(
    'drops a process ended while it waits for an interpreter from the queue',
    async () => {
      expect(await PythonPool.drained(20_000)).toBe(true);
      const pool = new PythonPool({ size: 1, burst: false });
      pools.push(pool);
      await pool.whenReady();
      const a = pool.start(unserved());
      expect(pool.readyCount()).toBe(0);
      const crashed: string[] = [];
      const b = pool.start(unserved(crashed));
      // A boot was started for it; it is ended before that boot is over.
      expect(pool.readyCount()).toBe(1);
      pool.end(b);
      await pool.whenReady();
      expect(crashed).toEqual([]);
      // The interpreter booted for it waits in the pool for the next process, which gets it at once.
      expect(pool.readyCount()).toBe(1);
      const c = pool.start(unserved());
      expect(pool.readyCount()).toBe(0);
      pool.end(a);
      pool.end(c);
      pool.dispose();
      expect(await PythonPool.drained(20_000)).toBe(true);
    },
    LONG,
  );

  it(
    'fails a waiting process whose interpreter cannot boot, without booting again for it',
    async () => {
      expect(await PythonPool.drained(20_000)).toBe(true);
      // A runtime whose wasm does not compile: every file the real one's except pyodide.asm.wasm.
      const dir = mkdtempSync(join(tmpdir(), 'sandglass-broken-python-'));
      try {
        const real = defaultPythonDir();
        for (const f of readdirSync(real)) symlinkSync(join(real, f), join(dir, f));
        rmSync(join(dir, 'pyodide.asm.wasm'));
        writeFileSync(join(dir, 'pyodide.asm.wasm'), 'not wasm');
        const pool = new PythonPool({ size: 1, dir });
        pools.push(pool);
        const crashed: string[] = [];
        pool.start(unserved(crashed));
        const end = Date.now() + 20_000;
        while (crashed.length === 0 && Date.now() < end)
          await new Promise((r) => setTimeout(r, 10));
        expect(crashed).toHaveLength(1);
        expect(crashed[0]).toMatch(/cannot compile pyodide\.asm\.wasm/);
        expect(await PythonPool.drained(20_000)).toBe(true);
        pool.dispose();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    LONG,
  );

  it(
    'boots as many interpreters as it is configured for, and ends them when disposed',
    async () => {
      const pool = await bootedPool(2);
      expect(PythonPool.liveWorkers()).toBe(2);
      pool.dispose();
      expect(await PythonPool.drained(20_000)).toBe(true);
    },
    LONG,
  );
});
