/**
 * Per-process memory limit: rewrite a module's memory section so every
 * defined memory has a maximum of at most `maxPages` (64 KiB pages). A
 * program that grows past it sees `memory.grow` fail (Rust's allocator then
 * aborts), and the kernel reports the limit. Pure byte surgery; the code
 * section is untouched.
 */
import { Errno, KernelError } from '../base/errno.js';

function readLeb(b: Uint8Array, off: number): [number, number] {
  let result = 0;
  let shift = 0;
  let pos = off;
  for (;;) {
    if (pos >= b.length || shift > 35)
      throw new KernelError(Errno.ENOEXEC, 'malformed wasm (LEB128)');
    const byte = b[pos++] as number;
    result += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if ((byte & 0x80) === 0) return [result, pos];
  }
}

function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return out;
}

/** Memory limits found in the module, after rewriting (for tests and messages). */
export interface Rewritten {
  readonly bytes: Uint8Array;
  readonly maxPages: number | undefined;
}

export function limitMemory(wasm: Uint8Array, maxPages: number): Rewritten {
  if (
    wasm.length < 8 ||
    wasm[0] !== 0 ||
    wasm[1] !== 0x61 ||
    wasm[2] !== 0x73 ||
    wasm[3] !== 0x6d
  ) {
    throw new KernelError(Errno.ENOEXEC, 'not a wasm module');
  }
  let off = 8;
  while (off < wasm.length) {
    const id = wasm[off] as number;
    const [size, payloadStart] = readLeb(wasm, off + 1);
    const end = payloadStart + size;
    if (end > wasm.length) throw new KernelError(Errno.ENOEXEC, 'malformed wasm (section size)');
    if (id === 5) {
      let p = payloadStart;
      const [count, p1] = readLeb(wasm, p);
      p = p1;
      const body: number[] = [...leb(count)];
      let effective: number | undefined;
      for (let i = 0; i < count; i++) {
        const flags = wasm[p++] as number;
        if (flags & 4) throw new KernelError(Errno.ENOEXEC, 'memory64 is not supported');
        const [min, p2] = readLeb(wasm, p);
        p = p2;
        let max: number | undefined;
        if (flags & 1) {
          const [m, p3] = readLeb(wasm, p);
          max = m;
          p = p3;
        }
        if (min > maxPages)
          throw new KernelError(Errno.ENOMEM, `module needs ${min} pages, limit is ${maxPages}`);
        const newMax = Math.min(max ?? maxPages, maxPages);
        effective = newMax;
        body.push(flags | 1, ...leb(min), ...leb(newMax));
      }
      if (p !== end) throw new KernelError(Errno.ENOEXEC, 'malformed wasm (memory section)');
      const sizeBytes = leb(body.length);
      const out = new Uint8Array(off + 1 + sizeBytes.length + body.length + (wasm.length - end));
      out.set(wasm.subarray(0, off));
      out[off] = 5;
      out.set(sizeBytes, off + 1);
      out.set(body, off + 1 + sizeBytes.length);
      out.set(wasm.subarray(end), off + 1 + sizeBytes.length + body.length);
      return { bytes: out, maxPages: effective };
    }
    off = end;
  }
  return { bytes: wasm, maxPages: undefined };
}
