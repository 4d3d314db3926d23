import { describe, expect, it } from 'vitest';
import type { ClientMessage, ServerMessage } from '../../src-worker/contract/api.js';
import { createApiClient, RemoteError, type Transport } from './client.js';

function loopback(
  answer: (m: ClientMessage) => ServerMessage[],
): Transport & { emit(m: ServerMessage): void } {
  const listeners = new Set<(m: ServerMessage) => void>();
  const t = {
    send: (m: ClientMessage) => queueMicrotask(() => answer(m).forEach((r) => t.emit(r))),
    onMessage: (l: (m: ServerMessage) => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    onClose: () => undefined,
    emit: (m: ServerMessage) => listeners.forEach((l) => l(m)),
  };
  return t;
}

describe('createApiClient', () => {
  it('maps calls to requests and routes responses by id', async () => {
    const api = createApiClient(
      loopback((m) => [
        m.method === 'stats'
          ? {
              type: 'response',
              id: m.id,
              ok: true,
              result: { files: 3, bytes: 1, processes: 0, running: null },
            }
          : {
              type: 'response',
              id: m.id,
              ok: false,
              error: { name: 'ApiError', message: 'nope', code: 'ENOENT' },
            },
      ]),
    );
    await expect(api.stats({ sandboxId: 'a' })).resolves.toMatchObject({ files: 3 });
    const err = await api.readDir({ sandboxId: 'a', path: '/' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteError);
    expect(err).toMatchObject({ code: 'ENOENT', message: 'nope' });
  });
  it('delivers events to subscribers until they unsubscribe', () => {
    const t = loopback(() => []);
    const api = createApiClient(t);
    const seen: string[] = [];
    const off = api.onEvent((e) => seen.push(e.type));
    t.emit({ type: 'event', event: { type: 'terminalExit', terminalId: 't', status: 0 } });
    off();
    t.emit({ type: 'event', event: { type: 'terminalExit', terminalId: 't', status: 0 } });
    expect(seen).toEqual(['terminalExit']);
  });
});
