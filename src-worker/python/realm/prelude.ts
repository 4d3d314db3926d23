/**
 * The few web globals Pyodide expects, written inside the interpreter's
 * realm so nothing of the worker's realm is reachable through them:
 * TextEncoder/TextDecoder (UTF-8, with surrogateescape for bytes that are not), performance.now, crypto, console,
 * and the `read`/`readbuffer`/`load` trio that makes Pyodide's loader take
 * its "shell" path and read files from buffers handed over at boot.
 */

/** Files handed over at boot (name → shared bytes), read by the loader. */
const files = new Map<string, SharedArrayBuffer>();

/** Bytes the worker drew from the host's CSPRNG at boot, used until the kernel is reachable. */
let seedPool: Uint8Array = new Uint8Array(0);
let seedAt = 0;
/** After boot: entropy comes from the kernel's /dev/urandom. */
let kernelRandom: ((dst: Uint8Array) => void) | undefined;
/** Where console output goes once a process runs (stderr). */
let consoleSink: ((text: string) => void) | undefined;

export function addFile(name: string, sab: SharedArrayBuffer): void {
  files.set(name, sab);
}

export function setSeed(bytes: Uint8Array): void {
  seedPool = bytes;
  seedAt = 0;
}

export function setKernelRandom(f: (dst: Uint8Array) => void): void {
  kernelRandom = f;
}

export function setConsoleSink(f: (text: string) => void): void {
  consoleSink = f;
}

function utf8Encode(s: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d < 0xe000) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (c >= 0xdc80 && c < 0xdd00) {
      // surrogateescape: a byte that was not UTF-8 (see utf8Decode).
      out.push(c - 0xdc00);
      continue;
    }
    if (c >= 0xd800 && c < 0xe000) c = 0xfffd;
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else
      out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return Uint8Array.from(out);
}

export function utf8Decode(u: Uint8Array): string {
  let s = '';
  let chunk: number[] = [];
  const flush = (): void => {
    s += String.fromCharCode.apply(null, chunk);
    chunk = [];
  };
  for (let i = 0; i < u.length;) {
    const b = u[i] as number;
    // A byte that is not UTF-8 becomes U+DC00+b, as CPython's surrogateescape
    // (file names from the kernel and from C go back to the same bytes).
    let cp = 0xdc00 + b;
    let n = 1;
    if (b < 0x80) cp = b;
    else if (b >= 0xc2 && b < 0xe0 && i + 1 < u.length) {
      const b1 = u[i + 1] as number;
      if ((b1 & 0xc0) === 0x80) {
        cp = ((b & 31) << 6) | (b1 & 63);
        n = 2;
      }
    } else if (b >= 0xe0 && b < 0xf0 && i + 2 < u.length) {
      const b1 = u[i + 1] as number;
      const b2 = u[i + 2] as number;
      if ((b1 & 0xc0) === 0x80 && (b2 & 0xc0) === 0x80) {
        const v = ((b & 15) << 12) | ((b1 & 63) << 6) | (b2 & 63);
        if (v >= 0x800 && (v < 0xd800 || v >= 0xe000)) {
          cp = v;
          n = 3;
        }
      }
    } else if (b >= 0xf0 && b < 0xf5 && i + 3 < u.length) {
      const b1 = u[i + 1] as number;
      const b2 = u[i + 2] as number;
      const b3 = u[i + 3] as number;
      if ((b1 & 0xc0) === 0x80 && (b2 & 0xc0) === 0x80 && (b3 & 0xc0) === 0x80) {
        const v = ((b & 7) << 18) | ((b1 & 63) << 12) | ((b2 & 63) << 6) | (b3 & 63);
        if (v >= 0x10000 && v < 0x110000) {
          cp = v;
          n = 4;
        }
      }
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      chunk.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 1023));
    } else chunk.push(cp);
    if (chunk.length > 8000) flush();
    i += n;
  }
  flush();
  return s;
}

function bytesOf(v: unknown): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  if (v instanceof ArrayBuffer || v instanceof SharedArrayBuffer) return new Uint8Array(v);
  return new Uint8Array(0);
}

