/**
 * Whole-process timings of the command line: what a script, CI job or agent
 * pays per `sandglass run …`, start-up included. Each workload runs as a new
 * process for native bash/GNU, `bin/sandglass.mjs run` cold (the compiled CLI
 * in out/cli, its own engine), the same handed to a warm engine (`sandglass
 * engine`, started once by this script: its CPU per run is added to the
 * client's) and the just-bash CLI, under /usr/bin/time for wall time, CPU
 * time and peak RSS; the median of the timed runs is reported, after one
 * untimed run (the page cache and out/cli warm, as hyperfine's --warmup).
 *
 *   npx tsx bench/cli/compare.ts [--runs 5] [--only a,b] [--no-just-bash] [--no-warm]
 *
 * `--only` takes name prefixes (`--only echo,import`). Results also go to
 * bench/results/cli-<date>.json. Not a test: nothing is asserted. Run
 * `npm run setup` (or `node scripts/build-cli.mjs`) first, or the CLI runs
 * from its sources and the figures mean nothing.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { settleImportTree, writeImportTree } from './importTree.ts';
import { fmt, timeRuns, type Command, type Sample } from './timing.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SANDGLASS = [path.join(root, 'bin/sandglass.mjs'), 'run'];
const JUST_BASH = [path.join(root, 'node_modules/just-bash/dist/bin/just-bash.js')];

interface Workload {
  readonly name: string;
  /** The script, the same for all three. */
  readonly script: string;
  /** Import the generated tree: Sandglass's --import, just-bash's --root, native reads it. */
  readonly importDir?: boolean;
}

const WORKLOADS: readonly Workload[] = [
  { name: 'echo hi', script: 'echo hi' },
  { name: 'import 50 MB/5,000 files', script: 'echo hi', importDir: true },
  {
    name: 'loop with [ 100k',
    script: 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; echo $i',
  },
  { name: '300 spawns of /bin/true', script: 'for i in $(seq 300); do /bin/true; done; echo done' },
  { name: 'seq 1M | awk sum', script: "seq 1 1000000 | awk '{s+=$1} END {print s}'" },
];

interface Args {
  runs: number;
  only: string[] | null;
  justBash: boolean;
  warm: boolean;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { runs: 5, only: null, justBash: true, warm: true };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i];
    if (v === '--runs') a.runs = Number(argv[++i]);
    else if (v === '--only') a.only = (argv[++i] ?? '').split(',');
    else if (v === '--no-just-bash') a.justBash = false;
    else if (v === '--no-warm') a.warm = false;
    else throw new Error(`unknown option ${v}`);
  }
  return a;
}

function commands(
  w: Workload,
  tree: string,
  scratch: string,
  engine: Engine | undefined,
): Record<string, Command> {
  // Native "import": read every file once, as a copy into memory does
  // (cp -r onto this VM's overlay /tmp measures its disk, not the copy).
  const copy = `find ${tree} -type f -exec cat {} + >/dev/null && `;
  const sandglass = [
    'node',
    ...SANDGLASS,
    ...(w.importDir ? ['--import', `${tree}:/data:ro`] : []),
    '-c',
    w.script,
  ];
  return {
    native: { argv: ['bash', '--norc', '--noprofile', '-c', (w.importDir ? copy : '') + w.script] },
    sandglass: { argv: sandglass, env: { SANDGLASS_ENGINE: 'off' } },
    ...(engine
      ? {
          'sandglass warm': {
            argv: sandglass,
            env: { SANDGLASS_ENGINE_SOCKET: engine.socket },
            server: engine.process.pid as number,
          },
        }
      : {}),
    'just-bash': {
      argv: [
        'node',
        ...JUST_BASH,
        '-c',
        w.script,
        ...(w.importDir ? ['--root', tree] : ['--root', scratch]),
      ],
    },
  };
}

interface Engine {
  process: ChildProcess;
  socket: string;
}

/**
 * Whether the bin would run from sources: the bench asks it rather than
 * fingerprinting the sources itself, so both agree on what is stale (the
 * bin checks only the files out/cli was built from, not tests or corpora).
 */
function cliRunsFromSources(): boolean {
  const run = spawnSync('node', [SANDGLASS[0], 'run', '-c', 'true'], {
    encoding: 'utf8',
    env: { ...process.env, SANDGLASS_ENGINE: 'off' },
  });
  return run.stderr.includes('running from sources');
}

/** `sandglass engine` on a socket of its own, once it listens. */
async function startEngine(scratch: string): Promise<Engine> {
  const socket = path.join(scratch, 'engine', 'engine.sock');
  const child = spawn(
    'node',
    [path.join(root, 'bin/sandglass.mjs'), 'engine', '--socket', socket],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    let err = '';
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      if (err.includes('listening on')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`sandglass engine exited (${code}): ${err}`)));
  });
  return { process: child, socket };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (cliRunsFromSources())
    throw new Error('out/cli is missing or stale: run `node scripts/build-cli.mjs` first');
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-clibench-'));
  const tree = path.join(scratch, 'tree');
  writeImportTree(tree);
  await settleImportTree();
  const engine = args.warm ? await startEngine(scratch) : undefined;
  const impls = [
    'native',
    'sandglass',
    ...(engine ? ['sandglass warm'] : []),
    ...(args.justBash ? ['just-bash'] : []),
  ];
  console.log(`bench: whole-process CLI runs against bash/GNU and just-bash (runs ${args.runs})`);
  const base = timeRuns(args.runs, { argv: ['node', '-e', '0'] });
  console.log(
    `node -e 0: ${fmt(base.wallMs)} wall, ${fmt(base.cpuMs)} CPU, ${base.rssMb.toFixed(0)} MB`,
  );
  console.log(
    `${'workload'.padEnd(26)} ${impls.map((i) => i.padStart(24)).join(' ')}   (wall / CPU / peak RSS)`,
  );
  const rows: Record<string, unknown>[] = [];
  try {
    for (const w of WORKLOADS) {
      if (args.only && !args.only.some((o) => w.name.startsWith(o))) continue;
      const cmds = commands(w, tree, scratch, engine);
      const cells: string[] = [];
      const row: Record<string, unknown> = { workload: w.name };
      for (const impl of impls) {
        const s = timeRuns(args.runs, cmds[impl] as Command);
        row[impl] = s;
        cells.push(`${fmt(s.wallMs)} / ${fmt(s.cpuMs)} / ${s.rssMb.toFixed(0)} MB`.padStart(24));
      }
      rows.push(row);
      const outs = impls.map((i) => JSON.stringify((row[i] as Sample).out.slice(0, 20)));
      console.log(`${w.name.padEnd(26)} ${cells.join(' ')}   ${outs.join(' ')}`);
    }
  } finally {
    engine?.process.kill('SIGTERM');
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  const resultsDir = path.join(root, 'bench/results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `cli-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({ host: os.cpus().length, load: os.loadavg(), node: base, rows }, null, 2),
  );
  console.log(`results: ${path.relative(root, file)}`);
}

await main();
