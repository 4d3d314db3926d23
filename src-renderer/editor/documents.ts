/**
 * Open documents: loading files into Monaco models (or a hex view), saving,
 * the large-file guard, and reacting to changes made underneath.
 */
import type { FsChange } from '../../src-worker/contract/api.js';
import { api } from '../store/apiHandle.js';
import { tabKey, type EditorTab } from '../store/editorSlice.js';
import { base64ToBytes, bytesToBase64 } from '../store/filesSlice.js';
import { useApp } from '../store/index.js';
import { describeError } from '../store/notifySlice.js';
import { decodeText, LARGE_FILE_BYTES } from './fileKind.js';
import type * as monaco from 'monaco-editor';
import { loadMonaco } from './loadMonaco.js';

const models = new Map<string, monaco.editor.ITextModel>();
const savedVersion = new Map<string, number>();
const binaries = new Map<string, Uint8Array>();

export function modelOf(key: string): monaco.editor.ITextModel | null {
  return models.get(key) ?? null;
}

export function binaryOf(key: string): Uint8Array | null {
  return binaries.get(key) ?? null;
}

function tab(key: string): EditorTab | undefined {
  return useApp.getState().tabs.find((t) => t.key === key);
}

/** Opens (or focuses) a file in an editor tab. */
export async function openFile(path: string, snapshotId: string | null = null): Promise<void> {
  const app = useApp.getState();
  const sandboxId = app.currentId;
  if (!sandboxId) return;
  const key = tabKey(sandboxId, path, snapshotId);
  if (tab(key)) {
    app.activateTab(key);
    return;
  }
  app.upsertTab({
    key,
    sandboxId,
    path,
    snapshotId,
    kind: 'loading',
    dirty: false,
    conflict: false,
    readOnly: snapshotId !== null,
    size: 0,
    message: null,
  });
  try {
    const stat = await api().stat(
      snapshotId ? { sandboxId, path, snapshotId } : { sandboxId, path },
    );
    if (stat.kind === 'dir') throw new Error(`${path} is a directory`);
    if (stat.size > LARGE_FILE_BYTES) {
      useApp.getState().patchTab(key, { kind: 'large', size: stat.size, readOnly: true });
      return;
    }
    await load(key, false);
  } catch (err) {
    useApp.getState().patchTab(key, { kind: 'error', message: describeError(err) });
  }
}

/** Loads a guarded large file read-only after the user confirmed. */
export function openLarge(key: string): Promise<void> {
  useApp.getState().patchTab(key, { kind: 'loading' });
  return load(key, true).catch((err: unknown) =>
    useApp.getState().patchTab(key, { kind: 'error', message: describeError(err) }),
  );
}

async function load(key: string, large: boolean): Promise<void> {
  const t = tab(key);
  if (!t) return;
  const { sandboxId, path, snapshotId } = t;
  const file = await api().readFile(
    snapshotId ? { sandboxId, path, snapshotId } : { sandboxId, path },
  );
  const bytes = base64ToBytes(file.base64);
  const text = decodeText(bytes);
  if (!tab(key)) return;
  if (text === null) {
    binaries.set(key, bytes);
    useApp.getState().patchTab(key, { kind: 'binary', size: bytes.length, readOnly: true });
    return;
  }
  const { monaco, languageFor } = await loadMonaco();
  if (!tab(key)) return;
  const uri = monaco.Uri.from({
    scheme: 'sandbox',
    authority: sandboxId,
    path,
    query: snapshotId ?? '',
  });
  const model =
    monaco.editor.getModel(uri) ?? monaco.editor.createModel(text, languageFor(path), uri);
  if (model.getValue() !== text) model.setValue(text);
  models.set(key, model);
  savedVersion.set(key, model.getAlternativeVersionId());
  model.onDidChangeContent(() => {
    const dirty = model.getAlternativeVersionId() !== savedVersion.get(key);
    const current = tab(key);
    if (current && current.dirty !== dirty) useApp.getState().patchTab(key, { dirty });
  });
  useApp
    .getState()
    .patchTab(key, { kind: 'text', size: bytes.length, readOnly: snapshotId !== null || large });
}

