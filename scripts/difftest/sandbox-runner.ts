// Runs differential cases inside a Sandglass sandbox: one sandbox for the
// whole run; each case's directory is imported at the same absolute path it
// has on the host (so normalisation treats both sides alike), the utility is
// spawned through /usr/bin, and the directory is exported back for the
// runner's tree digest.
import fs from 'node:fs';
import path from 'node:path';
import { Sandbox, defaultProgramsDir } from '../../src-worker/sandbox/sandbox.ts';

interface Case {
  argv: string[];
  stdin: string | null;
}

export async function createSandboxRunner() {
  const sandbox = await Sandbox.create({
    programsDir: defaultProgramsDir(),
    limits: { wallTimeMs: 20_000 },
  });
  process.on('exit', () => void sandbox.destroy());
  return async (c: Case, cwd: string, env: Record<string, string>) => {
    await sandbox.remove(cwd, { recursive: true }).catch(() => undefined);
    await sandbox.mkdir(path.dirname(cwd), { recursive: true });
    await sandbox.importHostDir(cwd, cwd);
    const stdout: Uint8Array[] = [];
    const stderr: Uint8Array[] = [];
    const stdin = c.stdin ? fs.readFileSync(path.join(cwd, c.stdin)) : undefined;
    let status: number;
    try {
      const p = await sandbox.spawn(`/usr/bin/${c.argv[0]}`, c.argv, {
        cwd,
        env: { ...env, PATH: '/usr/bin:/bin' },
        ...(stdin ? { stdin } : {}),
        stdout: (d) => stdout.push(d.slice()),
        stderr: (d) => stderr.push(d.slice()),
      });
      status = (await p.wait()).exitCode;
    } catch (e) {
      stderr.push(Buffer.from(`(spawn failed: ${(e as Error).message})\n`));
      status = -1;
    }
    fs.rmSync(cwd, { recursive: true, force: true });
    fs.mkdirSync(cwd);
    await sandbox.exportTree(cwd, cwd);
    return { stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr), status };
  };
}
