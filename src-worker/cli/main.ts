/**
 * The `sandglass` command line: subcommands dispatch here. `exec` runs one
 * program, `run` a shell script, `shell` an interactive session, `rpc` the
 * agent API as JSON-RPC on stdio, `mcp` MCP for agents on stdio, `serve`
 * the web workbench, `timeline` timeline files, `engine` a warm engine that
 * `run` and `exec` hand their commands to when it is running. Each
 * subcommand's module is imported only when it runs (a CLI start pays for
 * what the command needs; the full usage text loads them all). `run` and
 * `exec` come from `oneShot.ts`, which bin/sandglass.mjs also loads on its
 * own, compiled from a code cache.
 */
import { processIo, runSubcommand, type SubcommandEntry } from './command.js';
import { ONE_SHOT_COMMANDS } from './oneShot.js';

const SUBCOMMANDS: Record<string, SubcommandEntry> = {
  ...ONE_SHOT_COMMANDS,
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
  return runSubcommand(cmd, entry, rest, processIo());
}
