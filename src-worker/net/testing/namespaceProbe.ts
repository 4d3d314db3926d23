/**
 * Run inside a private network namespace by `ssrfNamespace.test.ts`
 * (`unshare -rnm`, /etc/hosts bind-mounted over with the test's names,
 * only `lo` up): the gateway with its *default* resolver, the system's
 * `dns.lookup`, against names whose answers point inside. Prints one JSON
 * line: each case's outcome and what the loopback server saw. Nothing can
 * leave the machine: the namespace has no interface but loopback.
 */
import { NetError } from '../denial.js';
import { NetworkGateway } from '../gateway.js';
import type { NetworkPolicy } from '../policy.js';
import { startLoopbackServer } from './loopbackServer.js';
import { readText } from './tables.js';

/** One case's result, as the test reads it. */
export interface Outcome {
  name: string;
  reason?: string;
  message?: string;
  status?: number;
  body?: string;
}

const srv = await startLoopbackServer();
const port = srv.port;
const anyPublic: NetworkPolicy = { allowedHosts: ['*'] };
const cases: [string, string, NetworkPolicy, boolean?][] = [
  ['name to loopback', `http://loop.sg-test:${port}/hello`, anyPublic],
  ['name to private', 'http://priv.sg-test/', anyPublic],
  ['name to metadata', 'http://meta.sg-test/latest/meta-data/', anyPublic],
  ['name to IPv6 loopback', `http://v6loop.sg-test:${port}/`, anyPublic],
  ['name to unspecified', `http://zero.sg-test:${port}/`, anyPublic],
  ['name to carrier-grade NAT', 'http://cgnat.sg-test/', anyPublic],
  ['name to link-local', 'http://ll.sg-test/', anyPublic],
  ['one inside answer among public ones', 'http://mixed.sg-test/', anyPublic],
  ['localhost', `http://localhost:${port}/hello`, anyPublic],
  [
    'name entry does not open its inside answer',
    `http://loop.sg-test:${port}/hello`,
    {
      allowedHosts: ['loop.sg-test'],
    },
  ],
  ['unknown name', 'http://nowhere.sg-test/', anyPublic],
  ['public answer: no route out of the namespace', 'http://public.sg-test/', anyPublic],
  [
    'allowed name and address: connects to the checked address',
    `http://loop.sg-test:${port}/hello`,
    { allowedHosts: ['loop.sg-test', `127.0.0.1:${port}`] },
  ],
  [
    'redirect from an allowed host to a name pointing inside',
    `http://loop.sg-test:${port}/redirect?to=${encodeURIComponent(`http://priv.sg-test:${port}/hello`)}`,
    { allowedHosts: ['loop.sg-test', '*', `127.0.0.1:${port}`] },
    true,
  ],
  [
    'redirect to a name pointing at metadata',
    `http://loop.sg-test:${port}/redirect?to=${encodeURIComponent('http://meta.sg-test/')}`,
    { allowedHosts: ['loop.sg-test', '*', `127.0.0.1:${port}`] },
    true,
  ],
];

const out: Outcome[] = [];
for (const [name, url, policy, follow] of cases) {
  const gw = new NetworkGateway({
    sandboxId: 'netns',
    policy,
    limits: { connectTimeoutMs: 2000, totalTimeoutMs: 5000 },
  });
  try {
    const res = await gw.request({ url, followRedirects: follow ?? false });
    out.push({ name, status: res.status, body: await readText(res) });
  } catch (e) {
    if (!(e instanceof NetError)) throw e;
    out.push({ name, reason: e.reason, message: e.message });
  }
}
const seen = srv.seen.map((s) => s.url);
await srv.close();
process.stdout.write(`${JSON.stringify({ port, out, seen })}\n`);
