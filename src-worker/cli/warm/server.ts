/**
 * The warm engine: one engine kept running on a local socket, so that
 * `sandglass run|exec` skips Node's start of the engine, the worker
 * threads' boot and the shell's compile. Each connection is one command in
 * a fresh sandbox of its own (destroyed when it ends), with the same options,
 * limits and output as a cold run; a client that goes away has its command
 * killed.
 */
import fs from 'node:fs';
import net from 'node:net';
import { PassThrough, Writable } from 'node:stream';
import type { SandglassEngine } from '../../api/engine.js';
import { parseExecArgs, runExec, EXEC_USAGE } from '../exec.js';
import { UsageError, type CliHost, type CliIo } from '../options.js';
import { parseRunArgs, runScript, RUN_USAGE } from '../run.js';
import { encodeFrame, Frame, FrameReader, MAX_REQUEST_BYTES, type WarmRequest } from './frames.js';
import { findEngineSocket, prepareSocketDir } from './socket.js';

export interface WarmServer {
  readonly socketPath: string;
  /** Stops listening and removes the socket; running commands are killed. */
  close(): Promise<void>;
}

function parseRequest(payload: Buffer): WarmRequest {
  if (payload.length > MAX_REQUEST_BYTES) throw new Error('request too large');
  const r = JSON.parse(payload.toString()) as Partial<WarmRequest>;
  if (
    r.version !== 1 ||
    (r.command !== 'run' && r.command !== 'exec') ||
    !Array.isArray(r.args) ||
    !r.args.every((a) => typeof a === 'string') ||
    typeof r.cwd !== 'string' ||
    !r.cwd.startsWith('/')
  )
    throw new Error('malformed request');
  return r as WarmRequest;
}

/** Runs one request as `sandglass run|exec` would, with its usage errors. */
async function runRequest(req: WarmRequest, io: CliIo, host: CliHost): Promise<number> {
  try {
    return req.command === 'run'
      ? await runScript(parseRunArgs(req.args), io, host)
      : await runExec(parseExecArgs(req.args), io, host);
  } catch (e) {
    if (e instanceof UsageError) {
      const usage = req.command === 'run' ? RUN_USAGE : EXEC_USAGE;
      io.stderr.write(`sandglass ${req.command}: ${e.message}\n${usage}\n`);
      return 2;
    }
    io.stderr.write(`sandglass: ${(e as Error).message}\n`);
    return 1;
  }
}

/** A stream whose writes go out as frames of `type`, in order. */
function frameWriter(socket: net.Socket, type: Frame): Writable {
  return new Writable({
    write(chunk: Buffer, _enc, done) {
      if (!socket.destroyed) socket.write(encodeFrame(type, chunk));
      done();
    },
  });
}

function serveConnection(socket: net.Socket, engine: SandglassEngine): void {
  const reader = new FrameReader();
  const stdin = new PassThrough();
  const gone = new AbortController();
  let started = false;
  const start = (req: WarmRequest): void => {
    const io: CliIo = {
      stdin,
      stdout: frameWriter(socket, Frame.Stdout),
      stderr: frameWriter(socket, Frame.Stderr),
    };
    void runRequest(req, io, { engine, cwd: req.cwd, signal: gone.signal }).then((status) => {
      if (!socket.destroyed) socket.end(encodeFrame(Frame.Exit, JSON.stringify({ status })));
    });
  };
  socket.on('data', (chunk: Buffer) => {
    let frames;
    try {
      frames = reader.push(chunk);
      for (const { type, payload } of frames) {
        if (!started) {
          if (type !== Frame.Request) throw new Error('expected a request first');
          started = true;
          start(parseRequest(payload));
        } else if (type === Frame.Stdin) {
          if (!stdin.write(payload)) {
            socket.pause();
            stdin.once('drain', () => socket.resume());
          }
        } else if (type === Frame.StdinEnd) stdin.end();
      }
    } catch (e) {
      // A client that does not speak this wire: say so and end it.
      socket.pause();
      socket.end(
        Buffer.concat([
          encodeFrame(Frame.Stderr, `sandglass engine: ${(e as Error).message}\n`),
          encodeFrame(Frame.Exit, JSON.stringify({ status: 2 })),
        ]),
      );
    }
  });
  socket.on('error', () => {});
  // The client is gone (ended, interrupted): its command is killed.
  socket.on('close', () => {
    gone.abort();
    stdin.end();
  });
}

/**
 * Listens on `socketPath` (its directory made 0700 or checked, the socket
 * 0600). A socket left by an engine that is no longer running is replaced;
 * one that still answers is an error.
 */
export async function serveWarmEngine(
  engine: SandglassEngine,
  socketPath: string,
): Promise<WarmServer> {
  prepareSocketDir(socketPath);
  if (findEngineSocket(socketPath) !== undefined) {
    const alive = await new Promise<boolean>((resolve) => {
      const probe = net.connect(socketPath);
      probe.on('connect', () => {
        probe.destroy();
        resolve(true);
      });
      probe.on('error', () => resolve(false));
    });
    if (alive) throw new Error(`an engine is already listening on ${socketPath}`);
  }
  fs.rmSync(socketPath, { force: true });
  const connections = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    serveConnection(socket, engine);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ path: socketPath, readableAll: false, writableAll: false }, () => resolve());
  });
  fs.chmodSync(socketPath, 0o600);
  return {
    socketPath,
    close: async () => {
      for (const s of connections) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(socketPath, { force: true });
    },
  };
}
