import { describe, expect, it } from 'vitest';
import { checkLine, StdioBatches, stdioGuard } from './stdioGuard.js';
import { initializeRequest } from './testing/messages.js';

/** Lines written to the batches' output (stdout), as they arrive. */
function collect(batches: StdioBatches): string[] {
  const lines: string[] = [];
  batches.output.on('data', (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean)));
  return lines;
}

async function through(input: string[], max = 1000): Promise<{ out: string; replies: string[] }> {
  const batches = new StdioBatches();
  const replies = collect(batches);
  const guard = stdioGuard(batches, max);
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
    // MCP: a request's id is never null; params is structured.
    expect(reply('{"jsonrpc":"2.0","id":null,"method":"ping"}')).toMatchObject({
      error: { code: -32600 },
    });
    expect(reply('{"jsonrpc":"2.0","id":1,"method":"ping","params":3}')).toMatchObject({
      id: 1,
      error: { code: -32600 },
    });
    // MCP names its params: positional ones are invalid params (a notification gets no reply).
    expect(reply('{"jsonrpc":"2.0","id":2,"method":"tools/list","params":[]}')).toMatchObject({
      id: 2,
      error: { code: -32602 },
    });
    expect(checkLine('{"jsonrpc":"2.0","method":"notifications/x","params":[1]}')).toEqual({
      pass: false,
      reply: '',
    });
    // What the SDK's schema refuses is answered here (the SDK would drop it).
    for (const [line, why] of [
      ['{"jsonrpc":"2.0","id":2,"method":"ping","params":{"_meta":5}}', /params\._meta/],
      ['{"jsonrpc":"2.0","id":3.5,"method":"ping"}', /integer/],
      ['{"jsonrpc":"2.0","id":4,"method":"ping","extra":1}', /"extra"/],
    ] as const) {
      const r = reply(line) as { id: unknown; error: { code: number; message: string } };
      expect(r.error.code, line).toBe(-32600);
      expect(r.error.message, line).toMatch(why);
      expect(r.id, line).toBe(JSON.parse(line).id);
    }
    expect(checkLine('{"jsonrpc":"2.0","method":"notifications/x","extra":1}')).toEqual({
      pass: false,
      reply: '',
    });
    // initialize's params are checked here (the SDK would answer -32603).
    for (const params of [
      {},
      { protocolVersion: '2025-11-25', capabilities: {} },
      { protocolVersion: 1, capabilities: {}, clientInfo: { name: 'a', version: '1' } },
    ])
      expect(
        reply(JSON.stringify({ jsonrpc: '2.0', id: 'i', method: 'initialize', params })),
      ).toMatchObject({ id: 'i', error: { code: -32602 } });
    expect(checkLine(JSON.stringify(initializeRequest({ protocolVersion: '2099-01-01' })))).toEqual(
      { pass: true },
    );
    // Params the spec's schema of a known method refuses: -32602, not the SDK's -32603.
    for (const [method, params] of [
      ['tools/list', { cursor: 5 }],
      ['resources/list', { cursor: null }],
      ['resources/read', {}],
      ['logging/setLevel', { level: 'loud' }],
      ['tools/call', { name: 7 }],
    ] as const)
      expect(reply(JSON.stringify({ jsonrpc: '2.0', id: 9, method, params }))).toMatchObject({
        id: 9,
        error: { code: -32602, message: expect.stringMatching(/^Invalid params: /) },
      });
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
    const guard = stdioGuard(new StdioBatches(), 1000);
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

describe('batches', () => {
  const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
  /** A guard whose session negotiated `version`; returns what reaches the server and stdout. */
  function session(version: string) {
    const batches = new StdioBatches();
    const stdout = collect(batches);
    const guard = stdioGuard(batches, 1000);
    const toServer: string[] = [];
    guard.on('data', (d: Buffer) => toServer.push(...d.toString().split('\n').filter(Boolean)));
    const send = (m: unknown) => guard.write(`${JSON.stringify(m)}\n`);
    send(initializeRequest({ protocolVersion: version }, 'init'));
    // The server's reply names the version it chose.
    batches.output.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 'init', result: { protocolVersion: version } })}\n`,
    );
    const settle = () => new Promise((r) => setImmediate(r));
    return { batches, stdout, toServer, send, settle };
  }

  it('splits a batch of a 2025-03-26 session and answers it with one array', async () => {
    const s = session('2025-03-26');
    s.send([ping(1), { jsonrpc: '2.0', method: 'notifications/x' }, { bad: true }, ping(2)]);
    await s.settle();
    expect(s.toServer.map((l) => JSON.parse(l) as unknown)).toEqual([
      expect.objectContaining({ method: 'initialize' }),
      ping(1),
      { jsonrpc: '2.0', method: 'notifications/x' },
      ping(2),
    ]);
    // Replies in any order; the array goes out when the last one is in.
    s.batches.output.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, result: {} })}\n`);
    s.batches.output.write(
      `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress' })}\n`,
    );
    await s.settle();
    expect(s.stdout.slice(1)).toEqual([
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress' }),
    ]);
    s.batches.output.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} })}\n`);
    await s.settle();
    const reply = JSON.parse(s.stdout[2] ?? 'null') as { id: unknown; error?: { code: number } }[];
    expect(reply).toHaveLength(3);
    expect(reply[0]).toMatchObject({ id: null, error: { code: -32600 } });
    expect(reply.slice(1).map((r) => r.id)).toEqual([2, 1]);
  });

  it('refuses a second initialize (-32600), and lets a failed first one be retried', async () => {
    const s = session('2025-11-25');
    s.send(initializeRequest({}, 'again'));
    await s.settle();
    expect(s.toServer).toHaveLength(1);
    expect(JSON.parse(s.stdout[1] ?? '')).toEqual({
      jsonrpc: '2.0',
      id: 'again',
      error: { code: -32600, message: 'Invalid Request: Server already initialized' },
    });
    const batches = new StdioBatches();
    const stdout = collect(batches);
    const guard = stdioGuard(batches, 1000);
    const toServer: string[] = [];
    guard.on('data', (d: Buffer) => toServer.push(d.toString()));
    guard.write(`${JSON.stringify(initializeRequest({}, 1))}\n`);
    batches.output.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -1, message: 'no' } })}\n`,
    );
    guard.write(`${JSON.stringify(initializeRequest({}, 2))}\n`);
    await s.settle();
    expect(toServer).toHaveLength(2);
    expect(stdout).toHaveLength(1);
  });

  it('refuses batches in later versions, before initialize, and empty ones', async () => {
    for (const version of ['2025-06-18', '2025-11-25']) {
      const s = session(version);
      s.send([ping(1), ping(2)]);
      await s.settle();
      expect(s.toServer).toHaveLength(1);
      expect(JSON.parse(s.stdout[1] ?? '')).toMatchObject({ id: null, error: { code: -32600 } });
      expect(s.stdout[1]).toMatch(new RegExp(`${version} has no JSON-RPC batches`));
    }
    const { replies } = await through([`${JSON.stringify([ping(1)])}\n`]);
    expect(replies[0]).toMatch(/initialize first/);
    const old = session('2025-03-26');
    old.send([]);
    await old.settle();
    expect(old.stdout[1]).toMatch(/-32600.*empty batch/);
  });
});
