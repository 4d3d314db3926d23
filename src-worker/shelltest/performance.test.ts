/**
 * Cost guards for the shell's hot paths, counted rather than timed where
 * possible: kernel calls made by a `while read` loop over a file, and
 * parameter-expansion operators on long strings (which must stay linear per
 * match instead of trying every substring).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ChannelServer } from '../channel/server.js';
import { W_OP } from '../channel/layout.js';
import { Sys } from '../base/syscalls.js';
import { WorkerPool } from '../proc/node/workerPool.js';
import { defaultProgramsDir, Sandbox } from '../sandbox/sandbox.js';

const shellBuilt = existsSync(join(defaultProgramsDir(), 'shell.wasm'));

/** Kernel requests by operation name, counted by wrapping the channel server's dispatch. */
const counts = new Map<string, number>();
// The dispatch method is private; reaching it through the prototype keeps this probe out of the kernel.
const proto = ChannelServer.prototype as unknown as {
  handle: (this: { view: { words: Int32Array } }) => boolean;
};
const original = proto.handle;

let sb: Sandbox;
const home = '/home/user/perf';

describe.skipIf(!shellBuilt)('shell hot paths', () => {
  beforeAll(async () => {
    proto.handle = function (this: { view: { words: Int32Array } }): boolean {
      const op = Sys[this.view.words[W_OP] as number] ?? String(this.view.words[W_OP]);
      counts.set(op, (counts.get(op) ?? 0) + 1);
      return original.call(this);
    };
    sb = await Sandbox.create();
    await sb.mkdir(home, { recursive: true });
  });

  afterAll(async () => {
    proto.handle = original;
    await sb?.destroy();
    expect(await WorkerPool.drained()).toBe(true);
  });

  it('reads a 2000-line file in a while-read loop with a few kernel calls per block, not per line', async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `line ${i} ${'x'.repeat(i % 40)}`);
    await sb.writeFile(`${home}/lines.txt`, `${lines.join('\n')}\n`);
    await sb.run('true', { cwd: home });
    counts.clear();
    const r = await sb.run(
      'n=0; c=0; while IFS= read -r line; do n=$((n + ${#line})); c=$((c+1)); done < lines.txt; echo $c $n',
      { cwd: home },
    );
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    const bytes = lines.reduce((a, l) => a + l.length, 0);
    expect(r.stdout).toBe(`2000 ${bytes}\n`);
    // 2000 lines of ~30 bytes are ~60 KB: a handful of blocks. Reading per
    // line (read + seek back) would be over 4000 calls.
    expect(total).toBeLessThan(100);
  });

  it('leaves the file offset after the last line read when a child takes over', async () => {
    await sb.writeFile(`${home}/abc.txt`, 'a\nb\nc\nd\n');
    const r = await sb.run(
      '{ read x; read y; /bin/sh -c \'read z; echo "z=$z"\'; cat; } < abc.txt; echo $x$y',
      {
        cwd: home,
      },
    );
    expect(r.stdout).toBe('z=c\nd\nab\n');
  });

  it(
    'runs pattern operators on a 50 KB string in linear time per match',
    { timeout: 30_000 },
    async () => {
      const r = await sb.run(
        [
          'x=$(printf "%050000d" 0); x=${x//0/ab}',
          'y=${x//ab/X}; echo ${#y}',
          'y=${x//b?/Y}; echo ${#y}',
          'y=${x#*ba}; echo ${#y}',
          'y=${x%%b*}; echo ${#y}',
          'y=${x%a*}; echo ${#y}',
          'y=${x/#a*b/Z}; echo ${y}',
        ].join('\n'),
        { cwd: home, timeoutMs: 20_000 },
      );
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('50000\n50001\n99997\n1\n99998\nZ\n');
    },
  );
});
