/**
 * Starts bench/net/serve.ts (the loopback test server) in a process of its
 * own, so serving costs the bench's process nothing; `stop` ends it.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';

export interface ServerProcess {
  readonly port: number;
  readonly origin: string;
  stop(): void;
}

export async function startServerProcess(): Promise<ServerProcess> {
  const child = spawn('npx', ['tsx', new URL('./serve.ts', import.meta.url).pathname], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const [first] = (await once(child.stdout, 'data')) as [Buffer];
  const port = Number(first.toString().trim());
  return { port, origin: `http://127.0.0.1:${port}`, stop: () => child.stdin.end() };
}
