/**
 * Python in the workbench (issue 16): the REPL in the terminal with line
 * editing and history, Ctrl-C cancelling a line and interrupting code,
 * Ctrl-D leaving; a script interrupted by Ctrl-C exits 130; a file a
 * script writes appears in the file tree.
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
  waitForPrompt,
  waitForTerminal,
} from '../support/workbench.js';

/** The last non-empty line of the terminal. */
async function lastLine(page: Parameters<typeof terminalText>[0]): Promise<string> {
  return (
    (await terminalText(page))
      .split('\n')
      .filter((l) => l.trim() !== '')
      .pop() ?? ''
  );
}

test('python3 REPL: prompt, history, blocks, Ctrl-C and Ctrl-D', async ({ workbench: page }) => {
  test.setTimeout(180_000);
  await freshShell(page, 'py-repl');
  await runInTerminal(page, 'python3');
  await waitForTerminal(page, /Type "help", "copyright", "credits" or "license"/, 60_000);
  await expect.poll(() => lastLine(page), { timeout: 30_000 }).toMatch(/^>>> *$/);
  await page.keyboard.type('6 * 7');
  await page.keyboard.press('Enter');
  await waitForTerminal(page, /^42 *$/m);
  // Up recalls the line; editing it with the arrows changes what runs ("6 * 17").
  await page.keyboard.press('ArrowUp');
  await expect.poll(() => lastLine(page)).toMatch(/^>>> 6 \* 7 *$/);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.type('1');
  await page.keyboard.press('Enter');
  await waitForTerminal(page, /^102 *$/m);
  // A block continues with "... " until an empty line.
  await page.keyboard.type('for i in range(3):');
  await page.keyboard.press('Enter');
  await expect.poll(() => lastLine(page)).toMatch(/^\.\.\. +$/);
  await page.keyboard.type('print("row", i * 10)');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await waitForTerminal(page, /^row 20 *$/m);
  // Ctrl-C cancels the typed line, then interrupts running code.
  await page.keyboard.type('never run');
  await page.keyboard.press('Control+c');
  await waitForTerminal(page, /^KeyboardInterrupt *$/m);
  await page.keyboard.type('import time; time.sleep(60)');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('stat-running')).not.toHaveText('idle', { timeout: 10_000 });
  await page.waitForTimeout(500);
  await page.keyboard.press('Control+c');
  await waitForTerminal(page, /File "<python-input-\d+>", line 1/, 10_000);
  await expect.poll(() => lastLine(page), { timeout: 10_000 }).toMatch(/^>>> *$/);
  await page.keyboard.press('Control+d');
  await waitForPrompt(page);
  await runInTerminal(page, 'echo "repl left $?"');
  await waitForTerminal(page, /^repl left 0 *$/m);
});

test('Ctrl-C ends a python3 script with KeyboardInterrupt and status 130', async ({
  workbench: page,
}) => {
  test.setTimeout(120_000);
  await freshShell(page, 'py-int');
  await runInTerminal(page, `python3 -c "import time; print('sleeping'); time.sleep(100)"`);
  await waitForTerminal(page, /^sleeping *$/m, 60_000);
  await page.keyboard.press('Control+c');
  await waitForTerminal(page, /^KeyboardInterrupt *$/m, 10_000);
  await waitForPrompt(page);
  await expect(stepRows(page).filter({ hasText: 'time.sleep(100)' })).toHaveAttribute(
    'data-status',
    '130',
  );
});

test('a file a python3 script writes appears in the file tree', async ({ workbench: page }) => {
  test.setTimeout(120_000);
  await freshShell(page, 'py-tree');
  await runAndWait(
    page,
    `python3 -c "import pathlib; p = pathlib.Path('/tmp/pyout'); p.mkdir(); (p / 'made-by-python.txt').write_text('hi')"`,
    60_000,
  );
  await expandDir(page, '/tmp');
  await expandDir(page, '/tmp/pyout');
  await expect(treeRow(page, '/tmp/pyout/made-by-python.txt')).toBeVisible();
  await focusTerminal(page);
  await runInTerminal(page, `python3 -c "import os; os.remove('/tmp/pyout/made-by-python.txt')"`);
  await expect(treeRow(page, '/tmp/pyout/made-by-python.txt')).toHaveCount(0, {
    timeout: 60_000,
  });
});
