/**
 * Engine entry for Electron's utilityProcess. Main sends one message per
 * renderer connection carrying a MessagePort; each port then speaks the
 * contract's wire messages (servePort.ts). Uses only the shape of Electron's
 * parentPort (declared here), so src-worker needs no Electron types.
 */
import { fileURLToPath } from 'node:url';
import { SandglassEngine } from '../engine.js';
import { servePort, type PortLike } from './servePort.js';

interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown; ports: PortLike[] }) => void): void;
  postMessage(message: unknown): void;
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
