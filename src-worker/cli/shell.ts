/**
 * `sandglass shell [--import HOST:PATH[:ro]]... [--programs DIR]`: an
 * interactive shell in a fresh sandbox, on the current terminal. The host
 * tty goes to raw mode so every key (Ctrl-C, Ctrl-Z, arrows) reaches the
 * sandbox's kernel terminal, whose line discipline and the shell handle them;
 * window size follows SIGWINCH. The host tty is restored however it ends.
 * The terminal is the engine's, so the commands typed are steps.
 */
import { StringDecoder } from 'node:string_decoder';
import {
  createSandbox,
  NET_OPTIONS,
  NET_USAGE,
  parseSandboxOptions,
  UsageError,
  type CliIo,
  type SandboxOptions,
} from './options.js';

export const SHELL_USAGE = `usage: sandglass shell [--import HOST:PATH[:ro]]... [--programs DIR] [--cwd DIR] ${NET_USAGE}`;

export type ShellArgs = Omit<SandboxOptions, 'timeoutMs'>;

export function parseShellArgs(args: readonly string[]): ShellArgs {
  const { options, rest } = parseSandboxOptions(args, [
    '--import',
    '--programs',
    '--cwd',
    ...NET_OPTIONS,
  ]);
  if (rest.length > 0) throw new UsageError(`unexpected argument ${rest[0] as string}`);
  const { imports, programsDir, cwd, allowNet, denyNet } = options;
  return { imports, exports: [], programsDir, cwd, allowNet, denyNet };
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
  const { engine, sandboxId, dispose } = await createSandbox({ ...args, timeoutMs: undefined });
  const raw = input.isTTY === true && typeof input.setRawMode === 'function';
  const cleanups: (() => void)[] = [];
  let exited: (status: number) => void = () => undefined;
  // The one terminal of this sandbox: its output goes to stdout, its exit ends the command.
  const client = engine.connect('person', (event) => {
    if (event.type === 'terminalData') io.stdout.write(event.data);
    else if (event.type === 'terminalExit') exited(event.status);
  });
  client.subscribe(sandboxId);
  try {
    const { terminalId } = await engine.call(
      'openTerminal',
      {
        sandboxId,
        cols: output.columns ?? 80,
        rows: output.rows ?? 24,
        ...(args.cwd !== undefined ? { cwd: args.cwd } : {}),
      },
      client,
    );
    const write = (data: string): void =>
      void engine.call('terminalWrite', { terminalId, data }).catch(() => undefined);
    if (raw) {
      input.setRawMode?.(true);
      cleanups.push(() => input.setRawMode?.(false));
    }
    const status = await new Promise<number>((done) => {
      exited = done;
      const decoder = new StringDecoder('utf8');
      const onInput = (chunk: Buffer | string): void =>
        write(typeof chunk === 'string' ? chunk : decoder.write(chunk));
      // End of a non-tty input is Ctrl-D on an empty line: the shell exits.
      const onEnd = (): void => write('\x04');
      input.on('data', onInput);
      input.on('end', onEnd);
      cleanups.push(() => {
        input.off('data', onInput);
        input.off('end', onEnd);
        input.pause();
      });
      const resize = (): void =>
        void engine
          .call('terminalResize', {
            terminalId,
            cols: output.columns ?? 80,
            rows: output.rows ?? 24,
          })
          .catch(() => undefined);
      const subscribe =
        io.onResize ??
        ((l: () => void) => {
          process.on('SIGWINCH', l);
          return () => void process.off('SIGWINCH', l);
        });
      cleanups.push(subscribe(resize));
      input.resume();
    });
    return status;
  } finally {
    for (const c of cleanups.reverse()) c();
    client.close();
    await dispose();
  }
}
