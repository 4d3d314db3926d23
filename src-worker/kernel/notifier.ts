/** A level-free wakeup: `wait()` resolves at the next `notify()`. Used for blocking I/O. */
export class Notifier {
  private waiters: (() => void)[] = [];

  wait(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  notify(): void {
    const w = this.waiters;
    if (w.length === 0) return;
    this.waiters = [];
    for (const f of w) f();
  }
}
