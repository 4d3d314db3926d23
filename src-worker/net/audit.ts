/**
 * The audit record the gateway emits for every request and every redirect
 * hop, allowed or not: what was asked, who decided, and what came of it.
 */
import type { NetReason } from './denial.js';

export interface AuditRecord {
  /** ISO time the hop started. */
  time: string;
  sandboxId: string;
  pid: number | null;
  argv: string[];
  stepId: string | null;
  /** 0 for the request, n for its n-th redirect. */
  hop: number;
  url: string;
  method: string;
  decision: 'allow' | 'deny';
  /** `policy`, or the approver's name (onRequest's `by`, default `onRequest`). */
  decidedBy: string;
  /** The entry that decided (`*.example.com`, `default`, `special:loopback`, `onRequest`). */
  rule: string | null;
  /** Set when denied or when the transfer failed. */
  reason: NetReason | null;
  message: string | null;
  /** The checked addresses the connection was allowed to use. */
  addresses: string[];
  status: number | null;
  bytesSent: number;
  bytesReceived: number;
  durationMs: number;
  /** Time spent waiting for onRequest, not counted in durationMs's timeouts. */
  approvalWaitMs: number;
}
