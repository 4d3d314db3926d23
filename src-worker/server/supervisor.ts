/**
 * Keeps an engine process running: when it exits without being asked to, a
 * new one is started (told that it is a restart), up to a few times a minute
 * so an engine that dies at start does not spin. The web server's entry runs
 * its engine child under it (main.ts) and Electron's main its utilityProcess
 * (src-main/index.ts): the process type is the small part both share.
 */

/** What the supervisor needs of a process: Node's ChildProcess and Electron's UtilityProcess both fit. */
export interface SupervisedProcess {
  once(
    event: 'exit',
    listener: (code: number | null, signal?: NodeJS.Signals | null) => void,
  ): unknown;
  /** Electron's utilityProcess takes no signal (it always ends the process). */
  kill(signal?: NodeJS.Signals): boolean;
}

export interface SupervisorOptions<P extends SupervisedProcess> {
  /** Starts one engine process; `restarted` is true for every start after the first. */
  start(restarted: boolean): P;
  /** Called when a process stopped unexpectedly, before anything else. */
  onCrash?(code: number | null, signal: NodeJS.Signals | null): void;
  /** Whether to start a new process after a crash (default yes); when not, the supervisor stops. */
  shouldRestart?(): boolean;
  /** Called with each process started after a crash. */
  onRestart?(child: P): void;
  /** Called when no more restarts are allowed; the supervisor stops. */
  onGiveUp?(code: number | null, signal: NodeJS.Signals | null): void;
  /** Restarts allowed within `windowMs` (default 5 per minute). */
  readonly maxRestarts?: number;
  readonly windowMs?: number;
}

export class Supervisor<P extends SupervisedProcess> {
  private current: P;
  private currentExited = false;
  private stopping = false;
  private readonly restarts: number[] = [];
  private restartCount = 0;

  constructor(private readonly options: SupervisorOptions<P>) {
    this.current = this.launch(false);
  }

  /** The engine process running now (the last one, once stopped). */
  get child(): P {
    return this.current;
  }

  /** How many times the engine was restarted. */
  get restarted(): number {
    return this.restartCount;
  }

  /** False once stopped, given up, or told not to restart after a crash. */
  get running(): boolean {
    return !this.stopping && !this.currentExited;
  }

  private launch(restarted: boolean): P {
    const child = this.options.start(restarted);
    this.current = child;
    this.currentExited = false;
    child.once('exit', (code, signal = null) => {
      if (child !== this.current) return;
      this.currentExited = true;
      if (this.stopping) return;
      this.options.onCrash?.(code, signal);
      if (this.options.shouldRestart?.() === false) {
        this.stopping = true;
        return;
      }
      const now = Date.now();
      const windowMs = this.options.windowMs ?? 60_000;
      while (this.restarts.length > 0 && (this.restarts[0] as number) < now - windowMs)
        this.restarts.shift();
      if (this.restarts.length >= (this.options.maxRestarts ?? 5)) {
        this.stopping = true;
        this.options.onGiveUp?.(code, signal);
        return;
      }
      this.restarts.push(now);
      this.restartCount++;
      // Not inside `onRestart?.(…)`: an optional call skips evaluating its arguments.
      const next = this.launch(true);
      this.options.onRestart?.(next);
    });
    return child;
  }

  /** Stops the engine for good (SIGTERM, then SIGKILL after `graceMs`). */
  async stop(graceMs = 5_000): Promise<void> {
    this.stopping = true;
    if (this.currentExited) return;
    const child = this.current;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
}
