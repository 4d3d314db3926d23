/**
 * Generic kernel syscall numbers spoken over the channel. These are the
 * kernel's own calls, not WASI's: the WASI glue in the worker translates
 * preview1 and `sandglass` imports onto them, and a future Pyodide process
 * will speak the same set. Arguments travel as numbers (args slots) plus one
 * byte payload; see each handler in `kernel/handlers/` for the shapes.
 * Constants of the calls' arguments that both sides need sit here too.
 */
export enum Sys {
  // channel plumbing
  CHUNK = 1,
  MORE = 2,
  // files and descriptors
  READ = 10,
  WRITE = 11,
  PREAD = 12,
  PWRITE = 13,
  SEEK = 14,
  CLOSE = 15,
  FSTAT = 16,
  FDSTAT = 17,
  SET_FLAGS = 18,
  FTRUNCATE = 19,
  FUTIMES = 20,
  FSYNC = 21,
  READDIR = 22,
  PRESTAT = 23,
  RENUMBER = 24,
  ALLOCATE = 25,
  ADVISE = 26,
  // paths
  OPEN = 30,
  PATH_STAT = 31,
  MKDIR = 32,
  UNLINK = 33,
  RMDIR = 34,
  RENAME = 35,
  SYMLINK = 36,
  READLINK = 37,
  LINK = 38,
  PATH_UTIMES = 39,
  PATH_STAT_EXT = 40,
  FD_STAT_EXT = 41,
  CHMOD = 42,
  CHOWN = 43,
  ACCESS = 44,
  GETUID = 45,
  UMASK = 46,
  /** Directories the glue opened from held listings (see handlers/dirWalk.ts). */
  ADOPT_DIRS = 47,
  // polling
  POLL = 50,
  // processes and signals
  EXIT = 60,
  RAISE = 61,
  SPAWN = 62,
  WAIT = 63,
  KILL = 64,
  GETPID = 65,
  SETPGID = 66,
  GETPGID = 67,
  SIGACTION = 68,
  CHDIR = 69,
  GETCWD = 70,
  PIPE = 71,
  DUP = 72,
  DUP2 = 73,
  CLOEXEC = 74,
  ISATTY = 75,
  /** setitimer(ITIMER_REAL): args [valueUs, intervalUs, readOnly]; rets the old [leftUs, intervalUs]. */
  SETITIMER = 76,
  /** Replace the caller's program (spawn request payload; pid, parent and group kept). No reply on success. */
  EXEC = 77,
  // terminal
  TTY_GET = 80,
  TTY_SET = 81,
  TTY_WINSIZE = 82,
  TCSETPGRP = 83,
  TCGETPGRP = 84,
  // sessions
  SESSION_NEXT = 90,
  SESSION_DONE = 91,
  STEP_BEGIN = 92,
  STEP_END = 93,
  CTL_TAKE = 94,
  // network (net/wire.ts has the formats, kernel/handlers/net.ts the calls)
  NET_REQUEST = 100,
  NET_BODY_WRITE = 101,
  NET_RESPONSE = 102,
  NET_BODY_READ = 103,
  NET_CLOSE = 104,
  NET_BODY_SPLICE = 105,
}

/**
 * The fd wasi-libc takes as its only preopen ("/"). Path calls with this
 * dirfd always resolve at the root; fd calls use slot 3 when a program put
 * something there (bash's `exec 3>f`), else the implicit root handle.
 */
export const ROOT_FD = 3;
/**
 * The name of the only preopen, `ROOT_FD`. Fixed for a process's whole life,
 * so the WASI glue answers fd_prestat_* itself (libc asks at every start).
 */
export const ROOT_PREOPEN_NAME = new Uint8Array([0x2f]);

/**
 * A stat's slots, as FSTAT answers them in rets: WASI's filestat fields
 * (dev, ino, filetype, nlink, size, atime, mtime, ctime), then mode, uid,
 * gid. OPEN with args[8] = 1 sends them for a regular file as float64s in
 * its data, for the fstat that usually follows an open.
 */
export const STAT_SLOTS = 11;

/** OPEN's oflags (args[2]), numbered as WASI's. */
export const OPEN_FLAGS = { CREAT: 1, DIRECTORY: 2, EXCL: 4, TRUNC: 8 } as const;

/**
 * args[1] of the EXIT syscall: how the program ended. With `trap` the payload
 * says what went wrong (`wasm trap: ...`), printed after the program's name;
 * with `refused` it is the whole message.
 */
export const EXIT_KIND = { normal: 0, trap: 1, refused: 2 } as const;
