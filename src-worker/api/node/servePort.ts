/**
 * Serves the engine over one MessagePort (Electron's MessagePortMain, by its
 * shape only, so src-worker needs no Electron types). The port's client is a
 * person (the workbench); a message that cannot be posted becomes an error
 * reply, never an exception that ends the engine.
 */
import type { ServerMessage } from '../../contract/api.js';
import { connectTransport, failedReply } from '../dispatch.js';
import type { SandglassEngine } from '../engine.js';

/** Structural view of Electron's MessagePortMain. */
export interface PortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  on(event: 'close', listener: () => void): void;
  postMessage(message: unknown): void;
  start(): void;
  close(): void;
}

/** Serves the engine over one port until it closes. */
export function servePort(engine: SandglassEngine, port: PortLike): void {
  const send = (message: ServerMessage): void => {
    try {
      port.postMessage(message);
    } catch (err) {
      // A message that cannot be cloned becomes an error reply; a closed port is cleaned up on close.
      try {
        port.postMessage(failedReply(message, 'E2BIG', `reply cannot be sent: ${String(err)}`));
      } catch {
        // The renderer went away.
      }
    }
  };
  // The Electron workbench is a person's client.
  const connection = connectTransport(engine, 'person', (event) => send({ type: 'event', event }), {
    name: 'workbench',
    transport: 'ipc',
  });
  port.on('message', ({ data }) => {
    void connection.handle(data).then(send);
  });
  port.on('close', () => connection.close());
  port.start();
}
