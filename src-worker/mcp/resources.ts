/**
 * The sandboxes' files as MCP resources (URIs: resourceUris.ts).
 * `resources/list` pages through the files under each sandbox's /home/user
 * and /tmp, sandbox by sandbox, in name order (the rest of a sandbox, /bin
 * and /etc, is the system's; any file can still be read by URI);
 * `resources/read` returns a file as text (UTF-8) or as a base64 blob, with
 * its MIME type; `resources/templates/list` gives the one URI template;
 * `completion/complete` completes its `sandbox_id` and `path`. Subscriptions
 * and change notifications: resourceUpdates.ts.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type McpServer,
  type Resource,
} from '@modelcontextprotocol/server';
import { toApiError } from '../api/errors.js';
import type { FileEntry } from '../contract/api.js';
import { installResourceUpdates } from './resourceUpdates.js';
import {
  LISTED_ROOTS,
  mimeTypeOf,
  parseResourceUri,
  resourceUri,
  URI_TEMPLATE,
} from './resourceUris.js';
import { decodeText } from './textFiles.js';
import type { McpHost } from './tool.js';

/** Resources per page of resources/list. */
export const RESOURCE_PAGE_SIZE = 100;
/** Largest file resources/read returns (read_file takes ranges of larger ones). */
export const MAX_RESOURCE_BYTES = 16 * 1024 * 1024;
/** Most values one completion answers with. */
const MAX_COMPLETIONS = 100;

/** Where a page of resources/list starts: after this file of this sandbox. */
interface Cursor {
  readonly sandboxId: string;
  readonly after: string;
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.sandboxId, c.after])).toString('base64url');
}

function decodeCursor(cursor: string): Cursor {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown;
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string')
      return { sandboxId: v[0], after: v[1] };
  } catch {
    // Not ours: refused below.
  }
  throw new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Invalid cursor ${JSON.stringify(cursor)}: pass the nextCursor of a resources/list answer`,
  );
}

const byName = (a: FileEntry, b: FileEntry): number =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

/**
 * The files under `dir` in walk order (entries by name, depth first) after
 * `after` (a path in the same order, or undefined for all), at most `max`.
 * Directories wholly before `after` are skipped without being read.
 */
async function filesAfter(
  host: McpHost,
  sandboxId: string,
  dir: string,
  after: string | undefined,
  max: number,
  out: FileEntry[],
): Promise<void> {
  let entries: FileEntry[];
  try {
    entries = await host.engine.call('readDir', { sandboxId, path: dir }, host.client);
  } catch {
    return; // Gone or unreadable: nothing to list.
  }
  entries.sort(byName);
  for (const e of entries) {
    if (out.length >= max) return;
    let rest = after;
    if (rest !== undefined) {
      // `after` is inside this directory (go in, still skipping), at or past this entry (skip it), or before it.
      if (!rest.startsWith(`${e.path}/`)) {
        if (pathBefore(e.path, rest)) continue;
        rest = undefined;
      }
    }
    if (e.kind === 'dir') await filesAfter(host, sandboxId, e.path, rest, max, out);
    else if (e.kind === 'file' && rest === undefined) out.push(e);
  }
}

/** Whether `a` comes before or at `b` in walk order (segment by segment, by name). */
function pathBefore(a: string, b: string): boolean {
  const x = a.split('/');
  const y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = x[i] ?? '';
    const q = y[i] ?? '';
    if (p !== q) return p < q;
  }
  return x.length <= y.length;
}

function asResource(sandboxId: string, sandboxName: string, e: FileEntry): Resource {
  const mimeType = mimeTypeOf(e.path);
  return {
    uri: resourceUri(sandboxId, e.path),
    name: e.name,
    title: `${e.path} (${sandboxName})`,
    ...(mimeType !== undefined ? { mimeType } : {}),
    size: e.size,
  };
}

/** One page of resources/list. */
async function listResources(
  host: McpHost,
  cursor: string | undefined,
): Promise<{ resources: Resource[]; nextCursor?: string }> {
  const sandboxes = await host.engine.call('listSandboxes', {});
  const from = cursor === undefined ? undefined : decodeCursor(cursor);
  const start = from ? sandboxes.findIndex((s) => s.id === from.sandboxId) : 0;
  if (start < 0)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid cursor: sandbox ${from?.sandboxId ?? ''} is gone; list again from the start`,
    );
  // One more than a page tells whether there is a next one.
  const want = RESOURCE_PAGE_SIZE + 1;
  const found: { sandbox: { id: string; name: string }; file: FileEntry }[] = [];
  for (let i = start; i < sandboxes.length && found.length < want; i++) {
    const sandbox = sandboxes[i];
    if (!sandbox) continue;
    const after = i === start ? from?.after : undefined;
    const cursorRoot = after === undefined ? -1 : LISTED_ROOTS.findIndex((r) => isUnder(after, r));
    for (const [j, root] of LISTED_ROOTS.entries()) {
      if (j < cursorRoot) continue;
      const files: FileEntry[] = [];
      await filesAfter(
        host,
        sandbox.id,
        root,
        j === cursorRoot ? after : undefined,
        want - found.length,
        files,
      );
      for (const file of files) found.push({ sandbox, file });
    }
  }
  const page = found.slice(0, RESOURCE_PAGE_SIZE);
  const resources = page.map(({ sandbox, file }) => asResource(sandbox.id, sandbox.name, file));
  const last = page[page.length - 1];
  if (found.length > RESOURCE_PAGE_SIZE && last)
    return {
      resources,
      nextCursor: encodeCursor({ sandboxId: last.sandbox.id, after: last.file.path }),
    };
  return { resources };
}

