/**
 * What a `sandglass` subcommand is, and how one runs: the way in shared by
 * the full command line (`main.ts`) and the one-shot build (`oneShot.ts`).
 * Each subcommand's module is imported only when it runs.
 */
import { fstatSync, statSync } from 'node:fs';
import type { PrestartedWorker } from '../proc/node/workerPool.js';
import type { CliIo } from './options.js';

export interface Subcommand {
  readonly usage: string;
  run(args: readonly string[], io: CliIo): Promise<number>;
}

export interface SubcommandEntry {
  readonly about: string;
  /** Runs one sandbox and ends (worker pool sized for that). */
  readonly oneShot: boolean;
  load(): Promise<Subcommand>;
}

/** Whether fd 0 is /dev/null (as under `< /dev/null`, cron, CI runners, `spawn` with stdio 'ignore'). */
function stdinIsNull(): boolean {
  try {
    const st = fstatSync(0);
    return st.isCharacterDevice() && st.rdev === statSync('/dev/null').rdev;
  } catch {
    return false;
  }
}

/**
 * The host's stdio, as subcommands take it. Each stream is made on first
 * use (building one costs ~1-5 ms of CPU: a command that writes nothing to
 * stderr never makes it), `process.stdin` never when stdin is /dev/null.
 */
export function processIo(): CliIo {
  return {
    get stdin() {
      return process.stdin;
    },
    get stdout() {
      return process.stdout;
    },
    get stderr() {
      return process.stderr;
    },
    stdinIsNull: stdinIsNull(),
  };
}

/** Hands the command to a warm engine (`sandglass engine`) if one is running. */
async function runWarm(
  cmd: 'run' | 'exec',
  args: readonly string[],
  io: CliIo,
): Promise<number | undefined> {
  const { findEngineSocket } = await import('./warm/socket.js');
  const socket = findEngineSocket();
  if (socket === undefined) return undefined;
  const { attachWarmEngine } = await import('./warm/attach.js');
  return attachWarmEngine(socket, { command: cmd, args: [...args], cwd: process.cwd() }, io);
}

/**
 * Runs subcommand `cmd` to its exit status; usage errors print the usage
 * (status 2). `prestarted`: the process worker bin/sandglass.mjs booted
 * for a one-shot command, which the pool takes as its first.
 */
export async function runSubcommand(
  cmd: string,
  entry: SubcommandEntry,
  args: readonly string[],
  io: CliIo,
  prestarted?: PrestartedWorker,
): Promise<number> {
  if ((cmd === 'run' || cmd === 'exec') && process.env.SANDGLASS_ENGINE !== 'off') {
    const status = await runWarm(cmd, args, io);
    if (status !== undefined) {
      void prestarted?.worker.terminate();
      return status;
    }
  }
  // Boot the first process worker while the subcommand's code loads: a
  // worker thread's bootstrap is the longest single step of a cold start.
  // One-shot commands keep one warm worker and start more only on demand
  // (a thread costs ~10 MB and ~30 ms of CPU); the shell and the server keep
  // the engine's usual warm pool.
  const { WorkerPool } = await import('../proc/node/workerPool.js');
  const pool = WorkerPool.acquireShared(
    entry.oneShot
      ? { warm: 1, idleMs: 10_000, refill: false, ...(prestarted ? { prestarted } : {}) }
      : undefined,
  );
  let sub: Subcommand | undefined;
  try {
    sub = await entry.load();
    return await sub.run(args, io);
  } catch (e) {
    // Loaded already by any subcommand that got far enough to throw it.
    const { UsageError } = await import('./options.js');
    if (e instanceof UsageError && sub) {
      io.stderr.write(`sandglass ${cmd}: ${e.message}\n${sub.usage}\n`);
      return 2;
    }
    io.stderr.write(`sandglass: ${(e as Error).message}\n`);
    return 1;
  } finally {
    pool.unref();
  }
}
