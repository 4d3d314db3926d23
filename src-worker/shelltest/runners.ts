/**
 * Running one differential case: with the host's bash in a temp directory,
 * and with our shell as `/bin/bash case.sh` in a sandbox, in a directory of
 * the same path inside the VFS so printed paths agree.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { constants as osConstants, tmpdir } from 'node:os';
import { join } from 'node:path';
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
  // Output goes to files, as in a terminal session's redirections: Node's
  // stdio pipes are sockets, which /dev/stdout cannot be opened on.
  const io = await mkdtemp(join(tmpdir(), 'sg-shelldiff-io-'));
  const out = openSync(join(io, 'out'), 'w');
  const err = openSync(join(io, 'err'), 'w');
  try {
    const status = await new Promise<number>((resolve) => {
      const child = spawn('bash', ['--norc', '--noprofile', 'case.sh'], {
        cwd: dir,
        env: caseEnv(dir),
        stdio: ['ignore', out, err],
      });
      let killed = false;
      const timer = setTimeout(() => {
        killed = true;
        child.kill('SIGKILL');
      }, CASE_TIMEOUT_MS);
      child.on('error', () => {
        clearTimeout(timer);
        resolve(127);
      });
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        resolve(killed ? 124 : (code ?? 128 + (signal ? (osConstants.signals[signal] ?? 0) : 0)));
      });
    });
    return {
      stdout: new Uint8Array(await readFile(join(io, 'out'))),
      stderr: new Uint8Array(await readFile(join(io, 'err'))),
      status,
    };
  } finally {
    closeSync(out);
    closeSync(err);
    await rm(io, { recursive: true, force: true });
  }
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
  return { stdout: Buffer.concat(out), stderr: Buffer.concat(err), status: r.status };
}
