/**
 * The `sandglass` command line: subcommands dispatch here. `exec` runs one
 * program, `run` a shell script, `shell` an interactive session, `serve` the
 * web workbench.
 */
import { EXEC_USAGE, parseExecArgs, runExec } from './exec.js';
import { UsageError } from './options.js';
import { parseRunArgs, RUN_USAGE, runScript } from './run.js';
import { parseServeArgs, runServe, SERVE_USAGE } from './serve.js';
import { parseShellArgs, runShell, SHELL_USAGE } from './shell.js';

const USAGE = `usage: sandglass <command> [options]

commands:
  exec     run one program in a fresh sandbox
           ${EXEC_USAGE.replace('usage: ', '')}
  run      run a shell script in a fresh sandbox
           ${RUN_USAGE.replace('usage: ', '')}
  shell    open an interactive shell in a fresh sandbox
           ${SHELL_USAGE.replace('usage: ', '')}
  serve    serve the web workbench on 127.0.0.1 (prints its URL)
           ${SERVE_USAGE.replace('usage: ', '')}
`;

export async function main(argv: readonly string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case 'exec':
        return await runExec(parseExecArgs(rest), {
          stdin: process.stdin,
          stdout: process.stdout,
          stderr: process.stderr,
        });
      case 'run':
        return await runScript(parseRunArgs(rest), {
          stdin: process.stdin,
          stdout: process.stdout,
          stderr: process.stderr,
        });
      case 'shell':
        return await runShell(parseShellArgs(rest), {
          stdin: process.stdin,
          stdout: process.stdout,
          stderr: process.stderr,
        });
      case 'serve':
        await runServe(parseServeArgs(rest));
        // Keep serving: the server ends the process on SIGINT/SIGTERM.
        return await new Promise<number>(() => {});
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        process.stdout.write(USAGE);
        return cmd === undefined ? 2 : 0;
      default:
        process.stderr.write(`sandglass: unknown command '${cmd}'\n${USAGE}`);
        return 2;
    }
  } catch (e) {
    if (e instanceof UsageError) {
      const usage =
        cmd === 'run'
          ? RUN_USAGE
          : cmd === 'shell'
            ? SHELL_USAGE
            : cmd === 'serve'
              ? SERVE_USAGE
              : EXEC_USAGE;
      process.stderr.write(`sandglass ${cmd}: ${e.message}\n${usage}\n`);
      return 2;
    }
    process.stderr.write(`sandglass: ${(e as Error).message}\n`);
    return 1;
  }
}
