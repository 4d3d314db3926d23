/**
 * `sandglass exec [--timeout MS] [--import HOST:PATH[:ro]] [--export PATH:HOST] [--programs DIR] -- PROGRAM ARGS`:
 * run one program in a fresh sandbox, streaming stdin/stdout/stderr, and
 * return its exit status (126 cannot execute, 127 not found, as shells do).
 */
import {
  createSandbox,
  exportAll,
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

export interface ExecArgs extends SandboxOptions {
  readonly argv: string[];
}

export const EXEC_USAGE = `usage: sandglass exec [--timeout MS] [--import HOST:PATH[:ro]]... [--export PATH:HOST]... [--cwd DIR] [--programs DIR] ${NET_USAGE} -- PROGRAM [ARGS...]`;

export function parseExecArgs(args: readonly string[]): ExecArgs {
  const { options, rest } = parseSandboxOptions(args, [
    '--timeout',
    '--import',
    '--export',
    '--programs',
    '--cwd',
    ...NET_OPTIONS,
  ]);
  if (rest.length === 0) throw new UsageError('missing PROGRAM');
  return { ...options, argv: rest };
}

/** Find PROGRAM: a path as given, else the first of /usr/local/bin, /usr/bin, /bin that has it. */
async function locate(sb: CliSandbox, prog: string): Promise<string> {
  if (prog.includes('/')) return prog;
  for (const dir of ['/usr/local/bin', '/usr/bin', '/bin']) {
    try {
      await sb.engine.call('stat', { sandboxId: sb.sandboxId, path: `${dir}/${prog}` });
      return `${dir}/${prog}`;
    } catch {
      // keep looking
    }
  }
  return `/usr/bin/${prog}`;
}

export async function runExec(args: ExecArgs, io: CliIo, host: CliHost = {}): Promise<number> {
  const sb = await createSandbox(args, host);
  try {
    const prog = args.argv[0] as string;
    const path = await locate(sb, prog);
    const status = await runStreamed(sb, io, {
      path,
      argv: args.argv,
      timeoutMs: args.timeoutMs,
      cwd: args.cwd,
      failedAs: `sandglass: ${prog}`,
      signal: host.signal,
    });
    return await exportAll(sb, args.exports, io, host, status);
  } finally {
    await sb.dispose();
  }
}
