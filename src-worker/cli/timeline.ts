/**
 * `sandglass timeline save|load|show|diff`: timeline files for scripts and CI.
 *   save OUT (-c CMD)... | FILE   run each command (or each line of FILE) as a
 *                                 step of one sandbox, journaled to OUT.journal
 *                                 as it goes, then write OUT
 *   load FILE                     validate and summarise (a crashed save's
 *                                 FILE.journal is recovered)
 *   show FILE                     the step graph, one line per step, lanes as text
 *   diff FILE STEP_A STEP_B       files changed from one step to another (a step
 *                                 by id, or N for the N-th step listed)
 * `--json` prints machine-readable output instead.
 */
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { SandglassEngine } from '../api/engine.js';
import type { DiffEntry, DiffPage, TimelineFileSummary } from '../contract/api.js';
import { recoverJournal } from '../timeline/format/journal.js';
import { decodeTimeline } from '../timeline/format/read.js';
import type { StepMeta, TimelineData } from '../timeline/format/schema.js';
import {
  createSandbox,
  NET_USAGE,
  parseImport,
  parseNetList,
  UsageError,
  type CliIo,
} from './options.js';

export const TIMELINE_USAGE =
  `usage: sandglass timeline save OUT.sgtl [--timeout MS] [--import HOST:PATH[:ro]]... [--programs DIR] ${NET_USAGE} (-c COMMAND)... | FILE\n` +
  '       sandglass timeline load FILE [--json]\n' +
  '       sandglass timeline show FILE [--json]\n' +
  '       sandglass timeline diff FILE STEP_A STEP_B [--json]';

function parse(args: readonly string[], options: NonNullable<ParseArgsConfig['options']>) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

export async function runTimeline(args: readonly string[], io: CliIo): Promise<number> {
  const [verb, ...rest] = args;
  switch (verb) {
    case 'save':
      return save(rest, io);
    case 'load':
      return load(rest, io);
    case 'show':
      return show(rest, io);
    case 'diff':
      return diff(rest, io);
    default:
      throw new UsageError(
        verb === undefined ? 'missing save|load|show|diff' : `unknown verb ${verb}`,
      );
  }
}

const print = (io: CliIo, text: string): void => {
  io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
};

// ------------------------------------------------------------------ save

async function save(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, {
    command: { type: 'string', short: 'c', multiple: true },
    timeout: { type: 'string' },
    import: { type: 'string', multiple: true },
    programs: { type: 'string' },
    'allow-net': { type: 'string', multiple: true },
    'deny-net': { type: 'string', multiple: true },
  });
  const [out, script, ...extra] = positionals;
  if (out === undefined) throw new UsageError('missing OUT file');
  if (extra.length > 0) throw new UsageError(`unexpected ${extra[0]}`);
  const inline = (values.command as string[] | undefined) ?? [];
  if (inline.length > 0 === (script !== undefined))
    throw new UsageError('give either -c COMMAND (repeatable) or a FILE of command lines');
  const commands =
    script !== undefined
      ? (await readFile(script, 'utf8'))
          .split('\n')
          .filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'))
      : inline;
  const timeout = values.timeout as string | undefined;
  if (timeout !== undefined && !/^\d+$/.test(timeout))
    throw new UsageError(`--timeout: not a number of ms: ${timeout}`);
  const sb = await createSandbox({
    timeoutMs: undefined,
    imports: ((values.import as string[] | undefined) ?? []).map(parseImport),
    exports: [],
    programsDir: values.programs as string | undefined,
    cwd: undefined,
    allowNet: ((values['allow-net'] as string[] | undefined) ?? []).flatMap((v) =>
      parseNetList('--allow-net', v),
    ),
    denyNet: ((values['deny-net'] as string[] | undefined) ?? []).flatMap((v) =>
      parseNetList('--deny-net', v),
    ),
  });
  const journal = `${out}.journal`;
  try {
    const { engine, sandboxId } = sb;
    if (timeout !== undefined) {
      const [info] = await engine.call('listSandboxes', {});
      if (info)
        await engine.call('updateSettings', {
          sandboxId,
          settings: { ...info.settings, timeoutMs: Number(timeout) },
        });
    }
    writeFileSync(journal, new Uint8Array(0));
    const stop = await engine.journalTimeline(sandboxId, (bytes) => appendFileSync(journal, bytes));
    let status = 0;
    for (const command of commands) {
      const r = await engine.call('run', { sandboxId, command });
      io.stdout.write(r.stdout);
      io.stderr.write(r.stderr);
      status = r.status;
    }
    stop();
    const { bytes, summary } = await engine.saveTimeline(sandboxId);
    writeFileSync(out, bytes);
    rmSync(journal, { force: true });
    io.stderr.write(`sandglass timeline: saved ${describe(summary)} to ${out}\n`);
    return status;
  } finally {
    await sb.dispose();
  }
}

