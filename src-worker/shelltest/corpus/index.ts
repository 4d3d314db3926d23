/**
 * The corpus, area by area in the order of the bash reference manual: each
 * area's hand-written cases (`<id>.cases`) followed by its generated ones
 * (generated.ts: the same check over every operator, option or operand).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { area, parseAreaFile, type Area } from './case.js';
import { GENERATED } from './generated.js';

/** Area ids in manual order; each has a `<id>.cases` file beside this one. */
export const AREA_IDS = [
  'quoting',
  'simple-commands',
  'pipelines-lists',
  'loops',
  'conditionals',
  'grouping',
  'functions',
  'parameters',
  'special-parameters',
  'namerefs',
  'brace-expansion',
  'tilde-expansion',
  'parameter-expansion',
  'command-substitution',
  'arithmetic',
  'process-substitution',
  'word-splitting',
  'filename-expansion',
  'pattern-matching',
  'redirections',
  'here-documents',
  'exit-status',
  'traps-signals',
  'bourne-builtins',
  'bash-builtins',
  'printf',
  'read',
  'declare',
  'set-builtin',
  'shopt-builtin',
  'shell-variables',
  'invocation',
  'conditional-expressions',
  'aliases',
  'arrays',
  'directory-stack',
  'job-control',
  'error-messages',
  'syntax-errors',
  'runtime-errors',
  'errexit',
  'scripts-traps',
] as const;

const dir = fileURLToPath(new URL('./', import.meta.url));

export const AREAS: readonly Area[] = AREA_IDS.map((id) => {
  const { section, specs } = parseAreaFile(id, readFileSync(`${dir}${id}.cases`, 'utf8'));
  return area(id, section, [...specs, ...(GENERATED[id] ?? [])]);
});
