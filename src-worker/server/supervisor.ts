/**
 * Keeps an engine process running: when it exits without being asked to, a
 * new one is started (told that it is a restart), up to a few times a minute
 * so an engine that dies at start does not spin. The web server's entry uses
 * it for a child process (node's `fork`), Electron's main for its
 * utilityProcess (src-main/index.ts): both only need `once('exit')` and
 * `kill`, so the restart logic is tested with a fake process.
 */

/** What the supervisor needs of a process: its end, and a way to end it. */
export interface SupervisedProcess {
  once(
    event: 'exit',
    listener: (code: number | null, signal?: NodeJS.Signals | null) => void,
  ): unknown;
  /** A utilityProcess takes no signal: it ends the process either way. */
  kill(signal?: NodeJS.Signals): unknown;
}

export interface SupervisorOptions<P extends SupervisedProcess> {
  /** Starts one engine process; `restarted` is true for every start after the first. */
  start(restarted: boolean): P;
  /** Called when a process stopped unexpectedly, before the next one starts. */
  onCrash?(code: number | null, signal: NodeJS.Signals | null): void;
  /**
   * Asked after a crash whether to start a new process (default yes); when
   * not, the supervisor stops (`running` is false) without giving up.
   */
  shouldRestart?(): boolean;
  /** Called with each process started after a crash. */
  onRestart?(child: P): void;
  /** Called when no more restarts are allowed. */
  onGiveUp?(): void;
  /** Restarts allowed within `windowMs` (default 5 per minute). */
  readonly maxRestarts?: number;
  readonly windowMs?: number;
}

export class Supervisor<P extends SupervisedProcess> {
  private current: P;
  private stopping = false;
  /** The current process has exited (and no new one was started). */
  private exited = false;
  private readonly restarts: number[] = [];
  private restartCount = 0;

  constructor(private readonly options: SupervisorOptions<P>) {
    this.current = this.launch(false);
  }

  /** The engine process running now (or the last one, once not `running`). */
  get child(): P {
    return this.current;
  }

  /** How many times the engine was restarted. */
  get restarted(): number {
    return this.restartCount;
  }

  /** False once stopped, given up or not restarted: a new Supervisor starts afresh. */
  get running(): boolean {
    return !this.stopping && !this.exited;
  }

  private launch(restarted: boolean): P {
    const child = this.options.start(restarted);
    this.exited = false;
    child.once('exit', (code, signal) => {
      if (child !== this.current) return;
      this.exited = true;
      if (this.stopping) return;
      this.options.onCrash?.(code, signal ?? null);
      if (this.options.shouldRestart && !this.options.shouldRestart()) return;
      const now = Date.now();
      const windowMs = this.options.windowMs ?? 60_000;
      while (this.restarts.length > 0 && (this.restarts[0] as number) < now - windowMs)
        this.restarts.shift();
      if (this.restarts.length >= (this.options.maxRestarts ?? 5)) {
        this.options.onGiveUp?.();
        return;
      }
      this.restarts.push(now);
      this.restartCount++;
      this.current = this.launch(true);
      this.options.onRestart?.(this.current);
    });
    return child;
  }

  /** Stops the engine for good (SIGTERM, then SIGKILL after `graceMs`). */
  async stop(graceMs = 5_000): Promise<void> {
    if (this.stopping || this.exited) {
      this.stopping = true;
      return;
    }
    this.stopping = true;
    const child = this.current;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
}
