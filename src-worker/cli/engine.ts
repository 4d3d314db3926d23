/**
 * `sandglass engine [--socket PATH]`: keeps one engine running on a local
 * socket (0600, in a directory only this user can enter) until SIGINT or
 * SIGTERM. While it runs, `sandglass run` and `sandglass exec` of the same
 * user hand their commands to it instead of starting an engine each time;
 * `SANDGLASS_ENGINE=off` makes them run cold regardless.
 */
import { SandglassEngine } from '../api/engine.js';
import { UsageError, type CliIo } from './options.js';
import { serveWarmEngine } from './warm/server.js';
import { engineSocketPath } from './warm/socket.js';

export const ENGINE_USAGE = 'usage: sandglass engine [--socket PATH]';

export interface EngineArgs {
  readonly socketPath: string;
}

export function parseEngineArgs(args: readonly string[]): EngineArgs {
  let socketPath = engineSocketPath();
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a !== '--socket') throw new UsageError(`unexpected argument ${a}`);
    const v = args[++i];
    if (v === undefined) throw new UsageError('--socket needs a value');
    socketPath = engineSocketPath({ SANDGLASS_ENGINE_SOCKET: v });
  }
  return { socketPath };
}

/** Serves until SIGINT/SIGTERM, then removes the socket and ends the engine. */
export async function runEngine(args: EngineArgs, io: CliIo): Promise<number> {
  const engine = new SandglassEngine();
  try {
    const server = await serveWarmEngine(engine, args.socketPath);
    io.stderr.write(`sandglass engine: listening on ${server.socketPath}\n`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await server.close();
    return 0;
  } finally {
    await engine.dispose();
  }
}
