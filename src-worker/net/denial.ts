/**
 * Why a request did not happen or did not finish: a machine-readable reason
 * (the net syscalls turn it into an errno) and a one-line message naming the
 * rule that decided, which curl and wget print.
 */

/** The request was refused before any byte left the machine. */
export type DenialReason =
  /** A blockedHosts entry matched (blocked always wins). */
  | 'blocked'
  /** No allowedHosts entry matched and nobody approved it (default deny). */
  | 'not-allowed'
  /** Loopback, private, metadata, ... not named by an entry. */
  | 'special-address'
  /** onRequest answered no (or failed). */
  | 'denied-by-approver'
  /** Not an http(s) URL we will fetch. */
  | 'bad-url'
  /** A header name or value that could smuggle a second request or header. */
  | 'bad-header'
  /** A method that is not an HTTP token, or CONNECT. */
  | 'bad-method';

/** The request was allowed but failed on the way. */
export type FailureReason =
  | 'resolve-failed'
  | 'connect-failed'
  | 'tls-failed'
  | 'timeout'
  | 'byte-limit'
  | 'too-many-redirects'
  | 'redirect-body'
  | 'cancelled'
  | 'transfer-failed'
  /** The connection closed before the body's framing said it was complete (curl's 18). */
  | 'partial-body'
  /** The connection closed before any byte of a response (curl's 52). */
  | 'empty-reply'
  /** A response that breaks HTTP/1.1's framing or syntax (curl's 56). */
  | 'bad-response'
  /** An answer that is not HTTP/1.x at all (curl's 1: HTTP/0.9 is refused). */
  | 'not-http';

export type NetReason = DenialReason | FailureReason;

/** Reason codes of the net syscalls: the index in this list. Append only. */
export const NET_REASON_CODES: readonly NetReason[] = [
  'blocked',
  'not-allowed',
  'special-address',
  'denied-by-approver',
  'bad-url',
  'bad-header',
  'bad-method',
  'resolve-failed',
  'connect-failed',
  'tls-failed',
  'timeout',
  'byte-limit',
  'too-many-redirects',
  'redirect-body',
  'cancelled',
  'transfer-failed',
  'partial-body',
  'empty-reply',
  'bad-response',
  'not-http',
];

// The first seven codes are the denials.
const DENIALS: ReadonlySet<NetReason> = new Set(NET_REASON_CODES.slice(0, 7));

export interface NetErrorDetail {
  url?: string;
  /** The policy entry (or `default`, `special:<category>`, `onRequest`) that decided. */
  rule?: string | null;
  /** Who decided a denial: `policy` or the approver's name. */
  decidedBy?: string;
}

export class NetError extends Error {
  override readonly name = 'NetError';
  readonly url: string | null;
  readonly rule: string | null;
  readonly decidedBy: string;

  constructor(
    readonly reason: NetReason,
    message: string,
    detail: NetErrorDetail = {},
  ) {
    super(message);
    this.url = detail.url ?? null;
    this.rule = detail.rule ?? null;
    this.decidedBy = detail.decidedBy ?? 'policy';
  }

  /** True when the policy (or an approver) refused, false when the transfer failed. */
  get denied(): boolean {
    return DENIALS.has(this.reason);
  }
}

/** A policy denial of `authority` (`host:port`), with the message curl will print. */
export function denial(
  reason: DenialReason,
  authority: string,
  why: string,
  detail: NetErrorDetail,
): NetError {
  return new NetError(reason, `network policy denied ${authority}: ${why}`, detail);
}

/** Program-supplied text inside a message: quoted, escaped, never a second line. */
export function quote(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}...` : text);
}

/** Text from an approver or a library on one line: control characters become spaces. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\x00-\x1f\x7f]+/g, ' ').trim();
}
