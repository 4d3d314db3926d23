/**
 * How an agent attaches to this web workbench over MCP: the /mcp URL and its
 * bearer token, asked of the server with the page's own token (the MCP token
 * travels in the response body only, never in a URL or a log). The token is
 * hidden until a person asks; the Claude Code command reads it from its file
 * so the command itself holds no secret. The desktop app shows the same in
 * its Agents menu.
 */
import { useEffect, useState } from 'react';
import { electronBridge } from '../api/transports.js';

export interface AgentConnection {
  readonly mcpUrl: string;
  readonly token: string;
  readonly tokenFile?: string;
}

/** The Claude Code command for this endpoint; the token comes from its file when known. */
export function claudeCommand(c: AgentConnection): string {
  const bearer = c.tokenFile !== undefined ? `$(cat ${c.tokenFile})` : c.token;
  return `claude mcp add --transport http sandglass ${c.mcpUrl} --header "Authorization: Bearer ${bearer}"`;
}

async function fetchConnection(search: string): Promise<AgentConnection | string> {
  try {
    const res = await fetch(`/agent-connection${search}`, { cache: 'no-store' });
    if (!res.ok) return `the server does not serve MCP (HTTP ${res.status})`;
    return (await res.json()) as AgentConnection;
  } catch (err) {
    return `could not ask the server: ${(err as Error).message}`;
  }
}

export function ConnectAgent() {
  const web = electronBridge() === null;
  const [connection, setConnection] = useState<AgentConnection | string | null>(null);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!web) return;
    let live = true;
    void fetchConnection(window.location.search).then((c) => live && setConnection(c));
    return () => {
      live = false;
    };
  }, [web]);
  if (!web || connection === null) return null;
  if (typeof connection === 'string')
    return <div className="agent-connect empty-hint">MCP: {connection}</div>;
  const copy = (text: string) => void navigator.clipboard?.writeText(text);
  return (
    <section className="agent-connect" aria-label="Connect an agent (MCP)">
      <div className="agent-meta">MCP endpoint</div>
      <code data-testid="mcp-url">{connection.mcpUrl}</code>
      <div className="agent-meta">
        Bearer token{connection.tokenFile !== undefined ? ` (also in ${connection.tokenFile})` : ''}
      </div>
      <code data-testid="mcp-token">{shown ? connection.token : '•'.repeat(16)}</code>
      <div className="agent-actions">
        <button onClick={() => setShown(!shown)}>{shown ? 'Hide token' : 'Show token'}</button>
        <button onClick={() => copy(connection.token)}>Copy token</button>
        <button onClick={() => copy(claudeCommand(connection))}>Copy Claude Code command</button>
      </div>
    </section>
  );
}
