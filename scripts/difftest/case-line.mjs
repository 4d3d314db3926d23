// Parses one differential case line: shell-style words (single and double
// quotes, $'..' ANSI-C quotes, backslash escapes) and an optional trailing
// `< NAME` naming the stdin fixture. Words are byte strings (latin1) so a
// case can pass invalid UTF-8 through $'\xff'.

const SIMPLE_ESC = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

function utf8Bytes(s) {
  return Buffer.from(s, 'utf8').toString('latin1');
}

export function parseCaseLine(line) {
  const words = [];
  let i = 0;
  let cur = null;
  const push = (s) => {
    cur = (cur ?? '') + s;
  };
  while (i < line.length) {
    const ch = line[i];
    if (ch === ' ' || ch === '\t') {
      if (cur !== null) words.push({ text: cur, bare: false });
      cur = null;
      i++;
    } else if (ch === '<' && cur === null) {
      words.push({ text: '<', bare: true });
      i++;
    } else if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error('unterminated single quote');
      push(utf8Bytes(line.slice(i + 1, end)));
      i = end + 1;
    } else if (ch === '$' && line[i + 1] === "'") {
      i += 2;
      let s = '';
      while (i < line.length && line[i] !== "'") {
        if (line[i] === '\\') {
          const e = line[i + 1];
          if (e === 'x') {
            const m = /^[0-9a-fA-F]{1,2}/.exec(line.slice(i + 2));
            if (!m) throw new Error('bad \\x escape');
            s += String.fromCharCode(parseInt(m[0], 16));
            i += 2 + m[0].length;
          } else if (/[0-7]/.test(e)) {
            const m = /^[0-7]{1,3}/.exec(line.slice(i + 1));
            s += String.fromCharCode(parseInt(m[0], 8) & 0xff);
            i += 1 + m[0].length;
          } else if (e in SIMPLE_ESC) {
            s += SIMPLE_ESC[e];
            i += 2;
          } else {
            s += '\\' + (e ?? '');
            i += 2;
          }
        } else {
          s += utf8Bytes(line[i]);
          i++;
        }
      }
      if (i >= line.length) throw new Error("unterminated $' quote");
      push(s);
      i++;
    } else if (ch === '"') {
      i++;
      let s = '';
      while (i < line.length && line[i] !== '"') {
        if (line[i] === '\\' && '"\\$`'.includes(line[i + 1])) {
          s += line[i + 1];
          i += 2;
        } else {
          s += line[i];
          i++;
        }
      }
      if (i >= line.length) throw new Error('unterminated double quote');
      push(utf8Bytes(s));
      i++;
    } else if (ch === '\\') {
      if (i + 1 >= line.length) throw new Error('trailing backslash');
      push(utf8Bytes(line[i + 1]));
      i += 2;
    } else {
      push(utf8Bytes(ch));
      i++;
    }
  }
  if (cur !== null) words.push({ text: cur, bare: false });
  let stdin = null;
  const n = words.length;
  if (n >= 2 && words[n - 2].bare) {
    stdin = words[n - 1].text;
    words.length = n - 2;
  }
  if (words.some((w) => w.bare)) throw new Error('`<` only allowed as the final `< NAME`');
  // Leading NAME=VALUE words are the case's environment (TZ=Europe/Paris date).
  const env = {};
  while (words.length > 1 && /^[A-Z_][A-Z0-9_]*=/.test(words[0].text)) {
    const w = words.shift().text;
    const eq = w.indexOf('=');
    env[w.slice(0, eq)] = Buffer.from(w.slice(eq + 1), 'latin1').toString();
  }
  if (words.length === 0) throw new Error('empty case');
  // Node's spawn takes strings; latin1 byte strings are passed as Buffers by the callers when needed.
  const argv = words.map((w) => Buffer.from(w.text, 'latin1').toString());
  const hasBinary = words.some(
    (w) =>
      !Buffer.from(Buffer.from(w.text, 'latin1').toString(), 'utf8').equals(
        Buffer.from(w.text, 'latin1'),
      ),
  );
  return {
    argv,
    argvBytes: words.map((w) => Buffer.from(w.text, 'latin1')),
    stdin,
    hasBinary,
    env,
  };
}
