/**
 * Spawn-mode probe: the same script run as `sh -c` (stdin /dev/null and a
 * host pipe, as `sandglass run` gives it) and in a session, timed, to tell
 * process start, compile and interpretation costs apart.
 * Usage: npx tsx bench/shell/prof-spawn.mts [SCRIPT]
 */
import { Sandbox } from '../../src-worker/sandbox/sandbox.ts';

const script = process.argv[2] ?? 'for ((i=0; i<20000; i++)); do :; done';
const sb = await Sandbox.create();
await sb.warm();
for (const stdin of [undefined, 'pipe'] as const) {
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const p = await sb.spawn('/bin/sh', ['sh', '-c', script], stdin ? { stdin } : {});
    if (stdin) p.stdin?.close();
    await p.wait();
    console.log(`sh -c, stdin=${stdin ?? 'null'}: ${(performance.now() - t0).toFixed(1)} ms`);
  }
}
for (let i = 0; i < 3; i++) {
  const r = await sb.run(script);
  console.log(`session: ${r.durationMs.toFixed(1)} ms`);
}
await sb.destroy();
