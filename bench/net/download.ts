/**
 * Throughput and memory of a large loopback download through the network
 * gateway, next to host curl on the same server (which runs in its own
 * process). Run: npx tsx bench/net/download.ts [MiB]
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { request } from 'undici';
import { NetworkGateway } from '../../src-worker/net/gateway.js';
import { startServerProcess } from './server.js';

const MiB = 1024 * 1024;
const size = Number(process.argv[2] ?? 100) * MiB;

const srv = await startServerProcess();
const gw = new NetworkGateway({
  sandboxId: 'bench',
  policy: { allowedHosts: [`127.0.0.1:${srv.port}`] },
  resolver: async () => [],
});

async function viaGateway(): Promise<{
  seconds: number;
  peakRss: number;
  baseRss: number;
  samples: number[];
}> {
  const baseRss = process.memoryUsage().rss;
  let peakRss = baseRss;
  const samples: number[] = [];
  const t0 = performance.now();
  const res = await gw.request({ url: `${srv.origin}/big?bytes=${size}` });
  let total = 0;
  let n = 0;
  for await (const chunk of res.body) {
    total += chunk.length;
    if (++n % 160 === 0) {
      const rss = process.memoryUsage().rss;
      peakRss = Math.max(peakRss, rss);
      samples.push(Math.round((rss - baseRss) / MiB));
    }
  }
  if (total !== size) throw new Error(`got ${total} bytes`);
  return { seconds: (performance.now() - t0) / 1000, peakRss, baseRss, samples };
}

/** Plain undici with no gateway around it: what the gateway's own layers cost. */
async function viaUndici(): Promise<number> {
  const t0 = performance.now();
  const res = await request(`${srv.origin}/big?bytes=${size}`, { highWaterMark: 1024 * 1024 });
  let total = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) total += chunk.length;
  if (total !== size) throw new Error(`got ${total} bytes`);
  return (performance.now() - t0) / 1000;
}

/** Host curl against the same server (a child process; this one keeps serving). */
async function viaCurl(): Promise<number> {
  const { stdout } = await promisify(execFile)('curl', [
    '-s',
    '-o',
    '/dev/null',
    '-w',
    '%{time_total}',
    `${srv.origin}/big?bytes=${size}`,
  ]);
  return Number(stdout);
}

await viaGateway(); // warm up
const runs = [];
for (let i = 0; i < 5; i++) runs.push(await viaGateway());
const best = runs.reduce((a, b) => (a.seconds < b.seconds ? a : b));
const undiciRuns: number[] = [];
for (let i = 0; i < 5; i++) undiciRuns.push(await viaUndici());
const curlRuns: number[] = [];
for (let i = 0; i < 5; i++) curlRuns.push(await viaCurl());
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;
console.log(
  JSON.stringify({
    mib: size / MiB,
    gatewayMiBpsBest: Math.round(size / MiB / best.seconds),
    gatewayMiBpsMedian: Math.round(size / MiB / median(runs.map((r) => r.seconds))),
    plainUndiciMiBpsBest: Math.round(size / MiB / Math.min(...undiciRuns)),
    plainUndiciMiBpsMedian: Math.round(size / MiB / median(undiciRuns)),
    hostCurlMiBpsBest: Math.round(size / MiB / Math.min(...curlRuns)),
    hostCurlMiBpsMedian: Math.round(size / MiB / median(curlRuns)),
    runsSeconds: runs.map((r) => Number(r.seconds.toFixed(3))),
    rssGrowthMiB: Math.round((Math.max(...runs.map((r) => r.peakRss)) - runs[0]!.baseRss) / MiB),
    rssSamplesMiB: best.samples,
  }),
);
srv.stop();
