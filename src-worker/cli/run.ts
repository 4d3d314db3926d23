/**
 * `sandglass run [--timeout MS] [--import HOST:PATH[:ro]]... [-c SCRIPT | FILE] [ARGS...]`:
 * run a shell script in a fresh sandbox. `-c SCRIPT ARGS` is `/bin/sh -c
 * SCRIPT ARGS` (the first ARG becomes $0, as in bash). `FILE ARGS` copies the
 * host file into the sandbox at the same absolute path and runs `/bin/sh FILE
 * ARGS` with $0 the name as given; a relative FILE runs with the mirrored
 * host working directory as cwd so the name resolves. Stdin is streamed in,
 * stdout/stderr out; the exit status is the script's.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Sandbox } from '../sandbox/sandbox.js';
import { UsageError } from './exec.js';

export const RUN_USAGE =
  'usage: sandglass run [--timeout MS] [--import HOST:PATH[:ro]]... [--programs DIR] (-c SCRIPT [NAME [ARGS...]] | FILE [ARGS...])';

export interface RunArgs {
  readonly timeoutMs: number | undefined;
  readonly imports: { host: string; path: string; readOnly: boolean }[];
  readonly programsDir: string | undefined;
  /** The inline script of -c, or undefined when running a file. */
  readonly command: string | undefined;
  /** FILE (when no -c) followed by ARGS; with -c, $0 then ARGS. */
  readonly rest: string[];
}

export interface CliIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export function parseImport(v: string): RunArgs['imports'][number] {
  const ro = v.endsWith(':ro');
  const body = ro ? v.slice(0, -3) : v;
  const at = body.lastIndexOf(':');
  if (at <= 0 || !body.slice(at + 1).startsWith('/'))
    throw new UsageError(`--import: expected HOST:PATH[:ro], got ${v}`);
  return { host: body.slice(0, at), path: body.slice(at + 1), readOnly: ro };
}

export function parseRunArgs(args: readonly string[]): RunArgs {
  let timeoutMs: number | undefined;
  let programsDir: string | undefined;
  let command: string | undefined;
  const imports: RunArgs['imports'] = [];
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
    if (a === '--timeout') {
      const v = value(a);
      if (!/^\d+$/.test(v) || Number(v) <= 0)
        throw new UsageError(`--timeout: not a positive number of ms: ${v}`);
      timeoutMs = Number(v);
    } else if (a === '--import') {
      imports.push(parseImport(value(a)));
    } else if (a === '--programs') {
      programsDir = value(a);
    } else if (a === '-c') {
      command = value(a);
      i++;
      break; // everything after the script is $0 and the arguments
    } else if (a.startsWith('-') && a !== '-') {
      throw new UsageError(`unknown option ${a}`);
    } else {
      break;
    }
  }
  const rest = args.slice(i);
  if (command === undefined && rest.length === 0) throw new UsageError('missing -c SCRIPT or FILE');
  return { timeoutMs, imports, programsDir, command, rest };
}

/** Copy the host script into the sandbox; returns argv and cwd for running it. */
async function stageScript(
  sb: Sandbox,
  file: string,
): Promise<{ cwd: string | undefined; data: Uint8Array }> {
  const abs = resolve(file);
  const data = new Uint8Array(await readFile(abs));
  // Imported directories may already hold the script; never overwrite them.
  let present: boolean;
  try {
    present = (await sb.stat(abs)).kind === 'file';
  } catch {
    present = false;
  }
  if (!present) {
    await sb.mkdir(dirname(abs), { recursive: true });
    await sb.writeFile(abs, data, { mode: 0o755 });
  }
  if (file.startsWith('/')) return { cwd: undefined, data };
  const cwd = process.cwd();
  await sb.mkdir(cwd, { recursive: true });
  return { cwd, data };
}

export async function runScript(args: RunArgs, io: CliIo): Promise<number> {
  let scriptCwd: string | undefined;
  let argv: string[];
  let stagedFile: string | undefined;
  if (args.command !== undefined) {
    argv = ['sh', '-c', args.command, ...args.rest];
  } else {
    stagedFile = args.rest[0] as string;
    argv = ['sh', ...args.rest];
  }
  const sb = await Sandbox.create(args.programsDir ? { programsDir: args.programsDir } : {});
  try {
    for (const imp of args.imports)
      await sb.importHostDir(imp.host, imp.path, { readOnly: imp.readOnly });
    if (stagedFile !== undefined) {
      try {
        scriptCwd = (await stageScript(sb, stagedFile)).cwd;
      } catch (e) {
        // Report like bash does for a script it cannot open: 127 if missing, else 126.
        const code = (e as { code?: string }).code;
        const why =
          code === 'ENOENT'
            ? 'No such file or directory'
            : code === 'EISDIR'
              ? 'Is a directory'
              : code === 'EACCES'
                ? 'Permission denied'
                : (e as Error).message;
        io.stderr.write(`sandglass run: ${stagedFile}: ${why}\n`);
        return code === 'ENOENT' ? 127 : 126;
      }
    }
    let p;
    try {
      p = await sb.spawn('/bin/sh', argv, {
        stdin: 'pipe',
        stdout: (d) => io.stdout.write(d),
        stderr: (d) => io.stderr.write(d),
        ...(args.timeoutMs !== undefined ? { timeoutMs: args.timeoutMs } : {}),
        ...(scriptCwd !== undefined ? { cwd: scriptCwd } : {}),
      });
    } catch (e) {
      const err = e as Error & { code?: string };
      io.stderr.write(`sandglass run: /bin/sh: ${err.message}\n`);
      return err.code === 'ENOENT' ? 127 : 126;
    }
    const stdin = p.stdin;
    // Back-pressure: stop reading the host while the sandbox pipe is full.
    const onData = (chunk: Buffer | string): void => {
      io.stdin.pause();
      void stdin?.write(typeof chunk === 'string' ? chunk : new Uint8Array(chunk)).then((open) => {
        if (open) io.stdin.resume();
      });
    };
    const onEnd = (): void => stdin?.close();
    io.stdin.on('data', onData);
    io.stdin.on('end', onEnd);
    io.stdin.resume();
    const r = await p.wait();
    io.stdin.off('data', onData);
    io.stdin.off('end', onEnd);
    io.stdin.pause();
    return r.exitCode;
  } finally {
    await sb.destroy();
  }
}
