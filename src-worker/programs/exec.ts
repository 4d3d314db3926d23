/**
 * exec: turn a path into something runnable. Reads the file through the VFS
 * (EACCES without the exec bit), then: wasm magic -> the module itself;
 * `#!sandglass PROGRAM [APPLET]` -> a registry program (argv[0] becomes the
 * applet); `#!INTERP [ARG]` -> the interpreter with the script path; anything
 * else -> ENOEXEC. Compiled modules are cached engine-wide.
 */
import { createHash } from 'node:crypto';
import { Errno, fail, KernelError } from '../base/errno.js';
import { importMemory, limitMemory, type MemoryShape } from '../limits/memoryLimit.js';
import { bytesToPath, X_OK, type BytePath, type Cred, type Vfs } from '../vfs/index.js';
import type { Image } from './image.js';
import { PYTHON_PROGRAM } from './python.js';
import { STUB_MAGIC, type ProgramRegistry } from './registry.js';
import { dataSegmentsRestartable, exportMutableGlobals } from './restart.js';

const MAX_CACHE = 64;

/** A compiled program; `memory` when it imports its memory (see `importMemory`). */
export interface Compiled {
  readonly module: WebAssembly.Module;
  readonly memory?: MemoryShape;
  readonly restartable?: boolean;
}

/**
 * A module's bytes as the engine runs them: its memory limited to
 * `maxPages`, made an import where it can be (`memory`), and its mutable
 * globals exported when it may be restarted (`exported`: its data segments
 * are still to be checked, `dataSegmentsRestartable`).
 */
export interface RewrittenProgram {
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly memory: MemoryShape | undefined;
  readonly exported: boolean;
}

export function rewriteProgram(wasm: Uint8Array, maxPages: number): RewrittenProgram {
  const limited = limitMemory(wasm, maxPages).bytes;
  const imported = importMemory(limited);
  // A module on an imported memory may be restarted if its globals can be put back.
  const exported = imported ? exportMutableGlobals(imported.bytes) : undefined;
  const final = exported ?? imported?.bytes ?? limited;
  // What every BufferSource typing accepts; the rewrites' output already is (no copy).
  const bytes =
    final.buffer instanceof ArrayBuffer
      ? new Uint8Array(final.buffer, final.byteOffset, final.byteLength)
      : new Uint8Array(final);
  return { bytes, memory: imported?.memory, exported: exported !== undefined };
}

const cache = new Map<string, Promise<Compiled>>();

function remember(k: string, m: Promise<Compiled>): void {
  cache.set(k, m);
  m.catch(() => cache.delete(k));
  while (cache.size > MAX_CACHE) cache.delete(cache.keys().next().value as string);
}

function compileCached(key: string, bytes: () => Uint8Array, maxPages: number): Promise<Compiled> {
  const k = `${key}:${maxPages}`;
  let m = cache.get(k);
  if (m) {
    cache.delete(k);
    cache.set(k, m); // LRU touch
    return m;
  }
  m = (async () => {
    const { bytes: rewritten, memory, exported } = rewriteProgram(bytes(), maxPages);
    try {
      const compiling = WebAssembly.compile(rewritten);
      compiling.catch(() => undefined); // awaited below; never an unhandled rejection meanwhile
      // Checked while V8 compiles on its threads: the shell has ~3,000 data
      // segments to walk (~3-5 ms of a cold start's main thread).
      const restartable = exported && dataSegmentsRestartable(rewritten);
      const module = await compiling;
      if (!memory) return { module };
      return restartable ? { module, memory, restartable: true } : { module, memory };
    } catch (e) {
      throw new KernelError(Errno.ENOEXEC, `invalid wasm module: ${(e as Error).message}`);
    }
  })();
  remember(k, m);
  return m;
}

/**
 * Registry programs compiled before the engine asked for them, by file:
 * a one-shot CLI run compiles the shell from its prepared bytes while it
 * loads and creates the sandbox (cli/preparedShell.ts). Taken by the first
 * exec of that file with that memory limit.
 */
const primed = new Map<string, { maxPages: number; compiled: Promise<Compiled | undefined> }>();

/**
 * Offers `compiled` as the program at host path `file` under `maxPages`
 * (the caller vouches that it was compiled from that file's current bytes,
 * rewritten by `rewriteProgram` with `maxPages`). If it fails, exec
 * compiles the file as usual.
 */
export function primeProgram(file: string, maxPages: number, compiled: Promise<Compiled>): void {
  primed.set(file, { maxPages, compiled: compiled.catch(() => undefined) });
}

