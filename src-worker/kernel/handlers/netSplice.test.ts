// net_body_splice as curl uses it: one call moves many socket reads (each
// answer wakes the program's thread, which is what a download paid for),
// while the bytes still reach the output as they arrive.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Sys } from '../../base/syscalls.js';
import { Sandbox } from '../../sandbox/sandbox.js';
import { runProgram } from '../../sandbox/testUtil.js';
import { Kernel } from '../kernel.js';

const MiB = 1024 * 1024;
let server: Server;
let origin = '';
let sb: Sandbox;
let held: ServerResponse | null = null;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const n = Number(url.searchParams.get('n') ?? 0);
    if (url.pathname === '/big') {
      // Bytes that differ by position, so a reordered or short body shows.
      const chunk = Buffer.alloc(256 * 1024);
      res.writeHead(200, { 'Content-Length': String(n) });
      let at = 0;
      const pump = (): void => {
        while (at < n) {
          const len = Math.min(chunk.length, n - at);
          for (let i = 0; i < len; i += 4096) chunk.writeUInt32BE((at + i) >>> 0, i);
          at += len;
          if (!res.write(Buffer.from(chunk.subarray(0, len)))) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
      return;
    }
    if (url.pathname === '/ack') {
      held?.end('line 2\n');
      res.end('ok\n');
      return;
    }
    // /held: one line, then the rest only once /ack was asked for.
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.write('line 1\n');
    held = res;
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  sb = await Sandbox.create({
    network: { policy: { allowedHosts: [`127.0.0.1:${new URL(origin).port}`] } },
  });
  await sb.warm();
});

afterAll(async () => {
  await sb.destroy();
  await new Promise((r) => server.close(r));
});

async function splices(script: string): Promise<{ stdout: string; calls: number }> {
  const spy = vi.spyOn(Kernel.prototype, 'handle');
  try {
    const r = await runProgram(sb, '/bin/sh', ['sh', '-c', script], {
      env: { U: origin, PATH: '/usr/bin:/bin' },
      timeoutMs: 60_000,
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const calls = spy.mock.calls.filter((c) => c[1] === Sys.NET_BODY_SPLICE).length;
    return { stdout: r.stdout, calls };
  } finally {
    spy.mockRestore();
  }
}

describe('net_body_splice', () => {
  it('moves a large body in few round trips, whole and in order', async () => {
    const size = 48 * MiB;
    const { stdout, calls } = await splices(`curl -s "$U/big?n=${size}" | cksum`);
    const expected = await new Promise<string>((resolve, reject) => {
      // The same bytes, summed by the host's cksum.
      void import('node:child_process').then(({ execFile }) => {
        const child = execFile('sh', ['-c', `curl -s "${origin}/big?n=${size}" | cksum`], (e, o) =>
          e ? reject(e) : resolve(o),
        );
        child.stdin?.end();
      });
    });
    expect(stdout).toBe(expected);
    // One call per socket read (~64 KiB) would be ~770; the kernel moves
    // what arrives within 10 ms (or up to 16 MiB) per call.
    expect(calls).toBeGreaterThan(0);
    expect(calls).toBeLessThan(200);
  }, 60_000);

  it('still writes each piece of a slow body as it arrives', async () => {
    // The server sends line 2 only after the reader has seen line 1 (and
    // asked for more): a splice that held the bytes back until more came
    // would wait forever. It holds back only its answer to curl.
    const { stdout } = await splices(
      'curl -s "$U/held" | { IFS= read -r first; echo "$first"; curl -s "$U/ack"; cat; }',
    );
    expect(stdout).toBe('line 1\nok\nline 2\n');
  }, 30_000);
});
