/**
 * Marks in the file tree for the files a step added, modified or deleted:
 * the browsed step's while a snapshot is shown, the last step's in the live
 * view. Folders holding a change get a dot; deleted files show as ghost rows
 * in their (loaded) folder. In the live view the folders of what a command
 * made or changed are opened, so `echo x > made.txt` is seen at once.
 */
import { useEffect, useMemo, useState } from 'react';
import {
  LIMITS,
  type ChangedPath,
  type FileEntry,
  type Step,
} from '../../src-worker/contract/api.js';
import { api } from '../store/apiHandle.js';
import { useApp } from '../store/index.js';
import { parentOf } from '../store/paths.js';

export type ChangeMark = ChangedPath['change'];

/** The folders above `path`, outermost first, without `/`. */
export function ancestorsOf(path: string): string[] {
  const out: string[] = [];
  for (let dir = parentOf(path); dir !== '/' && dir !== ''; dir = parentOf(dir)) out.unshift(dir);
  return out;
}

/** Every changed path of a step: its own bounded list, or all pages when that list was cut. */
export async function changedPaths(step: Step): Promise<ChangedPath[]> {
  if (!step.changes.truncated) return step.changes.paths;
  const page = await api().stepChanges({
    sandboxId: step.sandboxId,
    stepId: step.id,
    limit: LIMITS.diffPageMax,
  });
  return page.entries.map((e) => ({ path: e.path, change: e.change, kind: e.kind }));
}

/** Opens the folders of the files a live step added or modified. */
export function revealChanges(step: Step): void {
  if (useApp.getState().browse) return;
  const open = new Set<string>();
  for (const p of step.changes.paths)
    if (p.change !== 'deleted') for (const dir of ancestorsOf(p.path)) open.add(dir);
  openFolders(open);
}

/** Expands the given folders of the tree and loads the listings it lacks. */
export function openFolders(folders: Iterable<string>): void {
  const app = useApp.getState();
  const closed = [...folders].filter((dir) => !app.expanded[dir]);
  if (closed.length === 0) return;
  const expanded = { ...app.expanded };
  for (const dir of closed) expanded[dir] = true;
  useApp.setState({ expanded });
  for (const dir of closed) if (!app.dirs[dir]) void app.loadDir(dir);
}

export interface TreeMarks {
  files: Map<string, ChangeMark>;
  /** Folders holding a marked path. */
  dirs: Set<string>;
  /** Deleted entries by parent folder, to show as ghost rows. */
  ghosts: Map<string, FileEntry[]>;
  stepId: string | null;
}

const NONE: TreeMarks = { files: new Map(), dirs: new Set(), ghosts: new Map(), stepId: null };

export function marksOf(stepId: string, paths: readonly ChangedPath[]): TreeMarks {
  const files = new Map<string, ChangeMark>();
  const dirs = new Set<string>();
  const ghosts = new Map<string, FileEntry[]>();
  for (const p of paths) {
    files.set(p.path, p.change);
    for (const dir of ancestorsOf(p.path)) dirs.add(dir);
    if (p.change === 'deleted') {
      const parent = parentOf(p.path);
      const list = ghosts.get(parent) ?? [];
      list.push({
        name: p.path.slice(p.path.lastIndexOf('/') + 1),
        path: p.path,
        kind: p.kind,
        mode: 0,
        size: 0,
        mtimeMs: 0,
      });
      ghosts.set(parent, list);
    }
  }
  return { files, dirs, ghosts, stepId };
}

/** Marks for the tree as it is shown now (the browsed step, or the live head). */
export function useTreeMarks(): TreeMarks {
  const browse = useApp((s) => s.browse);
  const stepId = useApp((s) => browse?.stepId ?? (s.currentId ? s.heads[s.currentId] : null));
  const step = useApp((s) =>
    stepId && s.currentId ? s.steps[s.currentId]?.find((x) => x.id === stepId) : undefined,
  );
  const [paths, setPaths] = useState<{ stepId: string; list: ChangedPath[] } | null>(null);
  useEffect(() => {
    if (!step) return;
    let live = true;
    changedPaths(step)
      .then((list) => live && setPaths({ stepId: step.id, list }))
      .catch(() => live && setPaths({ stepId: step.id, list: step.changes.paths }));
    return () => {
      live = false;
    };
  }, [step]);
  return useMemo(() => {
    if (!step) return NONE;
    const list = paths?.stepId === step.id ? paths.list : step.changes.paths;
    return marksOf(step.id, list);
  }, [step, paths]);
}
