/**
 * `sandglass rpc [--programs DIR]`: the engine as a JSON-RPC 2.0 server on
 * stdin/stdout, one message per line, for the SDKs and any agent that speaks
 * JSON-RPC. Stdout carries the protocol only; diagnostics go to stderr. The
 * process serves any number of sandboxes and ends (status 0) when stdin
 * closes, after answering what was asked.
 */
import { SandglassEngine } from '../api/engine.js';
import { serveRpcStream } from '../rpc/stdio.js';
import { parseSandboxOptions, UsageError, type CliIo } from './options.js';

export const RPC_USAGE = 'usage: sandglass rpc [--programs DIR]';

export interface RpcArgs {
  readonly programsDir: string | undefined;
}

export function parseRpcArgs(args: readonly string[]): RpcArgs {
  const { options, rest } = parseSandboxOptions(args, ['--programs']);
  if (rest.length > 0) throw new UsageError(`unexpected argument ${rest[0]}`);
  return { programsDir: options.programsDir };
}

export async function runRpc(args: RpcArgs, io: CliIo): Promise<number> {
  const engine = new SandglassEngine(
    args.programsDir !== undefined ? { programsDir: args.programsDir } : {},
  );
  try {
    await serveRpcStream(engine, io.stdin as AsyncIterable<Buffer | string>, io.stdout);
  } finally {
    await engine.dispose();
  }
  return 0;
}
