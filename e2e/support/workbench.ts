/** Page helpers shared by the web specs: open the workbench, screenshots, terminal I/O. */
import { expect, test as base, type Page } from '@playwright/test';
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

/** Number of steps listed for the current sandbox. */
export function stepCount(page: Page): Promise<number> {
  return page.getByRole('list', { name: 'Step list' }).locator('li.step').count();
}

/** Runs a command line and waits until it finished (its step appeared). */
export async function runAndWait(page: Page, command: string, timeout = 20_000): Promise<void> {
  const before = await stepCount(page);
  await runInTerminal(page, command);
  await expect.poll(() => stepCount(page), { timeout }).toBeGreaterThan(before);
}
