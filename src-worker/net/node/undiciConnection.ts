/**
 * A hop's connection through undici (https: TLS with certificate checks, SNI
 * from the URL's name) on a pinned agent that only reaches checked addresses.
 */
import { Readable } from 'node:stream';
import type { Connection, SendRequest } from './connection.js';
import { dispatch, type DispatchedResponse } from './dispatch.js';
import {
  connectionEnds,
  pinnedAgent,
  responseVersion,
  type PinnedAgentOptions,
  type SocketEnd,
} from './pinnedAgent.js';
import { pathAndQuery } from '../target.js';

export async function undiciConnection(opts: PinnedAgentOptions): Promise<Connection> {
  const agent = await pinnedAgent(opts);
  return {
    send(req: SendRequest, signal: AbortSignal): Promise<DispatchedResponse> {
      const { body } = req;
      return dispatch(
        agent,
        {
          origin: req.url.origin,
          path: pathAndQuery(req.url),
          method: req.method,
          headers: req.headers.flat(),
          body:
            body instanceof Uint8Array || body === null
              ? body
              : Readable.from(body, { objectMode: false, highWaterMark: 64 * 1024 }),
          // The exchange's own deadline covers waiting for the head and the body.
          headersTimeout: 0,
          bodyTimeout: 0,
        },
        signal,
      );
    },
    get httpVersion(): string {
      return responseVersion(agent);
    },
    get local(): SocketEnd | null {
      return connectionEnds(agent).local;
    },
    get remote(): SocketEnd | null {
      return connectionEnds(agent).remote;
    },
    pausesAnywhere: false,
    close: () => void agent.close().catch(() => {}),
    destroy: () => void agent.destroy().catch(() => {}),
  };
}
