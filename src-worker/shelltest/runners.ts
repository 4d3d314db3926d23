/**
 * Running one differential case: with the host's bash in a temp directory,
 * and with our shell as `/bin/bash case.sh` in a sandbox, in a directory of
 * the same path inside the VFS so printed paths agree.
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { CaseResult } from './compare.js';

export const CASE_TIMEOUT_MS = 10_000;

/** The environment both sides see (the sandbox adds these names itself). */
export function caseEnv(dir: string): Record<string, string> {
  return {
    HOME: dir,
    PATH: '/usr/bin:/bin',
    LC_ALL: 'C',
    USER: 'user',
    LOGNAME: 'user',
    SHELL: '/bin/sh',
    LANG: 'C.UTF-8',
  };
}

export async function runOnHost(dir: string, script: string | Uint8Array): Promise<CaseResult> {
  await mkdir(dir, { recursive: true });
  await writeFile(`${dir}/case.sh`, script);
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['--norc', '--noprofile', 'case.sh'],
      {
        cwd: dir,
        env: caseEnv(dir),
        encoding: 'buffer',
        timeout: CASE_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        const e = err as (Error & { code?: number | string; killed?: boolean }) | null;
        let status = 0;
        if (e) status = e.killed ? 124 : typeof e.code === 'number' ? e.code : 126;
        resolve({ stdout: new Uint8Array(stdout), stderr: new Uint8Array(stderr), status });
      },
    ).stdin?.end();
  });
}

export async function runInSandbox(
  sb: Sandbox,
  dir: string,
  script: string | Uint8Array,
): Promise<CaseResult> {
  await sb.mkdir(dir, { recursive: true });
  await sb.writeFile(`${dir}/case.sh`, script);
  const out: Uint8Array[] = [];
  const err: Uint8Array[] = [];
  const p = await sb.spawn('/bin/bash', ['bash', 'case.sh'], {
    cwd: dir,
    env: caseEnv(dir),
    stdout: (d) => out.push(d.slice()),
    stderr: (d) => err.push(d.slice()),
    timeoutMs: CASE_TIMEOUT_MS,
  });
  const r = await p.wait();
  return { stdout: Buffer.concat(out), stderr: Buffer.concat(err), status: r.exitCode };
}
