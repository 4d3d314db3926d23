import { describe, expect, it } from 'vitest';
import { claudeCommand } from './ConnectAgent.js';

describe('the Claude Code command shown in the Agents view', () => {
  it('reads the token from its file, so the command holds no secret', () => {
    const c = {
      mcpUrl: 'http://127.0.0.1:5173/mcp',
      token: 'SECRET',
      tokenFile: '/h/.sandglass/mcp-token',
    };
    expect(claudeCommand(c)).toBe(
      'claude mcp add --transport http sandglass http://127.0.0.1:5173/mcp --header "Authorization: Bearer $(cat /h/.sandglass/mcp-token)"',
    );
    expect(claudeCommand(c)).not.toContain('SECRET');
    expect(claudeCommand({ mcpUrl: c.mcpUrl, token: 'T' })).toContain('Bearer T"');
  });
});
