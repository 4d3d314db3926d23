/**
 * A large timeline for view tests, served to the page in place of the
 * engine's answers for one sandbox: the WebSocket is routed through the spec,
 * every other message goes to the real engine unchanged. Lets a spec show
 * 10,000 steps (and push new ones as events) without running 10,000 commands.
 */
import type { Page, WebSocketRoute } from '@playwright/test';
import type { Branch, Step } from '../../src-worker/contract/api.js';

export interface SyntheticTimeline {
  steps: Step[];
  branches: Branch[];
}

/** `count` steps; every `every` steps the history goes back `back` steps and grows a new branch. */
export function syntheticTimeline(
  sandboxId: string,
  count: number,
  every = 40,
  back = 15,
): SyntheticTimeline {
  const steps: Step[] = [];
  const branches: Branch[] = [];
  let branch: Branch | null = null;
  let parent: Step | null = null;
  const t0 = Date.now() - count * 1000;
  for (let i = 0; i < count; i++) {
    if (branch === null || (i > 0 && i % every === 0)) {
      const from: Step | null = i === 0 ? null : (steps[Math.max(0, i - back)] ?? null);
      branch = {
        id: `b${branches.length + 1}`,
        sandboxId,
        name: branches.length === 0 ? 'main' : `branch-${branches.length + 1}`,
        forkedFrom: from?.id ?? null,
        headStepId: null,
        stepCount: 0,
        createdAt: t0 + i * 1000,
      };
      branches.push(branch);
      parent = from;
    }
    const step = makeStep(sandboxId, `s${i + 1}`, parent?.id ?? null, branch.id, t0 + i * 1000, i);
    steps.push(step);
    branch.headStepId = step.id;
    branch.stepCount++;
    parent = step;
  }
  return { steps, branches };
}

export function makeStep(
  sandboxId: string,
  id: string,
  parentId: string | null,
  branchId: string,
  startedAt: number,
  i: number,
): Step {
  return {
    id,
    parentId,
    sandboxId,
    branchId,
    kind: 'command',
    sessionId: 'term1',
    sessionKind: 'terminal',
    command: `echo step ${i} > /tmp/f${i % 97}.txt`,
    status: i % 13 === 0 ? 1 : 0,
    startedAt,
    durationMs: 5 + (i % 50),
    snapshotId: String(i + 1),
    snapshotReleased: false,
    changes: {
      added: i % 3 === 0 ? 1 : 0,
      modified: i % 3 === 0 ? 0 : 1,
      deleted: 0,
      paths: [],
      truncated: false,
    },
    network:
      i % 29 === 0
        ? [
            {
              time: new Date(startedAt).toISOString(),
              sandboxId,
              stepId: id,
              pid: 10 + i,
              argv: ['curl', 'https://example.com/'],
              hop: 0,
              url: 'https://example.com/',
              method: 'GET',
              decision: i % 58 === 0 ? 'deny' : 'allow',
              decidedBy: i % 58 === 0 ? 'person' : 'policy',
              rule: null,
              reason: null,
              addresses: ['93.184.215.14'],
              status: 200,
              message: null,
              bytesSent: 0,
              bytesReceived: 100,
              durationMs: 10,
              approvalWaitMs: 0,
            },
          ]
        : [],
    recordingBytes: 0,
  };
}

/** Routes the page's API socket; returns a function that pushes an event to the page. */
export async function serveSynthetic(
  page: Page,
  sandboxId: () => string | null,
  timeline: SyntheticTimeline,
): Promise<(event: unknown) => void> {
  let route: WebSocketRoute | null = null;
  await page.routeWebSocket(/\/api\b/, (ws) => {
    route = ws;
    const server = ws.connectToServer();
    ws.onMessage((raw) => {
      const msg = JSON.parse(String(raw)) as {
        id: number;
        method: string;
        params: { sandboxId?: string; offset?: number };
      };
      const reply = (result: unknown): void =>
        ws.send(JSON.stringify({ type: 'response', id: msg.id, ok: true, result }));
      if (msg.params?.sandboxId !== undefined && msg.params.sandboxId === sandboxId()) {
        if (msg.method === 'listSteps') {
          const offset = msg.params.offset ?? 0;
          const page = timeline.steps.slice(offset, offset + 500);
          const next = offset + page.length;
          return reply({
            steps: page,
            total: timeline.steps.length,
            nextOffset: next < timeline.steps.length ? next : null,
          });
        }
        if (msg.method === 'listBranches') return reply(timeline.branches);
        if (msg.method === 'getTimeline') {
          const last = timeline.steps[timeline.steps.length - 1];
          return reply({
            sandboxId: sandboxId(),
            headStepId: last?.id ?? null,
            branchId: last?.branchId ?? 'b1',
            stepCount: timeline.steps.length,
            branchCount: timeline.branches.length,
            replay: false,
            retainedBytes: 0,
            budgetBytes: 0,
          });
        }
      }
      server.send(raw);
    });
  });
  return (event) => route?.send(JSON.stringify({ type: 'event', event }));
}
