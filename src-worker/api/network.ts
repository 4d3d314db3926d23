/**
 * A sandbox's network as the engine runs it: the policy from its settings,
 * onRequest putting each unlisted request to people over the event bus
 * (never to agents), answers remembered for the session or saved in the
 * settings, and the audit of every request, attached to steps.
 */
import type {
  NetworkApproval,
  NetworkAuditRecord,
  NetworkSettings,
  RequestAnswer,
  SandboxSettings,
} from '../contract/api.js';
import type { AuditRecord } from '../net/audit.js';
import type { NetDecision, NetRequestInfo, NetworkPolicy } from '../net/policy.js';
import { parseTarget } from '../net/target.js';
import type { SandboxNetwork } from '../sandbox/sandbox.js';
import type { EventBus } from './eventBus.js';

/** Audit records kept per sandbox (oldest dropped first). */
export const AUDIT_LIMIT = 10_000;

export const EMPTY_NETWORK: NetworkSettings = { allowedHosts: [], blockedHosts: [] };

/** What the engine lends a sandbox's network. */
export interface NetworkHooks {
  readonly bus: EventBus;
  /** Save a remembered answer: append `entry` to the sandbox's list. */
  remember(sandboxId: string, list: keyof NetworkSettings, entry: string): void;
  /** A record was added (published to the sandbox's subscribers). */
  audited(record: NetworkAuditRecord): void;
  /** The command line running in the sandbox, for the dialog. */
  commandOf?(sandboxId: string, pid: number | null): string | null;
}

// Header names whose values are secrets; others matching SECRETISH too.
const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api-key',
]);
const SECRETISH = /token|secret|passw|api[-_]?key|auth|session|signature|credential/i;

/** Header values a person may see: secrets replaced by a mask that keeps only the scheme word. */
export function maskHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (SECRET_HEADERS.has(name) || SECRETISH.test(name)) {
      const scheme = /^(Bearer|Basic|Digest|Token)\s/i.exec(value)?.[1];
      out[name] = `${scheme ? `${scheme} ` : ''}•••••• (${value.length} chars, hidden)`;
    } else out[name] = value;
  }
  return out;
}

const HEADER_ARG = /^([A-Za-z0-9-]+):\s*(.*)$/s;
const CREDENTIAL_FLAGS = new Set(['-u', '--user', '--proxy-user', '--password', '--http-password']);

/**
 * argv as a person may see it: header arguments carrying secrets
 * (`-H 'Authorization: Bearer ...'`) and the value after `-u`/`--user`
 * masked like headers.
 */
export function maskArgv(argv: readonly string[]): string[] {
  return argv.map((arg, i) => {
    if (i > 0 && CREDENTIAL_FLAGS.has(argv[i - 1] as string))
      return `•••••• (${arg.length} chars, hidden)`;
    const m = HEADER_ARG.exec(arg);
    if (!m) return arg;
    const name = (m[1] as string).toLowerCase();
    const masked = maskHeaders({ [name]: m[2] as string })[name] as string;
    return masked === m[2] ? arg : `${m[1] as string}: ${masked}`;
  });
}

/** The entry an answer about `url` remembers: `host`, or `host:port` when the URL names a port. */
export function hostEntryOf(url: string): string {
  const t = parseTarget(url);
  return t.url.port === '' ? t.host : t.authority;
}

export class SandboxNetworkAccess {
  private readonly records: NetworkAuditRecord[] = [];
  /** Hosts a person allowed "for this session" (until the engine stops). */
  private readonly sessionHosts = new Set<string>();

  constructor(
    private readonly sandboxId: string,
    private readonly hooks: NetworkHooks,
  ) {}

  /** The Sandbox's network options for `settings` (default deny, people asked). */
  options(settings: SandboxSettings): SandboxNetwork {
    return {
      sandboxId: this.sandboxId,
      policy: this.policy(settings),
      onAudit: (r) => this.add(r),
    };
  }

