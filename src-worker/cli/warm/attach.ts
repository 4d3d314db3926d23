/**
 * The client side of the warm engine: `sandglass run|exec` hands its
 * arguments to a running `sandglass engine` over its local socket, streams
 * stdin there and the output back, and returns the exit status. The engine
 * does the work in a fresh sandbox, so this process loads almost nothing.
 */
import type { CliIo } from '../options.js';
import { encodeFrame, Frame, FrameReader, type WarmRequest } from './frames.js';

/**
 * Runs the command in the engine at `socketPath`. Resolves to its exit
 * status, or to undefined when no engine answered the connection (the
 * caller then runs the command itself).
 */
export async function attachWarmEngine(
  socketPath: string,
  request: Omit<WarmRequest, 'version'>,
  io: CliIo,
): Promise<number | undefined> {
  // Loaded here: a cold run (no engine running) never needs the net module.
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    const reader = new FrameReader();
    let connected = false;
    let done = false;
    const finish = (status: number | undefined): void => {
      if (done) return;
      done = true;
      io.stdin.off('data', onStdin);
      io.stdin.off('end', onStdinEnd);
      io.stdin.pause();
      socket.destroy();
      resolve(status);
    };
    const onStdin = (chunk: Buffer | string): void => {
      if (!socket.write(encodeFrame(Frame.Stdin, chunk))) {
        io.stdin.pause();
        socket.once('drain', () => io.stdin.resume());
      }
    };
    const onStdinEnd = (): void => {
      socket.write(encodeFrame(Frame.StdinEnd));
    };
    socket.on('connect', () => {
      connected = true;
      socket.write(encodeFrame(Frame.Request, JSON.stringify({ version: 1, ...request })));
      io.stdin.on('data', onStdin);
      io.stdin.on('end', onStdinEnd);
      io.stdin.resume();
    });
    socket.on('data', (chunk: Buffer) => {
      let frames;
      try {
        frames = reader.push(chunk);
      } catch (e) {
        io.stderr.write(`sandglass: warm engine: ${(e as Error).message}\n`);
        finish(1);
        return;
      }
      for (const { type, payload } of frames) {
        if (type === Frame.Stdout) io.stdout.write(payload);
        else if (type === Frame.Stderr) io.stderr.write(payload);
        else if (type === Frame.Exit) {
          const { status } = JSON.parse(payload.toString()) as { status: number };
          finish(status);
          return;
        }
      }
    });
    // Before the connection: no engine there (a stale socket), run cold.
    // After it: the engine went away mid-command.
    socket.on('error', (e) => {
      if (!connected) finish(undefined);
      else {
        io.stderr.write(`sandglass: warm engine: ${e.message}\n`);
        finish(1);
      }
    });
    socket.on('close', () => {
      if (!connected) finish(undefined);
      else if (!done) {
        io.stderr.write('sandglass: warm engine closed the connection\n');
        finish(1);
      }
    });
  });
}
