/**
 * Resource exhaustion from inside a sandbox with small limits: fork bombs,
 * spinning loops, memory hogs, huge outputs and files, many files, deep
 * recursion, fd exhaustion, pipe floods, many processes and terminals.
 * Each ends with a clear message or the limit's status, and the arena
 * proves every process is gone and the engine and other sandboxes fine.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../api/engine.js';
import { defaultProgramsDir } from '../sandbox/sandbox.js';
import { useArena } from './arena.js';

const built = existsSync(join(defaultProgramsDir(), 'shell.wasm'));
const MiB = 1024 * 1024;

/** Small limits that still prove each one holds. */
const SETTINGS = {
  ...DEFAULT_SETTINGS,
  limits: {
    totalBytes: 24 * MiB,
    fileBytes: 4 * MiB,
    nodeCount: 3000,
    processCount: 16,
    outputBytes: 1 * MiB,
    memoryBytes: 192 * MiB,
  },
  timeoutMs: 4000,
};

interface Hog {
  readonly cmd: string;
  /** Per-command time limit (default: the sandbox's 4 s). */
  readonly timeoutMs?: number;
  /** Acceptable statuses. */
  readonly status: readonly number[];
  /** Text stderr must contain. */
  readonly stderr?: string | RegExp;
  /** Largest stdout accepted, in characters. */
  readonly maxStdout?: number;
}

const TIMEOUT = 124;
const TIME_LIMIT = /time limit of \d+ ms exceeded/;

const HOGS: Record<string, Hog> = {
  'fork bomb': { cmd: 'b() { b | b & }; b', timeoutMs: 1500, status: [0, TIMEOUT] },
  'fork bomb of subshells': {
    cmd: 'b() { (b &); (b &); }; b; sleep 5',
    timeoutMs: 1500,
    status: [TIMEOUT],
    stderr: TIME_LIMIT,
  },
  'shell loop that never ends': {
    cmd: 'while :; do :; done',
    timeoutMs: 1000,
    status: [TIMEOUT],
    stderr: TIME_LIMIT,
  },
  'program that spins': {
    cmd: 'yes > /dev/null',
    timeoutMs: 1000,
    status: [TIMEOUT],
    stderr: TIME_LIMIT,
  },
  'sleep past the deadline': {
    cmd: 'sleep 1000',
    timeoutMs: 800,
    status: [TIMEOUT],
    stderr: TIME_LIMIT,
  },
  'orphan writing forever': {
    cmd: '(while :; do echo x >> /tmp/orphan; done) & disown; echo started',
    timeoutMs: 1000,
    status: [0, TIMEOUT],
  },
  'a background job per process slot': {
    cmd: 'for i in $(seq 1 40); do sleep 30 & done; wait',
    timeoutMs: 10_000,
    status: [TIMEOUT, 0, 1],
    stderr: 'Resource temporarily unavailable',
  },
  'awk string doubling past the memory limit': {
    cmd: `awk 'BEGIN { s = "x"; while (1) s = s s }'`,
    // Long enough that the memory limit, not the clock, ends it on a loaded machine.
    timeoutMs: 30_000,
    status: [137],
    stderr: /memory limit/,
  },
  'shell variable doubling': {
    cmd: 'x=a; while :; do x=$x$x; done',
    status: [137, TIMEOUT],
    stderr: /memory limit|time limit/,
  },
  'sort of an endless stream': {
    cmd: 'yes abcdefghijklmnop | sort > /dev/null',
    timeoutMs: 2000,
    status: [137, TIMEOUT, 141],
    stderr: /memory limit|time limit/,
  },
  'huge stdout': {
    cmd: 'yes 0123456789 | head -c 8000000',
    status: [137],
    stderr: 'killed: output limit of 1048576 bytes exceeded',
    maxStdout: 1 * MiB,
  },
  'huge stderr': {
    cmd: 'yes 0123456789 | head -c 8000000 >&2',
    status: [137],
    stderr: 'killed: output limit of 1048576 bytes exceeded',
    maxStdout: 0,
  },
  'huge output through a background job': {
    cmd: '(yes 0123456789 &); sleep 3',
    status: [137],
    stderr: 'killed: output limit of 1048576 bytes exceeded',
    maxStdout: 1 * MiB,
  },
  'file larger than the file limit': {
    cmd: 'head -c 10000000 /dev/zero > /tmp/big',
    status: [1],
    stderr: 'File too large',
  },
  'disk filled by several files': {
    cmd: 'for i in 1 2 3 4 5 6 7 8; do head -c 4000000 /dev/zero > /tmp/fill$i || exit 1; done',
    status: [1],
    stderr: 'No space left on device',
  },
  'random bytes into a file': {
    cmd: 'cat /dev/urandom > /tmp/rand',
    status: [1],
    stderr: 'File too large',
  },
  'thousands of files': {
    cmd: 'mkdir -p /tmp/many && cd /tmp/many && for i in $(seq 1 4000); do : > f$i || exit 1; done',
    timeoutMs: 20_000,
    status: [1],
    // The node-count limit reads as a quota.
    stderr: 'Disk quota exceeded',
  },
  'a very deep directory tree': {
    cmd: 'mkdir -p /tmp/deep/$(printf "d/%.0s" $(seq 1 1500))',
    status: [1],
    stderr: 'mkdir: cannot create directory',
  },
  'shell function recursion': {
    cmd: 'f() { f; }; f',
    status: [1, 2, 134, 137, TIMEOUT],
    stderr: /maximum function nesting level exceeded|memory limit|time limit|stack/,
  },
  'awk recursion': {
    cmd: `awk 'function f(n) { return f(n + 1) } BEGIN { f(1) }'`,
    status: [1, 2, 134, 137, TIMEOUT],
    stderr: /./,
  },
  'fd exhaustion in the shell': {
    cmd: 'for i in $(seq 3 3000); do eval "exec $i</dev/null" || exit 7; done',
    timeoutMs: 20_000,
    status: [1, 7],
    stderr: /Too many open files|Bad file descriptor/,
  },
  'pipe flood into a reader that never reads': {
    cmd: 'yes | sleep 2; echo after',
    status: [0],
  },
  'argument list too long': {
    cmd: '/bin/echo $(seq 1 70000) > /dev/null',
    status: [126],
    stderr: 'Argument list too long',
  },
  'brace expansion bomb': {
    cmd: 'echo {1..20}{1..20}{1..20}{1..20}{1..20}{1..20} > /dev/null',
    timeoutMs: 3000,
    status: [0, 1, 137, TIMEOUT],
  },
  'command substitution of an endless stream': {
    cmd: 'x=$(yes)',
    timeoutMs: 3000,
    status: [137, TIMEOUT],
    stderr: /memory limit|time limit/,
  },
};

