#!/usr/bin/env node
// `node scripts/cargo.mjs ARGS`: cargo of the toolchain setup chose (see
// toolchain.mjs), with its environment, for the host target in target/host
// as `npm test` uses it. `clippy` and `fmt` run the chosen compiler's own.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectRustToolchain } from './toolchain.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const tc = detectRustToolchain(root, { tools: args[0] === 'clippy' || args[0] === 'fmt' });
if (!tc.ok) {
  console.error(`cargo.mjs: ${tc.message}; run \`npm run setup\` first`);
  process.exit(1);
}
const [cmd, ...pre] = args[0] === 'clippy' ? tc.clippy : args[0] === 'fmt' ? tc.fmt : [tc.cargo];
const rest = args[0] === 'clippy' || args[0] === 'fmt' ? args.slice(1) : args;
const r = spawnSync(cmd, [...pre, ...rest], {
  cwd: root,
  stdio: 'inherit',
  env: { CARGO_TARGET_DIR: path.join(root, 'target', 'host'), ...tc.env },
});
if (r.error) console.error(`cargo.mjs: ${cmd}: ${r.error.message}`);
process.exit(r.status ?? 1);
