/**
 * The `sandglass` command line: subcommands dispatch here. `exec` runs one
 * program; `run` and `shell` arrive with the shell.
 */
import { EXEC_USAGE, parseExecArgs, runExec, UsageError } from './exec.js';

const USAGE = `usage: sandglass <command> [options]

commands:
  exec     run one program in a fresh sandbox
           ${EXEC_USAGE.replace('usage: ', '')}
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
      process.stderr.write(`sandglass ${cmd}: ${e.message}\n${EXEC_USAGE}\n`);
      return 2;
    }
    process.stderr.write(`sandglass: ${(e as Error).message}\n`);
    return 1;
  }
}
