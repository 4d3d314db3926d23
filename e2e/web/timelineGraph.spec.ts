/**
 * The step graph at scale, on a synthetic timeline served in place of the
 * engine's answers (e2e/support/syntheticTimeline.ts): 10,000 steps on 250
 * branches stay virtualized and scroll without a frame over 50 ms (measured
 * and reported), live steps are followed until the user scrolls away, and
 * "Jump to live" brings the head back; arrows move the selection.
 */
import { availableParallelism, loadavg } from 'node:os';
import type { TestInfo } from '@playwright/test';
import { DirectApi } from '../support/server.js';
import { makeStep, serveSynthetic, syntheticTimeline } from '../support/syntheticTimeline.js';
import { expect, test } from '../support/workbench.js';

// Trace snapshots run in the page on every action and would be measured with the app.
test.use({ trace: 'off' });

function report(testInfo: TestInfo, name: string, value: string): void {
  console.log(`[measure] ${name}: ${value}`);
  testInfo.annotations.push({ type: 'measure', description: `${name}: ${value}` });
}

test('10,000 steps: virtualized graph, smooth scrolling, live follow and jump to live', async ({
  page,
  info,
}, testInfo) => {
  const api = await DirectApi.open(info);
  const sandbox = await api.call('createSandbox', { name: 'graph-10k' });
  api.close();
  const timeline = syntheticTimeline(sandbox.id, 10_000);
  const push = await serveSynthetic(page, () => sandbox.id, timeline);

  await page.goto(info.url);
  await expect(page.getByTestId('app-shell')).toHaveAttribute('data-connection', 'ready');
  await page.getByRole('combobox', { name: 'Sandbox' }).selectOption(sandbox.id);
  const graph = page.getByRole('listbox', { name: 'Step graph' });
  await expect(graph).toHaveAttribute('data-step-count', '10000', { timeout: 30_000 });

  // Virtualized: a screenful of rows in the DOM, the head (last step) among them.
  const rows = graph.locator('.graph-row');
  expect(await rows.count()).toBeLessThan(120);
  await expect(graph.locator('.graph-row[data-step-id="s10000"]')).toBeVisible();
  await expect(graph.locator('.graph-row.head')).toHaveAttribute('data-step-id', 's10000');
  await expect(graph.locator('.branch-label').first()).toBeVisible();
  expect(Number(await graph.locator('.lane-cell').first().getAttribute('width'))).toBeGreaterThan(
    14,
  );

  // Frame times while scrolling with the wheel from the bottom to the top and back, next to
  // the frame times of the idle page (the machine's own jitter) and the main thread's busy
  // time per scroll step (CPU time, so less sensitive to other load on the machine).
  const idle = await page.evaluate(
    () =>
      new Promise<number[]>((resolve) => {
        const out: number[] = [];
        let last = performance.now();
        const tick = (t: number): void => {
          out.push(t - last);
          last = t;
          if (out.length < 90) requestAnimationFrame(tick);
          else resolve(out.slice(1));
        };
        requestAnimationFrame(tick);
      }),
  );
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const busy = async (): Promise<number> => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return (metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) * 1000;
  };
  const busyBefore = await busy();
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __stop: boolean };
    w.__frames = [];
    w.__stop = false;
    let last = performance.now();
    const tick = (t: number): void => {
      w.__frames.push(t - last);
      last = t;
      if (!w.__stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const box = await graph.boundingBox();
  if (!box) throw new Error('graph not laid out');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 120; i++) {
    await page.mouse.wheel(0, i < 60 ? -400 : 400);
    await page.waitForTimeout(16);
  }
  // Long jumps (scrollbar drags) render a fresh window of rows at once.
  for (const to of [0, 0.5, 0.25, 0.75, 1]) {
    await graph.evaluate((el, f) => (el.scrollTop = f * (el.scrollHeight - el.clientHeight)), to);
    await page.waitForTimeout(50);
  }
  const busyMs = (await busy()) - busyBefore;
  const frames = await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __stop: boolean };
    w.__stop = true;
    return w.__frames.slice(1);
  });
  const sorted = [...frames].sort((a, b) => a - b);
  const max = sorted[sorted.length - 1] ?? 0;
  const p95 = sorted[Math.floor(sorted.length * 0.95)] ?? 0;
  const over = frames.filter((f) => f > 50).length;
  const idleSorted = [...idle].sort((a, b) => a - b);
  report(
    testInfo,
    'timeline graph scroll, 10,000 steps',
    `${frames.length} frames, p95 ${p95.toFixed(1)} ms, max ${max.toFixed(1)} ms, ${over} over 50 ms; ` +
      `idle page p95 ${(idleSorted[Math.floor(idleSorted.length * 0.95)] ?? 0).toFixed(1)} ms, ` +
      `max ${(idleSorted[idleSorted.length - 1] ?? 0).toFixed(1)} ms; ` +
      `main thread busy ${(busyMs / 125).toFixed(1)} ms per scroll step (125 steps); ` +
      `load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores`,
  );

  // Scrolled away from the head: a new step does not move the view, "Jump to live" is offered.
  await graph.evaluate((el) => (el.scrollTop = 0));
  await expect(page.getByRole('button', { name: /Jump to live/ })).toBeVisible();
  const last = timeline.steps[timeline.steps.length - 1];
  push({
    type: 'step',
    step: makeStep(sandbox.id, 's10001', last?.id ?? null, 'b250', Date.now(), 10_001),
  });
  await expect(graph).toHaveAttribute('data-step-count', '10001');
  expect(await graph.evaluate((el) => el.scrollTop)).toBe(0);
  await page.getByRole('button', { name: /Jump to live/ }).click();
  await expect(graph.locator('.graph-row[data-step-id="s10001"]')).toBeVisible();
  await expect(page.getByRole('button', { name: /Jump to live/ })).toHaveCount(0);

  // Following: the next steps come into view as they arrive.
  for (let i = 2; i <= 30; i++)
    push({
      type: 'step',
      step: makeStep(sandbox.id, `s${10_000 + i}`, `s${9999 + i}`, 'b250', Date.now(), 10_000 + i),
    });
  await expect(graph.locator('.graph-row[data-step-id="s10030"]')).toBeVisible();

  // Keyboard: arrows move the selection, Escape clears it.
  await graph.locator('.graph-row[data-step-id="s10030"]').click();
  await expect(page.getByLabel('Step details')).toHaveAttribute('data-step-id', 's10030');
  await graph.press('ArrowUp');
  await graph.press('ArrowUp');
  await expect(page.getByLabel('Step details')).toHaveAttribute('data-step-id', 's10028');
  await graph.press('Escape');
  await expect(page.getByLabel('Step details')).toHaveCount(0);
});
