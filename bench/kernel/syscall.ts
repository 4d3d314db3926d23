/** Syscall round trip: a wasm program times 20,000 fd_fdstat_get calls through the channel. */
import { runProgram } from '../../src-worker/sandbox/testUtil.js';
import { benchSandbox } from './common.js';

const sb = await benchSandbox();
for (let i = 0; i < 3; i++) {
  const r = await runProgram(sb, '/usr/bin/fixture-wasi', ['wasi', 'rtt', '20000']);
  console.log(r.stdout.trim());
}
await sb.destroy();
