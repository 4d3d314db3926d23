/**
 * The network gateway of one sandbox: every HTTP(S) request a program makes
 * passes here. Each hop (the request and every redirect it follows) is
 * checked against the policy, shown to onRequest, resolved once, checked
 * address by address, and connected to exactly the checked addresses. Bodies
 * stream both ways with back-pressure under byte limits and a total timeout
 * that pauses while a person decides. Every hop leaves an audit record.
 */
import type { SecureContextOptions } from 'node:tls';
import { addressText, parseAddress, type IpAddress } from './address.js';
import type { AuditRecord } from './audit.js';
import { NetError, denial, oneLine, quote } from './denial.js';
import { Exchange, HopAudit, toNetError, untilAborted } from './exchange.js';
import {
  checkHeaders,
  checkMethod,
  headerRecord,
  headersForHop,
  type HeaderList,
} from './headers.js';
import { gatewayLimits, tighten, type GatewayLimits } from './limits.js';
import type { Connection } from './node/connection.js';
import type { DispatchedResponse } from './node/dispatch.js';
import { http1Connection } from './node/http1Connection.js';
import type { SocketEnd } from './node/pinnedAgent.js';
import { undiciConnection } from './node/undiciConnection.js';
import { systemResolver, type Resolver } from './node/resolver.js';
import type { HostRule } from './hostEntry.js';
import { CompiledPolicy, type NetworkPolicy } from './policy.js';
import { ResponseBody, type BodyFraming } from './responseBody.js';
import { parseTarget, sameOrigin, type RequestTarget } from './target.js';

export interface GatewayOptions {
  sandboxId: string;
  policy?: NetworkPolicy | CompiledPolicy;
  limits?: Partial<GatewayLimits>;
  /** Defaults to the system resolver; tests pass a table. */
  resolver?: Resolver;
  onAudit?: (record: AuditRecord) => void;
  /** Extra trust roots for TLS; certificate checks cannot be turned off. */
  ca?: SecureContextOptions['ca'];
  /**
   * Which client speaks plain http: our own (default; net/node/
   * http1Connection.ts) or undici, as https always does (tests, A/B benches).
   */
  plainHttpClient?: 'own' | 'undici';
}

/** Which process asked, for onRequest and the audit. */
export interface RequestContext {
  pid?: number | null;
  argv?: string[];
  stepId?: string | null;
  /** Why the agent says the program needs the network (SANDGLASS_NET_REASON), for approvers. */
  agentReason?: string | null;
}

export interface NetRequest {
  url: string;
  /** Passed through as given (any HTTP token but CONNECT); default GET. */
  method?: string;
  headers?: HeaderList;
  /** A buffer (resent on a 307/308) or a stream (read once, with back-pressure). */
  body?: Uint8Array | AsyncIterable<Uint8Array> | null;
  followRedirects?: boolean;
  /** Per-request limits may only tighten the gateway's. */
  maxRedirects?: number;
  maxResponseBytes?: number;
  connectTimeoutMs?: number;
  timeoutMs?: number;
  context?: RequestContext;
  /** Ctrl-C, kill, the command's time limit, the sandbox going away. */
  signal?: AbortSignal;
  /** Called with true when waiting for onRequest starts and false when it ends. */
  onApprovalWait?: (waiting: boolean) => void;
  /**
   * Connect the first hop here instead of where the URL's host resolves
   * (curl's `--resolve` and `--connect-to`): a name or an address, and a
   * port. The URL's host must still be allowed, and so must this place, by
   * the lists themselves (an approval never opens it), with every address
   * checked as if it were requested; the request's Host and TLS name stay
   * the URL's.
   */
  connectTo?: { host: string; port: number } | null;
}

