import { describe, expect, it } from 'vitest';
import { cspMetaTag, CONTENT_SECURITY_POLICY, windowSecurity } from './security.js';

const sec = windowSecurity({
  preloadPath: '/app/out/preload/preload.cjs',
  appUrl: 'file:///app/out/renderer/index.html',
});

describe('window security', () => {
  it('isolates and sandboxes the renderer', () => {
    expect(sec.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      preload: '/app/out/preload/preload.cjs',
    });
  });
  it('has a strict CSP', () => {
    const directives = new Map(
      sec.csp.split(';').map((d) => {
        const [k, ...v] = d.trim().split(/\s+/);
        return [k, v.join(' ')];
      }),
    );
    expect(directives.get('default-src')).toBe("'self'");
    expect(directives.get('script-src')).toBe("'self'");
    expect(directives.get('worker-src')).toBe("'self' blob:");
    expect(directives.get('style-src')).toBe("'self' 'unsafe-inline'");
    expect(directives.get('connect-src')).toBe("'self' ws://127.0.0.1:*");
    expect(sec.csp).not.toContain('unsafe-eval');
  });
  it('denies navigation, window.open and permissions', () => {
    expect(sec.shouldPreventNavigation('https://example.com/')).toBe(true);
    expect(sec.shouldPreventNavigation('file:///etc/passwd')).toBe(true);
    expect(sec.shouldPreventNavigation('not a url')).toBe(true);
    expect(sec.shouldPreventNavigation('file:///app/out/renderer/index.html')).toBe(false);
    expect(sec.windowOpen()).toEqual({ action: 'deny' });
    expect(sec.allowPermission('media')).toBe(false);
    expect(sec.allowPermission('notifications')).toBe(false);
  });
  it('puts the same CSP in a meta tag for file:// pages, without the header-only directive', () => {
    const tag = cspMetaTag();
    expect(tag).toMatch(/^<meta http-equiv="Content-Security-Policy" content="[^"]+" \/>$/);
    expect(tag).toContain("script-src 'self'");
    expect(tag).toContain("object-src 'none'");
    expect(tag).not.toContain('frame-ancestors');
    expect(CONTENT_SECURITY_POLICY).toContain('frame-ancestors');
  });
});
