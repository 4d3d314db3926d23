/**
 * What a destroyed sandbox leaves behind in the engine must not grow with
 * the number of sandboxes: a round of N sandboxes and a round of 2N, each
 * running the same mix (builtins, pipelines, a big output, a command killed
 * by its time limit, a file written and removed, Python, a terminal, a
 * restore and a fork) and then destroyed, must leave the same JS heap and
 * ArrayBuffers behind. Bounded caches (compiled modules, Python's runtime
 * files) fill in a warm-up round first. Not timed: it compares memory
 * after a settled GC, with a slack below what two leaked sandboxes cost.
 */
import { describe, expect, it } from 'vitest';
import { SandglassEngine } from './engine.js';
import type { BusClient } from './eventBus.js';
import { settledMemory } from '../adversarial/memory.js';
import { WorkerPool } from '../proc/node/workerPool.js';
import { PythonPool } from '../python/node/pythonPool.js';

const MiB = 2 ** 20;
const COMMANDS = 12;
/**
 * Growth allowed from the N round to the 2N round (heap and buffers each).
 * Measured on 2026-11-26: 0.2-0.35 MiB between rounds as it is (compiled
 * code, feedback); 1.85 MiB when the registry kept each destroyed entry.
 */
const SLACK = 1 * MiB;

/** The i-th command of the mix and what it must print (undefined: only its exit status matters). */
function mixed(i: number): { command: string; timeoutMs?: number; stdout?: string } {
  switch (i % 6) {
    case 0:
      return { command: `x=$((${String(i)} * 3)); echo $x`, stdout: `${String(i * 3)}\n` };
    case 1:
      // ~1.1 MB of output through the API and into the step's preview.
      return { command: 'seq 1 160000 | tail -1', stdout: '160000\n' };
    case 2:
      return { command: 'seq 1 160000 > big; wc -l < big; rm big', stdout: '160000\n' };
    case 3:
      return { command: 'yes retained | cat > /dev/null', timeoutMs: 200 };
    case 4:
      return { command: 'seq 1 500 | sort -rn | head -2 | tr "\\n" " "', stdout: '500 499 ' };
    default:
      return { command: 'f() { echo "$1$1"; }; f ab; cd /tmp && pwd', stdout: 'abab\n/tmp\n' };
  }
}

async function lifetime(engine: SandglassEngine, person: BusClient, n: number): Promise<void> {
  const { id } = await engine.call('createSandbox', { name: `kept-${String(n)}` }, person);
  const { terminalId } = await engine.call('openTerminal', { sandboxId: id, cols: 80, rows: 24 });
  await engine.call('terminalWrite', { terminalId, data: 'echo from-terminal\r' });
  let firstStep = '';
  for (let i = 0; i < COMMANDS; i++) {
    const m = mixed(i);
    const r = await engine.call('run', {
      sandboxId: id,
      command: m.command,
      ...(m.timeoutMs !== undefined ? { timeoutMs: m.timeoutMs } : { timeoutMs: 60_000 }),
    });
    firstStep ||= r.stepId ?? '';
    if (m.stdout !== undefined) expect(r.stdout).toBe(m.stdout);
    else expect(r.status).not.toBe(0);
  }
  const py = await engine.call('run', {
    sandboxId: id,
    command: `python3 -c "print(${String(n)} * 7)"`,
    timeoutMs: 120_000,
  });
  expect(py.stdout).toBe(`${String(n * 7)}\n`);
  expect(firstStep).not.toBe('');
  await engine.call('restoreStep', { sandboxId: id, stepId: firstStep });
  const fork = await engine.call('forkSandbox', { sandboxId: id, stepId: firstStep }, person);
  expect((await engine.call('run', { sandboxId: fork.id, command: 'echo fork' })).stdout).toBe(
    'fork\n',
  );
  await engine.call('closeTerminal', { terminalId });
  await engine.call('destroySandbox', { sandboxId: fork.id });
  await engine.call('destroySandbox', { sandboxId: id });
}

async function round(engine: SandglassEngine, person: BusClient, sandboxes: number) {
  await Promise.all(Array.from({ length: sandboxes }, (_, n) => lifetime(engine, person, n)));
  expect(await engine.call('listSandboxes', {})).toEqual([]);
  // Every worker thread ends once the last sandbox lets go of the pools.
  expect(await WorkerPool.drained(20_000)).toBe(true);
  expect(await PythonPool.drained(20_000)).toBe(true);
  return settledMemory();
}

describe('engine memory after destroyed sandboxes', () => {
  it('does not grow with the number of sandboxes', async () => {
    const engine = new SandglassEngine();
    let events = 0;
    const person = engine.connect('person', () => void events++);
    try {
      const warm = await round(engine, person, 1);
      const n = await round(engine, person, 2);
      const twice = await round(engine, person, 4);
      const report = `warm-up ${JSON.stringify(warm)}, N ${JSON.stringify(n)}, 2N ${JSON.stringify(twice)}`;
      expect(events).toBeGreaterThan(0);
      expect(twice.heap - n.heap, report).toBeLessThan(SLACK);
      expect(twice.buffers - n.buffers, report).toBeLessThan(SLACK);
    } finally {
      person.close();
      await engine.dispose();
    }
  }, 600_000);
});
