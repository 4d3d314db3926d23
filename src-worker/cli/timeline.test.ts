import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../proc/node/workerPool.js';
import { defaultProgramsDir } from '../sandbox/sandbox.js';
import { UsageError } from './options.js';
import { graphLines, runTimeline } from './timeline.js';

const haveShell = existsSync(join(defaultProgramsDir(), 'shell.wasm'));

afterAll(async () => {
  expect(await WorkerPool.drained()).toBe(true);
});

async function cli(args: string[]): Promise<{ status: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const status = await runTimeline(args, { stdin: new PassThrough(), stdout, stderr });
  return { status, out, err };
}

describe('sandglass timeline show lanes', () => {
  it('draws a lane per branch while it grows', () => {
    const step = (id: string, branchId: string, parentId: string | null) => ({
      id,
      parentId,
      branchId,
      kind: 'command' as const,
      sessionId: 's',
      sessionKind: 'api' as const,
      command: `cmd ${id}`,
      status: 0,
      startedAt: 0,
      durationMs: 1,
      network: [],
      released: false,
      recorded: false,
    });
    const lines = graphLines(
      [
        step('a', 'm', null),
        step('b', 'm', 'a'),
        step('c', 'x', 'a'),
        step('d', 'm', 'b'),
        step('e', 'x', 'c'),
      ],
      new Map([
        ['m', 'main'],
        ['x', 'branch-2'],
      ]),
    );
    expect(lines.map((l) => l.replace(/ {2}[a-e] .*$/, ''))).toEqual([
      '*',
      '*',
      '| *',
      '* |',
      '  *',
    ]);
    expect(lines[2]).toContain('c branch-2 [0] 1ms  cmd c');
  });
});

describe.skipIf(!haveShell)('sandglass timeline', () => {
  it('saves commands as steps, then loads, shows and diffs the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sg-tl-'));
    try {
      const file = join(dir, 't.sgtl');
      const script = join(dir, 'steps.sh');
      await writeFile(
        script,
        'cd /tmp\n# a comment\necho one > a.txt; x=7\necho two >> a.txt; echo x=$x\n',
      );
      const saved = await cli(['save', file, script]);
      expect(saved).toMatchObject({ status: 0, out: 'x=7\n' });
      expect(saved.err).toMatch(/saved 3 steps, 1 branches/);
      expect(existsSync(`${file}.journal`)).toBe(false);
      const loaded = await cli(['load', file, '--json']);
      const summary = JSON.parse(loaded.out) as { steps: number; branches: string[]; head: string };
      expect(summary).toMatchObject({ steps: 3, branches: ['main'] });
      const shown = await cli(['show', file]);
      const ids = shown.out
        .trim()
        .split('\n')
        .map((l) => l.split(/\s+/)[1] as string);
      expect(shown.out).toMatch(/^\* {2}st\d+ main \[0\] \d+ms {2}cd \/tmp\n/);
      const diff = await cli(['diff', file, ids[0] as string, ids[2] as string]);
      expect(diff.out).toBe('A /tmp/a.txt +2 -0\n');
      expect((await cli(['diff', file, '1', '3'])).out).toBe(diff.out);
      const same = await cli(['diff', file, ids[1] as string, ids[1] as string]);
      expect(same.out).toMatch(/no changes/);
      // A crashed save: only the journal is there; load recovers it.
      const bytes = await readFile(file);
      await writeFile(join(dir, 'cut.sgtl'), bytes.subarray(0, bytes.length >> 1));
      await expect(cli(['load', join(dir, 'cut.sgtl')])).rejects.toThrow(/corrupt or truncated/);
      await expect(cli(['diff', file, 'nope', ids[0] as string])).rejects.toThrow(/no step nope/);
      await expect(cli(['frob'])).rejects.toThrow(UsageError);
      await expect(cli(['save', file])).rejects.toThrow(/either -c COMMAND/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('recovers a save that never finished from its journal', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sg-tl-'));
    try {
      const file = join(dir, 'j.sgtl');
      await cli(['save', file, '-c', 'echo a > /tmp/a', '-c', 'echo b > /tmp/b']);
      // Rebuild the journal as a crash would leave it: save again, keep the journal, drop the file.
      const { SandglassEngine } = await import('../api/engine.js');
      const engine = new SandglassEngine();
      try {
        const sb = await engine.call('createSandbox', { name: 'j' });
        const chunks: Uint8Array[] = [];
        await engine.journalTimeline(sb.id, (b) => chunks.push(b));
        await engine.call('run', { sandboxId: sb.id, command: 'echo a > /tmp/a' });
        await engine.call('run', { sandboxId: sb.id, command: 'echo b > /tmp/b' });
        const all = Buffer.concat(chunks);
        await rm(file);
        await writeFile(`${file}.journal`, all.subarray(0, all.length - 5));
      } finally {
        await engine.dispose();
      }
      const r = await cli(['load', file]);
      expect(r.err).toMatch(
        /was not finished; recovered 1 steps from .*j\.sgtl\.journal \(\d+ bytes of an unfinished step dropped\)/,
      );
      expect(r.out).toMatch(/valid timeline .*\n {2}1 steps/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
