import { describe, expect, it } from 'vitest';
import { checkLine, stdioGuard } from './stdioGuard.js';

async function through(input: string[], max = 1000): Promise<{ out: string; replies: string[] }> {
  const replies: string[] = [];
  const guard = stdioGuard((line) => replies.push(line), max);
  let out = '';
  guard.on('data', (d: Buffer) => (out += d.toString()));
  const done = new Promise((r) => guard.on('end', r));
  for (const chunk of input) guard.write(Buffer.from(chunk));
  guard.end();
  await done;
  return { out, replies };
}

const req = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

describe('checkLine', () => {
  it('passes requests, notifications and replies', () => {
    expect(checkLine(req)).toEqual({ pass: true });
    expect(checkLine('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toEqual({
      pass: true,
    });
    expect(checkLine('{"jsonrpc":"2.0","id":3,"result":{}}')).toEqual({ pass: true });
  });
  it('answers what is not JSON-RPC with the spec’s codes', () => {
    const reply = (line: string) => {
      const v = checkLine(line);
      return v.pass ? undefined : (JSON.parse(v.reply) as { id: unknown; error: { code: number } });
    };
    expect(reply('{oops')).toMatchObject({ id: null, error: { code: -32700 } });
    expect(reply('[1,2]')).toMatchObject({ id: null, error: { code: -32600 } });
    expect(reply('"text"')).toMatchObject({ error: { code: -32600 } });
    expect(reply('{"jsonrpc":"1.0","id":7,"method":"x"}')).toMatchObject({
      id: 7,
      error: { code: -32600 },
    });
    expect(reply('{"jsonrpc":"2.0","id":"a"}')).toMatchObject({ id: 'a', error: { code: -32600 } });
  });
});

describe('stdioGuard', () => {
  it('passes good lines through whole, split across chunks and characters', async () => {
    const bytes = Buffer.from(`${req}\n{"jsonrpc":"2.0","method":"é"}\n`);
    const chunks = [
      bytes.subarray(0, 5),
      bytes.subarray(5, 41),
      bytes.subarray(41, 70),
      bytes.subarray(70),
    ];
    const guard = stdioGuard(() => undefined, 1000);
    let got = '';
    guard.on('data', (d: Buffer) => (got += d.toString()));
    const ended = new Promise((r) => guard.on('end', r));
    for (const c of chunks) guard.write(c);
    guard.end();
    await ended;
    expect(got).toBe(bytes.toString());
  });
  it('answers bad lines and keeps going', async () => {
    const { out, replies } = await through([`nope\n${req}\n\n[]\n`]);
    expect(out).toBe(`${req}\n`);
    expect(replies.map((r) => (JSON.parse(r) as { error: { code: number } }).error.code)).toEqual([
      -32700, -32600,
    ]);
  });
  it('refuses an overlong line once and skips to its end', async () => {
    const { out, replies } = await through([
      '{"x":"' + 'a'.repeat(600),
      'a'.repeat(600),
      '"}\n',
      `${req}\n`,
    ]);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatch(/longer than 1000/);
    expect(out).toBe(`${req}\n`);
  });
});
