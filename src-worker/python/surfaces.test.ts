/**
 * python3 from every front end the issue names, not only the workbench
 * terminal (repl.test.ts): `sandglass run` as a person or a script starts it
 * (a child process of the real CLI), the MCP `run` tool an agent calls (over
 * stdio, with the official client) and the TypeScript SDK (in process and
 * over `sandglass rpc`). Each runs the same script: a file with arguments,
 * -c, a here-doc, pipes both ways, an exit status, a missing module; then a
 * runaway python3 stopped by the time limit, after which Python still runs.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { Sandbox as SdkSandbox, type ConnectOptions } from '../../sdk/typescript/index.js';
import { pythonAvailable } from '../programs/python.js';

const root = resolve(import.meta.dirname, '..', '..');
const bin = join(root, 'bin', 'sandglass.mjs');
const LONG = 600_000;

const SCRIPT = [
  'cd /tmp',
  'printf \'import os, sys\\nprint(sys.argv[1:], os.getcwd(), sys.executable, os.environ.get("WHO"))\\n\' > args.py',
  'WHO=agent python3 args.py a \'b c\'; echo "s $?"',
  'python3 -c "import sys; sys.exit(3)"; echo "s $?"',
  'printf "x\\ny\\n" | python3 -c "import sys; print(sorted(sys.stdin.read().split(), reverse=True))" | tr a-z A-Z',
  "python3 - <<'EOF'",
  'print("heredoc", __name__)',
  'EOF',
  'python3 -c "import nosuchmodule" 2>&1 | tail -1',
].join('\n');

const EXPECTED = [
  "['a', 'b c'] /tmp /usr/bin/python3 agent",
  's 0',
  's 3',
  "['Y', 'X']",
  'heredoc __main__',
  "ModuleNotFoundError: No module named 'nosuchmodule'",
  '',
].join('\n');

const RUNAWAY = 'python3 -c "while True: pass"';
const AFTER = 'python3 -c "print(6 * 7)"';

describe.skipIf(!pythonAvailable())('python3 from the CLI, MCP and the SDK', () => {
  it(
    'sandglass run',
    () => {
      const run = (args: string[], input = '') =>
        spawnSync(process.execPath, [bin, 'run', ...args], {
          cwd: root,
          input,
          encoding: 'utf8',
          timeout: 300_000,
        });
      const r = run(['-c', SCRIPT]);
      // (a checkout whose out/cli is older than the sources says so, and runs from them)
      expect(r.stderr.replace(/^sandglass: out\/cli is stale;.*\n/, '')).toBe('');
      expect(r.stdout).toBe(EXPECTED);
      expect(r.status).toBe(0);
      // The host's stdin reaches python3 in the sandbox; its status is the run's.
      const piped = run(
        ['-c', 'python3 -c "import sys; print(sys.stdin.read().upper()); sys.exit(4)"'],
        'from the host\n',
      );
      expect([piped.stdout, piped.status]).toEqual(['FROM THE HOST\n\n', 4]);
      const slow = run(['--timeout', '3000', '-c', RUNAWAY]);
      expect(slow.status).toBe(124);
      expect(slow.stderr).toMatch(/time limit of 3000 ms exceeded/);
    },
    LONG,
  );

  it(
    'the MCP run tool',
    async () => {
      const client = new Client({ name: 'py-surfaces', version: '1' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [bin, 'mcp'],
          cwd: root,
          env: {
            ...process.env,
            SANDGLASS_EXPORT_DIR: mkdtempSync(join(tmpdir(), 'sg-py-mcp-')),
          } as Record<string, string>,
        }),
      );
      try {
        const made = await client.callTool({ name: 'create_sandbox', arguments: {} });
        const id = (made.structuredContent as { sandbox_id: string }).sandbox_id;
        const call = async (command: string, extra: Record<string, unknown> = {}) => {
          const r = await client.callTool({
            name: 'run',
            arguments: { sandbox_id: id, command, ...extra },
          });
          // stdout is the first text block when there is any (the last is the structured result).
          const blocks = (r.content as { text: string }[]).map((b) => b.text);
          const { exit_code } = r.structuredContent as { exit_code: number };
          return { stdout: blocks.length > 1 ? blocks[0] : '', exit_code };
        };
        expect(await call(SCRIPT)).toMatchObject({ stdout: EXPECTED, exit_code: 0 });
        expect(
          await call('python3 -c "import sys; print(len(sys.stdin.read()))"', { stdin: 'abc' }),
        ).toMatchObject({ stdout: '3\n', exit_code: 0 });
        expect(await call(RUNAWAY, { timeout_ms: 3000 })).toMatchObject({ exit_code: 124 });
        expect(await call(AFTER)).toMatchObject({ stdout: '42\n', exit_code: 0 });
      } finally {
        await client.close();
      }
    },
    LONG,
  );

  for (const [name, connect] of [
    ['the TypeScript SDK in process', {}],
    ['the TypeScript SDK over sandglass rpc', { mode: 'spawn' }],
  ] as [string, ConnectOptions][]) {
    it(
      name,
      async () => {
        await using sb = await SdkSandbox.create({ connect });
        expect(await sb.run(SCRIPT)).toMatchObject({ stdout: EXPECTED, status: 0 });
        await sb.writeFile('/tmp/made.py', 'open("/tmp/out.txt", "w").write("from python\\n")\n');
        expect((await sb.run('python3 /tmp/made.py')).status).toBe(0);
        expect(await sb.readTextFile('/tmp/out.txt')).toBe('from python\n');
        expect(await sb.run(RUNAWAY, { timeoutMs: 3000 })).toMatchObject({ status: 124 });
        expect(await sb.run(AFTER)).toMatchObject({ stdout: '42\n', status: 0 });
      },
      LONG,
    );
  }
});
