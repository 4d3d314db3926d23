import { describe, expect, it } from 'vitest';
import { API_METHODS, isSandglassChannel, parseClientMessage, validateParams } from './validate.js';

describe('parseClientMessage', () => {
  it('accepts a well-formed request', () => {
    const r = parseClientMessage({
      type: 'request',
      id: 1,
      method: 'readDir',
      params: { sandboxId: 'sb1', path: '/' },
    });
    expect(r.ok).toBe(true);
  });
  it('rejects non-objects, unknown types, bad ids and unknown methods with codes', () => {
    expect(parseClientMessage('x')).toMatchObject({
      ok: false,
      id: null,
      error: { code: 'EBADMSG' },
    });
    expect(parseClientMessage({ type: 'hack', id: 2 })).toMatchObject({
      ok: false,
      id: 2,
      error: { code: 'EBADMSG' },
    });
    expect(
      parseClientMessage({ type: 'request', id: 1.5, method: 'stats', params: {} }),
    ).toMatchObject({ ok: false, error: { code: 'EBADMSG' } });
    expect(
      parseClientMessage({ type: 'request', id: 3, method: 'constructor', params: {} }),
    ).toMatchObject({ ok: false, id: 3, error: { code: 'ENOSYS' } });
    expect(
      parseClientMessage({ type: 'request', id: 3, method: '__proto__', params: {} }),
    ).toMatchObject({ ok: false, error: { code: 'ENOSYS' } });
  });
  it('rejects missing, extra and mistyped params', () => {
    expect(validateParams('readDir', { sandboxId: 'a' })).toMatch(/missing parameter "path"/);
    expect(validateParams('readDir', { sandboxId: 'a', path: '/', evil: 1 })).toMatch(
      /unknown parameter "evil"/,
    );
    expect(validateParams('terminalResize', { terminalId: 't', cols: 'x', rows: 2 })).toMatch(
      /cols must be a finite number/,
    );
    expect(validateParams('terminalResize', { terminalId: 't', cols: Infinity, rows: 2 })).toMatch(
      /cols/,
    );
    expect(validateParams('stats', null)).toMatch(/params must be an object/);
    expect(validateParams('remove', { sandboxId: 'a', path: '/x', recursive: 'yes' })).toMatch(
      /boolean/,
    );
  });
  it('checks settings deeply', () => {
    const settings = {
      limits: { totalBytes: 1, fileBytes: 1, nodeCount: 1, processCount: 1, outputBytes: 1 },
      env: { A: 'b' },
      timeoutMs: 5,
    };
    expect(validateParams('updateSettings', { sandboxId: 's', settings })).toBeNull();
    expect(
      validateParams('updateSettings', {
        sandboxId: 's',
        settings: { ...settings, env: { 'A B': 'x' } },
      }),
    ).toMatch(/not a valid variable name/);
    expect(
      validateParams('updateSettings', {
        sandboxId: 's',
        settings: { ...settings, timeoutMs: -1 },
      }),
    ).toMatch(/timeoutMs/);
    expect(
      validateParams('updateSettings', {
        sandboxId: 's',
        settings: { ...settings, limits: { ...settings.limits, nodeCount: 'many' } },
      }),
    ).toMatch(/limits.nodeCount/);
  });
  it('checks the newer methods and optional fields', () => {
    expect(validateParams('listSteps', { sandboxId: 's', offset: 0, limit: 10 })).toBeNull();
    expect(validateParams('listSteps', { sandboxId: 's', offset: -1 })).toMatch(/offset/);
    expect(validateParams('listSteps', { sandboxId: 's', limit: 1.5 })).toMatch(/limit/);
    expect(validateParams('answer', { requestId: 'r', answer: { allow: true } })).toBeNull();
    expect(validateParams('answer', { requestId: 'r', answer: { allow: 'yes' } })).toMatch(
      /answer.allow must be a boolean/,
    );
    expect(validateParams('answer', { requestId: 'r', answer: { allow: true, x: 1 } })).toMatch(
      /unknown field of answer: "x"/,
    );
    expect(
      validateParams('writeFile', { sandboxId: 's', path: '/a', base64: '', mode: 0o10000 }),
    ).toMatch(/mode/);
    expect(validateParams('subscribe', { sandboxId: 's' })).toBeNull();
  });
  it('lists every method', () => {
    expect(API_METHODS).toContain('openTerminal');
    expect(API_METHODS.length).toBeGreaterThan(15);
  });
});

describe('isSandglassChannel', () => {
  it('requires the prefix and a name', () => {
    expect(isSandglassChannel('sandglass:connect')).toBe(true);
    expect(isSandglassChannel('sandglass:')).toBe(false);
    expect(isSandglassChannel('electron:x')).toBe(false);
    expect(isSandglassChannel(42)).toBe(false);
  });
});
