#!/usr/bin/env node
// Checks Sandglass's MCP server over Streamable HTTP with the official tools:
// - the conformance suite (@modelcontextprotocol/conformance): the scenarios
//   that need no test fixture (a product server has none of the suite's
//   `test_*` tools), for 2025-11-25 (stable 0.1.16) and 2026-07-28 (0.2.0
//   alpha). It needs Node >= 22: npm exec fetches node@22 from the npm
//   registry the first time, then runs from npm's cache;
// - the MCP Inspector CLI (@modelcontextprotocol/inspector): lists the tools
//   and calls every one of them, in an order where each has what it needs.
//
// The suite cannot send a bearer token, so a small proxy in front of the
// server adds ours to requests that carry none; it forwards Host and Origin
// untouched, so the DNS-rebinding scenario still meets the server's checks.
//
// stdio: the suite speaks HTTP only, so the scenarios that are not about
// HTTP itself run again against the real `sandglass mcp` process through a
// bridge: each POSTed JSON-RPC message goes to the child's stdin (under an id
// of the bridge's own, so ids from different test clients never collide) and
// the child's reply comes back as the HTTP response. The bridge adds nothing
// else: every answer is the stdio server's own.
//
//   node scripts/mcp-conformance.mjs [--only conformance|stdio|inspector] [--verbose]
import { spawn } from 'node:child_process';
import { createServer, request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// `http`: scenarios about the HTTP transport itself, which stdio has no part in.
const SUITES = [
  {
    pkg: '@modelcontextprotocol/conformance@0.1.16',
    version: '2025-11-25',
    scenarios: ['server-initialize', 'ping', 'tools-list'],
    http: ['dns-rebinding-protection', 'server-sse-multiple-streams'],
  },
  {
    // The alpha's 2025-era session checks (initialize, DELETE, 404 after it),
    // and the fixture-free checks of logging and resource subscriptions.
    pkg: '@modelcontextprotocol/conformance@0.2.0-alpha.12',
    version: '2025-11-25',
    scenarios: ['logging-set-level', 'resources-subscribe', 'resources-unsubscribe'],
    http: ['server-session-lifecycle'],
  },
  {
    pkg: '@modelcontextprotocol/conformance@0.2.0-alpha.12',
    version: '2026-07-28',
    scenarios: ['tools-list', 'sep-2164-resource-not-found'],
    http: ['dns-rebinding-protection', 'http-header-validation', 'server-stateless'],
  },
];

// Checks that call the suite's diagnostic tools (test_missing_capability,
// test_streaming_elicitation, test_logging_tool): a product server has none,
// so the suite reports them failed as untestable. Every other check of a
// scenario must pass.
const FIXTURE_CHECKS = new Set([
  'sep-2575-server-rejects-undeclared-capability',
  'sep-2575-missing-capability-http-400',
  'sep-2575-http-server-no-independent-requests-on-stream',
  'sep-2575-server-no-log-without-loglevel',
]);

const verbose = process.argv.includes('--verbose');
const only = process.argv.includes('--only')
  ? process.argv[process.argv.indexOf('--only') + 1]
  : '';
const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';
// timeline_export writes here, not into the user's ~/.sandglass.
process.env.SANDGLASS_EXPORT_DIR ??= mkdtempSync(join(tmpdir(), 'sg-mcp-exports-'));
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

/**
 * An HTTP front for `sandglass mcp` on stdio, for the suite: POST bodies go
 * to the child's stdin, its replies come back as JSON responses.
 */
async function stdioBridge() {
  const bin = new URL('../bin/sandglass.mjs', import.meta.url).pathname;
  const child = spawn(process.execPath, [bin, 'mcp'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const pending = new Map();
  let nextId = 1;
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      let msg;
      try {
        msg = JSON.parse(line);
      } catch {
        continue;
      }
      const wait = msg && pending.get(msg.id);
      // Notifications (progress, logs) have no HTTP request to answer.
      if (!wait) continue;
      pending.delete(msg.id);
      wait({ ...msg, id: wait.id });
    }
  });
  const send = (msg) =>
    new Promise((resolve) => {
      if (msg.id === undefined || msg.method === undefined) {
        child.stdin.write(JSON.stringify(msg) + '\n');
        return resolve(undefined);
      }
      const id = nextId++;
      const wait = (reply) => resolve(reply);
      wait.id = msg.id;
      pending.set(id, wait);
      child.stdin.write(JSON.stringify({ ...msg, id }) + '\n');
    });
  const bridge = createServer((req, res) => {
    if (req.method !== 'POST') return res.writeHead(405, { allow: 'POST' }).end();
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (body += d));
    req.on('end', async () => {
      let parsed;
      try {
        parsed = JSON.parse(body);
      } catch {
        // Malformed JSON goes through as a line, so the answer is the server's own.
        child.stdin.write(body.replace(/\n/g, ' ') + '\n');
        return res.writeHead(400).end();
      }
      const batch = Array.isArray(parsed);
      const replies = (await Promise.all((batch ? parsed : [parsed]).map(send))).filter(Boolean);
      if (replies.length === 0) return res.writeHead(202).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(batch ? replies : replies[0]));
    });
  });
  await new Promise((ok) => bridge.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${bridge.address().port}/mcp`,
    close: () => {
      bridge.close();
      child.stdin.end();
    },
  };
}

/** Runs a command, collecting its output. */
function exec(cmd, args, env = process.env) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.stderr.on('data', (d) => (text += d));
    child.on('exit', (code) => resolve({ code, text: text.replace(/^npm warn.*\n/gm, '') }));
  });
}

function conformance(pkg, scenario, version, target = url) {
  const out = mkdtempSync(join(tmpdir(), 'sg-conformance-'));
  const args = ['exec', '--yes', '--package=node@22', `--package=${pkg}`, '--', 'conformance'];
  args.push(
    'server',
    '--url',
    target,
    '--scenario',
    scenario,
    '--spec-version',
    version,
    '-o',
    out,
  );
  return exec('npm', args);
}

/** One Inspector CLI call over HTTP; resolves with its JSON output. `extra`: more CLI arguments. */
async function inspect(method, tool, args = {}, extra = []) {
  const argv = ['exec', '--yes', `--package=${INSPECTOR}`, '--', 'mcp-inspector', '--cli', url];
  argv.push('--transport', 'http', '--header', `Authorization: Bearer ${token}`);
  argv.push('--method', method, '--format', 'json', ...extra);
  if (tool) argv.push('--tool-name', tool);
  const pairs = Object.entries(args).map(([k, v]) => `${k}=${v}`);
  if (pairs.length) argv.push('--tool-arg', ...pairs);
  const { code, text } = await exec('npm', argv, {
    ...process.env,
    MCP_INSPECTOR_SECRET_STORE: 'memory',
  });
  const json = text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
  let parsed;
  try {
    parsed = JSON.parse(json);
  } catch {
    parsed = undefined;
  }
  return { code, text, result: parsed?.result ?? parsed };
}

let failed = 0;
let passed = 0;
const t0 = Date.now();
const report = (ok, what, detail, text) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}: ${detail}`);
  if (verbose || !ok) console.log(text);
  if (ok) passed++;
  else failed++;
};

