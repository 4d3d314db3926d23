/**
 * Build of the three Electron targets into out/:
 * - main: Electron main, the engine entries (utilityProcess host, web-mode
 *   server, and the kernel's CLI and process worker when those exist);
 * - preload: one sandboxed CommonJS script;
 * - renderer: the React app with Monaco and its workers bundled locally.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { cspMetaTag } from './src-main/security.js';

const root = import.meta.dirname;
const at = (path: string): string => resolve(root, path);

/** Engine entries owned by other parts of src-worker, built when present. */
const optionalEngineEntries: Record<string, string> = {
  cli: 'src-worker/cli/index.ts',
  workerEntry: 'src-worker/proc/node/workerEntry.ts',
  pythonWorker: 'src-worker/python/node/pythonWorker.ts',
  kernelEngine: 'src-worker/engine.ts',
};

const mainInputs: Record<string, string> = {
  index: at('src-main/index.ts'),
  engine: at('src-worker/server/utilityHost.ts'),
  server: at('src-worker/server/main.ts'),
};
for (const [name, path] of Object.entries(optionalEngineEntries)) {
  if (existsSync(at(path))) mainInputs[name] = at(path);
}

/** The built page carries its CSP itself (file:// pages get no response header); dev keeps Vite's inline preamble. */
const cspMeta: Plugin = {
  name: 'sandglass-csp-meta',
  apply: 'build',
  transformIndexHtml: (html) =>
    html.replace(/<meta charset=[^>]*>/i, (charset) => `${charset}\n    ${cspMetaTag()}`),
};

export default defineConfig({
  main: {
    build: {
      outDir: at('out/main'),
      rolldownOptions: {
        input: mainInputs,
        // Shared chunks sit beside the entries: the kernel finds its process
        // worker as `workerEntry.js` next to the module that spawns it.
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: at('out/preload'),
      rolldownOptions: {
        input: { preload: at('src-main/preload.ts') },
        // Sandboxed preloads must be CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: at('src-renderer'),
    base: './',
    plugins: [react(), cspMeta],
    worker: { format: 'es' },
    build: {
      outDir: at('out/renderer'),
      chunkSizeWarningLimit: 8000,
      rolldownOptions: { input: at('src-renderer/index.html') },
    },
  },
});
