/** Startup: picks the transport, says hello, loads sandboxes and routes engine events. */
import { API_VERSION, type ApiEvent } from '../../src-worker/contract/api.js';
import { createApiClient } from '../api/client.js';
import { bridgeTransport, electronBridge, webSocketTransport } from '../api/transports.js';
import { setApi } from '../store/apiHandle.js';
import { useApp } from '../store/index.js';
import { describeError } from '../store/notifySlice.js';
import { deliverTerminalData, deliverTerminalExit } from '../terminal/terminalBus.js';
import { onFileChanged } from '../editor/documents.js';
import { setAnswerSender, useApprovals } from '../network/approvals.js';
import { revealChanges } from '../tree/changeMarks.js';
import { noteEngine, reloadWhenServerReturns } from './engineRestart.js';

function route(event: ApiEvent): void {
  const app = useApp.getState();
  switch (event.type) {
    case 'terminalData':
      deliverTerminalData(event.terminalId, event.data);
      return;
    case 'terminalExit':
      deliverTerminalExit(event.terminalId, event.status);
      return;
    case 'terminalCwd':
      app.setTerminalCwd(event.terminalId, event.cwd);
      return;
    case 'sandboxes':
      app.setSandboxes(event.sandboxes);
      return;
    case 'clients':
      app.setClients(event.clients);
      return;
    case 'fsChange':
      app.applyChanges(event.sandboxId, event.changes);
      for (const change of event.changes) onFileChanged(event.sandboxId, change);
      return;
    case 'stats':
      app.setStats(event.sandboxId, event.stats);
      return;
    case 'importProgress':
      app.setImportProgress(event);
      return;
    case 'step':
      app.addStep(event.step);
      if (event.step.sandboxId === app.currentId) revealChanges(event.step);
      return;
    case 'stepUpdated':
      app.updateStep(event.step);
      return;
    case 'branch':
      app.upsertBranch(event.branch);
      return;
    case 'head':
      app.setHead(event.sandboxId, event.stepId);
      return;
    case 'request':
      useApprovals.getState().add(event.request);
      return;
    case 'requestClosed':
      useApprovals.getState().closed(event.requestId);
      return;
    case 'restored':
      app.setHead(event.sandboxId, event.restoreStepId);
      if (event.sandboxId === app.currentId && !app.browse) app.resetTree();
      return;
  }
}

export async function bootstrap(): Promise<void> {
  const app = useApp.getState();
  try {
    const bridge = electronBridge();
    const transport = bridge ? bridgeTransport(bridge) : await webSocketTransport(window.location);
    transport.onClose((reason) => {
      useApp.getState().setConnection({ connection: 'lost', connectionError: reason });
      if (!bridge) reloadWhenServerReturns();
    });
    const client = createApiClient(transport);
    client.onEvent(route);
    setApi(client);
    setAnswerSender((requestId, answer) => client.answer({ requestId, answer }));
    const hello = await client.hello({ apiVersion: API_VERSION, client: { name: 'workbench' } });
    app.setConnection({
      connection: 'ready',
      kernel: hello.kernel,
      mode: bridge ? 'electron' : 'web',
      engineRestarted: noteEngine(hello),
    });
    let sandboxes = await client.listSandboxes({});
    if (sandboxes.length === 0) {
      await client.createSandbox({ name: 'sandbox 1' });
      sandboxes = await client.listSandboxes({});
    }
    useApp.getState().setSandboxes(sandboxes);
    void useApp.getState().loadClients();
    const first = sandboxes[0];
    if (first) await useApp.getState().selectSandbox(first.id);
  } catch (err) {
    app.setConnection({ connection: 'lost', connectionError: describeError(err) });
  }
}
