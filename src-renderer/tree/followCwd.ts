/**
 * The live tree follows the active terminal's shell: the folders down to its
 * cwd are opened when the terminal starts and whenever a command line
 * changes directory, and that folder's row is marked. The engine reports the
 * cwd (`terminalCwd` events); nothing is read from the terminal's output.
 */
import { useEffect } from 'react';
import { useApp } from '../store/index.js';
import type { AppState } from '../store/index.js';
import { ancestorsOf, openFolders } from './changeMarks.js';

/** The cwd of the current sandbox's active terminal, when known. */
export function activeTerminalCwd(s: AppState): string | null {
  const sandboxId = s.currentId;
  const key = sandboxId ? s.activeTerminal[sandboxId] : undefined;
  const terminalId = key ? s.engineTerminal[key] : undefined;
  return terminalId ? (s.terminalCwd[terminalId] ?? null) : null;
}

/** Every folder to open so that `dir`'s entries show, outermost first. */
export function foldersDownTo(dir: string): string[] {
  return dir === '/' || dir === '' ? [] : [...ancestorsOf(dir), dir];
}

/** Opens the tree down to the active terminal's cwd (live view only); returns that cwd. */
export function useFollowTerminalCwd(): string | null {
  const cwd = useApp(activeTerminalCwd);
  const browsing = useApp((s) => s.browse !== null);
  useEffect(() => {
    if (cwd && !browsing) openFolders(foldersDownTo(cwd));
  }, [cwd, browsing]);
  return browsing ? null : cwd;
}
