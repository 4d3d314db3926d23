/**
 * The loopback HTTP server the curl/wget differential suite and the net
 * bench talk to (127.0.0.1, a port of the OS's choosing). Responses are
 * deterministic: no Date header, `Connection: close`, fixed bodies, so the
 * host's curl/wget and ours can be compared byte for byte.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import { SITE, SITE_REDIRECTS } from './testSite.js';

export interface TestServer {
  readonly port: number;
  readonly base: string;
  close(): Promise<void>;
}

/** Request headers /echo reports, in the order received (the rest vary by client). */
const ECHOED = new Set([
  'content-type',
  'content-length',
  'accept',
  'cookie',
  'referer',
  'authorization',
  'range',
  'user-agent',
]);

/** Replies no well-behaved server sends: cut short, empty, not HTTP. */
const RAW_REPLIES: Record<string, string> = {
  '/cut/length': 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nabc',
  '/cut/chunked': 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n',
  '/cut/empty': '',
  '/cut/bad-chunk': 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n',
  '/cut/http09': 'hello\n',
};

let packed: Buffer | null = null;
/**
 * 2.3 MB of lines, brotli-compressed once at quality 5: brotli's default
 * (11) takes 5-25 s on a loaded machine, for each request, and both the
 * host's curl and ours waited for it (the cases ran 17-38 s).
 */
function bigBrotli(): Buffer {
  const lines = Array.from({ length: 200_000 }, (_, i) => `line ${i}\n`).join('');
  packed ??= brotliCompressSync(lines, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
  return packed;
}

const BINARY = Buffer.from(Array.from({ length: 1024 }, (_, i) => (i * 7 + (i >> 8)) & 0xff));
const RANGED = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz'.repeat(30));

function send(
  res: http.ServerResponse,
  status: number,
  headers: Record<string, string | string[]>,
  body: string | Buffer = '',
): void {
  const b = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { ...headers, 'Content-Length': String(b.length) });
  res.end(b);
}

