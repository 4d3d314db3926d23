/** Flattens loaded directory listings into the visible rows of the tree. */
import type { FileEntry } from '../../src-worker/contract/api.js';

export interface TreeRow {
  entry: FileEntry;
  depth: number;
  expanded: boolean;
  /** True while an expanded directory's listing is not loaded yet. */
  loading: boolean;
  /** A deleted entry shown where it was (it is not in the listing). */
  ghost?: boolean;
}

export function visibleRows(
  dirs: Record<string, FileEntry[]>,
  expanded: Record<string, boolean>,
  root = '/',
  ghosts: ReadonlyMap<string, FileEntry[]> = new Map(),
): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (dir: string, depth: number): void => {
    const listing = dirs[dir];
    for (const entry of listing ?? []) {
      const open = entry.kind === 'dir' && expanded[entry.path] === true;
      rows.push({ entry, depth, expanded: open, loading: open && !dirs[entry.path] });
      if (open) walk(entry.path, depth + 1);
    }
    if (!listing) return;
    for (const entry of ghosts.get(dir) ?? [])
      if (!listing.some((e) => e.name === entry.name))
        rows.push({ entry, depth, expanded: false, loading: false, ghost: true });
  };
  walk(root, 0);
  return rows;
}

/** `rwxr-xr-x` style permissions with the type letter first, setuid/setgid/sticky as ls shows them. */
export function modeString(kind: FileEntry['kind'], mode: number): string {
  const type = kind === 'dir' ? 'd' : kind === 'symlink' ? 'l' : kind === 'other' ? '?' : '-';
  const special = [
    [0o4000, 's', 'S'],
    [0o2000, 's', 'S'],
    [0o1000, 't', 'T'],
  ] as const;
  let out = type;
  for (let who = 0; who < 3; who++) {
    const shift = 6 - who * 3;
    out += mode & (4 << shift) ? 'r' : '-';
    out += mode & (2 << shift) ? 'w' : '-';
    const exec = (mode & (1 << shift)) !== 0;
    const [bit, set, unset] = special[who] ?? [0, 'x', '-'];
    out += mode & bit ? (exec ? set : unset) : exec ? 'x' : '-';
  }
  return out;
}

/** Which row indexes to render for a scroll position (virtualization). */
export function windowOf(
  total: number,
  scrollTop: number,
  viewport: number,
  rowHeight: number,
  overscan = 10,
): { start: number; end: number } {
  const start = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const end = Math.min(total, Math.ceil((scrollTop + viewport) / rowHeight) + overscan);
  return { start, end };
}
