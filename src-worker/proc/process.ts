/**
 * A kernel process: identity, groups, cwd, credentials, descriptor table,
 * signal dispositions, and how it ended. The kernel never assumes what runs
 * inside: a `ProcessRunner` (`runner.ts`; a wasm worker today, Pyodide later)
 * executes it and speaks the syscall channel.
 */
import { FdTable } from '../fd/fdTable.js';
import { Errno, fail } from '../base/errno.js';
import { Notifier } from '../base/notifier.js';
import type { BytePath, Cred } from '../vfs/index.js';
import { NSIG } from '../signal/signals.js';
import type { Tty } from '../tty/tty.js';
import type { Job } from './job.js';
import type { ProcessRunner } from './runner.js';

export interface ExitInfo {
  /** Exit code if it exited, undefined if killed by a signal. */
  readonly code: number | undefined;
  readonly signal: number | undefined;
  /** POSIX wait status. */
  readonly status: number;
}

type WakeReason = 'io' | 'intr' | 'timeout';

export class Process {
  state: 'starting' | 'running' | 'zombie' | 'reaped' = 'starting';
  readonly fds = new FdTable();
  readonly dispositions = new Uint8Array(NSIG);
  readonly childChanged = new Notifier();
  runner: ProcessRunner | undefined;
  exit: ExitInfo | undefined;
  umask = 0o022;
  tty: Tty | undefined;
  /** The line discipline a terminal had before this process first changed it (restored if it dies by a signal). */
  ttyModeBefore: { tty: Tty; mode: number } | undefined;
  readonly startedAt = performance.now();
  endedAt: number | undefined;
  blockedMs = 0;
  timers: NodeJS.Timeout[] = [];
  /** The real-time interval timer (setitimer/alarm): SIGALRM when `due` (performance.now()) comes. */
  itimer: { timer: NodeJS.Timeout; due: number; intervalMs: number } | undefined;
  /** Signal that stopped it (0 = running); its syscalls wait in `deferred` until SIGCONT. */
  stopped = 0;
  /** True once a wait(WUNTRACED) has reported the current stop. */
  stopReported = true;
  readonly deferred: (() => void)[] = [];
  /** Set by the runner: memory limit in bytes (for trap messages). */
  memoryLimit = 0;
  /** The job (command) this process belongs to; its children join it too. */
  job: Job | undefined;
  /**
   * For a session shell: the job of the command it is running now, which the
   * processes it starts for that command join (the shell itself belongs to none).
   */
  commandJob: Job | undefined;
  private wake: ((r: WakeReason) => void) | undefined;
  private readonly exitWaiters: ((e: ExitInfo) => void)[] = [];

  constructor(
    readonly pid: number,
    public ppid: number,
    public pgid: number,
    public cwd: BytePath,
    /** argv, env and name change when the process execs another program. */
    public argv: readonly Uint8Array[],
    public env: readonly Uint8Array[],
    readonly cred: Cred,
    public name: string,
  ) {}

  get alive(): boolean {
    return this.state === 'running' || this.state === 'starting';
  }

  /** Resolves when the process has ended. */
  exited(): Promise<ExitInfo> {
    if (this.exit) return Promise.resolve(this.exit);
    return new Promise((r) => this.exitWaiters.push(r));
  }

  markExited(info: ExitInfo): void {
    this.exit = info;
    this.endedAt = performance.now();
    this.deferred.length = 0;
    this.wake?.('intr');
    for (const w of this.exitWaiters.splice(0)) w(info);
  }

  /** A caught signal arrived: wake a blocked syscall with EINTR. */
  interrupt(): void {
    this.wake?.('intr');
  }

  /**
   * Retry `attempt` until it gives a value, sleeping on `changed` between
   * tries. EAGAIN if `nonblock`, EINTR on a caught signal, ETIMEDOUT after
   * `timeoutMs` (if given).
   */
  async block<T>(
    attempt: () => T | null,
    changed: Notifier | undefined,
    nonblock = false,
    timeoutMs = -1,
  ): Promise<T> {
    const t0 = performance.now();
    try {
      for (;;) {
        const r = attempt();
        if (r !== null) return r;
        if (nonblock || !changed) fail(Errno.EAGAIN);
        const left = timeoutMs < 0 ? -1 : timeoutMs - (performance.now() - t0);
        if (timeoutMs >= 0 && left <= 0) fail(Errno.ETIMEDOUT);
        const why = await this.sleep(changed, left);
        if (why === 'intr') fail(Errno.EINTR);
        if (why === 'timeout') fail(Errno.ETIMEDOUT);
      }
    } finally {
      this.blockedMs += performance.now() - t0;
    }
  }

  /** Sleep until `changed` fires, a signal interrupts, or `ms` passes (-1 = no timeout). */
  sleep(changed: Notifier | undefined, ms: number): Promise<WakeReason> {
    if (!this.alive) return Promise.resolve('intr');
    return new Promise<WakeReason>((resolve) => {
      let done = false;
      let timer: NodeJS.Timeout | undefined;
      let cancel: (() => void) | undefined;
      const finish = (r: WakeReason): void => {
        if (done) return;
        done = true;
        if (timer) clearTimeout(timer);
        cancel?.();
        if (this.wake === finish) this.wake = undefined;
        resolve(r);
      };
      this.wake = finish;
      if (changed) cancel = changed.once(() => finish('io'));
      if (ms >= 0) timer = setTimeout(() => finish('timeout'), ms);
    });
  }
}
