/**
 * The `sandglass` command line: subcommands dispatch here. `exec` runs one
 * program, `run` a shell script, `shell` an interactive session, `rpc` the
 * agent API as JSON-RPC on stdio, `mcp` MCP for agents on stdio, `serve`
 * the web workbench, `timeline` timeline files, `engine` a warm engine that
 * `run` and `exec` hand their commands to when it is running. Each subcommand's module is imported only when it runs (a CLI start pays for
 * what the command needs; the full usage text loads them all).
 */
import type { CliIo } from './options.js';

interface Subcommand {
  readonly usage: string;
  run(args: readonly string[], io: CliIo): Promise<number>;
}

interface Entry {
  readonly about: string;
  /** Runs one sandbox and ends (worker pool sized for that). */
  readonly oneShot: boolean;
  load(): Promise<Subcommand>;
}

const SUBCOMMANDS: Record<string, Entry> = {
  exec: {
    about: 'run one program in a fresh sandbox',
    oneShot: true,
    load: async () => {
      const m = await import('./exec.js');
      return { usage: m.EXEC_USAGE, run: (a, io) => m.runExec(m.parseExecArgs(a), io) };
    },
  },
  run: {
    about: 'run a shell script in a fresh sandbox',
    oneShot: true,
    load: async () => {
      const m = await import('./run.js');
      return { usage: m.RUN_USAGE, run: (a, io) => m.runScript(m.parseRunArgs(a), io) };
    },
  },
  shell: {
    about: 'open an interactive shell in a fresh sandbox',
    oneShot: false,
    load: async () => {
      const m = await import('./shell.js');
      return { usage: m.SHELL_USAGE, run: (a, io) => m.runShell(m.parseShellArgs(a), io) };
    },
  },
  rpc: {
    about: 'serve the agent API as JSON-RPC 2.0 on stdin/stdout (for the SDKs)',
    oneShot: false,
    load: async () => {
      const m = await import('./rpc.js');
      return { usage: m.RPC_USAGE, run: (a, io) => m.runRpc(m.parseRpcArgs(a), io) };
    },
  },
  timeline: {
    about: 'save, load, show and diff timeline files',
    oneShot: true,
    load: async () => {
      const m = await import('./timeline.js');
      return { usage: m.TIMELINE_USAGE, run: (a, io) => m.runTimeline(a, io) };
    },
  },
  serve: {
    about: 'serve the web workbench on 127.0.0.1 (prints its URL)',
    oneShot: false,
    load: async () => {
      const m = await import('./serve.js');
      return {
        usage: m.SERVE_USAGE,
        run: async (a) => {
          await m.runServe(m.parseServeArgs(a));
          // Keep serving: the server ends the process on SIGINT/SIGTERM.
          return new Promise<number>(() => {});
        },
      };
    },
  },
  engine: {
    about: 'keep a warm engine on a local socket for run and exec',
    oneShot: false,
    load: async () => {
      const m = await import('./engine.js');
      return { usage: m.ENGINE_USAGE, run: (a, io) => m.runEngine(m.parseEngineArgs(a), io) };
    },
  },
  mcp: {
    about: 'serve MCP (Model Context Protocol) over stdio for agents',
    oneShot: false,
    load: async () => {
      const m = await import('./mcp.js');
      return { usage: m.MCP_USAGE, run: (a, io) => m.runMcp(m.parseMcpArgs(a), io) };
    },
  },
};

async function usage(): Promise<string> {
  let text = 'usage: sandglass <command> [options]\n\ncommands:\n';
  for (const [name, { about, load }] of Object.entries(SUBCOMMANDS)) {
    const sub = await load();
    text += `  ${name.padEnd(8)} ${about}\n           ${sub.usage.replace('usage: ', '')}\n`;
  }
  return text;
}

/** Hands the command to a warm engine (`sandglass engine`) if one is running. */
async function runWarm(
  cmd: 'run' | 'exec',
  args: string[],
  io: CliIo,
): Promise<number | undefined> {
  const { findEngineSocket } = await import('./warm/socket.js');
  const socket = findEngineSocket();
  if (socket === undefined) return undefined;
  const { attachWarmEngine } = await import('./warm/attach.js');
  return attachWarmEngine(socket, { command: cmd, args, cwd: process.cwd() }, io);
}

export async function main(argv: readonly string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  const entry = cmd !== undefined && Object.hasOwn(SUBCOMMANDS, cmd) ? SUBCOMMANDS[cmd] : undefined;
  if (!entry) {
    if (cmd === undefined || cmd === '-h' || cmd === '--help' || cmd === 'help') {
      process.stdout.write(await usage());
      return cmd === undefined ? 2 : 0;
    }
    process.stderr.write(`sandglass: unknown command '${cmd}'\n${await usage()}`);
    return 2;
  }
  const io: CliIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
  if ((cmd === 'run' || cmd === 'exec') && process.env.SANDGLASS_ENGINE !== 'off') {
    const status = await runWarm(cmd, rest, io);
    if (status !== undefined) return status;
  }
  // Boot the first process worker while the subcommand's code loads: a
  // worker thread's bootstrap is the longest single step of a cold start.
  // One-shot commands keep one warm worker and start more only on demand
  // (a thread costs ~10 MB and ~40 ms of CPU); the shell and the server keep
  // the engine's usual warm pool.
  const { WorkerPool } = await import('../proc/node/workerPool.js');
  const pool = WorkerPool.acquireShared(
    entry.oneShot ? { warm: 1, idleMs: 10_000, refill: false } : undefined,
  );
  let sub: Subcommand | undefined;
  try {
    sub = await entry.load();
    return await sub.run(rest, io);
  } catch (e) {
    // Loaded already by any subcommand that got far enough to throw it.
    const { UsageError } = await import('./options.js');
    if (e instanceof UsageError && sub) {
      process.stderr.write(`sandglass ${cmd}: ${e.message}\n${sub.usage}\n`);
      return 2;
    }
    process.stderr.write(`sandglass: ${(e as Error).message}\n`);
    return 1;
  } finally {
    pool.unref();
  }
}
