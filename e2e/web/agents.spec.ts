/**
 * Issue 19, Workbench: an agent connected over JSON-RPC (the TypeScript SDK on
 * the app's /rpc WebSocket) shows in the Agents view, its steps appear live,
 * and a person takes over its terminal, forks its sandbox, pauses, resumes
 * and stops it.
 */
import { Connection, Sandbox } from '../../sdk/typescript/index.js';
import { expect, runInTerminal, test, waitForPrompt } from '../support/workbench.js';

test('a person watches, takes over, forks, pauses, resumes and stops an agent', async ({
  workbench: page,
  info,
}) => {
  const connection = await Connection.open({ mode: 'websocket', url: info.url, name: 'e2e-agent' });
  try {
    const sb = await Sandbox.create({ name: 'agent sandbox', connection });
    await page.getByRole('button', { name: /^Agents/ }).click();
    const card = page.getByRole('listitem', { name: 'Agent e2e-agent' });
    await expect(card).toContainText('jsonrpc-websocket');
    await expect(card.getByTestId('agent-state')).toHaveText('idle');

    // Its sandbox opens in the workbench; its steps appear there live.
    await card.getByRole('button', { name: 'agent sandbox' }).click();
    await expect(page.getByRole('combobox', { name: 'Sandbox' })).toHaveValue(sb.id);
    await sb.run('echo from the agent > /tmp/agent.txt');
    await expect(page.getByRole('region', { name: 'Timeline' })).toContainText(
      'echo from the agent > /tmp/agent.txt',
    );

    // Taken over: a person types in the agent's sandbox's terminal; the agent sees it.
    await waitForPrompt(page);
    await runInTerminal(page, 'echo typed by a person > /tmp/person.txt');
    await expect
      .poll(() => sb.readTextFile('/tmp/person.txt').catch(() => ''), { timeout: 20_000 })
      .toBe('typed by a person\n');

    // Forked: a new sandbox from its latest step opens in the workbench, with its files.
    await page.getByRole('button', { name: /^Agents/ }).click();
    await card.getByRole('button', { name: 'Fork' }).click();
    await expect
      .poll(async () => (await connection.listSandboxes()).map((s) => s.name))
      .toContain('agent sandbox (fork)');
    const fork = (await connection.listSandboxes()).find((s) => s.name === 'agent sandbox (fork)');
    await expect(page.getByRole('combobox', { name: 'Sandbox' })).toHaveValue(fork?.id ?? '');
    const read = await connection.call('readFile', {
      sandboxId: fork?.id ?? '',
      path: '/tmp/person.txt',
    });
    expect(Buffer.from(read.base64, 'base64').toString()).toBe('typed by a person\n');
    expect(await sb.readTextFile('/tmp/agent.txt')).toBe('from the agent\n');

    // Paused: its next call waits until a person resumes it.
    await page.getByRole('button', { name: /^Agents/ }).click();
    await card.getByRole('button', { name: 'Pause' }).click();
    await expect(card.getByTestId('agent-state')).toHaveText('paused');
    await page.screenshot({ path: test.info().outputPath('agents-paused.png') });
    let done = false;
    const waiting = sb.run('echo resumed').then((r) => {
      done = true;
      return r;
    });
    await page.waitForTimeout(500);
    expect(done).toBe(false);
    await card.getByRole('button', { name: 'Resume' }).click();
    expect((await waiting).stdout).toBe('resumed\n');

    // Stopped: its running command is killed and it is disconnected.
    const running = sb.run('sleep 30').catch((err: unknown) => err);
    await expect(card.getByTestId('agent-state')).toHaveText('running');
    page.once('dialog', (dialog) => void dialog.accept());
    await card.getByRole('button', { name: 'Stop' }).click();
    await expect(card).toBeHidden();
    const outcome = await running;
    expect(outcome).toMatchObject({ code: 'ECONNRESET' });
    await expect(connection.listSandboxes()).rejects.toMatchObject({ code: 'ECONNRESET' });
  } finally {
    await connection.close();
  }
});
