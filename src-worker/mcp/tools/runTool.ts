/**
 * run: a command line in the sandbox's persistent default shell session (cd,
 * variables and functions carry over between calls), recorded as a step.
 * Output comes back capped per stream; when a stream was cut, the whole of
 * it is kept in the sandbox and its path returned. A command is killed when
 * the client cancels (progress while it runs: server.ts).
 */
import { capOutput } from '../output.js';
import { KEPT_OUTPUT_DIR } from '../../contract/constants.js';
import { defineTool, changes } from '../tool.js';
import { runInput, runOutput } from '../toolSchemas.js';
import { sandboxPath } from '../textFiles.js';

/** Where cut output is kept inside the sandbox. */
export const OUTPUT_DIR = KEPT_OUTPUT_DIR;

export const run = defineTool({
  name: 'run',
  title: 'Run a command',
  description:
    'Runs a bash command line in the sandbox’s persistent shell session, as in a terminal: cd, ' +
    'exported and plain variables, functions and aliases carry over from one call to the next. ' +
    'Returns stdout (first text block), stderr (a block starting "[stderr]") and the exit code. ' +
    'Each stream is cut to its head and tail past max_output_bytes (default 16 KiB); the whole ' +
    'output is then kept in the sandbox at stdout_path/stderr_path, to grep or read with read_file. ' +
    'Every call is a step in the sandbox’s timeline. Network requests need a person’s approval in ' +
    'the workbench unless the sandbox policy allows them; the call waits (with progress) meanwhile.',
  input: runInput,
  output: runOutput,
  // A command may reach hosts on the internet (when the policy or a person allows it).
  annotations: { ...changes({ destructive: true, idempotent: false }), openWorldHint: true },
  async run(args, call) {
    const { host } = call;
    const sandboxId = args.sandbox_id;
    const cap = args.max_output_bytes ?? host.limits.outputBytes;
    const { log } = call;
    log?.('info', { event: 'command_started', sandbox_id: sandboxId, command: args.command });
    // The sandbox's network requests while the command runs, allowed or refused.
    const stopListening = log
      ? host.onEvent((e) => {
          if (e.type !== 'network' || e.record.sandboxId !== sandboxId) return;
          const r = e.record;
          log(r.decision === 'allow' ? 'info' : 'warning', {
            event: r.decision === 'allow' ? 'network_allowed' : 'network_refused',
            sandbox_id: sandboxId,
            method: r.method,
            url: r.url,
            decided_by: r.decidedBy,
            ...(r.reason !== null ? { reason: r.reason } : {}),
          });
        })
      : undefined;
    const result = await host.engine
      .call(
        'run',
        {
          sandboxId,
          command: args.command,
          ...(args.cwd !== undefined ? { cwd: sandboxPath(args.cwd) } : {}),
          ...(args.env !== undefined ? { env: args.env } : {}),
          ...(args.stdin !== undefined ? { stdin: args.stdin } : {}),
          ...(args.timeout_ms !== undefined ? { timeoutMs: args.timeout_ms } : {}),
          ...(args.network_reason !== undefined ? { networkReason: args.network_reason } : {}),
          // A stream cut below is kept whole by the engine, inside the run's own step.
          keepOutputOver: cap,
        },
        host.client,
        { signal: call.signal },
      )
      .finally(stopListening);
    log?.(result.status === 0 ? 'info' : 'notice', {
      event: 'command_exited',
      sandbox_id: sandboxId,
      exit_code: result.status,
      duration_ms: Math.round(result.durationMs),
      ...(result.stepId !== undefined ? { step_id: result.stepId } : {}),
    });
    const stdout = capOutput(result.stdout, cap);
    const stderr = capOutput(result.stderr, cap);
    const stdoutPath = result.stdoutPath;
    const stderrPath = result.stderrPath;
    const structured = {
      exit_code: result.status,
      duration_ms: Math.round(result.durationMs),
      ...(result.stepId !== undefined ? { step_id: result.stepId } : {}),
      stdout_bytes: stdout.bytes,
      stderr_bytes: stderr.bytes,
      truncated: stdout.truncated || stderr.truncated,
      ...(stdoutPath !== undefined ? { stdout_path: stdoutPath } : {}),
      ...(stderrPath !== undefined ? { stderr_path: stderrPath } : {}),
    };
    const text: string[] = [];
    if (stdout.text !== '') text.push(stdout.text);
    if (stderr.text !== '') text.push(`[stderr]\n${stderr.text}`);
    text.push(JSON.stringify(structured));
    return { structured, text };
  },
});
