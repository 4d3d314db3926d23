/**
 * Code warm-up at engine start. V8 runs new code slowly at first: kernel
 * and glue JavaScript in its interpreter, each wasm function in Liftoff
 * code until it has run enough to be recompiled by TurboFan on a
 * background thread. Left to the first command, that tier-up made the
 * first run of a shell loop cost about twice the CPU of the next ones
 * (docs/benchmarks.md, "sg cold"). Compiled code is per process and shared
 * by every sandbox and worker in it, so an engine that lives on (workbench,
 * web server) runs a short script once, off the critical path, touching
 * what nearly every command runs: the shell's loop, test, arithmetic,
 * expansion and pattern code, and the kernel's and workers' spawn, wait,
 * pipe and file paths. A one-shot CLI run does not: it would pay the
 * warm-up instead of saving it.
 */
import type { Sandbox } from './sandbox.js';

/** About 100-200 ms of CPU on the 2-core VM when idle. */
export const CODE_WARM_UP = [
  'i=0; s=',
  'while [ $i -lt 3000 ]; do',
  '  i=$((i + 1))',
  '  case $i in *7) s="${s#?}x" ;; esac',
  '  [[ $i == *3 ]] && s=${s%x}',
  'done',
  'for f in $(seq 60); do /bin/true; done',
  'for f in 1 2 3 4 5 6 7 8; do echo "$f $i" | cat > /tmp/.warm-up; done',
  // awk's loop: pipelines into awk are what agents run most after the shell itself
  "seq 20000 | awk '{ s += $1; n[$1 % 7]++ } END { print s, length(n) }' > /tmp/.warm-up",
  'rm -f /tmp/.warm-up',
].join('\n');

/** Runs the warm-up in `sb` (a throwaway sandbox: it writes and removes a file in /tmp). */
export async function warmCode(sb: Sandbox): Promise<void> {
  await sb.run(CODE_WARM_UP, { timeoutMs: 60_000 });
}
