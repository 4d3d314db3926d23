import { describe, expect, it } from 'vitest';
import type { ClientInfo } from '../../src-worker/contract/api.js';
import { agentsOf, connectedFor } from './agentsSlice.js';

const client = (id: string, role: ClientInfo['role'], since: number): ClientInfo => ({
  id,
  role,
  name: id,
  transport: 'jsonrpc-stdio',
  since,
  sandboxes: [],
  paused: false,
  calls: 0,
  running: null,
});

describe('Agents view helpers', () => {
  it('keeps agents only, newest first', () => {
    const list = [client('a', 'agent', 1), client('p', 'person', 5), client('b', 'agent', 3)];
    expect(agentsOf(list).map((c) => c.id)).toEqual(['b', 'a']);
  });

  it('says how long ago a client connected', () => {
    expect(connectedFor(1000, 1500)).toBe('just now');
    expect(connectedFor(0, 42_000)).toBe('42 s ago');
    expect(connectedFor(0, 3 * 60_000 + 5000)).toBe('3 min ago');
    expect(connectedFor(0, 2 * 3_600_000)).toBe('2 h ago');
    expect(connectedFor(5000, 0)).toBe('just now');
  });
});
