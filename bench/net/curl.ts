/**
 * curl in a sandbox against host curl on the same loopback server (its own
 * process): throughput of a large download (target >= 50 % of host curl),
 * the overhead of a small request (target <= 5 ms over host curl) and the
 * engine's memory during the large download (it must stay flat: bodies
 * stream through the gateway and the syscall channel).
 * Run: npx tsx bench/net/curl.ts [MiB] [small-runs] [own|undici]
 * (the last picks the gateway's plain-http client, for A/B runs; default own).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { WorkerPool } from '../../src-worker/proc/node/workerPool.js';
import { Sandbox } from '../../src-worker/sandbox/sandbox.js';
import { runProgram } from '../../src-worker/sandbox/testUtil.js';
import { startServerProcess } from './server.js';

const MiB = 1024 * 1024;
const size = Number(process.argv[2] ?? 100) * MiB;
const smallRuns = Number(process.argv[3] ?? 20);
const plainHttpClient = process.argv[4] === 'undici' ? 'undici' : 'own';

const server = await startServerProcess();
const { origin } = server;
const sb = await Sandbox.create({
  network: {
    policy: { allowedHosts: [`127.0.0.1:${new URL(origin).port}`] },
    plainHttpClient,
  },
});
await sb.warm();

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;

/** Host curl: wall time of the process (as Node spawns it), curl's own time_total, its CPU. */
const hostTransferMs: number[] = [];
const hostCpuMs: number[] = [];
async function hostCurl(url: string, own?: number[], cpu?: number[]): Promise<number> {
  const t0 = performance.now();
  const { stdout, stderr } = await promisify(execFile)('/usr/bin/time', [
    '-f',
    '%U %S',
    'curl',
    '-s',
    '-o',
    '/dev/null',
    '-w',
    '%{time_total}',
    url,
  ]);
  const ms = performance.now() - t0;
  own?.push(Number(stdout) * 1000);
  const [u, s] = stderr.trim().split('\n').pop()!.split(' ').map(Number) as [number, number];
  cpu?.push((u + s) * 1000);
  return ms;
}

/** CPU of this process (kernel, gateway and curl's worker thread) per sandbox download. */
const sandboxCpuMs: number[] = [];

async function sandboxCurl(url: string, large = false, sample?: number[]): Promise<number> {
  const base = process.memoryUsage().rss;
  const timer = sample
    ? setInterval(() => sample.push(Math.round((process.memoryUsage().rss - base) / MiB)), 100)
    : undefined;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await runProgram(sb, '/usr/bin/curl', ['curl', '-sS', '-o', '/dev/null', url], {
    timeoutMs: 600_000,
  });
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  if (large) sandboxCpuMs.push(Math.round((c.user + c.system) / 1000));
  if (timer) clearInterval(timer);
  if (r.status !== 0) throw new Error(`curl failed (${r.status}): ${r.stderr}`);
  return ms;
}

const big = `${origin}/big?bytes=${size}`;
const small = `${origin}/hello`;
await sandboxCurl(small);
await hostCurl(small);
const ours: number[] = [];
const host: number[] = [];
const rss: number[] = [];
for (let i = 0; i < 3; i++) {
  ours.push(await sandboxCurl(big, true, i === 0 ? rss : undefined));
  host.push(await hostCurl(big, hostTransferMs, hostCpuMs));
}
const oursSmall: number[] = [];
const hostSmall: number[] = [];
const hostSmallOwn: number[] = [];
for (let i = 0; i < smallRuns; i++) {
  oursSmall.push(await sandboxCurl(small));
  hostSmall.push(await hostCurl(small, hostSmallOwn));
}
const mibps = (ms: number): number => Math.round(size / MiB / (ms / 1000));
console.log(
  JSON.stringify({
    mib: size / MiB,
    plainHttpClient,
    sandboxCurlMiBpsBest: mibps(Math.min(...ours)),
    sandboxCurlMiBpsMedian: mibps(median(ours)),
    hostCurlMiBpsBest: mibps(Math.min(...host)),
    hostCurlMiBpsMedian: mibps(median(host)),
    hostCurlOwnMiBpsBest: mibps(Math.min(...hostTransferMs)),
    // CPU per large download: this whole process (sandbox) vs the curl process (host).
    cpuMsPerDownload: { sandbox: sandboxCpuMs, hostCurl: hostCpuMs.map(Math.round) },
    loadAverage: (await import('node:os')).loadavg().map((x) => Number(x.toFixed(1))),
    throughputRatioBest: Number((Math.min(...host) / Math.min(...ours)).toFixed(2)),
    throughputRatioVsCurlOwnTime: Number(
      (Math.min(...hostTransferMs) / Math.min(...ours)).toFixed(2),
    ),
    // Both process wall times include starting the program (a warm wasm
    // worker; a host exec from Node); curl's time_total is its transfer only.
    smallRequestMsMedian: {
      sandbox: Number(median(oursSmall).toFixed(1)),
      host: Number(median(hostSmall).toFixed(1)),
      hostTimeTotal: Number(median(hostSmallOwn).toFixed(1)),
    },
    smallOverheadMs: Number((median(oursSmall) - median(hostSmall)).toFixed(1)),
    rssGrowthMiBDuringDownload: {
      max: Math.max(0, ...rss),
      samples: rss.filter((_, i) => i % 5 === 0),
    },
  }),
);
await sb.destroy();
await WorkerPool.drained();
server.stop();