export interface NetResponse {
  /** The URL that answered (after redirects). */
  url: string;
  status: number;
  statusText: string;
  /** The status line's HTTP version: `1.1`, or `1.0` from an old server. */
  httpVersion: string;
  /** As received: order and spelling kept. */
  headers: HeaderList;
  redirects: number;
  /** The checked addresses this response's connection could use. */
  addresses: string[];
  /** The connection's two ends as the socket reports them (null if unknown). */
  local: SocketEnd | null;
  remote: SocketEnd | null;
  /**
   * Read on demand (async iteration, or `read` into a buffer); at most
   * RESPONSE_HIGH_WATER bytes wait here before the socket is paused.
   */
  body: ResponseBody;
  /** Stop early: drops the connection and finishes the audit record. */
  close(): void;
  /** Time spent waiting for onRequest across all hops so far. */
  readonly approvalWaitMs: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/**
 * Response bytes read ahead of the program: one net_body_read's worth (its
 * 1 MiB buffer) ready while it writes the last one out. undici's stream
 * holds up to its own 1 MiB more before the socket stops.
 */
export const RESPONSE_HIGH_WATER = 1024 * 1024;

export class NetworkGateway {
  private compiled: CompiledPolicy;
  readonly limits: GatewayLimits;
  private readonly resolver: Resolver;
  private readonly budget: { used: number; max: number };

  constructor(private readonly options: GatewayOptions) {
    this.compiled = compile(options.policy);
    this.limits = gatewayLimits(options.limits);
    this.resolver = options.resolver ?? systemResolver;
    this.budget = { used: 0, max: this.limits.maxSandboxBytes };
  }

  get policy(): CompiledPolicy {
    return this.compiled;
  }

  /**
   * Replace the policy (settings changed). Hops checked from now on use it;
   * the byte budget and requests already connected carry on.
   */
  setPolicy(policy: NetworkPolicy | CompiledPolicy): void {
    this.compiled = compile(policy);
  }

  /** Body bytes both ways so far, against maxSandboxBytes. */
  get bytesUsed(): number {
    return this.budget.used;
  }

  /**
   * Make a request. Resolves with the response head once it arrives; the
   * body streams from `body`. Rejects with a NetError (denied or failed).
   */
  async request(req: NetRequest): Promise<NetResponse> {
    const limits = tighten(this.limits, req);
    const ex = new Exchange(limits, this.budget, req.url, req.signal);
    const ctx = req.context ?? {};
    let method = req.method ?? 'GET';
    let headers = req.headers ?? [];
    let body = req.body ?? null;
    let bodyUsed = false;
    // Where the next hop goes; a redirect's Location is parsed inside its
    // own hop, so a bad target is audited like any other denial.
    let next: { href: string; from: RequestTarget | null; dropBody: boolean } = {
      href: req.url,
      from: null,
      dropBody: false,
    };
    try {
      for (let hop = 0; ; hop++) {
        const audit = new HopAudit(ex, this.options.onAudit, {
          sandboxId: this.options.sandboxId,
          pid: ctx.pid ?? null,
          argv: ctx.argv ?? [],
          stepId: ctx.stepId ?? null,
          hop,
          url: next.href,
          method,
        });
        let conn: Connection | null = null;
        try {
          const t = parseTarget(next.href, next.from?.url);
          audit.record.url = t.url.href;
          if (next.from) headers = headersForHop(headers, !sameOrigin(next.from, t), next.dropBody);
          checkMethod(method, t);
          const sendHeaders = checkHeaders(headers, t);
          const via = hop === 0 && req.connectTo ? connectTarget(t, req.connectTo) : null;
          const admitted = await this.admit(t, method, sendHeaders, hop, ex, req, via);
          Object.assign(audit.record, admitted, { decision: 'allow' });
          if (body instanceof Uint8Array) {
            ex.count('sent', body.length);
          } else if (body && bodyUsed) {
            throw new NetError(
              'redirect-body',
              'cannot resend a streamed request body to a redirect',
              {
                url: t.url.href,
              },
            );
          } else if (body) {
            bodyUsed = true;
          }
          conn = await this.connection(t, admitted.addresses, limits.connectTimeoutMs, via?.port);
          const res = await conn.send(
            {
              url: t.url,
              method,
              headers: sendHeaders,
              body: body instanceof Uint8Array || body === null ? body : this.countSent(body, ex),
            },
            ex.signal,
          );
          audit.record.status = res.statusCode;
          const resHeaders = rawHeaders(res.rawHeaders);
          const location = REDIRECTS.has(res.statusCode)
            ? headerValue(resHeaders, 'location')
            : null;
          if (req.followRedirects && location !== null) {
            await discard(res);
            if (hop + 1 > limits.maxRedirects) {
              throw new NetError(
                'too-many-redirects',
                `maximum (${limits.maxRedirects}) redirects followed`,
                {
                  url: t.url.href,
                  rule: 'maxRedirects',
                },
              );
            }
            conn.close();
            conn = null;
            audit.finish(null);
            const upper = method.toUpperCase();
            const toGet =
              (res.statusCode === 303 && upper !== 'HEAD') ||
              ((res.statusCode === 301 || res.statusCode === 302) && upper === 'POST');
            if (toGet) {
              method = 'GET';
              body = null;
            }
            next = { href: location, from: t, dropBody: toGet };
            continue;
          }
          const declared = Number(headerValue(resHeaders, 'content-length') ?? NaN);
          if (declared > limits.maxResponseBytes) {
            throw new NetError(
              'byte-limit',
              `response of ${declared} bytes exceeds the limit of ${limits.maxResponseBytes} bytes`,
              { url: t.url.href, rule: 'maxResponseBytes' },
            );
          }
          return this.respond(t, hop, res, resHeaders, conn, audit, ex, admitted.addresses);
        } catch (err) {
          const ne = toNetError(err, ex, audit.record.url, limits);
          conn?.destroy();
          audit.finish(ne);
          throw ne;
        }
      }
    } catch (err) {
      ex.dispose();
      throw err;
    }
  }

