/**
 * `sandglass run [--timeout MS] [--import HOST:PATH[:ro]]... [--export PATH:HOST]... [-c SCRIPT | FILE] [ARGS...]`:
 * run a shell script in a fresh sandbox. `-c SCRIPT ARGS` is `/bin/sh -c
 * SCRIPT ARGS` (the first ARG becomes $0, as in bash). `FILE ARGS` copies the
 * host file into the sandbox at the same absolute path and runs `/bin/sh FILE
 * ARGS` with $0 the name as given; a relative FILE runs with the mirrored
 * host working directory as cwd so the name resolves. Stdin is streamed in,
 * stdout/stderr out; the exit status is the script's.
 */
// `fs.promises` loads on first use: most runs read no script file and save nothing.
import { promises as fsp } from 'node:fs';
import { dirname } from 'node:path';
import {
  createSandbox,
  exportAll,
  hostPath,
  NET_OPTIONS,
  NET_USAGE,
  parseSandboxOptions,
  runStreamed,
  UsageError,
  type CliHost,
  type CliIo,
  type CliSandbox,
  type SandboxOptions,
} from './options.js';

export const RUN_USAGE = `usage: sandglass run [--timeout MS] [--import HOST:PATH[:ro]]... [--export PATH:HOST]... [--programs DIR] ${NET_USAGE} [--save OUT.sgtl] (-c SCRIPT [NAME [ARGS...]] | FILE [ARGS...])`;

export interface RunArgs extends Omit<SandboxOptions, 'cwd'> {
  /** The inline script of -c, or undefined when running a file. */
  readonly command: string | undefined;
  /** FILE (when no -c) followed by ARGS; with -c, $0 then ARGS. */
  readonly rest: string[];
  /** Write the sandbox's timeline to this host file when the script ends. */
  readonly save: string | undefined;
}

/**
 * `--save FILE` among the leading options (each of which takes a value),
 * taken out before the sandbox options are parsed.
 */
function takeSave(args: readonly string[]): { save: string | undefined; args: string[] } {
  const kept: string[] = [];
  let save: string | undefined;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--save') {
      save = args[++i];
      if (save === undefined) throw new UsageError('--save needs a value');
      continue;
    }
    if (a === '--' || a === '-c' || a === '-' || !a.startsWith('-')) break;
    kept.push(a);
    if (i + 1 < args.length) kept.push(args[++i] as string);
  }
  return { save, args: [...kept, ...args.slice(i)] };
}

export function parseRunArgs(args: readonly string[]): RunArgs {
  const { save, args: sandboxArgs } = takeSave(args);
  const parsed = parseSandboxOptions(
    sandboxArgs,
    ['--timeout', '--import', '--export', '--programs', ...NET_OPTIONS],
    (flag) => flag === '-c',
  );
  const { timeoutMs, imports, exports, programsDir, allowNet, denyNet } = parsed.options;
  let rest = parsed.rest;
  let command: string | undefined;
  if (rest[0] === '-c') {
    command = rest[1];
    if (command === undefined) throw new UsageError('-c needs a value');
    rest = rest.slice(2); // everything after the script is $0 and the arguments
  }
  if (command === undefined && rest.length === 0) throw new UsageError('missing -c SCRIPT or FILE');
  return { timeoutMs, imports, exports, programsDir, allowNet, denyNet, command, rest, save };
}

/** Copy the host script into the sandbox; returns argv and cwd for running it. */
async function stageScript(
  { engine, sandboxId }: CliSandbox,
  file: string,
  host: CliHost,
): Promise<{ cwd: string | undefined; data: Uint8Array }> {
  const abs = hostPath(host, file);
  const data = new Uint8Array(await fsp.readFile(abs));
  // Imported directories may already hold the script; never overwrite them.
  let present: boolean;
  try {
    present = (await engine.call('stat', { sandboxId, path: abs })).kind === 'file';
  } catch {
    present = false;
  }
  if (!present) {
    await engine.call('mkdir', { sandboxId, path: dirname(abs), recursive: true });
    const base64 = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
    await engine.call('writeFile', { sandboxId, path: abs, base64, mode: 0o755 });
  }
  if (file.startsWith('/')) return { cwd: undefined, data };
  const cwd = hostPath(host, '.');
  await engine.call('mkdir', { sandboxId, path: cwd, recursive: true });
  return { cwd, data };
}

export async function runScript(args: RunArgs, io: CliIo, host: CliHost = {}): Promise<number> {
  let scriptCwd: string | undefined;
  let argv: string[];
  let stagedFile: string | undefined;
  if (args.command !== undefined) {
    argv = ['sh', '-c', args.command, ...args.rest];
  } else {
    stagedFile = args.rest[0] as string;
    argv = ['sh', ...args.rest];
  }
  const sb = await createSandbox({ ...args, cwd: undefined }, host);
  try {
    if (stagedFile !== undefined) {
      try {
        scriptCwd = (await stageScript(sb, stagedFile, host)).cwd;
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
    const status = await runStreamed(sb, io, {
      path: '/bin/sh',
      argv,
      command: args.command ?? args.rest.join(' '),
      timeoutMs: args.timeoutMs,
      cwd: scriptCwd,
      failedAs: 'sandglass run: /bin/sh',
      signal: host.signal,
    });
    const final = await exportAll(sb, args.exports, io, host, status);
    if (args.save !== undefined) {
      const { bytes } = await sb.engine.saveTimeline(sb.sandboxId);
      await fsp.writeFile(hostPath(host, args.save), bytes);
    }
    return final;
  } finally {
    await sb.dispose();
  }
}
