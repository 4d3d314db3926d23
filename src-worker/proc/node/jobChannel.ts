/**
 * Starting a process on a pooled worker through the worker's own syscall
 * channel. Between processes the worker blocks on the channel's job word
 * (`W_JOB`, `Atomics.wait`); the kernel writes the start job (module id,
 * role, argv, env) into the channel and wakes it. A message would cost a
 * structured clone, a wake-up of the worker's event loop and ~0.3 ms of the
 * kernel's time per spawn (more under load). What a channel cannot carry
 * (a module the worker does not hold yet, a job bigger than the data area,
 * another kind of job) goes as a message, and the word says to take it with
 * `receiveMessageOnPort`. Pure code shared by both sides.
 */
import { DATA_SIZE, W_JOB, type ChannelView } from '../../channel/layout.js';
import type { MemoryShape } from '../../limits/memoryLimit.js';
import type { Role } from '../../wasi/sandglass/roles.js';

/** Nothing posted: an idle worker waits. */
export const JOB_NONE = 0;
/** A start job is in the channel (`writeJob`). */
export const JOB_CHANNEL = 1;
/** The job is a message on the worker's port. */
export const JOB_MESSAGE = 2;

const ROLES: readonly Role[] = ['shell', 'utility', 'proc', 'net'];

/** A wasm start job as the channel carries it. */
export interface ChannelJob {
  readonly moduleId: number;
  readonly role: Role;
  readonly name: string;
  readonly argv: Uint8Array[];
  readonly env: Uint8Array[];
  readonly memory?: MemoryShape;
  readonly restartable?: boolean;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

/** Writes `job` into the channel's argument and data areas; false if it does not fit. */
export function writeJob(view: ChannelView, job: ChannelJob): boolean {
  const name = enc.encode(job.name);
  let size = 4 + name.length;
  for (const a of job.argv) size += 4 + a.length;
  for (const e of job.env) size += 4 + e.length;
  if (size > DATA_SIZE) return false;
  const { args, data } = view;
  args[0] = job.moduleId;
  args[1] = ROLES.indexOf(job.role);
  args[2] = job.argv.length;
  args[3] = job.env.length;
  args[4] = job.memory ? job.memory.initial : -1;
  args[5] = job.memory ? job.memory.maximum : -1;
  args[6] = job.restartable ? 1 : 0;
  const lengths = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let at = 0;
  for (const b of [name, ...job.argv, ...job.env]) {
    lengths.setUint32(at, b.length, true);
    data.set(b, at + 4);
    at += 4 + b.length;
  }
  return true;
}

/** Reads the job `writeJob` left (copies: the data area is the next syscall's). */
export function readJob(view: ChannelView): ChannelJob {
  const { args, data } = view;
  const lengths = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let at = 0;
  const next = (): Uint8Array => {
    const n = lengths.getUint32(at, true);
    const b = data.slice(at + 4, at + 4 + n);
    at += 4 + n;
    return b;
  };
  const name = dec.decode(next());
  const argc = args[2] as number;
  const envc = args[3] as number;
  const argv: Uint8Array[] = [];
  for (let i = 0; i < argc; i++) argv.push(next());
  const env: Uint8Array[] = [];
  for (let i = 0; i < envc; i++) env.push(next());
  const initial = args[4] as number;
  const maximum = args[5] as number;
  return {
    moduleId: args[0] as number,
    role: ROLES[args[1] as number] ?? 'utility',
    name,
    argv,
    env,
    ...(initial >= 0 ? { memory: { initial, maximum } } : {}),
    ...(args[6] === 1 ? { restartable: true } : {}),
  };
}

/** Kernel side: tell the waiting worker a job of `kind` is there. */
export function postJob(view: ChannelView, kind: typeof JOB_CHANNEL | typeof JOB_MESSAGE): void {
  Atomics.store(view.words, W_JOB, kind);
  Atomics.notify(view.words, W_JOB);
}

/** Worker side: block until a job is posted; returns its kind and clears the word. */
export function waitForJob(view: ChannelView): number {
  for (;;) {
    const kind = Atomics.exchange(view.words, W_JOB, JOB_NONE);
    if (kind !== JOB_NONE) return kind;
    Atomics.wait(view.words, W_JOB, JOB_NONE);
  }
}
