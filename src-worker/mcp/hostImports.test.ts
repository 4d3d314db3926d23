/**
 * Host imports by agents: only folders a person allowed, checked after
 * resolving `..` and symlinks; a refusal is a tool error naming the reason
 * and leaves no sandbox behind; `:ro` folders arrive sealed.
 */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SandglassEngine } from '../api/engine.js';
import { connectAgent } from './host.js';
import { clearImport, parseAllowedImport, readAllowedImports } from './hostImports.js';
import { createMcpServer } from './server.js';

// host/
//   allowed/        (allowed, read-write)  project/a.txt, escape -> ../secret, inner -> project
//   shared/         (allowed, :ro)         s.txt
//   secret/         (not allowed)          key.txt
const host = realpathSync(mkdtempSync(join(tmpdir(), 'sg-imports-')));
for (const d of ['allowed/project', 'shared', 'secret'])
  mkdirSync(join(host, d), { recursive: true });
writeFileSync(join(host, 'allowed/project/a.txt'), 'alpha\n');
writeFileSync(join(host, 'shared/s.txt'), 'shared\n');
writeFileSync(join(host, 'secret/key.txt'), 'KEY\n');
symlinkSync('../secret', join(host, 'allowed/escape'));
symlinkSync('project', join(host, 'allowed/inner'));
const allowed = [
  parseAllowedImport(join(host, 'allowed')),
  parseAllowedImport(`${join(host, 'shared')}:ro`),
];

describe('clearImport', () => {
  it('clears folders inside an allowed one, resolved, with :ro forcing read-only', () => {
    expect(clearImport(allowed, join(host, 'allowed/project'), false)).toEqual({
      hostPath: join(host, 'allowed/project'),
      readOnly: false,
    });
    expect(clearImport(allowed, join(host, 'allowed/inner'), false).hostPath).toBe(
      join(host, 'allowed/project'),
    );
    expect(clearImport(allowed, join(host, 'allowed/project'), true).readOnly).toBe(true);
    expect(clearImport(allowed, join(host, 'shared'), false).readOnly).toBe(true);
  });

  it('refuses .., symlinks out, relative paths, NUL, files and anything when nothing is allowed', () => {
    const refused = (path: string, list = allowed): string => {
      try {
        clearImport(list, path, false);
      } catch (e) {
        return `${(e as { code: string }).code}: ${(e as Error).message}`;
      }
      return 'cleared';
    };
    expect(refused(join(host, 'allowed/../secret'))).toMatch(/^EACCES: .*outside the folders/);
    expect(refused(join(host, 'allowed/project/../../secret'))).toMatch(/^EACCES/);
    expect(refused(join(host, 'allowed/escape'))).toMatch(/^EACCES: .*really .*secret/);
    expect(refused(`${join(host, 'allowed')}-evil`)).toMatch(/^ENOENT/);
    expect(refused(host)).toMatch(/^EACCES/);
    expect(refused('/')).toMatch(/^EACCES/);
    expect(refused('allowed/project')).toMatch(/^EINVAL: host_path must be an absolute/);
    expect(refused(`${join(host, 'allowed')}\0`)).toMatch(/^EINVAL/);
    expect(refused(join(host, 'allowed/project/a.txt'))).toMatch(/^ENOTDIR/);
    expect(refused(join(host, 'allowed/project'), [])).toMatch(/^EACCES: host imports are off/);
  });

  it('reads the allowed folders from a settings file, skipping comments and missing folders', () => {
    const file = join(host, 'mcp-imports');
    writeFileSync(file, `# agents may read these\n${join(host, 'shared')}:ro\n\n/no/such/dir\n`);
    expect(readAllowedImports(file)).toEqual([{ root: join(host, 'shared'), readOnly: true }]);
    expect(readAllowedImports(join(host, 'missing'))).toEqual([]);
    expect(() => parseAllowedImport('/no/such/dir')).toThrow(/--allow-import/);
  });
});

describe('create_sandbox with imports', () => {
  let engine: SandglassEngine;
  let client: Client;
  let agent: ReturnType<typeof connectAgent>;

  beforeEach(async () => {
    engine = new SandglassEngine();
    agent = connectAgent(engine, { transport: 'mcp-stdio', allowedImports: () => allowed });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await createMcpServer(agent).connect(a);
    client = new Client({ name: 'vitest-agent', version: '1' });
    await client.connect(b);
  });

  afterEach(async () => {
    await client.close();
    agent.close();
    await engine.dispose();
  });

  const call = (name: string, args: Record<string, unknown>) =>
    client.callTool({ name, arguments: args });
  const text = (r: Awaited<ReturnType<typeof call>>) =>
    (r.content as { text: string }[])[0]?.text ?? '';

  it('copies allowed folders in; :ro ones are sealed', async () => {
    const made = await call('create_sandbox', {
      imports: [
        { host_path: join(host, 'allowed/project') },
        { host_path: join(host, 'shared'), path: '/data/shared' },
      ],
    });
    expect(made.isError).toBeFalsy();
    const id = (made.structuredContent as { sandbox_id: string }).sandbox_id;
    const read = await call('read_file', { sandbox_id: id, path: 'project/a.txt' });
    expect(text(read)).toContain('alpha');
    expect(text(await call('read_file', { sandbox_id: id, path: '/data/shared/s.txt' }))).toContain(
      'shared',
    );
    const write = await call('write_file', {
      sandbox_id: id,
      path: '/data/shared/s.txt',
      content: 'changed',
    });
    expect(write.isError).toBe(true);
    expect(text(write)).toMatch(/EROFS/);
  });

  it('refuses a path out of the allowed folders with a clear error, making no sandbox', async () => {
    const before = (await engine.call('listSandboxes', {}, agent.client)).length;
    for (const host_path of [join(host, 'allowed/escape'), join(host, 'allowed/../secret')]) {
      const r = await call('create_sandbox', {
        imports: [{ host_path: join(host, 'allowed/project') }, { host_path }],
      });
      expect(r.isError).toBe(true);
      expect(text(r)).toMatch(/^EACCES: .*outside the folders a person allowed/);
    }
    expect((await engine.call('listSandboxes', {}, agent.client)).length).toBe(before);
  });
});
