/**
 * A generated host directory shaped like a small project with a data file:
 * `files` files over nested directories, most of a few KiB of text, one large
 * data file taking a fixed share of the total. Deterministic (no randomness),
 * so runs compare.
 */
import fs from 'node:fs';
import path from 'node:path';
import { RECENT_MS } from '../../src-worker/vfs/node/hostFileSource.ts';

export interface TreeShape {
  readonly files: number;
  readonly bytes: number;
}

export const IMPORT_TREE: TreeShape = { files: 5000, bytes: 50 * 1024 * 1024 };

/** Write the tree under `dir` (created); returns the bytes written. */
export function writeImportTree(dir: string, shape: TreeShape = IMPORT_TREE): number {
  const dataBytes = Math.floor(shape.bytes * 0.4);
  const small = shape.files - 1;
  const each = Math.floor((shape.bytes - dataBytes) / small);
  const line = 'const value = compute(input, options); // generated source line\n';
  const text = Buffer.from(line.repeat(Math.ceil(each / line.length) + 1).slice(0, each));
  let written = 0;
  for (let i = 0; i < small; i++) {
    // 10 top-level packages x 10 modules x ~50 files each.
    const sub = path.join(dir, `pkg${i % 10}`, `mod${Math.floor(i / 10) % 10}`);
    if (i < 100) fs.mkdirSync(sub, { recursive: true });
    fs.writeFileSync(path.join(sub, `file${i}.ts`), text);
    written += text.length;
  }
  const rows: string[] = [];
  for (let i = 0, n = 0; n < dataBytes; i++) {
    const row = `${i},${(i * 7919) % 10007},${(i * 104729) % 99991}\n`;
    rows.push(row);
    n += row.length;
  }
  const data = Buffer.from(rows.join('').slice(0, dataBytes));
  fs.mkdirSync(path.join(dir, 'data'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'data', 'table.csv'), data);
  return written + dataBytes;
}

/**
 * Waits until files just written are old enough for a lazy import to leave
 * them lazy (it reads files changed in the last RECENT_MS at once).
 */
export function settleImportTree(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, RECENT_MS + 200));
}