function describe(s: TimelineFileSummary): string {
  return `${s.steps} steps, ${s.branches} branches, ${s.blobs} blobs (${s.contentBytes} bytes of content) in ${s.fileBytes} bytes`;
}

// ------------------------------------------------------------------ load / show

/** A timeline file, or what its journal holds when the file was never finished. */
function open(file: string, io: CliIo): TimelineData {
  const journal = `${file}.journal`;
  if (!existsSync(file) && existsSync(journal)) {
    const r = recoverJournal(new Uint8Array(readFileSync(journal)));
    io.stderr.write(
      `sandglass timeline: ${file} was not finished; recovered ${r.steps} steps from ${journal}` +
        (r.lostBytes > 0 ? ` (${r.lostBytes} bytes of an unfinished step dropped)` : '') +
        '\n',
    );
    return decodeTimeline(r.file);
  }
  return decodeTimeline(new Uint8Array(readFileSync(file)));
}

function needFile(positionals: string[], count: number, what: string): string[] {
  if (positionals.length !== count) throw new UsageError(`expected ${what}`);
  return positionals;
}

function load(args: readonly string[], io: CliIo): number {
  const { values, positionals } = parse(args, { json: { type: 'boolean' } });
  const [file] = needFile(positionals, 1, 'FILE') as [string];
  const data = open(file, io);
  const m = data.manifest;
  const summary = {
    file,
    formatVersion: m.version,
    sandbox: m.sandbox.name,
    steps: m.steps.length,
    released: m.steps.filter((s) => s.released).length,
    branches: m.branches.map((b) => b.name),
    head: m.head,
    blobs: data.blobs.size,
    contentBytes: data.contentBytes,
    fileBytes: data.fileBytes,
  };
  if (values.json) print(io, JSON.stringify(summary));
  else
    print(
      io,
      `${file}: valid timeline (format ${summary.formatVersion}), sandbox ${JSON.stringify(summary.sandbox)}\n` +
        `  ${summary.steps} steps (${summary.released} without snapshot), ${summary.branches.length} branches: ${summary.branches.join(', ')}\n` +
        `  head ${summary.head ?? '(none)'}; ${summary.blobs} blobs, ${summary.contentBytes} bytes of content, file ${summary.fileBytes} bytes`,
    );
  return 0;
}

/** One text line per step: a lane per branch, `*` on the step's lane, `|` on lanes still growing. */
export function graphLines(
  steps: readonly StepMeta[],
  branchNames: ReadonlyMap<string, string>,
): string[] {
  const lanes: string[] = [];
  const lastIndex = new Map<string, number>();
  steps.forEach((s, i) => lastIndex.set(s.branchId, i));
  const lines: string[] = [];
  steps.forEach((s, i) => {
    let lane = lanes.indexOf(s.branchId);
    if (lane < 0) {
      lane = lanes.indexOf('');
      if (lane < 0) lane = lanes.push(s.branchId) - 1;
      else lanes[lane] = s.branchId;
    }
    const cells = lanes.map((b, j) => (j === lane ? '*' : b === '' ? ' ' : '|'));
    const status = s.status === null ? '-' : String(s.status);
    const flags = s.released ? ' (snapshot released)' : '';
    const net = s.network.length > 0 ? ` net:${s.network.length}` : '';
    lines.push(
      `${cells.join(' ')}  ${s.id} ${branchNames.get(s.branchId) ?? s.branchId} [${status}] ${Math.round(s.durationMs)}ms${net}${flags}  ${s.command.split('\n')[0]}`,
    );
    if (lastIndex.get(s.branchId) === i) lanes[lane] = '';
    while (lanes.length > 0 && lanes[lanes.length - 1] === '') lanes.pop();
  });
  return lines;
}

