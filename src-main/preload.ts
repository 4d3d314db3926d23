/**
 * Preload: exposes only the typed bridge (PreloadBridge) on `window.sandglass`.
 * It receives a MessagePort to the engine from main and checks every channel
 * against the contract's `sandglass:` prefix.
 */
import { contextBridge, ipcRenderer } from 'electron';
import {
  API_VERSION,
  CHANNELS,
  type ClientMessage,
  type PreloadBridge,
  type SaveFileParams,
  type ServerMessage,
} from '../src-worker/contract/api.js';
import { isSandglassChannel } from '../src-worker/contract/constants.js';

function channel(name: string): string {
  if (!isSandglassChannel(name)) throw new Error(`refused channel ${name}`);
  return name;
}

let port: MessagePort | null = null;
const queued: ClientMessage[] = [];
const listeners = new Set<(message: ServerMessage) => void>();

ipcRenderer.on(channel(CHANNELS.port), (event) => {
  const received = event.ports[0];
  if (!received) return;
  port = received;
  port.onmessage = (e: MessageEvent) => {
    for (const listener of listeners) listener(e.data as ServerMessage);
  };
  port.start();
  for (const message of queued.splice(0)) port.postMessage(message);
});
ipcRenderer.send(channel(CHANNELS.connect));

const bridge: PreloadBridge = {
  apiVersion: API_VERSION,
  send(message: ClientMessage): void {
    if (port) port.postMessage(message);
    else queued.push(message);
  },
  onMessage(listener: (message: ServerMessage) => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  saveFile(params: SaveFileParams): Promise<boolean> {
    return ipcRenderer.invoke(channel(CHANNELS.saveDialog), params) as Promise<boolean>;
  },
};

contextBridge.exposeInMainWorld('sandglass', bridge);
