/**
 * Where the warm engine listens, and the checks both ends make before
 * trusting that place: a Unix socket in a directory only this user can
 * enter (0700, owned by us), the socket itself 0600. A directory someone
 * else made or left open is refused, so another local user can neither
 * plant a fake engine nor reach ours. Imports nothing heavy: `sandglass run`
 * loads this before deciding whether to start an engine of its own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** `SANDGLASS_ENGINE_SOCKET`, else `$XDG_RUNTIME_DIR` (or the temp dir)`/sandglass-UID/engine.sock`. */
export function engineSocketPath(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env.SANDGLASS_ENGINE_SOCKET;
  if (explicit) return path.resolve(explicit);
  const base = env.XDG_RUNTIME_DIR || os.tmpdir();
  return path.join(base, `sandglass-${process.getuid?.() ?? 'user'}`, 'engine.sock');
}

/** Why `dir` may not hold our socket, or undefined when it is ours alone. */
function unsafeDir(dir: string): string | undefined {
  const st = fs.lstatSync(dir);
  if (!st.isDirectory()) return `${dir} is not a directory`;
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) return `${dir} belongs to another user`;
  if ((st.mode & 0o077) !== 0) return `${dir} is open to other users (mode ${modeText(st.mode)})`;
  return undefined;
}

function modeText(mode: number): string {
  return (mode & 0o777).toString(8).padStart(4, '0');
}

/**
 * The socket of a running engine this user may talk to, or undefined (no
 * engine there, or a place that fails the checks: then the caller runs
 * cold, as if none were running).
 */
export function findEngineSocket(socketPath = engineSocketPath()): string | undefined {
  try {
    if (unsafeDir(path.dirname(socketPath)) !== undefined) return undefined;
    const st = fs.lstatSync(socketPath);
    const uid = process.getuid?.();
    if (!st.isSocket() || (uid !== undefined && st.uid !== uid)) return undefined;
    return socketPath;
  } catch {
    return undefined;
  }
}

/** Makes the socket's directory (0700) or checks the one there; throws why it is unsafe. */
export function prepareSocketDir(socketPath: string): void {
  const dir = path.dirname(socketPath);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const why = unsafeDir(dir);
  if (why !== undefined) throw new Error(`refusing to listen: ${why}`);
}