describe.skipIf(!built)('resource exhaustion', () => {
  const arena = useArena({ settings: SETTINGS });

  it.each(Object.entries(HOGS))('%s', { timeout: 60_000 }, async (_name, hog) => {
    const a = arena();
    const t0 = performance.now();
    const r = await a.run(hog.cmd, hog.timeoutMs ?? SETTINGS.timeoutMs);
    // The limit, not the test's timeout, ended it.
    expect(performance.now() - t0).toBeLessThan((hog.timeoutMs ?? SETTINGS.timeoutMs) + 15_000);
    expect(hog.status).toContain(r.status);
    if (hog.stderr !== undefined) expect(r.stderr).toMatch(hog.stderr);
    if (hog.maxStdout !== undefined) expect(r.stdout.length).toBeLessThanOrEqual(hog.maxStdout);
    // Files the attack left are removed so the next case starts with room.
    await a.run('rm -rf /tmp/*');
  });

  it('many terminals: each counts as a process, the rest are refused clearly', async () => {
    const a = arena();
    const opened: string[] = [];
    let refused: unknown;
    for (let i = 0; i < 40 && refused === undefined; i++) {
      try {
        const t = await a.call('openTerminal', { sandboxId: a.target.id, cols: 80, rows: 24 });
        opened.push(t.terminalId);
      } catch (err) {
        refused = err;
      }
    }
    expect(opened.length).toBeLessThan(40);
    expect(refused).toMatchObject({ code: 'EAGAIN' });
    for (const terminalId of opened) await a.call('closeTerminal', { terminalId });
  });

  it('huge terminal sizes are clamped, not allocated', async () => {
    const a = arena();
    const { terminalId } = await a.call('openTerminal', {
      sandboxId: a.target.id,
      cols: 1e9,
      rows: 1e9,
    });
    await a.call('terminalResize', { terminalId, cols: 2 ** 31, rows: -5 });
    await a.call('closeTerminal', { terminalId });
  });
});
