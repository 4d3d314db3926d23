/**
 * One scripted agent session driven three ways — the TypeScript SDK, the
 * Python SDK (host python3, `sandglass rpc`) and MCP tools — must leave the
 * same timeline: the same steps in the same order, with the same kinds,
 * commands, statuses and changed files. A front end that records an extra
 * step, drops one or changes differently fails here.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { SandglassEngine } from '../src-worker/api/engine.js';
import type { Step } from '../src-worker/contract/timeline.js';
import { connectAgent } from '../src-worker/mcp/host.js';
import { createMcpServer } from '../src-worker/mcp/server.js';
import { Sandbox } from './typescript/index.js';

const root = resolve(import.meta.dirname, '..');

// The session: make a project, build with coreutils and Python, fail once, snapshot,
// fork and change the fork, break the original, diff it against the snapshot,
// restore, and check the shell came back with its cwd.
const DATA = 'b\na\nb\nc\n';
const BUILD =
  'cd proj && sort data.txt | uniq -c > counts.txt && ' +
  'python3 -c "print(sum(int(l.split()[0]) for l in open(\'counts.txt\')))" && wc -l < counts.txt';
const FAIL = 'cat missing.txt';
const BREAK = 'rm data.txt counts.txt';
const AFTER = 'pwd && ls';
/** In the fork: its shell session starts where the original's was (in proj). */
const IN_FORK = 'pwd && echo d >> data.txt && sort -u data.txt | wc -l';

/** What must agree: per step, its kind, command, status and changed paths. */
type Shape = [string, string, number | null, string[]];

function shape(steps: readonly Step[]): Shape[] {
  // A restore's or fork's command names a step id, which differs between engines.
  return steps.map((s) => [
    s.kind,
    s.kind === 'restore' || s.kind === 'fork' ? s.kind : s.command,
    s.status,
    s.changes.paths.map((p) => `${p.change[0]} ${p.path}`),
  ]);
}

async function stepsOf(engine: SandglassEngine, sandboxId: string): Promise<Step[]> {
  return (await engine.call('listSteps', { sandboxId, limit: 100 })).steps;
}

/** What each way of driving the session returns: both timelines, outputs and the diff. */
interface Session {
  shape: Shape[];
  fork: Shape[];
  outputs: string[];
  /** `change path` of each entry of the diff from the snapshot to the broken state. */
  diff: string[];
}

async function viaTypeScript(): Promise<Session> {
  const engine = new SandglassEngine();
  try {
    await using sb = await Sandbox.create({ connect: { engine } });
    await sb.mkdir('/home/user/proj', { recursive: true });
    await sb.writeFile('/home/user/proj/data.txt', DATA);
    const outputs = [(await sb.run(BUILD)).stdout];
    outputs.push(String((await sb.run(FAIL)).status));
    const snap = await sb.snapshot();
    await using fork = await sb.fork();
    outputs.push((await fork.run(IN_FORK)).stdout);
    await sb.run(BREAK);
    const diff = (await sb.diff(snap)).map((e) => `${e.change} ${e.path}`);
    await sb.restore(snap);
    outputs.push((await sb.run(AFTER)).stdout);
    return {
      shape: shape(await stepsOf(engine, sb.id)),
      fork: shape(await stepsOf(engine, fork.id)),
      outputs,
      diff,
    };
  } finally {
    await engine.dispose();
  }
}

function viaPython(): Session {
  const script = `
import json
from sandglass import Sandbox
with Sandbox.create() as sb:
    sb.mkdir("/home/user/proj", recursive=True)
    sb.write_file("/home/user/proj/data.txt", ${JSON.stringify(DATA)})
    outputs = [sb.run(${JSON.stringify(BUILD)}).stdout]
    outputs.append(str(sb.run(${JSON.stringify(FAIL)}).status))
    snap = sb.snapshot()
    with sb.fork() as fork:
        outputs.append(fork.run(${JSON.stringify(IN_FORK)}).stdout)
        fork_steps = sb.connection.call("listSteps", {"sandboxId": fork.id, "limit": 100})["steps"]
    sb.run(${JSON.stringify(BREAK)})
    diff = [f"{e.change} {e.path}" for e in sb.diff(snap)]
    sb.restore(snap)
    outputs.append(sb.run(${JSON.stringify(AFTER)}).stdout)
    steps = sb.connection.call("listSteps", {"sandboxId": sb.id, "limit": 100})["steps"]
    print(json.dumps({"steps": steps, "fork": fork_steps, "outputs": outputs, "diff": diff}))
`;
  const r = spawnSync('python3', ['-c', script], {
    cwd: root,
    env: {
      ...process.env,
      PYTHONPATH: join(root, 'sdk', 'python'),
      SANDGLASS_CLI: join(root, 'bin', 'sandglass.mjs'),
    },
    encoding: 'utf8',
    timeout: 180_000,
  });
  if (r.status !== 0) throw new Error(`python3 failed (${r.status}): ${r.stderr}`);
  const out = JSON.parse(r.stdout) as {
    steps: Step[];
    fork: Step[];
    outputs: string[];
    diff: string[];
  };
  return { shape: shape(out.steps), fork: shape(out.fork), outputs: out.outputs, diff: out.diff };
}

