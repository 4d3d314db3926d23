/**
 * Electron main: creates the workbench window with the settings from
 * security.ts, starts the engine in a utilityProcess and hands each renderer a
 * MessagePort connected straight to it. Main holds no sandbox state; it only
 * owns windows and native dialogs (and shows agents' MCP endpoint, which the
 * engine serves: agentConnection.ts).
 */
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  MessageChannelMain,
  type IpcMainEvent,
  type IpcMainInvokeEvent,
  session,
  utilityProcess,
  type UtilityProcess,
} from 'electron';
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHANNELS } from '../src-worker/contract/api.js';
import { SaveFileParams } from '../src-worker/contract/ipc.js';
import { forgetEndpoint, installAgentsMenu, noteEngineMessage } from './agentConnection.js';
import { Supervisor } from '../src-worker/server/supervisor.js';
import { windowSecurity } from './security.js';

/** The engine's utilityProcess, restarted when it dies while a window is open. */
let engine: Supervisor<UtilityProcess> | null = null;
/** Journals of this app session's sandboxes, so a restarted engine can reload them. */
const journalDir = mkdtempSync(join(tmpdir(), 'sandglass-journal-'));
let quitting = false;

function forkEngine(restarted: boolean): UtilityProcess {
  const child = utilityProcess.fork(join(import.meta.dirname, 'engine.js'), [], {
    serviceName: 'Sandglass engine',
    stdio: 'inherit',
    env: {
      ...process.env,
      SANDGLASS_JOURNAL_DIR: journalDir,
      ...(restarted ? { SANDGLASS_RESTARTED: '1' } : {}),
    },
  });
  child.on('message', noteEngineMessage);
  return child;
}

/** The running engine; a new supervised one when there is none (first window, or after giving up). */
function runningEngine(): UtilityProcess {
  if (!engine?.running)
    engine = new Supervisor({
      start: forkEngine,
      onCrash: () => forgetEndpoint(),
      shouldRestart: () => !quitting && app.isReady() && BrowserWindow.getAllWindows().length > 0,
      // Each window reloads: its preload connects to the new engine and the
      // page shows that the engine was restarted (hello says so).
      onRestart: () => {
        for (const window of BrowserWindow.getAllWindows()) window.webContents.reload();
      },
      onGiveUp: (code) =>
        dialog.showErrorBox(
          'Sandglass engine stopped',
          `The engine exited with code ${String(code)} and keeps stopping. Reload the window to try again.`,
        ),
    });
  return engine.child;
}

function connectRenderer(window: BrowserWindow): void {
  const { port1, port2 } = new MessageChannelMain();
  runningEngine().postMessage({ type: 'connect' }, [port1]);
  window.webContents.postMessage(CHANNELS.port, null, [port2]);
}

const appUrl =
  process.env.ELECTRON_RENDERER_URL ??
  pathToFileURL(join(import.meta.dirname, '../renderer/index.html')).href;

function isAppUrl(url: string): boolean {
  return !windowSecurity({ preloadPath: '', appUrl }).shouldPreventNavigation(url);
}

function createWindow(): void {
  const security = windowSecurity({
    preloadPath: join(import.meta.dirname, '../preload/preload.cjs'),
    appUrl,
  });
  const window = new BrowserWindow({
    width: 1400,
    height: 900,
    minWidth: 800,
    minHeight: 500,
    title: 'Sandglass',
    // Built as out/main/index.js: the tracked app icon lives in <root>/resources.
    icon: join(import.meta.dirname, '../../resources/icon.png'),
    show: false,
    webPreferences: security.webPreferences,
  });
  window.webContents.session.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [security.csp] },
    });
  });
  window.webContents.session.setPermissionRequestHandler((_wc, permission, callback) =>
    callback(security.allowPermission(permission)),
  );
  window.webContents.session.setPermissionCheckHandler((_wc, permission) =>
    security.allowPermission(permission),
  );
  window.webContents.on('will-navigate', (event, url) => {
    if (security.shouldPreventNavigation(url)) event.preventDefault();
  });
  window.webContents.on('will-redirect', (event, url) => {
    if (security.shouldPreventNavigation(url)) event.preventDefault();
  });
  window.webContents.setWindowOpenHandler(() => security.windowOpen());
  window.once('ready-to-show', () => window.show());
  void window.loadURL(appUrl);
}

/** IPC only from the app's own top frame (not a subframe or a navigated-away page). */
function trustedSender(event: IpcMainEvent | IpcMainInvokeEvent): BrowserWindow | null {
  const frame = event.senderFrame;
  const window = BrowserWindow.fromWebContents(event.sender);
  if (!frame || !window || frame !== event.sender.mainFrame) return null;
  return isAppUrl(frame.url) ? window : null;
}

ipcMain.on(CHANNELS.connect, (event) => {
  const window = trustedSender(event);
  if (window) connectRenderer(window);
});

ipcMain.handle(CHANNELS.saveDialog, async (event, params: unknown) => {
  const window = trustedSender(event);
  const parsed = SaveFileParams.safeParse(params);
  if (!window || !parsed.success) return false;
  const { defaultName, base64 } = parsed.data;
  const result = await dialog.showSaveDialog(window, {
    defaultPath: defaultName.replace(/[/\\]/g, '_'),
  });
  if (result.canceled || !result.filePath) return false;
  await writeFile(result.filePath, Buffer.from(base64, 'base64'));
  return true;
});

app.on('web-contents-created', (_event, contents) => {
  contents.on('will-attach-webview', (event) => event.preventDefault());
});

void app.whenReady().then(() => {
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) =>
    callback(false),
  );
  installAgentsMenu();
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});

app.on('before-quit', () => {
  quitting = true;
});

app.on('will-quit', () => {
  rmSync(journalDir, { recursive: true, force: true });
});

app.on('window-all-closed', () => {
  void engine?.stop();
  engine = null;
  if (process.platform !== 'darwin') app.quit();
});
