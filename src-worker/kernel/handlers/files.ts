/** Descriptor syscalls: read/write (blocking on pipes and ttys), seek, stat, readdir, renumber. */
import { ROOT_FD, ROOT_PREOPEN_NAME } from '../../base/syscalls.js';
import { TtyFile } from '../../tty/ttyFile.js';
import { SIG } from '../../signal/signals.js';
import { Errno, fail, KernelError } from '../../base/errno.js';
import { Sys } from '../../base/syscalls.js';
import type { Kernel } from '../kernel.js';
import type { Process } from '../../proc/process.js';
import type { DirListEntry } from '../../fd/openFile.js';
import { VfsFile } from '../../fd/vfsFile.js';
import { a, OK, statReply, type Handler } from './common.js';
import { PipeWriter, type Pipe } from '../../pipe/pipe.js';
import type { Reply } from '../../channel/server.js';

/** The root preopen's name as fd_prestat_dir_name reports it. */

/** Largest read the kernel performs for a guest in one call (caps host allocation). */
export const MAX_READ = 1024 * 1024;

export function timeArg(v: number): number | null | undefined {
  if (Number.isNaN(v)) return undefined;
  if (v === -1) return null;
  return v;
}

/** EPIPE also raises SIGPIPE at the writer (which by default ends it). */
export function epipe(k: Kernel, p: Process, e: unknown): never {
  if (e instanceof KernelError && e.errno === Errno.EPIPE) k.signal(p, SIG.PIPE);
  throw e;
}

/**
 * READDIR entries are laid out as WASI preview1 dirents, so the glue copies
 * a listing into guest memory as is: next cookie u64, ino u64, name length
 * u32, type u8, 3 zero bytes, then the name.
 */
export const DIRENT_HEAD = 24;

/** Bytes of entries[0..count) in the READDIR format. */
export function direntsSize(entries: readonly DirListEntry[], count: number): number {
  let n = 0;
  for (let i = 0; i < count; i++) n += DIRENT_HEAD + (entries[i] as DirListEntry).name.length;
  return n;
}

/**
 * Write entries[0..count) into `dst` at `at` in the READDIR format, their
 * cookies counting from `cookie`. The caller has checked the room
 * (`direntsSize`). Returns the end offset.
 */
export function putDirents(
  entries: readonly DirListEntry[],
  cookie: number,
  count: number,
  dst: Uint8Array,
  dv: DataView,
  at: number,
): number {
  let off = at;
  for (let i = 0; i < count; i++) {
    const e = entries[i] as DirListEntry;
    // u64 fields as two u32 halves: cookies and inos stay below 2^53.
    dv.setUint32(off, cookie + i + 1, true);
    dv.setUint32(off + 4, 0, true);
    dv.setUint32(off + 8, e.ino >>> 0, true);
    dv.setUint32(off + 12, Math.floor(e.ino / 4294967296), true);
    dv.setUint32(off + 16, e.name.length, true);
    dv.setUint32(off + 20, e.filetype, true);
    dst.set(e.name, off + DIRENT_HEAD);
    off += DIRENT_HEAD + e.name.length;
  }
  return off;
}

/** The READDIR reply: up to `max` (at least 1) of `entries`, which start at `cookie`. */
export function encodeDirents(
  entries: readonly DirListEntry[],
  cookie: number,
  max: number,
): Uint8Array {
  const count = Math.min(entries.length, Math.max(1, max));
  const out = new Uint8Array(direntsSize(entries, count));
  putDirents(entries, cookie, count, out, new DataView(out.buffer), 0);
  return out;
}

/**
 * A blocking pipe write whose first `done` bytes went into the buffer: the
 * rest is parked for readers to take from the payload itself, and the
 * call returns when all is written (POSIX: a blocking write transfers
 * everything), so a writer makes one round trip per write however far it
 * runs ahead. A signal or the last reader going ends it early with the
 * count written, if any (and SIGPIPE for the latter, as Linux does).
 */
async function writeRest(
  k: Kernel,
  p: Process,
  pipe: Pipe,
  payload: Uint8Array,
  done: number,
): Promise<Reply> {
  const w = pipe.park(payload.subarray(done), () => p.alive);
  try {
    await p.block(
      () => (pipe.settle(w) ? true : pipe.readers === 0 ? fail(Errno.EPIPE) : null),
      pipe.changed,
    );
    return { errno: 0, rets: [payload.length] };
  } catch (e) {
    pipe.unpark(w);
    const written = done + w.off;
    if (written === 0) epipe(k, p, e);
    if (e instanceof KernelError && e.errno === Errno.EPIPE) k.signal(p, SIG.PIPE);
    return { errno: 0, rets: [written] };
  }
}

