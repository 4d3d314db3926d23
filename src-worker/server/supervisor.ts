/**
 * Keeps an engine process running: when it exits without being asked to, a
 * new one is started (told that it is a restart), up to a few times a minute
 * so an engine that dies at start does not spin. The web server's entry uses
 * it to run the engine and web server in a child process; Electron's main does
 * the same job with its utilityProcess (src-main/index.ts).
 */
import type { ChildProcess } from 'node:child_process';

export interface SupervisorOptions {
  /** Starts one engine process; `restarted` is true for every start after the first. */
  start(restarted: boolean): ChildProcess;
  /** Called when a process stopped unexpectedly, before the next one starts. */
  onCrash?(code: number | null, signal: NodeJS.Signals | null): void;
  /** Called when no more restarts are allowed. */
  onGiveUp?(): void;
  /** Restarts allowed within `windowMs` (default 5 per minute). */
  readonly maxRestarts?: number;
  readonly windowMs?: number;
}

export class Supervisor {
  private current: ChildProcess;
  private stopping = false;
  private readonly restarts: number[] = [];
  private restartCount = 0;

  constructor(private readonly options: SupervisorOptions) {
    this.current = this.launch(false);
  }

  /** The engine process running now. */
  get child(): ChildProcess {
    return this.current;
  }

  /** How many times the engine was restarted. */
  get restarted(): number {
    return this.restartCount;
  }

  private launch(restarted: boolean): ChildProcess {
    const child = this.options.start(restarted);
    child.once('exit', (code, signal) => {
      if (this.stopping || child !== this.current) return;
      this.options.onCrash?.(code, signal);
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
    });
    return child;
  }

  /** Stops the engine for good (SIGTERM, then SIGKILL after `graceMs`). */
  async stop(graceMs = 5_000): Promise<void> {
    this.stopping = true;
    const child = this.current;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
}
