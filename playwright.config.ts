/**
 * End-to-end suite. `web` drives the web workbench in Debian's Chromium; the
 * server is started by `webServer` on a free port and writes its URL and token
 * to a file the specs read (e2e/support/server.ts). `electron` drives the app
 * through Playwright's _electron and skips itself when no binary is installed.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

// Workers inherit the runner's environment, so the port is chosen once.
if (!process.env.SANDGLASS_E2E_PORT) {
  const script =
    "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  process.env.SANDGLASS_E2E_PORT = execFileSync(process.execPath, ['-e', script], {
    encoding: 'utf8',
  }).trim();
}
const port = process.env.SANDGLASS_E2E_PORT;
const infoFile = join(import.meta.dirname, 'test-results', `server-${port}.json`);
process.env.SANDGLASS_E2E_INFO = infoFile;
mkdirSync(join(import.meta.dirname, 'test-results'), { recursive: true });

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results/e2e',
  fullyParallel: false,
  workers: 1,
  // As vitest.config.ts: once more before a failure counts (scripts/test.mjs counts a pass on
  // the retry as flaky and names it).
  retries: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'web',
      testDir: './e2e/web',
      use: {
        browserName: 'chromium',
        viewport: { width: 1400, height: 900 },
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
          ],
        },
      },
    },
    { name: 'electron', testDir: './e2e/electron' },
  ],
  webServer: {
    command: 'node scripts/start.mjs',
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
    env: { SANDGLASS_PORT: port, SANDGLASS_INFO_FILE: infoFile },
  },
});
