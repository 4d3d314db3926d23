/**
 * What a demanding client does with the server's resources, logging and
 * completions, as one scenario each transport's tests run through the
 * official client (stdio: src-worker/cli/mcp.test.ts, HTTP:
 * httpEndpoint.test.ts). Throws (through vitest's expect) on a difference.
 */
import type { Client } from '@modelcontextprotocol/client';
import { LOG_LEVEL_META_KEY, specTypeSchemas } from '@modelcontextprotocol/server';
import { expect } from 'vitest';

/**
 * The notifications a client received, by method, in order; each must be
 * a server notification by the spec's schema (the SDK's zod types).
 */
export function collectNotifications(client: Client): { method: string; params?: unknown }[] {
  const seen: { method: string; params?: unknown }[] = [];
  const take = (n: { method: string; params?: unknown }): void => {
    const checked = specTypeSchemas.ServerNotification['~standard'].validate(n);
    expect('issues' in checked ? checked.issues : undefined, JSON.stringify(n)).toBeUndefined();
    seen.push(n);
  };
  client.fallbackNotificationHandler = async (n) => take(n);
  client.setNotificationHandler('notifications/message', take);
  return seen;
}

async function until(check: () => boolean, what: string, seen: unknown): Promise<void> {
  for (let i = 0; i < 300 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  if (!check()) throw new Error(`no ${what}: ${JSON.stringify(seen)}`);
}

const TEMPLATE = 'sandbox://{sandbox_id}/{+path}';

/**
 * 2025-era clients: log level, command logs, a file as a resource (listed,
 * read, completed), a subscription's update, and the spec's -32602 for a
 * cursor that is not a string.
 */
export async function exerciseLegacyFeatures(
  client: Client,
  seen: { method: string; params?: unknown }[],
): Promise<void> {
  expect(client.getServerCapabilities()).toMatchObject({
    resources: { subscribe: true, listChanged: true },
    logging: {},
    completions: {},
  });
  const made = await client.callTool({ name: 'create_sandbox', arguments: { name: 'feat' } });
  const id = (made.structuredContent as { sandbox_id: string }).sandbox_id;
  await client.setLoggingLevel('info');
  await client.callTool({
    name: 'run',
    arguments: { sandbox_id: id, command: 'mkdir -p src && echo one > src/a.txt' },
  });
  await until(
    () =>
      seen.some(
        (n) =>
          n.method === 'notifications/message' &&
          (n.params as { data?: { event?: string } }).data?.event === 'command_exited',
      ),
    'command log',
    seen,
  );
  const uri = `sandbox://${id}/home/user/src/a.txt`;
  const { resources } = await client.listResources();
  expect(resources).toContainEqual(
    expect.objectContaining({ uri, name: 'a.txt', mimeType: 'text/plain' }),
  );
  expect((await client.readResource({ uri })).contents).toEqual([
    { uri, mimeType: 'text/plain', text: 'one\n' },
  ]);
  const done = await client.complete({
    ref: { type: 'ref/resource', uri: TEMPLATE },
    argument: { name: 'path', value: 'home/user/s' },
    context: { arguments: { sandbox_id: id } },
  });
  expect(done.completion.values).toEqual(['home/user/src/']);
  await client.subscribeResource({ uri });
  await client.callTool({
    name: 'run',
    arguments: { sandbox_id: id, command: 'echo two > src/a.txt' },
  });
  await until(
    () =>
      seen.some(
        (n) =>
          n.method === 'notifications/resources/updated' &&
          (n.params as { uri?: string }).uri === uri,
      ),
    'resources/updated',
    seen,
  );
  await expect(
    client.request({ method: 'tools/list', params: { cursor: 5 as unknown as string } }),
  ).rejects.toMatchObject({ code: -32602 });
}

/**
 * 2026-07-28 clients: resources list and read, the log level per request
 * in `_meta`, and no `resources/subscribe` in that revision.
 */
export async function exerciseModernFeatures(
  client: Client,
  seen: { method: string; params?: unknown }[],
): Promise<void> {
  const made = await client.callTool({ name: 'create_sandbox', arguments: { name: 'feat' } });
  const id = (made.structuredContent as { sandbox_id: string }).sandbox_id;
  await client.callTool({
    name: 'run',
    arguments: { sandbox_id: id, command: 'echo hi > b.md' },
    _meta: { [LOG_LEVEL_META_KEY]: 'info' },
  });
  expect(
    seen
      .filter((n) => n.method === 'notifications/message')
      .map((n) => (n.params as { data: { event: string } }).data.event),
  ).toEqual(['command_started', 'command_exited']);
  const uri = `sandbox://${id}/home/user/b.md`;
  expect((await client.readResource({ uri })).contents).toEqual([
    { uri, mimeType: 'text/markdown', text: 'hi\n' },
  ]);
  const { resources } = await client.listResources();
  expect(resources.map((r) => r.uri)).toContain(uri);
}
