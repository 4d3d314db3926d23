/**
 * A total timeout that can be paused: time spent waiting for a person to
 * approve a request does not count against it.
 */
export class Deadline {
  private remaining: number;
  private startedAt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  expired = false;

  /** `ms` <= 0 means no deadline. */
  constructor(
    ms: number,
    private readonly onExpire: () => void,
  ) {
    this.remaining = ms > 0 ? ms : Infinity;
    this.resume();
  }

  pause(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.remaining -= Date.now() - this.startedAt;
  }

  resume(): void {
    if (this.timer || this.expired || this.remaining === Infinity) return;
    this.startedAt = Date.now();
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.expired = true;
        this.onExpire();
      },
      Math.max(0, this.remaining),
    );
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
