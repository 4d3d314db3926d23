// The digest of a directory tree that the differential runner compares after
// each case: one line per entry (type, path, permission bits, size, content
// hash; symlinks by target), sorted by name. One formatter serves both the
// host tree (node:fs) and a tree inside a sandbox (its VFS API), so the two
// sides can never drift apart in what they compare.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Digests the tree under `dir` through `fsApi`, an object with async
 * `readdir(p) -> string[]`, `lstat(p) -> {kind: 'dir'|'file'|'symlink'|..., mode, size}`,
 * `readlink(p) -> string` and `readFile(p) -> Uint8Array`.
 */
export async function digestTreeWith(fsApi, dir) {
  const out = [];
  const walk = async (rel) => {
    const names = (await fsApi.readdir(rel ? `${dir}/${rel}` : dir)).sort();
    for (const name of names) {
      const r = rel ? `${rel}/${name}` : name;
      // A name that is not UTF-8 reads back lossy on both sides (the
      // sandbox API speaks strings): compare that it exists, not its data.
      if (name.includes('\uFFFD')) {
        out.push(`? ${r}`);
        continue;
      }
      const abs = `${dir}/${r}`;
      const st = await fsApi.lstat(abs);
      const perm = (st.mode & 0o7777).toString(8);
      if (st.kind === 'symlink') out.push(`l ${r} -> ${await fsApi.readlink(abs)}`);
      else if (st.kind === 'dir') {
        out.push(`d ${r} ${perm}`);
        await walk(r);
      } else if (st.kind === 'file') {
        const h = createHash('sha1')
          .update(await fsApi.readFile(abs))
          .digest('hex');
        out.push(`f ${r} ${perm} ${st.size} ${h.slice(0, 12)}`);
      } else out.push(`${st.kind} ${r} ${perm}`);
    }
  };
  await walk('');
  return out.join('\n');
}

function hostKind(st) {
  if (st.isSymbolicLink()) return 'symlink';
  if (st.isDirectory()) return 'dir';
  if (st.isFile()) return 'file';
  if (st.isFIFO()) return 'fifo';
  return 'special';
}

/** The host side of {@link digestTreeWith}. */
export const hostFs = {
  readdir: async (p) => fs.readdirSync(p, { encoding: 'buffer' }).map((b) => b.toString('utf8')),
  lstat: async (p) => {
    const st = fs.lstatSync(p);
    return { kind: hostKind(st), mode: st.mode, size: st.size };
  },
  readlink: async (p) => fs.readlinkSync(p),
  readFile: async (p) => fs.readFileSync(p),
};

/** Digest of a host directory. */
export function digestHostTree(dir) {
  return digestTreeWith(hostFs, path.resolve(dir));
}
