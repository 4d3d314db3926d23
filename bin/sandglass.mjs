#!/usr/bin/env node
// The sandglass CLI. Runs the compiled CLI in out/cli/ (built by setup, or
// `node scripts/build-cli.mjs`): `run` and `exec` from their own CommonJS
// build through a V8 code cache (codeCache.mjs), every other command from
// the ES modules of main.js. In a dev checkout whose out/cli is missing or
// older than the sources, it says so on stderr and runs the TypeScript
// sources through tsx instead.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const outDir = new URL('../out/cli/', import.meta.url);
const sources = new URL('../src-worker/', import.meta.url);
const argv = process.argv.slice(2);

/** out/cli/build.json, or undefined when there is no build. */
function readStamp() {
  try {
    return JSON.parse(readFileSync(new URL('build.json', outDir), 'utf8'));
  } catch {
    return undefined;
  }
}

/** The entry to run: `main(argv)`, and what to do once it has run. */
async function loadMain() {
  const stamp = readStamp();
  // An installed package has no sources to be stale against.
  if (existsSync(sources)) {
    const { cliSourcesFingerprint } = await import('../scripts/build-cli.mjs');
    if (stamp === undefined || stamp.sources !== cliSourcesFingerprint()) {
      process.stderr.write(
        `sandglass: out/cli is ${stamp === undefined ? 'missing' : 'stale'}; running from sources (slower; \`npm run setup\` builds it)\n`,
      );
      const { register } = await import('tsx/esm/api');
      register();
      return { main: (await import('../src-worker/cli/main.ts')).main };
    }
  }
  if ((argv[0] === 'run' || argv[0] === 'exec') && typeof stamp?.oneShot === 'string') {
    const { requireCached } = await import('./codeCache.mjs');
    const { exports, saveCache } = requireCached(fileURLToPath(new URL(stamp.oneShot, outDir)));
    return { main: exports.main, ran: saveCache };
  }
  return { main: (await import(new URL('main.js', outDir).href)).main };
}

const { main, ran } = await loadMain();
const code = await main(argv);
ran?.();
// Flush stdout/stderr before leaving; the sandbox has already been destroyed.
process.stdout.write('', () => process.exit(code));
