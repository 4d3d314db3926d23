import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../contract/api.js';
import { encodeMessage, failedReply } from './dispatch.js';

const reply = (result: unknown): ServerMessage => ({ type: 'response', id: 7, ok: true, result });

describe('encodeMessage', () => {
  it('encodes a reply as JSON', () => {
    expect(JSON.parse(encodeMessage(reply({ a: 1 })))).toEqual(reply({ a: 1 }));
  });
  // Issue 20, item 2: a reply JSON.stringify cannot encode threw inside the send and the
  // process exited. Such a reply is now an error reply for the same request.
  it('turns an unencodable or too large reply into an error reply (issue 20 #2)', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const bad of [reply(cyclic), reply({ n: 10n })]) {
      expect(JSON.parse(encodeMessage(bad))).toMatchObject({
        id: 7,
        ok: false,
        error: { code: 'E2BIG', message: expect.stringContaining('cannot be encoded') },
      });
    }
    expect(JSON.parse(encodeMessage(reply('x'.repeat(1000)), 100))).toMatchObject({
      id: 7,
      ok: false,
      error: { code: 'E2BIG', message: expect.stringContaining('too large') },
    });
  });
  it('stands in for an event with an id-less error reply', () => {
    const event: ServerMessage = { type: 'event', event: { type: 'sandboxes', sandboxes: [] } };
    expect(failedReply(event, 'E2BIG', 'x')).toMatchObject({ id: -1, ok: false });
  });
});
