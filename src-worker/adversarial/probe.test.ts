import { it } from 'vitest';
import { SandglassEngine, DEFAULT_SETTINGS } from '/work/wt/adv/src-worker/api/engine.js';
it('probe', async () => {
  const e = new SandglassEngine();
  const sb = await e.call('createSandbox', {
    name: 'p',
    settings: { ...DEFAULT_SETTINGS, network: { allowedHosts: ['*'], blockedHosts: [] } },
  });
  for (const c of (process.env.CMDS ?? '').split('\n')) {
    const r = await e.call('run', { sandboxId: sb.id, command: c, timeoutMs: 20000 });
    console.log(
      JSON.stringify(c.slice(0, 80)),
      r.status,
      r.stdout.length,
      JSON.stringify(r.stdout.slice(-200)),
      JSON.stringify(r.stderr.slice(-300)),
    );
  }
  await e.dispose();
}, 120000);
