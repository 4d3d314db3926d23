#!/usr/bin/env node
// `npm start`: launches the Electron app when an Electron binary is installed,
// else says so in one line and starts the web workbench (the built renderer and
// the API over a token-guarded WebSocket on 127.0.0.1). Expects `out/` built
// (scripts/setup.mjs, run by prestart, does that). SANDGLASS_PORT picks the port.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// Mirrors node_modules/electron/index.js without its side effect: requiring it
// when the binary is missing starts a download, which fails offline.
function electronBinary() {
  const pkg = join(root, 'node_modules', 'electron');
  const pathFile = join(pkg, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const relative = readFileSync(pathFile, 'utf8').trim();
  const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH ?? join(pkg, 'dist');
  const binary = join(dist, relative || 'electron');
  return existsSync(binary) ? binary : null;
}

function requireBuilt(path) {
  if (!existsSync(path)) {
    process.stderr.write(
      `sandglass: ${path} is missing; run \`npm run setup\` (or \`npm run build\`) first.\n`,
    );
    process.exit(1);
  }
}

const binary = electronBinary();
if (binary) {
  requireBuilt(join(root, 'out', 'main', 'index.js'));
  const child = spawn(binary, [root], { stdio: 'inherit' });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
} else {
  const server = join(root, 'out', 'main', 'server.js');
  requireBuilt(server);
  process.stdout.write(
    'No Electron binary found (node_modules/electron/dist is not installed); starting the web workbench instead.\n',
  );
  await import(pathToFileURL(server).href);
}
