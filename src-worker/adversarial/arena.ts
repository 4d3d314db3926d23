/**
 * The arena every adversarial case runs in: one engine per test file, a
 * target sandbox the attacks aim at, a bystander sandbox that must not
 * notice, and sentinel files on the host that must keep their bytes and
 * mtimes. After each case the arena checks that the engine answers, the
 * target still runs a command with no process left over from the attack,
 * the bystander's file and shell are intact and the host is untouched;
 * after the file it checks that engine memory came back near its baseline.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { ApiMethod, ApiParams, ApiResult, SandboxInfo } from '../contract/api.js';
import { API_VERSION } from '../contract/constants.js';
import { DEFAULT_SETTINGS, SandglassEngine } from '../api/engine.js';
import type { BusClient } from '../api/eventBus.js';
import { WorkerPool } from '../proc/node/workerPool.js';
import { collectGarbage } from './memory.js';

const BYSTANDER_FILE = '/home/user/keep.txt';
const BYSTANDER_TEXT = 'the bystander keeps this\n';

/** Files on the host that no sandbox may change; `check()` throws if one did. */
export class HostSentinel {
  readonly dir = mkdtempSync(join(tmpdir(), 'sg-adv-host-'));
  private readonly before: Map<string, { text: string; mtimeMs: number }>;

  constructor() {
    writeFileSync(join(this.dir, 'secret.txt'), `host secret ${process.pid}\n`);
    writeFileSync(join(this.dir, 'config.json'), '{"admin":false}\n');
    this.before = this.read();
  }

  /** A path inside the sentinel directory, for attacks that aim at it. */
  path(name = 'secret.txt'): string {
    return join(this.dir, name);
  }

  private read(): Map<string, { text: string; mtimeMs: number }> {
    const seen = new Map<string, { text: string; mtimeMs: number }>();
    for (const name of readdirSync(this.dir)) {
      const p = join(this.dir, name);
      seen.set(name, { text: readFileSync(p, 'utf8'), mtimeMs: statSync(p).mtimeMs });
    }
    return seen;
  }

  check(): void {
    expect(this.read()).toEqual(this.before);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function heapUsed(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

export interface ArenaOptions {
  /** Settings of the target sandbox (default: the API's defaults). */
  readonly settings?: ApiParams<'createSandbox'>['settings'];
  /** Engine heap growth allowed after the file's sandboxes are destroyed. */
  readonly heapSlackBytes?: number;
  /** How long the final check waits for every worker thread to end (default 5 s). */
  readonly drainMs?: number;
}

export interface Arena {
  readonly engine: SandglassEngine;
  readonly host: HostSentinel;
  /** The sandbox the attacks aim at. */
  readonly target: SandboxInfo;
  /** A second sandbox that must not notice anything. */
  readonly bystander: SandboxInfo;
  /** A person connected to the engine (events are dropped). */
  readonly person: BusClient;
  call<M extends ApiMethod>(method: M, params: ApiParams<M>): Promise<ApiResult<M>>;
  /** Runs a command in the target sandbox's API session. */
  run(command: string, timeoutMs?: number): Promise<ApiResult<'run'>>;
}

/** Live processes of a sandbox other than its session shells (API and terminals). */
async function strays(engine: SandglassEngine, sandboxId: string): Promise<string[]> {
  const { processes } = await engine.call('stats', { sandboxId });
  const session = (argv: readonly string[]) =>
    argv.includes('--sandglass-api') || (argv.length === 2 && argv[1] === '-i');
  return processes.filter((p) => !session(p.argv)).map((p) => p.argv.join(' '));
}

async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
  const end = performance.now() + ms;
  while (!(await check()) && performance.now() < end) await new Promise((r) => setTimeout(r, 50));
}

/**
 * Registers the arena's hooks in the calling test file and returns a getter
 * for it (valid inside tests).
 */
export function useArena(options: ArenaOptions = {}): () => Arena {
  let arena: Arena | undefined;
  let baseline = 0;

  beforeAll(async () => {
    baseline = heapUsed();
    const engine = new SandglassEngine();
    const host = new HostSentinel();
    const person = engine.connect('person', () => undefined);
    const target = await engine.call('createSandbox', {
      name: 'target',
      settings: options.settings ?? DEFAULT_SETTINGS,
    });
    const bystander = await engine.call('createSandbox', { name: 'bystander' });
    await engine.call('writeFile', {
      sandboxId: bystander.id,
      path: BYSTANDER_FILE,
      base64: Buffer.from(BYSTANDER_TEXT).toString('base64'),
    });
    arena = {
      engine,
      host,
      target,
      bystander,
      person,
      call: (method, params) => engine.call(method, params),
      run: (command, timeoutMs = 20_000) =>
        engine.call('run', { sandboxId: target.id, command, timeoutMs }),
    };
  }, 60_000);

  afterEach(async () => {
    const a = arena;
    if (!a) return;
    // The engine answers.
    expect(await a.engine.call('hello', { apiVersion: API_VERSION })).toMatchObject({
      apiVersion: API_VERSION,
    });
    // Nothing the attack started is still running in the target, which still works.
    await until(async () => (await strays(a.engine, a.target.id)).length === 0, 10_000);
    expect(await strays(a.engine, a.target.id)).toEqual([]);
    expect(await a.run('echo target-ok')).toMatchObject({ stdout: 'target-ok\n', status: 0 });
    // The bystander's file and shell are as they were.
    const kept = await a.engine.call('readFile', {
      sandboxId: a.bystander.id,
      path: BYSTANDER_FILE,
    });
    expect(Buffer.from(kept.base64, 'base64').toString()).toBe(BYSTANDER_TEXT);
    expect(
      await a.engine.call('run', { sandboxId: a.bystander.id, command: `cat ${BYSTANDER_FILE}` }),
    ).toMatchObject({ stdout: BYSTANDER_TEXT, status: 0 });
    a.host.check();
  }, 60_000);

  afterAll(
    async () => {
      const a = arena;
      if (!a) return;
      for (const s of await a.engine.call('listSandboxes', {}))
        await a.engine.call('destroySandbox', { sandboxId: s.id });
      a.person.close();
      await a.engine.dispose();
      a.host.check();
      a.host.remove();
      expect(await WorkerPool.drained(options.drainMs)).toBe(true);
      // Memory held by the attacks is released with their sandboxes.
      const grown = heapUsed() - baseline;
      expect(grown).toBeLessThan(options.heapSlackBytes ?? 64 * 1024 * 1024);
    },
    60_000 + (options.drainMs ?? 0),
  );

  return () => {
    if (!arena) throw new Error('the arena is not set up (use it inside a test)');
    return arena;
  };
}
