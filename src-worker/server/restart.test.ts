/**
 * The web entry's engine restart, end to end: the supervisor (main.ts) runs
 * the engine in a child; killing that child with SIGKILL must bring up a new
 * engine on the same port and token that says it was restarted and has the
 * sandbox back from its timeline journal.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { API_VERSION, type ServerMessage } from '../contract/api.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-restart-'));
const infoFile = path.join(scratch, 'info.json');
let supervisor: ChildProcess | undefined;

afterAll(async () => {
  if (supervisor && supervisor.exitCode === null) {
    const gone = new Promise((r) => supervisor?.once('exit', r));
    supervisor.kill('SIGTERM');
    await gone;
  }
  fs.rmSync(scratch, { recursive: true, force: true });
});

interface Info {
  port: number;
  token: string;
  enginePid: number;
}

async function waitForInfo(notPid: number): Promise<Info> {
  for (let i = 0; i < 1200; i++) {
    try {
      const info = JSON.parse(fs.readFileSync(infoFile, 'utf8')) as Info;
      if (info.enginePid !== notPid) return info;
    } catch {
      // not written yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the web server did not come up');
}

/** One request over a fresh WebSocket (what a reconnecting workbench does). */
async function call(info: Info, method: string, params: object): Promise<unknown> {
  const ws = new WebSocket(`ws://127.0.0.1:${String(info.port)}/api?token=${info.token}`, {
    origin: `http://127.0.0.1:${String(info.port)}`,
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  try {
    return await new Promise((resolve, reject) => {
      ws.on('message', (data: WebSocket.RawData) => {
        const m = JSON.parse(data.toString()) as ServerMessage;
        if (m.type !== 'response') return;
        if (m.ok) resolve(m.result);
        else reject(new Error(m.error.message));
      });
      ws.send(JSON.stringify({ type: 'request', id: 1, method, params }));
    });
  } finally {
    ws.close();
  }
}

describe('web server engine restart', () => {
  it('restarts a killed engine on the same URL, says so, and reloads the journal', async () => {
    supervisor = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'main.ts')], {
      env: {
        ...process.env,
        SANDGLASS_INFO_FILE: infoFile,
        SANDGLASS_RENDERER_DIR: scratch,
        SANDGLASS_MCP_TOKEN_FILE: path.join(scratch, 'mcp-token'),
        SANDGLASS_JOURNAL_DIR: path.join(scratch, 'journal'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    supervisor.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const first = await waitForInfo(0);
    const hello1 = (await call(first, 'hello', { apiVersion: API_VERSION })) as {
      instance: string;
      restarted: boolean;
    };
    expect(hello1.restarted).toBe(false);
    const sb = (await call(first, 'createSandbox', { name: 'kept' })) as { id: string };
    await call(first, 'run', { sandboxId: sb.id, command: 'echo before the crash > /tmp/f' });

    process.kill(first.enginePid, 'SIGKILL');
    const second = await waitForInfo(first.enginePid);
    expect(second.port).toBe(first.port);
    expect(second.token).toBe(first.token);
    const hello2 = (await call(second, 'hello', { apiVersion: API_VERSION })) as {
      instance: string;
      restarted: boolean;
    };
    expect(hello2.restarted).toBe(true);
    expect(hello2.instance).not.toBe(hello1.instance);
    expect(stderr).toMatch(/engine stopped unexpectedly \(SIGKILL\); restarting/);
    const list = (await call(second, 'listSandboxes', {})) as { id: string; name: string }[];
    const back = list.find((s) => s.name === 'kept (recovered)');
    expect(back).toBeDefined();
    const steps = (await call(second, 'listSteps', { sandboxId: back?.id })) as {
      steps: { command: string }[];
    };
    expect(steps.steps.map((s) => s.command)).toEqual(['echo before the crash > /tmp/f']);
  }, 180_000);
});