  /** A connection to the checked addresses only: ours for http, undici's for https. */
  private connection(
    t: RequestTarget,
    addresses: string[],
    connectTimeoutMs: number,
    port: number | undefined,
  ): Promise<Connection> | Connection {
    const checked = addresses.map((a) => parseAddress(a) as IpAddress);
    const other = port !== undefined && port !== t.port ? { port } : {};
    if (t.url.protocol === 'http:' && this.options.plainHttpClient !== 'undici') {
      return http1Connection({ addresses: checked, connectTimeoutMs, ...other });
    }
    return undiciConnection({
      hostname: t.url.hostname,
      addresses: checked,
      connectTimeoutMs,
      ca: this.options.ca,
      ...other,
    });
  }

  /**
   * The checks of one hop, in order: name entries (blocked wins); the lookup
   * and address checks when the policy can already decide; onRequest; then
   * the lookup an approval was waiting for. Returns the addresses that may be
   * connected to and who allowed it.
   */
  private async admit(
    t: RequestTarget,
    method: string,
    headers: HeaderList,
    hop: number,
    ex: Exchange,
    req: NetRequest,
    via: RequestTarget | null = null,
  ): Promise<{ addresses: string[]; decidedBy: string; rule: string | null }> {
    const policy = this.policy;
    const nameRule = policy.checkName(t);
    // The place connected to: the URL's host, or the connectTo override,
    // whose name and addresses face every check a request to it would.
    const place = via ?? t;
    const placeRule = via ? policy.checkName(via) : nameRule;
    let addresses: IpAddress[] | null = place.literal ? [place.literal] : null;
    if (!addresses && (nameRule || placeRule || policy.resolvesUnlisted)) {
      addresses = await this.resolve(place, ex);
    }
    let listed = null;
    if (addresses) {
      policy.checkAddresses(place, addresses);
      if (via) this.checkPlace(via, addresses, placeRule);
      // The URL's host stands for the place's addresses, at the port connected to.
      listed = policy.allowedBy(via ? { ...t, port: via.port } : t, addresses, nameRule);
    }
    let decidedBy = 'policy';
    let rule = listed?.text ?? null;
    if (policy.onRequest) {
      const answer = await this.ask(t, method, headers, hop, listed?.text ?? null, ex, req);
      decidedBy = answer.by;
      rule = listed?.text ?? 'onRequest';
    } else if (!listed) {
      throw policy.notAllowed(t);
    }
    if (!addresses) {
      addresses = await this.resolve(place, ex);
      policy.checkAddresses(place, addresses);
      if (via) this.checkPlace(via, addresses, placeRule);
    }
    return { addresses: addresses.map(addressText), decidedBy, rule };
  }

