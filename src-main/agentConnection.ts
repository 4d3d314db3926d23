/**
 * The engine's MCP endpoint as the app shows it: the engine reports its URL
 * and token once it listens, and the Agents menu shows them with a Claude
 * Code command ready to copy.
 */
import { BrowserWindow, clipboard, dialog, Menu, MenuItem } from 'electron';

export interface McpEndpointInfo {
  readonly url: string;
  readonly token: string;
  readonly tokenFile: string;
}

let endpoint: McpEndpointInfo | null = null;

/** Takes the engine's `{type: 'mcp', ...}` message; ignores anything else. */
export function noteEngineMessage(message: unknown): void {
  if (typeof message !== 'object' || message === null) return;
  const m = message as Record<string, unknown>;
  if (
    m.type === 'mcp' &&
    typeof m.url === 'string' &&
    typeof m.token === 'string' &&
    typeof m.tokenFile === 'string'
  )
    endpoint = { url: m.url, token: m.token, tokenFile: m.tokenFile };
}

/** The engine stopped: its endpoint is gone until it starts again. */
export function forgetEndpoint(): void {
  endpoint = null;
}

async function showConnection(window: BrowserWindow | undefined): Promise<void> {
  if (!endpoint) {
    const text = 'The MCP endpoint is not running (the engine starts with the first window).';
    if (window) await dialog.showMessageBox(window, { message: text });
    else await dialog.showMessageBox({ message: text });
    return;
  }
  const command = `claude mcp add --transport http sandglass ${endpoint.url} --header "Authorization: Bearer $(cat ${endpoint.tokenFile})"`;
  const options = {
    title: 'Connect an agent (MCP)',
    message: `MCP endpoint: ${endpoint.url}`,
    detail:
      `Bearer token (also in ${endpoint.tokenFile}, readable only by you):\n${endpoint.token}\n\n` +
      `Claude Code:\n${command}\n\nOr over stdio, without the app: sandglass mcp\n\n` +
      `JSON-RPC (the SDKs' websocket mode) with the same token: ${new URL('/rpc', endpoint.url).href.replace(/^http/, 'ws')}`,
    buttons: ['Copy Claude Code command', 'Copy token', 'Close'],
    cancelId: 2,
  };
  const { response } = window
    ? await dialog.showMessageBox(window, options)
    : await dialog.showMessageBox(options);
  if (response === 0) clipboard.writeText(command);
  if (response === 1) clipboard.writeText(endpoint.token);
}

/** Adds an Agents menu to the application menu. */
export function installAgentsMenu(): void {
  const menu = Menu.getApplicationMenu() ?? new Menu();
  menu.append(
    new MenuItem({
      label: 'Agents',
      submenu: [
        {
          label: 'Connect an Agent (MCP)…',
          click: (_item, window) =>
            void showConnection(window instanceof BrowserWindow ? window : undefined),
        },
      ],
    }),
  );
  Menu.setApplicationMenu(menu);
}
