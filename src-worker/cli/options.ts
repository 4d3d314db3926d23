/**
 * What the `sandglass` subcommands share: the usage error, the sandbox
 * options every subcommand takes (--timeout, --import, --programs, --cwd,
 * --allow-net, --deny-net),
 * creating the sandbox they describe through the engine (so every command
 * the CLI runs is a step, as from any other front end), and streaming host
 * stdin into a sandboxed process with back-pressure.
 */
import { resolve } from 'node:path';
import { SandglassEngine } from '../api/engine.js';
import { KERNEL_DEFAULT_SETTINGS } from '../api/settings.js';
import { parseHostEntry } from '../net/hostEntry.js';

/** Bad command-line usage: main prints the message and the usage, exit 2. */
export class UsageError extends Error {}

export interface HostImport {
  readonly host: string;
  readonly path: string;
  readonly readOnly: boolean;
}

export interface SandboxOptions {
  readonly timeoutMs: number | undefined;
  readonly imports: HostImport[];
  readonly programsDir: string | undefined;
  readonly cwd: string | undefined;
  /** --allow-net / --deny-net entries (docs/network.md); none: every request denied. */
  readonly allowNet: string[];
  readonly denyNet: string[];
}

export interface CliIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Stdin is /dev/null: a program's stdin ends at once, `stdin` is never read. */
  readonly stdinIsNull?: boolean;
}

/**
 * Where a subcommand runs: by default this process (its working directory,
 * a fresh engine of its own). A warm engine runs commands for clients in
 * other directories, in one engine it keeps.
 */
export interface CliHost {
  /** Relative host paths (FILE, --import, --programs, --save) resolve against this. */
  readonly cwd?: string;
  /** Create the sandbox in this engine (destroying only the sandbox afterwards). */
  readonly engine?: SandglassEngine;
  /** Aborting kills the running command (a warm engine's client went away). */
  readonly signal?: AbortSignal;
}

/** A host path as the user meant it: relative ones against the host's cwd. */
export function hostPath(host: CliHost, p: string): string {
  return resolve(host.cwd ?? process.cwd(), p);
}

/** `HOST:PATH[:ro]`, PATH absolute in the sandbox. */
export function parseImport(v: string): HostImport {
  const ro = v.endsWith(':ro');
  const body = ro ? v.slice(0, -3) : v;
  const at = body.lastIndexOf(':');
  if (at <= 0 || !body.slice(at + 1).startsWith('/'))
    throw new UsageError(`--import: expected HOST:PATH[:ro], got ${v}`);
  return { host: body.slice(0, at), path: body.slice(at + 1), readOnly: ro };
}

type OptionName = '--timeout' | '--import' | '--programs' | '--cwd' | '--allow-net' | '--deny-net';

/** The network flags every sandbox-creating command takes. */
export const NET_OPTIONS = ['--allow-net', '--deny-net'] as const;
export const NET_USAGE = '[--allow-net LIST] [--deny-net LIST]';

/** `a.com,*.b.org:443,10.0.0.0/8`: comma-separated host entries, each checked. */
export function parseNetList(flag: string, v: string): string[] {
  const entries = v
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  for (const e of entries) {
    const parsed = parseHostEntry(e);
    if (!parsed.ok) throw new UsageError(`${flag}: ${parsed.error}`);
  }
  return entries;
}

/**
 * Parses the leading options of `args` (those named in `accepted`) up to
 * `--`, the first operand, or a flag `stopAt` claims. `stopAt` sees each
 * other flag first: it returns true to end option parsing there (the flag
 * stays at `rest[0]`). Unknown flags are usage errors.
 */
export function parseSandboxOptions(
  args: readonly string[],
  accepted: readonly OptionName[],
  stopAt: (flag: string) => boolean = () => false,
): { options: SandboxOptions; rest: string[] } {
  let timeoutMs: number | undefined;
  let programsDir: string | undefined;
  let cwd: string | undefined;
  const imports: HostImport[] = [];
  const allowNet: string[] = [];
  const denyNet: string[] = [];
  let i = 0;
  const value = (flag: string): string => {
    const v = args[++i];
    if (v === undefined) throw new UsageError(`${flag} needs a value`);
    return v;
  };
  for (; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-' || stopAt(a)) break;
    if (!(accepted as readonly string[]).includes(a)) throw new UsageError(`unknown option ${a}`);
    if (a === '--timeout') {
      const v = value(a);
      if (!/^\d+$/.test(v))
        throw new UsageError(`--timeout: not a number of ms (0 for no limit): ${v}`);
      timeoutMs = Number(v);
    } else if (a === '--import') imports.push(parseImport(value(a)));
    else if (a === '--programs') programsDir = value(a);
    else if (a === '--allow-net') allowNet.push(...parseNetList(a, value(a)));
    else if (a === '--deny-net') denyNet.push(...parseNetList(a, value(a)));
    else cwd = value(a);
  }
  return {
    options: { timeoutMs, imports, programsDir, cwd, allowNet, denyNet },
    rest: args.slice(i),
  };
}

