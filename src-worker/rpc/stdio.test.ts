import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { SandglassEngine } from '../api/engine.js';
import { serveRpcStream } from './stdio.js';

const engine = new SandglassEngine();
afterAll(() => engine.dispose());

/** Feeds `chunks` to a stream server; resolves with every line it wrote, parsed. */
async function exchange(chunks: string[], maxChars?: number): Promise<Record<string, unknown>[]> {
  const input = new PassThrough();
  let out = '';
  const done = serveRpcStream(engine, input, { write: (t: string) => (out += t) }, {}, maxChars);
  for (const c of chunks) input.write(c);
  input.end();
  await done;
  expect(out.endsWith('\n')).toBe(true);
  return out
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((m) => m.method !== 'event');
}

describe('JSON-RPC over a line stream', () => {
  it('splits messages on newlines across chunks, skips blank lines, answers before ending', async () => {
    const replies = await exchange([
      '{"jsonrpc":"2.0","id":1,"meth',
      'od":"listSandboxes"}\r\n\n{"jsonrpc":"2.0","id":2,"method":"hello","params":{"apiVersion":2}}',
    ]);
    expect(replies.map((r) => r.id).sort()).toEqual([1, 2]);
    expect(replies.every((r) => 'result' in r)).toBe(true);
  });

  it('refuses an over-long line without keeping it, then goes on', async () => {
    const replies = await exchange(
      [
        `{"jsonrpc":"2.0","id":1,"method":"hello","params":{"x":"${'a'.repeat(300)}`,
        'b'.repeat(300),
        '"}}\n',
        '{"jsonrpc":"2.0","id":2,"method":"listSandboxes"}\n',
      ],
      100,
    );
    expect(replies[0]).toMatchObject({ id: null, error: { code: -32600 } });
    expect(replies[1]).toMatchObject({ id: 2, result: [] });
    expect(replies).toHaveLength(2);
  });
});
