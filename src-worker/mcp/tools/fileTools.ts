/** read_file, write_file, edit_file, list_dir: the sandbox's files through the engine. */
import type { FileEntry } from '../../contract/api.js';
import { EngineError } from '../../api/errors.js';
import { parentOf } from '../../api/paths.js';
import { USER_HOME } from '../../vfs/layout.js';
import { READ_ONLY, defineTool, ensureDir, type McpHost, changes } from '../tool.js';
import {
  editFileInput,
  editFileOutput,
  listDirInput,
  listDirOutput,
  readFileInput,
  readFileOutput,
  writeFileInput,
  writeFileOutput,
} from '../toolSchemas.js';
import { decodeText, replaceText, sandboxPath, selectLines } from '../textFiles.js';
import { vfsSnapshotOf } from './timelineTools.js';

const enc = new TextEncoder();

async function readBytes(
  host: McpHost,
  sandboxId: string,
  path: string,
  /** A snapshot id as the tools give them (a step id). */
  snapshot?: string,
): Promise<Uint8Array> {
  const snapshotId =
    snapshot !== undefined ? await vfsSnapshotOf(host, sandboxId, snapshot) : undefined;
  const { base64 } = await host.engine.call(
    'readFile',
    { sandboxId, path, ...(snapshotId !== undefined ? { snapshotId } : {}) },
    host.client,
  );
  return new Uint8Array(Buffer.from(base64, 'base64'));
}

async function writeBytes(
  host: McpHost,
  sandboxId: string,
  path: string,
  bytes: Uint8Array,
  mode?: number,
): Promise<void> {
  const base64 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  await host.engine.call(
    'writeFile',
    { sandboxId, path, base64, ...(mode !== undefined ? { mode } : {}) },
    host.client,
  );
}

/** The longest prefix of `text` within `max` UTF-8 bytes that ends a line (or, for one long line, a character). */
function cutToBytes(text: string, max: number): string {
  const bytes = enc.encode(text);
  if (bytes.length <= max) return text;
  let end = max;
  // Step back to a character boundary (not inside a UTF-8 sequence).
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  const prefix = new TextDecoder().decode(bytes.subarray(0, end));
  const lastNewline = prefix.lastIndexOf('\n');
  return lastNewline >= 0 ? prefix.slice(0, lastNewline + 1) : prefix;
}

function countLines(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return text.endsWith('\n') || text === '' ? n : n + 1;
}

export const readFile = defineTool({
  name: 'read_file',
  title: 'Read a file',
  description:
    'Reads a file from the sandbox (or from a snapshot). UTF-8 text comes back as text, optionally ' +
    'a range of lines (start_line/end_line, 1-based, inclusive); binary files come back as base64. ' +
    'Content past max_bytes is cut at a line end and truncated is set: read the rest with start_line.',
  input: readFileInput,
  output: readFileOutput,
  annotations: READ_ONLY,
  async run(args, { host }) {
    const path = sandboxPath(args.path);
    const bytes = await readBytes(host, args.sandbox_id, path, args.snapshot_id);
    const max = args.max_bytes ?? host.limits.readBytes;
    const wanted = args.encoding ?? 'auto';
    const text = wanted === 'base64' ? undefined : decodeText(bytes);
    const ranged = args.start_line !== undefined || args.end_line !== undefined;
    if (text === undefined) {
      if (wanted === 'text')
        throw new EngineError('EILSEQ', `${path} is not UTF-8 text; read it with encoding base64`);
      if (ranged)
        throw new EngineError('EINVAL', `${path} is binary: line ranges apply to text files only`);
      const part = bytes.subarray(0, max);
      const structured = {
        path,
        size: bytes.length,
        encoding: 'base64' as const,
        truncated: part.length < bytes.length,
      };
      return {
        structured,
        text: [Buffer.from(part).toString('base64'), JSON.stringify(structured)],
      };
    }
    const range = selectLines(text, args.start_line, args.end_line);
    const shown = cutToBytes(range.text, max);
    const truncated = shown.length < range.text.length;
    const endLine = truncated
      ? range.startLine + Math.max(countLines(shown), 1) - 1
      : range.endLine;
    const structured = {
      path,
      size: bytes.length,
      encoding: 'text' as const,
      start_line: range.startLine,
      end_line: endLine,
      total_lines: range.totalLines,
      truncated,
    };
    // The metadata also as JSON text, for clients that show the model only
    // the content (as run does): where the file was cut, where to go on.
    return { structured, text: [shown, JSON.stringify(structured)] };
  },
});

