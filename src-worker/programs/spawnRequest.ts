/** Decoding of the binary spawn request (docs/abi.md), with bounds checks: malformed is EINVAL. */
import { Errno, fail } from '../base/errno.js';

export interface SpawnRequest {
  readonly path: Uint8Array;
  readonly argv: Uint8Array[];
  readonly env: Uint8Array[];
  readonly cwd: Uint8Array;
  readonly fds: [number, number][];
  readonly pgid: number;
  readonly flags: number;
}

/** Bits of a spawn request's `flags` (docs/abi.md). */
export const SPAWN_FLAG = {
  foreground: 1,
  exactEnv: 2,
  ignoreIntQuit: 4,
  defaultIntQuit: 8,
} as const;

const MAX_LIST = 65536;

export function decodeSpawnRequest(b: Uint8Array): SpawnRequest {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let off = 0;
  const u32 = (): number => {
    if (off + 4 > b.length) fail(Errno.EINVAL, 'truncated spawn request');
    const v = dv.getUint32(off, true);
    off += 4;
    return v;
  };
  const str = (): Uint8Array => {
    const n = u32();
    if (off + n > b.length) fail(Errno.EINVAL, 'truncated spawn request');
    const s = b.slice(off, off + n);
    off += n;
    return s;
  };
  const list = (): Uint8Array[] => {
    const n = u32();
    if (n > MAX_LIST) fail(Errno.E2BIG);
    const out: Uint8Array[] = [];
    for (let i = 0; i < n; i++) out.push(str());
    return out;
  };
  const path = str();
  const argv = list();
  const env = list();
  const cwd = str();
  const nfds = u32();
  if (nfds > 1024) fail(Errno.EINVAL);
  const fds: [number, number][] = [];
  for (let i = 0; i < nfds; i++) fds.push([u32(), u32()]);
  const pgid = u32() | 0;
  const flags = u32();
  return { path, argv, env, cwd, fds, pgid, flags };
}
