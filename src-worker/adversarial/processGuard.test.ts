/**
 * The engine as a separate process, as the CLI and the web server run it
 * (`sandglass rpc`): a batch of abusive messages and sandboxed programs is
 * thrown at it; it must answer each, never print an uncaught exception or
 * an unhandled rejection, still answer `hello` at the end, and exit 0 when
 * its input closes.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { defaultProgramsDir } from '../sandbox/sandbox.js';

const root = resolve(import.meta.dirname, '../..');
const built = existsSync(join(defaultProgramsDir(), 'shell.wasm'));

/** Messages written one per line; `$SB` becomes the sandbox id the first reply names. */
const ABUSE: string[] = [
  'not json at all',
  '{"jsonrpc":"2.0","id":',
  `{"jsonrpc":"2.0","id":2,"method":"hello","params":{"x":"${'a'.repeat(200_000)}"}}`,
  `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
  '{"jsonrpc":"2.0","id":3,"method":"__proto__","params":{}}',
  '{"jsonrpc":"2.0","id":4,"method":"constructor","params":{}}',
  '{"jsonrpc":"2.0","id":5,"method":"stats","params":{"sandboxId":{"toString":1}}}',
  '{"jsonrpc":"2.0","id":6,"method":"stats","params":[1,2,3]}',
  '[]',
  '[{"jsonrpc":"2.0","id":7,"method":"nope"},{"jsonrpc":"2.0","id":8}]',
  '{"jsonrpc":"2.0","id":9,"method":"loadTimeline","params":{"name":"x","base64":"UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA=="}}',
  '{"jsonrpc":"2.0","id":10,"method":"run","params":{"sandboxId":"$SB","command":"b() { b | b & }; b","timeoutMs":1500}}',
  '{"jsonrpc":"2.0","id":11,"method":"run","params":{"sandboxId":"$SB","command":"printf \'\\\\033]133;B\\\\007\\\\033[2000000000Cx\\\\033]133;C\\\\007\'"}}',
  '{"jsonrpc":"2.0","id":12,"method":"run","params":{"sandboxId":"$SB","command":"head -c 3000000 /dev/zero"}}',
  '{"jsonrpc":"2.0","id":13,"method":"run","params":{"sandboxId":"$SB","command":"awk \'BEGIN { s = \\"x\\"; while (1) s = s s }\'"}}',
  '{"jsonrpc":"2.0","id":14,"method":"listSteps","params":{"sandboxId":"$SB","limit":1000000000}}',
  '{"jsonrpc":"2.0","id":15,"method":"openTerminal","params":{"sandboxId":"$SB","cols":1e308,"rows":-1}}',
  '{"jsonrpc":"2.0","id":16,"method":"destroySandbox","params":{"sandboxId":"sb-nope"}}',
  '{"jsonrpc":"2.0","id":17,"method":"writeFile","params":{"sandboxId":"$SB","path":"/tmp/x","base64":"%%%"}}',
  '{"jsonrpc":"2.0","id":18,"method":"run","params":{"sandboxId":"$SB","command":"exit 300"}}',
];

const CRASH = /uncaught|unhandled|UnhandledPromiseRejection|FATAL ERROR|RangeError|TypeError/i;

describe.skipIf(!built)('engine process under abuse', () => {
  it(
    'answers every abusive message, prints no uncaught error, and still answers',
    { timeout: 180_000 },
    async () => {
      const child = spawn(process.execPath, [join(root, 'bin', 'sandglass.mjs'), 'rpc'], {
        cwd: root,
        env: { ...process.env, NODE_OPTIONS: '' },
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const replies = new Map<unknown, Record<string, unknown>>();
      const waiters = new Map<unknown, (r: Record<string, unknown>) => void>();
      createInterface({ input: child.stdout }).on('line', (line) => {
        // A batch is answered by an array of replies.
        const parsed = JSON.parse(line) as Record<string, unknown> | Record<string, unknown>[];
        for (const msg of Array.isArray(parsed) ? parsed : [parsed]) {
          if (!('id' in msg)) continue; // events
          replies.set(msg.id, msg);
          waiters.get(msg.id)?.(msg);
        }
      });
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      const send = (line: string) => child.stdin.write(`${line}\n`);
      const reply = (id: number, ms = 60_000) =>
        new Promise<Record<string, unknown>>((resolveReply, reject) => {
          const seen = replies.get(id);
          if (seen) return resolveReply(seen);
          const timer = setTimeout(() => reject(new Error(`no reply to ${id}: ${stderr}`)), ms);
          waiters.set(id, (r) => {
            clearTimeout(timer);
            resolveReply(r);
          });
        });

      send('{"jsonrpc":"2.0","id":1,"method":"createSandbox","params":{"name":"guard"}}');
      const created = await reply(1, 120_000);
      const sandboxId = (created.result as { id: string }).id;
      for (const line of ABUSE) send(line.replaceAll('$SB', sandboxId));
      for (let id = 2; id <= 18; id++) {
        const r = await reply(id);
        expect(r.jsonrpc).toBe('2.0');
      }
      send('{"jsonrpc":"2.0","id":99,"method":"hello","params":{"apiVersion":1}}');
      expect(await reply(99)).toMatchObject({ result: { apiVersion: 1 } });
      child.stdin.end();
      expect(await exited).toBe(0);
      const diagnostics = stderr
        .split('\n')
        .filter((l) => l !== '' && !l.includes('running from sources'));
      expect(diagnostics.filter((l) => CRASH.test(l))).toEqual([]);
    },
  );
});
