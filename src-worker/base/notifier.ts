/** A level-free wakeup: `wait()` resolves at the next `notify()`. Used for blocking I/O. */
export class Notifier {
  private waiters = new Set<() => void>();

  wait(): Promise<void> {
    return new Promise((resolve) => this.waiters.add(resolve));
  }

  /** Call `fn` at the next notify; returns a function that cancels it (so sleepers woken otherwise leave nothing behind). */
  once(fn: () => void): () => void {
    this.waiters.add(fn);
    return () => this.waiters.delete(fn);
  }

  notify(): void {
    if (this.waiters.size === 0) return;
    const w = this.waiters;
    this.waiters = new Set();
    for (const f of w) f();
  }
}
