/** fixture-yes | fixture-head -n 1: time from spawn to both ended (EOF, EPIPE, SIGPIPE). */
import { SinkFile } from '../../src-worker/dev/devices.js';
import { createPipe } from '../../src-worker/pipe/pipe.js';
import { benchSandbox, summary } from './common.js';

const enc = new TextEncoder();
const sb = await benchSandbox();
const k = sb.kernelForTests;
const samples: number[] = [];
for (let i = 0; i < 30; i++) {
  await sb.warm();
  const [r, w] = createPipe();
  const sink = new SinkFile(() => undefined);
  const t0 = performance.now();
  const yes = await k.spawn({
    path: '/usr/bin/fixture-yes',
    argv: [enc.encode('yes')],
    env: [],
    fds: [[1, w]],
  });
  const head = await k.spawn({
    path: '/usr/bin/fixture-head',
    argv: ['head', '-n', '1'].map((s) => enc.encode(s)),
    env: [],
    fds: [
      [0, r],
      [1, sink],
    ],
  });
  await Promise.all([yes.exited(), head.exited()]);
  if (i > 0) samples.push(performance.now() - t0);
}
console.log(summary('yes | head -n1', samples));
await sb.destroy();
