/**
 * Programs a worker may run again on the same instance. Instantiating a
 * module costs ~0.25 ms for coreutils, and every dead instance stays on the
 * worker's heap until a full collection (~0.3 ms of GC per process): most
 * of what starting a small program costs once its memory is reused. An
 * instance's state is its memory (restored from an image taken before the
 * first `_start`), its mutable globals (exported by this rewrite as
 * `RESTART_GLOBAL<i>` so the worker can put them back) and its tables,
 * which wasi programs never change. Only modules whose state is all there
 * qualify: no start function, no passive data segments (they are dropped
 * after use), globals initialised by constant expressions.
 */
import { leb, readLeb, sections } from '../limits/memoryLimit.js';

/** Export-name prefix of the mutable globals this rewrite exports. */
export const RESTART_GLOBAL = 'sandglass_global_';

/** i32/i64 add, sub and mul (extended constant expressions): no operands. */
const ARITH = new Set([0x6a, 0x6b, 0x6c, 0x7c, 0x7d, 0x7e]);

/** Skips a constant expression at `p`; undefined if it holds an instruction we do not know. */
function skipConstExpr(b: Uint8Array, p: number): number | undefined {
  for (;;) {
    const op = b[p++];
    if (op === 0x0b) return p;
    if (op === 0x41 || op === 0x42 || op === 0x23 || op === 0xd2) p = skipLeb(b, p);
    else if (op === 0x43) p += 4;
    else if (op === 0x44) p += 8;
    else if (op === 0xd0) p += 1;
    else if (op === undefined || !ARITH.has(op)) return undefined;
    if (p > b.length) return undefined;
  }
}

/** Offset after the LEB128 at `p` (nothing decoded, nothing allocated). */
function skipLeb(b: Uint8Array, p: number): number {
  while ((b[p++] as number) & 0x80);
  return p;
}

/** The LEB128 at `p`, decoded in place: [value, offset after it] without a call per byte. */
function lebAt(b: Uint8Array, p: number): [number, number] {
  let n = 0;
  let mul = 1;
  let byte: number;
  do {
    byte = b[p++] as number;
    n += (byte & 0x7f) * mul;
    mul *= 128;
  } while (byte & 0x80);
  return [n, p];
}

/**
 * Whether every data segment of the section payload [p, end) is active
 * with an offset we can skip. Written for cold code: the shell has ~3,000
 * segments and this runs once per program on a cold start, in V8's
 * interpreter (a `readLeb` per field cost ~5 ms of CPU, this ~2.5).
 */
function activeSegmentsOnly(b: Uint8Array, p: number, end: number): boolean {
  let [n, q] = lebAt(b, p);
  for (; n > 0; n--) {
    const flags = b[q++];
    if (flags === 2) q = skipLeb(b, q);
    else if (flags !== 0) return false; // passive
    const r = skipConstExpr(b, q);
    if (r === undefined) return false;
    const [len, s] = lebAt(b, r);
    q = s + len;
    if (q > end) return false;
  }
  return true;
}

/** Whether `wasm`'s data segments allow restarts: all active (see above). */
export function dataSegmentsRestartable(wasm: Uint8Array): boolean {
  const data = sections(wasm).find((s) => s.id === 11);
  return data === undefined || activeSegmentsOnly(wasm, data.payload, data.end);
}

/**
 * `wasm` with its mutable globals exported, if a worker may restart its
 * instances (see above); undefined if not.
 */
export function exportGlobals(wasm: Uint8Array): Uint8Array | undefined {
  const out = exportMutableGlobals(wasm);
  return out && dataSegmentsRestartable(wasm) ? out : undefined;
}

/**
 * `wasm` with its mutable globals exported, data segments not checked
 * (`dataSegmentsRestartable`: the exports change nothing for an instance
 * that is not restarted, so a module can compile with them while its
 * segments are checked); undefined if it has a start function or globals
 * this rewrite cannot read.
 */
export function exportMutableGlobals(wasm: Uint8Array): Uint8Array | undefined {
  const secs = sections(wasm);
  if (secs.some((s) => s.id === 8)) return undefined; // a start function
  let importedGlobals = 0;
  const imp = secs.find((s) => s.id === 2);
  if (imp) {
    let [n, p] = readLeb(wasm, imp.payload);
    for (; n > 0; n--) {
      for (let k = 0; k < 2; k++) {
        const [len, q] = readLeb(wasm, p);
        p = q + len;
      }
      const kind = wasm[p++];
      if (kind === 0) p = readLeb(wasm, p)[1];
      else if (kind === 1 || kind === 2) {
        if (kind === 1) p++;
        const flags = wasm[p] as number;
        p = readLeb(wasm, p + 1)[1];
        if (flags & 1) p = readLeb(wasm, p)[1];
      } else if (kind === 3) {
        importedGlobals++;
        p += 2;
      } else return undefined;
    }
  }
  const mutable: number[] = [];
  const glob = secs.find((s) => s.id === 6);
  if (glob) {
    const [n, first] = readLeb(wasm, glob.payload);
    let p = first;
    for (let i = 0; i < n; i++) {
      const mut = wasm[p + 1];
      const q = skipConstExpr(wasm, p + 2);
      if (q === undefined) return undefined;
      if (mut === 1) mutable.push(importedGlobals + i);
      p = q;
    }
  }
  const exp = secs.find((s) => s.id === 7);
  if (!exp) return undefined;
  const [count, first] = readLeb(wasm, exp.payload);
  const added: number[] = [];
  mutable.forEach((index, i) => {
    const name = Array.from(`${RESTART_GLOBAL}${i}`, (c) => c.charCodeAt(0));
    added.push(...leb(name.length), ...name, 3, ...leb(index));
  });
  const body = [...leb(count + mutable.length)];
  const rest = wasm.subarray(first, exp.end);
  const size = body.length + rest.length + added.length;
  const head = Uint8Array.from([7, ...leb(size), ...body]);
  const out = new Uint8Array(
    exp.start + head.length + rest.length + added.length + (wasm.length - exp.end),
  );
  let o = 0;
  for (const part of [
    wasm.subarray(0, exp.start),
    head,
    rest,
    Uint8Array.from(added),
    wasm.subarray(exp.end),
  ]) {
    out.set(part, o);
    o += part.length;
  }
  return out;
}
