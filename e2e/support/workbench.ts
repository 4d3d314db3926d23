/** Page helpers shared by the web specs: open the workbench, screenshots, terminal I/O. */
import { expect, test as base, type Page } from '@playwright/test';
import { newSandbox } from './sandbox.js';
import { serverInfo, type ServerInfo } from './server.js';

export const test = base.extend<{ info: ServerInfo; workbench: Page }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take a destructured first argument.
  info: async ({}, use) => {
    await use(serverInfo());
  },
  workbench: async ({ page, info }, use, testInfo) => {
    const errors: string[] = [];
    page.on('console', (msg) => {
      // The security spec opens a socket with a bad token on purpose.
      if (msg.type() === 'error' && !msg.text().includes('token=nope')) errors.push(msg.text());
    });
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(info.url);
    await expect(page.getByTestId('app-shell')).toHaveAttribute('data-connection', 'ready');
    await use(page);
    const shot = testInfo.outputPath(`${testInfo.title.replace(/\W+/g, '-')}.png`);
    await page.screenshot({ path: shot });
    await testInfo.attach('screenshot', { path: shot, contentType: 'image/png' });
    expect(errors, 'console errors').toEqual([]);
  },
});

export { expect };

/** True when the engine runs without the kernel (files only): shell specs skip then. */
export async function kernelMissing(page: Page): Promise<boolean> {
  const text = (await page.locator('.statusbar .kernel').textContent()) ?? '';
  return text.includes('no kernel');
}

/** The visible text of the active terminal. */
export async function terminalText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const rows = document.querySelector('.xterm-host:not([style*="none"]) .xterm-rows');
    return rows
      ? Array.from(rows.children, (r) => (r.textContent ?? '').replace(/\u00a0/g, ' ')).join('\n')
      : '';
  });
}

export async function waitForTerminal(
  page: Page,
  pattern: RegExp,
  timeout = 15_000,
): Promise<void> {
  await expect.poll(() => terminalText(page), { timeout }).toMatch(pattern);
}

export async function focusTerminal(page: Page): Promise<void> {
  await page.locator('.xterm-host:not([style*="none"]) .xterm-screen').click();
}

/** Types a command line into the active terminal and presses Enter. */
export async function runInTerminal(page: Page, command: string): Promise<void> {
  await focusTerminal(page);
  await page.keyboard.type(command);
  await page.keyboard.press('Enter');
}

/** Waits until the terminal is idle at a prompt: its last non-empty line ends in `$ ` or `# `. */
export async function waitForPrompt(page: Page, timeout = 20_000): Promise<void> {
  await expect
    .poll(
      async () =>
        (await terminalText(page))
          .split('\n')
          .filter((l) => l.trim() !== '')
          .pop() ?? '',
      { timeout },
    )
    .toMatch(/[$#] *$/);
}

/** The rows of the step graph (only those in view exist: the list is virtualized). */
export function stepRows(page: Page) {
  return page.getByRole('listbox', { name: 'Step graph' }).locator('.graph-row');
}

/** Number of steps in the current sandbox's timeline. */
export async function stepCount(page: Page): Promise<number> {
  const count = await page
    .getByRole('listbox', { name: 'Step graph' })
    .getAttribute('data-step-count');
  return Number(count ?? 0);
}

/** Opens a fresh sandbox and waits for its shell prompt; a terminal that fails to open fails the spec. */
export async function freshShell(page: Page, name: string): Promise<void> {
  await newSandbox(page, name);
  const host = page.locator('.xterm-host:not([style*="none"])');
  await expect(
    page.locator('.xterm-host:not([style*="none"]):is([data-terminal-id], [data-terminal-error])'),
  ).toHaveCount(1, { timeout: 20_000 });
  const error = await host.getAttribute('data-terminal-error');
  expect(error, 'terminal failed to open').toBeNull();
  await waitForPrompt(page);
}

/** Runs a command line and waits until it finished (its step appeared). */
export async function runAndWait(page: Page, command: string, timeout = 20_000): Promise<void> {
  const before = await stepCount(page);
  await runInTerminal(page, command);
  await expect.poll(() => stepCount(page), { timeout }).toBeGreaterThan(before);
}
