/**
 * Access checks for the web-mode server: token, Origin and Host. Pure
 * functions so the rules are unit-tested without sockets.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export function tokenMatches(expected: string, given: string | null): boolean {
  if (given === null) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Origins a page served by us can have: the loopback names on our port. */
export function allowedOrigins(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
}

/** Host header values we answer to (DNS rebinding protection). */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export type AccessDecision = { ok: true } | { ok: false; status: 401 | 403; reason: string };

export interface AccessRequest {
  /** Request target, e.g. `/api?token=...`. */
  url: string;
  host: string | undefined;
  origin: string | undefined;
}

function tokenOf(url: string): string | null {
  try {
    return new URL(url, 'http://127.0.0.1').searchParams.get('token');
  } catch {
    return null;
  }
}

/**
 * Decides whether a request may proceed. `needsToken` is true for the
 * WebSocket and the app page; static assets carry no secrets and are served
 * to any request that passes the Host/Origin checks.
 */
export function checkAccess(
  req: AccessRequest,
  opts: { port: number; token: string; needsToken: boolean },
): AccessDecision {
  if (req.host === undefined || !allowedHosts(opts.port).includes(req.host.toLowerCase())) {
    return { ok: false, status: 403, reason: 'forbidden host' };
  }
  // Browsers always send Origin on WebSocket upgrades; a foreign one means a
  // page from elsewhere is trying to drive the engine. A missing Origin is a
  // local non-browser client, which still needs the token.
  if (req.origin !== undefined && !allowedOrigins(opts.port).includes(req.origin.toLowerCase())) {
    return { ok: false, status: 403, reason: 'forbidden origin' };
  }
  if (opts.needsToken && !tokenMatches(opts.token, tokenOf(req.url))) {
    return { ok: false, status: 401, reason: 'missing or wrong token' };
  }
  return { ok: true };
}

/** Content Security Policy of the workbench page (same as Electron's). */
export const WORKBENCH_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "img-src 'self' data: blob:",
  "connect-src 'self' ws://127.0.0.1:* ws://localhost:*",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');
