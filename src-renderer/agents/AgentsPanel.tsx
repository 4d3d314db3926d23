/**
 * The Agents view: every connected agent (name, transport, since when, what
 * it runs), its sandboxes, and what a person can do about it — open one of
 * its sandboxes (its steps appear live in the steps panel and its terminal
 * can be taken over), pause it (its next call waits), resume, fork its
 * sandbox to try something else, or stop it (disconnected, its running
 * command killed).
 */
import { useEffect, useState } from 'react';
import type { ClientInfo } from '../../src-worker/contract/api.js';
import { useApp } from '../store/index.js';
import { agentsOf, connectedFor } from './agentsSlice.js';
import { ConnectAgent } from './ConnectAgent.js';

function useNow(periodMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), periodMs);
    return () => clearInterval(timer);
  }, [periodMs]);
  return now;
}

function AgentCard({ agent, now }: { agent: ClientInfo; now: number }) {
  const sandboxes = useApp((s) => s.sandboxes);
  const currentId = useApp((s) => s.currentId);
  const { selectSandbox, pauseAgent, resumeAgent, stopAgent, forkAgentSandbox, setAgentsOpen } =
    useApp.getState();
  const state = agent.paused ? 'paused' : agent.running !== null ? 'running' : 'idle';
  return (
    <li className={`agent ${state}`} data-client-id={agent.id} aria-label={`Agent ${agent.name}`}>
      <div className="agent-head">
        <span className={`agent-dot ${state}`} aria-hidden="true" />
        <strong className="agent-name">{agent.name}</strong>
        <span className="agent-state" data-testid="agent-state">
          {state}
        </span>
      </div>
      <div className="agent-meta">
        {agent.transport} · connected {connectedFor(agent.since, now)} · {agent.calls} calls
      </div>
      {agent.running !== null && (
        <code className="agent-running" title={agent.running}>
          {agent.running}
        </code>
      )}
      <ul className="agent-sandboxes" aria-label="Its sandboxes">
        {agent.sandboxes.length === 0 && <li className="empty-hint">no sandbox yet</li>}
        {agent.sandboxes.map((id) => {
          const info = sandboxes.find((s) => s.id === id);
          return (
            <li key={id} className={id === currentId ? 'current' : ''}>
              <button
                className="link"
                title="Show this sandbox: its steps appear live, its terminal can be taken over"
                onClick={() => {
                  void selectSandbox(id);
                  setAgentsOpen(false);
                }}
              >
                {info?.name ?? id}
              </button>
              <button
                title="Fork this sandbox from its latest step"
                onClick={() => void forkAgentSandbox(id)}
              >
                Fork
              </button>
            </li>
          );
        })}
      </ul>
      <div className="agent-actions">
        {agent.paused ? (
          <button onClick={() => void resumeAgent(agent.id)}>Resume</button>
        ) : (
          <button onClick={() => void pauseAgent(agent.id)}>Pause</button>
        )}
        <button
          className="danger"
          onClick={() => {
            if (
              window.confirm(
                `Stop agent “${agent.name}”? It is disconnected and its running command killed.`,
              )
            )
              void stopAgent(agent.id);
          }}
        >
          Stop
        </button>
      </div>
    </li>
  );
}

export function AgentsPanel() {
  const open = useApp((s) => s.agentsOpen);
  const clients = useApp((s) => s.clients);
  const setOpen = useApp((s) => s.setAgentsOpen);
  const now = useNow(5000);
  if (!open) return null;
  const agents = agentsOf(clients);
  const people = clients.length - agents.length;
  return (
    <aside className="agents-drawer" aria-label="Agents" role="complementary">
      <div className="pane-header">
        <span className="pane-title">Agents</span>
        <span className="count">{agents.length}</span>
        <span className="spacer" />
        <button aria-label="Close agents" onClick={() => setOpen(false)}>
          ×
        </button>
      </div>
      <ConnectAgent />
      <ul className="agents-list">
        {agents.length === 0 && (
          <li className="empty-hint">
            No agent is connected. Agents attach through MCP (`sandglass mcp`, /mcp) or JSON-RPC
            (`sandglass rpc`, /rpc, the SDKs).
          </li>
        )}
        {agents.map((agent) => (
          <AgentCard key={agent.id} agent={agent} now={now} />
        ))}
      </ul>
      <div className="agents-foot">
        {people} workbench {people === 1 ? 'window' : 'windows'} connected
      </div>
    </aside>
  );
}
