/** The two transports: the Electron preload bridge and the web-mode WebSocket. */
import {
  WS_PATH,
  type ClientMessage,
  type PreloadBridge,
  type ServerMessage,
} from '../../src-worker/contract/api.js';
import type { Transport } from './client.js';

declare global {
  interface Window {
    sandglass?: PreloadBridge;
  }
}

export function electronBridge(): PreloadBridge | null {
  return window.sandglass ?? null;
}

export function bridgeTransport(bridge: PreloadBridge): Transport {
  return {
    send: (message) => bridge.send(message),
    onMessage: (listener) => bridge.onMessage(listener),
    onClose: () => undefined,
  };
}

/** Connects to the engine over a WebSocket, using the token from the page URL. */
export function webSocketTransport(location: Location): Promise<Transport> {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(
    `${scheme}://${location.host}${WS_PATH}?token=${encodeURIComponent(token)}`,
  );
  const listeners = new Set<(message: ServerMessage) => void>();
  const closeListeners: ((reason: string) => void)[] = [];
  ws.addEventListener('message', (event: MessageEvent) => {
    if (typeof event.data !== 'string') return;
    let message: ServerMessage;
    try {
      message = JSON.parse(event.data) as ServerMessage;
    } catch {
      return;
    }
    for (const listener of listeners) listener(message);
  });
  return new Promise((resolve, reject) => {
    ws.addEventListener('open', () =>
      resolve({
        send: (message: ClientMessage) => ws.send(JSON.stringify(message)),
        onMessage: (listener) => {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
        onClose: (listener) => closeListeners.push(listener),
      }),
    );
    ws.addEventListener('close', (event) => {
      const reason = event.reason || 'connection to the engine closed';
      for (const listener of closeListeners) listener(reason);
      reject(
        new Error(
          token
            ? 'could not connect to the engine (was it stopped, or is the token stale?)'
            : 'no token in the page URL: open the URL printed by `npm start`',
        ),
      );
    });
  });
}
