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
interface Compiled {
  readonly module: WebAssembly.Module;
  readonly memory?: MemoryShape;
  readonly restartable?: boolean;
}

const cache = new Map<string, Promise<Compiled>>();

function compileCached(key: string, bytes: () => Uint8Array, maxPages: number): Promise<Compiled> {
  const k = `${key}:${maxPages}`;
  let m = cache.get(k);
  if (m) {
    cache.delete(k);
    cache.set(k, m); // LRU touch
    return m;
  }
  m = (async () => {
    const limited = limitMemory(bytes(), maxPages).bytes;
    const imported = importMemory(limited);
    // A module on an imported memory may be restarted if its globals can be put back.
    const exported = imported ? exportMutableGlobals(imported.bytes) : undefined;
    const final = exported ?? imported?.bytes ?? limited;
    // What every BufferSource typing accepts; the rewrites' output already is (no copy).
    const rewritten =
      final.buffer instanceof ArrayBuffer
        ? new Uint8Array(final.buffer, final.byteOffset, final.byteLength)
        : new Uint8Array(final);
    try {
      const compiling = WebAssembly.compile(rewritten);
      compiling.catch(() => undefined); // awaited below; never an unhandled rejection meanwhile
      // Checked while V8 compiles on its threads: the shell has ~3,000 data
      // segments to walk (~3-5 ms of a cold start's main thread).
      const restartable = exported !== undefined && dataSegmentsRestartable(exported);
      const module = await compiling;
      if (!imported) return { module };
      return restartable
        ? { module, memory: imported.memory, restartable: true }
        : { module, memory: imported.memory };
    } catch (e) {
      throw new KernelError(Errno.ENOEXEC, `invalid wasm module: ${(e as Error).message}`);
    }
  })();
  cache.set(k, m);
  m.catch(() => cache.delete(k));
  while (cache.size > MAX_CACHE) cache.delete(cache.keys().next().value as string);
  return m;
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
    const compiled = await compileCached(
      `program:${info.name}`,
      () => ctx.registry.load(info),
      ctx.maxPages,
    );
    const newArgv = argv.slice();
    if (applet) newArgv[0] = enc.encode(applet);
    else if (newArgv.length === 0) newArgv.push(enc.encode(path));
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
