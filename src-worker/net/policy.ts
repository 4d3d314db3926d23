/**
 * NetworkPolicy: the allowedHosts/blockedHosts lists (validated with zod,
 * parsed into rules) and the pure checks the gateway makes with them.
 * Blocked always wins; special addresses need an entry naming them; anything
 * else unlisted is denied unless onRequest approves it.
 */
import { z } from 'zod';
import { addressText, classifyAddress, inRange, type IpAddress } from './address.js';
import { denial } from './denial.js';
import { parseHostEntry, type HostRule } from './hostEntry.js';
import type { RequestTarget } from './target.js';

/** What onRequest is told about one request (or one redirect hop). */
export interface NetRequestInfo {
  url: string;
  method: string;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  sandboxId: string;
  pid: number | null;
  argv: string[];
  stepId: string | null;
  /**
   * Why the agent says the program needs this request (the process's
   * SANDGLASS_NET_REASON, one line, at most 500 characters), or null. It is
   * the agent's word, shown to whoever approves; it decides nothing.
   */
  agentReason: string | null;
  /** 0 for the request itself, n for the n-th redirect it followed. */
  hop: number;
  /** The allowedHosts entry that already allows it, or null if unlisted. */
  listedBy: string | null;
  /** Aborted when the request is cancelled (Ctrl-C, kill, time limit, sandbox gone). */
  signal: AbortSignal;
}

/** `true`/`false`, or an answer naming who gave it (shown in the audit). */
export type NetDecision = boolean | { allow: boolean; by?: string; reason?: string };

export type OnRequest = (request: NetRequestInfo) => Promise<NetDecision>;

/** An entry string, checked by the same parser the gateway compiles it with. */
function makeHostEntrySchema() {
  return z.string().superRefine((text, ctx) => {
    const parsed = parseHostEntry(text);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error });
  });
}

function makeNetworkPolicySchema() {
  return z
    .object({
      allowedHosts: z.array(makeHostEntrySchema()).optional(),
      blockedHosts: z.array(makeHostEntrySchema()).optional(),
      onRequest: z
        .custom<OnRequest>((v) => typeof v === 'function', 'onRequest must be a function')
        .optional(),
    })
    .strict();
}

let policySchema: ReturnType<typeof makeNetworkPolicySchema> | undefined;

/** The policy's zod schema, built on first use (a cold `sandglass run` never needs it). */
export function networkPolicySchema(): ReturnType<typeof makeNetworkPolicySchema> {
  policySchema ??= makeNetworkPolicySchema();
  return policySchema;
}

export type NetworkPolicy = z.input<ReturnType<typeof makeNetworkPolicySchema>>;

export class PolicyError extends Error {
  override readonly name = 'PolicyError';
  /** The API reports it as an invalid argument. */
  readonly code = 'EINVAL';
}

function mustParse(text: string): HostRule {
  const parsed = parseHostEntry(text);
  if (!parsed.ok) throw new PolicyError(parsed.error);
  return parsed.rule;
}

function portMatches(rule: { port: number | null }, port: number): boolean {
  return rule.port === null || rule.port === port;
}

/** A name rule (`*`, name, suffix) matching the target's host name, if any. */
function matchName(rules: HostRule[], t: RequestTarget): HostRule | null {
  for (const rule of rules) {
    if (rule.kind === 'any-public') return rule;
    if (t.literal) continue;
    if (rule.kind === 'name' && rule.name === t.host && portMatches(rule, t.port)) return rule;
    if (rule.kind === 'suffix' && t.host.endsWith(`.${rule.suffix}`) && portMatches(rule, t.port)) {
      return rule;
    }
  }
  return null;
}

/** An address rule (IP literal or range) containing `addr` on this port, if any. */
function matchRange(rules: HostRule[], addr: IpAddress, port: number): HostRule | null {
  for (const rule of rules) {
    if (rule.kind === 'address' && inRange(addr, rule.range) && portMatches(rule, port))
      return rule;
  }
  return null;
}

const POLICY_KEYS = new Set(['allowedHosts', 'blockedHosts', 'onRequest']);

const isEmptyList = (v: unknown): boolean =>
  v === undefined || (Array.isArray(v) && v.length === 0);

/**
 * A policy without entries (absent, `{}`, empty lists, perhaps onRequest:
 * what every sandbox without --allow-net starts with) is well formed
 * without asking zod, whose schema costs a cold start ~8 ms of CPU to
 * build and run the first time; returns its onRequest, or undefined for
 * anything else (the schema checks that and words its errors).
 */