/** `target`: the URL, or a function making a fresh one per scenario. */
async function suite(transport, target, withHttp) {
  for (const { pkg, version, scenarios, http } of SUITES) {
    for (const scenario of withHttp ? [...scenarios, ...http] : scenarios) {
      const fresh = typeof target === 'function' ? await target() : undefined;
      const { code, text } = await conformance(pkg, scenario, version, fresh?.url ?? target);
      fresh?.close();
      const summary = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(text);
      const line = summary ? summary[0] : text.trim().split('\n').slice(-3).join(' | ');
      // eslint-disable-next-line no-control-regex
      const plain = text.replace(/\x1b\[[0-9;]*m/g, '');
      const failedIds = [...plain.matchAll(/\[([a-z0-9-]+)\s*\]\s+FAILURE/g)].map((m) => m[1]);
      const onlyFixtures =
        summary !== null && failedIds.length > 0 && failedIds.every((id) => FIXTURE_CHECKS.has(id));
      const note = onlyFixtures
        ? ` (the ${failedIds.length} failed need the suite's fixture tools)`
        : '';
      report(
        code === 0 || onlyFixtures,
        `conformance ${transport} ${version} ${scenario}`,
        line + note,
        text,
      );
    }
  }
}

if (only === '' || only === 'conformance') await suite('http', url, true);
if (only === '' || only === 'conformance' || only === 'stdio') {
  // A process per scenario, as a client gets: a stdio connection keeps the era it began in.
  await suite('stdio', stdioBridge, false);
}

if (only === '' || only === 'inspector') {
  const listed = await inspect('tools/list');
  const names = (listed.result?.tools ?? []).map((t) => t.name);
  report(
    listed.code === 0 && names.length >= 13,
    'inspector tools/list',
    names.join(' '),
    listed.text,
  );
  const called = new Set();
  const call = async (tool, args) => {
    const r = await inspect('tools/call', tool, args);
    called.add(tool);
    report(
      r.code === 0 && !r.result?.isError,
      `inspector tools/call ${tool}`,
      String(JSON.stringify(r.result?.structuredContent ?? r.result ?? r.text.trim())).slice(
        0,
        100,
      ),
      r.text,
    );
    return r.result?.structuredContent ?? {};
  };
  const { sandbox_id: id } = await call('create_sandbox', { name: 'inspector' });
  await call('list_sandboxes');
  await call('write_file', { sandbox_id: id, path: 'notes.txt', content: 'one' });
  await call('edit_file', { sandbox_id: id, path: 'notes.txt', old_text: 'one', new_text: 'two' });
  await call('read_file', { sandbox_id: id, path: 'notes.txt' });
  await call('list_dir', { sandbox_id: id });
  const { snapshot_id: snap } = await call('snapshot', { sandbox_id: id });
  await call('run', { sandbox_id: id, command: 'echo three > notes.txt' });
  await call('diff', { sandbox_id: id, from: snap });
  const { sandbox_id: forked } = await call('fork', { sandbox_id: id, snapshot_id: snap });
  await call('restore', { sandbox_id: id, snapshot_id: snap });
  await call('timeline_export', { sandbox_id: id });
  await call('destroy_sandbox', { sandbox_id: forked ?? id });
  // The written file as a resource: listed, read, and the template offered.
  const uri = `sandbox://${id}/home/user/notes.txt`;
  const listedResources = await inspect('resources/list');
  const uris = (listedResources.result?.resources ?? []).map((r) => r.uri);
  report(uris.includes(uri), 'inspector resources/list', uris.join(' '), listedResources.text);
  const read = await inspect('resources/read', undefined, {}, ['--uri', uri]);
  report(
    read.result?.contents?.[0]?.text === 'two',
    'inspector resources/read',
    JSON.stringify(read.result?.contents ?? read.text.trim()).slice(0, 100),
    read.text,
  );
  const templates = await inspect('resources/templates/list');
  report(
    templates.result?.resourceTemplates?.[0]?.uriTemplate === 'sandbox://{sandbox_id}/{+path}',
    'inspector resources/templates/list',
    JSON.stringify(templates.result?.resourceTemplates ?? templates.text.trim()).slice(0, 100),
    templates.text,
  );
  const missed = names.filter((n) => !called.has(n));
  report(
    missed.length === 0,
    'inspector called every tool',
    missed.length ? `not called: ${missed.join(' ')}` : `${called.size} tools`,
    '',
  );
}

console.log(
  `mcp-conformance: ${passed} checks passed, ${failed} failed (${Math.round((Date.now() - t0) / 1000)} s)`,
);
proxy.close();
await server.close();
await engine.dispose();
process.exit(failed === 0 ? 0 : 1);
