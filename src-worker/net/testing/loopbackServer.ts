/**
 * A loopback HTTP server for the network tests (127.0.0.1, a free port):
 * echo, redirects, generated bodies of any size with back-pressure, slow
 * answers; it records every request so a test can prove one never arrived.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  rawHeaders: string[];
}

export interface LoopbackServer {
  port: number;
  origin: string;
  seen: Seen[];
  /** Body bytes /big has handed to its socket so far (back-pressure tests). */
  readonly bigWritten: number;
  close(): Promise<void>;
}

const CHUNK = Buffer.alloc(64 * 1024, 0x61);

interface Stats {
  bigWritten: number;
}

function handle(req: IncomingMessage, res: ServerResponse, seen: Seen[], stats: Stats): void {
  seen.push({ method: req.method ?? '', url: req.url ?? '', rawHeaders: req.rawHeaders });
  const url = new URL(req.url ?? '/', 'http://x');
  const q = url.searchParams;
  switch (url.pathname) {
    case '/hello':
      res.writeHead(200, { 'Content-Type': 'text/plain', 'X-Custom': 'Yes' });
      res.end('hello\n');
      return;
    case '/echo': {
      let size = 0;
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (parts.length < 16) parts.push(c);
      });
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(
          JSON.stringify({
            method: req.method,
            url: req.url,
            rawHeaders: req.rawHeaders,
            size,
            body: Buffer.concat(parts).toString('latin1').slice(0, 4096),
          }),
        );
      });
      return;
    }
    case '/empty-reply':
      // A server that closes the connection without answering.
      res.socket?.end();
      return;
    case '/http10':
      // An HTTP/1.0 server: Node always answers 1.1, so the bytes go by hand.
      res.socket?.end(
        'HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n\r\nold\n',
      );
      return;
    case '/redirect': {
      res.writeHead(Number(q.get('status') ?? 302), { Location: q.get('to') ?? '/hello' });
      res.end('moved');
      return;
    }
    case '/big': {
      const total = Number(q.get('bytes') ?? 0);
      const declare = q.get('length') !== 'no';
      res.writeHead(200, declare ? { 'Content-Length': String(total) } : {});
      let left = total;
      const pump = (): void => {
        while (left > 0) {
          const n = Math.min(left, CHUNK.length);
          left -= n;
          stats.bigWritten += n;
          if (!res.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n))) {
            res.once('drain', pump);
            return;
          }
        }
        res.end();
      };
      pump();
      return;
    }
    case '/hold': {
      // Reads no request body until `ms` have passed: uploads must wait.
      const ms = Number(q.get('ms') ?? 300);
      const t = setTimeout(() => {
        req.resume();
        req.on('end', () => res.end('held'));
      }, ms);
      req.pause();
      res.on('close', () => clearTimeout(t));
      return;
    }
    case '/slow': {
      const ms = Number(q.get('ms') ?? 60_000);
      const t = setTimeout(() => res.end('late'), ms);
      res.on('close', () => clearTimeout(t));
      return;
    }
    default:
      res.writeHead(404);
      res.end('not found');
  }
}

async function listen(
  server: Server,
  scheme: string,
  seen: Seen[],
  stats: Stats,
  host = '127.0.0.1',
): Promise<LoopbackServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`,
    seen,
    get bigWritten() {
      return stats.bigWritten;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** On 127.0.0.1, or on `::1` for the IPv6 tests. */
export function startLoopbackServer(host = '127.0.0.1'): Promise<LoopbackServer> {
  const seen: Seen[] = [];
  const stats = { bigWritten: 0 };
  return listen(
    createServer((req, res) => handle(req, res, seen, stats)),
    'http',
    seen,
    stats,
    host,
  );
}

export function startLoopbackTlsServer(cert: string, key: string): Promise<LoopbackServer> {
  const seen: Seen[] = [];
  const stats = { bigWritten: 0 };
  return listen(
    createTlsServer({ cert, key }, (req, res) => handle(req, res, seen, stats)),
    'https',
    seen,
    stats,
  );
}
