#!/usr/bin/env node
// Runs the shell conformance corpus (src-worker/shelltest/corpus/) against
// the host's bash and prints agreement per area.
//
import { parseArgs } from 'node:util';

const USAGE = `Usage: node scripts/shell-conformance.mjs [--write] [--update-baseline] [--area ID]... [--verbose]
  --write            write docs/shell-conformance.md (the report)
  --update-baseline  record today's passing counts per area as the ratchet's floor
  --area ID          run only that area (repeatable; not with --write/--update-baseline)
  --verbose          print every failing case
  --help             print this and exit`;
let opts;
try {
  opts = parseArgs({
    options: {
      write: { type: 'boolean' },
      'update-baseline': { type: 'boolean' },
      area: { type: 'string', multiple: true },
      verbose: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  }).values;
} catch (e) {
  console.error(`shell-conformance: ${e.message}\n${USAGE}`);
  process.exit(2);
}
if (opts.help) {
  console.log(USAGE);
  process.exit(0);
}
const areas = opts.area ?? [];
if (areas.length && (opts.write || opts['update-baseline'])) {
  console.error('--write and --update-baseline need the whole corpus');
  process.exit(2);
}
const { tsImport } = await import('tsx/esm/api');
const m = await tsImport('../src-worker/shelltest/conformance/main.ts', import.meta.url);
const out = await m.conformance(areas);
let passed = 0;
let total = 0;
for (const s of out.scores) {
  passed += s.passed;
  total += s.total;
  console.log(
    `${s.area.id.padEnd(28)} ${String(s.passed).padStart(4)}/${String(s.total).padEnd(4)} ${((100 * s.passed) / s.total).toFixed(1).padStart(5)}%`,
  );
}
console.log(
  `${'overall'.padEnd(28)} ${passed}/${total} ${((100 * passed) / total).toFixed(1)}% in ${(out.elapsedMs / 1000).toFixed(1)} s`,
);
if (opts.verbose)
  for (const j of out.judged)
    if (!j.verdict.pass)
      console.log(
        `FAIL ${j.run.area.id}: ${j.run.case.name}\n     ${j.verdict.category}: ${j.verdict.detail}`,
      );
await m.writeOut(m.RESULTS_FILE, out.report);
if (opts.write) {
  await m.writeOut(m.REPORT_FILE, out.report);
  console.log(`wrote ${m.REPORT_FILE}`);
}
if (opts['update-baseline']) {
  await m.writeBaseline(out.scores);
  console.log(`wrote ${m.BASELINE_FILE}`);
}
// The sandboxes' worker pool would keep the process alive.
process.exit(0);
