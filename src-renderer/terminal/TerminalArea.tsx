/** Terminal tabs of the current sandbox; other sandboxes' terminals stay alive, hidden. */
import { useCallback } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useApp } from '../store/index.js';
import { ReplayTerminal } from '../timeline/ReplayTerminal.js';
import { XtermView } from './XtermView.js';

export function TerminalArea() {
  const currentId = useApp((s) => s.currentId);
  const terminals = useApp(useShallow((s) => s.terminals));
  const active = useApp((s) => (s.currentId ? s.activeTerminal[s.currentId] : undefined));
  const { addTerminal, activateTerminal, removeTerminal } = useApp.getState();
  const visible = terminals.filter((t) => t.sandboxId === currentId);
  const onExit = useCallback(() => undefined, []);
  const replay = useApp((s) => (s.currentId ? s.replay[s.currentId] === true : false));

  return (
    <section className="pane terminal-pane" aria-label="Terminal">
      <div className="tabs" role="tablist" aria-label="Terminal tabs">
        {visible.map((t) => (
          <div
            key={t.key}
            role="tab"
            aria-selected={t.key === active}
            className={`tab ${t.key === active ? 'active' : ''}`}
            onClick={() => currentId && activateTerminal(currentId, t.key)}
          >
            <span className="tab-name">{t.title}</span>
            <button
              className="tab-close"
              aria-label={`Close ${t.title}`}
              onClick={(e) => {
                e.stopPropagation();
                removeTerminal(t.key);
              }}
            >
              ×
            </button>
          </div>
        ))}
        {replay && (
          <div role="tab" aria-selected className="tab active" title="Recorded output, read-only">
            <span className="tab-name">recording</span>
          </div>
        )}
        <button
          hidden={replay}
          className="tab-add"
          aria-label="New terminal"
          title="New terminal (Alt+T)"
          disabled={!currentId || replay}
          onClick={() => currentId && addTerminal(currentId)}
        >
          +
        </button>
      </div>
      <div className="terminal-body">
        {replay && currentId && <ReplayTerminal sandboxId={currentId} />}
        {terminals.map((t) => (
          <XtermView
            key={t.key}
            tabKey={t.key}
            sandboxId={t.sandboxId}
            visible={t.sandboxId === currentId && t.key === active}
            onExit={onExit}
          />
        ))}
        {visible.length === 0 && !replay && (
          <div className="empty-hint">No terminal. Press Alt+T or + to open one.</div>
        )}
      </div>
    </section>
  );
}