export async function saveTab(key: string): Promise<boolean> {
  const t = tab(key);
  const model = models.get(key);
  if (!t || !model || t.readOnly) return false;
  const version = model.getAlternativeVersionId();
  try {
    await api().writeFile({
      sandboxId: t.sandboxId,
      path: t.path,
      base64: bytesToBase64(new TextEncoder().encode(model.getValue())),
    });
    savedVersion.set(key, version);
    useApp
      .getState()
      .patchTab(key, { dirty: model.getAlternativeVersionId() !== version, conflict: false });
    return true;
  } catch (err) {
    useApp.getState().notify('error', `Saving ${t.path} failed: ${describeError(err)}`);
    return false;
  }
}

/** Replaces the model with the file's current content (after a change underneath). */
export async function reloadTab(key: string): Promise<void> {
  const t = tab(key);
  const model = models.get(key);
  if (!t || !model) return;
  try {
    const file = await api().readFile({ sandboxId: t.sandboxId, path: t.path });
    const text = decodeText(base64ToBytes(file.base64));
    if (text === null) {
      useApp.getState().patchTab(key, {
        conflict: false,
        message: 'The file is now binary; close and reopen it.',
      });
      return;
    }
    if (model.getValue() !== text)
      model.pushEditOperations([], [{ range: model.getFullModelRange(), text }], () => null);
    savedVersion.set(key, model.getAlternativeVersionId());
    useApp
      .getState()
      .patchTab(key, { dirty: false, conflict: false, size: file.size, message: null });
  } catch (err) {
    useApp
      .getState()
      .patchTab(key, { conflict: false, message: `Could not reload: ${describeError(err)}` });
  }
}

export function keepMine(key: string): void {
  useApp.getState().patchTab(key, { conflict: false });
}

/** Called for every live change event: refreshes or flags open tabs. */
export function onFileChanged(sandboxId: string, change: FsChange): void {
  for (const t of useApp.getState().tabs) {
    if (t.sandboxId !== sandboxId || t.snapshotId !== null || t.kind !== 'text') continue;
    // `/` changed means the whole tree was replaced (restore): recheck every tab.
    if (change.path === '/') {
      void refreshFromDisk(t.key);
      continue;
    }
    if (t.path !== change.path) continue;
    if (change.kind === 'deleted') {
      useApp.getState().patchTab(t.key, {
        message: 'This file was deleted in the sandbox. Saving will create it again.',
      });
      continue;
    }
    void refreshFromDisk(t.key);
  }
}

async function refreshFromDisk(key: string): Promise<void> {
  const t = tab(key);
  const model = models.get(key);
  if (!t || !model) return;
  let text: string | null;
  try {
    const file = await api().readFile({ sandboxId: t.sandboxId, path: t.path });
    text = decodeText(base64ToBytes(file.base64));
  } catch {
    return;
  }
  if (text === model.getValue()) {
    // Our own save (or an identical write): nothing to do.
    useApp.getState().patchTab(key, { message: null });
    return;
  }
  if (tab(key)?.dirty) useApp.getState().patchTab(key, { conflict: true });
  else await reloadTab(key);
}

export function closeTab(key: string): void {
  const t = tab(key);
  if (!t) return;
  if (t.dirty && !window.confirm(`${t.path} has unsaved changes. Close it anyway?`)) return;
  models.get(key)?.dispose();
  models.delete(key);
  savedVersion.delete(key);
  binaries.delete(key);
  useApp.getState().removeTab(key);
}

/** Reads a file for export: bytes as base64. */
export async function exportBytes(
  sandboxId: string,
  path: string,
  snapshotId: string | null,
): Promise<Uint8Array> {
  const file = await api().readFile(
    snapshotId ? { sandboxId, path, snapshotId } : { sandboxId, path },
  );
  return base64ToBytes(file.base64);
}
