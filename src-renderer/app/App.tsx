/** The workbench window: top bar, tree | editor over terminal | steps, status bar, overlays. */
import { useEffect, useRef } from 'react';
import { AgentsPanel } from '../agents/AgentsPanel.js';
import { closeTab, openFile, saveTab } from '../editor/documents.js';
import { EditorArea } from '../editor/EditorArea.js';
import { Splitter } from '../layout/Splitter.js';
import { useApp } from '../store/index.js';
import { TerminalArea } from '../terminal/TerminalArea.js';
import { CompareDialog } from '../timeline/CompareDialog.js';
import { TimelinePanel } from '../timeline/TimelinePanel.js';
import { DiffDialog } from '../diff/DiffDialog.js';
import { terminalViews } from '../terminal/XtermView.js';
import { FileTree } from '../tree/FileTree.js';
import { HelpOverlay, TextDialogView, Toasts } from './Overlays.js';
import { SettingsDialog } from './SettingsDialog.js';
import { ApprovalDialog } from '../network/ApprovalDialog.js';
import { matches } from './shortcuts.js';
import { StatusBar } from './StatusBar.js';
import { TopBar } from './TopBar.js';
import { useColorScheme } from './useColorScheme.js';
import { joinPath, parentOf, validName } from '../store/paths.js';

function activeTextTabKey(): string | null {
  const s = useApp.getState();
  const tab = s.tabs.find((t) => t.key === s.activeTab && t.sandboxId === s.currentId);
  return tab ? tab.key : null;
}

async function newEntry(kind: 'file' | 'dir'): Promise<void> {
  const s = useApp.getState();
  if (s.browse || !s.currentId) return;
  const sel = s.selectedPath;
  const selEntry = sel
    ? Object.values(s.dirs)
        .flat()
        .find((e) => e.path === sel)
    : undefined;
  const dir = selEntry ? (selEntry.kind === 'dir' ? selEntry.path : parentOf(selEntry.path)) : '/';
  const name = await s.askText(kind === 'file' ? `New file in ${dir}` : `New folder in ${dir}`);
  if (name === null) return;
  const problem = validName(name);
  if (problem) return s.notify('error', problem);
  const ok = kind === 'file' ? await s.createFile(dir, name) : await s.createDir(dir, name);
  if (ok && kind === 'file') void openFile(joinPath(dir, name));
}

function focusPane(selector: string): void {
  const el = document.querySelector<HTMLElement>(selector);
  el?.focus();
}

function useGlobalShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const s = useApp.getState();
      const inField =
        e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement;
      const run = (action: () => void): void => {
        e.preventDefault();
        e.stopPropagation();
        action();
      };
      if (matches(e, 'Mod+S')) {
        return run(() => {
          const key = activeTextTabKey();
          if (key) void saveTab(key);
        });
      }
      if (
        e.key === 'F1' ||
        (e.key === '?' &&
          !inField &&
          !(e.target instanceof HTMLElement && e.target.closest('.xterm, .monaco-editor')))
      ) {
        return run(() => s.setHelpOpen(true));
      }
      if (e.key === 'Escape') {
        if (s.helpOpen) return run(() => s.setHelpOpen(false));
        if (s.diff) return run(() => s.openDiff(null));
        if (s.comparison) return run(() => s.openComparison(null));
        if (s.browse && !s.textDialog && !s.settingsOpen) return run(() => s.selectStep(null));
        return;
      }
      if (matches(e, 'Alt+T')) return run(() => s.currentId && s.addTerminal(s.currentId));
      if (matches(e, 'Alt+Shift+N')) return run(() => void newEntry('dir'));
      if (matches(e, 'Alt+N')) return run(() => void newEntry('file'));
      if (matches(e, 'Alt+W')) {
        return run(() => {
          const key = activeTextTabKey();
          if (key) closeTab(key);
        });
      }
      if (matches(e, 'Alt+R')) {
        return run(() => {
          const step = s.selectedStepId;
          if (step && s.currentId && !s.replay[s.currentId]) s.askRestore(step);
        });
      }
      if (matches(e, 'Alt+1')) return run(() => focusPane('.tree-scroll'));
      if (matches(e, 'Alt+2'))
        return run(() =>
          focusPane(
            '.monaco-host .monaco-editor textarea, .monaco-host .monaco-editor .native-edit-context',
          ),
        );
      if (matches(e, 'Alt+3')) {
        return run(() => {
          const key = s.currentId ? s.activeTerminal[s.currentId] : undefined;
          if (key) terminalViews.get(key)?.term.focus();
        });
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);
}

export function App() {
  const panes = useApp((s) => s.panes);
  const setPanes = useApp((s) => s.setPanes);
  const connection = useApp((s) => s.connection);
  const connectionError = useApp((s) => s.connectionError);
  const engineRestarted = useApp((s) => s.engineRestarted);
  const currentId = useApp((s) => s.currentId);
  const scheme = useColorScheme();
  const center = useRef<HTMLDivElement>(null);
  useGlobalShortcuts();

  // Every live sandbox gets a terminal the first time it is shown (a replay has its recording).
  const replay = useApp((s) => (s.currentId ? s.replay[s.currentId] : undefined));
  useEffect(() => {
    if (!currentId || replay !== false) return;
    const s = useApp.getState();
    if (!s.terminals.some((t) => t.sandboxId === currentId)) s.addTerminal(currentId);
  }, [currentId, replay]);

  useEffect(() => {
    document.documentElement.dataset.theme = scheme;
  }, [scheme]);

  return (
    <div className="app" data-testid="app-shell" data-connection={connection}>
      <TopBar />
      {connection === 'lost' && (
        <div className="banner error" role="alert">
          Not connected to the engine: {connectionError}
        </div>
      )}
      {engineRestarted && (
        <div className="banner warn" role="alert" data-testid="engine-restarted">
          Engine stopped unexpectedly — restarted. Sandboxes that were open come back read-only from
          their timeline journals; restore a step to continue from it.
          <button
            type="button"
            onClick={() => useApp.getState().setConnection({ engineRestarted: false })}
          >
            Dismiss
          </button>
        </div>
      )}
      <main
        className="workspace"
        style={{
          gridTemplateColumns: `${panes.left}px 5px minmax(200px, 1fr) 5px ${panes.right}px`,
        }}
      >
        <FileTree />
        <Splitter
          direction="vertical"
          label="Resize file tree"
          onDrag={(d) =>
            setPanes({ left: Math.max(140, Math.min(900, useApp.getState().panes.left + d)) })
          }
        />
        <div
          className="center"
          ref={center}
          style={{
            gridTemplateRows: `${panes.editorFraction}fr 5px ${1 - panes.editorFraction}fr`,
          }}
        >
          <EditorArea />
          <Splitter
            direction="horizontal"
            label="Resize editor and terminal"
            onDrag={(d) => {
              const h = center.current?.clientHeight ?? 1;
              setPanes({
                editorFraction: Math.max(
                  0.1,
                  Math.min(0.9, useApp.getState().panes.editorFraction + d / h),
                ),
              });
            }}
          />
          <TerminalArea />
        </div>
        <Splitter
          direction="vertical"
          label="Resize timeline panel"
          onDrag={(d) =>
            setPanes({ right: Math.max(180, Math.min(900, useApp.getState().panes.right - d)) })
          }
        />
        <TimelinePanel />
      </main>
      <StatusBar />
      <AgentsPanel />
      <TextDialogView />
      <HelpOverlay />
      <SettingsDialog />
      <ApprovalDialog />
      <DiffDialog />
      <CompareDialog />
      <Toasts />
    </div>
  );
}