  /** A connectTo place needs the lists' own yes: its name entry, or entries covering every address. */
  private checkPlace(via: RequestTarget, addresses: IpAddress[], rule: HostRule | null): void {
    if (!this.policy.allowedBy(via, addresses, rule)) throw this.policy.notAllowed(via);
  }

  private async ask(
    t: RequestTarget,
    method: string,
    headers: HeaderList,
    hop: number,
    listedBy: string | null,
    ex: Exchange,
    req: NetRequest,
  ): Promise<{ by: string }> {
    const onRequest = this.policy.onRequest as NonNullable<CompiledPolicy['onRequest']>;
    const ctx = req.context ?? {};
    ex.deadline.pause();
    req.onApprovalWait?.(true);
    const started = Date.now();
    let answer: Awaited<ReturnType<typeof onRequest>>;
    try {
      answer = await untilAborted(
        onRequest({
          url: t.url.href,
          method,
          headers: headerRecord(headers),
          sandboxId: this.options.sandboxId,
          pid: ctx.pid ?? null,
          argv: ctx.argv ?? [],
          stepId: ctx.stepId ?? null,
          agentReason: ctx.agentReason ?? null,
          hop,
          listedBy,
          signal: ex.signal,
        }),
        ex.signal,
      );
    } catch (err) {
      ex.check();
      const why = oneLine(err instanceof Error ? err.message : String(err));
      throw denial('denied-by-approver', t.authority, `onRequest failed: ${why}`, {
        url: t.url.href,
        rule: 'onRequest',
        decidedBy: 'onRequest',
      });
    } finally {
      ex.approvalWaitMs += Date.now() - started;
      req.onApprovalWait?.(false);
      ex.deadline.resume();
    }
    // Anything but `true` or `{ allow: true }` is a no.
    const decision =
      typeof answer === 'boolean'
        ? { allow: answer }
        : answer !== null && typeof answer === 'object'
          ? answer
          : { allow: false, reason: 'onRequest gave no answer' };
    const by =
      typeof decision.by === 'string' && decision.by !== '' ? oneLine(decision.by) : 'onRequest';
    if (decision.allow !== true) {
      const reason =
        typeof decision.reason === 'string' && decision.reason !== ''
          ? `: ${oneLine(decision.reason)}`
          : '';
      throw denial('denied-by-approver', t.authority, `denied by ${by}${reason}`, {
        url: t.url.href,
        rule: 'onRequest',
        decidedBy: by,
      });
    }
    return { by };
  }

  /** One lookup per hop; its answer is all the connection may use. */
  private async resolve(t: RequestTarget, ex: Exchange): Promise<IpAddress[]> {
    let answers: string[];
    try {
      answers = await untilAborted(this.resolver(t.host, ex.signal), ex.signal);
    } catch (err) {
      ex.check();
      const code = (err as NodeJS.ErrnoException).code;
      throw new NetError(
        'resolve-failed',
        `could not resolve host: ${t.host}${code ? ` (${code})` : ''}`,
        {
          url: t.url.href,
        },
      );
    }
    const parsed = answers.map((a) => parseAddress(a));
    if (parsed.length === 0 || parsed.some((a) => a === null)) {
      throw new NetError(
        'resolve-failed',
        `could not resolve host: ${t.host} (no usable address)`,
        {
          url: t.url.href,
        },
      );
    }
    return parsed as IpAddress[];
  }

  private async *countSent(
    body: AsyncIterable<Uint8Array>,
    ex: Exchange,
  ): AsyncGenerator<Uint8Array> {
    for await (const chunk of body) {
      ex.count('sent', chunk.length);
      yield chunk;
    }
  }

