/**
 * `sandglass exec [--timeout MS] [--import HOST:PATH[:ro]] [--programs DIR] -- PROGRAM ARGS`:
 * run one program in a fresh sandbox, streaming stdin/stdout/stderr, and
 * return its exit status (126 cannot execute, 127 not found, as shells do).
 */
import { Sandbox } from '../sandbox/sandbox.js';

export interface ExecArgs {
  readonly timeoutMs: number | undefined;
  readonly imports: { host: string; path: string; readOnly: boolean }[];
  readonly programsDir: string | undefined;
  readonly cwd: string | undefined;
  readonly argv: string[];
}

export class UsageError extends Error {}

export const EXEC_USAGE =
  'usage: sandglass exec [--timeout MS] [--import HOST:PATH[:ro]]... [--cwd DIR] [--programs DIR] -- PROGRAM [ARGS...]';

export function parseExecArgs(args: readonly string[]): ExecArgs {
  let timeoutMs: number | undefined;
  let programsDir: string | undefined;
  let cwd: string | undefined;
  const imports: ExecArgs['imports'] = [];
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
      const v = value(a);
      const ro = v.endsWith(':ro');
      const body = ro ? v.slice(0, -3) : v;
      const at = body.lastIndexOf(':');
      if (at <= 0 || !body.slice(at + 1).startsWith('/'))
        throw new UsageError(`--import: expected HOST:PATH[:ro], got ${v}`);
      imports.push({ host: body.slice(0, at), path: body.slice(at + 1), readOnly: ro });
    } else if (a === '--programs') {
      programsDir = value(a);
    } else if (a === '--cwd') {
      cwd = value(a);
    } else if (a.startsWith('-')) {
      throw new UsageError(`unknown option ${a}`);
    } else {
      break;
    }
  }
  const argv = args.slice(i);
  if (argv.length === 0) throw new UsageError('missing PROGRAM');
  return { timeoutMs, imports, programsDir, cwd, argv };
}

/** Find PROGRAM: a path as given, else the first of /usr/local/bin, /usr/bin, /bin that has it. */
async function locate(sb: Sandbox, prog: string): Promise<string> {
  if (prog.includes('/')) return prog;
  for (const dir of ['/usr/local/bin', '/usr/bin', '/bin']) {
    try {
      await sb.stat(`${dir}/${prog}`);
      return `${dir}/${prog}`;
    } catch {
      // keep looking
    }
  }
  return `/usr/bin/${prog}`;
}

export async function runExec(
  args: ExecArgs,
  io: {
    stdin: NodeJS.ReadableStream;
    stdout: NodeJS.WritableStream;
    stderr: NodeJS.WritableStream;
  },
): Promise<number> {
  const sb = await Sandbox.create(args.programsDir ? { programsDir: args.programsDir } : {});
  try {
    for (const imp of args.imports)
      await sb.importHostDir(imp.host, imp.path, { readOnly: imp.readOnly });
    const prog = args.argv[0] as string;
    const path = await locate(sb, prog);
    let p;
    try {
      p = await sb.spawn(path, args.argv, {
        stdin: 'pipe',
        stdout: (d) => io.stdout.write(d),
        stderr: (d) => io.stderr.write(d),
        ...(args.timeoutMs !== undefined ? { timeoutMs: args.timeoutMs } : {}),
        ...(args.cwd !== undefined ? { cwd: args.cwd } : {}),
      });
    } catch (e) {
      const err = e as Error & { code?: string };
      io.stderr.write(`sandglass: ${prog}: ${err.message}\n`);
      return err.code === 'ENOENT' ? 127 : 126;
    }
    const stdin = p.stdin;
    const onData = (chunk: Buffer | string): void => {
      io.stdin.pause();
      void stdin
        ?.write(typeof chunk === 'string' ? chunk : new Uint8Array(chunk))
        .then(() => io.stdin.resume());
    };
    const onEnd = (): void => stdin?.close();
    io.stdin.on('data', onData);
    io.stdin.on('end', onEnd);
    const r = await p.wait();
    io.stdin.off('data', onData);
    io.stdin.off('end', onEnd);
    io.stdin.pause();
    return r.exitCode;
  } finally {
    await sb.destroy();
  }
}
