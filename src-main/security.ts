/**
 * Security settings of the workbench window as pure data and decisions, so
 * they are unit-tested without Electron: web preferences, the CSP, and what
 * to do on navigation, window.open and permission requests.
 */

/** Same policy the web server sends; Monaco needs inline styles and blob workers. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "img-src 'self' data: blob:",
  "connect-src 'self' ws://127.0.0.1:*",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

/**
 * The same policy as a `<meta>` tag for the built index.html: a response
 * header does not reach pages loaded from file://. `frame-ancestors` is
 * ignored in a meta tag (the header and the window handlers cover framing).
 */
export function cspMetaTag(): string {
  const policy = CONTENT_SECURITY_POLICY.split('; ')
    .filter((d) => !d.startsWith('frame-ancestors'))
    .join('; ');
  return `<meta http-equiv="Content-Security-Policy" content="${policy}" />`;
}

export interface WindowSecurity {
  webPreferences: {
    preload: string;
    contextIsolation: true;
    sandbox: true;
    nodeIntegration: false;
    nodeIntegrationInWorker: false;
    nodeIntegrationInSubFrames: false;
    webSecurity: true;
    allowRunningInsecureContent: false;
    webviewTag: false;
    spellcheck: false;
  };
  /** Header added to every response of the window's session. */
  csp: string;
  /** True when a navigation to `url` must be prevented (all of them, except reloading the app itself). */
  shouldPreventNavigation(url: string): boolean;
  /** Answer to window.open: always deny. */
  windowOpen(): { action: 'deny' };
  /** Answer to permission requests (camera, notifications, ...): always deny. */
  allowPermission(permission: string): boolean;
}

export function windowSecurity(options: { preloadPath: string; appUrl: string }): WindowSecurity {
  const app = new URL(options.appUrl);
  return {
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
    csp: CONTENT_SECURITY_POLICY,
    shouldPreventNavigation(url: string): boolean {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        return true;
      }
      // Only a reload of the app page itself is allowed.
      return !(
        target.protocol === app.protocol &&
        target.host === app.host &&
        target.pathname === app.pathname
      );
    },
    windowOpen: () => ({ action: 'deny' }),
    allowPermission: () => false,
  };
}
