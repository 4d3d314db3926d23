/**
 * The file tree: virtualized rows (only those in view are rendered), live from
 * change events, with modes and symlinks shown; create, rename, delete, drag
 * to move, drop host files to import, export to the host; read-only while
 * browsing a step's snapshot.
 */
import { useEffect, useMemo, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import type { FileEntry } from '../../src-worker/contract/api.js';
import { openFile } from '../editor/documents.js';
import { formatBytes } from '../editor/fileKind.js';
import { useApp } from '../store/index.js';
import { describeError } from '../store/notifySlice.js';
import { joinPath, parentOf, validName } from '../store/paths.js';
import { useTreeMarks } from './changeMarks.js';
import { useFollowTerminalCwd } from './followCwd.js';
import { modeString, visibleRows, windowOf, type TreeRow } from './rows.js';
import { ImportProgress } from './ImportProgress.js';
import { exportPath, readDroppedFiles } from './transfer.js';

const ROW_HEIGHT = 22;
const NO_GHOSTS = new Map<string, FileEntry[]>();
const DRAG_TYPE = 'application/x-sandglass-path';

interface MenuState {
  x: number;
  y: number;
  entry: FileEntry | null;
}

export function FileTree() {
  const dirs = useApp((s) => s.dirs);
  const expanded = useApp((s) => s.expanded);
  const selected = useApp((s) => s.selectedPath);
  const browse = useApp((s) => s.browse);
  const currentId = useApp((s) => s.currentId);
  const steps = useApp((s) => (s.currentId ? s.steps[s.currentId] : undefined));
  const { toggleDir, selectPath, selectStep } = useApp.getState();
  const marks = useTreeMarks();
  const cwd = useFollowTerminalCwd();
  // Deleted files show as ghost rows in a step's snapshot; the live tree lists what exists.
  const ghosts = browse ? marks.ghosts : NO_GHOSTS;
  const rows = useMemo(() => visibleRows(dirs, expanded, '/', ghosts), [dirs, expanded, ghosts]);
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);
  const [menu, setMenu] = useState<MenuState | null>(null);
  const [dropTarget, setDropTarget] = useState<string | null>(null);
  const readOnly = browse !== null;

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setViewport(el.clientHeight));
    observer.observe(el);
    setViewport(el.clientHeight);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (!menu) return;
    const close = (): void => setMenu(null);
    window.addEventListener('mousedown', close);
    window.addEventListener('blur', close);
    return () => {
      window.removeEventListener('mousedown', close);
      window.removeEventListener('blur', close);
    };
  }, [menu]);

  const selectedEntry = rows.find((r) => r.entry.path === selected)?.entry ?? null;
  const targetDir = (entry: FileEntry | null): string =>
    entry ? (entry.kind === 'dir' ? entry.path : parentOf(entry.path)) : '/';

  const actions = {
    newFile: async (entry: FileEntry | null) => {
      const dir = targetDir(entry);
      const name = await useApp.getState().askText(`New file in ${dir}`, '');
      if (name === null) return;
      const problem = validName(name);
      if (problem) return useApp.getState().notify('error', problem);
      if (await useApp.getState().createFile(dir, name)) {
        if (dir !== '/' && !useApp.getState().expanded[dir]) toggleDir(dir);
        selectPath(joinPath(dir, name));
        void openFile(joinPath(dir, name));
      }
    },
    newFolder: async (entry: FileEntry | null) => {
      const dir = targetDir(entry);
      const name = await useApp.getState().askText(`New folder in ${dir}`, '');
      if (name === null) return;
      const problem = validName(name);
      if (problem) return useApp.getState().notify('error', problem);
      if (await useApp.getState().createDir(dir, name)) {
        if (dir !== '/' && !useApp.getState().expanded[dir]) toggleDir(dir);
      }
    },
    rename: async (entry: FileEntry) => {
      const name = await useApp.getState().askText(`Rename ${entry.path}`, entry.name);
      if (name === null || name === entry.name) return;
      const problem = validName(name);
      if (problem) return useApp.getState().notify('error', problem);
      const to = joinPath(parentOf(entry.path), name);
      if (await useApp.getState().renamePath(entry.path, to)) selectPath(to);
    },
    remove: async (entry: FileEntry) => {
      const what = entry.kind === 'dir' ? `folder ${entry.path} and everything in it` : entry.path;
      if (!window.confirm(`Delete ${what}?`)) return;
      await useApp.getState().removePath(entry.path);
    },
    export: async (entry: FileEntry | null) => {
      if (!currentId) return;
      try {
        await exportPath(
          currentId,
          entry?.path ?? '/',
          entry && entry.kind !== 'dir' ? 'file' : 'dir',
          browse?.snapshotId ?? null,
        );
      } catch (err) {
        useApp.getState().notify('error', `Export failed: ${describeError(err)}`);
      }
    },
  };

  const activate = (row: TreeRow): void => {
    selectPath(row.entry.path);
    if (row.ghost) return;
    if (row.entry.kind === 'dir') toggleDir(row.entry.path);
    else void openFile(row.entry.path, browse?.snapshotId ?? null);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    const index = rows.findIndex((r) => r.entry.path === selected);
    const row = rows[index];
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const next =
        rows[Math.max(0, Math.min(rows.length - 1, index + (e.key === 'ArrowDown' ? 1 : -1)))];
      if (next) {
        selectPath(next.entry.path);
        const el = scroller.current;
        const top = rows.indexOf(next) * ROW_HEIGHT;
        if (el && (top < el.scrollTop || top > el.scrollTop + el.clientHeight - ROW_HEIGHT))
          el.scrollTop = top - el.clientHeight / 2;
      }
    } else if (e.key === 'Enter' && row) {
      activate(row);
    } else if (e.key === 'ArrowRight' && row?.entry.kind === 'dir' && !row.expanded) {
      toggleDir(row.entry.path);
    } else if (e.key === 'ArrowLeft' && row?.entry.kind === 'dir' && row.expanded) {
      toggleDir(row.entry.path);
    } else if (e.key === 'F2' && row && !readOnly) {
      e.preventDefault();
      void actions.rename(row.entry);
    } else if (e.key === 'Delete' && row && !readOnly) {
      e.preventDefault();
      void actions.remove(row.entry);
    }
  };

  const onDrop = async (e: DragEvent, dir: string): Promise<void> => {
    e.preventDefault();
    e.stopPropagation();
    setDropTarget(null);
    if (readOnly) return;
    const from = e.dataTransfer.getData(DRAG_TYPE);
    if (from) {
      const to = joinPath(dir, from.slice(from.lastIndexOf('/') + 1));
      if (to !== from && !dir.startsWith(from + '/') && dir !== from)
        await useApp.getState().renamePath(from, to);
      return;
    }
    if (e.dataTransfer.types.includes('Files')) {
      try {
        const files = await readDroppedFiles(e.dataTransfer);
        await useApp.getState().importFiles(dir, files);
      } catch (err) {
        useApp.getState().notify('error', `Import failed: ${describeError(err)}`);
      }
    }
  };

  const { start, end } = windowOf(rows.length, scrollTop, viewport, ROW_HEIGHT);
  const step = browse ? steps?.find((s) => s.id === browse.stepId) : undefined;

  return (
    <section className="pane tree-pane" aria-label="Files">
      <div className="pane-header">
        <span className="pane-title">Files</span>
        <span className="spacer" />
        {!readOnly && (
          <>
            <button
              title="New file (Alt+N)"
              aria-label="New file"
              onClick={() => void actions.newFile(selectedEntry)}
            >
              + File
            </button>
            <button
              title="New folder (Alt+Shift+N)"
              aria-label="New folder"
              onClick={() => void actions.newFolder(selectedEntry)}
            >
              + Folder
            </button>
          </>
        )}
        <button
          title="Export selection to the host"
          aria-label="Export"
          onClick={() => void actions.export(selectedEntry)}
        >
          Export
        </button>
      </div>
      <ImportProgress />
      {browse && (
        <div className="browse-banner" role="status">
          <span>
            Snapshot after <code>{step?.command ?? browse.stepId}</code> (read-only)
          </span>
          <button onClick={() => selectStep(null)}>Back to live</button>
        </div>
      )}
      <div
        className={`tree-scroll ${dropTarget === '/' ? 'drop-root' : ''}`}
        ref={scroller}
        role="tree"
        aria-label="File tree"
        data-rows={rows.length}
        tabIndex={0}
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        onKeyDown={onKeyDown}
        onContextMenu={(e) => {
          e.preventDefault();
          setMenu({ x: e.clientX, y: e.clientY, entry: null });
        }}
        onDragOver={(e) => {
          if (readOnly) return;
          e.preventDefault();
          setDropTarget('/');
        }}
        onDragLeave={() => setDropTarget(null)}
        onDrop={(e) => void onDrop(e, '/')}
      >
        <div style={{ height: rows.length * ROW_HEIGHT, position: 'relative' }}>
          {rows.slice(start, end).map((row, i) => {
            const { entry } = row;
            const top = (start + i) * ROW_HEIGHT;
            const isDir = entry.kind === 'dir';
            const mark = marks.files.get(entry.path);
            return (
              <div
                key={entry.path}
                className={`tree-row ${selected === entry.path ? 'selected' : ''} ${dropTarget === entry.path ? 'drop-target' : ''} kind-${entry.kind}${mark ? ` mark-${mark}` : ''}${marks.dirs.has(entry.path) ? ' holds-changes' : ''}${cwd === entry.path ? ' terminal-cwd' : ''}`}
                data-change={mark}
                data-cwd={cwd === entry.path ? '' : undefined}
                style={{ top, height: ROW_HEIGHT, paddingLeft: 6 + row.depth * 14 }}
                role="treeitem"
                aria-level={row.depth + 1}
                aria-expanded={isDir ? row.expanded : undefined}
                aria-selected={selected === entry.path}
                data-path={entry.path}
                title={`${entry.path}\n${modeString(entry.kind, entry.mode)}  ${formatBytes(entry.size)}${entry.target ? `\n→ ${entry.target}` : ''}`}
                draggable={!readOnly && !row.ghost}
                onClick={() => activate(row)}
                onContextMenu={(e) => {
                  e.preventDefault();
                  e.stopPropagation();
                  if (row.ghost) return;
                  selectPath(entry.path);
                  setMenu({ x: e.clientX, y: e.clientY, entry });
                }}
                onDragStart={(e) => {
                  e.dataTransfer.setData(DRAG_TYPE, entry.path);
                  e.dataTransfer.effectAllowed = 'move';
                }}
                onDragOver={(e) => {
                  if (readOnly || !isDir) return;
                  e.preventDefault();
                  e.stopPropagation();
                  setDropTarget(entry.path);
                }}
                onDrop={(e) => {
                  if (isDir) void onDrop(e, entry.path);
                }}
              >
                <span className="twisty">{isDir ? (row.expanded ? '▾' : '▸') : ''}</span>
                <span className="icon" aria-hidden="true">
                  {isDir ? '' : entry.kind === 'symlink' ? '↪' : '·'}
                </span>
                <span className="name">{entry.name}</span>
                {cwd === entry.path && (
                  <span className="cwd-mark" title="the terminal's working directory">
                    $
                  </span>
                )}
                {entry.target !== undefined && (
                  <span className="link-target">→ {entry.target}</span>
                )}
                {mark && (
                  <span className="change-mark" title={`${mark} by this step`}>
                    {mark === 'added' ? 'A' : mark === 'modified' ? 'M' : 'D'}
                  </span>
                )}
                {!row.ghost && <span className="mode">{modeString(entry.kind, entry.mode)}</span>}
              </div>
            );
          })}
        </div>
        {rows.length === 0 && (
          <div className="empty-hint">{currentId ? 'Empty' : 'No sandbox'}</div>
        )}
      </div>
      {menu && (
        <ul
          className="context-menu"
          role="menu"
          style={{ left: menu.x, top: menu.y }}
          onMouseDown={(e) => e.stopPropagation()}
        >
          {!readOnly && (
            <>
              <MenuItem
                label="New file"
                run={() => actions.newFile(menu.entry)}
                close={() => setMenu(null)}
              />
              <MenuItem
                label="New folder"
                run={() => actions.newFolder(menu.entry)}
                close={() => setMenu(null)}
              />
            </>
          )}
          {menu.entry && !readOnly && (
            <>
              <MenuItem
                label="Rename"
                run={() => actions.rename(menu.entry as FileEntry)}
                close={() => setMenu(null)}
              />
              <MenuItem
                label="Delete"
                run={() => actions.remove(menu.entry as FileEntry)}
                close={() => setMenu(null)}
              />
            </>
          )}
          <MenuItem
            label={menu.entry ? 'Export…' : 'Export everything…'}
            run={() => actions.export(menu.entry)}
            close={() => setMenu(null)}
          />
        </ul>
      )}
    </section>
  );
}

function MenuItem(props: { label: string; run(): Promise<void> | void; close(): void }) {
  return (
    <li
      role="menuitem"
      tabIndex={-1}
      onClick={() => {
        props.close();
        void props.run();
      }}
    >
      {props.label}
    </li>
  );
}
