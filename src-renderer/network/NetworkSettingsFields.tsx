/** The network part of the settings dialog: allowed and blocked hosts, one entry per line. */
import type { NetworkSettings } from '../../src-worker/contract/api.js';

/** Entries from a textarea: one per line (commas too), blanks and `#` comments dropped. */
export function parseHostList(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((l) => l.replace(/#.*/, '').trim())
    .filter((l) => l !== '');
}

export function hostListText(entries: readonly string[]): string {
  return entries.join('\n');
}

export interface HostListsText {
  allowed: string;
  blocked: string;
}

export function initialHostLists(net: NetworkSettings | undefined): HostListsText {
  return {
    allowed: hostListText(net?.allowedHosts ?? []),
    blocked: hostListText(net?.blockedHosts ?? []),
  };
}

export function toNetworkSettings(text: HostListsText): NetworkSettings {
  return { allowedHosts: parseHostList(text.allowed), blockedHosts: parseHostList(text.blocked) };
}

export function NetworkSettingsFields({
  value,
  onChange,
}: {
  value: HostListsText;
  onChange: (next: HostListsText) => void;
}) {
  return (
    <fieldset className="network-settings">
      <legend>Network (everything else is denied unless a person allows it)</legend>
      <label className="field column">
        <span>Allowed hosts (one per line: example.com, *.example.com:443, 10.0.0.0/8, *)</span>
        <textarea
          rows={3}
          value={value.allowed}
          spellCheck={false}
          data-testid="allowed-hosts"
          onChange={(e) => onChange({ ...value, allowed: e.target.value })}
        />
      </label>
      <label className="field column">
        <span>Blocked hosts (always refused, even if allowed above)</span>
        <textarea
          rows={2}
          value={value.blocked}
          spellCheck={false}
          data-testid="blocked-hosts"
          onChange={(e) => onChange({ ...value, blocked: e.target.value })}
        />
      </label>
    </fieldset>
  );
}
