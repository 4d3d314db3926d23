/**
 * argv[0] of an applet run through its /bin stub: GNU tools name themselves
 * by argv[0] as given, so `/bin/cat x` says "/bin/cat: x: ..." and `cat x`
 * says "cat: x: ..."; a name that is not the applet's is replaced by it (the
 * multicall binary dispatches on argv[0]'s basename).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultProgramsDir, Sandbox } from '../sandbox/sandbox.js';

const haveCoreutils = existsSync(join(defaultProgramsDir(), 'coreutils.wasm'));

describe.skipIf(!haveCoreutils)('argv[0] of applets', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await Sandbox.create();
  });
  afterAll(async () => {
    await sb.destroy();
  });

  it('is kept when it names the applet, by path or by name', async () => {
    const r = await sb.run('/bin/cat nope; /usr/bin/cat nope; cat nope; /bin/ls -d /nope');
    expect(r.stderr).toBe(
      [
        '/bin/cat: nope: No such file or directory',
        '/usr/bin/cat: nope: No such file or directory',
        'cat: nope: No such file or directory',
        "/bin/ls: cannot access '/nope': No such file or directory",
        '',
      ].join('\n'),
    );
  });

  it("is the applet's name when argv[0] names something else", async () => {
    const r = await sb.run('exec -a other /bin/cat nope');
    expect(r.stderr).toBe('cat: nope: No such file or directory\n');
    expect(r.status).toBe(1);
  });
});
