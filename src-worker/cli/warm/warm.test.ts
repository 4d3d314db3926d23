import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SandglassEngine } from '../../api/engine.js';
import { WorkerPool } from '../../proc/node/workerPool.js';
import { defaultProgramsDir } from '../../sandbox/sandbox.js';
import { main } from '../main.js';
import { attachWarmEngine } from './attach.js';
import { encodeFrame, Frame, FrameReader } from './frames.js';
import { serveWarmEngine, type WarmServer } from './server.js';
import { engineSocketPath, findEngineSocket, prepareSocketDir } from './socket.js';

const haveShell = existsSync(join(defaultProgramsDir(), 'shell.wasm'));
let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sandglass-warm-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
  expect(await WorkerPool.drained()).toBe(true);
});

function io(input?: string) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  if (input !== undefined) stdin.end(input);
  return { streams: { stdin, stdout, stderr }, out: () => out, err: () => err };
}

describe('frames', () => {
  it('splits a byte stream into frames however it is cut', () => {
    const bytes = Buffer.concat([
      encodeFrame(Frame.Stdout, 'hello'),
      encodeFrame(Frame.StdinEnd),
      encodeFrame(Frame.Exit, '{"status":3}'),
    ]);
    const reader = new FrameReader();
    const got: string[] = [];
    for (let i = 0; i < bytes.length; i += 3)
      for (const f of reader.push(bytes.subarray(i, i + 3)))
        got.push(`${f.type}:${f.payload.toString()}`);
    expect(got).toEqual(['17:hello', '3:', '19:{"status":3}']);
  });

  it('refuses a frame longer than the limit', () => {
    const head = Buffer.from([Frame.Stdin, 0xff, 0xff, 0xff, 0xff]);
    expect(() => new FrameReader().push(head)).toThrow(/too large/);
  });
});

describe('the socket place', () => {
  it('is per user, or what SANDGLASS_ENGINE_SOCKET says', () => {
    expect(engineSocketPath({ XDG_RUNTIME_DIR: '/run/user/7' })).toMatch(
      /^\/run\/user\/7\/sandglass-[^/]+\/engine\.sock$/,
    );
    expect(engineSocketPath({ SANDGLASS_ENGINE_SOCKET: '/x/y.sock' })).toBe('/x/y.sock');
  });

  it('is refused in a directory other users can enter', async () => {
    const dir = join(tmp, 'open');
    await mkdir(dir);
    await chmod(dir, 0o755);
    const path = join(dir, 'engine.sock');
    expect(() => prepareSocketDir(path)).toThrow(/open to other users \(mode 0755\)/);
    // A socket someone left there is not used either.
    const srv = net.createServer();
    await new Promise<void>((r) => srv.listen(path, r));
    try {
      expect(findEngineSocket(path)).toBeUndefined();
      await chmod(dir, 0o700);
      expect(findEngineSocket(path)).toBe(path);
    } finally {
      await new Promise<void>((r) => srv.close(() => r()));
    }
    expect(findEngineSocket(join(tmp, 'none', 'engine.sock'))).toBeUndefined();
  });
});

