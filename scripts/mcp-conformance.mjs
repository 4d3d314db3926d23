#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance)
// against Sandglass's MCP server over Streamable HTTP: the scenarios that
// need no test fixture (a product server has none of the suite's `test_*`
// tools), for 2025-11-25 (stable 0.1.16) and 2026-07-28 (0.2.0 alpha).
// The suite needs Node >= 22; it is fetched with npm exec (node@22 from the
// npm registry) the first time, then runs from npm's cache.
//
// The suite cannot send a bearer token, so a small proxy in front of the
// server adds ours to requests that carry none; it forwards Host and Origin
// untouched, so the DNS-rebinding scenario still meets the server's checks.
// stdio: the suite speaks HTTP only.
//
//   node scripts/mcp-conformance.mjs [--verbose]
import { spawn } from 'node:child_process';
import { createServer, request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SUITES = [
  {
    pkg: '@modelcontextprotocol/conformance@0.1.16',
    version: '2025-11-25',
    scenarios: [
      'server-initialize',
      'ping',
      'tools-list',
      'dns-rebinding-protection',
      'server-sse-multiple-streams',
    ],
  },
  {
    pkg: '@modelcontextprotocol/conformance@0.2.0-alpha.12',
    version: '2026-07-28',
    scenarios: ['tools-list', 'dns-rebinding-protection', 'http-header-validation'],
  },
];

const verbose = process.argv.includes('--verbose');
const { register } = await import('tsx/esm/api');
register();
const { SandglassEngine } = await import('../src-worker/api/engine.ts');
const { startMcpHttpServer } = await import('../src-worker/mcp/httpServer.ts');

const token = 'conformance-' + Math.random().toString(36).slice(2).padEnd(32, 'x');
const engine = new SandglassEngine();
const server = await startMcpHttpServer({ engine, token, port: 0 });

const proxy = createServer((req, res) => {
  const headers = { ...req.headers };
  headers.authorization ??= `Bearer ${token}`;
  const upstream = request(
    { host: '127.0.0.1', port: server.port, method: req.method, path: req.url, headers },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    },
  );
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
});
await new Promise((ok) => proxy.listen(0, '127.0.0.1', ok));
const url = `http://127.0.0.1:${proxy.address().port}/mcp`;

function run(pkg, scenario, version) {
  const out = mkdtempSync(join(tmpdir(), 'sg-conformance-'));
  const args = ['exec', '--yes', '--package=node@22', `--package=${pkg}`, '--', 'conformance', 'server'];
  args.push('--url', url, '--scenario', scenario, '--spec-version', version, '-o', out);
  return new Promise((resolve) => {
    const child = spawn('npm', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.stderr.on('data', (d) => (text += d));
    child.on('exit', (code) => resolve({ code, text }));
  });
}

let failed = 0;
let passed = 0;
const t0 = Date.now();
for (const { pkg, version, scenarios } of SUITES) {
  for (const scenario of scenarios) {
    const { code, text } = await run(pkg, scenario, version);
    const summary = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(text);
    const line = summary ? summary[0] : text.trim().split('\n').slice(-3).join(' | ');
    console.log(`${code === 0 ? 'ok  ' : 'FAIL'} ${version} ${scenario}: ${line}`);
    if (verbose || code !== 0) console.log(text.replace(/^npm warn.*\n/gm, ''));
    if (code === 0) passed++;
    else failed++;
  }
}
console.log(`mcp-conformance: ${passed} scenarios passed, ${failed} failed (${Math.round((Date.now() - t0) / 1000)} s)`);
proxy.close();
await server.close();
await engine.dispose();
process.exit(failed === 0 ? 0 : 1);
