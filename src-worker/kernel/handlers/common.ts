/** Shared pieces of the syscall handlers: the handler type, path bases, stat replies. */
import type { Reply } from '../../channel/server.js';
import { ROOT_FD, STAT_SLOTS } from '../../base/syscalls.js';
import type { KStat } from '../../fd/openFile.js';
import type { Process } from '../../proc/process.js';
import { bytesToPath, type BytePath, type Ino, type LookupOptions } from '../../vfs/index.js';
import type { Kernel } from '../kernel.js';

/** `out`, when given, is the channel's data area (see `SyscallHandler`). */
export type Handler = (
  k: Kernel,
  p: Process,
  args: number[],
  payload: Uint8Array,
  out?: Uint8Array,
) => Reply | Promise<Reply>;

/** Directory fd meaning "the process cwd" (sandglass calls use it). */
export const AT_FDCWD = -1;

export const a = (args: number[], i: number): number => args[i] ?? 0;

/**
 * Dirfd → directory to resolve against. `ROOT_FD` is always the root
 * preopen, whatever the program put in fd slot 3 (libc resolves every path
 * against it).
 */
export function base(p: Process, dirfd: number): BytePath | Ino {
  if (dirfd === AT_FDCWD) return p.cwd;
  if (dirfd === ROOT_FD) return p.fds.root().dirIno();
  return p.fds.get(dirfd).dirIno();
}

export function lookup(p: Process, dirfd: number, follow = true): LookupOptions {
  return { cwd: base(p, dirfd), follow, cred: p.cred };
}

/** Absolute (lexical) path of `path` relative to `dirfd`, for /proc and /dev/fd interception and two-path calls. */
export function absolute(k: Kernel, p: Process, dirfd: number, path: BytePath): BytePath {
  if (path.startsWith('/')) return normalize(path);
  const b = base(p, dirfd);
  const dir = typeof b === 'number' ? (k.vfs.pathOf(b) ?? '/') : b;
  return normalize(`${dir}/${path}`);
}

export function normalize(path: BytePath): BytePath {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return '/' + out.join('/');
}

/**
 * A stat's slots (`STAT_SLOTS`): WASI's filestat fields, then mode, uid and
 * gid (so the glue can answer the extended stat that usually follows from
 * the same reply).
 */
export function statSlots(s: KStat): number[] {
  return [
    s.dev,
    s.ino,
    s.filetype,
    s.nlink,
    s.size,
    s.atime,
    s.mtime,
    s.ctime,
    s.mode,
    s.uid,
    s.gid,
  ];
}

export function statReply(s: KStat): Reply {
  return { errno: 0, rets: statSlots(s) };
}

/**
 * The slots as float64s for a reply's data, built in `out` (the channel's
 * data area, 8-byte aligned) when given.
 */
export function statBytes(s: KStat, out?: Uint8Array): Uint8Array {
  const n = STAT_SLOTS * 8;
  const bytes = out && out.length >= n ? out.subarray(0, n) : new Uint8Array(n);
  new Float64Array(bytes.buffer, bytes.byteOffset, STAT_SLOTS).set(statSlots(s));
  return bytes;
}

export function pathArg(payload: Uint8Array): BytePath {
  return bytesToPath(payload);
}

export const OK: Reply = Object.freeze({ errno: 0 });
