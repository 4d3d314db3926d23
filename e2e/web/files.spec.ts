/** File tree and editor against the engine's file API (no shell needed). */
import { DirectApi } from '../support/server.js';
import { currentSandboxId, expandDir, newSandbox, treeRow } from '../support/sandbox.js';
import { expect, test } from '../support/workbench.js';

const b64 = (s: string | Uint8Array) => Buffer.from(s).toString('base64');

test('create, open, edit and save a file; the engine has the new content', async ({
  workbench: page,
  info,
}) => {
  await newSandbox(page, 'files');
  const id = await currentSandboxId(page);
  await expandDir(page, '/tmp');
  await page.getByRole('button', { name: 'New file' }).click();
  const dialog = page.getByRole('dialog', { name: 'New file in /tmp' });
  await dialog.getByRole('textbox').fill('notes.md');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(treeRow(page, '/tmp/notes.md')).toBeVisible();
  await expect(treeRow(page, '/tmp/notes.md')).toContainText('-rw-r--r--');
  await expect(page.getByRole('tab', { name: /notes\.md/ })).toBeVisible();

  await page.locator('.monaco-editor .view-lines').click();
  await page.keyboard.type('# Hello from the editor');
  await expect(page.getByTestId('dirty-marker')).toBeVisible();
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('dirty-marker')).toBeHidden();

  const api = await DirectApi.open(info);
  const file = await api.call('readFile', { sandboxId: id, path: '/tmp/notes.md' });
  expect(Buffer.from(file.base64, 'base64').toString()).toBe('# Hello from the editor');

  // A change underneath reloads a clean editor.
  await api.call('writeFile', {
    sandboxId: id,
    path: '/tmp/notes.md',
    base64: b64('changed outside\n'),
  });
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('changed outside');

  // With unsaved edits, a change underneath asks first.
  await page.locator('.monaco-editor .view-lines').click();
  await page.keyboard.type('mine ');
  await api.call('writeFile', { sandboxId: id, path: '/tmp/notes.md', base64: b64('theirs\n') });
  await expect(page.getByRole('alert').filter({ hasText: 'changed in the sandbox' })).toBeVisible();
  await page.getByRole('button', { name: 'Reload from sandbox' }).click();
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('theirs');
  api.close();
});

test('the tree follows changes made through the API, and shows binary files as hex', async ({
  workbench: page,
  info,
}) => {
  await newSandbox(page, 'live');
  const id = await currentSandboxId(page);
  const api = await DirectApi.open(info);
  await api.call('mkdir', { sandboxId: id, path: '/project' });
  await api.call('writeFile', {
    sandboxId: id,
    path: '/project/data.bin',
    base64: b64(new Uint8Array([0, 1, 2, 255, 65, 66])),
  });
  await expect(treeRow(page, '/project')).toBeVisible();
  await expandDir(page, '/project');
  await treeRow(page, '/project/data.bin').click();
  await expect(page.getByLabel('Binary file')).toContainText('00000000  00 01 02 ff 41 42');

  await api.call('rename', { sandboxId: id, from: '/project/data.bin', to: '/project/moved.bin' });
  await expect(treeRow(page, '/project/moved.bin')).toBeVisible();
  await expect(treeRow(page, '/project/data.bin')).toHaveCount(0);
  await api.call('remove', { sandboxId: id, path: '/project', recursive: true });
  await expect(treeRow(page, '/project')).toHaveCount(0);
  api.close();
});

test('rename with F2, delete with Delete, drag to move', async ({ workbench: page, info }) => {
  await newSandbox(page, 'ops');
  const id = await currentSandboxId(page);
  const api = await DirectApi.open(info);
  await api.call('mkdir', { sandboxId: id, path: '/dest' });
  await api.call('writeFile', { sandboxId: id, path: '/a.txt', base64: b64('a') });
  await api.call('writeFile', { sandboxId: id, path: '/b.txt', base64: b64('b') });
  await expect(treeRow(page, '/a.txt')).toBeVisible();

  await treeRow(page, '/a.txt').click();
  await page.getByRole('tree', { name: 'File tree' }).press('F2');
  const dialog = page.getByRole('dialog', { name: 'Rename /a.txt' });
  await dialog.getByRole('textbox').fill('renamed.txt');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(treeRow(page, '/renamed.txt')).toBeVisible();

  await treeRow(page, '/b.txt').dragTo(treeRow(page, '/dest'));
  await expect(treeRow(page, '/b.txt')).toHaveCount(0);
  const moved = await api.call('readFile', { sandboxId: id, path: '/dest/b.txt' });
  expect(Buffer.from(moved.base64, 'base64').toString()).toBe('b');

  page.once('dialog', (d) => void d.accept());
  await treeRow(page, '/renamed.txt').click();
  await page.getByRole('tree', { name: 'File tree' }).press('Delete');
  await expect(treeRow(page, '/renamed.txt')).toHaveCount(0);
  api.close();
});

test('sandboxes can be renamed, configured and destroyed', async ({ workbench: page }) => {
  await newSandbox(page, 'temp');
  await page.getByRole('button', { name: 'Rename' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename sandbox' });
  await rename.getByRole('textbox').fill('kept');
  await rename.getByRole('button', { name: 'OK' }).click();
  await expect(page.locator('select[aria-label="Sandbox"] option:checked')).toHaveText('kept');

  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Sandbox settings' });
  await settings.getByLabel('Environment (NAME=value per line)').fill('bad line');
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(settings.getByRole('alert')).toContainText('expected NAME=value');
  await settings.getByLabel('Environment (NAME=value per line)').fill('GREETING=hi');
  await settings.getByLabel('Command timeout (seconds, 0 = none)').fill('5');
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(settings).toBeHidden();
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByLabel('Environment (NAME=value per line)')).toHaveValue('GREETING=hi');
  await page.getByRole('button', { name: 'Cancel' }).click();

  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Destroy' }).click();
  await expect(
    page.locator('select[aria-label="Sandbox"] option', { hasText: 'kept' }),
  ).toHaveCount(0);
});
