/** Runner factories: the kernel starts every process through the factory for its image kind. */
import { afterAll, describe, expect, it } from 'vitest';
import type { SyscallHandler } from '../channel/server.js';
import { EXIT_KIND, Sys } from '../base/syscalls.js';
import type { WasmImage } from '../programs/image.js';
import { Sandbox } from '../sandbox/sandbox.js';
import { fixtureProgramsDir } from '../sandbox/testPrograms.js';
import { runProgram } from '../sandbox/testUtil.js';
import type { WorkerJob } from './node/messages.js';
import { workerEntry } from './node/entryPath.js';
import { WasmRunnerFactory } from './node/wasmRunner.js';
import { WorkerPool } from './node/workerPool.js';
import type { ProcessRunner, RunnerFactory } from './runner.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

afterAll(async () => {
  expect(await WorkerPool.drained()).toBe(true);
});

/** A runner with no worker: it drives the kernel's handler directly, as any guest would over its channel. */
class ScriptedFactory implements RunnerFactory<WasmImage> {
  disposed = 0;
  readonly seen: { name: string; env: string[] }[] = [];
  constructor(private readonly script: 'echo' | 'crash') {}

  start(
    image: WasmImage,
    env: Uint8Array[],
    handler: SyscallHandler,
    onCrash: (message: string) => void,
  ): ProcessRunner {
    this.seen.push({ name: image.name, env: env.map((e) => dec.decode(e)) });
    const runner = { signals: [] as number[], ended: '' };
    setImmediate(() => {
      if (this.script === 'crash') return onCrash('runner lost');
      const args = image.argv.slice(1).map((a) => dec.decode(a));
      const out = new Uint8Array(0);
      void Promise.resolve(handler(Sys.WRITE, [1], enc.encode(args.join(' ') + '\n'), out)).then(
        () => handler(Sys.EXIT, [7, EXIT_KIND.normal, 0], new Uint8Array(0), out),
      );
    });
    return {
      raiseSignal: (sig) => runner.signals.push(sig),
      terminate: () => (runner.ended = 'terminated'),
      finish: () => (runner.ended = 'finished'),
      memoryBytes: () => 0,
    };
  }

  dispose(): void {
    this.disposed++;
  }
}

describe('runner factories', () => {
  it('a kind without a factory fails exec with ENOEXEC', async () => {
    const sb = await Sandbox.create({ programsDir: fixtureProgramsDir(), runners: () => ({}) });
    try {
      await expect(sb.spawn('/usr/bin/fixture-exit', ['exit', '0'])).rejects.toMatchObject({
        code: 'ENOEXEC',
      });
    } finally {
      await sb.destroy();
    }
  });

  it('a non-worker runner speaks the kernel syscalls through its handler', async () => {
    const made: ScriptedFactory[] = [];
    const sb = await Sandbox.create({
      programsDir: fixtureProgramsDir(),
      runners: () => {
        const f = new ScriptedFactory('echo');
        made.push(f);
        return { wasm: f };
      },
    });
    const fork = await sb.fork();
    const r = await runProgram(sb, '/usr/bin/fixture-exit', ['exit', 'hello', 'there'], {
      cwd: '/tmp',
    });
    expect(r).toMatchObject({ stdout: 'hello there\n', status: 7 });
    expect(made[0]?.seen).toEqual([
      { name: 'exit', env: expect.arrayContaining(['PWD=/tmp']) as unknown },
    ]);
    // Each kernel (the sandbox and its fork) gets its own factories and disposes them.
    expect(made.length).toBe(2);
    await sb.destroy();
    await fork.destroy();
    expect(made.map((f) => f.disposed)).toEqual([1, 1]);
  });

  it('a crashed runner ends its process with status 134 and the message', async () => {
    const sb = await Sandbox.create({
      programsDir: fixtureProgramsDir(),
      runners: () => ({ wasm: new ScriptedFactory('crash') }),
    });
    try {
      const r = await runProgram(sb, '/usr/bin/fixture-exit', ['exit', '0']);
      expect(r.status).toBe(134);
      expect(r.stderr).toBe('sandglass: exit: runner lost\n');
    } finally {
      await sb.destroy();
    }
  });

  it('a wasm trap travels as EXIT_KIND.trap and its reason; the kernel prints it', async () => {
    // (module (memory (export "memory") 1) (func (export "_start") unreachable))
    const trap = new Uint8Array([
      0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x03,
      0x02, 0x01, 0x00, 0x05, 0x03, 0x01, 0x00, 0x01, 0x07, 0x13, 0x02, 0x06, 0x6d, 0x65, 0x6d,
      0x6f, 0x72, 0x79, 0x02, 0x00, 0x06, 0x5f, 0x73, 0x74, 0x61, 0x72, 0x74, 0x00, 0x00, 0x0a,
      0x05, 0x01, 0x03, 0x00, 0x00, 0x0b,
    ]);
    const sb = await Sandbox.create({ programsDir: fixtureProgramsDir() });
    try {
      await sb.writeFile('/tmp/trap', trap, { mode: 0o755 });
      const r = await runProgram(sb, '/tmp/trap', ['trap']);
      expect(r.status).toBe(134);
      expect(r.stderr).toBe('sandglass: trap: wasm trap: unreachable\n');
    } finally {
      await sb.destroy();
    }
  });

  it('an exec hands the old program’s worker back to the pool (no thread per exec)', async () => {
    let created = 0;
    const pool = new WorkerPool({
      warm: 2,
      idleMs: 60_000,
      entry: () => {
        created++;
        return workerEntry();
      },
    });
    const sb = await Sandbox.create({ runners: () => ({ wasm: new WasmRunnerFactory(pool) }) });
    try {
      await sb.warm();
      // bash -c execs its last command in place; sh -c then runs `exit 5` itself.
      const script = `bash -c "sh -c 'echo \\$\\$; exit 5'"; echo "status $?"; echo $$`;
      expect((await sb.run(script)).stdout).toMatch(/^\d+\nstatus 5\n\d+\n$/);
      const before = created;
      for (let i = 0; i < 6; i++) {
        const r = await sb.run(`bash -c "/bin/true"; echo $?; bash -c 'exec printf "%s\\n" x'`);
        expect(r.stdout).toBe('0\nx\n');
      }
      // A worker per exec (ended rather than reused) would make 12 here.
      expect(created - before).toBeLessThanOrEqual(2);
    } finally {
      await sb.destroy();
      pool.dispose();
    }
  });

  it('a wasm factory on a caller-owned pool leaves the pool to its owner', async () => {
    const pool = new WorkerPool({ warm: 1, idleMs: 1000 });
    const sb = await Sandbox.create({
      programsDir: fixtureProgramsDir(),
      runners: () => ({ wasm: new WasmRunnerFactory(pool) }),
    });
    await sb.warm();
    const r = await runProgram(sb, '/usr/bin/fixture-exit', ['exit', '3']);
    expect(r.status).toBe(3);
    await sb.destroy();
    // Still usable after the sandbox is gone.
    const lease = pool.run({ type: 'no-such-job' } satisfies WorkerJob);
    const crash = await new Promise<string>((resolve) => (lease.onCrash = resolve));
    expect(crash).toBe("worker has no 'no-such-job' job");
    pool.kill(lease);
    pool.dispose();
  });
});
