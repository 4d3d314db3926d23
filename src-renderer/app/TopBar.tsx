/** Sandbox switcher and sandbox actions. */
import { useApp } from '../store/index.js';

export function TopBar() {
  const sandboxes = useApp((s) => s.sandboxes);
  const currentId = useApp((s) => s.currentId);
  const select = useApp((s) => s.selectSandbox);
  const create = useApp((s) => s.createSandbox);
  const rename = useApp((s) => s.renameSandbox);
  const destroy = useApp((s) => s.destroySandbox);
  const askText = useApp((s) => s.askText);
  const setSettingsOpen = useApp((s) => s.setSettingsOpen);
  const setHelpOpen = useApp((s) => s.setHelpOpen);
  const agentCount = useApp((s) => s.clients.filter((c) => c.role === 'agent').length);
  const agentPaused = useApp((s) => s.clients.some((c) => c.role === 'agent' && c.paused));
  const agentsOpen = useApp((s) => s.agentsOpen);
  const setAgentsOpen = useApp((s) => s.setAgentsOpen);
  const current = sandboxes.find((s) => s.id === currentId);

  return (
    <header className="topbar">
      <span className="brand" aria-label="Sandglass">
        Sandglass
      </span>
      <label className="switcher">
        <span className="sr-only">Sandbox</span>
        <select
          aria-label="Sandbox"
          value={currentId ?? ''}
          onChange={(e) => void select(e.target.value)}
          disabled={sandboxes.length === 0}
        >
          {sandboxes.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </label>
      <button
        onClick={async () => {
          const name = await askText('Name of the new sandbox', `sandbox ${sandboxes.length + 1}`);
          if (name) await create(name);
        }}
      >
        New sandbox
      </button>
      <button
        disabled={!current}
        onClick={async () => {
          if (!current) return;
          const name = await askText('Rename sandbox', current.name);
          if (name) await rename(current.id, name);
        }}
      >
        Rename
      </button>
      <button disabled={!current} onClick={() => setSettingsOpen(true)}>
        Settings
      </button>
      <button
        className="danger"
        disabled={!current}
        onClick={() => {
          if (current && window.confirm(`Destroy sandbox “${current.name}” and everything in it?`))
            void destroy(current.id);
        }}
      >
        Destroy
      </button>
      <span className="spacer" />
      <button
        aria-pressed={agentsOpen}
        title="Connected agents: watch, pause, resume, fork, stop"
        onClick={() => setAgentsOpen(!agentsOpen)}
      >
        Agents <span className="count">{agentCount}</span>
        {agentPaused && <span className="badge">paused</span>}
      </button>
      <button
        aria-label="Keyboard shortcuts"
        title="Keyboard shortcuts (F1)"
        onClick={() => setHelpOpen(true)}
      >
        ?
      </button>
    </header>
  );
}
