/**
 * Entry of the code evaluated inside the interpreter's realm (a `node:vm`
 * context with no Node globals, no eval and no dynamic import). It installs
 * the prelude, boots Pyodide from buffers handed over at boot, and runs one
 * process: mounts the kernel as the root file system, binds stdio to the
 * process's descriptors, runs the driver and reports the exit through the
 * EXIT syscall, like a wasm program. The worker calls in only with
 * primitives and SharedArrayBuffers, and only before any user code ran.
 */
import { Sys } from '../../base/syscalls.js';
import type { PyodideLike } from './emscripten.js';
import { KernelCalls } from './kernelCalls.js';
import {
  addFile,
  fileBytes,
  installPrelude,
  setConsoleSink,
  setKernelRandom,
  setRetiredFlag,
  setSeed,
} from './prelude.js';
import { createSandFs } from './sandFs.js';
import { writeSharedFile } from './sharedFile.js';
import { restoreHeap } from './heapRestore.js';
import { createBridge, kernelSystem } from './bridge.js';
import driverSource from './driver.py';
import shimSource from './kernelShim.py';
import netShimSource from './netShim.py';
import linuxErrnoSource from './linuxErrno.py';
import stdlibShimSource from './stdlibShim.py';
import threadShimSource from './threadShim.py';
import { createNetBridge } from './netBridge.js';
import { installZonedDate, type CTimeGlobals } from './localTime.js';
import sealSource from './seal.py';
import { adoptHelper, helperKeys, helperModule, helperOf } from './wasmHelpers.js';

declare const loadPyodide: (config: Record<string, unknown>) => Promise<PyodideLike>;
declare const _createPyodideModule: unknown;

/** How the program ended (args[1] of EXIT; see proc/node/messages.ts). */
const EXIT_NORMAL = 0;
const EXIT_TRAP = 1;
const SIGINT = 2;
const DISP_DEFAULT = 0;
const DISP_CATCH = 2;
const DISP_IGNORE = 1;
/** Kernel tty mode bits (tty/tty.ts). */
const TTY_CANON = 1;
const TTY_ECHO = 2;
const TTY_ISIG = 4;

const g = globalThis as unknown as Record<string, unknown>;
// Local time follows the process's TZ (time.tzset), not the host's zone.
installZonedDate(globalThis);
installPrelude(g);
// Pyodide's loader installs the stdlib zip through this (scripts/build-python.mjs rewrites it).
Object.defineProperty(g, 'sandglassWriteSharedFile', { value: writeSharedFile });
// ... and copies a memory snapshot into the heap through this.
Object.defineProperty(g, 'sandglassRestoreHeap', {
  value: (heap: Uint8Array, snap: Uint8Array, memory?: WebAssembly.Memory) =>
    restoreHeap(heap, snap, snapshotPages, memory),
});
// ... and takes the tiny module wrapping a JS function of a signature through this.
Object.defineProperty(g, 'sandglassSigModule', {
  value: (sig: string, bytes: Uint8Array) => helperModule(`sig:${sig}`, bytes),
});
/** The snapshot's page map (python/resources.ts), if the engine sent one. */
let snapshotPages: Uint8Array | undefined;

let py: PyodideLike | undefined;
let used = false;

/**
 * The process's memory limit (0 before a process runs) and where growth is
 * reported. Pyodide grows its heap through Memory.prototype.grow of this
 * realm: a growth past the limit throws, emscripten's allocator then fails
 * and Python raises MemoryError, as CPython does under a ulimit; every
 * growth is reported to the kernel (its sandbox-wide memory limit).
 */
