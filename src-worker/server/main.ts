/**
 * Web-mode entry: serves the workbench on 127.0.0.1 and prints the URL (with
 * its token) on stdout. The engine and web server run in a child process this
 * one supervises (supervisor.ts): if the engine dies, a new one starts on the
 * same port and token, reloads the sandboxes that were alive from their
 * timeline journals (journalDir.ts) and tells the reconnecting workbench that
 * it was restarted.
 * Environment: SANDGLASS_PORT (default: a free port), SANDGLASS_RENDERER_DIR
 * (default: out/renderer next to this file's out/main), SANDGLASS_INFO_FILE
 * (writes {url, port, token, mcpUrl, mcpToken, enginePid} as JSON, for
 * tests; rewritten after a restart), SANDGLASS_PROGRAMS_DIR,
 * SANDGLASS_MCP_TOKEN_FILE (the MCP bearer token's file, default
 * ~/.sandglass/mcp-token), SANDGLASS_JOURNAL_DIR (default: a private
 * temporary directory removed on a clean stop). /mcp serves MCP to agents.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SandglassEngine } from '../api/engine.js';
import { defaultTokenFile, loadOrCreateToken } from '../mcp/hostFiles.js';
import { JournalDir } from './journalDir.js';
import { Supervisor } from './supervisor.js';
import { startWebServer } from './webServer.js';

/** What the engine child tells the supervisor once it listens. */
interface Listening {
  type: 'listening';
  url: string;
  port: number;
  token: string;
  mcpUrl: string | undefined;
  mcpToken: string;
}

function parsePort(text: string | undefined): number {
  if (text === undefined || text === '') return 0;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`SANDGLASS_PORT must be a port number, got ${JSON.stringify(text)}`);
  return port;
}

/** The engine child: engine, journals and web server in one process. */
async function engineMain(): Promise<void> {
  const here = dirname(fileURLToPath(import.meta.url));
  const rendererDir = process.env.SANDGLASS_RENDERER_DIR ?? resolve(here, '../renderer');
  const restarted = process.env.SANDGLASS_RESTARTED === '1';
  // Bundled as out/main/server.js: the programs live in <root>/resources/wasm.
  const engine = new SandglassEngine({
    programsDir: process.env.SANDGLASS_PROGRAMS_DIR ?? resolve(here, '../../resources/wasm'),
    restarted,
  });
  const warn = (m: string): void => void process.stderr.write(`sandglass: ${m}\n`);
  const journals = new JournalDir(process.env.SANDGLASS_JOURNAL_DIR as string, engine, warn);
  const recovered = await journals.recover();
  if (recovered.length > 0)
    warn(`reloaded ${String(recovered.length)} sandbox(es) from their timeline journals`);
  await journals.attach();
  const tokenFile = defaultTokenFile();
  const mcpToken = await loadOrCreateToken(tokenFile);
  const server = await startWebServer({
    engine,
    rendererDir,
    port: parsePort(process.env.SANDGLASS_PORT),
    ...(process.env.SANDGLASS_TOKEN ? { token: process.env.SANDGLASS_TOKEN } : {}),
    mcpToken,
    mcpTokenFile: tokenFile,
  });
  const listening: Listening = {
    type: 'listening',
    url: server.url,
    port: server.port,
    token: server.token,
    mcpUrl: server.mcpUrl,
    mcpToken,
  };
  process.send?.(listening);
  // While the page loads: the first terminal then finds the shell compiled and workers booted.
  engine.warmUp().catch((e: unknown) => warn(`warm-up failed: ${(e as Error).message}`));
  const stop = (): void => {
    journals.clear();
    journals.close();
    void server
      .close()
      .then(() => engine.dispose())
      .finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** The supervisor: starts the engine child, restarts it when it dies, prints the URL once. */
function superviseMain(): void {
  const own = process.env.SANDGLASS_JOURNAL_DIR === undefined;
  const journalDir = own
    ? mkdtempSync(join(tmpdir(), 'sandglass-journal-'))
    : (process.env.SANDGLASS_JOURNAL_DIR as string);
  let first: Listening | undefined;
  const supervisor = new Supervisor({
    start: (restarted) => {
      const child = fork(process.argv[1] as string, process.argv.slice(2), {
        env: {
          ...process.env,
          SANDGLASS_ENGINE_CHILD: '1',
          SANDGLASS_JOURNAL_DIR: journalDir,
          ...(first ? { SANDGLASS_PORT: String(first.port), SANDGLASS_TOKEN: first.token } : {}),
          ...(restarted ? { SANDGLASS_RESTARTED: '1' } : {}),
        },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      child.on('message', (m: Listening) => {
        if (m.type !== 'listening') return;
        void announce(m, child.pid ?? 0, first === undefined);
        first ??= m;
      });
      return child;
    },
    onCrash: (code, signal) =>
      process.stderr.write(
        `sandglass: the engine stopped unexpectedly (${signal ?? `exit code ${String(code)}`}); restarting it\n`,
      ),
    onGiveUp: () => {
      process.stderr.write('sandglass: the engine keeps stopping; giving up\n');
      process.exit(1);
    },
  });
  const stop = (): void => {
    void supervisor.stop().finally(() => {
      if (own) rmSync(journalDir, { recursive: true, force: true });
      process.exit(0);
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function announce(m: Listening, enginePid: number, firstStart: boolean): Promise<void> {
  if (process.env.SANDGLASS_INFO_FILE) {
    const { url, port, token, mcpUrl, mcpToken } = m;
    await writePrivateFile(
      process.env.SANDGLASS_INFO_FILE,
      JSON.stringify({ url, port, token, mcpUrl, mcpToken, enginePid }),
    );
  }
  if (!firstStart) return;
  process.stdout.write(`Sandglass web workbench: ${m.url}\n`);
  process.stdout.write(`MCP endpoint: ${m.mcpUrl ?? ''} (bearer token in ${defaultTokenFile()})\n`);
}

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

if (process.env.SANDGLASS_ENGINE_CHILD === '1') {
  engineMain().catch((err: unknown) => {
    process.stderr.write(`sandglass: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
} else {
  superviseMain();
}
