#!/usr/bin/env node
// The sandglass CLI. Runs the compiled CLI in out/cli/ (built by setup, or
// `node scripts/build-cli.mjs`). In a dev checkout whose out/cli is missing
// or older than the sources, it says so on stderr and runs the TypeScript
// sources through tsx instead.
import { existsSync } from 'node:fs';

const built = new URL('../out/cli/main.js', import.meta.url);
const sources = new URL('../src-worker/', import.meta.url);

async function loadMain() {
  if (!existsSync(sources)) return import(built.href); // an installed package: no sources
  const { builtCliFingerprint, cliSourcesFingerprint } = await import('../scripts/build-cli.mjs');
  const stamp = builtCliFingerprint();
  if (stamp !== undefined && stamp === cliSourcesFingerprint()) return import(built.href);
  process.stderr.write(
    `sandglass: out/cli is ${stamp === undefined ? 'missing' : 'stale'}; running from sources (slower; \`npm run setup\` builds it)\n`,
  );
  const { register } = await import('tsx/esm/api');
  register();
  return import('../src-worker/cli/main.ts');
}

const { main } = await loadMain();
const code = await main(process.argv.slice(2));
// Flush stdout/stderr before leaving; the sandbox has already been destroyed.
process.stdout.write('', () => process.exit(code));
