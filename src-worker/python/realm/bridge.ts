/**
 * The `_sandglass_kernel` module the driver installs: process calls Pyodide
 * has no syscalls for (spawn, wait, kill, signal dispositions, pipes, umask) and an interruptible
 * sleep, all through the kernel. Arguments and results are primitives or
 * JSON text, so nothing but numbers and strings crosses between Python and
 * JavaScript here. Pipe ends become Emscripten descriptors backed by kernel
 * descriptors (SandFS stream ops), so Python reads and writes them as files.
 */
import { Sys } from '../../base/syscalls.js';
import type { EmscriptenFS, FsStream } from './emscripten.js';
import type { KernelCalls } from './kernelCalls.js';
import { setZone, type CTimeGlobals, type ZoneTable } from './localTime.js';

export interface KernelBridge {
  umask(mask: number): number;
  spawn(request: string): number;
  wait(pid: number, options: number): string;
  kill(pid: number, sig: number): number;
  /** The process group of `pid` (0: this process), or -errno. */
  getpgid(pid: number): number;
  /** setpgid(2): 0 or the errno. */
  setpgid(pid: number, pgid: number): number;
  /** `[uid, gid, euid, egid]` of the process (JSON). */
  ids(): string;
  /** The kernel's disposition of `sig` for this process: 0 default, 1 ignore, 2 catch. */
  sigaction(sig: number, disp: number): number;
  /** link(2) of absolute paths (`follow` 1: a symlink's target): 0 or the errno. */
  link(from: string, to: string, follow: number): number;
  /** The times of an absolute path itself, a symlink not followed (ms; -1: now): 0 or the errno. */
  lutimes(path: string, atimeMs: number, mtimeMs: number): number;
  pipe(): string;
  /** The real-time timer (SIGALRM), µs; `readOnly` 1: getitimer. JSON `[leftUs, intervalUs]` before, or -errno. */
  setitimer(valueUs: number, intervalUs: number, readOnly: number): string;
  kfd(fd: number): number;
  /** tzset(3) with a zone table (JSON; null: UTC); CPython's `[timezone, altzone, daylight, std, dst]` (JSON). */
  settz(table: string): string;
  sleep(seconds: number): void;
  poll(request: string, timeoutMs: number): string;
  /** The line discipline of the terminal on `fd` (tty/tty.ts mode bits); `mode` < 0 only reads it. The mode, or -errno. */
  ttyMode(fd: number, mode: number): number;
  /** `[cols, rows]` of the terminal on `fd` (JSON), or -errno. */
  winsize(fd: number): string;
}

export interface BridgeDeps {
  readonly FS: EmscriptenFS & {
    createStream(s: Record<string, unknown>, fd?: number): FsStream & { fd: number };
    getStream(fd: number): (FsStream & { fd: number }) | undefined;
    createNode(parent: null, name: string, mode: number): FsStream['node'];
  };
  readonly k: KernelCalls;
  /** Stream ops of SandFS (read/write through `stream.kfd`). */
  readonly streamOps: unknown;
  /** Int32 word a signal is written to (see PythonRunner.raiseSignal). */
  readonly interrupt: Int32Array | undefined;
  /** The C library's time zone globals (the interpreter's module, once loaded). */
  readonly cTime: () => CTimeGlobals;
}

function encodeSpawn(req: {
  path: string;
  argv: string[];
  env: string[];
  cwd: string;
  fds: [number, number][];
  pgid: number;
  exact?: boolean;
}): Uint8Array {
  const enc = new TextEncoder();
  const parts: number[] = [];
  const u32 = (v: number): void => {
    parts.push(v & 255, (v >>> 8) & 255, (v >>> 16) & 255, (v >>> 24) & 255);
  };
  const str = (s: string): void => {
    const b = enc.encode(s);
    u32(b.length);
    for (const x of b) parts.push(x);
  };
  str(req.path);
  u32(req.argv.length);
  req.argv.forEach(str);
  u32(req.env.length);
  req.env.forEach(str);
  str(req.cwd);
  u32(req.fds.length);
  for (const [c, p] of req.fds) {
    u32(c);
    u32(p);
  }
  u32(req.pgid);
  // Flag 2: the environment as given (a program's own env=, no PWD added for a utility).
  u32(req.exact === true ? 2 : 0);
  return Uint8Array.from(parts);
}

