/**
 * snapshot, restore, fork, diff, timeline_export: the sandbox's timeline.
 * Every run and file change is already a step with a snapshot of the whole
 * sandbox (files and shell session), so a snapshot id is a step id:
 * `snapshot` names the current one, the others take it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DiffEntry, Step } from '../../contract/api.js';
import { describeSandbox } from './sandboxTools.js';
import { defineTool, READ_ONLY, type McpHost, changes } from '../tool.js';
import {
  diffInput,
  diffOutput,
  exportInput,
  exportOutput,
  forkInput,
  forkOutput,
  restoreInput,
  restoreOutput,
  snapshotInput,
  snapshotOutput,
} from '../toolSchemas.js';

/** The step holding the sandbox's current state, made (as a no-op command) when there is none yet. */
export async function currentStep(host: McpHost, sandboxId: string): Promise<Step> {
  const { headStepId } = await host.engine.call('getTimeline', { sandboxId }, host.client);
  if (headStepId !== null)
    return host.engine.call('getStep', { sandboxId, stepId: headStepId }, host.client);
  const { stepId } = await host.engine.call(
    'run',
    { sandboxId, command: ': snapshot' },
    host.client,
  );
  if (stepId === undefined) throw new Error('the engine recorded no step for the snapshot');
  return host.engine.call('getStep', { sandboxId, stepId }, host.client);
}

/** The VFS snapshot behind a snapshot id (a step id), for reading files as they were. */
export async function vfsSnapshotOf(
  host: McpHost,
  sandboxId: string,
  stepId: string,
): Promise<string> {
  return (await host.engine.call('getStep', { sandboxId, stepId }, host.client)).snapshotId;
}

export const snapshot = defineTool({
  name: 'snapshot',
  title: 'Snapshot a sandbox',
  description:
    'Names the sandbox’s current state (files, and the shell session’s cwd, variables and ' +
    'functions) as a snapshot_id to restore, fork or diff later. Cheap (copy-on-write): take one ' +
    'before anything risky. Every run also returns a step_id that works as a snapshot_id.',
  input: snapshotInput,
  output: snapshotOutput,
  // Names the current step: nothing is written.
  annotations: READ_ONLY,
  async run(args, { host }) {
    const step = await currentStep(host, args.sandbox_id);
    const { kind, command, startedAt, branchId } = step;
    return { structured: { snapshot_id: step.id, step: { kind, command, startedAt, branchId } } };
  },
});

export const restore = defineTool({
  name: 'restore',
  title: 'Restore a snapshot',
  description:
    'Puts the whole sandbox back as it was at a snapshot: files and the shell session (cwd, ' +
    'variables, functions). Nothing is lost: the restore is itself a step, and the steps after ' +
    'the snapshot stay on their branch of the timeline.',
  input: restoreInput,
  output: restoreOutput,
  annotations: changes({ destructive: true, idempotent: false }),
  async run(args, { host }) {
    const step = await host.engine.call(
      'restoreStep',
      { sandboxId: args.sandbox_id, stepId: args.snapshot_id },
      host.client,
    );
    return {
      structured: { sandbox_id: args.sandbox_id, snapshot_id: args.snapshot_id, step_id: step.id },
    };
  },
});

export const fork = defineTool({
  name: 'fork',
  title: 'Fork a sandbox',
  description:
    'Creates a new sandbox from a snapshot (default: the current state) with the same settings; ' +
    'the original is untouched. Use it to try two approaches side by side. Returns the new ' +
    'sandbox_id.',
  input: forkInput,
  output: forkOutput,
  annotations: changes({ destructive: false, idempotent: false }),
  async run(args, { host }) {
    const stepId = args.snapshot_id ?? (await currentStep(host, args.sandbox_id)).id;
    const info = await host.engine.call(
      'forkSandbox',
      {
        sandboxId: args.sandbox_id,
        stepId,
        ...(args.name !== undefined ? { name: args.name } : {}),
      },
      host.client,
    );
    return {
      structured: {
        ...describeSandbox(info),
        forked_from: { sandbox_id: args.sandbox_id, snapshot_id: stepId },
      },
    };
  },
});

function diffLine(e: DiffEntry): string {
  const mark = e.change === 'added' ? 'A' : e.change === 'deleted' ? 'D' : 'M';
  const lines =
    e.linesAdded !== undefined || e.linesRemoved !== undefined
      ? ` (+${e.linesAdded ?? 0} -${e.linesRemoved ?? 0})`
      : !e.text && e.kind === 'file'
        ? ` (binary, ${e.sizeBefore ?? 0} -> ${e.sizeAfter ?? 0} bytes)`
        : '';
  return `${mark} ${e.path}${e.kind === 'dir' ? '/' : ''}${lines}`;
}

export const diff = defineTool({
  name: 'diff',
  title: 'Diff two snapshots',
  description:
    'Lists the files added (A), modified (M) and deleted (D) between two snapshots, or between a ' +
    'snapshot and the live sandbox, with +/- line counts for text files. Paged: pass offset to ' +
    'continue. Read a file as it was with read_file and snapshot_id.',
  input: diffInput,
  output: diffOutput,
  annotations: READ_ONLY,
  async run(args, { host }) {
    const page = await host.engine.call(
      'diffSteps',
      {
        sandboxId: args.sandbox_id,
        from: args.from,
        ...(args.to !== undefined ? { to: args.to } : {}),
        ...(args.offset !== undefined ? { offset: args.offset } : {}),
        limit: args.limit ?? 200,
      },
      host.client,
    );
    const head = `${page.added} added, ${page.modified} modified, ${page.deleted} deleted`;
    const more = page.nextOffset !== null ? [`… more from offset ${page.nextOffset}`] : [];
    const { nextOffset, ...rest } = page;
    return {
      structured: { ...rest, ...(nextOffset !== null ? { next_offset: nextOffset } : {}) },
      text: [[head, ...page.entries.map(diffLine), ...more].join('\n')],
    };
  },
});

/** A file name from a sandbox name: safe characters only, never a path. */
function fileStem(name: string): string {
  return (
    name
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[.-]+/, '')
      .slice(0, 60) || 'sandbox'
  );
}

export const timelineExport = defineTool({
  name: 'timeline_export',
  title: 'Export the timeline',
  description:
    'Saves the sandbox’s whole timeline (every step, branch, snapshot and recording) as a ' +
    'timeline file on the host, in the directory the server was configured with, and returns ' +
    'its path. People open it in the Sandglass workbench to replay what happened.',
  input: exportInput,
  output: exportOutput,
  // Leaves the sandbox alone but writes a new file on the host each time.
  annotations: changes({ destructive: false, idempotent: false }),
  async run(args, { host }) {
    const sandboxes = await host.engine.call('listSandboxes', {}, host.client);
    const name = sandboxes.find((s) => s.id === args.sandbox_id)?.name ?? args.sandbox_id;
    const saved = await host.engine.call(
      'saveTimeline',
      { sandboxId: args.sandbox_id },
      host.client,
    );
    await mkdir(host.exportDir, { recursive: true, mode: 0o700 });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const hostPath = join(host.exportDir, `${fileStem(name)}-${args.sandbox_id}-${stamp}.sgtl`);
    await writeFile(hostPath, Buffer.from(saved.base64, 'base64'), { mode: 0o600, flag: 'wx' });
    return { structured: { host_path: hostPath, summary: saved.summary } };
  },
});

export const TIMELINE_TOOLS = [snapshot, restore, fork, diff, timelineExport];
