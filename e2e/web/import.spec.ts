/** Dropping host files on the file tree: progress of a large import, and cancelling one. */
import type { Page } from '@playwright/test';
import { DirectApi } from '../support/server.js';
import { currentSandboxId, expandDir, newSandbox } from '../support/sandbox.js';
import { expect, test } from '../support/workbench.js';

/** Drops `count` generated files of `size` bytes on the tree's /tmp row. */
async function dropFiles(page: Page, count: number, size: number): Promise<void> {
  const transfer = await page.evaluateHandle(
    ({ count, size }) => {
      const dt = new DataTransfer();
      const body = 'x'.repeat(size - 1) + '\n';
      for (let i = 0; i < count; i++)
        dt.items.add(new File([body], `f${String(i).padStart(5, '0')}.txt`));
      return dt;
    },
    { count, size },
  );
  const row = page.locator('.tree-row[data-path="/tmp"]');
  await row.dispatchEvent('dragover', { dataTransfer: transfer });
  await row.dispatchEvent('drop', { dataTransfer: transfer });
}

test('a large drop shows files and bytes done of the totals, then one import step', async ({
  workbench: page,
  info,
}) => {
  await newSandbox(page, 'import');
  const id = await currentSandboxId(page);
  await expandDir(page, '/tmp');
  await dropFiles(page, 1200, 16 * 1024);
  const status = page.getByRole('status', { name: 'Importing into /tmp' });
  await expect(status).toBeVisible();
  await expect(status.getByTestId('import-counts')).toContainText(
    /^[1-9][\d,]* \/ 1,200 files, [\d.]+ MiB \/ 19 MiB$/,
  );
  await expect(page.getByText('Imported 1200 files into /tmp')).toBeVisible({ timeout: 60_000 });
  await expect(status).toBeHidden();
  const api = await DirectApi.open(info);
  const entries = await api.call('readDir', { sandboxId: id, path: '/tmp' });
  expect(entries.filter((e) => e.name.endsWith('.txt'))).toHaveLength(1200);
  const steps = await api.call('listSteps', { sandboxId: id });
  expect(steps.steps.filter((s) => s.kind === 'import').map((s) => s.command)).toEqual([
    'import 1200 files into /tmp',
  ]);
  api.close();
});

test('cancelling an import stops it and keeps what was written', async ({
  workbench: page,
  info,
}) => {
  await newSandbox(page, 'cancel');
  const id = await currentSandboxId(page);
  await expandDir(page, '/tmp');
  await dropFiles(page, 4000, 16 * 1024);
  const status = page.getByRole('status', { name: 'Importing into /tmp' });
  await status.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('Import into /tmp cancelled')).toBeVisible({ timeout: 60_000 });
  await expect(status).toBeHidden();
  const api = await DirectApi.open(info);
  const written = (await api.call('readDir', { sandboxId: id, path: '/tmp' })).filter((e) =>
    e.name.endsWith('.txt'),
  ).length;
  expect(written).toBeLessThan(4000);
  const steps = await api.call('listSteps', { sandboxId: id });
  const imports = steps.steps.filter((s) => s.kind === 'import').map((s) => s.command);
  expect(
    imports.length === 0 || imports[0] === `import ${written} files into /tmp (cancelled)`,
  ).toBe(true);
  api.close();
});
