/**
 * `sandglass mcp`: an MCP server over stdio for agents (Claude Code, Codex,
 * Claude Desktop...). One process, one engine, any number of sandboxes, all
 * made and named by the agent's tool calls. stdout carries the protocol
 * only; anything else goes to stderr. Ends when the client closes stdin.
 */
import { parseArgs } from 'node:util';
import { parseAllowedImport, type AllowedImport } from '../mcp/hostImports.js';
import { UsageError, type CliIo } from './options.js';

export const MCP_USAGE =
  'usage: sandglass mcp [--max-output-bytes N] [--export-dir DIR] [--programs DIR] [--allow-import DIR[:ro]]...';

export interface McpArgs {
  readonly maxOutputBytes: number | undefined;
  /** Where timeline_export writes (default ~/.sandglass/exports). */
  readonly exportDir: string | undefined;
  readonly programsDir: string | undefined;
  /** Host folders agents may import into the sandboxes they create (`DIR` or `DIR:ro`). */
  readonly allowImports: readonly AllowedImport[];
}

/** Longest message accepted, in characters (a write_file of tens of MiB, as JSON). */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export function parseMcpArgs(args: readonly string[]): McpArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        'max-output-bytes': { type: 'string' },
        'export-dir': { type: 'string' },
        programs: { type: 'string' },
        'allow-import': { type: 'string', multiple: true },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const raw = values['max-output-bytes'];
  const n = raw === undefined ? undefined : Number(raw);
  if (n !== undefined && (!Number.isInteger(n) || n < 256 || n > 1024 * 1024))
    throw new UsageError(`--max-output-bytes: expected an integer from 256 to 1048576, got ${raw}`);
  let allowImports: AllowedImport[];
  try {
    allowImports = (values['allow-import'] ?? []).map(parseAllowedImport);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return {
    maxOutputBytes: n,
    exportDir: values['export-dir'],
    programsDir: values.programs,
    allowImports,
  };
}

export async function runMcp(args: McpArgs, io: CliIo): Promise<number> {
  const [
    { serveStdio, StdioServerTransport },
    { SandglassEngine },
    { connectAgent },
    { createMcpServer },
    { stdioGuard, StdioBatches },
  ] = await Promise.all([
    import('@modelcontextprotocol/server/stdio'),
    import('../api/engine.js'),
    import('../mcp/host.js'),
    import('../mcp/server.js'),
    import('../mcp/stdioGuard.js'),
  ]);
  const engine = new SandglassEngine(
    args.programsDir !== undefined ? { programsDir: args.programsDir } : {},
  );
  let stop: () => void = () => undefined;
  const host = connectAgent(engine, {
    transport: 'mcp-stdio',
    ...(args.maxOutputBytes !== undefined ? { limits: { outputBytes: args.maxOutputBytes } } : {}),
    ...(args.exportDir !== undefined ? { exportDir: args.exportDir } : {}),
    allowedImports: () => args.allowImports,
    // A person stopped this agent in the workbench: end the connection.
    disconnect: () => stop(),
  });
  const log = (e: Error): void => {
    io.stderr.write(`sandglass mcp: ${e.message.split('\n')[0] ?? ''}\n`);
  };
  // Lines that are not JSON-RPC are answered by the guard; the rest go to the
  // SDK, batches split into their messages (their replies gathered on the way out).
  const batches = new StdioBatches();
  batches.output.pipe(io.stdout, { end: false });
  const guarded = io.stdin.pipe(stdioGuard(batches, MAX_MESSAGE_BYTES));
  const transport = new StdioServerTransport(
    guarded,
    batches.output as unknown as NodeJS.WriteStream,
    {
      maxBufferSize: MAX_MESSAGE_BYTES * 2,
    },
  );
  const ended = new Promise<void>((done) => {
    stop = done;
    io.stdin.once('end', done);
    io.stdin.once('close', done);
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  const handle = serveStdio(() => createMcpServer(host), { transport, onerror: log });
  await ended;
  await handle.close().catch(() => undefined);
  // Whatever the server said last reaches stdout before the process ends.
  const flushed = new Promise<void>((done) => batches.output.once('end', done));
  batches.output.end();
  await flushed;
  host.close();
  await engine.dispose();
  return 0;
}
