/**
 * The bounds of 2025-era HTTP sessions, on their own: the least recently
 * used session ends when one too many is opened, an idle one ends after
 * its time, and close() ends them all. (The protocol behaviour over a
 * real server is in httpEndpoint.test.ts.)
 */
import { McpServer, type AuthInfo } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpSessions, type HttpSessions } from './httpSessions.js';
import { initializeRequest } from './testing/messages.js';

const auth: AuthInfo = { token: 't', clientId: 'c', scopes: [] };
const headers = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};
let sessions: HttpSessions | undefined;

afterEach(async () => {
  await sessions?.close();
});

function make(options: { maxSessions?: number; idleMs?: number }): HttpSessions {
  sessions = createHttpSessions(() => new McpServer({ name: 't', version: '1' }), {
    maxBodyBytes: 1024 * 1024,
    ...options,
  });
  return sessions;
}

async function open(s: HttpSessions): Promise<string> {
  const res = await s.fetch(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers,
      body: JSON.stringify(initializeRequest()),
    }),
    auth,
  );
  await res.text();
  const id = res.headers.get('mcp-session-id');
  if (!id) throw new Error(`no session: ${res.status}`);
  return id;
}

async function ping(s: HttpSessions, id: string): Promise<number> {
  const res = await s.fetch(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
    }),
    auth,
  );
  await res.text();
  return res.status;
}

describe('http sessions', () => {
  it('ends the least recently used session when one too many opens', async () => {
    const s = make({ maxSessions: 2 });
    const a = await open(s);
    const b = await open(s);
    expect(await ping(s, a)).toBe(200); // a is now the most recently used
    const c = await open(s);
    expect(s.ids().sort()).toEqual([a, c].sort());
    expect(await ping(s, b)).toBe(404);
    expect(await ping(s, a)).toBe(200);
  });

  it('ends a session unused for its idle time', async () => {
    const s = make({ idleMs: 100 });
    const a = await open(s);
    expect(await ping(s, a)).toBe(200);
    await new Promise((r) => setTimeout(r, 400));
    expect(s.ids()).toEqual([]);
    expect(await ping(s, a)).toBe(404);
  });

  it('keeps no session for a failed initialize, and ends every session on close', async () => {
    const s = make({});
    const bad = await s.fetch(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
      }),
      auth,
    );
    expect(bad.headers.get('mcp-session-id')).toBeNull();
    expect(s.ids()).toEqual([]);
    const a = await open(s);
    await s.close();
    expect(s.ids()).toEqual([]);
    expect(await ping(s, a)).toBe(404);
  });
});
