/**
 * The benchmark workloads of the shell and coreutils issues, with their
 * generated data. `scale` shrinks the data for quick runs (1 = full size).
 */
export interface Workload {
  readonly name: string;
  /** bash script run with the data files in its cwd. */
  readonly script: string;
  readonly files: (scale: number) => Record<string, Uint8Array>;
  /** Big workloads run once instead of taking a median. */
  readonly heavy?: boolean;
}

const enc = new TextEncoder();

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = [
  'alpha',
  'bravo',
  'charlie',
  'delta',
  'echo',
  'foxtrot',
  'golf',
  'hotel',
  'india',
  'juliet',
  'kilo',
  'lima',
];

/** Lines of words and numbers, about `bytes` long. */
function textLines(bytes: number, seed = 1): Uint8Array {
  const r = rng(seed);
  const parts: string[] = [];
  let n = 0;
  while (n < bytes) {
    const line = `${WORDS[Math.floor(r() * WORDS.length)]} ${Math.floor(r() * 1e6)} ${WORDS[Math.floor(r() * WORDS.length)]} status=${r() < 0.1 ? 'error' : 'ok'} path=/var/log/app${Math.floor(r() * 100)}.log\n`;
    parts.push(line);
    n += line.length;
  }
  return enc.encode(parts.join(''));
}

function numberedLines(count: number, seed = 2): Uint8Array {
  const r = rng(seed);
  const parts: string[] = [];
  for (let i = 0; i < count; i++)
    parts.push(
      `${WORDS[i % WORDS.length]} ${Math.floor(r() * 100000)} ${(r() * 1000).toFixed(2)}\n`,
    );
  return enc.encode(parts.join(''));
}

function jsonDoc(bytes: number): Uint8Array {
  const r = rng(3);
  const items: string[] = [];
  let n = 0;
  let i = 0;
  while (n < bytes) {
    const s = JSON.stringify({
      id: i++,
      name: WORDS[Math.floor(r() * WORDS.length)],
      score: Math.floor(r() * 100),
      tags: [WORDS[i % 12], WORDS[(i * 7) % 12]],
      active: r() < 0.5,
    });
    items.push(s);
    n += s.length + 1;
  }
  return enc.encode(`[${items.join(',\n')}]\n`);
}

function manyFiles(count: number): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < count; i++) {
    const d = `tree/d${i % 40}/e${Math.floor(i / 40) % 25}`;
    files[`${d}/f${i}.${i % 3 === 0 ? 'txt' : 'log'}`] = enc.encode(`${i}\n`);
  }
  return files;
}

const MB = 1024 * 1024;

export const WORKLOADS: readonly Workload[] = [
  {
    name: 'shell-arith-loop-100k',
    script: 's=0; for ((i=0; i<100000; i++)); do s=$((s + i * 2 % 7)); done; echo $s',
    files: () => ({}),
  },
  {
    // Issue #15: `[`/`test` and the loop around it (the same loop with `(( ))` is the arith one).
    name: 'shell-test-loop-100k',
    script: 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; echo $i',
    files: () => ({}),
  },
  {
    // Issue #15: the fixed cost of starting a small program.
    name: 'spawn-300-true',
    script: 'for i in $(seq 300); do /bin/true; done; echo done',
    files: () => ({}),
  },
  {
    // `bash -c CMD` execs CMD in place of the child shell: a spawn plus an exec each.
    name: 'bash-c-exec-100',
    script: 'for i in $(seq 100); do bash -c /bin/true; done; echo done',
    files: () => ({}),
  },
  {
    // Issue #15: a two-stage pipeline of 1M lines.
    name: 'seq-awk-pipe-1M',
    script: "seq 1 1000000 | awk '{s+=$1} END {print s}'",
    files: () => ({}),
  },
  {
    name: 'shell-while-read-10k',
    script:
      'n=0; c=0; while IFS= read -r line; do n=$((n + ${#line})); c=$((c+1)); done < lines.txt; echo $c $n',
    files: (s) => ({ 'lines.txt': numberedLines(Math.max(100, Math.round(10000 * s))) }),
  },
  {
    name: 'shell-param-expansion',
    script:
      'x="The quick brown fox jumps over the lazy dog"; n=0; for ((i=0; i<20000; i++)); do y=${x//o/0}; z=${y^^}; w=${z#* }; v=${w%% *}; n=$((n + ${#v} + ${#y})); done; echo $n $v',
    files: () => ({}),
  },
  {
    name: 'sort-1M-lines',
    script: 'sort data.txt | tail -n 1',
    files: (s) => ({ 'data.txt': numberedLines(Math.round(1_000_000 * s)) }),
    heavy: true,
  },
  {
    name: 'grep-c-100MB',
    script: 'grep -c error big.txt',
    files: (s) => ({ 'big.txt': textLines(Math.round(100 * MB * s)) }),
    heavy: true,
  },
  {
    name: 'awk-sum-1M-lines',
    script: "awk '{ s += $2 } END { print s }' data.txt",
    files: (s) => ({ 'data.txt': numberedLines(Math.round(1_000_000 * s)) }),
    heavy: true,
  },
  {
    name: 'sed-s-g-100MB',
    script: "sed 's/alpha/ALPHA/g' big.txt | wc -l",
    files: (s) => ({ 'big.txt': textLines(Math.round(100 * MB * s)) }),
    heavy: true,
  },
  {
    name: 'find-20k-files',
    script: "find tree -name '*.txt' | wc -l",
    files: (s) => manyFiles(Math.round(20000 * s)),
    heavy: true,
  },
  {
    name: 'jq-20MB',
    script: "jq '[.[] | select(.active) | .score] | add' doc.json",
    files: (s) => ({ 'doc.json': jsonDoc(Math.round(20 * MB * s)) }),
    heavy: true,
  },
  {
    name: 'tar-czf-50MB',
    script: 'tar czf out.tgz src && tar tzf out.tgz | wc -l',
    files: (s) => ({
      'src/a.txt': textLines(Math.round(25 * MB * s), 5),
      'src/b.txt': textLines(Math.round(25 * MB * s), 6),
    }),
    heavy: true,
  },
];