class RealmTextEncoder {
  readonly encoding = 'utf-8';
  encode(s = ''): Uint8Array {
    return utf8Encode(String(s));
  }
  encodeInto(s: string, dst: Uint8Array): { read: number; written: number } {
    const u = utf8Encode(s);
    const n = Math.min(u.length, dst.length);
    dst.set(u.subarray(0, n));
    return { read: s.length, written: n };
  }
}

class RealmTextDecoder {
  readonly encoding = 'utf-8';
  decode(v?: unknown): string {
    return v === undefined ? '' : utf8Decode(bytesOf(v));
  }
}

/** Bytes fetched from the kernel at a time once the boot entropy is used up. */
const KERNEL_ENTROPY_BLOCK = 4096;

/**
 * Entropy: first the bytes the worker drew from the host's CSPRNG when it
 * started (fresh per interpreter, each byte used once: no syscall for the
 * hash secret or `random`'s reseed), then the kernel's /dev/urandom in
 * blocks (getentropy asks for 256 bytes at a time).
 */
function getRandomValues<T extends ArrayBufferView>(a: T): T {
  const u = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  for (let at = 0; at < u.length;) {
    if (seedAt >= seedPool.length) {
      if (!kernelRandom) throw new Error('sandglass: boot entropy exhausted');
      seedPool = new Uint8Array(KERNEL_ENTROPY_BLOCK);
      kernelRandom(seedPool);
      seedAt = 0;
    }
    const n = Math.min(u.length - at, seedPool.length - seedAt);
    u.set(seedPool.subarray(seedAt, seedAt + n), at);
    seedAt += n;
    at += n;
  }
  return a;
}

/** A file's shared bytes, without a copy (read only). */
export function fileBytes(path: string): Uint8Array {
  const s = files.get(path);
  if (!s) throw new Error(`sandglass realm: no file ${path}`);
  return new Uint8Array(s);
}

/** The loader's file read: the shared bytes themselves (MEMFS keeps them without a copy, see sharedFile.ts). */
function readbuffer(path: string): SharedArrayBuffer {
  const s = files.get(path);
  if (!s) throw new Error(`sandglass realm: no file ${path}`);
  return s;
}

const t0 = Date.now();

/**
 * Word 0 non-zero once the worker has moved on to a new realm: this one must
 * never run again. The worker sets it without calling into the realm.
 */
let retiredFlag: Int32Array | undefined;

export function setRetiredFlag(flag: Int32Array): void {
  retiredFlag = flag;
}

const retired = (): boolean => retiredFlag !== undefined && Atomics.load(retiredFlag, 0) !== 0;

/**
 * FinalizationRegistry whose callbacks stop once the realm is retired:
 * Pyodide frees Python objects from them, which could run user `__del__`
 * code in the thread while it serves the next realm. The realm's own
 * registry is held in a private field, not inherited, so nothing reached from
 * Python leads to a registry that would still call back.
 */
function retiringRegistry(Native: typeof FinalizationRegistry): unknown {
  return class RetiringFinalizationRegistry<T> {
    readonly #inner: FinalizationRegistry<T>;
    constructor(cleanup: (held: T) => void) {
      this.#inner = new Native((held: T) => {
        if (!retired()) cleanup(held);
      });
    }
    register(target: WeakKey, held: T, token?: WeakKey): void {
      this.#inner.register(target, held, token);
    }
    unregister(token: WeakKey): boolean {
      return this.#inner.unregister(token);
    }
  };
}

/** Install the globals; runs once, before Pyodide's scripts are evaluated. */
export function installPrelude(g: Record<string, unknown>): void {
  const log = (...args: unknown[]): void => consoleSink?.(args.map(String).join(' ') + '\n');
  const define = (name: string, value: unknown): void => {
    Object.defineProperty(g, name, { value, writable: true, configurable: true });
  };
  define('FinalizationRegistry', retiringRegistry(FinalizationRegistry));
  define('TextEncoder', RealmTextEncoder);
  define('TextDecoder', RealmTextDecoder);
  // Millisecond resolution: the realm has no high-resolution clock of its own.
  define('performance', { now: () => Date.now() - t0, timeOrigin: t0 });
  define('crypto', { getRandomValues });
  define('console', { log, info: log, warn: log, error: log, debug: (): void => {} });
  define('readbuffer', readbuffer);
  define('read', (path: string) => utf8Decode(new Uint8Array(readbuffer(path))));
  define('load', () => {
    throw new Error('sandglass realm: load() is not available');
  });
}