let memoryLimit = 0;
let reportMemory: ((bytes: number) => void) | undefined;
const growMemory = WebAssembly.Memory.prototype.grow;
Object.defineProperty(WebAssembly.Memory.prototype, 'grow', {
  value: function grow(this: WebAssembly.Memory, delta: number): number {
    const after = this.buffer.byteLength + Number(delta) * 65536;
    if (memoryLimit > 0 && after > memoryLimit)
      throw new RangeError(`memory limit of ${Math.round(memoryLimit / 1048576)} MiB`);
    const before = growMemory.call(this, delta);
    reportMemory?.(this.buffer.byteLength);
    return before;
  },
  configurable: false,
  writable: false,
});

/** Adopt a SharedArrayBuffer from the worker: give it this realm's prototype. */
function adopt(sab: SharedArrayBuffer): SharedArrayBuffer {
  Object.setPrototypeOf(sab, SharedArrayBuffer.prototype);
  return sab;
}

function pyString(s: string): string {
  // A JSON string literal is a valid Python str literal.
  return JSON.stringify(s);
}

interface BootConfig {
  /** pyodide-lock.json's text (decoded by the worker: the realm's UTF-8 decoder is slow). */
  readonly lock: string;
  readonly stdlib: string;
  readonly home: string;
  /** Names the realm's sources: code compiled at boot under another key (an older snapshot) is compiled again. */
  readonly codeKey: string;
  /** A file holding a memory snapshot to start from (made by `makeSnapshot` with this stdlib). */
  readonly snapshot?: string;
  /** The snapshot's page map (heapRestore.ts). */
  readonly snapshotPages?: string;
  /** Boot so that `makeSnapshot` can be called (build time). */
  readonly makeSnapshot?: boolean;
}