  /** The gateway policy for `settings`: its lists, and onRequest asking people. */
  policy(settings: SandboxSettings): NetworkPolicy {
    const net = settings.network ?? EMPTY_NETWORK;
    return {
      allowedHosts: [...net.allowedHosts],
      blockedHosts: [...net.blockedHosts],
      onRequest: (info) => this.decide(info),
    };
  }

  /** Records of the sandbox, or of one step, oldest first. */
  list(stepId?: string): NetworkAuditRecord[] {
    return stepId === undefined
      ? [...this.records]
      : this.records.filter((r) => r.stepId === stepId);
  }

  /**
   * A step was recorded: the records of its command so far (those not yet
   * attached to a step) belong to it. Returns them.
   */
  attachToStep(stepId: string): NetworkAuditRecord[] {
    const taken: NetworkAuditRecord[] = [];
    for (let i = 0; i < this.records.length; i++) {
      const r = this.records[i] as NetworkAuditRecord;
      if (r.stepId !== null) continue;
      const withStep = { ...r, stepId };
      this.records[i] = withStep;
      taken.push(withStep);
    }
    return taken;
  }

  private add(r: AuditRecord): void {
    const rec: NetworkAuditRecord = {
      time: r.time,
      sandboxId: this.sandboxId,
      stepId: r.stepId,
      pid: r.pid,
      argv: maskArgv(r.argv),
      hop: r.hop,
      url: r.url,
      method: r.method,
      decision: r.decision,
      decidedBy: r.decidedBy,
      rule: r.rule,
      reason: r.reason,
      message: r.message,
      addresses: r.addresses,
      status: r.status,
      bytesSent: r.bytesSent,
      bytesReceived: r.bytesReceived,
      durationMs: Math.round(r.durationMs),
      approvalWaitMs: Math.round(r.approvalWaitMs),
    };
    this.records.push(rec);
    if (this.records.length > AUDIT_LIMIT)
      this.records.splice(0, this.records.length - AUDIT_LIMIT);
    this.hooks.audited(rec);
  }

  /** onRequest: listed hosts pass, session-allowed hosts pass, the rest goes to people. */
  private async decide(info: NetRequestInfo): Promise<NetDecision> {
    if (info.listedBy !== null) return { allow: true, by: 'policy' };
    const host = hostEntryOf(info.url);
    if (this.sessionHosts.has(host)) return { allow: true, by: 'session' };
    const program = info.argv[0] ?? 'a program';
    const network: NetworkApproval = {
      url: info.url,
      method: info.method,
      host,
      headers: maskHeaders(info.headers),
      pid: info.pid,
      argv: maskArgv(info.argv),
      command: this.hooks.commandOf?.(this.sandboxId, info.pid) ?? null,
      stepId: info.stepId,
      hop: info.hop,
      reason: info.agentReason,
    };
    const result = await this.hooks.bus.ask({
      sandboxId: this.sandboxId,
      kind: 'approval',
      title: `${program} wants to ${info.method} ${host}`,
      detail: info.url,
      answerers: ['person'],
      signal: info.signal,
      network,
    });
    if (result.outcome === 'answered') return this.apply(host, result.answer);
    if (result.outcome === 'timedOut') return { allow: false, by: 'policy', reason: result.reason };
    return {
      allow: false,
      by: 'policy',
      reason:
        result.reason === 'no client can answer'
          ? 'no allowedHosts entry matches and no person is connected to approve it'
          : result.reason,
    };
  }

  private apply(host: string, answer: RequestAnswer): NetDecision {
    const remember = answer.remember ?? 'once';
    if (answer.allow) {
      if (remember === 'session') this.sessionHosts.add(host);
      if (remember === 'always') this.hooks.remember(this.sandboxId, 'allowedHosts', host);
      return { allow: true, by: 'person' };
    }
    this.sessionHosts.delete(host);
    if (remember === 'always') this.hooks.remember(this.sandboxId, 'blockedHosts', host);
    return { allow: false, by: 'person' };
  }
}
