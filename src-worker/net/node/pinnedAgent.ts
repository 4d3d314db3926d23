/**
 * An undici Agent that can only connect to addresses the gateway already
 * checked: its `lookup` answers from that list and never asks DNS again, so
 * a resolver that changes its answer (DNS rebinding) cannot move the
 * connection. The URL keeps its host name, so TLS sends it as SNI and checks
 * the certificate against it.
 */
import type { LookupAddress, LookupOneOptions, LookupAllOptions } from 'node:dns';
import type { SecureContextOptions } from 'node:tls';
import type { Agent } from 'undici';
import { addressText, type IpAddress } from '../address.js';

export interface PinnedAgentOptions {
  hostname: string;
  addresses: IpAddress[];
  connectTimeoutMs: number;
  /** Extra trust roots (tests; a corporate CA). Certificate checks stay on. */
  ca?: SecureContextOptions['ca'];
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

export async function pinnedAgent(opts: PinnedAgentOptions): Promise<Agent> {
  const { Agent } = await import('undici');
  const answers: LookupAddress[] = opts.addresses.map((a) => ({
    address: addressText(a),
    family: a.kind() === 'ipv6' ? 6 : 4,
  }));
  const lookup = (
    hostname: string,
    options: LookupOneOptions | LookupAllOptions,
    callback: LookupCallback,
  ): void => {
    if (hostname !== opts.hostname || answers.length === 0) {
      const err: NodeJS.ErrnoException = new Error(`no checked address for ${hostname}`);
      err.code = 'ENOTFOUND';
      callback(err, '');
      return;
    }
    if (options.all) callback(null, answers);
    else callback(null, answers[0]!.address, answers[0]!.family);
  };
  return new Agent({
    connections: 1,
    connect: {
      lookup,
      timeout: opts.connectTimeoutMs,
      rejectUnauthorized: true,
      ...(opts.ca ? { ca: opts.ca } : {}),
    },
  });
}
