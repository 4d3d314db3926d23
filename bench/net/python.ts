/**
 * Python's HTTP in a sandbox (through the gateway) against the host's
 * python3 on the same loopback server (its own process): the time of N small
 * requests inside one interpreter (urllib and requests), so start-up is left
 * out, and the throughput of a large download (requests iter_content and
 * urllib read). Wall and CPU time: the sandbox's CPU is this process's
 * (engine, gateway and the interpreter's worker thread), the host's is the
 * python3 child's.
 * Run: npx tsx bench/net/python.ts [MiB] [requests]
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Sandbox } from '../../src-worker/sandbox/sandbox.js';
import { startServerProcess } from './server.js';

const size = Number(process.argv[2] ?? 100) * 1024 * 1024;
const count = Number(process.argv[3] ?? 200);

const server = await startServerProcess();
const { origin } = server;
const sb = await Sandbox.create({
  network: { policy: { allowedHosts: [`127.0.0.1:${new URL(origin).port}`] } },
});

// Each phase prints "name seconds"; timing is Python's own, around the loop only.
const script = `
import os, sys, time, urllib.request, requests
O, N, SIZE = os.environ["ORIGIN"], int(os.environ["N"]), int(os.environ["SIZE"])
def phase(name, f):
    t = time.perf_counter(); f(); print(name, round(time.perf_counter() - t, 4))
def urllib_small():
    for _ in range(N): urllib.request.urlopen(O + "/hello").read()
def requests_small():
    with requests.Session() as s:
        for _ in range(N): s.get(O + "/hello").content
def requests_big():
    n = 0
    for c in requests.get(O + "/big?bytes=%d" % SIZE, stream=True).iter_content(1 << 20): n += len(c)
    assert n == SIZE, n
def urllib_big():
    r = urllib.request.urlopen(O + "/big?bytes=%d" % SIZE); n = 0
    while True:
        b = r.read(1 << 20)
        if not b: break
        n += len(b)
    assert n == SIZE, n
phase("urllib_small", urllib_small)
phase("requests_small", requests_small)
phase("requests_big", requests_big)
phase("urllib_big", urllib_big)
`;

function parse(out: string): Record<string, number> {
  const r: Record<string, number> = {};
  for (const line of out.trim().split('\n')) {
    const [k, v] = line.split(' ');
    if (k && v) r[k] = Number(v);
  }
  return r;
}

async function host(): Promise<{ t: Record<string, number>; cpuS: number; wallS: number }> {
  const t0 = performance.now();
  const child = spawn('/usr/bin/time', ['-f', '%U %S', 'python3', '-c', script], {
    env: { ...process.env, ORIGIN: origin, N: String(count), SIZE: String(size) },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  await once(child, 'close');
  const [u, s] = err.trim().split('\n').pop()!.split(' ').map(Number) as [number, number];
  return { t: parse(out), cpuS: u + s, wallS: (performance.now() - t0) / 1000 };
}

async function sandbox(): Promise<{ t: Record<string, number>; cpuS: number; wallS: number }> {
  await sb.writeFile('/tmp/bench.py', script);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await sb.run(`ORIGIN=${origin} N=${count} SIZE=${size} python3 /tmp/bench.py`, {
    timeoutMs: 600_000,
  });
  if (r.status !== 0) throw new Error(r.stderr);
  const c = process.cpuUsage(c0);
  return {
    t: parse(r.stdout),
    cpuS: (c.user + c.system) / 1e6,
    wallS: (performance.now() - t0) / 1000,
  };
}

type Side = Awaited<ReturnType<typeof host>>;
const runs: { host: Side; sandbox: Side }[] = [];
for (let i = 0; i < 2; i++) runs.push({ host: await host(), sandbox: await sandbox() });
const best = (side: 'host' | 'sandbox', k: string): number =>
  Math.min(...runs.map((r) => r[side].t[k] ?? Infinity));
const mib = size / 1024 / 1024;
console.log(
  JSON.stringify({
    requests: count,
    msPerSmallRequest: {
      urllib: {
        sandbox: (best('sandbox', 'urllib_small') * 1000) / count,
        host: (best('host', 'urllib_small') * 1000) / count,
      },
      requests: {
        sandbox: (best('sandbox', 'requests_small') * 1000) / count,
        host: (best('host', 'requests_small') * 1000) / count,
      },
    },
    downloadMiBps: {
      requests: {
        sandbox: Math.round(mib / best('sandbox', 'requests_big')),
        host: Math.round(mib / best('host', 'requests_big')),
      },
      urllib: {
        sandbox: Math.round(mib / best('sandbox', 'urllib_big')),
        host: Math.round(mib / best('host', 'urllib_big')),
      },
    },
    wholeRunCpuS: runs.map((r) => ({
      sandbox: r.sandbox.cpuS.toFixed(2),
      host: r.host.cpuS.toFixed(2),
    })),
    wholeRunWallS: runs.map((r) => ({
      sandbox: r.sandbox.wallS.toFixed(2),
      host: r.host.wallS.toFixed(2),
    })),
  }),
);
await sb.destroy();
server.stop();
process.exit(0);
