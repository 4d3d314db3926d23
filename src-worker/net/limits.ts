/**
 * The gateway's limits: bytes per request and per sandbox, timeouts and the
 * redirect hop limit, validated with zod; a request may only tighten them.
 */
import { z } from 'zod';

const MiB = 1024 * 1024;

function makeGatewayLimitsSchema() {
  return z
    .object({
      /** Request body bytes per request. */
      maxRequestBytes: z.number().int().nonnegative(),
      /** Response body bytes per request. */
      maxResponseBytes: z.number().int().nonnegative(),
      /** Body bytes both ways over the sandbox's lifetime. */
      maxSandboxBytes: z.number().int().nonnegative(),
      connectTimeoutMs: z.number().int().positive(),
      /** Per request, redirects and bodies included, approval waits excluded; 0 = none. */
      totalTimeoutMs: z.number().int().nonnegative(),
      maxRedirects: z.number().int().nonnegative().max(50),
    })
    .strict();
}

export type GatewayLimits = z.infer<ReturnType<typeof makeGatewayLimitsSchema>>;

let limitsSchema: ReturnType<typeof makeGatewayLimitsSchema> | undefined;

/**
 * The gateway's limits with `given` over the defaults, validated. The
 * schema is built on first use with limits of its own: a sandbox that keeps
 * the defaults (a cold `sandglass run`) never builds it.
 */
export function gatewayLimits(given: Partial<GatewayLimits> | undefined): GatewayLimits {
  if (given === undefined || Object.keys(given).length === 0) return DEFAULT_LIMITS;
  limitsSchema ??= makeGatewayLimitsSchema();
  return limitsSchema.parse({ ...DEFAULT_LIMITS, ...given });
}

export const DEFAULT_LIMITS: Readonly<GatewayLimits> = Object.freeze({
  maxRequestBytes: 256 * MiB,
  maxResponseBytes: 1024 * MiB,
  maxSandboxBytes: 4096 * MiB,
  connectTimeoutMs: 10_000,
  totalTimeoutMs: 300_000,
  maxRedirects: 20,
});

/** A request's own limits, never looser than the gateway's. */
export function tighten(
  limits: GatewayLimits,
  req: {
    maxRedirects?: number;
    maxResponseBytes?: number;
    connectTimeoutMs?: number;
    timeoutMs?: number;
  },
): GatewayLimits {
  return {
    ...limits,
    maxRedirects: Math.min(limits.maxRedirects, req.maxRedirects ?? Infinity),
    maxResponseBytes: Math.min(limits.maxResponseBytes, req.maxResponseBytes ?? Infinity),
    connectTimeoutMs: Math.min(limits.connectTimeoutMs, req.connectTimeoutMs ?? Infinity),
    totalTimeoutMs: tighter(limits.totalTimeoutMs, req.timeoutMs),
  };
}

function tighter(a: number, b: number | undefined): number {
  if (b === undefined || b <= 0) return a;
  return a <= 0 ? b : Math.min(a, b);
}
