/** create_sandbox, list_sandboxes, destroy_sandbox. */
import type { SandboxInfo } from '../../contract/api.js';
import { DEFAULT_SETTINGS } from '../../api/settings.js';
import { basename } from 'node:path';
import { clearImport } from '../hostImports.js';
import { sandboxPath } from '../textFiles.js';
import { READ_ONLY, defineTool, changes } from '../tool.js';
import {
  createSandboxInput,
  destroyOutput,
  listSandboxesInput,
  listSandboxesOutput,
  sandboxOnlyInput,
  sandboxOutput,
} from '../toolSchemas.js';

/** A sandbox as the tools return it. */
export function describeSandbox(info: SandboxInfo) {
  return {
    sandbox_id: info.id,
    name: info.name,
    created_at: info.createdAt,
    settings: info.settings,
  };
}

export const createSandbox = defineTool({
  name: 'create_sandbox',
  title: 'Create a sandbox',
  description:
    'Creates a new sandbox: an isolated POSIX world (bash-compatible shell, GNU coreutils, Python) ' +
    'with an in-memory filesystem and no network unless allowed. Returns its sandbox_id, which every ' +
    'other tool takes. People watching the Sandglass workbench see it and its steps live.',
  input: createSandboxInput,
  output: sandboxOutput,
  annotations: changes({ destructive: false, idempotent: false }),
  async run(args, { host }) {
    // Every import is cleared before anything is made: a refusal leaves no sandbox behind.
    const allowed = host.allowedImports();
    const imports = (args.imports ?? []).map((imp) => ({
      ...clearImport(allowed, imp.host_path, imp.read_only ?? false),
      path: sandboxPath(imp.path ?? basename(imp.host_path)),
    }));
    const info = await host.engine.call(
      'createSandbox',
      {
        name: args.name ?? 'agent',
        settings: {
          limits: { ...DEFAULT_SETTINGS.limits, ...args.limits },
          env: { ...DEFAULT_SETTINGS.env, ...args.env },
          timeoutMs: args.timeout_ms ?? DEFAULT_SETTINGS.timeoutMs,
        },
      },
      host.client,
    );
    try {
      for (const imp of imports)
        await host.engine.importHostDir(info.id, imp.hostPath, imp.path, {
          readOnly: imp.readOnly,
        });
    } catch (e) {
      await host.engine.call('destroySandbox', { sandboxId: info.id }, host.client);
      throw e;
    }
    return { structured: describeSandbox(info) };
  },
});

export const listSandboxes = defineTool({
  name: 'list_sandboxes',
  title: 'List sandboxes',
  description:
    'Lists every sandbox of this Sandglass engine (including ones people created in the workbench), ' +
    'with ids, names, creation times and settings.',
  input: listSandboxesInput,
  output: listSandboxesOutput,
  annotations: READ_ONLY,
  async run(_args, { host }) {
    return { structured: { sandboxes: await host.engine.call('listSandboxes', {}, host.client) } };
  },
});

export const destroySandbox = defineTool({
  name: 'destroy_sandbox',
  title: 'Destroy a sandbox',
  description:
    'Destroys a sandbox: its processes are killed and its files, shell session and timeline are ' +
    'released. The sandbox_id is invalid afterwards.',
  input: sandboxOnlyInput,
  output: destroyOutput,
  // Ids are never reused: destroying again changes nothing (it fails).
  annotations: changes({ destructive: true, idempotent: true }),
  async run(args, { host }) {
    await host.engine.call('destroySandbox', { sandboxId: args.sandbox_id }, host.client);
    return { structured: { sandbox_id: args.sandbox_id, destroyed: true as const } };
  },
});
