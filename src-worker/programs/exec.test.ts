import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxPagesFor } from '../base/limits.js';
import { WorkerPool } from '../proc/node/workerPool.js';
import { Sandbox } from '../sandbox/sandbox.js';
import { fixtureProgramsDir, fixtureWasmPath } from '../sandbox/testPrograms.js';
import { runProgram } from '../sandbox/testUtil.js';
import { primeProgram, type Compiled } from './exec.js';

// A memory limit no other test uses, so exec's cache holds nothing for it yet.
const MEMORY_BYTES = 300 * 1024 * 1024;
const MAX_PAGES = maxPagesFor(MEMORY_BYTES);
const dir = fixtureProgramsDir();

let sb: Sandbox;
beforeAll(async () => {
  sb = await Sandbox.create({ programsDir: dir, limits: { memoryBytes: MEMORY_BYTES } });
});
afterAll(async () => {
  await sb.destroy();
  expect(await WorkerPool.drained()).toBe(true);
});

/** fixture-printenv compiled, offered as if it were another program's file. */
function printenv(): Promise<Compiled> {
  return WebAssembly.compile(readFileSync(fixtureWasmPath('fixture-printenv'))).then((module) => ({
    module,
  }));
}

describe('primeProgram', () => {
  it('is taken by the first exec of that file under that memory limit, once', async () => {
    const echo = join(dir, 'fixture-echoargs.wasm');
    // Another limit: left for an engine with that limit.
    primeProgram(echo, MAX_PAGES + 1, printenv());
    let r = await runProgram(sb, '/usr/bin/fixture-echoargs', ['echoargs', 'x']);
    expect(r.stdout).toBe('echoargs\nx\n');

    primeProgram(join(dir, 'fixture-cat.wasm'), MAX_PAGES, printenv());
    r = await runProgram(sb, '/usr/bin/fixture-cat', ['cat'], { env: { PRIMED: 'yes' } });
    expect(r.stdout).toContain('PRIMED=yes\n');
    // Compiled once, then cached like any other: no second offer needed.
    r = await runProgram(sb, '/usr/bin/fixture-cat', ['cat'], { env: { PRIMED: 'again' } });
    expect(r.stdout).toContain('PRIMED=again\n');
  });

  it('falls back to compiling the file when the offered compile fails', async () => {
    primeProgram(
      join(dir, 'fixture-exit.wasm'),
      MAX_PAGES,
      Promise.reject(new Error('refused by V8')),
    );
    const r = await runProgram(sb, '/usr/bin/fixture-exit', ['exit', '3']);
    expect(r.status).toBe(3);
  });
});
