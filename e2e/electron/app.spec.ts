/**
 * The desktop app through Playwright's _electron. Skipped, with the reason,
 * where no Electron binary is installed (as on the build machine).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';

const root = join(import.meta.dirname, '..', '..');

function electronBinary(): string | null {
  const pkg = join(root, 'node_modules', 'electron');
  const pathFile = join(pkg, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(
    process.env.ELECTRON_OVERRIDE_DIST_PATH ?? join(pkg, 'dist'),
    readFileSync(pathFile, 'utf8').trim() || 'electron',
  );
  return existsSync(binary) ? binary : null;
}

const binary = electronBinary();

test.describe('electron app', () => {
  test.skip(
    binary === null,
    'no Electron binary installed (node_modules/electron/dist is missing; its download needs internet)',
  );

  // eslint-disable-next-line no-empty-pattern -- this spec needs no page fixture, only testInfo.
  test('opens the workbench window with an isolated, sandboxed renderer', async ({}, testInfo) => {
    const app = await electron.launch({ executablePath: binary ?? undefined, args: [root] });
    try {
      const win = await app.firstWindow();
      await expect(win.getByTestId('app-shell')).toHaveAttribute('data-connection', 'ready', {
        timeout: 30_000,
      });
      await expect(win.getByRole('region', { name: 'Files' })).toBeVisible();
      const exposed = await win.evaluate(() => ({
        keys: Object.keys((window as unknown as { sandglass?: object }).sandglass ?? {}).sort(),
        hasRequire: typeof (window as unknown as { require?: unknown }).require !== 'undefined',
        hasProcess: typeof (window as unknown as { process?: unknown }).process !== 'undefined',
      }));
      expect(exposed).toEqual({
        keys: ['apiVersion', 'onMessage', 'saveFile', 'send'],
        hasRequire: false,
        hasProcess: false,
      });
      const opened = await win.evaluate(() => window.open('https://example.com') === null);
      expect(opened).toBe(true);
      const shot = testInfo.outputPath('electron-window.png');
      await win.screenshot({ path: shot });
      await testInfo.attach('screenshot', { path: shot, contentType: 'image/png' });
    } finally {
      await app.close();
    }
  });
});
