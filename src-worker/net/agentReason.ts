/**
 * An agent's reason for a command's network requests: the process's
 * SANDGLASS_NET_REASON (set by the `run` method's `networkReason`, or
 * exported by hand), shown to whoever approves a request. It is the agent's
 * word, as trusted as the agent: it informs a person and decides nothing.
 */

/** The variable through which an agent says why a command needs the network. */
export const NET_REASON_VAR = 'SANDGLASS_NET_REASON';

const MAX_REASON = 500;
const dec = new TextDecoder();
const PREFIX = new TextEncoder().encode(`${NET_REASON_VAR}=`);

/** The reason in a process environment (`KEY=VALUE` entries): one line, at most 500 characters, or null. */
export function agentReasonOf(env: readonly Uint8Array[]): string | null {
  const hit = env.find((e) => e.length > PREFIX.length && PREFIX.every((b, i) => e[i] === b));
  if (!hit) return null;
  // eslint-disable-next-line no-control-regex
  const controls = /[\u0000-\u001f\u007f-\u009f]+/g;
  const text = dec.decode(hit.subarray(PREFIX.length)).replace(controls, ' ').trim();
  if (!text) return null;
  return text.length > MAX_REASON ? `${text.slice(0, MAX_REASON - 1)}…` : text;
}
