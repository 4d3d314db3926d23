/** Issue 6 acceptance: the API refuses a wrong token or a foreign Origin. */
import { statSync } from 'node:fs';
import { DirectApi, origin, tryConnect } from '../support/server.js';
import { expect, test } from '../support/workbench.js';

test('rejects a WebSocket with a wrong token or Origin', async ({ workbench: page, info }) => {
  expect(await tryConnect(info, 'wrong-token', origin(info))).toEqual({ status: 401 });
  expect(await tryConnect(info, '', origin(info))).toEqual({ status: 401 });
  expect(await tryConnect(info, info.token, 'http://evil.example')).toEqual({ status: 403 });
  expect(await tryConnect(info, info.token, `http://127.0.0.1:${info.port + 1}`)).toEqual({
    status: 403,
  });

  // From the page itself: the browser cannot open the socket without the token.
  const opened = await page.evaluate(
    (port) =>
      new Promise<string>((resolve) => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/api?token=nope`);
        ws.onopen = () => resolve('open');
        ws.onerror = () => resolve('refused');
      }),
    info.port,
  );
  expect(opened).toBe('refused');

  // The right token from our own origin works, and garbage is answered, not fatal.
  const api = await DirectApi.open(info);
  await expect(api.call('listSandboxes', {})).resolves.toBeInstanceOf(Array);
  await expect(api.call('readDir', { sandboxId: 'nope', path: '/' })).rejects.toThrow(/ENOENT/);
  api.close();
});

test('the page itself needs the token', async ({ request, info }) => {
  expect((await request.get(`${origin(info)}/`)).status()).toBe(401);
  expect((await request.get(`${origin(info)}/?token=bad`)).status()).toBe(401);
  expect(
    (await request.get(info.url, { headers: { Origin: 'http://evil.example' } })).status(),
  ).toBe(403);
  const ok = await request.get(info.url);
  expect(ok.status()).toBe(200);
  expect(ok.headers()['content-security-policy']).toContain("default-src 'self'");
  // The page carries the policy itself too, for file:// loads in Electron.
  expect(await ok.text()).toContain('<meta http-equiv="Content-Security-Policy"');
});

test('the file holding the token is readable by this user only', () => {
  const file = process.env.SANDGLASS_E2E_INFO as string;
  expect(statSync(file).mode & 0o077).toBe(0);
});
