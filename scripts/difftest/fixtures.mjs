// The shared fixture directory every differential case starts from: odd
// input of every kind agents meet (empty, no final newline, CRLF, binary,
// invalid UTF-8, very long lines, unicode) plus ordinary data files.
import fs from 'node:fs';
import path from 'node:path';

function lcg(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Writes the fixtures into `dir`; returns [name, description] pairs. */
export function makeFixtures(dir) {
  const list = [];
  const put = (name, content, desc, mode) => {
    const p = path.join(dir, name);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
    if (mode) fs.chmodSync(p, mode);
    // Fixed mtimes so ls -l/-t/find -newer compare deterministically.
    const t = new Date(Date.UTC(2024, 0, 1 + list.length, 12, 0, 0));
    fs.utimesSync(p, t, t);
    list.push([name, desc]);
  };
  const rnd = lcg(42);
  const words = [
    'alpha',
    'beta',
    'gamma',
    'delta',
    'epsilon',
    'zeta',
    'eta',
    'theta',
    'iota',
    'kappa',
    'lambda',
    'mu',
  ];
  put('empty.txt', '', 'zero bytes');
  put('nonl.txt', 'first line\nsecond line without newline', 'no trailing newline');
  put('crlf.txt', 'one\r\ntwo\r\nthree\r\n', 'CRLF line endings');
  put(
    'binary.bin',
    Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256)),
    'all byte values twice',
  );
  put(
    'invalid-utf8.txt',
    Buffer.from([0x61, 0x62, 0xff, 0xfe, 0x0a, 0xc3, 0x28, 0x0a, 0x7a, 0x0a]),
    'invalid UTF-8 sequences',
  );
  put('long-line.txt', `${'x'.repeat(70000)}\nshort\n${'y'.repeat(5000)}\n`, 'a 70k-byte line');
  put('unicode.txt', 'héllo wörld\n日本語のテキスト\nemoji 🎉 party\nÅngström\n', 'UTF-8 text');
  put(
    'words.txt',
    Array.from({ length: 60 }, () => words[Math.floor(rnd() * words.length)]).join('\n') + '\n',
    '60 words, repeats',
  );
  put(
    'lines.txt',
    'apple\nbanana\napple\ncherry\nbanana\nbanana\ndate\n\nelderberry\nfig\n',
    'lines with duplicates and a blank',
  );
  put(
    'nums.txt',
    ['10', '2', '-3', '4.5', '100', '0', '-0.5', '7', '33', '1e3', '8', ' 5', '12abc'].join('\n') +
      '\n',
    'numbers, negatives, floats, junk',
  );
  put(
    'human.txt',
    ['1K', '2M', '512', '3G', '1.5K', '900', '10M'].join('\n') + '\n',
    'human sizes',
  );
  put(
    'versions.txt',
    ['1.10.0', '1.2.0', '1.2.10', '1.2.9', 'v2.0', '1.2'].join('\n') + '\n',
    'version strings',
  );
  put('mixed-case.txt', 'Zebra\napple\nBanana\nbanana\nAPPLE\nzebra\n', 'mixed case');
  put(
    'data.csv',
    'name,age,city\nalice,30,paris\nbob,25,berlin\ncarol,35,"new york"\ndave,,rome\n',
    'CSV with header',
  );
  put(
    'data.tsv',
    'id\tname\tscore\n3\tcarol\t88\n1\talice\t92\n2\tbob\t75\n4\tdave\t92\n',
    'TSV with header',
  );
  put(
    'table.txt',
    'root 0 0 /root\nuser 1000 1000 /home/user\ndaemon 1 1 /usr/sbin\nnobody 65534 65534 /nonexistent\n',
    'space separated columns',
  );
  put(
    'passwd.txt',
    'root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000:User:/home/user:/bin/bash\nnobody:x:65534:65534::/nonexistent:/usr/sbin/nologin\n',
    'colon separated',
  );
  put(
    'text.txt',
    'The quick brown fox jumps over the lazy dog.\nPack my box with five dozen liquor jugs.\n\nHow vexingly quick daft zebras jump!\nThe five boxing wizards jump quickly.\nSphinx of black quartz, judge my vow.\n',
    'prose with a blank line',
  );
  put('tabs.txt', 'a\tb\tc\n\tindented\nx\t\ty\n', 'tabs');
  put('spaces.txt', '  leading\ntrailing   \n  both  \nmiddle   spaces here\n', 'odd spacing');
  put('file with spaces.txt', 'content\n', 'name with spaces');
  put(
    'data.json',
    JSON.stringify(
      {
        name: 'sandglass',
        version: 1,
        tags: ['a', 'b', 'c'],
        nested: { x: 1.5, y: null, z: [true, false] },
        items: [
          { id: 1, n: 'one' },
          { id: 2, n: 'two' },
          { id: 3, n: 'three' },
        ],
      },
      null,
      2,
    ) + '\n',
    'JSON object',
  );
  put(
    'people.json',
    JSON.stringify([
      { name: 'alice', age: 30, city: 'paris' },
      { name: 'bob', age: 25, city: 'berlin' },
      { name: 'carol', age: 35, city: 'paris' },
    ]) + '\n',
    'JSON array',
  );
  put('stream.json', '{"a":1}\n{"a":2}\n[1,2]\n"str"\n3\n', 'JSON stream');
  put('bad.json', '{"a": 1,, }\n', 'invalid JSON');
  put('script.sh', '#!/bin/sh\necho hello\n', 'executable script', 0o755);
  put('readonly.txt', 'cannot write\n', 'mode 0444', 0o444);
  put('dir/a.txt', 'a\n', 'nested dir');
  put('dir/b.log', 'b log\n', 'nested dir');
  put('dir/sub/c.txt', 'c\n', 'nested dir');
  put('dir/sub/deeper/d.md', '# d\n', 'nested dir');
  put('dir/.hidden', 'hidden\n', 'dotfile');
  fs.mkdirSync(path.join(dir, 'emptydir'));
  list.push(['emptydir/', 'empty directory']);
  fs.symlinkSync('lines.txt', path.join(dir, 'link-to-lines'));
  list.push(['link-to-lines', 'symlink to lines.txt']);
  fs.symlinkSync('missing-target', path.join(dir, 'dangling'));
  list.push(['dangling', 'dangling symlink']);
  put(
    'big.txt',
    Array.from(
      { length: 5000 },
      (_, i) => `${i} ${words[i % words.length]} ${Math.floor(rnd() * 1000)}`,
    ).join('\n') + '\n',
    '5000 lines: n word num',
  );
  put('a.txt', 'line1\nline2\nline3\nline4\n', 'diff base');
  put('b.txt', 'line1\nline2 changed\nline3\nline5\nline6\n', 'diff other');
  for (const d of ['dir/sub/deeper', 'dir/sub', 'dir', 'emptydir']) {
    const t = new Date(Date.UTC(2024, 1, 1));
    fs.utimesSync(path.join(dir, d), t, t);
  }
  return list;
}
