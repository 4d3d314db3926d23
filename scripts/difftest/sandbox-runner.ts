// Runs differential cases inside one Sandglass sandbox for the whole run.
//
// Cost model: a case's starting tree (shared fixtures + the group's own) is
// imported once per group at the same absolute path the host side uses (so
// normalisation treats both sides alike) and snapshotted; every case then
// restores that snapshot (O(1) in the VFS), spawns the utility through
// /usr/bin and digests the tree it left behind through the VFS API. Nothing
// is copied back to the host.
//
// Identity: the sandbox is configured to be the host's twin where the host
// has a say: the same host name, and the host's accounts database
// (/etc/passwd, /etc/group) so uid 1000 and every other id resolve to the
// same names on both sides. The host side runs as uid/gid 1000 (see
// difftest.mjs), the sandbox's own unprivileged account, so both sides print
// their own real identity and face the same permission checks.
import fs from 'node:fs';
import os from 'node:os';
import { Sandbox, defaultProgramsDir } from '../../src-worker/sandbox/sandbox.ts';
import { digestTreeWith } from './tree-digest.mjs';

interface Case {
  argv: string[];
  stdin: string | null;
}

export interface CaseResult {
  stdout: Buffer;
  stderr: Buffer;
  status: number;
  /** Digest of the case directory after the run (see tree-digest.mjs). */
  tree: string;
}

export interface SandboxRunner {
  /** Make `templateDir` (a host tree) the starting state of `cwd` for the next cases. */
  prepare(templateDir: string, cwd: string): Promise<void>;
  run(c: Case, cwd: string, env: Record<string, string>): Promise<CaseResult>;
  /** Ends the sandbox (its workers would keep the process alive). */
  close(): Promise<void>;
}

function hostAccountsFile(name: string): Uint8Array | undefined {
  try {
    return fs.readFileSync(name);
  } catch {
    return undefined;
  }
}

export async function createSandboxRunner(): Promise<SandboxRunner> {
  const sandbox = await Sandbox.create({
    programsDir: defaultProgramsDir(),
    limits: { wallTimeMs: 20_000 },
    hostname: os.hostname().split('.')[0] ?? 'sandglass',
  });
  for (const f of ['/etc/passwd', '/etc/group']) {
    const data = hostAccountsFile(f);
    if (data) await sandbox.writeFile(f, data);
  }
  const vfs = {
    readdir: async (p: string) => (await sandbox.readDir(p)).map((e) => e.name),
    lstat: (p: string) => sandbox.stat(p, { follow: false }),
    readlink: (p: string) => sandbox.readLink(p),
    readFile: (p: string) => sandbox.readFile(p),
  };
  let start: { template: string; cwd: string; snap: ReturnType<Sandbox['snapshot']> } | undefined;

  return {
    async prepare(templateDir, cwd) {
      if (start && start.template === templateDir && start.cwd === cwd) return;
      if (start) sandbox.restore(start.snap);
      await sandbox.remove(cwd, { recursive: true }).catch(() => undefined);
      await sandbox.mkdir(cwd, { recursive: true });
      await sandbox.remove(cwd);
      await sandbox.importHostDir(templateDir, cwd);
      start = { template: templateDir, cwd, snap: sandbox.snapshot() };
    },

    async run(c, cwd, env) {
      if (!start || start.cwd !== cwd) throw new Error(`sandbox runner: ${cwd} was not prepared`);
      sandbox.restore(start.snap);
      const stdout: Uint8Array[] = [];
      const stderr: Uint8Array[] = [];
      const stdin = c.stdin ? await sandbox.readFile(`${cwd}/${c.stdin}`) : undefined;
      let status: number;
      try {
        const p = await sandbox.spawn(`/usr/bin/${c.argv[0]}`, c.argv, {
          cwd,
          env: { ...env, PATH: '/usr/bin:/bin' },
          replaceEnv: true, // exactly what the host side gets, bar PATH
          ...(stdin ? { stdin } : {}),
          stdout: (d) => stdout.push(d.slice()),
          stderr: (d) => stderr.push(d.slice()),
        });
        status = (await p.wait()).status;
      } catch (e) {
        stderr.push(Buffer.from(`(spawn failed: ${(e as Error).message})\n`));
        status = -1;
      }
      const tree = await digestTreeWith(vfs, cwd);
      return { stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr), status, tree };
    },

    close: () => sandbox.destroy(),
  };
}
