/**
 * A one-shot timer that can be paused and resumed: a command's time limit
 * stops running while its process waits for a person to approve a request.
 */
export class PausableTimer {
  private timer: NodeJS.Timeout | undefined;
  private startedAt = 0;
  private pauses = 0;
  private done = false;

  /** `ms` <= 0: it never fires. */
  constructor(
    private remainingMs: number,
    private readonly fire: () => void,
  ) {
    if (remainingMs <= 0) this.remainingMs = Infinity;
    this.arm();
  }

  /** Stop the clock (nested: each pause needs its resume). */
  pause(): void {
    if (this.done || this.pauses++ > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.remainingMs -= performance.now() - this.startedAt;
  }

  resume(): void {
    if (this.done || this.pauses === 0 || --this.pauses > 0) return;
    this.arm();
  }

  cancel(): void {
    this.done = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    this.startedAt = performance.now();
    if (this.remainingMs === Infinity) return;
    this.timer = setTimeout(
      () => {
        this.done = true;
        this.fire();
      },
      Math.max(0, this.remainingMs),
    );
    this.timer.unref();
  }
}
