/**
 * Checked access to a guest's linear memory. Every pointer a guest hands us
 * goes through here: out of bounds is `Fault` (the glue answers EFAULT),
 * never a host exception. Views are refreshed when memory grows.
 */

/** A bad guest pointer; the glue turns it into EFAULT. */
export class Fault extends Error {
  constructor() {
    super('bad guest address');
  }
}

export class GuestMemory {
  private buf: ArrayBuffer | undefined;
  private u8v: Uint8Array = new Uint8Array(0);
  private dvv: DataView = new DataView(new ArrayBuffer(0));

  constructor(private readonly memory: WebAssembly.Memory) {}

  private refresh(): void {
    const b = this.memory.buffer;
    if (this.buf !== b) {
      this.buf = b;
      this.u8v = new Uint8Array(b);
      this.dvv = new DataView(b);
    }
  }

  get size(): number {
    return this.memory.buffer.byteLength;
  }

  check(ptr: number, len: number): void {
    this.refresh();
    if (ptr < 0 || len < 0 || ptr + len > this.u8v.length || !Number.isInteger(ptr))
      throw new Fault();
  }

  u8(): Uint8Array {
    this.refresh();
    return this.u8v;
  }

  getU32(ptr: number): number {
    this.check(ptr, 4);
    return this.dvv.getUint32(ptr, true);
  }
  getU64(ptr: number): bigint {
    this.check(ptr, 8);
    return this.dvv.getBigUint64(ptr, true);
  }
  getU16(ptr: number): number {
    this.check(ptr, 2);
    return this.dvv.getUint16(ptr, true);
  }
  getU8(ptr: number): number {
    this.check(ptr, 1);
    return this.u8v[ptr] as number;
  }
  setU8(ptr: number, v: number): void {
    this.check(ptr, 1);
    this.u8v[ptr] = v;
  }
  setU16(ptr: number, v: number): void {
    this.check(ptr, 2);
    this.dvv.setUint16(ptr, v, true);
  }
  setU32(ptr: number, v: number): void {
    this.check(ptr, 4);
    this.dvv.setUint32(ptr, v >>> 0, true);
  }
  setI32(ptr: number, v: number): void {
    this.check(ptr, 4);
    this.dvv.setInt32(ptr, v | 0, true);
  }
  setU64(ptr: number, v: bigint): void {
    this.check(ptr, 8);
    this.dvv.setBigUint64(ptr, BigInt.asUintN(64, v), true);
  }

  /** A copy of guest bytes. */
  read(ptr: number, len: number): Uint8Array {
    this.check(ptr, len);
    return this.u8v.slice(ptr, ptr + len);
  }

  write(ptr: number, data: Uint8Array): void {
    this.check(ptr, data.length);
    this.u8v.set(data, ptr);
  }

  /** A view of guest bytes (no copy): valid until the guest runs again or memory grows. */
  view(ptr: number, len: number): Uint8Array {
    this.check(ptr, len);
    return this.u8v.subarray(ptr, ptr + len);
  }

  /**
   * Gather an iovec array (buf u32, len u32 pairs), capped at `cap` bytes.
   * One buffer (the common case) comes back as a view, to be consumed
   * before the guest runs again; several are joined into a copy.
   */
  gather(iovs: number, count: number, cap: number): Uint8Array {
    const parts: Uint8Array[] = [];
    let total = 0;
    for (let i = 0; i < count && total < cap; i++) {
      const p = this.getU32(iovs + i * 8);
      const l = Math.min(this.getU32(iovs + i * 8 + 4), cap - total);
      parts.push(this.view(p, l));
      total += l;
    }
    if (parts.length === 1) return parts[0] as Uint8Array;
    const out = new Uint8Array(total);
    let off = 0;
    for (const p of parts) {
      out.set(p, off);
      off += p.length;
    }
    return out;
  }

  /** Total capacity of an iovec array. */
  iovLength(iovs: number, count: number): number {
    let total = 0;
    for (let i = 0; i < count; i++) total += this.getU32(iovs + i * 8 + 4);
    return total;
  }

  /** Scatter bytes into an iovec array; returns bytes written. */
  scatter(iovs: number, count: number, data: Uint8Array): number {
    let off = 0;
    for (let i = 0; i < count && off < data.length; i++) {
      const p = this.getU32(iovs + i * 8);
      const l = Math.min(this.getU32(iovs + i * 8 + 4), data.length - off);
      this.write(p, data.subarray(off, off + l));
      off += l;
    }
    return off;
  }
}
