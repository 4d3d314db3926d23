/** Per-sandbox settings: limits, environment variables, command timeout, network hosts. */
import { useState } from 'react';
import type { SandboxInfo, SandboxLimits, SandboxSettings } from '../../src-worker/contract/api.js';
import { useApp } from '../store/index.js';
import {
  initialHostLists,
  NetworkSettingsFields,
  toNetworkSettings,
} from '../network/NetworkSettingsFields.js';

const LIMIT_FIELDS: { key: keyof SandboxLimits; label: string }[] = [
  { key: 'totalBytes', label: 'Total bytes' },
  { key: 'fileBytes', label: 'Largest file (bytes)' },
  { key: 'nodeCount', label: 'Files and directories' },
  { key: 'processCount', label: 'Processes' },
  { key: 'outputBytes', label: 'Output bytes per command' },
  { key: 'memoryBytes', label: 'Memory of all processes (bytes)' },
];

/** Parses KEY=VALUE lines; returns an error message for the first bad line. */
export function parseEnv(text: string): Record<string, string> | string {
  const env: Record<string, string> = {};
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    const name = eq < 0 ? line : line.slice(0, eq);
    if (eq < 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      return `line ${i + 1}: expected NAME=value`;
    env[name] = line.slice(eq + 1);
  }
  return env;
}

export function SettingsDialog() {
  const open = useApp((s) => s.settingsOpen);
  const sandbox = useApp((s) => s.sandboxes.find((b) => b.id === s.currentId));
  if (!open || !sandbox) return null;
  return <SettingsForm key={sandbox.id} sandbox={sandbox} />;
}

function SettingsForm({ sandbox }: { sandbox: SandboxInfo }) {
  const setOpen = useApp((s) => s.setSettingsOpen);
  const update = useApp((s) => s.updateSettings);
  const initial = sandbox.settings;
  const [limits, setLimits] = useState<Record<string, string>>(() =>
    Object.fromEntries(LIMIT_FIELDS.map((f) => [f.key, String(initial.limits[f.key] ?? 0)])),
  );
  const [envText, setEnvText] = useState(() =>
    Object.entries(initial.env)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
  );
  const [timeout, setTimeoutText] = useState(() => String(initial.timeoutMs / 1000));
  const [hosts, setHosts] = useState(() => initialHostLists(initial.network));
  const [error, setError] = useState<string | null>(null);

  const submit = async (): Promise<void> => {
    const parsedLimits = {} as SandboxLimits;
    for (const f of LIMIT_FIELDS) {
      const n = Number(limits[f.key]);
      if (!Number.isInteger(n) || n < 0)
        return setError(`${f.label} must be a whole number ≥ 0 (0 = kernel default)`);
      parsedLimits[f.key] = n;
    }
    const env = parseEnv(envText);
    if (typeof env === 'string') return setError(`Environment ${env}`);
    const seconds = Number(timeout);
    if (!Number.isFinite(seconds) || seconds < 0)
      return setError('Timeout must be a number of seconds ≥ 0 (0 = none)');
    const settings: SandboxSettings = {
      limits: parsedLimits,
      env,
      timeoutMs: Math.round(seconds * 1000),
      network: toNetworkSettings(hosts),
    };
    if (await update(sandbox.id, settings)) setOpen(false);
  };

  return (
    <div className="modal-backdrop" onMouseDown={() => setOpen(false)}>
      <form
        className="modal settings"
        role="dialog"
        aria-label="Sandbox settings"
        onMouseDown={(e) => e.stopPropagation()}
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
        onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
      >
        <h2>Settings of “{sandbox.name}”</h2>
        <fieldset>
          <legend>Limits (0 = kernel default)</legend>
          {LIMIT_FIELDS.map((f) => (
            <label key={f.key} className="field">
              <span>{f.label}</span>
              <input
                inputMode="numeric"
                value={limits[f.key] ?? ''}
                onChange={(e) => setLimits({ ...limits, [f.key]: e.target.value })}
              />
            </label>
          ))}
        </fieldset>
        <label className="field">
          <span>Command timeout (seconds, 0 = none)</span>
          <input
            inputMode="decimal"
            value={timeout}
            onChange={(e) => setTimeoutText(e.target.value)}
          />
        </label>
        <label className="field column">
          <span>Environment (NAME=value per line)</span>
          <textarea
            rows={5}
            value={envText}
            onChange={(e) => setEnvText(e.target.value)}
            spellCheck={false}
          />
        </label>
        <NetworkSettingsFields value={hosts} onChange={setHosts} />
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" onClick={() => setOpen(false)}>
            Cancel
          </button>
          <button type="submit" className="primary">
            Save
          </button>
        </div>
      </form>
    </div>
  );
}
