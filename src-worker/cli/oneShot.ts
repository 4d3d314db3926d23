/**
 * The one-shot subcommands, `run` and `exec`: what a script, CI job or
 * agent pays for on every command. Besides being part of the full command
 * line (`main.ts`), they are built on their own into one CommonJS file
 * (`out/cli/oneShot-*.cjs`, scripts/build-cli.mjs) that bin/sandglass.mjs
 * loads through a V8 code cache, so a cold start compiles none of the
 * engine's JavaScript. Nothing reachable from here may import an
 * ES-module-only package.
 */
import type { PrestartedWorker } from '../proc/node/workerPool.js';
import { processIo, runSubcommand, type SubcommandEntry } from './command.js';
import { adoptPreparedShell, writePreparedShell, type PreparedShell } from './preparedShell.js';

export const ONE_SHOT_COMMANDS: Record<'exec' | 'run', SubcommandEntry> = {
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
};

export function isOneShotCommand(cmd: string | undefined): cmd is 'exec' | 'run' {
  return cmd === 'exec' || cmd === 'run';
}

/**
 * `sandglass run ...` or `sandglass exec ...` (argv without the node and
 * script paths); `prestarted`: the process worker bin/sandglass.mjs booted
 * while this loaded; `shell`: the prepared shell it started compiling
 * (preparedShell.ts), rewritten after the command when missing or stale.
 */
export async function main(
  argv: readonly string[],
  prestarted?: PrestartedWorker,
  shell?: PreparedShell,
): Promise<number> {
  const [cmd, ...rest] = argv;
  if (!isOneShotCommand(cmd)) throw new Error(`not a one-shot command: ${String(cmd)}`);
  const adopted = shell !== undefined && adoptPreparedShell(shell);
  const status = await runSubcommand(cmd, ONE_SHOT_COMMANDS[cmd], rest, processIo(), prestarted);
  // Settled by now: a file V8 refused to compile is replaced like a missing one.
  const usable =
    adopted &&
    (await shell.module?.then(
      () => true,
      () => false,
    ));
  if (shell !== undefined && !usable) writePreparedShell(shell.dir);
  return status;
}