function show(args: readonly string[], io: CliIo): number {
  const { values, positionals } = parse(args, { json: { type: 'boolean' } });
  const [file] = needFile(positionals, 1, 'FILE') as [string];
  const m = open(file, io).manifest;
  if (values.json) {
    print(
      io,
      JSON.stringify({
        branches: m.branches,
        head: m.head,
        steps: m.steps.map(({ stdout: _o, stderr: _e, ...s }) => s),
      }),
    );
    return 0;
  }
  const names = new Map(m.branches.map((b) => [b.id, b.name]));
  for (const line of graphLines(m.steps, names)) print(io, line);
  return 0;
}

// ------------------------------------------------------------------ diff

/** Loads the file into an engine and returns the loaded step id of each file step id. */
async function loadInto(engine: SandglassEngine, data: TimelineData, bytes: Uint8Array) {
  const { sandbox } = await engine.loadTimeline('diff', bytes);
  const ids = new Map<string, string>();
  let offset: number | null = 0;
  let i = 0;
  while (offset !== null) {
    const page: { steps: Array<{ id: string }>; nextOffset: number | null } = await engine.call(
      'listSteps',
      { sandboxId: sandbox.id, offset, limit: 500 },
    );
    for (const s of page.steps) ids.set(data.manifest.steps[i++]?.id ?? '', s.id);
    offset = page.nextOffset;
  }
  return { sandboxId: sandbox.id, ids };
}

function entryLine(e: DiffEntry): string {
  const mark = e.change === 'added' ? 'A' : e.change === 'deleted' ? 'D' : 'M';
  const lines = e.linesAdded !== undefined ? ` +${e.linesAdded} -${e.linesRemoved ?? 0}` : '';
  const bin =
    !e.text && e.kind === 'file'
      ? ` binary ${e.sizeBefore ?? '-'} -> ${e.sizeAfter ?? '-'} bytes${e.hashAfter ? ` sha256 ${e.hashAfter.slice(0, 12)}` : ''}`
      : '';
  return `${mark} ${e.path}${e.kind === 'dir' ? '/' : ''}${lines}${bin}`;
}

async function diff(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, { json: { type: 'boolean' } });
  const [file, a, b] = needFile(positionals, 3, 'FILE STEP_A STEP_B') as [string, string, string];
  const bytes = new Uint8Array(readFileSync(file));
  const data = decodeTimeline(bytes);
  const { SandglassEngine } = await import('../api/engine.js');
  const engine = new SandglassEngine();
  try {
    const { sandboxId, ids } = await loadInto(engine, data, bytes);
    // A step is named by its id, or by its position (1 = the first step) as `show` lists them.
    const ref = (r: string): string | undefined =>
      /^\d+$/.test(r) ? ids.get(data.manifest.steps[Number(r) - 1]?.id ?? '') : ids.get(r);
    const from = ref(a);
    const to = ref(b);
    if (from === undefined) throw new Error(`no step ${a} in ${file}`);
    if (to === undefined) throw new Error(`no step ${b} in ${file}`);
    const entries: DiffEntry[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page: DiffPage = await engine.call('diffSteps', {
        sandboxId,
        from,
        to,
        offset,
        limit: 2000,
      });
      entries.push(...page.entries);
      offset = page.nextOffset;
    }
    if (values.json) print(io, JSON.stringify({ from: a, to: b, entries }));
    else if (entries.length === 0) print(io, `no changes from ${a} to ${b}`);
    else for (const e of entries) print(io, entryLine(e));
    return 0;
  } finally {
    await engine.dispose();
  }
}
