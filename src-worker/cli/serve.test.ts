import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from './options.js';
import { parseServeArgs } from './serve.js';

const root = resolve(import.meta.dirname, '..', '..');

describe('sandglass serve', () => {
  it('parses --port and refuses anything else', () => {
    expect(parseServeArgs([])).toEqual({ port: undefined });
    expect(parseServeArgs(['--port', '8123'])).toEqual({ port: 8123 });
    expect(parseServeArgs(['--port=0'])).toEqual({ port: 0 });
    expect(() => parseServeArgs(['--port', 'x'])).toThrow(UsageError);
    expect(() => parseServeArgs(['--port', '70000'])).toThrow(/expected a port number/);
    expect(() => parseServeArgs(['extra'])).toThrow(/unexpected argument extra/);
  });

  it.skipIf(!existsSync(join(root, 'out', 'renderer', 'index.html')))(
    'serves the workbench page behind its token',
    async () => {
      const child = spawn(process.execPath, [join(root, 'bin', 'sandglass.mjs'), 'serve'], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
        // The MCP bearer token goes to a scratch file, not the user's ~/.sandglass.
        env: {
          ...process.env,
          SANDGLASS_MCP_TOKEN_FILE: join(tmpdir(), `sg-mcp-token-${process.pid}`),
        },
      });
      try {
        const url = await new Promise<string>((ok, fail) => {
          let out = '';
          child.stdout.on('data', (d: Buffer) => {
            out += d.toString();
            const m = /Sandglass web workbench: (\S+)/.exec(out);
            if (m) ok(m[1] as string);
          });
          child.on('exit', (code) => fail(new Error(`exited ${code}: ${out}`)));
        });
        const page = await fetch(url);
        expect(page.status).toBe(200);
        expect(await page.text()).toMatch(/<html/i);
        const noToken = await fetch(new URL('/', url));
        expect(noToken.status).toBe(401);
      } finally {
        child.kill('SIGTERM');
      }
    },
  );
});
