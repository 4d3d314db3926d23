/**
 * The text side of the file tools: telling text from binary, taking a range
 * of lines, and the search/replace edit. Pure functions over strings and
 * bytes; the tools do the reading and writing through the engine.
 */
import { EngineError } from '../api/errors.js';
import { normalizePath } from '../api/paths.js';
import { USER_HOME } from '../vfs/layout.js';

/** A path as an agent gives it: absolute, or relative to the sandbox user's home. */
export function sandboxPath(path: string): string {
  if (path === '') throw new EngineError('EINVAL', 'path is empty');
  return normalizePath(path.startsWith('/') ? path : `${USER_HOME}/${path}`);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The file's text, or undefined when it is binary (a NUL byte or invalid UTF-8). */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

export interface LineRange {
  readonly text: string;
  /** First and last line returned, 1-based (0 and 0 for an empty file). */
  readonly startLine: number;
  readonly endLine: number;
  readonly totalLines: number;
}

/** Lines `start`..`end` (1-based, inclusive; `end` past the last line means the last). */
export function selectLines(text: string, start = 1, end?: number): LineRange {
  const lines = text.split('\n');
  // A final newline ends the last line rather than starting an empty one.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const totalLines = text === '' ? 0 : lines.length;
  if (end !== undefined && end < start)
    throw new EngineError('EINVAL', `end_line ${end} is before start_line ${start}`);
  if (totalLines === 0 || start > totalLines) {
    if (start > 1 && start > totalLines)
      throw new EngineError('EINVAL', `start_line ${start} is past the end (${totalLines} lines)`);
    return { text: '', startLine: 0, endLine: 0, totalLines };
  }
  const last = Math.min(end ?? totalLines, totalLines);
  const picked = lines.slice(start - 1, last).join('\n');
  const endsWithNewline = last < totalLines || text.endsWith('\n');
  return {
    text: endsWithNewline ? `${picked}\n` : picked,
    startLine: start,
    endLine: last,
    totalLines,
  };
}

/** 1-based line numbers where each occurrence of `needle` starts. */
function matchLines(text: string, needle: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let scanned = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
    for (let i = scanned; i < at; i++) if (text.charCodeAt(i) === 10) line++;
    scanned = at;
    lines.push(line);
  }
  return lines;
}

/**
 * Replaces `oldText` with `newText`: exactly one occurrence unless `all`.
 * Not found, or found more than once without `all`, is an error naming the
 * lines, so the agent can widen its search text.
 */
export function replaceText(
  text: string,
  oldText: string,
  newText: string,
  all: boolean,
): { text: string; replacements: number; lines: number[] } {
  if (oldText === '') throw new EngineError('EINVAL', 'old_text is empty');
  const lines = matchLines(text, oldText);
  if (lines.length === 0) throw new EngineError('ENOENT', 'old_text was not found in the file');
  if (lines.length > 1 && !all)
    throw new EngineError(
      'EEXIST',
      `old_text occurs ${lines.length} times (lines ${lines.slice(0, 20).join(', ')}${lines.length > 20 ? ', …' : ''}); ` +
        'add surrounding text to make it unique, or set replace_all',
    );
  // split/join: no `$` patterns, unlike String.replace with a string.
  const replaced = all
    ? text.split(oldText).join(newText)
    : text.slice(0, text.indexOf(oldText)) +
      newText +
      text.slice(text.indexOf(oldText) + oldText.length);
  return { text: replaced, replacements: all ? lines.length : 1, lines };
}