function emptyPolicy(input: unknown): { onRequest: OnRequest | null } | undefined {
  if (input === undefined || input === null) return { onRequest: null };
  if (typeof input !== 'object' || Object.getPrototypeOf(input) !== Object.prototype) return;
  const p = input as Record<string, unknown>;
  if (!Object.keys(p).every((k) => POLICY_KEYS.has(k))) return;
  if (!isEmptyList(p.allowedHosts) || !isEmptyList(p.blockedHosts)) return;
  if (p.onRequest === undefined) return { onRequest: null };
  return typeof p.onRequest === 'function' ? { onRequest: p.onRequest as OnRequest } : undefined;
}

export class CompiledPolicy {
  private constructor(
    readonly allowed: HostRule[],
    readonly blocked: HostRule[],
    readonly onRequest: OnRequest | null,
  ) {}

  /** Validate a policy; a malformed entry throws a PolicyError naming it. */
  static from(input: unknown): CompiledPolicy {
    const empty = emptyPolicy(input);
    if (empty) return new CompiledPolicy([], [], empty.onRequest);
    const result = networkPolicySchema().safeParse(input ?? {});
    if (!result.success) {
      const lines = result.error.issues.map((i) => {
        const where = i.path.length > 0 ? `${i.path.join('.')}: ` : '';
        return `${where}${i.message}`;
      });
      throw new PolicyError(`invalid network policy: ${lines.join('; ')}`);
    }
    const p = result.data;
    return new CompiledPolicy(
      (p.allowedHosts ?? []).map(mustParse),
      (p.blockedHosts ?? []).map(mustParse),
      p.onRequest ?? null,
    );
  }

  /**
   * Whether a name no entry lists is still looked up: only under `*` (any
   * public host), which needs the addresses to decide. Otherwise names are
   * allowed by name entries and an unlisted name is never looked up before
   * someone approves it: a lookup alone can carry data out through DNS.
   * (IP and range entries allow literal addresses, and the special addresses
   * an allowed name resolves to.)
   */
  get resolvesUnlisted(): boolean {
    return this.allowed.some((r) => r.kind === 'any-public');
  }

  /**
   * Name checks, before any lookup: throws when a blockedHosts name entry
   * matches; returns the allowedHosts name entry that matches, or null.
   * (`*` matches every name here; the address checks keep it to public hosts.)
   */
  checkName(t: RequestTarget): HostRule | null {
    if (!t.literal) {
      const blocked = matchName(
        this.blocked.filter((r) => r.kind !== 'any-public'),
        t,
      );
      if (blocked) {
        throw denial('blocked', t.authority, `blockedHosts entry "${blocked.text}"`, {
          url: t.url.href,
          rule: blocked.text,
        });
      }
    }
    return matchName(this.allowed, t);
  }

  /**
   * Checks that hold whoever approves: no address may be blocked, and a
   * special address (loopback, private, metadata, ...) needs an allowedHosts
   * entry naming it or its range. Throws the first denial.
   */
  checkAddresses(t: RequestTarget, addresses: IpAddress[]): void {
    for (const addr of addresses) {
      const text = addressText(addr);
      const cls = classifyAddress(addr);
      const blocked =
        matchRange(this.blocked, addr, t.port) ??
        (cls.kind === 'public' ? this.blocked.find((r) => r.kind === 'any-public') : undefined);
      if (blocked) {
        throw denial(
          'blocked',
          t.authority,
          `blockedHosts entry "${blocked.text}" (address ${text})`,
          {
            url: t.url.href,
            rule: blocked.text,
          },
        );
      }
      if (cls.kind === 'special' && !matchRange(this.allowed, addr, t.port)) {
        const via = t.literal ? '' : ` (${t.host} resolves to it)`;
        throw denial(
          'special-address',
          t.authority,
          `${text} is ${/^[aeiouAEIOU]/.test(cls.category) ? 'an' : 'a'} ${cls.category} address${via}; only an allowedHosts entry naming it or its range allows it`,
          { url: t.url.href, rule: `special:${cls.category}` },
        );
      }
    }
  }

  /**
   * The entry allowing a target whose addresses passed checkAddresses: its
   * name entry, else an entry covering every address; null if none does.
   */
  allowedBy(t: RequestTarget, addresses: IpAddress[], nameRule: HostRule | null): HostRule | null {
    if (nameRule) return nameRule;
    let rule: HostRule | null = null;
    for (const addr of addresses) {
      const r =
        matchRange(this.allowed, addr, t.port) ??
        (classifyAddress(addr).kind === 'public'
          ? (this.allowed.find((x) => x.kind === 'any-public') ?? null)
          : null);
      if (!r) return null;
      rule ??= r;
    }
    return rule;
  }

  /** The default denial: nothing listed it and nobody approved it. */
  notAllowed(t: RequestTarget): Error {
    return denial(
      'not-allowed',
      t.authority,
      'no allowedHosts entry matches (network access is denied by default)',
      {
        url: t.url.href,
        rule: 'default',
      },
    );
  }
}