export const fileHandlers: Record<number, Handler> = {
  [Sys.READ]: (_k, p, args, _payload, out) => {
    const file = p.fds.get(a(args, 0));
    const len = Math.min(Math.max(0, a(args, 1)), MAX_READ);
    // Straight into the channel's data area (no allocation per read); a
    // caller without one (tests driving handlers directly) gets a buffer.
    const dst = out && len <= out.length ? out.subarray(0, len) : new Uint8Array(len);
    const n = file.readInto(dst);
    // rets[0] = 1: a regular file read short, so it is at its end now (the
    // glue answers a read that follows at once with 0, without a call).
    if (n !== null)
      return {
        errno: 0,
        rets: [n < len && file instanceof VfsFile ? 1 : 0],
        data: dst.subarray(0, n),
      };
    return p
      .block(() => file.readInto(dst), file.changed, file.nonblock)
      .then((k) => ({ errno: 0, rets: [0], data: dst.subarray(0, k) }));
  },
  [Sys.WRITE]: (k, p, args, payload) => {
    const file = p.fds.get(a(args, 0));
    let n: number | null = null;
    try {
      n = file.write(payload);
    } catch (e) {
      epipe(k, p, e);
    }
    if (file instanceof PipeWriter && !file.nonblock && (n ?? 0) < payload.length)
      return writeRest(k, p, file.pipe, payload, n ?? 0);
    if (n !== null) return { errno: 0, rets: [n] };
    return p
      .block(() => file.write(payload), file.changed, file.nonblock)
      .then(
        (n) => ({ errno: 0, rets: [n] }),
        (e: unknown) => epipe(k, p, e),
      );
  },
  [Sys.PREAD]: (_k, p, args) => {
    const len = Math.min(Math.max(0, a(args, 1)), MAX_READ);
    return { errno: 0, data: p.fds.get(a(args, 0)).pread(len, a(args, 2)) };
  },
  [Sys.PWRITE]: (_k, p, args, payload) => ({
    errno: 0,
    rets: [p.fds.get(a(args, 0)).pwrite(payload, a(args, 1))],
  }),
  [Sys.SEEK]: (k, p, args) => {
    k.seeks++;
    return { errno: 0, rets: [p.fds.get(a(args, 0)).seek(a(args, 1), a(args, 2))] };
  },
  [Sys.CLOSE]: (_k, p, args) => {
    p.fds.close(a(args, 0));
    return OK;
  },
  [Sys.FSTAT]: (_k, p, args) => statReply(p.fds.get(a(args, 0)).stat()),
  [Sys.FDSTAT]: (_k, p, args) => {
    const f = p.fds.get(a(args, 0));
    // rets[2] = 1 for a terminal: the glue then withholds seek/tell rights, which is how wasi-libc's isatty() tells.
    return {
      errno: 0,
      rets: [f.filetype, (f.append ? 1 : 0) | (f.nonblock ? 4 : 0), f instanceof TtyFile ? 1 : 0],
    };
  },
  [Sys.SET_FLAGS]: (_k, p, args) => {
    const f = p.fds.get(a(args, 0));
    const flags = a(args, 1);
    f.append = (flags & 1) !== 0;
    f.nonblock = (flags & 4) !== 0;
    return OK;
  },
  [Sys.FTRUNCATE]: (_k, p, args) => {
    p.fds.get(a(args, 0)).truncate(a(args, 1));
    return OK;
  },
  [Sys.FUTIMES]: (_k, p, args) => {
    p.fds.get(a(args, 0)).utimes(timeArg(a(args, 1)), timeArg(a(args, 2)));
    return OK;
  },
  [Sys.FSYNC]: (_k, p, args) => {
    p.fds.get(a(args, 0));
    return OK;
  },
  [Sys.ADVISE]: (_k, p, args) => {
    p.fds.get(a(args, 0));
    return OK;
  },
  [Sys.ALLOCATE]: (_k, p, args) => {
    const f = p.fds.get(a(args, 0));
    const end = a(args, 1) + a(args, 2);
    if (f.stat().size < end) f.truncate(end);
    return OK;
  },
  [Sys.READDIR]: (_k, p, args) => {
    const f = p.fds.get(a(args, 0));
    const cookie = a(args, 1);
    if (!Number.isSafeInteger(cookie) || cookie < 0) fail(Errno.EINVAL);
    return { errno: 0, data: encodeDirents(f.readdir(cookie), cookie, a(args, 2)) };
  },
  [Sys.PRESTAT]: (_k, p, args) => {
    // The only preopen is the implicit root at ROOT_FD; EBADF past it ends libc's scan.
    if (a(args, 0) !== ROOT_FD) fail(Errno.EBADF);
    p.fds.root();
    return { errno: 0, data: ROOT_PREOPEN_NAME };
  },
  [Sys.RENUMBER]: (_k, p, args) => {
    p.fds.renumber(a(args, 0), a(args, 1));
    return OK;
  },
};
