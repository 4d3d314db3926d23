import { afterEach, describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../contract/api.js';
import { SandglassEngine } from '../engine.js';
import { servePort, type PortLike } from './servePort.js';

let engine: SandglassEngine;
afterEach(async () => engine.dispose());

/** A port whose posts can be made to fail, as a structured clone of a bad value does. */
function fakePort() {
  const handlers: { message?: (e: { data: unknown }) => void; close?: () => void } = {};
  const posted: ServerMessage[] = [];
  /** Replies only (the client list is also broadcast to this person's port). */
  const replies = (): ServerMessage[] => posted.filter((m) => m.type === 'response');
  let failNext = 0;
  const port: PortLike = {
    on: ((event: 'message' | 'close', listener: never) => {
      handlers[event] = listener;
    }) as PortLike['on'],
    postMessage: (m) => {
      if (failNext > 0) {
        failNext--;
        throw new Error('DataCloneError: could not be cloned');
      }
      posted.push(m as ServerMessage);
    },
    start: () => undefined,
    close: () => undefined,
  };
  return {
    port,
    posted,
    replies,
    failNextPost: () => (failNext = 1),
    send: (data: unknown) => handlers.message?.({ data }),
    close: () => handlers.close?.(),
  };
}

async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 20));
}

describe('servePort', () => {
  it('answers requests, and turns a reply that cannot be posted into an error reply', async () => {
    engine = new SandglassEngine();
    const p = fakePort();
    servePort(engine, p.port);
    p.send({ type: 'request', id: 1, method: 'hello', params: { apiVersion: 2 } });
    await settle();
    expect(p.replies().at(-1)).toMatchObject({ id: 1, ok: true });
    p.failNextPost();
    p.send({ type: 'request', id: 2, method: 'listSandboxes', params: {} });
    await settle();
    expect(p.replies().at(-1)).toMatchObject({ id: 2, ok: false, error: { code: 'E2BIG' } });
    p.send({ type: 'request', id: 3, method: 'nope', params: {} });
    await settle();
    expect(p.replies().at(-1)).toMatchObject({ id: 3, ok: false, error: { code: 'ENOSYS' } });
  });

  it('subscribes the port to sandboxes it creates and forgets it when closed', async () => {
    engine = new SandglassEngine();
    const p = fakePort();
    servePort(engine, p.port);
    p.send({ type: 'request', id: 1, method: 'createSandbox', params: { name: 'a' } });
    await settle();
    const created = p.posted.find((m) => m.type === 'response' && m.id === 1);
    if (created?.type !== 'response' || !created.ok) throw new Error('create failed');
    const { id } = created.result as { id: string };
    engine.bus.publish(id, { type: 'restored', sandboxId: id, stepId: 'x', restoreStepId: 'x' });
    expect(p.posted.at(-1)).toMatchObject({ type: 'event', event: { type: 'restored' } });
    p.close();
    const before = p.posted.length;
    engine.bus.publish(id, { type: 'restored', sandboxId: id, stepId: 'y', restoreStepId: 'y' });
    expect(p.posted.length).toBe(before);
  });
});
