/**
 * Measurements for the report (printed and attached, never asserted):
 * start to usable prompt, keystroke echo latency, opening a 5 MB file,
 * rendering a 10k-entry directory in the tree.
 */
import type { Page, TestInfo } from '@playwright/test';
import { DirectApi } from '../support/server.js';
import { currentSandboxId, expandDir, newSandbox, treeRow } from '../support/sandbox.js';
import { expect, focusTerminal, test, waitForPrompt } from '../support/workbench.js';

function report(testInfo: TestInfo, name: string, value: string): void {
  console.log(`[measure] ${name}: ${value}`);
  testInfo.annotations.push({ type: 'measure', description: `${name}: ${value}` });
}

async function hasShell(page: Page): Promise<string | null> {
  const host = page.locator('.xterm-host:not([style*="none"])');
  await expect(
    page.locator('.xterm-host:not([style*="none"]):is([data-terminal-id], [data-terminal-error])'),
  ).toHaveCount(1, { timeout: 20_000 });
  return host.getAttribute('data-terminal-error');
}

/** Page-clock times (ms since navigation start) of the start's stages, and its layout shifts. */
interface StartMarks {
  readyAt: number | null;
  terminalAt: number | null;
  promptAt: number | null;
  cls: number;
  largest: number;
  shifts: number;
}

/**
 * Runs in the page before its scripts: records, in the page's own clock
 * (ms since navigation start), when the visible terminal first shows a
 * prompt, and sums the layout shifts (CLS, as the web-vitals definition:
 * shifts not caused by input) and the largest one.
 */
function observeStart(): void {
  const w = window as unknown as {
    __start: StartMarks;
  };
  w.__start = { readyAt: null, terminalAt: null, promptAt: null, cls: 0, largest: 0, shifts: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as (PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
    })[]) {
      if (e.hadRecentInput) continue;
      w.__start.cls += e.value;
      w.__start.largest = Math.max(w.__start.largest, e.value);
      w.__start.shifts++;
    }
  }).observe({ type: 'layout-shift', buffered: true });
  const seen = new MutationObserver(() => {
    const now = performance.now();
    const s = w.__start;
    if (s.readyAt === null && document.querySelector('[data-connection="ready"]')) s.readyAt = now;
    if (s.terminalAt === null && document.querySelector('.xterm-host[data-terminal-id]'))
      s.terminalAt = now;
    const rows = document.querySelector('.xterm-host:not([style*="none"]) .xterm-rows');
    if (!rows) return;
    const lines = Array.from(rows.children, (r) => (r.textContent ?? '').replace(/\u00a0/g, ' '));
    const last = lines.filter((l) => l.trim() !== '').pop() ?? '';
    if (/[$#] *$/.test(last)) {
      s.promptAt = now;
      seen.disconnect();
    }
  });
  document.addEventListener('DOMContentLoaded', () =>
    seen.observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    }),
  );
}

test('measure: start to usable prompt and keystroke echo latency', async ({
  page,
  info,
}, testInfo) => {
  await page.addInitScript(observeStart);
  const t0 = Date.now();
  await page.goto(info.url);
  await expect(page.getByTestId('app-shell')).toHaveAttribute('data-connection', 'ready');
  const error = await hasShell(page);
  if (error) {
    report(testInfo, 'start to usable prompt', `n/a (${error})`);
    report(testInfo, 'keystroke echo latency', 'n/a');
    return;
  }
  await waitForPrompt(page);
  report(testInfo, 'start to usable prompt', `${Date.now() - t0} ms (page load to prompt)`);
  const { start, nav } = await page.evaluate(() => {
    const n = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    return {
      start: (window as unknown as { __start: StartMarks }).__start,
      nav: { dom: n.domContentLoadedEventEnd, load: n.loadEventEnd },
    };
  });
  const ms = (v: number | null): string => (v === null ? 'not seen' : `${v.toFixed(0)} ms`);
  report(
    testInfo,
    'prompt after navigation start (page clock)',
    `${ms(start.promptAt)} (DOMContentLoaded ${ms(nav.dom)}, load ${ms(nav.load)}, ` +
      `engine connected ${ms(start.readyAt)}, terminal attached ${ms(start.terminalAt)})`,
  );
  report(
    testInfo,
    'layout shift to prompt (CLS)',
    `${start.cls.toFixed(4)} (${start.shifts} shifts, largest ${start.largest.toFixed(4)})`,
  );

  await focusTerminal(page);
  // Measured in the page: keydown to the echoed character appearing in the DOM.
  await page.evaluate(() => {
    const w = window as unknown as { __echo: number[]; __down: number };
    w.__echo = [];
    document.addEventListener('keydown', () => (w.__down = performance.now()), true);
    const rows = document.querySelector('.xterm-host:not([style*="none"]) .xterm-rows');
    if (!rows) return;
    new MutationObserver(() => {
      if (w.__down) {
        w.__echo.push(performance.now() - w.__down);
        w.__down = 0;
      }
    }).observe(rows, { subtree: true, childList: true, characterData: true });
  });
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press('KeyQ');
    await page.waitForTimeout(60);
  }
  const samples = await page.evaluate(() => (window as unknown as { __echo: number[] }).__echo);
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)] ?? NaN;
  const p90 = samples[Math.floor(samples.length * 0.9)] ?? NaN;
  report(
    testInfo,
    'keystroke echo latency',
    `median ${median.toFixed(1)} ms, p90 ${p90.toFixed(1)} ms over ${samples.length} keys`,
  );
  await page.keyboard.press('Control+c');
});

