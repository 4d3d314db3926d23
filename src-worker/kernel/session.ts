/**
 * The kernel side of a shell session: a terminal's interactive shell or an
 * API-mode shell. The shell itself reports where each command line starts
 * and ends (`step_begin`, `session_next`, `step_end`), handing over its
 * state blob at every end; output bytes never make a step. In API mode
 * commands queue here: `session_next` hands the next one to the shell
 * (pointing its fds 0-2 at the command's stdin and captures) and
 * `step_end`/`session_done` complete it. A restore puts a state blob here
 * for the shell to take (`ctl_take`) at its next prompt.
 */
import type { OpenFile } from '../fd/openFile.js';
import type { ExitInfo, Process } from '../proc/process.js';
import { Notifier } from '../base/notifier.js';

export interface SessionCommand {
  /** The command line, for its step. */
  readonly command: string;
  readonly request: Uint8Array;
  readonly stdin: OpenFile;
  readonly stdout: OpenFile;
  readonly stderr: OpenFile;
  readonly resolve: (status: number) => void;
  readonly reject: (e: Error) => void;
}

/** A command line of a session started or ended (the shell said so). */
export type SessionStepEvent =
  | { readonly type: 'start'; readonly command: string; readonly startedAt: number }
  | {
      readonly type: 'end';
      readonly command: string;
      readonly status: number;
      readonly startedAt: number;
      readonly durationMs: number;
      readonly state: Uint8Array;
    };

/** The session's shell is gone; `started` says whether the command had begun. */
export class SessionEndedError extends Error {
  constructor(
    message: string,
    readonly started: boolean,
  ) {
    super(message);
    this.name = 'SessionEndedError';
  }
}

/** How often an idle shell is woken to take a pending state, and for how long. */
const POKE_MS = 10;
const POKE_FOR_MS = 5000;

export class Session {
  readonly queue: SessionCommand[] = [];
  current: SessionCommand | undefined;
  readonly changed = new Notifier();
  ended: ExitInfo | undefined;
  /** The shell process, once spawned (the kernel sets it). */
  process: Process | undefined;
  /** Latest state blob the shell reported; undefined until it reports one. */
  state: Uint8Array | undefined;
  /** The first state it reported: a fresh shell's. */
  initialState: Uint8Array | undefined;
  /** Receives step events (the sandbox sets it). */
  onStep: ((ev: SessionStepEvent) => void) | undefined;
  private step: { command: string; startedAt: number; t0: number } | undefined;
  private pending: Uint8Array | undefined;
  /** Restores waiting for the shell to take the pending state. */
  private waiting: (() => void)[] = [];
  /** Restores whose state the shell took: done at its next report. */
  private applying: (() => void)[] = [];
  private poke: NodeJS.Timeout | undefined;

  constructor(readonly name: string) {}

  /** Between command lines: nothing running that a restore would cut. */
  get idle(): boolean {
    return this.step === undefined && this.current === undefined;
  }

  /** The command line running now, if any. */
  get running(): string | undefined {
    return this.step?.command;
  }

  enqueue(cmd: SessionCommand): void {
    if (this.ended) {
      cmd.reject(
        new SessionEndedError(`session '${this.name}' has ended: its shell exited`, false),
      );
      return;
    }
    this.queue.push(cmd);
    this.changed.notify();
  }

  /** A command line starts (from `step_begin` or `session_next`). */
  beginStep(command: string): void {
    this.step = { command, startedAt: Date.now(), t0: performance.now() };
    this.onStep?.({ type: 'start', command, startedAt: this.step.startedAt });
  }

  /**
   * The shell reported `status` and its state (`step_end`): the open
   * command line (if any) ends. Returns whether a state waits for it.
   */
  endStep(status: number, state: Uint8Array): boolean {
    if (state.length > 0) {
      this.state = state;
      this.initialState ??= state;
    }
    const step = this.step;
    this.step = undefined;
    if (step) {
      this.onStep?.({
        type: 'end',
        command: step.command,
        status,
        startedAt: step.startedAt,
        durationMs: performance.now() - step.t0,
        state: this.state ?? new Uint8Array(0),
      });
    } else {
      // A report with no command line open follows an applied state.
      for (const done of this.applying.splice(0)) done();
    }
    if (this.pending) return true;
    return false;
  }

  /**
   * Ask the shell to take `state`. Resolves once it has applied it and
   * reported back, or when the shell ends. An idle shell (blocked at its
   * prompt or in `session_next`) is woken with EINTR; a busy one takes it
   * when its command line ends (`step_end` says a state waits).
   */
  requestState(state: Uint8Array): Promise<void> {
    if (this.ended) return Promise.resolve();
    const done = new Promise<void>((resolve) => this.waiting.push(resolve));
    this.pending = state;
    if (this.idle) this.startPoking();
    return done;
  }

  private startPoking(): void {
    if (this.poke) return;
    const until = performance.now() + POKE_FOR_MS;
    // Woken between its last report and its blocking read, the shell would
    // miss a single interrupt: repeat until it takes the state.
    const tick = (): void => {
      this.poke = undefined;
      if (!this.pending || this.ended || !this.idle) return;
      this.process?.interrupt();
      if (performance.now() < until) {
        this.poke = setTimeout(tick, POKE_MS);
        this.poke.unref();
      }
    };
    tick();
  }

  /** `ctl_take`: the pending state (empty if none). */
  takeControl(): Uint8Array {
    const state = this.pending;
    if (!state) return new Uint8Array(0);
    this.pending = undefined;
    this.applying.push(...this.waiting.splice(0));
    if (this.poke) clearTimeout(this.poke);
    this.poke = undefined;
    return state;
  }

  shellExited(info: ExitInfo): void {
    this.ended = info;
    const status = info.code ?? 128 + (info.signal ?? 0);
    const why = new SessionEndedError(
      `session '${this.name}': shell ${info.signal !== undefined ? `killed by signal ${info.signal}` : `exited with status ${info.code ?? 0}`}`,
      false,
    );
    // The command that made the shell exit (e.g. `exit 3`) completes with that status.
    if (this.step) this.endStep(status, new Uint8Array(0));
    if (this.current) this.current.resolve(status);
    this.current = undefined;
    for (const c of this.queue.splice(0)) c.reject(why);
    this.pending = undefined;
    if (this.poke) clearTimeout(this.poke);
    for (const done of [...this.waiting.splice(0), ...this.applying.splice(0)]) done();
  }
}

/** Encode a session request (docs/abi.md "Session request"). */
export function encodeSessionRequest(
  command: Uint8Array,
  cwd: Uint8Array,
  env: readonly Uint8Array[],
): Uint8Array {
  let n = 4 + command.length + 4 + cwd.length + 4 + 4;
  for (const e of env) n += 4 + e.length;
  const out = new Uint8Array(n);
  const dv = new DataView(out.buffer);
  let off = 0;
  const str = (b: Uint8Array): void => {
    dv.setUint32(off, b.length, true);
    out.set(b, off + 4);
    off += 4 + b.length;
  };
  str(command);
  str(cwd);
  dv.setUint32(off, env.length, true);
  off += 4;
  for (const e of env) str(e);
  dv.setUint32(off, 0, true);
  return out;
}
