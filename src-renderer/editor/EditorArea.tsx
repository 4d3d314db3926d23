/**
 * Editor tabs over one Monaco editor whose model follows the active tab;
 * binary files get a hex/info view, very large files a read-only guard,
 * changes underneath a reload prompt when the tab has unsaved edits.
 */
import { lazy, Suspense, useState } from 'react';
import type { EditorTab } from '../store/editorSlice.js';
import { useApp } from '../store/index.js';
import { binaryOf, closeTab, keepMine, openLarge, reloadTab } from './documents.js';
import { formatBytes, hexDump, LARGE_FILE_BYTES } from './fileKind.js';

// Monaco loads with the first text file opened, not with the page.
const MonacoHost = lazy(() => import('./MonacoHost.js').then((m) => ({ default: m.MonacoHost })));

export function EditorArea() {
  const currentId = useApp((s) => s.currentId);
  const tabs = useApp((s) => s.tabs);
  const activeKey = useApp((s) => s.activeTab);
  const activate = useApp((s) => s.activateTab);
  const visible = tabs.filter((t) => t.sandboxId === currentId);
  const active = visible.find((t) => t.key === activeKey) ?? visible[visible.length - 1] ?? null;
  // Once a text tab has opened, the editor stays mounted (its view states live there).
  const [editorWanted, setEditorWanted] = useState(false);
  if (!editorWanted && tabs.some((t) => t.kind === 'text')) setEditorWanted(true);

  return (
    <section className="pane editor-pane" aria-label="Editor">
      <div className="tabs" role="tablist" aria-label="Editor tabs">
        {visible.map((t) => (
          <div
            key={t.key}
            role="tab"
            aria-selected={t.key === active?.key}
            className={`tab ${t.key === active?.key ? 'active' : ''}`}
            title={t.snapshotId ? `${t.path} (snapshot, read-only)` : t.path}
            onClick={() => activate(t.key)}
            onAuxClick={(e) => e.button === 1 && closeTab(t.key)}
          >
            <span className="tab-name">
              {t.snapshotId && '[snapshot] '}
              {t.path.slice(t.path.lastIndexOf('/') + 1)}
            </span>
            {t.dirty && (
              <span className="dirty" aria-label="unsaved changes" data-testid="dirty-marker">
                ●
              </span>
            )}
            <button
              className="tab-close"
              aria-label={`Close ${t.path}`}
              onClick={(e) => {
                e.stopPropagation();
                closeTab(t.key);
              }}
            >
              ×
            </button>
          </div>
        ))}
      </div>
      <div className="editor-body">
        {!active && <div className="empty-hint">Open a file from the tree.</div>}
        {active && <TabBody tab={active} />}
        {editorWanted && (
          <Suspense fallback={null}>
            <MonacoHost tab={active && active.kind === 'text' ? active : null} />
          </Suspense>
        )}
      </div>
    </section>
  );
}

function TabBody({ tab }: { tab: EditorTab }) {
  return (
    <>
      {tab.conflict && (
        <div className="banner warn" role="alert">
          {tab.path} changed in the sandbox while you have unsaved edits.
          <button onClick={() => void reloadTab(tab.key)}>Reload from sandbox</button>
          <button onClick={() => keepMine(tab.key)}>Keep my version</button>
        </div>
      )}
      {tab.message && <div className="banner info">{tab.message}</div>}
      {tab.kind === 'loading' && <div className="empty-hint">Loading {tab.path}…</div>}
      {tab.kind === 'error' && (
        <div className="empty-hint error" role="alert">
          Could not open {tab.path}: {tab.message}
        </div>
      )}
      {tab.kind === 'large' && (
        <div className="large-guard" role="alert">
          <p>
            <strong>{tab.path}</strong> is {formatBytes(tab.size)}, more than the{' '}
            {formatBytes(LARGE_FILE_BYTES)} editing limit.
          </p>
          <p>It can be opened read-only; this may take a moment.</p>
          <button className="primary" onClick={() => void openLarge(tab.key)}>
            Open read-only
          </button>
          <button onClick={() => closeTab(tab.key)}>Cancel</button>
        </div>
      )}
      {tab.kind === 'binary' && <HexView tab={tab} />}
    </>
  );
}

function HexView({ tab }: { tab: EditorTab }) {
  const bytes = binaryOf(tab.key) ?? new Uint8Array(0);
  const lines = hexDump(bytes);
  return (
    <div className="hex-view" aria-label="Binary file">
      <div className="hex-info">
        Binary file <code>{tab.path}</code>, {formatBytes(tab.size)}
        {bytes.length > 64 * 1024 ? ' (first 64 KiB shown)' : ''}
      </div>
      <pre>{lines.join('\n')}</pre>
    </div>
  );
}