/**
 * A command run from the CLI stops after this long unless --timeout says
 * otherwise (0: no limit), so a script or CI job never hangs on a sandbox.
 */
export const CLI_DEFAULT_TIMEOUT_MS = 10 * 60_000;

/** An engine holding the one sandbox a CLI command runs in. */
export interface CliSandbox {
  readonly engine: SandglassEngine;
  readonly sandboxId: string;
  /** Destroys the sandbox and the engine. */
  dispose(): Promise<void>;
}

/**
 * A fresh sandbox with the options' programs directory and host imports, in
 * a fresh engine (or the host's, unless a programs directory needs one of its
 * own). Limits are the kernel's defaults; the time limit is per command
 * (runStreamed).
 */
export async function createSandbox(
  options: SandboxOptions,
  host: CliHost = {},
): Promise<CliSandbox> {
  const shared = options.programsDir === undefined ? host.engine : undefined;
  const engine =
    shared ??
    new SandglassEngine(
      options.programsDir ? { programsDir: hostPath(host, options.programsDir) } : {},
    );
  let id: string | undefined;
  const dispose = async (): Promise<void> => {
    if (!shared) await engine.dispose();
    else if (id !== undefined) await engine.call('destroySandbox', { sandboxId: id });
  };
  try {
    // No person answers approvals here: what the lists do not allow is denied.
    ({ id } = await engine.createSandbox('cli', {
      ...KERNEL_DEFAULT_SETTINGS,
      network: { allowedHosts: options.allowNet, blockedHosts: options.denyNet },
    }));
    for (const imp of options.imports)
      await engine.importHostDir(id, hostPath(host, imp.host), imp.path, {
        readOnly: imp.readOnly,
      });
    return { engine, sandboxId: id, dispose };
  } catch (e) {
    await dispose();
    throw e;
  }
}

/**
 * Runs a program in the CLI's sandbox through the engine (a step), with host
 * stdin streamed in and stdout/stderr streamed out; returns its exit status,
 * or 127/126 (after `failedAs: message`) when it cannot be started.
 */
export async function runStreamed(
  { engine, sandboxId }: CliSandbox,
  io: CliIo,
  program: {
    path: string;
    argv: readonly string[];
    command?: string;
    timeoutMs: number | undefined;
    cwd: string | undefined;
    failedAs: string;
    /** Aborting kills the program. */
    signal?: AbortSignal | undefined;
  },
): Promise<number> {
  const timeoutMs = program.timeoutMs ?? CLI_DEFAULT_TIMEOUT_MS;
  let p;
  try {
    p = await engine.spawn(sandboxId, program.path, program.argv, {
      stdin: 'pipe',
      stdout: (d) => io.stdout.write(d),
      stderr: (d) => io.stderr.write(d),
      ...(program.command !== undefined ? { command: program.command } : {}),
      ...(timeoutMs > 0 ? { timeoutMs } : {}),
      ...(program.cwd !== undefined ? { cwd: program.cwd } : {}),
    });
  } catch (e) {
    io.stderr.write(`${program.failedAs}: ${(e as Error).message}\n`);
    return spawnFailureStatus(e);
  }
  let detach = (): void => undefined;
  if (io.stdinIsNull) p.stdin?.close();
  else detach = pumpStdin(io.stdin, p.stdin);
  const kill = (): void => p.kill(9);
  if (program.signal?.aborted) kill();
  program.signal?.addEventListener('abort', kill);
  const r = await p.wait();
  program.signal?.removeEventListener('abort', kill);
  detach();
  return r.status;
}

/** Exit status for a program that could not be started, as shells report it. */
export function spawnFailureStatus(e: unknown): number {
  return (e as { code?: string }).code === 'ENOENT' ? 127 : 126;
}

interface ProcessStdin {
  write(data: Uint8Array | string): Promise<boolean>;
  close(): void;
}

/**
 * Streams host input into a process's stdin pipe, pausing the host stream
 * while the sandbox pipe is full; returns a function that detaches.
 */
export function pumpStdin(
  input: NodeJS.ReadableStream,
  stdin: ProcessStdin | undefined,
): () => void {
  const onData = (chunk: Buffer | string): void => {
    input.pause();
    void stdin?.write(typeof chunk === 'string' ? chunk : new Uint8Array(chunk)).then((open) => {
      if (open) input.resume();
    });
  };
  const onEnd = (): void => stdin?.close();
  input.on('data', onData);
  input.on('end', onEnd);
  input.resume();
  return () => {
    input.off('data', onData);
    input.off('end', onEnd);
    input.pause();
  };
}
