/**
 * An undici Agent that can only connect to addresses the gateway already
 * checked: its `lookup` answers from that list and never asks DNS again, so
 * a resolver that changes its answer (DNS rebinding) cannot move the
 * connection. The URL keeps its host name, so TLS sends it as SNI and checks
 * the certificate against it.
 */
import type { LookupAddress, LookupOneOptions, LookupAllOptions } from 'node:dns';
import type { SecureContextOptions } from 'node:tls';
import type { Socket } from 'node:net';
import type { Agent } from 'undici';
import { addressText, type IpAddress } from '../address.js';

export interface PinnedAgentOptions {
  hostname: string;
  addresses: IpAddress[];
  connectTimeoutMs: number;
  /** The port to connect to when it is not the URL's (curl --connect-to); TLS still checks `hostname`. */
  port?: number;
  /** Extra trust roots (tests; a corporate CA). Certificate checks stay on. */
  ca?: SecureContextOptions['ca'];
}

/** What an agent's one connection is: its two ends, and the HTTP version it answered with. */
interface ConnectionInfo {
  version: string | null;
  local: SocketEnd | null;
  remote: SocketEnd | null;
}

/** One end of a TCP connection (curl's %{local_ip}/%{local_port}, %{remote_ip}). */
export interface SocketEnd {
  address: string;
  port: number;
}

const connections = new WeakMap<Agent, ConnectionInfo>();

/**
 * The version of the response an agent's connection carried (`1.0`,
 * `1.1`), read from the status line's first bytes; `1.1` until one
 * arrived. undici parses the status line but does not hand the version
 * on, and curl -i / wget -S print it.
 */
export function responseVersion(agent: Agent): string {
  return connections.get(agent)?.version ?? '1.1';
}

/** The local and remote ends of an agent's connection, once connected. */
export function connectionEnds(agent: Agent): {
  local: SocketEnd | null;
  remote: SocketEnd | null;
} {
  const c = connections.get(agent);
  return { local: c?.local ?? null, remote: c?.remote ?? null };
}

function socketEnd(address: string | undefined, port: number | undefined): SocketEnd | null {
  return address && port !== undefined ? { address, port } : null;
}

/**
 * Watch a socket's first bytes for the status line's `HTTP/x.y` without
 * taking them from undici: its parser pulls with `socket.read()`, so the
 * wrapper sees each chunk it returns, and steps aside once it has seen
 * enough.
 */
function sniffVersion(socket: Socket, into: ConnectionInfo): void {
  const read = socket.read.bind(socket);
  let seen = '';
  socket.read = (size?: number): unknown => {
    const chunk: unknown = read(size);
    if (Buffer.isBuffer(chunk) && chunk.length > 0) {
      seen += chunk.subarray(0, 12 - seen.length).toString('latin1');
      const m = /^HTTP\/(\d(?:\.\d)?)[ \r\n]/.exec(seen);
      if (m || seen.length >= 12 || !'HTTP/'.startsWith(seen.slice(0, 5))) {
        into.version = m?.[1] ?? null;
        socket.read = read;
      }
    }
    return chunk;
  };
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

export async function pinnedAgent(opts: PinnedAgentOptions): Promise<Agent> {
  const { Agent, buildConnector } = await import('undici');
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
  const base = buildConnector({
    lookup,
    timeout: opts.connectTimeoutMs,
    rejectUnauthorized: true,
    ...(opts.ca ? { ca: opts.ca } : {}),
  });
  const seen: ConnectionInfo = { version: null, local: null, remote: null };
  const agent = new Agent({
    connections: 1,
    connect: (options, callback) =>
      base(
        opts.port === undefined ? options : { ...options, port: String(opts.port) },
        (err, socket) => {
          if (socket) {
            sniffVersion(socket, seen);
            seen.local = socketEnd(socket.localAddress, socket.localPort);
            seen.remote = socketEnd(socket.remoteAddress, socket.remotePort);
          }
          // The tuple type needs the two cases spelled out.
          if (err) callback(err, null);
          else callback(null, socket as Socket);
        },
      ),
  });
  connections.set(agent, seen);
  return agent;
}
