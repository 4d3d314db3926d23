/**
 * Timeline files from the workbench: save the current sandbox's timeline to
 * the host (save dialog or download), and open one (file picker or drop) as a
 * replay sandbox. The engine writes and validates the file; a bad file comes
 * back as an error message and nothing else changes.
 */
import { LIMITS } from '../../src-worker/contract/api.js';
import { api } from '../store/apiHandle.js';
import { base64ToBytes, bytesToBase64 } from '../store/filesSlice.js';
import { useApp } from '../store/index.js';
import { describeError } from '../store/notifySlice.js';
import { formatBytes } from '../editor/fileKind.js';
import { saveToHost } from '../tree/transfer.js';

/** File name extension of saved timelines. */
export const TIMELINE_EXTENSION = '.sandglass';

export async function saveTimeline(): Promise<void> {
  const app = useApp.getState();
  const sandbox = app.sandboxes.find((s) => s.id === app.currentId);
  if (!sandbox) return;
  try {
    const { base64, summary } = await api().saveTimeline({ sandboxId: sandbox.id });
    const name = `${sandbox.name.replace(/[^\w.-]+/g, '-') || 'timeline'}${TIMELINE_EXTENSION}`;
    if (await saveToHost(name, base64ToBytes(base64)))
      app.notify(
        'info',
        `Saved ${summary.steps} steps, ${summary.branches} branches (${formatBytes(summary.fileBytes)})`,
      );
  } catch (err) {
    app.notify('error', `Saving the timeline failed: ${describeError(err)}`);
  }
}

/** Opens a timeline file as a new replay sandbox and shows it. */
export async function openTimelineFile(file: File): Promise<void> {
  const app = useApp.getState();
  if (file.size > LIMITS.timelineFileBytes) {
    app.notify(
      'error',
      `${file.name} is ${formatBytes(file.size)}; timeline files up to ${formatBytes(LIMITS.timelineFileBytes)} can be opened`,
    );
    return;
  }
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const { sandbox, summary } = await api().loadTimeline({
      name: file.name.replace(/\.[^.]*$/, '') || 'replay',
      base64: bytesToBase64(bytes),
    });
    // Known as a replay before it is shown, so it gets no live terminal.
    useApp.setState({
      replay: { ...useApp.getState().replay, [sandbox.id]: true },
      sandboxes: useApp.getState().sandboxes.some((s) => s.id === sandbox.id)
        ? useApp.getState().sandboxes
        : [...useApp.getState().sandboxes, sandbox],
    });
    await useApp.getState().selectSandbox(sandbox.id);
    app.notify('info', `Opened ${file.name}: ${summary.steps} steps to replay`);
  } catch (err) {
    app.notify('error', `Could not open ${file.name}: ${describeError(err)}`);
  }
}
