/**
 * Resource subscriptions and change notifications, from the engine's file
 * change events: `resources/subscribe` a file's URI, and every change to
 * it (written, deleted, the sandbox restored) sends
 * `notifications/resources/updated`; once a client has listed resources,
 * files appearing or vanishing in the listed folders, or a sandbox coming
 * or going, send `notifications/resources/list_changed` (once per batch of
 * changes: the engine batches a sandbox's changes every 30 ms). Nothing is
 * watched until a client subscribes or lists. A server instance serves one
 * stdio connection or one 2025-era HTTP session; 2026-07-28 has no
 * `resources/subscribe` (the SDK answers -32601).
 */
import type { McpServer } from '@modelcontextprotocol/server';
import type { ApiEvent } from '../contract/api.js';
import { isListedPath, parseResourceUri } from './resourceUris.js';
import type { McpHost } from './tool.js';

export interface ResourceUpdates {
  /** The client listed resources: from now on it hears when the list changes. */
  listed(): void;
}

export function installResourceUpdates(server: McpServer, host: McpHost): ResourceUpdates {
  const inner = server.server;
  /** Subscribed URIs and the file each names. */
  const subscribed = new Map<string, { sandboxId: string; path: string }>();
  let listedOnce = false;
  let sandboxIds = '';
  let stop: (() => void) | undefined;

  const send = (p: Promise<void>): void => void p.catch(() => undefined);
  const onEvent = (event: ApiEvent): void => {
    if (event.type === 'sandboxes') {
      const ids = event.sandboxes.map((s) => s.id).join('\n');
      if (listedOnce && ids !== sandboxIds) send(inner.sendResourceListChanged());
      sandboxIds = ids;
      return;
    }
    if (event.type !== 'fsChange') return;
    const everything = event.changes.some((c) => c.path === '/');
    for (const [uri, file] of subscribed)
      if (
        file.sandboxId === event.sandboxId &&
        (everything || event.changes.some((c) => c.path === file.path))
      )
        send(inner.sendResourceUpdated({ uri }));
    if (
      listedOnce &&
      (everything || event.changes.some((c) => c.kind !== 'modified' && isListedPath(c.path)))
    )
      send(inner.sendResourceListChanged());
  };
  const watch = (): void => {
    stop ??= host.onEvent(onEvent);
  };
  const previousClose = inner.onclose;
  inner.onclose = () => {
    stop?.();
    stop = undefined;
    subscribed.clear();
    previousClose?.();
  };

  // Any URI may be subscribed to (the spec asks no more); only a sandbox's
  // files ever change here, so only their subscriptions hear anything.
  inner.setRequestHandler('resources/subscribe', async (request) => {
    const uri = request.params.uri;
    let file: { sandboxId: string; path: string };
    try {
      file = parseResourceUri(uri);
    } catch {
      return {};
    }
    // The agent hears the events of sandboxes its client subscribed to (those it made, at least).
    if (!host.client.isSubscribed(file.sandboxId)) {
      try {
        await host.engine.call('subscribe', { sandboxId: file.sandboxId }, host.client);
      } catch {
        return {}; // No such sandbox (ids are never reused): nothing will change.
      }
    }
    subscribed.set(uri, file);
    watch();
    return {};
  });
  inner.setRequestHandler('resources/unsubscribe', (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  return {
    listed: () => {
      if (listedOnce) return;
      listedOnce = true;
      watch();
      // The current sandboxes, to tell a change in the list from the same list again.
      void host.engine
        .call('listSandboxes', {})
        .then((list) => (sandboxIds = list.map((s) => s.id).join('\n')))
        .catch(() => undefined);
    },
  };
}