function route(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse): void {
  res.sendDate = false;
  res.shouldKeepAlive = false;
  const url = new URL(req.url ?? '/', 'http://x');
  const path = url.pathname;
  const text = { 'Content-Type': 'text/plain' };
  if (path === '/text' || path === '/dir/' || path === '/files/a%20b.txt') {
    return send(res, 200, text, 'hello world\n');
  }
  if (path === '/chunked') {
    res.writeHead(200, text);
    res.write('part one\n');
    res.end('part two\n');
    return;
  }
  if (path === '/binary')
    return send(res, 200, { 'Content-Type': 'application/octet-stream' }, BINARY);
  if (path === '/pattern') {
    // Many chunks of bytes that differ by position, streamed with
    // back-pressure: a body moved out of order or short shows in a checksum.
    const n = Number(url.searchParams.get('n') ?? '100000');
    res.writeHead(200, {
      'Content-Type': 'application/octet-stream',
      'Content-Length': String(n),
    });
    let at = 0;
    const pump = (): void => {
      while (at < n) {
        const len = Math.min(n - at, 40_000);
        const part = Buffer.alloc(len);
        for (let i = 0; i < len; i++) part[i] = ((at + i) * 7 + ((at + i) >> 13)) & 0xff;
        at += len;
        if (!res.write(part)) {
          res.once('drain', pump);
          return;
        }
      }
      res.end();
    };
    pump();
    return;
  }
  if (path === '/big') {
    const n = Number(url.searchParams.get('n') ?? '100000');
    return send(res, 200, { 'Content-Type': 'application/octet-stream' }, Buffer.alloc(n, 0x61));
  }
  if (path === '/empty') return send(res, 200, text, '');
  if (path === '/http10') {
    // An HTTP/1.0 server: Node's server always answers 1.1, so the status
    // line goes to the socket by hand (curl -i and wget -S print its version).
    const body = req.method === 'HEAD' ? '' : 'old server\n';
    res.socket?.end(
      `HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\n${body}`,
    );
    return;
  }
  const cut = RAW_REPLIES[path];
  if (cut !== undefined) {
    // Broken servers: bytes to the socket by hand, then the close.
    res.socket?.end(cut);
    return;
  }
  if (path === '/json')
    return send(res, 200, { 'Content-Type': 'application/json' }, '{"ok":true,"n":3}\n');
  const status = /^\/status\/(\d{3})$/.exec(path);
  if (status) {
    const code = Number(status[1]);
    if (code === 204 || code === 304) {
      res.writeHead(code, text);
      res.end();
      return;
    }
    return send(res, code, text, `status ${code}\n`);
  }
  const redirect = /^\/redirect\/(\d+)$/.exec(path);
  if (redirect) {
    const n = Number(redirect[1]);
    return send(res, 302, { Location: n > 1 ? `/redirect/${n - 1}` : '/text' }, 'redirecting\n');
  }
  if (path === '/redirect-abs') {
    return send(res, 301, { Location: `http://${req.headers.host}/text` });
  }
  if (path === '/redirect-rel') return send(res, 302, { Location: 'dir/' });
  if (path === '/redirect-denied') return send(res, 302, { Location: 'http://127.0.0.1:1/secret' });
  if (path === '/loop') return send(res, 302, { Location: '/loop' });
  if (path === '/see-other') return send(res, 303, { Location: '/echo' });
  if (path === '/temp') return send(res, 307, { Location: '/echo' });
  if (path === '/slow') {
    const t = setTimeout(() => send(res, 200, text, 'late\n'), 3000);
    res.on('close', () => clearTimeout(t));
    return;
  }
  if (path === '/gzip') {
    const raw = 'compressed body\n'.repeat(20);
    return send(res, 200, { ...text, 'Content-Encoding': 'gzip' }, gzipSync(raw));
  }
  if (path === '/deflate') {
    const raw = 'deflated body\n'.repeat(20);
    return send(res, 200, { ...text, 'Content-Encoding': 'deflate' }, deflateSync(raw));
  }
  if (path === '/br') {
    const raw = 'brotli body\n'.repeat(20);
    return send(res, 200, { ...text, 'Content-Encoding': 'br' }, brotliCompressSync(raw));
  }
  if (path === '/br-big') {
    // Large enough that curl splices it: the decoded bytes, not the raw ones, reach the file.
    return send(res, 200, { ...text, 'Content-Encoding': 'br' }, bigBrotli());
  }
  if (path === '/lastmod') {
    // A fixed date in the past: wget -N compares it with the file's mtime.
    const stamp = 'Mon, 01 Jan 2024 00:00:00 GMT';
    const since = req.headers['if-modified-since'];
    if (since && Date.parse(since) >= Date.parse(stamp)) {
      res.writeHead(304, { 'Last-Modified': stamp });
      res.end();
      return;
    }
    return send(res, 200, { ...text, 'Last-Modified': stamp }, 'dated\n');
  }
  if (path === '/cookies/set') {
    return send(
      res,
      200,
      {
        ...text,
        'Set-Cookie': [
          'session=abc; Path=/',
          'theme=dark; Path=/; Expires=Wed, 01 Jan 2098 00:00:00 GMT',
        ],
      },
      'cookies set\n',
    );
  }
  if (path === '/cookies/redirect') {
    return send(res, 302, { Location: '/cookies/show', 'Set-Cookie': 'hop=1; Path=/' });
  }
  if (path === '/cookies/show')
    return send(res, 200, text, `cookie: ${req.headers.cookie ?? ''}\n`);
  if (path === '/disposition') {
    return send(
      res,
      200,
      { ...text, 'Content-Disposition': 'attachment; filename="report.txt"' },
      'report\n',
    );
  }
  if (path === '/auth') {
    if (req.headers.authorization === 'Basic dXNlcjpwYXNz')
      return send(res, 200, text, 'welcome\n');
    return send(res, 401, { ...text, 'WWW-Authenticate': 'Basic realm="t"' }, 'denied\n');
  }
  if (path === '/range') {
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (m) {
      const from = Number(m[1]);
      if (from >= RANGED.length) {
        return send(res, 416, { ...text, 'Content-Range': `bytes */${RANGED.length}` });
      }
      return send(
        res,
        206,
        { ...text, 'Content-Range': `bytes ${from}-${RANGED.length - 1}/${RANGED.length}` },
        RANGED.subarray(from),
      );
    }
    return send(res, 200, text, RANGED);
  }
  if (path === '/echo' || path.startsWith('/echo/')) {
    // Content-Length is framing: the gateway's HTTP client writes it after
    // the other headers, so it is reported last, whatever its position.
    const lines = [`${req.method} ${req.url}`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = (req.rawHeaders[i] ?? '').toLowerCase();
      if (name !== 'content-length' && (ECHOED.has(name) || name.startsWith('x-'))) {
        lines.push(`${name}: ${req.rawHeaders[i + 1] ?? ''}`);
      }
    }
    // An empty body's `Content-Length: 0` (the gateway's client sends it for
    // a bodyless POST, curl does not) says nothing more than its absence.
    if (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0') {
      lines.push(`content-length: ${req.headers['content-length']}`);
    }
    lines.push(`body(${body.length}): ${body.toString('latin1')}`);
    return send(res, 200, text, `${lines.join('\n')}\n`);
  }
  const page = SITE[path + url.search];
  if (page) return send(res, 200, { 'Content-Type': page.type }, page.body);
  const moved = SITE_REDIRECTS[path];
  if (moved) return send(res, 301, { Location: moved });
  send(res, 404, text, 'not found\n');
}

export async function startTestServer(): Promise<TestServer> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => route(req, Buffer.concat(chunks), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