/** The primed compile of `file` for `maxPages`, cached as `key` once it has succeeded. */
async function takePrimed(file: string, key: string, maxPages: number): Promise<void> {
  const p = primed.get(file);
  if (p === undefined) return;
  primed.delete(file);
  const k = `${key}:${maxPages}`;
  if (p.maxPages !== maxPages || cache.has(k)) return;
  const compiled = await p.compiled;
  if (compiled !== undefined && !cache.has(k)) remember(k, Promise.resolve(compiled));
}

const dec = new TextDecoder();
const enc = new TextEncoder();

function startsWith(b: Uint8Array, s: string): boolean {
  if (b.length < s.length) return false;
  for (let i = 0; i < s.length; i++) if (b[i] !== s.charCodeAt(i)) return false;
  return true;
}

export interface ExecContext {
  readonly vfs: Vfs;
  readonly registry: ProgramRegistry;
  readonly maxPages: number;
}

export async function resolveImage(
  ctx: ExecContext,
  path: BytePath,
  argv: Uint8Array[],
  cwd: BytePath,
  cred: Cred,
  depth = 0,
): Promise<Image> {
  if (depth > 4) fail(Errno.ELOOP, 'too many nested interpreters');
  if (path.length === 0) fail(Errno.ENOENT);
  const st = ctx.vfs.stat(path, { cwd, cred });
  if (st.kind === 'dir') fail(Errno.EACCES, 'is a directory');
  if (st.kind !== 'file') fail(Errno.EACCES);
  ctx.vfs.access(path, X_OK, { cwd, cred });
  if (cred.uid === 0 && (st.mode & 0o111) === 0) fail(Errno.EACCES);
  const bytes = ctx.vfs.readFile(path, { cwd, cred });
  const name = argv.length ? dec.decode(argv[0]) : path;
  if (
    bytes.length >= 4 &&
    bytes[0] === 0 &&
    bytes[1] === 0x61 &&
    bytes[2] === 0x73 &&
    bytes[3] === 0x6d
  ) {
    const key = createHash('sha1').update(bytes).digest('hex');
    const compiled = await compileCached(`sha1:${key}`, () => bytes, ctx.maxPages);
    return { kind: 'wasm', ...compiled, role: 'utility', argv, name };
  }
  if (startsWith(bytes, STUB_MAGIC)) {
    const line = dec
      .decode(bytes.subarray(0, Math.min(bytes.length, 256)))
      .split('\n')[0] as string;
    const [prog, applet] = line.slice(STUB_MAGIC.length).trim().split(/\s+/);
    if (prog === PYTHON_PROGRAM) {
      return {
        kind: 'python',
        argv: argv.length ? argv : [enc.encode(path)],
        name,
        memoryBytes: ctx.maxPages * 65536,
      };
    }
    const info = prog ? ctx.registry.get(prog) : undefined;
    if (!info) fail(Errno.ENOEXEC, `unknown program '${prog ?? ''}'`);
    if (primed.size > 0) {
      const file = ctx.registry.path(info);
      if (file !== undefined) await takePrimed(file, `program:${info.name}`, ctx.maxPages);
    }
    const compiled = await compileCached(
      `program:${info.name}`,
      () => ctx.registry.load(info),
      ctx.maxPages,
    );
    const newArgv = argv.slice();
    // GNU tools name themselves by argv[0] as given (`/bin/cat: x: ...`): keep
    // it when it names the applet; the multicall binary picks by basename.
    if (applet) {
      if (!namesApplet(newArgv[0], applet)) newArgv[0] = enc.encode(applet);
    } else if (newArgv.length === 0) newArgv.push(enc.encode(path));
    return { kind: 'wasm', ...compiled, role: info.role, argv: newArgv, name: applet ?? name };
  }
  if (bytes.length >= 2 && bytes[0] === 0x23 && bytes[1] === 0x21) {
    let end = bytes.indexOf(0x0a);
    if (end < 0) end = bytes.length;
    const line = bytesToPath(bytes.subarray(2, Math.min(end, 258))).trim();
    const sp = line.search(/[ \t]/);
    const interp = sp < 0 ? line : line.slice(0, sp);
    const arg = sp < 0 ? '' : line.slice(sp).trim();
    if (!interp) fail(Errno.ENOEXEC, 'empty #! line');
    const toBytes = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));
    const newArgv = [
      toBytes(interp),
      ...(arg ? [toBytes(arg)] : []),
      toBytes(path),
      ...argv.slice(1),
    ];
    return resolveImage(ctx, interp, newArgv, cwd, cred, depth + 1);
  }
  return fail(Errno.ENOEXEC, 'not a wasm module or script');
}

/** Whether `arg0`'s basename is `applet` (`/bin/cat` and `cat` name `cat`). */
function namesApplet(arg0: Uint8Array | undefined, applet: string): boolean {
  if (arg0 === undefined) return false;
  const slash = arg0.lastIndexOf(0x2f);
  return bytesToPath(arg0.subarray(slash + 1)) === applet;
}