const isUnder = (path: string, root: string): boolean => path.startsWith(`${root}/`);

/** A file's contents as a resources/read answer. */
async function readResource(host: McpHost, uri: string) {
  const { sandboxId, path } = parseResourceUri(uri);
  let entry: FileEntry;
  let base64: string;
  try {
    entry = await host.engine.call('stat', { sandboxId, path }, host.client);
    if (entry.kind === 'dir')
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `${uri} is a directory: read its files' URIs (resources/list, or complete the template's path)`,
      );
    if (entry.size > MAX_RESOURCE_BYTES)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `${uri} is ${entry.size} bytes, over the ${MAX_RESOURCE_BYTES} bytes resources/read returns: read it in ranges with the read_file tool`,
      );
    ({ base64 } = await host.engine.call('readFile', { sandboxId, path }, host.client));
  } catch (err) {
    if (err instanceof ProtocolError) throw err;
    const e = toApiError(err);
    if (e.code === 'ENOENT' || e.code === 'ENOTDIR')
      throw new ResourceNotFoundError(uri, `Resource not found: ${uri} (${e.message})`);
    throw new ProtocolError(ProtocolErrorCode.InternalError, `${e.code}: ${e.message}`);
  }
  const bytes = Buffer.from(base64, 'base64');
  const text = decodeText(bytes);
  const named = mimeTypeOf(path);
  if (text !== undefined) return { contents: [{ uri, mimeType: named ?? 'text/plain', text }] };
  return { contents: [{ uri, mimeType: named ?? 'application/octet-stream', blob: base64 }] };
}

/** Values for one argument of the URI template, starting with what the client typed. */
async function complete(
  host: McpHost,
  argument: string,
  value: string,
  context: Record<string, string>,
): Promise<string[]> {
  if (argument === 'sandbox_id') {
    const sandboxes = await host.engine.call('listSandboxes', {});
    return sandboxes.map((s) => s.id).filter((id) => id.startsWith(value));
  }
  if (argument !== 'path') return [];
  const sandboxId = context.sandbox_id;
  if (sandboxId === undefined) return [];
  // The template's path follows the slash after the sandbox id: no leading slash.
  const typed = value.replace(/^\/+/, '');
  const cut = typed.lastIndexOf('/');
  const dir = cut < 0 ? '' : typed.slice(0, cut + 1);
  const prefix = typed.slice(cut + 1);
  let entries: FileEntry[];
  try {
    entries = await host.engine.call('readDir', { sandboxId, path: `/${dir}` }, host.client);
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.name.startsWith(prefix))
    .sort(byName)
    .map((e) => `${dir}${e.name}${e.kind === 'dir' ? '/' : ''}`);
}

/** Declares `resources` (subscribe, listChanged) and `completions` on `server` and answers them. */
export function installResources(server: McpServer, host: McpHost): void {
  const inner = server.server;
  inner.registerCapabilities({
    resources: { subscribe: true, listChanged: true },
    completions: {},
  });
  const updates = installResourceUpdates(server, host);
  inner.setRequestHandler('resources/list', async (request, ctx) => {
    // 2026-07-28 requests each get a server of their own, with nothing to notify later.
    if (ctx.mcpReq.envelope === undefined) updates.listed();
    return listResources(host, request.params?.cursor);
  });
  inner.setRequestHandler('resources/read', (request) => readResource(host, request.params.uri));
  inner.setRequestHandler('resources/templates/list', (request) => {
    if (request.params?.cursor !== undefined)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Invalid cursor ${JSON.stringify(request.params.cursor)}: resources/templates/list has one page`,
      );
    return {
      resourceTemplates: [
        {
          uriTemplate: URI_TEMPLATE,
          name: 'sandbox-file',
          title: 'A file in a sandbox',
          description:
            'Any file of any sandbox, by its sandbox_id and absolute path (without the leading slash), e.g. sandbox://sb1/home/user/notes.md. Text comes back as text, other files as base64 blobs.',
        },
      ],
    };
  });
  inner.setRequestHandler('completion/complete', async (request) => {
    const { ref, argument, context } = request.params;
    if (ref.type !== 'ref/resource' || ref.uri !== URI_TEMPLATE)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Nothing to complete for ${JSON.stringify(ref)}: the one template is ${URI_TEMPLATE}`,
      );
    const values = await complete(host, argument.name, argument.value, context?.arguments ?? {});
    return {
      completion: {
        values: values.slice(0, MAX_COMPLETIONS),
        total: values.length,
        hasMore: values.length > MAX_COMPLETIONS,
      },
    };
  });
}
