/** Creates a fresh sandbox through the UI so specs do not share state. */
import type { Page } from '@playwright/test';
import { expect } from '@playwright/test';

export async function newSandbox(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'New sandbox' }).click();
  const dialog = page.getByRole('dialog', { name: 'Name of the new sandbox' });
  await dialog.getByRole('textbox').fill(name);
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('combobox', { name: 'Sandbox' })).toHaveValue(/sb\d+/);
  await expect(page.locator('select[aria-label="Sandbox"] option:checked')).toHaveText(name);
}

export async function currentSandboxId(page: Page): Promise<string> {
  return page.getByRole('combobox', { name: 'Sandbox' }).inputValue();
}

export function treeRow(page: Page, path: string) {
  return page.locator(`.tree-row[data-path="${path}"]`);
}

/** Opens a folder in the tree unless it is open already (the tree opens folders of new files itself). */
export async function expandDir(page: Page, path: string): Promise<void> {
  const row = treeRow(page, path);
  await expect(row).toBeVisible();
  if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
  await expect(row).toHaveAttribute('aria-expanded', 'true');
}
