/**
 * Web-mode entry: starts the engine in this Node process and serves the
 * workbench on 127.0.0.1. Prints the URL (with its token) on stdout.
 * Environment: SANDGLASS_PORT (default: a free port), SANDGLASS_RENDERER_DIR
 * (default: out/renderer next to this file's out/main), SANDGLASS_INFO_FILE
 * (writes {url, port, token, mcpUrl, mcpToken} as JSON, for tests),
 * SANDGLASS_PROGRAMS_DIR, SANDGLASS_MCP_TOKEN_FILE (the MCP bearer token's
 * file, default ~/.sandglass/mcp-token). /mcp serves MCP to agents.
 */
import { open } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SandglassEngine } from '../api/engine.js';
import { defaultTokenFile, loadOrCreateToken } from '../mcp/hostFiles.js';
import { startWebServer } from './webServer.js';

function parsePort(text: string | undefined): number {
  if (text === undefined || text === '') return 0;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`SANDGLASS_PORT must be a port number, got ${JSON.stringify(text)}`);
  return port;
}

async function main(): Promise<void> {
  const here = dirname(fileURLToPath(import.meta.url));
  const rendererDir = process.env.SANDGLASS_RENDERER_DIR ?? resolve(here, '../renderer');
  // Bundled as out/main/server.js: the programs live in <root>/resources/wasm.
  const engine = new SandglassEngine({
    programsDir: process.env.SANDGLASS_PROGRAMS_DIR ?? resolve(here, '../../resources/wasm'),
  });
  const tokenFile = defaultTokenFile();
  const mcpToken = await loadOrCreateToken(tokenFile);
  const server = await startWebServer({
    engine,
    rendererDir,
    port: parsePort(process.env.SANDGLASS_PORT),
    mcpToken,
    mcpTokenFile: tokenFile,
  });
  if (process.env.SANDGLASS_INFO_FILE) {
    await writePrivateFile(
      process.env.SANDGLASS_INFO_FILE,
      JSON.stringify({
        url: server.url,
        port: server.port,
        token: server.token,
        mcpUrl: server.mcpUrl,
        mcpToken,
      }),
    );
  }
  process.stdout.write(`Sandglass web workbench: ${server.url}\n`);
  process.stdout.write(`MCP endpoint: ${server.mcpUrl ?? ''} (bearer token in ${tokenFile})\n`);
  const stop = (): void => {
    void server
      .close()
      .then(() => engine.dispose())
      .finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`sandglass: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

/** The token opens every sandbox: the file is this user's only, also when it existed before. */
async function writePrivateFile(path: string, text: string): Promise<void> {
  const file = await open(path, 'w', 0o600);
  try {
    await file.chmod(0o600);
    await file.writeFile(text);
  } finally {
    await file.close();
  }
}
