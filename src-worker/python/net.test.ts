/**
 * Python's HTTP through the sandbox's gateway: the scripts in nettest/ run
 * with the host's python3 (direct to a loopback server) and as a sandbox
 * process (through the gateway, policy `127.0.0.1:PORT`), outputs compared;
 * then what only the sandbox does: SSRF spellings and redirects into the
 * machine denied with the policy's reason, approvals (onRequest) deciding,
 * the audit, and raw sockets refused.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Sys } from '../base/syscalls.js';
import { Kernel } from '../kernel/kernel.js';
import { Sandbox } from '../sandbox/sandbox.js';
import { pythonAvailable } from '../programs/python.js';
import type { AuditRecord } from '../net/audit.js';
import type { NetRequestInfo } from '../net/policy.js';
import {
  startLoopbackServer,
  startLoopbackTlsServer,
  type LoopbackServer,
} from '../net/testing/loopbackServer.js';
import { tableResolver } from '../net/testing/tables.js';
import { hasOpenssl, makeTestCert } from '../net/testing/tlsCert.js';

const run = promisify(execFile);
const dir = join(fileURLToPath(new URL('.', import.meta.url)), 'nettest');
const scripts = readdirSync(dir).filter((f) => f.endsWith('.py'));
const LONG = 600_000;
const opts = { timeoutMs: 300_000 };

async function hostPython(file: string, env: Record<string, string>): Promise<string> {
  const r = await run('python3', [join(dir, file)], {
    env: { ...process.env, ...env },
    maxBuffer: 1 << 24,
  });
  return r.stdout;
}

async function hostHasRequests(): Promise<boolean> {
  try {
    await run('python3', ['-c', 'import requests']);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!pythonAvailable())('Python HTTP through the gateway', () => {
  let server: LoopbackServer;
  let sb: Sandbox;
  const audit: AuditRecord[] = [];
  const asked: NetRequestInfo[] = [];
  let answer: boolean | { allow: boolean; reason?: string } = true;

  beforeAll(async () => {
    server = await startLoopbackServer();
    sb = await Sandbox.create({
      network: {
        sandboxId: 'sb-py',
        policy: {
          allowedHosts: [`127.0.0.1:${server.port}`],
          onRequest: (info) => {
            asked.push(info);
            return Promise.resolve(answer);
          },
        },
        onAudit: (r) => audit.push(r),
      },
    });
  });

  afterAll(async () => {
    await sb.destroy();
    await server.close();
  });

  const py = async (code: string, env: Record<string, string> = {}) => {
    await sb.writeFile('/tmp/t.py', code);
    const vars = Object.entries({ ORIGIN: server.origin, ...env })
      .map(([k, v]) => `${k}='${v}'`)
      .join(' ');
    return sb.run(`${vars} python3 /tmp/t.py`, opts);
  };

  describe('the same script with the host python3 and in the sandbox', () => {
    for (const file of scripts) {
      it(
        file,
        async (ctx) => {
          if (file.startsWith('requests') || file === 'errors.py') {
            if (!(await hostHasRequests())) ctx.skip();
          }
          // Port 1: the host is refused, the sandbox denied (not in the policy).
          const env = { ORIGIN: server.origin, DENIED: 'http://127.0.0.1:1/' };
          const expected = await hostPython(file, env);
          await sb.writeFile(`/tmp/${file}`, readFileSync(join(dir, file)));
          const r = await sb.run(
            `ORIGIN='${env.ORIGIN}' DENIED='${env.DENIED}' python3 /tmp/${file}`,
            opts,
          );
          expect(r.stderr).toBe('');
          expect(r.stdout).toBe(expected);
          expect(r.status).toBe(0);
        },
        LONG,
      );
    }
  });

  it(
    'denies loopback spellings, metadata and private hosts, and redirects into them',
    async () => {
      const other = server.port + 1;
      const urls = [
        `http://127.1:${other}/`,
        `http://0x7f000001:${other}/`,
        `http://2130706433:${other}/`,
        `http://0177.0.0.1:${other}/`,
        `http://[::1]:${server.port}/`,
        `http://[::ffff:127.0.0.1]:${other}/`,
        'http://169.254.169.254/latest/meta-data/',
        'http://10.0.0.1/',
        `${server.origin}/redirect?to=http://127.0.0.1:${other}/x`,
        `${server.origin}/redirect?to=http://169.254.169.254/latest/`,
        `${server.origin}/redirect?to=http://192.168.1.1/`,
      ];
      const before = server.seen.length;
      const r = await py(
        [
          'import http.client, json, socket, sys, urllib.parse, urllib.request, requests',
          `for u in ${JSON.stringify(urls)}:`,
          '    for lib in ("urllib", "requests"):',
          '        try:',
          '            (urllib.request.urlopen if lib == "urllib" else requests.get)(u)',
          '            print(lib, u, "FETCHED")',
          '        except Exception as e:',
          '            print(lib, type(e).__name__, "network policy denied" in str(e))',
          // http.client follows no redirects: the direct URLs only.
          '    if "/redirect" not in u:',
          '        p = urllib.parse.urlsplit(u)',
          '        try:',
          '            c = http.client.HTTPConnection(p.hostname, p.port or 80, timeout=5)',
          '            c.request("GET", p.path)',
          '            print("http.client", u, "FETCHED", c.getresponse().status)',
          '        except Exception as e:',
          '            print("http.client", type(e).__name__, "network policy denied" in str(e))',
          // Raw sockets at the same addresses: refused whatever the policy.
          '        try:',
          '            socket.create_connection((p.hostname, p.port or 80), timeout=5)',
          '            print("socket", u, "CONNECTED")',
          '        except Exception as e:',
          '            print("socket", type(e).__name__, "network policy denied" in str(e))',
        ].join('\n'),
      );
      expect(r.stderr).toBe('');
      const lines = r.stdout.trim().split('\n');
      const direct = urls.filter((u) => !u.includes('/redirect')).length;
      expect(lines).toHaveLength(urls.length * 2 + direct * 2);
      for (const l of lines) {
        // A raw socket to an IPv6 address fails earlier, at socket() (the
        // realm's sockets are IPv4: EAFNOSUPPORT); nothing connects.
        expect(l).toMatch(
          /^((urllib URLError|requests ConnectionError|http.client PermissionError|socket PermissionError) True|socket OSError False)$/,
        );
      }
      // Only the three redirecting hops reached the server (twice each).
      expect(server.seen.length - before).toBe(6);
    },
    LONG,
  );

  it(
    'asks onRequest for every hop: a denial is the library error with the reason, an allow the body',
    async () => {
      asked.length = 0;
      answer = { allow: false, reason: 'not during the exam' };
      const denied = await py(
        [
          'import urllib.request, urllib.error, requests',
          'try:',
          '    urllib.request.urlopen(__import__("os").environ["ORIGIN"] + "/hello")',
          'except urllib.error.URLError as e:',
          '    print("URLError", e.reason)',
          'try:',
          '    requests.get(__import__("os").environ["ORIGIN"] + "/hello")',
          'except requests.ConnectionError as e:',
          '    print("ConnectionError", "not during the exam" in str(e))',
        ].join('\n'),
      );
      expect(denied.stdout).toBe(
        `URLError [Errno 2] network policy denied 127.0.0.1:${server.port}: denied by onRequest: not during the exam\nConnectionError True\n`,
      );
      expect(asked.map((a) => [a.method, a.url, a.argv])).toEqual([
        ['GET', `${server.origin}/hello`, ['python3', '/tmp/t.py']],
        ['GET', `${server.origin}/hello`, ['python3', '/tmp/t.py']],
      ]);
      asked.length = 0;
      answer = true;
      const allowed = await py(
        'import os, requests\nprint(requests.get(os.environ["ORIGIN"] + "/redirect?to=/hello").text, end="")',
      );
      expect(allowed.stdout).toBe('hello\n');
      // The library follows the redirect: each hop is a request of its own, asked about.
      expect(asked.map((a) => a.url)).toEqual([
        `${server.origin}/redirect?to=/hello`,
        `${server.origin}/hello`,
      ]);
      const rec = audit.filter((a) => a.url === `${server.origin}/hello` && a.decision === 'allow');
      expect(rec.at(-1)).toMatchObject({ sandboxId: 'sb-py', status: 200, bytesReceived: 6 });
    },
    LONG,
  );

  it(
    'Ctrl-C (SIGINT) interrupts a request waiting for its answer',
    async () => {
      const r = await py(
        [
          'import os, subprocess, sys, time',
          "code = \"import os, urllib.request; print('asking', flush=True); urllib.request.urlopen(os.environ['ORIGIN'] + '/slow?ms=60000')\"",
          'p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE)',
          'p.stdout.readline()',
          'time.sleep(1)',
          't = time.monotonic()',
          'p.send_signal(2)',
          'err = p.communicate()[1].decode()',
          'print(p.returncode, time.monotonic() - t < 10, err.strip().splitlines()[-1:])',
        ].join('\n'),
      );
      expect(r.stderr).toBe('');
      // As CPython: an uncaught KeyboardInterrupt ends the process by SIGINT (-2 for its parent).
      expect(r.stdout).toBe("-2 True ['KeyboardInterrupt']\n");
    },
    LONG,
  );

  it(
    'a small request costs two net round trips: the request with its head and body, then the close',
    async () => {
      const spy = vi.spyOn(Kernel.prototype, 'handle');
      let r;
      let ops: number[] = [];
      try {
        r = await py(
          [
            'import os, http.client, urllib.request, requests',
            'O = os.environ["ORIGIN"]',
            'print(urllib.request.urlopen(O + "/hello").read())',
            'c = http.client.HTTPConnection(O[len("http://"):])',
            'c.request("POST", "/echo", body=b"x" * 10)',
            'print(c.getresponse().status)',
            'with requests.Session() as s:',
            '    print(s.get(O + "/hello").text, end="")',
          ].join('\n'),
        );
        ops = spy.mock.calls.map((c) => c[1]);
      } finally {
        spy.mockRestore();
      }
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe("b'hello\\n'\n200\nhello\n");
      const net = [Sys.NET_REQUEST, Sys.NET_RESPONSE, Sys.NET_BODY_READ, Sys.NET_CLOSE];
      const count = (op: number): number => ops.filter((op2) => op2 === op).length;
      // Three requests; before batching each also cost a net_response and
      // two net_body_reads (one with the bytes, one to see the end).
      expect(net.map(count)).toEqual([3, 0, 0, 3]);
    },
    LONG,
  );

  it(
    'refuses raw sockets with a PermissionError naming the policy',
    async () => {
      const r = await py(
        [
          'import socket',
          'for addr in (("127.0.0.1", 22), ("example.com", 443)):',
          '    try:',
          '        socket.create_connection(addr, timeout=1)',
          '    except OSError as e:',
          '        print(type(e).__name__, e.strerror)',
          's = socket.socket()',
          'print(s.connect_ex(("127.0.0.1", 22)) != 0)',
        ].join('\n'),
      );
      expect(r.stderr).toBe('');
      const lines = r.stdout.split('\n');
      expect(lines[0]).toMatch(
        /^PermissionError network policy denied 127\.0\.0\.1:22: raw sockets/,
      );
      expect(lines[1]).toMatch(/^\w+Error /);
      expect(lines[2]).toBe('True');
    },
    LONG,
  );

  it.skipIf(!hasOpenssl)(
    'speaks https through the gateway, which checks the certificate',
    async () => {
      const { cert, key } = makeTestCert('secure.test');
      const tls = await startLoopbackTlsServer(cert, key);
      const other = await Sandbox.create({
        network: {
          ca: cert,
          resolver: tableResolver({ 'secure.test': ['127.0.0.1'], 'wrong.test': ['127.0.0.1'] }),
          policy: { allowedHosts: [`127.0.0.1:${tls.port}`, 'secure.test', 'wrong.test'] },
        },
      });
      try {
        await other.writeFile(
          '/tmp/t.py',
          [
            'import http.client, json, urllib.request, requests',
            `base = "https://secure.test:${tls.port}"`,
            'print(urllib.request.urlopen(base + "/hello").read())',
            'r = requests.post(base + "/echo", json={"a": 1})',
            'print(r.status_code, r.json()["body"])',
            `c = http.client.HTTPSConnection("secure.test", ${tls.port})`,
            'c.request("GET", "/hello")',
            'print(c.getresponse().read())',
            'try:',
            `    requests.get("https://wrong.test:${tls.port}/hello")`,
            'except requests.ConnectionError as e:',
            '    print("ConnectionError", "wrong.test" in str(e))',
          ].join('\n'),
        );
        const r = await other.run('python3 /tmp/t.py', opts);
        expect(r.stderr).toBe('');
        expect(r.stdout).toBe("b'hello\\n'\n200 {\"a\": 1}\nb'hello\\n'\nConnectionError True\n");
      } finally {
        await other.destroy();
        await tls.close();
      }
    },
    LONG,
  );
});
