/**
 * Issue 6 acceptance specs that need the shell: terminal output, files from
 * the terminal in the tree, edit-save-cat, Ctrl-C, tab completion, steps and
 * restore. They skip (with the engine's reason) while no shell is installed.
 */
import { expandDir, treeRow } from '../support/sandbox.js';
import {
  expect,
  focusTerminal,
  freshShell,
  runAndWait,
  runInTerminal,
  stepRows,
  terminalText,
  test,
  waitForTerminal,
} from '../support/workbench.js';

test('runs commands in the terminal and shows their output', async ({ workbench: page }) => {
  await freshShell(page, 'term-output');
  await runInTerminal(page, 'echo hello-$((6 * 7))');
  await waitForTerminal(page, /^hello-42 *$/m);
  await runInTerminal(page, 'printf "%s\\n" one two | wc -l');
  await waitForTerminal(page, /^2 *$/m);
});

test('a file created from the terminal appears in the tree', async ({ workbench: page }) => {
  await freshShell(page, 'term-tree');
  await runAndWait(page, 'mkdir -p /tmp/e2e && echo made > /tmp/e2e/fromterm.txt');
  await expandDir(page, '/tmp');
  await expect(treeRow(page, '/tmp/e2e')).toBeVisible();
  await expandDir(page, '/tmp/e2e');
  await expect(treeRow(page, '/tmp/e2e/fromterm.txt')).toBeVisible();
  await runInTerminal(page, 'rm /tmp/e2e/fromterm.txt');
  await expect(treeRow(page, '/tmp/e2e/fromterm.txt')).toHaveCount(0);
});

test("the live tree opens at the terminal shell's cwd and follows cd", async ({
  workbench: page,
}) => {
  await freshShell(page, 'term-cwd');
  // A file made where the shell starts is visible without opening anything.
  await runAndWait(page, 'echo here > made-at-home.txt');
  await expect(treeRow(page, '/home/user')).toHaveAttribute('data-cwd', '');
  await expect(treeRow(page, '/home/user/made-at-home.txt')).toBeVisible();
  await runAndWait(page, 'mkdir -p /tmp/deep/er && cd /tmp/deep/er');
  await expect(treeRow(page, '/tmp/deep/er')).toHaveAttribute('data-cwd', '');
  await expect(treeRow(page, '/home/user')).not.toHaveAttribute('data-cwd', '');
});

test('open a file, edit, save, and cat it in the terminal', async ({ workbench: page }) => {
  await freshShell(page, 'term-edit');
  await runAndWait(page, 'echo original > /tmp/edit.txt');
  await expandDir(page, '/tmp');
  await treeRow(page, '/tmp/edit.txt').click();
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('original');
  await page.locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('edited by monaco');
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('dirty-marker')).toBeHidden();
  await runInTerminal(page, 'cat /tmp/edit.txt; echo');
  await waitForTerminal(page, /^edited by monaco *$/m);
});

test('Ctrl-C interrupts sleep 100 and gives the prompt back', async ({ workbench: page }) => {
  await freshShell(page, 'term-int');
  await runInTerminal(page, 'sleep 100');
  await expect(page.getByTestId('stat-running')).not.toHaveText('idle', { timeout: 10_000 });
  const started = Date.now();
  await page.keyboard.press('Control+c');
  await runInTerminal(page, 'echo after-interrupt');
  await waitForTerminal(page, /^after-interrupt *$/m, 5_000);
  expect(Date.now() - started).toBeLessThan(5_000);
  await expect(stepRows(page).filter({ hasText: 'sleep 100' })).toHaveAttribute(
    'data-status',
    /^(130|2)$/,
  );
});

test('tab completes a path', async ({ workbench: page }) => {
  await freshShell(page, 'term-tab');
  await runAndWait(
    page,
    'mkdir -p /tmp/completion-target-dir && touch /tmp/completion-target-dir/inside.txt',
  );
  await focusTerminal(page);
  await page.keyboard.type('ls /tmp/completion-ta');
  await page.keyboard.press('Tab');
  await waitForTerminal(page, /ls \/tmp\/completion-target-dir\/?/);
  await page.keyboard.press('Enter');
  await waitForTerminal(page, /^inside\.txt *$/m);
});

test('every command is a step with its exit status', async ({ workbench: page }) => {
  await freshShell(page, 'term-steps');
  await runAndWait(page, 'true');
  await runAndWait(page, 'false');
  await runAndWait(page, '(exit 3)');
  await expect(stepRows(page)).toHaveCount(3, { timeout: 15_000 });
  await expect(stepRows(page).nth(0)).toHaveAttribute('data-status', '0');
  await expect(stepRows(page).nth(0)).toContainText('true');
  await expect(stepRows(page).nth(1)).toHaveAttribute('data-status', '1');
  await expect(stepRows(page).nth(1)).toContainText('false');
  await expect(stepRows(page).nth(2)).toHaveAttribute('data-status', '3');
  await stepRows(page).nth(2).click();
  await expect(page.getByTestId('step-detail-status')).toHaveText('3');
  // The terminal decorates commands with their status too.
  await expect(page.locator('.cmd-mark.cmd-fail')).toHaveCount(2);
  await expect(page.locator('.cmd-mark.cmd-ok')).toHaveCount(1);
});

test('restoring an earlier step brings the tree and cat into agreement', async ({
  workbench: page,
}) => {
  await freshShell(page, 'term-restore');
  await runAndWait(page, 'echo v1 > /tmp/r.txt');
  await runAndWait(page, 'echo v2 > /tmp/r.txt && touch /tmp/later.txt');
  await expect(stepRows(page)).toHaveCount(2, { timeout: 15_000 });
  await expandDir(page, '/tmp');
  await expect(treeRow(page, '/tmp/later.txt')).toBeVisible();

  // Selecting the first step shows its snapshot read-only.
  await stepRows(page).nth(0).click();
  await expect(page.getByText('(read-only)').first()).toBeVisible();
  await expect(treeRow(page, '/tmp/later.txt')).toHaveCount(0);
  await page.getByRole('button', { name: 'Back to live' }).first().click();

  // Continuing from it shows what will change, then restores.
  await stepRows(page).nth(0).click();
  await page.getByRole('button', { name: 'Continue from here' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByText('(read-only)')).toHaveCount(0);
  await expect(treeRow(page, '/tmp/later.txt')).toHaveCount(0);
  await treeRow(page, '/tmp/r.txt').click();
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('v1');
  await runInTerminal(page, 'cat /tmp/r.txt; ls /tmp');
  await waitForTerminal(page, /^v1 *$/m);
  expect(await terminalText(page)).not.toMatch(/^later\.txt/m);
});
