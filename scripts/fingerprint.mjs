// A cheap fingerprint of a set of source trees: file count, total size and
// newest mtime. Setup uses it to skip builds that are up to date, and
// bin/sandglass.mjs to tell a stale compiled CLI from a fresh one (a walk of
// src-worker costs a few ms). Node built-ins only: runs before node_modules.
import fs from 'node:fs';
import path from 'node:path';

const SKIP = new Set(['node_modules', 'target', 'out', '.git']);

/** Fingerprint of `entries` (files or directories, relative to `root`). */
export function fingerprint(root, entries) {
  let count = 0;
  let size = 0;
  let newest = 0;
  const walk = (p) => {
    let st;
    try {
      st = fs.lstatSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      if (SKIP.has(path.basename(p))) return;
      for (const name of fs.readdirSync(p)) walk(path.join(p, name));
    } else {
      count++;
      size += st.size;
      newest = Math.max(newest, st.mtimeMs);
    }
  };
  for (const e of entries) walk(path.join(root, e));
  return `${count}:${size}:${newest}`;
}
