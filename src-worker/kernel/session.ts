/**
 * The kernel side of a shell session in API mode: commands queue here;
 * `session_next` hands the next one to the shell (pointing its fds 0-2 at
 * the command's stdin and captures) and `session_done` completes it.
 */
import type { OpenFile } from '../fd/openFile.js';
import type { ExitInfo } from '../proc/process.js';
import { Notifier } from '../base/notifier.js';
import type { Job } from '../proc/job.js';

export interface SessionCommand {
  readonly request: Uint8Array;
  readonly stdin: OpenFile;
  readonly stdout: OpenFile;
  readonly stderr: OpenFile;
  readonly resolve: (status: number) => void;
  readonly reject: (e: Error) => void;
  /** The processes the shell starts for this command join this job (its time limit). */
  readonly job?: Job;
}

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

export class Session {
  readonly queue: SessionCommand[] = [];
  current: SessionCommand | undefined;
  readonly changed = new Notifier();
  ended: ExitInfo | undefined;

  constructor(readonly name: string) {}

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

  shellExited(info: ExitInfo): void {
    this.ended = info;
    const why = new SessionEndedError(
      `session '${this.name}': shell ${info.signal !== undefined ? `killed by signal ${info.signal}` : `exited with status ${info.code ?? 0}`}`,
      false,
    );
    // The command that made the shell exit (e.g. `exit 3`) completes with that status.
    if (this.current) this.current.resolve(info.code ?? 128 + (info.signal ?? 0));
    this.current = undefined;
    for (const c of this.queue.splice(0)) c.reject(why);
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
