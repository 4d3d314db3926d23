import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HttpParseError, ResponseParser, type ResponseHead } from './responseParser.js';

interface Parsed {
  heads: ResponseHead[];
  body: string;
  ended: boolean;
}

const enc = new TextEncoder();

/** Parse `text` fed in pieces cut at `cuts`; `closed` = the connection ended after it. */
function parse(
  text: string,
  opts: { method?: string; cuts?: number[]; closed?: boolean } = {},
): Parsed {
  const out: Parsed = { heads: [], body: '', ended: false };
  const p = new ResponseParser(
    {
      head: (h) => out.heads.push(h),
      data: (b) => {
        out.body += Buffer.from(b).toString('latin1');
        return true;
      },
      end: () => (out.ended = true),
    },
    opts.method ?? 'GET',
  );
  const bytes = enc.encode(text);
  const cuts = [...new Set(opts.cuts ?? [])]
    .filter((c) => c > 0 && c < bytes.length)
    .sort((a, b) => a - b);
  let at = 0;
  for (const c of [...cuts, bytes.length]) {
    // A reused read buffer: the parser must not keep a view of old bytes.
    const piece = new Uint8Array(bytes.subarray(at, c));
    p.feed(piece);
    piece.fill(0x7e);
    at = c;
  }
  if (opts.closed) p.close();
  return out;
}

const CHUNKED =
  'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\n\r\n' +
  '5\r\nhello\r\n1;ext=1\r\n \r\nA\r\n0123456789\r\n0\r\nTrailer: x\r\n\r\n';

describe('ResponseParser', () => {
  it('reads the status line and headers as sent', () => {
    const r = parse(
      'HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\nX-Two:  a b \r\nx-two: c\r\n\r\nno',
    );
    expect(r.heads).toEqual([
      {
        status: 404,
        statusText: 'Not Found',
        version: '1.1',
        rawHeaders: ['Content-Length', '2', 'X-Two', 'a b', 'x-two', 'c'],
      },
    ]);
    expect(r).toMatchObject({ body: 'no', ended: true });
  });

  it('frames by Content-Length, chunked, or the close', () => {
    expect(parse('HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabcdef')).toMatchObject({
      body: 'abc',
      ended: true,
    });
    expect(parse(CHUNKED)).toMatchObject({ body: 'hello 0123456789', ended: true });
    const open = parse('HTTP/1.0 200 OK\r\nServer: old\r\n\r\nuntil the end');
    expect(open).toMatchObject({ body: 'until the end', ended: false });
    expect(open.heads[0]?.version).toBe('1.0');
    expect(parse('HTTP/1.0 200 OK\r\n\r\nabc', { closed: true }).ended).toBe(true);
    // Chunked wins over a Content-Length; a coding after chunked ends at the close.
    expect(
      parse(
        'HTTP/1.1 200 OK\r\nContent-Length: 99\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n',
      ),
    ).toMatchObject({ body: 'ok', ended: true });
    expect(parse('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\nraw')).toMatchObject({
      body: 'raw',
      ended: false,
    });
  });

  it('has no body for HEAD, 204 and 304, and skips 1xx heads', () => {
    expect(
      parse('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n', { method: 'HEAD' }),
    ).toMatchObject({
      body: '',
      ended: true,
    });
    expect(parse('HTTP/1.1 204 No Content\r\n\r\n').ended).toBe(true);
    expect(parse('HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\n').ended).toBe(true);
    const r = parse(
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 1\r\n\r\nx',
    );
    expect(r.heads.map((h) => h.status)).toEqual([201]);
    expect(r.body).toBe('x');
  });

  it('reads bare-LF heads, folded lines and a status line without a reason', () => {
    const r = parse('HTTP/1.1 200\nA: 1\n  2\nContent-Length: 1\n\nz');
    expect(r.heads[0]).toMatchObject({
      statusText: '',
      rawHeaders: ['A', '1 2', 'Content-Length', '1'],
    });
    expect(r.body).toBe('z');
  });

  it('gives the same result however the bytes are cut', () => {
    const whole = parse(CHUNKED);
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: CHUNKED.length - 1 }), { maxLength: 12 }),
        (cuts) => {
          expect(parse(CHUNKED, { cuts })).toEqual(whole);
        },
      ),
    );
  });

  it('refuses malformed responses and cut-short bodies', () => {
    const bad = (text: string, closed = false): void => {
      expect(() => parse(text, { closed })).toThrow(HttpParseError);
    };
    bad('SSH-2.0-OpenSSH\r\n\r\n');
    bad('HTTP/2.0 200 OK\r\n\r\n');
    bad('HTTP/1.1 2000 OK\r\n\r\n');
    bad('HTTP/1.1 200 OK\r\nNo Colon\r\n\r\n');
    bad('HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n');
    bad('HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n');
    bad('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n');
    bad('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX\r\n');
    bad('HTTP/1.1 101 Switching Protocols\r\n\r\n');
    expect(() => parse('', { closed: true })).toThrow('Empty reply from server');
    expect(() =>
      parse('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc', { closed: true }),
    ).toThrow('transfer closed with 7 bytes remaining to read');
    bad('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab', true);
  });

  it('names each failure with the reason curl tells apart', () => {
    const reason = (text: string, closed = false): string => {
      try {
        parse(text, { closed });
      } catch (e) {
        return e instanceof HttpParseError ? `${e.reason}: ${e.message}` : String(e);
      }
      return 'parsed';
    };
    expect(reason('', true)).toBe('empty-reply: Empty reply from server');
    expect(reason('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc', true)).toBe(
      'partial-body: transfer closed with 7 bytes remaining to read',
    );
    expect(reason('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab', true)).toBe(
      'partial-body: transfer closed with outstanding read data remaining',
    );
    expect(reason('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n')).toBe(
      'bad-response: Illegal or missing hexadecimal sequence in chunked-encoding',
    );
    expect(reason('garbage here\r\n\r\n')).toMatch(/^not-http: /);
    expect(reason('hello\n', true)).toMatch(/^not-http: /);
    expect(reason('HTTP/1.1 200 OK\r\nContent-Le', true)).toMatch(/^bad-response: /);
  });

  it('asks to stop reading when the reader is full, and hands out the rest of the read', () => {
    const seen: string[] = [];
    const p = new ResponseParser(
      {
        head: () => {},
        data: (b) => {
          seen.push(Buffer.from(b).toString());
          return false;
        },
        end: () => {},
      },
      'GET',
    );
    expect(
      p.feed(
        enc.encode('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n1\r\nb\r\n'),
      ),
    ).toBe(false);
    expect(seen).toEqual(['a', 'b']);
  });
});