/** Where Pyodide opens the process's fds 0-2 (its own devices, not the kernel's /dev). */
const STDIO_DEVICES = ['/dev/stdin', '/dev/stdout', '/dev/stderr'];

export function createBridge(d: BridgeDeps): KernelBridge {
  const { FS, k } = d;
  const kfdOf = (fd: number): number => {
    const s = FS.getStream(fd);
    if (!s) return -8; // EBADF
    if (s.kfd !== undefined) return s.kfd;
    // Pyodide's stdio devices stand for the process's own 0, 1 and 2 (also as dups: pyrepl's).
    const std = STDIO_DEVICES.indexOf(s.path);
    if (std >= 0) return std;
    if (fd <= 2) return fd;
    return -8;
  };
  const wrap = (kfd: number, flags: number): number => {
    const node = FS.createNode(null, `kernel-fd-${kfd}`, 0o010600);
    node.stream_ops = d.streamOps;
    const s = FS.createStream({
      node,
      path: `pipe:[${kfd}]`,
      flags,
      seekable: false,
      position: 0,
      stream_ops: d.streamOps,
      ungotten: [],
      error: false,
    });
    s.kfd = kfd;
    s.kfdUsers = { count: 1 };
    return s.fd;
  };
  return {
    umask(mask: number): number {
      k.try(Sys.UMASK, [mask]);
      return k.ch.rets[0] as number;
    },
    spawn(request: string): number {
      const r = JSON.parse(request) as {
        path: string;
        argv: string[];
        env: string[];
        cwd: string;
        fds: [number, number][];
        pgid?: number;
        exact?: boolean;
      };
      const fds: [number, number][] = [];
      for (const [child, fd] of r.fds) {
        const kfd = kfdOf(fd);
        if (kfd < 0) return kfd;
        fds.push([child, kfd]);
        // A file we read or wrote by position: the child starts at our offset,
        // and from now on both go by the kernel's (shared, as after fork).
        const s = FS.getStream(fd);
        if (s?.seekable && s.kfdUsers && s.kfd === kfd) {
          if (!s.kfdUsers.childShares) k.seek(kfd, s.position, 0);
          s.kfdUsers.childShares = true;
        }
      }
      const e = k.try(Sys.SPAWN, [], encodeSpawn({ ...r, fds, pgid: r.pgid ?? -1 }));
      return e === 0 ? (k.ch.rets[0] as number) : -e;
    },
    wait(pid: number, options: number): string {
      const e = k.try(Sys.WAIT, [pid, options]);
      return JSON.stringify(e === 0 ? [k.ch.rets[0], k.ch.rets[1]] : [-e, 0]);
    },
    kill(pid: number, sig: number): number {
      return k.try(Sys.KILL, [pid, sig]);
    },
    getpgid(pid: number): number {
      const e = k.try(Sys.GETPGID, [pid]);
      return e === 0 ? (k.ch.rets[0] as number) : -e;
    },
    setpgid(pid: number, pgid: number): number {
      return k.try(Sys.SETPGID, [pid, pgid]);
    },
    ids(): string {
      k.try(Sys.GETUID);
      return JSON.stringify(Array.from(k.ch.rets.slice(0, 4)));
    },
    sigaction(sig: number, disp: number): number {
      return k.try(Sys.SIGACTION, [sig, disp]);
    },
    link(from: string, to: string, follow: number): number {
      return k.link(from, to, follow === 1);
    },
    lutimes(path: string, atimeMs: number, mtimeMs: number): number {
      return k.lutimes(path, atimeMs, mtimeMs);
    },
    setitimer(valueUs: number, intervalUs: number, readOnly: number): string {
      const e = k.try(Sys.SETITIMER, [valueUs, intervalUs, readOnly]);
      return JSON.stringify(e === 0 ? [k.ch.rets[0], k.ch.rets[1]] : -e);
    },
    pipe(): string {
      const e = k.try(Sys.PIPE);
      if (e !== 0) return JSON.stringify([-e, -e]);
      const r = k.ch.rets[0] as number;
      const w = k.ch.rets[1] as number;
      return JSON.stringify([wrap(r, 0), wrap(w, 1)]);
    },
    kfd: kfdOf,
    ttyMode(fd: number, mode: number): number {
      const kfd = kfdOf(fd);
      if (kfd < 0) return kfd;
      const e = mode < 0 ? k.try(Sys.TTY_GET, [kfd]) : k.try(Sys.TTY_SET, [kfd, mode]);
      if (e !== 0) return -e;
      return mode < 0 ? (k.ch.rets[0] as number) : mode;
    },
    winsize(fd: number): string {
      const kfd = kfdOf(fd);
      if (kfd < 0) return JSON.stringify(kfd);
      const e = k.try(Sys.TTY_WINSIZE, [kfd]);
      return JSON.stringify(e === 0 ? [k.ch.rets[0], k.ch.rets[1]] : -e);
    },
    settz(table: string): string {
      return setZone((JSON.parse(table) as ZoneTable | null) ?? undefined, d.cTime());
    },
    /**
     * The kernel's POLL over `[[fd, write?]...]` (JSON), waiting up to
     * `timeoutMs` (-1: no limit) without CPU. Answers `[[ready, hup, errno]...]`
     * per entry, or a negative errno (EINTR when a signal arrived). A
     * descriptor that is not the kernel's (Pyodide's own /lib) is always ready.
     */
    poll(request: string, timeoutMs: number): string {
      const subs = JSON.parse(request) as [number, number][];
      const kfds = subs.map(([fd]) => (FS.getStream(fd) ? kfdOf(fd) : -8));
      const payload = new Uint8Array(subs.length * 5);
      const dv = new DataView(payload.buffer);
      const asked: number[] = [];
      subs.forEach(([, write], i) => {
        const kfd = kfds[i] as number;
        if (kfd < 0) return;
        dv.setUint32(asked.length * 5, kfd, true);
        dv.setUint8(asked.length * 5 + 4, write ? 1 : 0);
        asked.push(i);
      });
      const out: [number, number, number][] = subs.map((_, i) =>
        // No stream: EBADF (POLLNVAL); a stream of Pyodide's own: ready.
        FS.getStream(subs[i]?.[0] ?? -1) ? [1, 0, 0] : [0, 0, 8],
      );
      // Something is ready already: only look at the kernel's fds, without waiting.
      const now = out.some(([ready, , errno], i) => !asked.includes(i) && (ready || errno));
      if (now && asked.length === 0) return JSON.stringify(out);
      const bytes = payload.subarray(0, asked.length * 5);
      const e = k.try(Sys.POLL, [now ? 0 : Math.round(timeoutMs), asked.length], bytes);
      if (e !== 0) return JSON.stringify(-e);
      const r = k.ch.data;
      const rdv = new DataView(r.buffer, r.byteOffset, r.byteLength);
      asked.forEach((i, j) => {
        if (j * 8 + 8 > r.length) return;
        out[i] = [rdv.getUint8(j * 8 + 2), rdv.getUint8(j * 8 + 3), rdv.getUint16(j * 8, true)];
      });
      return JSON.stringify(out);
    },
    sleep(seconds: number): void {
      // Block the thread (no CPU) until the time passes or a signal arrives.
      const end = Date.now() + seconds * 1000;
      const word = d.interrupt ?? new Int32Array(new SharedArrayBuffer(4));
      for (;;) {
        const left = end - Date.now();
        if (left <= 0 || Atomics.load(word, 0) !== 0) return;
        Atomics.wait(word, 0, 0, Math.min(left, 1000));
      }
    },
  };
}

/** system(3) through the kernel: `/bin/sh -c cmd` on our stdio, waited for; returns the wait status. */
export function kernelSystem(bridge: KernelBridge, cwd: () => string, env: () => string[]) {
  return (cmd: string | null): number => {
    if (cmd === null) return 1; // a shell is available
    const pid = bridge.spawn(
      JSON.stringify({
        path: '/bin/sh',
        argv: ['sh', '-c', cmd],
        env: env(),
        cwd: cwd(),
        fds: [
          [0, 0],
          [1, 1],
          [2, 2],
        ],
      }),
    );
    if (pid < 0) return 127 << 8;
    for (;;) {
      const [got, status] = JSON.parse(bridge.wait(pid, 0)) as [number, number];
      if (got === pid) return status;
      if (got !== -27) return -1; // EINTR: wait again
    }
  };
}