const realm = {
  addFile(name: string, sab: SharedArrayBuffer): void {
    addFile(name, adopt(sab));
  },

  /**
   * The compiled pyodide.asm.wasm, shared by every interpreter of the engine
   * (compiled once). Adopted like a SharedArrayBuffer: it gets this realm's
   * prototype, so nothing reached through it leads out of the realm.
   */
  addModule(module: WebAssembly.Module): void {
    Object.setPrototypeOf(module, WebAssembly.Module.prototype);
    Object.defineProperty(g, 'sandglassWasmModule', { value: module, configurable: false });
  },

  /** A tiny wasm module an earlier realm of this worker compiled at boot (wasmHelpers.ts). */
  addHelper(key: string, module: WebAssembly.Module): void {
    adoptHelper(key, module);
  },

  /** Keys of the tiny wasm modules compiled so far, one per line (the worker asks once booted). */
  helperKeys(): string {
    return helperKeys();
  },

  helper(key: string): WebAssembly.Module | undefined {
    return helperOf(key);
  },

  /**
   * `retired`: Int32 word 0 that the worker sets once it is done with this
   * realm (it boots the next process's interpreter in a new one); nothing
   * here runs after that, not even Pyodide's finalizers.
   */
  async boot(
    seed: SharedArrayBuffer,
    retired: SharedArrayBuffer,
    configJson: string,
  ): Promise<void> {
    const config = JSON.parse(configJson) as BootConfig;
    setRetiredFlag(new Int32Array(adopt(retired), 0, 1));
    setSeed(new Uint8Array(adopt(seed)).slice());
    const snapshot = config.snapshot ? fileBytes(config.snapshot) : undefined;
    snapshotPages = config.snapshotPages ? fileBytes(config.snapshotPages) : undefined;
    py = await loadPyodide({
      indexURL: '/pyodide/',
      ...(snapshot ? { _loadSnapshot: snapshot } : {}),
      ...(config.makeSnapshot ? { _makeSnapshot: true } : {}),
      createPyodideModule: _createPyodideModule,
      stdLibURL: config.stdlib,
      lockFileContents: config.lock,
      // An empty object of this realm (snapshots need one whose prototype chain they can walk);
      // seal.py takes the `js` module away anyway.
      jsglobals: {},
      env: { HOME: config.home },
      _sysExecutable: '/usr/bin/python3',
      stdout: () => {},
      stderr: () => {},
    });
    // Pre-import what the driver needs and compile the driver and shims, so a
    // run starts warm. From a snapshot made with these sources this is done
    // already (the key says so): nothing to parse or compile per interpreter.
    const compiled = py.runPython(
      `(lambda b: b is not None and b.key == ${pyString(config.codeKey)})(__import__("sys").modules.get("_sandglass_boot"))`,
      { filename: '<sandglass>' },
    );
    if (compiled !== true)
      py.runPython(
        `import runpy, io, types, traceback, code, importlib, json, subprocess, selectors, struct, hashlib, hmac, asyncio.unix_events, concurrent.futures.thread, _threading_local\n` +
          `(lambda s, t, c: s.modules.__setitem__("_sandglass_boot", t.SimpleNamespace(key=${pyString(config.codeKey)}, driver=c(${pyString(driverSource)}), shim=c(${pyString(shimSource)}), net=c(${pyString(netShimSource)}), errno=c(${pyString(linuxErrnoSource)}), stdlib=c(${pyString(stdlibShimSource)}), threads=c(${pyString(threadShimSource)}))))(__import__("sys"), __import__("types"), lambda src: compile(src, "<sandglass>", "exec"))\n` +
          // CPython's errno -> OSError subclass table, made to tell Linux's numbers from C's (linuxErrno.py).
          `(lambda b, d: (exec(b.errno, d), setattr(b, "oserror_keys", d["prepare"]())))(__import__("sys").modules["_sandglass_boot"], {"__name__": "_sandglass_linux_errno"})`,
        { filename: '<sandglass>' },
      );
    // A snapshot must keep Pyodide's JS modules (it checks their references), so
    // an interpreter is sealed after boot, from a snapshot or not.
    if (!config.makeSnapshot) py.runPython(sealSource, { filename: '<sandglass>' });
  },

  /** The interpreter's memory, to boot others from (build time, after `boot` with makeSnapshot). */
  makeSnapshot(): Uint8Array {
    if (!py || used) throw new Error('sandglass realm: no fresh interpreter to snapshot');
    return (py as unknown as { makeMemorySnapshot(): Uint8Array }).makeMemorySnapshot();
  },

  /**
   * Run one process on `channel`; never throws (the exit goes through the
   * channel). A signal number written to `interruptSab` is raised in Python.
   */
  run(channel: SharedArrayBuffer, interruptSab: SharedArrayBuffer, jobJson: string): void {
    const k = new KernelCalls(adopt(channel));
    if (!py || used) {
      k.exit(70, EXIT_TRAP, 0, 'python interpreter not ready');
      return;
    }
    used = true;
    const interrupt = new Int32Array(adopt(interruptSab), 0, 1);
    const p = py;
    let code: number;
    let kind = EXIT_NORMAL;
    let text = '';
    try {
      const FS = p.FS;
      k.fail = (errno: number): never => {
        throw new FS.ErrnoError(errno);
      };
      const job = JSON.parse(jobJson) as {
        cwd: string;
        argv: string[];
        env: Record<string, string>;
        memoryLimit: number;
      };
      reportMemory = (bytes) => k.ch.reportMemory(bytes);
      reportMemory(p._module.HEAPU8.length);
      memoryLimit = job.memoryLimit;
      setConsoleSink((s) => {
        try {
          k.write(2, new TextEncoder().encode(s), -1);
        } catch {
          // stderr gone: nothing to report to
        }
      });
      let urandom = -1;
      setKernelRandom((dst) => {
        if (urandom < 0) urandom = k.open('/dev/urandom', 0, true, false);
        let at = 0;
        while (at < dst.length) at += k.readInto(urandom, dst.subarray(at), -1);
      });
      // stdio first: Pyodide reopens fds 0-2 on its /dev devices, which must still be the MEMFS ones.
      const tty = [0, 1, 2].map((fd) => k.isatty(fd));
      // Line discipline as a terminal program expects it (the shell's editor may have left raw mode).
      if (tty[0]) k.try(Sys.TTY_SET, [0, TTY_CANON | TTY_ECHO | TTY_ISIG]);
      p.setStdin({
        // A signal waking the read throws EINTR: Python then checks its signals (KeyboardInterrupt).
        read: (buf: Uint8Array): number => k.readInto(0, buf, -1),
        isatty: tty[0] as boolean,
      });
      p.setStdout({
        write: (buf: Uint8Array) => k.write(1, buf.slice(), -1),
        isatty: tty[1] as boolean,
      });
      p.setStderr({
        write: (buf: Uint8Array) => k.write(2, buf.slice(), -1),
        isatty: tty[2] as boolean,
      });
      const sandFs = createSandFs(FS, k);
      sandFs.mountRoot(['/lib']);
      const bridge = createBridge({
        FS: FS as unknown as Parameters<typeof createBridge>[0]['FS'],
        k,
        streamOps: sandFs.streamOps,
        interrupt,
        cTime: () => p._module as unknown as CTimeGlobals,
      });
      p.registerJsModule('_sandglass_kernel', bridge);
      p.registerJsModule(
        '_sandglass_net',
        createNetBridge(k, () => p._module.HEAPU8),
      );
      // system(3) from C (ctypes): the kernel's shell, never a host one.
      const jobEnv = Object.entries(job.env).map(([n, v]) => `${n}=${v}`);
      Object.defineProperty(g, 'sandglassSystem', {
        value: kernelSystem(
          bridge,
          () => FS.cwd(),
          () => jobEnv,
        ),
        configurable: false,
      });
      const chdir = FS.chdir.bind(FS);
      chdir(job.cwd);
      FS.chdir = (path: string): void => {
        chdir(path);
        k.chdir(FS.cwd());
      };
      p.setInterruptBuffer(interrupt);
      // CPython leaves a SIGINT it inherited ignored (a background job of a script) ignored.
      const sigintIgnored = k.sigaction(SIGINT, DISP_CATCH) === DISP_IGNORE;
      if (sigintIgnored) k.sigaction(SIGINT, DISP_IGNORE);
      const full = {
        sigintIgnored,
        argv: job.argv,
        env: job.env,
        isatty: tty,
        // Which of fds 0-2 are open (CPython makes sys.stdin/stdout/stderr None for a closed one).
        stdio: [0, 1, 2].map((fd) => tty[fd] === true || k.try(Sys.FSTAT, [fd]) === 0),
        executable: '/usr/bin/python3',
        pids: k.getpid(),
      };
      // The driver and shims were compiled at boot (or are in the snapshot).
      const status = p.runPython(
        `(lambda b, d: (exec(b.driver, d), d["main"](b, __import__("json").loads(${pyString(JSON.stringify(full))})))[1])(__import__("sys").modules.pop("_sandglass_boot"), {"__name__": "_sandglass_driver"})`,
        { filename: '<sandglass>' },
      );
      code = typeof status === 'number' ? status : 1;
      if (code < 0) {
        // An uncaught KeyboardInterrupt: CPython ends itself with the signal (it then reads 130 in a shell).
        const sig = -code;
        k.sigaction(sig, DISP_DEFAULT);
        k.try(Sys.RAISE, [sig]);
        code = 128 + sig;
      }
    } catch (e) {
      const status = (e as { status?: unknown } | null)?.status;
      if (typeof status === 'number') code = status & 0xff;
      else {
        kind = EXIT_TRAP;
        code = 134;
        text = e instanceof Error ? e.message : String(e);
      }
    }
    let mem = 0;
    try {
      mem = p._module.HEAPU8.length;
    } catch {
      // no heap to measure
    }
    k.exit(code, kind, mem, text);
  },
};

Object.defineProperty(g, 'sandglassRealm', { value: realm, configurable: false, writable: false });