test('measure: open a 5 MB file', async ({ workbench: page, info }, testInfo) => {
  await newSandbox(page, 'perf-5mb');
  const id = await currentSandboxId(page);
  const api = await DirectApi.open(info);
  const line =
    'The quick brown fox jumps over the lazy dog. 0123456789 abcdefghijklmnopqrstuvwxyz\n';
  const text = line.repeat(Math.ceil((5 * 1024 * 1024 + 1) / line.length));
  await api.call('writeFile', {
    sandboxId: id,
    path: '/tmp/big.txt',
    base64: Buffer.from(text).toString('base64'),
  });
  api.close();
  await expandDir(page, '/tmp');
  const t0 = Date.now();
  await treeRow(page, '/tmp/big.txt').click();
  await expect(page.getByRole('button', { name: 'Open read-only' })).toBeVisible();
  const guard = Date.now() - t0;
  const t1 = Date.now();
  await page.getByRole('button', { name: 'Open read-only' }).click();
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('The quick brown fox', {
    timeout: 30_000,
  });
  report(
    testInfo,
    'open 5 MB file',
    `guard shown in ${guard} ms; read-only editor with content ${Date.now() - t1} ms after confirming (${(text.length / 1048576).toFixed(1)} MiB)`,
  );
});

test('measure: tree render of 10k files', async ({ workbench: page, info }, testInfo) => {
  test.setTimeout(180_000);
  await newSandbox(page, 'perf-10k');
  const id = await currentSandboxId(page);
  const api = await DirectApi.open(info);
  const tw = Date.now();
  // One command (one timeline step) makes the 10k files: the measure is the tree's, not 10k steps'.
  await api.call('mkdir', { sandboxId: id, path: '/many' });
  const made = await api.call('run', {
    sandboxId: id,
    command: "cd /many && seq -f 'file-%05g.txt' 0 9999 | xargs touch && ls | wc -l",
  });
  expect(made.stdout.trim()).toBe('10000');
  api.close();
  console.log(`[measure] (setup) made 10k files with one command in ${Date.now() - tw} ms`);
  await expect(treeRow(page, '/many')).toBeVisible();
  const tree = page.getByRole('tree', { name: 'File tree' });
  const t0 = Date.now();
  await expandDir(page, '/many');
  await expect(tree).toHaveAttribute('data-rows', /^100\d\d$/, { timeout: 60_000 });
  await expect(treeRow(page, '/many/file-00000.txt')).toBeVisible();
  const expand = Date.now() - t0;
  const rendered = await page.locator('.tree-row').count();
  const t1 = Date.now();
  await tree.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(treeRow(page, '/many/file-09999.txt')).toBeVisible();
  const scroll = Date.now() - t1;
  report(
    testInfo,
    'tree render of 10k files',
    `expand to first rows ${expand} ms, jump to the end ${scroll} ms, ${rendered} DOM rows for ${await tree.getAttribute('data-rows')} entries`,
  );
});
