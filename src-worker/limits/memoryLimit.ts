/**
 * Per-process memory limit: rewrite a module's memory section so every
 * defined memory has a maximum of at most `maxPages` (64 KiB pages). A
 * program that grows past it sees `memory.grow` fail (Rust's allocator then
 * aborts), and the kernel reports the limit. Pure byte surgery; the code
 * section is untouched.
 */
import { Errno, KernelError } from '../base/errno.js';

/** Reads an unsigned LEB128 at `off`: [value, offset after it]. */
export function readLeb(b: Uint8Array, off: number): [number, number] {
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

/** Encodes an unsigned LEB128. */
export function leb(n: number): number[] {
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

/** Where a module whose memory `importMemory` turned into an import gets it. */
export const MEMORY_IMPORT = { module: 'sandglass_memory', name: 'memory' } as const;

/** The limits of a memory a module imports, in 64 KiB pages. */
export interface MemoryShape {
  readonly initial: number;
  readonly maximum: number;
}

export interface Section {
  readonly id: number;
  /** Offset of the section id byte. */
  readonly start: number;
  readonly payload: number;
  readonly end: number;
}

/** The module's sections in order (the 8-byte header skipped). */
export function sections(wasm: Uint8Array): Section[] {
  const out: Section[] = [];
  let off = 8;
  while (off < wasm.length) {
    const id = wasm[off] as number;
    const [size, payload] = readLeb(wasm, off + 1);
    const end = payload + size;
    if (end > wasm.length) throw new KernelError(Errno.ENOEXEC, 'malformed wasm (section size)');
    out.push({ id, start: off, payload, end });
    off = end;
  }
  return out;
}

/** Skips a limits record (flags, min, [max]) at `p`. */
function skipLimits(wasm: Uint8Array, p: number): number {
  const flags = wasm[p] as number;
  p = readLeb(wasm, p + 1)[1];
  return flags & 1 ? readLeb(wasm, p)[1] : p;
}

/**
 * Turn a module's one defined memory (with a maximum: run `limitMemory`
 * first) into an import of `MEMORY_IMPORT`, so a worker can hand it a memory
 * it already has (zeroed) instead of the engine reserving and faulting in a
 * new one for every process. Index 0 stays the memory, so the code and
 * exports are untouched. Undefined (use the module as it is) when the
 * module has no memory, several, a shared one or an imported one.
 */
export function importMemory(
  wasm: Uint8Array,
): { readonly bytes: Uint8Array; readonly memory: MemoryShape } | undefined {
  const secs = sections(wasm);
  const mem = secs.find((s) => s.id === 5);
  if (!mem) return undefined;
  let p = mem.payload;
  const [count, p1] = readLeb(wasm, p);
  if (count !== 1) return undefined;
  const flags = wasm[p1] as number;
  if (flags !== 1) return undefined; // no maximum, shared or 64-bit
  const [initial, p2] = readLeb(wasm, p1 + 1);
  const [maximum, p3] = readLeb(wasm, p2);
  if (p3 !== mem.end) throw new KernelError(Errno.ENOEXEC, 'malformed wasm (memory section)');
  const imp = secs.find((s) => s.id === 2);
  let entries: Uint8Array = new Uint8Array(0);
  let n = 0;
  if (imp) {
    [n, p] = readLeb(wasm, imp.payload);
    const first = p;
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < 2; k++) {
        const [len, q] = readLeb(wasm, p);
        p = q + len;
      }
      const kind = wasm[p++];
      if (kind === 0) p = readLeb(wasm, p)[1];
      else if (kind === 1) p = skipLimits(wasm, p + 1);
      else if (kind === 2)
        return undefined; // imports a memory already
      else if (kind === 3) p += 2;
      else return undefined; // a kind this rewrite does not know: leave the module alone
    }
    if (p !== imp.end) throw new KernelError(Errno.ENOEXEC, 'malformed wasm (import section)');
    entries = wasm.subarray(first, imp.end);
  }
  const name = (s: string): number[] => [
    ...leb(s.length),
    ...Array.from(s, (c) => c.charCodeAt(0)),
  ];
  const added = [
    ...name(MEMORY_IMPORT.module),
    ...name(MEMORY_IMPORT.name),
    2,
    1,
    ...leb(initial),
    ...leb(maximum),
  ];
  const body = [...leb(n + 1)];
  const payloadLen = body.length + entries.length + added.length;
  const header = [2, ...leb(payloadLen)];
  // The import section goes where it was, or before the first later section.
  const at = imp ? imp.start : (secs.find((s) => s.id > 2 && s.id !== 0)?.start ?? wasm.length);
  const parts: Uint8Array[] = [wasm.subarray(0, at)];
  parts.push(Uint8Array.from([...header, ...body]), entries, Uint8Array.from(added));
  let from = imp ? imp.end : at;
  // Drop the memory section (it comes after the imports).
  parts.push(wasm.subarray(from, mem.start));
  from = mem.end;
  parts.push(wasm.subarray(from));
  const total = parts.reduce((s, x) => s + x.length, 0);
  const out = new Uint8Array(total);
  let o = 0;
  for (const x of parts) {
    out.set(x, o);
    o += x.length;
  }
  return { bytes: out, memory: { initial, maximum } };
}