export const writeFile = defineTool({
  name: 'write_file',
  title: 'Write a file',
  description:
    'Creates or replaces a file in the sandbox with the given content (text, or base64 for binary), ' +
    'creating missing parent directories unless create_dirs is false.',
  input: writeFileInput,
  output: writeFileOutput,
  annotations: changes({ destructive: true, idempotent: true }),
  async run(args, { host }) {
    const path = sandboxPath(args.path);
    if (args.encoding === 'base64' && !/^[A-Za-z0-9+/]*={0,2}$/.test(args.content))
      throw new EngineError('EINVAL', 'content is not valid base64');
    const bytes =
      args.encoding === 'base64'
        ? new Uint8Array(Buffer.from(args.content, 'base64'))
        : enc.encode(args.content);
    if (args.create_dirs ?? true) await ensureDir(host, args.sandbox_id, parentOf(path));
    await writeBytes(host, args.sandbox_id, path, bytes, args.mode);
    return { structured: { path, bytes: bytes.length } };
  },
});

export const editFile = defineTool({
  name: 'edit_file',
  title: 'Edit a file',
  description:
    'Replaces old_text with new_text in a text file of the sandbox. old_text must match exactly ' +
    '(whitespace included) and occur once; an error names the lines when it occurs more than once ' +
    '(add context, or set replace_all) or says it was not found.',
  input: editFileInput,
  output: editFileOutput,
  annotations: changes({ destructive: true, idempotent: false }),
  async run(args, { host }) {
    const path = sandboxPath(args.path);
    const text = decodeText(await readBytes(host, args.sandbox_id, path));
    if (text === undefined)
      throw new EngineError('EILSEQ', `${path} is not UTF-8 text; edit_file edits text files only`);
    const edit = replaceText(text, args.old_text, args.new_text, args.replace_all ?? false);
    const bytes = enc.encode(edit.text);
    await writeBytes(host, args.sandbox_id, path, bytes);
    return {
      structured: { path, replacements: edit.replacements, lines: edit.lines, bytes: bytes.length },
    };
  },
});

function listingLine(e: FileEntry): string {
  const kind = e.kind === 'dir' ? 'd' : e.kind === 'symlink' ? 'l' : e.kind === 'file' ? '-' : '?';
  const mode = e.mode.toString(8).padStart(4, '0');
  const name = e.kind === 'dir' ? `${e.name}/` : e.name;
  const target = e.target !== undefined ? ` -> ${e.target}` : '';
  return `${kind} ${mode} ${String(e.size).padStart(9)} ${name}${target}`;
}

export const listDir = defineTool({
  name: 'list_dir',
  title: 'List a directory',
  description:
    'Lists a directory of the sandbox (or of a snapshot): name, kind, permission bits, size and ' +
    'modification time of each entry. The text block is one line per entry, like ls -l.',
  input: listDirInput,
  output: listDirOutput,
  annotations: READ_ONLY,
  async run(args, { host }) {
    const path = sandboxPath(args.path ?? USER_HOME);
    const all = await host.engine.call(
      'readDir',
      {
        sandboxId: args.sandbox_id,
        path,
        ...(args.snapshot_id !== undefined
          ? { snapshotId: await vfsSnapshotOf(host, args.sandbox_id, args.snapshot_id) }
          : {}),
      },
      host.client,
    );
    const entries = all.slice(0, host.limits.dirEntries);
    const truncated = entries.length < all.length;
    const more = truncated ? [`… ${all.length - entries.length} more entries not listed`] : [];
    return {
      structured: { path, entries, truncated },
      text: [[...entries.map(listingLine), ...more].join('\n') || '(empty directory)'],
    };
  },
});
