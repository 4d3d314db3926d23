/**
 * Syscalls per shell workload: runs the shell benchmarks (scaled down) in a
 * sandbox session and counts the channel requests the kernel answers, by
 * operation, by wrapping the channel server's dispatch (bench only; no
 * kernel change). Usage: npx tsx bench/shell/prof-syscalls.mts [scale] [SCRIPT...]
 * (extra SCRIPTs are measured too, as given).
 */
import { ChannelServer } from '../../src-worker/channel/server.ts';
import { W_OP } from '../../src-worker/channel/layout.ts';
import { Sys } from '../../src-worker/base/syscalls.ts';
import { Sandbox } from '../../src-worker/sandbox/sandbox.ts';
import { WORKLOADS } from '../workloads.ts';

const counts = new Map<string, number>();
// The dispatch method is private; reaching it through the prototype keeps this probe out of the kernel.
const proto = ChannelServer.prototype as unknown as {
  handle: (this: { view: { words: Int32Array } }) => boolean;
};
const original = proto.handle;
proto.handle = function (this: { view: { words: Int32Array } }): boolean {
  const op = Sys[this.view.words[W_OP] as number] ?? String(this.view.words[W_OP]);
  counts.set(op, (counts.get(op) ?? 0) + 1);
  return original.call(this);
};

const scale = Number(process.argv[2] ?? '0.1');
const sb = await Sandbox.create({ limits: { wallTimeMs: 600_000 } });
const home = '/home/user/bench';
await sb.mkdir(home, { recursive: true });
const extra = process.argv.slice(3).map((script, i) => ({
  name: `script-${i + 1}`,
  script,
  files: () => ({}),
}));
const names = ['shell-arith-loop-100k', 'shell-while-read-10k', 'shell-param-expansion'];
for (const w of [...WORKLOADS.filter((x) => names.includes(x.name)), ...extra]) {
  for (const [rel, data] of Object.entries(w.files(scale)))
    await sb.writeFile(`${home}/${rel}`, data);
  // Scale the loop counts the same way as the data.
  const script = w.script.replace(/\b(100000|20000)\b/g, (m) =>
    String(Math.round(Number(m) * scale)),
  );
  await sb.run('true', { cwd: home });
  counts.clear();
  const t0 = performance.now();
  const r = await sb.run(script, { cwd: home, timeoutMs: 600_000 });
  const ms = performance.now() - t0;
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  console.log(
    `${w.name.padEnd(24)} ${ms.toFixed(0).padStart(6)} ms  exit ${r.exitCode}  out ${r.stdout.trim().slice(0, 30).padEnd(20)} syscalls ${total}: ${[...counts].map(([k, v]) => `${k}=${v}`).join(' ')}`,
  );
}
await sb.destroy();
