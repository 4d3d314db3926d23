import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { workerEntry } from './entryPath.js';
import type { WorkerJob } from './messages.js';
import { WorkerPool, type PrestartedWorker } from './workerPool.js';

afterAll(async () => {
  expect(await WorkerPool.drained()).toBe(true);
});

/** A worker started as bin/sandglass.mjs starts one: before any pool, its first messages watched. */
function prestart(): PrestartedWorker & { ready: Promise<void> } {
  const entry = workerEntry();
  const worker = new Worker(entry.url, { execArgv: entry.execArgv ?? [] });
  const state = { worker, booted: false, gone: false, ready: Promise.resolve() };
  state.ready = new Promise<void>((resolve) =>
    worker.on('message', (m: { type?: string }) => {
      if (m.type !== 'ready') return;
      state.booted = true;
      resolve();
    }),
  );
  worker.on('exit', () => (state.gone = true));
  return state;
}

/** The crash message of a job the worker does not know: proves which worker took it, and that it runs. */
async function probe(pool: WorkerPool): Promise<{ worker: Worker; crash: string }> {
  const lease = pool.run({ type: 'no-such-job' } satisfies WorkerJob);
  const crash = await new Promise<string>((resolve) => (lease.onCrash = resolve));
  return { worker: lease.worker, crash };
}

describe('a prestarted worker', () => {
  it('is the pool’s first worker, booted or still booting', async () => {
    for (const waitForBoot of [true, false]) {
      const pre = prestart();
      if (waitForBoot) await pre.ready;
      const pool = new WorkerPool({ warm: 1, idleMs: 1000, refill: false, prestarted: pre });
      // Booted before or after the handover, the pool counts it warm (a `ready` it missed included).
      await pool.whenWarm();
      const { worker, crash } = await probe(pool);
      expect(worker).toBe(pre.worker);
      expect(crash).toBe("worker has no 'no-such-job' job");
      pool.dispose();
    }
  });

  it('is not used once it has exited; the pool starts its own', async () => {
    const pre = prestart();
    await pre.ready;
    await pre.worker.terminate();
    expect(pre.gone).toBe(true);
    const pool = new WorkerPool({ warm: 1, idleMs: 1000, refill: false, prestarted: pre });
    const { worker, crash } = await probe(pool);
    expect(worker).not.toBe(pre.worker);
    expect(crash).toBe("worker has no 'no-such-job' job");
    pool.dispose();
  });

  it('is ended when a pool that never used it is disposed', async () => {
    const pre = prestart();
    const pool = new WorkerPool({ warm: 0, idleMs: 1000, prestarted: pre });
    const exited = new Promise<void>((resolve) => pre.worker.once('exit', () => resolve()));
    pool.dispose();
    await exited;
  });
});

describe('the event loop', () => {
  /** Ref'd message ports: a worker the process waits for shows as one. */
  const heldPorts = (): number =>
    process.getActiveResourcesInfo().filter((r) => r === 'MessagePort').length;

  it('is held while a worker runs a job, not while workers idle', async () => {
    // The kernel side waits for a running program with Atomics.waitAsync,
    // which holds nothing: the lease must, or a one-shot CLI ends mid-command.
    const pool = new WorkerPool({ warm: 1, idleMs: 1000 });
    await pool.whenWarm();
    const idle = heldPorts();
    const lease = pool.run({ type: 'no-such-job' } satisfies WorkerJob);
    expect(heldPorts()).toBe(idle + 1);
    await new Promise<string>((resolve) => (lease.onCrash = resolve));
    pool.release(lease);
    expect(heldPorts()).toBe(idle);
    pool.dispose();
  });
});
