/**
 * Engine entry for Electron's utilityProcess. Main sends one message per
 * renderer connection carrying a MessagePort; each port then speaks the
 * contract's wire messages (servePort.ts). Agents reach the same engine
 * over MCP on 127.0.0.1 (SANDGLASS_MCP_PORT, default 7717; the bearer token in
 * ~/.sandglass/mcp-token); main is told the URL to show it. Uses only the
 * shape of Electron's parentPort (declared here), so src-worker needs no
 * Electron types. Every sandbox is journaled in SANDGLASS_JOURNAL_DIR (set by
 * main): when main restarts a dead engine (SANDGLASS_RESTARTED=1), the new one
 * reloads the sandboxes that were alive from their journals first.
 */
import { fileURLToPath } from 'node:url';
import { startMcpHttpServer } from '../mcp/httpServer.js';
import { defaultTokenFile, loadOrCreateToken } from '../mcp/hostFiles.js';
import { readAllowedImports } from '../mcp/hostImports.js';
import { SandglassEngine } from '../api/engine.js';
import { servePort, type PortLike } from '../api/node/servePort.js';
import { JournalDir } from './journalDir.js';

interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown; ports: PortLike[] }) => void): void;
  postMessage(message: unknown): void;
}

async function main(): Promise<void> {
  const parentPort = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
  if (!parentPort) {
    process.stderr.write('sandglass engine: must run in an Electron utilityProcess\n');
    process.exit(2);
  }
  // Bundled as out/main/engine.js; packaged apps set SANDGLASS_PROGRAMS_DIR.
  const here = new URL('.', import.meta.url);
  const engine = new SandglassEngine({
    programsDir:
      process.env.SANDGLASS_PROGRAMS_DIR ?? fileURLToPath(new URL('../../resources/wasm', here)),
    restarted: process.env.SANDGLASS_RESTARTED === '1',
  });
  const journalDir = process.env.SANDGLASS_JOURNAL_DIR;
  if (journalDir) {
    const warn = (m: string): void => void process.stderr.write(`sandglass engine: ${m}\n`);
    const journals = new JournalDir(journalDir, engine, warn);
    await journals.recover();
    await journals.attach();
  }
  parentPort.on('message', ({ data, ports }) => {
    const kind =
      typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;
    const port = ports[0];
    if (kind === 'connect' && port) servePort(engine, port);
  });
  parentPort.postMessage({ type: 'ready' });
  // While the window loads: the first terminal then finds the shell compiled and workers booted.
  engine
    .warmUp()
    .catch((e: unknown) =>
      process.stderr.write(`sandglass engine: warm-up failed: ${(e as Error).message}\n`),
    );
  void serveMcp(engine, parentPort);
}

async function serveMcp(engine: SandglassEngine, parentPort: ParentPortLike): Promise<void> {
  const tokenFile = defaultTokenFile();
  try {
    const port = process.env.SANDGLASS_MCP_PORT;
    const token = await loadOrCreateToken(tokenFile);
    const server = await startMcpHttpServer({
      engine,
      token,
      ...(port ? { port: Number(port) } : {}),
      allowedImports: () => readAllowedImports(),
    });
    parentPort.postMessage({ type: 'mcp', url: server.url, token, tokenFile });
  } catch (err) {
    // The workbench works without it; agents can still use `sandglass mcp`.
    process.stderr.write(`sandglass engine: no MCP endpoint: ${(err as Error).message}\n`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`sandglass engine: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