  private respond(
    t: RequestTarget,
    hops: number,
    res: DispatchedResponse,
    headers: HeaderList,
    conn: Connection,
    audit: HopAudit,
    ex: Exchange,
    addresses: string[],
  ): NetResponse {
    let finished = false;
    // Exactly once: the body ended (error = null), failed, or was abandoned.
    const end = (error: NetError | null, graceful: boolean): void => {
      if (finished) return;
      finished = true;
      if (graceful) {
        conn.close();
      } else {
        res.abort(new NetError('cancelled', 'response body dropped', { url: t.url.href }));
        conn.destroy();
      }
      audit.finish(error);
      ex.dispose();
    };
    const body = new ResponseBody(
      res,
      RESPONSE_HIGH_WATER,
      {
        received: (n) => ex.count('received', n),
        ended: (error) => end(error, error === null),
        abandoned: () => end(null, false),
        toError: (err) => toNetError(err, ex, t.url.href, ex.limits, true),
      },
      conn.pausesAnywhere ? { length: null, untilClose: false } : framingOf(headers),
    );
    res.attach(body);
    // Cancelled or timed out while nobody is reading: still end and audit.
    ex.signal.addEventListener(
      'abort',
      () => body.fail(toNetError(ex.signal.reason, ex, t.url.href, ex.limits)),
      { once: true },
    );
    return {
      url: t.url.href,
      status: res.statusCode,
      statusText: res.statusText,
      httpVersion: conn.httpVersion,
      headers,
      redirects: hops,
      addresses,
      local: conn.local,
      remote: conn.remote,
      body,
      close: () => {
        end(null, false);
        void body.return();
      },
      get approvalWaitMs() {
        return ex.approvalWaitMs;
      },
    };
  }
}

/** Most of a redirect's body read before its connection is dropped instead. */
const REDIRECT_BODY_MAX = 256 * 1024;

/**
 * A redirect's body, read to its end and dropped (the connection is closed
 * next); one longer than REDIRECT_BODY_MAX is cut off with its connection.
 */
function discard(res: DispatchedResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    let seen = 0;
    res.attach({
      data: (chunk) => {
        seen += chunk.length;
        if (seen > REDIRECT_BODY_MAX) {
          res.abort(new NetError('cancelled', 'redirect body dropped'));
          resolve();
        }
        return true;
      },
      end: resolve,
      failed: () => resolve(),
    });
  });
}

/** The place a connectTo override names, parsed as a URL's host would be (every spelling is one host). */
function connectTarget(t: RequestTarget, to: { host: string; port: number }): RequestTarget {
  const host = to.host.includes(':') && !to.host.startsWith('[') ? `[${to.host}]` : to.host;
  if (!Number.isInteger(to.port) || to.port < 1 || to.port > 65535 || /[/?#@\\]/.test(host)) {
    throw new NetError('bad-url', `cannot connect to ${quote(`${to.host}:${to.port}`)}`, {
      url: t.url.href,
    });
  }
  return parseTarget(`${t.scheme}://${host}:${to.port}/`);
}

function compile(policy: NetworkPolicy | CompiledPolicy | undefined): CompiledPolicy {
  return policy instanceof CompiledPolicy ? policy : CompiledPolicy.from(policy ?? {});
}

function rawHeaders(raw: Buffer[]): HeaderList {
  const out: HeaderList = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    out.push([(raw[i] as Buffer).toString('latin1'), (raw[i + 1] as Buffer).toString('latin1')]);
  }
  return out;
}

/** How a response body ends on the wire (see BodyFraming). */
function framingOf(headers: HeaderList): BodyFraming {
  const te = headerValue(headers, 'transfer-encoding');
  if (te !== null && /chunked/i.test(te)) return { length: null, untilClose: false };
  const cl = headerValue(headers, 'content-length');
  const length = cl !== null && /^\s*\d+\s*$/.test(cl) ? Number(cl) : null;
  return { length, untilClose: length === null };
}

function headerValue(headers: HeaderList, name: string): string | null {
  const hit = headers.find(([n]) => n.toLowerCase() === name);
  return hit ? hit[1] : null;
}
