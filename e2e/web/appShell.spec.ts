/** Issue 2 acceptance: the web workbench opens and shows the real app shell. */
import { expect, test } from '../support/workbench.js';

test('opens the web workbench and shows the app shell', async ({ workbench: page }) => {
  await expect(page.getByLabel('Sandglass', { exact: true })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Sandbox' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Files' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Editor' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Terminal' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Timeline' })).toBeVisible();
  await expect(page.getByRole('contentinfo', { name: 'Status' })).toContainText('files');
  await expect(page.getByRole('tree', { name: 'File tree' })).toBeVisible();
  await expect(page.locator('.tree-row[data-path="/tmp"]')).toBeVisible();
});

test('pane sizes are remembered across reloads', async ({ workbench: page }) => {
  const tree = page.getByRole('region', { name: 'Files' });
  const before = (await tree.boundingBox())?.width ?? 0;
  const handle = page.getByRole('separator', { name: 'Resize file tree' });
  const box = await handle.boundingBox();
  if (!box) throw new Error('no splitter');
  await page.mouse.move(box.x + 2, box.y + 200);
  await page.mouse.down();
  await page.mouse.move(box.x + 82, box.y + 200, { steps: 5 });
  await page.mouse.up();
  const after = (await tree.boundingBox())?.width ?? 0;
  expect(after).toBeGreaterThan(before + 60);
  await page.reload();
  await expect(page.getByTestId('app-shell')).toHaveAttribute('data-connection', 'ready');
  expect(Math.abs(((await tree.boundingBox())?.width ?? 0) - after)).toBeLessThan(3);
});

test('the help overlay lists the shortcuts', async ({ workbench: page }) => {
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toContainText('New terminal tab');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  await page.keyboard.press('F1');
  await expect(help).toBeVisible();
});
