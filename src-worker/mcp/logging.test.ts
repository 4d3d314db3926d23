/**
 * MCP logging through the official client (in memory) against a real
 * engine: nothing before the client sets a level, then a command's start
 * and exit and a tool's failure as `notifications/message`, filtered by
 * the level.
 */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import type { LoggingMessageNotification } from '@modelcontextprotocol/server';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SandglassEngine } from '../api/engine.js';
import { WorkerPool } from '../proc/node/workerPool.js';
import { defaultProgramsDir } from '../sandbox/sandbox.js';
import { connectAgent } from './host.js';
import { LOG_LEVELS } from './logging.js';
import { createMcpServer } from './server.js';

const haveShell = existsSync(join(defaultProgramsDir(), 'shell.wasm'));

let engine: SandglassEngine;
let client: Client;
let agent: ReturnType<typeof connectAgent>;
const logs: LoggingMessageNotification['params'][] = [];

beforeEach(async () => {
  engine = new SandglassEngine();
  agent = connectAgent(engine, { transport: 'mcp-stdio' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await createMcpServer(agent).connect(a);
  client = new Client({ name: 'vitest-logging', version: '1' });
  logs.length = 0;
  client.setNotificationHandler('notifications/message', (n) => {
    logs.push(n.params);
  });
  await client.connect(b);
});

afterEach(async () => {
  await client.close();
  agent.close();
  await engine.dispose();
});

afterAll(async () => {
  expect(await WorkerPool.drained()).toBe(true);
});

async function run(id: string, command: string): Promise<void> {
  await client.callTool({ name: 'run', arguments: { sandbox_id: id, command } });
}

describe.skipIf(!haveShell)('logging', () => {
  it('says nothing until the client sets a level, then logs commands by level', async () => {
    const made = await client.callTool({ name: 'create_sandbox', arguments: { name: 'log' } });
    const id = (made.structuredContent as { sandbox_id: string }).sandbox_id;
    await run(id, 'true');
    expect(logs).toEqual([]);

    await client.setLoggingLevel('info');
    await run(id, 'echo hi; exit 3');
    expect(logs).toEqual([
      {
        level: 'info',
        logger: 'sandglass',
        data: { event: 'command_started', sandbox_id: id, command: 'echo hi; exit 3' },
      },
      {
        level: 'notice',
        logger: 'sandglass',
        data: expect.objectContaining({ event: 'command_exited', sandbox_id: id, exit_code: 3 }),
      },
    ]);

    logs.length = 0;
    await client.setLoggingLevel('notice');
    await run(id, 'true');
    await run(id, 'false');
    await client.callTool({ name: 'read_file', arguments: { sandbox_id: id, path: 'nope' } });
    expect(logs.map((l) => [l.level, (l.data as { event: string }).event])).toEqual([
      ['notice', 'command_exited'],
      ['error', 'tool_failed'],
    ]);
    expect(logs[1]?.data).toMatchObject({ tool: 'read_file', code: 'ENOENT' });

    logs.length = 0;
    await client.setLoggingLevel('emergency');
    await run(id, 'false');
    expect(logs).toEqual([]);
  });

  it('refuses a level the spec does not have (-32602 by the spec’s schema)', async () => {
    expect(LOG_LEVELS).toHaveLength(8);
    await expect(
      client.request({ method: 'logging/setLevel', params: { level: 'loud' as 'info' } }),
    ).rejects.toThrow();
  });
});