async function viaMcp(): Promise<Session> {
  const engine = new SandglassEngine();
  const agent = connectAgent(engine, { transport: 'mcp-stdio' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await createMcpServer(agent).connect(a);
  const client = new Client({ name: 'parity', version: '1' });
  await client.connect(b);
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
    return {
      data: r.structuredContent as Record<string, unknown>,
      text: (r.content as { text: string }[])[0]?.text ?? '',
    };
  };
  try {
    const id = (await call('create_sandbox', { name: 'parity' })).data.sandbox_id as string;
    const run = (command: string) => call('run', { sandbox_id: id, command });
    // write_file makes the missing parent as its own mkdir step, as the SDKs' mkdir does.
    await call('write_file', { sandbox_id: id, path: 'proj/data.txt', content: DATA });
    const outputs = [(await run(BUILD)).text];
    outputs.push(String((await run(FAIL)).data.exit_code));
    const snap = (await call('snapshot', { sandbox_id: id })).data.snapshot_id as string;
    const forkId = (await call('fork', { sandbox_id: id })).data.sandbox_id as string;
    outputs.push((await call('run', { sandbox_id: forkId, command: IN_FORK })).text);
    const forkSteps = shape(await stepsOf(engine, forkId));
    await call('destroy_sandbox', { sandbox_id: forkId });
    await run(BREAK);
    const diff = (await call('diff', { sandbox_id: id, from: snap })).data.entries as {
      change: string;
      path: string;
    }[];
    await call('restore', { sandbox_id: id, snapshot_id: snap });
    outputs.push((await run(AFTER)).text);
    return {
      shape: shape(await stepsOf(engine, id)),
      fork: forkSteps,
      outputs,
      diff: diff.map((e) => `${e.change} ${e.path}`),
    };
  } finally {
    await client.close();
    agent.close();
    await engine.dispose();
  }
}

describe('the same session through the TypeScript SDK, the Python SDK and MCP', () => {
  it('leaves the same timeline: steps, statuses and changed files', async () => {
    const ts = await viaTypeScript();
    expect(ts.shape).toEqual([
      ['mkdir', 'mkdir -p /home/user/proj', 0, ['a /home/user/proj']],
      ['write', 'write /home/user/proj/data.txt', 0, ['a /home/user/proj/data.txt']],
      ['command', BUILD, 0, ['a /home/user/proj/counts.txt']],
      ['command', FAIL, 1, []],
      ['command', BREAK, 0, ['d /home/user/proj/counts.txt', 'd /home/user/proj/data.txt']],
      // A restore continues from the step restored: nothing changed against it.
      ['restore', 'restore', 0, []],
      ['command', AFTER, 0, []],
    ]);
    expect(ts.fork).toEqual([
      ['fork', 'fork', 0, []],
      ['command', IN_FORK, 0, ['m /home/user/proj/data.txt']],
    ]);
    expect(ts.diff).toEqual([
      'deleted /home/user/proj/counts.txt',
      'deleted /home/user/proj/data.txt',
    ]);
    expect(ts.outputs).toEqual([
      '4\n3\n',
      '1',
      '/home/user/proj\n4\n',
      '/home/user/proj\ncounts.txt\ndata.txt\n',
    ]);
    const py = viaPython();
    expect(py.shape).toEqual(ts.shape);
    expect(py.fork).toEqual(ts.fork);
    expect(py.diff).toEqual(ts.diff);
    expect(py.outputs).toEqual(ts.outputs);
    const mcp = await viaMcp();
    expect(mcp.shape).toEqual(ts.shape);
    expect(mcp.fork).toEqual(ts.fork);
    expect(mcp.diff).toEqual(ts.diff);
    // MCP's text block is stdout followed by the metadata; the exit code is in the structure.
    expect(mcp.outputs.map((o) => o.split('\n{')[0])).toEqual(ts.outputs);
  }, 300_000);
});
