/**
 * Spawn-cost probe: how long a shell start, a command substitution and a
 * fixture program take in a warm sandbox, with stdin from /dev/null and
 * from a host pipe (as `sandglass run` gives it).
 */
import { Sandbox } from '../../src-worker/sandbox/sandbox.ts';

const sb = await Sandbox.create();
await sb.warm();
for (const stdin of [undefined, 'pipe'] as const) {
  for (const script of [':', 'x=$(echo hi); y=$(echo ho)', 'for i in 1 2 3 4 5 6 7 8 9 10; do x=$(echo hi); done']) {
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const p = await sb.spawn('/bin/sh', ['sh', '-c', script], stdin ? { stdin } : {});
      await p.wait();
      console.log(`stdin=${stdin ?? 'null'} ${script.slice(0, 30).padEnd(30)} ${(performance.now() - t0).toFixed(1)} ms`);
    }
  }
}
await sb.destroy();
