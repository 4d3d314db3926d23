#!/usr/bin/env node
// The sandglass CLI. Runs from the TypeScript sources through tsx for now;
// a bundled build will import the compiled CLI instead.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src-worker/cli/main.ts');
const code = await main(process.argv.slice(2));
// Flush stdout/stderr before leaving; the sandbox has already been destroyed.
process.stdout.write('', () => process.exit(code));
