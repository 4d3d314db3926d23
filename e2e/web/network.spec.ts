/**
 * Network approvals in the workbench (issue 17): a program in the terminal
 * asks for a URL nobody listed, the approval dialog comes up, and the answer
 * decides what the program sees. The server is a loopback one started here;
 * the sandbox lists 127.0.0.1 and ::1 as addresses (so the approved name
 * `localhost` may resolve to them) but not the name, so each request is
 * asked about. The client is curl when the build has it, else the kernel's
 * test client fixture-fetch (same exit status and denial line format).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { newSandbox } from '../support/sandbox.js';
import {
  expect,
  runInTerminal,
  terminalText,
  test,
  waitForPrompt,
  waitForTerminal,
} from '../support/workbench.js';

let server: Server;
let port = 0;

test.beforeAll(async () => {
  server = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end(`served ${req.url ?? ''}\n`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

async function freshShell(page: Page, name: string): Promise<void> {
  await newSandbox(page, name);
  await expect(page.locator('.xterm-host:not([style*="none"])[data-terminal-id]')).toHaveCount(1, {
    timeout: 20_000,
  });
  await waitForPrompt(page);
}

async function setAllowed(page: Page, hosts: string): Promise<void> {
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sandbox settings' });
  await dialog.getByTestId('allowed-hosts').fill(hosts);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
}

/** curl when the build ships it, else fixture-fetch. */
async function client(page: Page): Promise<string> {
  await runInTerminal(page, 'command -v curl >/dev/null && echo has-curl || echo no-curl');
  await waitForTerminal(page, /^(has|no)-curl *$/m);
  const curl = /^has-curl *$/m.test(await terminalText(page));
  await waitForPrompt(page);
  return curl ? 'curl -sS' : 'fixture-fetch';
}

test('a request raises the dialog; allow shows the output, deny gives the error and status', async ({
  workbench: page,
}, testInfo) => {
  await freshShell(page, 'net-approve');
  await setAllowed(page, '127.0.0.1\n::1');
  const fetch = await client(page);
  const dialog = page.getByTestId('approval-dialog');

  await runInTerminal(page, `${fetch} http://localhost:${port}/one`);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('approval-url')).toHaveText(`http://localhost:${port}/one`);
  await expect(dialog).toContainText('net-approve');
  await expect(dialog.getByTestId('approval-argv')).toContainText(`localhost:${port}/one`);
  await expect(page.getByTestId('approval-waiting')).toContainText('waiting for approval');
  const shot = testInfo.outputPath('approval-dialog.png');
  await page.screenshot({ path: shot });
  await testInfo.attach('approval dialog', { path: shot, contentType: 'image/png' });
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await waitForTerminal(page, /^served \/one *$/m);
  await waitForPrompt(page);

  // An agent's reason for the request (run's networkReason sets this variable).
  await runInTerminal(
    page,
    `SANDGLASS_NET_REASON='check the mirror' ${fetch} http://localhost:${port}/two; echo "status=$?"`,
  );
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('approval-reason')).toHaveText('check the mirror');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // The terminal may wrap the line anywhere.
  await waitForTerminal(page, /network policy denied localhost:\d+: denied\s*by person/);
  await waitForTerminal(page, /^status=7 *$/m);
});

test('"always allow" is saved in the settings and survives a reload', async ({
  workbench: page,
}) => {
  await freshShell(page, 'net-always');
  await setAllowed(page, '127.0.0.1\n::1');
  const fetch = await client(page);
  const dialog = page.getByTestId('approval-dialog');

  await runInTerminal(page, `${fetch} http://localhost:${port}/first`);
  await expect(dialog).toBeVisible();
  await page.keyboard.press('w');
  await waitForTerminal(page, /^served \/first *$/m);

  await page.reload();
  await expect(page.getByTestId('app-shell')).toHaveAttribute('data-connection', 'ready');
  await page.getByRole('combobox', { name: 'Sandbox' }).selectOption({ label: 'net-always' });
  await expect(page.locator('.xterm-host:not([style*="none"])[data-terminal-id]')).toHaveCount(1, {
    timeout: 20_000,
  });
  await waitForPrompt(page);
  await runInTerminal(page, `${fetch} http://localhost:${port}/again`);
  await waitForTerminal(page, /^served \/again *$/m);
  await expect(dialog).toBeHidden();

  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByTestId('allowed-hosts')).toHaveValue(`127.0.0.1\n::1\nlocalhost:${port}`);
});
