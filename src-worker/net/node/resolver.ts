/**
 * Name resolution for the gateway: an injectable function (tests answer from
 * a table, so no test ever asks a real DNS server) with the system resolver
 * (getaddrinfo, all addresses) as the default.
 */
import { lookup } from 'node:dns/promises';

/** Every address `hostname` resolves to, as text; rejects when there is none. */
export type Resolver = (hostname: string, signal: AbortSignal) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => a.address);
};
