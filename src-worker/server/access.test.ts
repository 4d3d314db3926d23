import { describe, expect, it } from 'vitest';
import { checkAccess, newToken, tokenMatches } from './access.js';

const opts = { port: 4000, token: 'secret-token', needsToken: true };

describe('checkAccess', () => {
  it('accepts the right token from our own origin', () => {
    expect(
      checkAccess(
        { url: '/api?token=secret-token', host: '127.0.0.1:4000', origin: 'http://127.0.0.1:4000' },
        opts,
      ),
    ).toEqual({ ok: true });
    expect(
      checkAccess(
        { url: '/api?token=secret-token', host: 'localhost:4000', origin: undefined },
        opts,
      ),
    ).toEqual({ ok: true });
  });
  it('answers 401 without or with a wrong token', () => {
    expect(
      checkAccess({ url: '/api', host: '127.0.0.1:4000', origin: 'http://127.0.0.1:4000' }, opts),
    ).toMatchObject({ ok: false, status: 401 });
    expect(
      checkAccess(
        { url: '/api?token=secret-tokeN', host: '127.0.0.1:4000', origin: undefined },
        opts,
      ),
    ).toMatchObject({ ok: false, status: 401 });
  });
  it('answers 403 to another origin or host, even with the token', () => {
    expect(
      checkAccess(
        { url: '/api?token=secret-token', host: '127.0.0.1:4000', origin: 'http://evil.example' },
        opts,
      ),
    ).toMatchObject({ ok: false, status: 403 });
    expect(
      checkAccess(
        { url: '/api?token=secret-token', host: '127.0.0.1:4000', origin: 'http://127.0.0.1:4001' },
        opts,
      ),
    ).toMatchObject({ ok: false, status: 403 });
    expect(
      checkAccess(
        { url: '/api?token=secret-token', host: 'evil.example:4000', origin: undefined },
        opts,
      ),
    ).toMatchObject({ ok: false, status: 403 });
    expect(
      checkAccess({ url: '/api?token=secret-token', host: undefined, origin: undefined }, opts),
    ).toMatchObject({ ok: false, status: 403 });
  });
  it('serves assets without a token but still checks the host', () => {
    expect(
      checkAccess(
        { url: '/assets/x.js', host: '127.0.0.1:4000', origin: undefined },
        { ...opts, needsToken: false },
      ),
    ).toEqual({ ok: true });
  });
});

describe('tokens', () => {
  it('are random and compared exactly', () => {
    const a = newToken();
    expect(a).not.toBe(newToken());
    expect(a.length).toBeGreaterThanOrEqual(32);
    expect(tokenMatches(a, a)).toBe(true);
    expect(tokenMatches(a, a.slice(1))).toBe(false);
    expect(tokenMatches(a, null)).toBe(false);
  });
});
