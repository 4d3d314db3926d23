/**
 * How processes are executed, as the kernel sees it. The kernel is handed
 * one `RunnerFactory` per image kind (`RunnerFactories`) by whoever creates
 * it; it never builds workers or runners itself. A factory starts one
 * `ProcessRunner` per process: the runner executes the image somewhere (a
 * pooled worker thread for wasm) and speaks the syscall channel, whose
 * requests go to `handler`.
 */
import type { SyscallHandler } from '../channel/server.js';
import type { Image, ImageKinds } from '../programs/image.js';

/** Executes one process; the kernel only starts it, ends it and raises signal bits. */
export interface ProcessRunner {
  /** Set a caught signal's pending bit where the program can see it. */
  raiseSignal(sig: number): void;
  /** End it now (signal, limit). */
  terminate(): void;
  /** It exited by itself (EXIT syscall); give back its resources. */
  finish(): void;
  /**
   * The process exec'd another program while this runner's program waits in
   * its EXEC call: answer that call, let the program unwind and give the
   * runner's resources back for reuse (a worker that ends by itself can run
   * the next process; a terminated one cannot). Nothing the old program does
   * after this reaches the process. Without it the kernel terminates the runner.
   */
  retire?(): void;
  /** Memory the program holds now, in bytes, as its guest last reported it (0 if unknown). */
  memoryBytes(): number;
}

/** Starts processes of one image kind. Owned by one kernel, disposed with it. */
export interface RunnerFactory<I extends Image = Image> {
  /**
   * Start `image` now. `env` is the final environment (PWD set). Syscalls
   * arrive at `handler`; `onCrash` reports a runner that died without an
   * EXIT syscall (the kernel ends the process with status 134 and prints the
   * message); `stamp` fills header words on every reply (namespace epoch, fd
   * mask) for guests that serve calls from held state.
   */
  start(
    image: I,
    env: Uint8Array[],
    handler: SyscallHandler,
    onCrash: (message: string) => void,
    stamp?: (words: Int32Array) => void,
  ): ProcessRunner;
  /** Resolves once the factory can start processes without a cold boot (benchmarks, timing tests). */
  whenWarm?(): Promise<void>;
  /** The kernel is gone: release pools and workers. Idempotent. */
  dispose(): void;
}

/** One factory per image kind; a kind without a factory fails exec with ENOEXEC. */
export type RunnerFactories = {
  readonly [K in keyof ImageKinds]?: RunnerFactory<ImageKinds[K]>;
};

/** Makes a fresh set of factories for one kernel (the kernel disposes them). */
export type RunnerFactoriesMaker = () => RunnerFactories;

/** The factory for `image`'s kind, typed for it, or undefined. */
export function factoryFor(
  runners: RunnerFactories,
  image: Image,
): RunnerFactory<Image> | undefined {
  // The mapped type pairs each kind with its factory; TS cannot follow that through an index.
  return runners[image.kind] as RunnerFactory<Image> | undefined;
}

/** Every factory in the set. */
export function allFactories(runners: RunnerFactories): RunnerFactory[] {
  return Object.values(runners).filter((f): f is RunnerFactory => f !== undefined);
}
