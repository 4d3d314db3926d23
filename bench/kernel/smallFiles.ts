/**
 * Reading many small files: `find DIR -type f -exec cat {} +` and `cat DIR/*\/*`
 * over N files of ~200 bytes (N from argv, 5000), in a warm sandbox and
 * with the host's GNU tools on the same tree, wall and CPU side by side.
 * The cost is per-file kernel round trips (open, fstat, read, write, close).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sandbox } from '../../src-worker/sandbox/sandbox.js';

const n = Number(process.argv[2] ?? 5000);
const host = mkdtempSync(join(tmpdir(), 'sg-small-'));
const sb = await Sandbox.create();
await sb.warm();
const enc = new TextEncoder();
for (let d = 0; d < Math.ceil(n / 100); d++) {
  mkdirSync(join(host, 'data', `d${d}`), { recursive: true });
  await sb.mkdir(`/data/d${d}`, { recursive: true });
  for (let i = 0; i < 100 && d * 100 + i < n; i++) {
    const text = `file ${d} ${i} ${'x'.repeat(200)}\n`;
    writeFileSync(join(host, 'data', `d${d}`, `f${i}.txt`), text);
    await sb.writeFile(`/data/d${d}/f${i}.txt`, enc.encode(text));
  }
}
await sb.run('true');
for (const script of ['find /data -type f -exec cat {} + | wc -c', 'cat /data/*/* | wc -c']) {
  const native = script.replaceAll('/data', join(host, 'data'));
  const timed = execFileSync(
    'bash',
    ['-c', `{ /usr/bin/time -f '%e %U %S' bash -c '${native}' >/dev/null; } 2>&1`],
    {
      encoding: 'utf8',
    },
  ).trim();
  const [wall, user, sys] = timed.split(/\s+/).map(Number) as [number, number, number];
  for (let k = 0; k < 2; k++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await sb.run(script);
    const c = process.cpuUsage(c0);
    console.log(
      `${script}: sandglass ${(performance.now() - t0).toFixed(0)} ms wall, ${((c.user + c.system) / 1000).toFixed(0)} ms CPU (${r.stdout.trim()} bytes); GNU ${(wall * 1000).toFixed(0)} ms wall, ${((user + sys) * 1000).toFixed(0)} ms CPU`,
    );
  }
}
await sb.destroy();
rmSync(host, { recursive: true, force: true });
