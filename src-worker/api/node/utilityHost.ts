/**
 * Engine entry for Electron's utilityProcess. Main sends one message per
 * renderer connection carrying a MessagePort; each port then speaks the
 * contract's wire messages. Uses only the shape of Electron's parentPort and
 * MessagePortMain (declared here), so src-worker needs no Electron types.
 */
import { fileURLToPath } from 'node:url';
import type { ServerMessage } from '../../contract/api.js';
import { connectTransport, failedReply } from '../dispatch.js';
import { SandglassEngine } from '../engine.js';

/** Structural view of Electron's MessagePortMain. */
interface PortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  on(event: 'close', listener: () => void): void;
  postMessage(message: unknown): void;
  start(): void;
  close(): void;
}

interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown; ports: PortLike[] }) => void): void;
  postMessage(message: unknown): void;
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
  const connection = connectTransport(engine, 'person', (event) => send({ type: 'event', event }));
  port.on('message', ({ data }) => {
    void connection.handle(data).then(send);
  });
  port.on('close', () => connection.close());
  port.start();
}

function main(): void {
  const parentPort = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
  if (!parentPort) {
    process.stderr.write('sandglass engine: must run in an Electron utilityProcess\n');
    process.exit(2);
  }
  // Bundled as out/main/engine.js; packaged apps set SANDGLASS_PROGRAMS_DIR.
  const here = new URL('.', import.meta.url);
  const engine = new SandglassEngine({
    programsDir:
      process.env.SANDGLASS_PROGRAMS_DIR ?? fileURLToPath(new URL('../../resources/wasm', here)),
  });
  parentPort.on('message', ({ data, ports }) => {
    const kind =
      typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;
    const port = ports[0];
    if (kind === 'connect' && port) servePort(engine, port);
  });
  parentPort.postMessage({ type: 'ready' });
}

main();
