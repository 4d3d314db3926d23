/**
 * JSON-RPC 2.0 over one WebSocket (the web server's RPC_WS_PATH endpoint,
 * behind the same token, Origin and Host checks as the workbench's): one
 * message per text frame, replies and event notifications likewise.
 */
import type { RawData, WebSocket } from 'ws';
import type { SandglassEngine } from '../api/engine.js';
import { openRpcSession } from './session.js';

/** A client this far behind on replies and events is too slow to keep; it is disconnected. */
const MAX_BUFFERED_BYTES = 256 * 1024 * 1024;

export function serveRpcWebSocket(engine: SandglassEngine, ws: WebSocket): void {
  const session = openRpcSession(
    engine,
    (text) => {
      if (ws.readyState !== ws.OPEN) return;
      if (ws.bufferedAmount > MAX_BUFFERED_BYTES) ws.close(1013, 'client too slow');
      else ws.send(text);
    },
    { transport: 'jsonrpc-websocket', disconnect: () => ws.close(1000, 'stopped by a person') },
  );
  ws.on('message', (data: RawData, isBinary: boolean) => {
    if (isBinary) return session.refuse('binary frames are not accepted');
    void session.receive(data.toString());
  });
  ws.on('error', () => ws.terminate());
  ws.on('close', () => session.close());
}
