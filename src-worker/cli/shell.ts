/**
 * `sandglass shell [--import HOST:PATH[:ro]]... [--programs DIR]`: an
 * interactive shell in a fresh sandbox, on the current terminal. The host
 * tty goes to raw mode so every key (Ctrl-C, Ctrl-Z, arrows) reaches the
 * sandbox's kernel terminal, whose line discipline and the shell handle them;
 * window size follows SIGWINCH. The host tty is restored however it ends.
 */
import {
  createSandbox,
  parseSandboxOptions,
  UsageError,
  type CliIo,
  type SandboxOptions,
} from './options.js';

export const SHELL_USAGE =
  'usage: sandglass shell [--import HOST:PATH[:ro]]... [--programs DIR] [--cwd DIR]';

export type ShellArgs = Omit<SandboxOptions, 'timeoutMs'>;

export function parseShellArgs(args: readonly string[]): ShellArgs {
  const { options, rest } = parseSandboxOptions(args, ['--import', '--programs', '--cwd']);
  if (rest.length > 0) throw new UsageError(`unexpected argument ${rest[0] as string}`);
  const { imports, programsDir, cwd } = options;
  return { imports, programsDir, cwd };
}

/** The parts of a tty stream the session uses (process.stdin/stdout when interactive). */
interface MaybeTtyIn extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?: (raw: boolean) => unknown;
}
interface MaybeTtyOut extends NodeJS.WritableStream {
  columns?: number;
  rows?: number;
}

export async function runShell(
  args: ShellArgs,
  io: CliIo & { onResize?: (listener: () => void) => () => void },
): Promise<number> {
  const input = io.stdin as MaybeTtyIn;
  const output = io.stdout as MaybeTtyOut;
  const sb = await createSandbox({ ...args, timeoutMs: undefined });
  const raw = input.isTTY === true && typeof input.setRawMode === 'function';
  const cleanups: (() => void)[] = [];
  try {
    const term = await sb.openTerminal({
      cols: output.columns ?? 80,
      rows: output.rows ?? 24,
      ...(args.cwd !== undefined ? { cwd: args.cwd } : {}),
    });
    if (raw) {
      input.setRawMode?.(true);
      cleanups.push(() => input.setRawMode?.(false));
    }
    const status = await new Promise<number>((done) => {
      cleanups.push(term.onData((d) => io.stdout.write(d)));
      const onInput = (chunk: Buffer | string): void =>
        term.write(typeof chunk === 'string' ? chunk : new Uint8Array(chunk));
      // End of a non-tty input is Ctrl-D on an empty line: the shell exits.
      const onEnd = (): void => term.write(new Uint8Array([4]));
      input.on('data', onInput);
      input.on('end', onEnd);
      cleanups.push(() => {
        input.off('data', onInput);
        input.off('end', onEnd);
        input.pause();
      });
      const resize = (): void => term.resize(output.columns ?? 80, output.rows ?? 24);
      const subscribe =
        io.onResize ??
        ((l: () => void) => {
          process.on('SIGWINCH', l);
          return () => void process.off('SIGWINCH', l);
        });
      cleanups.push(subscribe(resize));
      cleanups.push(term.onExit(done));
      input.resume();
    });
    return status;
  } finally {
    for (const c of cleanups.reverse()) c();
    await sb.destroy();
  }
}