describe.skipIf(!haveShell)('a warm engine', () => {
  let engine: SandglassEngine;
  let server: WarmServer;
  let socketPath: string;

  beforeAll(async () => {
    engine = new SandglassEngine();
    socketPath = join(tmp, 'run', 'engine.sock');
    server = await serveWarmEngine(engine, socketPath);
  });
  afterAll(async () => {
    await server.close();
    await engine.dispose();
  });

  const sandboxes = async (): Promise<number> => (await engine.call('listSandboxes', {})).length;

  it('listens on a 0600 socket in a 0700 directory, and only once', async () => {
    expect((await stat(socketPath)).mode & 0o777).toBe(0o600);
    expect((await stat(join(tmp, 'run'))).mode & 0o777).toBe(0o700);
    await expect(serveWarmEngine(engine, socketPath)).rejects.toThrow(/already listening/);
  });

  it('runs a script with its output, stdin and exit status, in a sandbox of its own', async () => {
    const s = io('abc\n');
    const status = await attachWarmEngine(
      socketPath,
      {
        command: 'run',
        args: ['-c', 'tr a-z A-Z; echo err >&2; echo $0 > /tmp/mine; exit 7', 'nm'],
        cwd: '/',
      },
      s.streams,
    );
    expect({ status, out: s.out(), err: s.err() }).toEqual({
      status: 7,
      out: 'ABC\n',
      err: 'err\n',
    });
    // The next run does not see the last one's files.
    const t = io('');
    const again = await attachWarmEngine(
      socketPath,
      { command: 'run', args: ['-c', 'cat /tmp/mine'], cwd: '/' },
      t.streams,
    );
    expect(again).toBe(1);
    expect(t.err()).toMatch(/No such file/);
    expect(await sandboxes()).toBe(0);
  });

  it('resolves host paths against the client directory', async () => {
    const dir = join(tmp, 'client');
    await mkdir(join(dir, 'data'), { recursive: true });
    await writeFile(join(dir, 'hi.sh'), 'echo "$0 $1 $(cat /in/x.txt)"\n');
    await writeFile(join(dir, 'data', 'x.txt'), 'imported');
    const s = io('');
    const status = await attachWarmEngine(
      socketPath,
      { command: 'run', args: ['--import', 'data:/in:ro', 'hi.sh', 'arg'], cwd: dir },
      s.streams,
    );
    expect({ status, out: s.out(), err: s.err() }).toEqual({
      status: 0,
      out: 'hi.sh arg imported\n',
      err: '',
    });
  });

  it('runs exec, and answers bad usage with status 2', async () => {
    const s = io('');
    expect(
      await attachWarmEngine(
        socketPath,
        { command: 'exec', args: ['--', 'echo', 'a', 'b'], cwd: '/' },
        s.streams,
      ),
    ).toBe(0);
    expect(s.out()).toBe('a b\n');
    const bad = io('');
    expect(
      await attachWarmEngine(
        socketPath,
        { command: 'run', args: ['--bogus'], cwd: '/' },
        bad.streams,
      ),
    ).toBe(2);
    expect(bad.err()).toMatch(/^sandglass run: unknown option --bogus\nusage: sandglass run/);
  });

  it('kills the command of a client that goes away', async () => {
    const client = net.connect(socketPath);
    await new Promise<void>((r) => client.once('connect', () => r()));
    const reader = new FrameReader();
    const started = new Promise<void>((resolve) =>
      client.on('data', (d: Buffer) => {
        if (reader.push(d).some((f) => f.type === Frame.Stdout)) resolve();
      }),
    );
    client.write(
      encodeFrame(
        Frame.Request,
        JSON.stringify({ version: 1, command: 'run', args: ['-c', 'echo up; sleep 60'], cwd: '/' }),
      ),
    );
    await started;
    expect(await sandboxes()).toBe(1);
    client.destroy();
    for (let i = 0; i < 100 && (await sandboxes()) > 0; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(await sandboxes()).toBe(0);
  });

  it('is what `sandglass run` uses when it is running, unless SANDGLASS_ENGINE=off', async () => {
    const created = vi.spyOn(engine, 'createSandbox');
    const env = { ...process.env };
    process.env.SANDGLASS_ENGINE_SOCKET = socketPath;
    try {
      expect(await main(['run', '-c', 'exit 5'])).toBe(5);
      expect(created).toHaveBeenCalledTimes(1);
      process.env.SANDGLASS_ENGINE = 'off';
      expect(await main(['run', '-c', 'exit 6'])).toBe(6);
      expect(created).toHaveBeenCalledTimes(1);
    } finally {
      process.env = env;
      created.mockRestore();
    }
  });

  it('answers a client that does not speak the wire, and says when nobody listens', async () => {
    const client = net.connect(socketPath);
    const reader = new FrameReader();
    const frames: { type: number; payload: Buffer }[] = [];
    client.on('data', (d: Buffer) => frames.push(...reader.push(d)));
    client.write(encodeFrame(Frame.Stdin, 'no request'));
    await new Promise<void>((r) => client.on('close', () => r()));
    expect(frames.map((f) => f.type)).toEqual([Frame.Stderr, Frame.Exit]);
    expect(frames[0]?.payload.toString()).toMatch(/expected a request first/);

    // A socket file with no engine behind it: the caller runs cold.
    const stale = join(tmp, 'run', 'stale.sock');
    const srv = net.createServer();
    await new Promise<void>((r) => srv.listen(stale, r));
    await new Promise<void>((r) => srv.close(() => r()));
    await writeFile(stale, '').catch(() => {});
    expect(
      await attachWarmEngine(
        stale,
        { command: 'run', args: ['-c', 'true'], cwd: '/' },
        io('').streams,
      ),
    ).toBeUndefined();
  });
});
