/**
 * The bytes retained snapshots hold, counted as distinct memory blocks.
 * Snapshots share blocks (file chunks, session state blobs, recordings), so
 * each block is charged once however many steps own it. A step owns the
 * blocks it introduced; when its snapshot is released, the blocks that live
 * on in a child's snapshot pass to that child, and the rest are uncharged.
 */

/** Blocks one step is charged for. */
export type Owned = Map<object, number>;

export class BlockLedger {
  private readonly owners = new Map<object, { bytes: number; count: number }>();
  private total = 0;

  /** Bytes of all distinct blocks with an owner. */
  get bytes(): number {
    return this.total;
  }

  /** Charges `block` to `owned` (once). */
  charge(owned: Owned, block: object, bytes: number): void {
    if (owned.has(block)) return;
    owned.set(block, bytes);
    const entry = this.owners.get(block);
    if (entry) {
      entry.count++;
      return;
    }
    this.owners.set(block, { bytes, count: 1 });
    this.total += bytes;
  }

  /** Removes every charge of `owned` (it is emptied). */
  discharge(owned: Owned): void {
    for (const block of owned.keys()) {
      const entry = this.owners.get(block);
      if (!entry) continue;
      if (--entry.count === 0) {
        this.owners.delete(block);
        this.total -= entry.bytes;
      }
    }
    owned.clear();
  }
}
