/**
 * A small web site the test server serves under `/site/` (and its
 * `/robots.txt`), for `wget -r` and its options: pages that link to each
 * other, up and out of the tree, to other hosts and schemes, to a page
 * robots.txt disallows, to a missing page, and to a redirect.
 */

/** Files by path: body and Content-Type. */
export const SITE: Record<string, { type: string; body: string | Buffer }> = {
  '/robots.txt': {
    type: 'text/plain',
    body: 'User-agent: *\nDisallow: /site/private/\n',
  },
  '/site/': {
    type: 'text/html',
    body: `<!DOCTYPE html>
<html><head><title>site</title>
<link rel="stylesheet" href="style.css">
<script src="app.js"></script>
</head><body>
<a href="a.html">A</a>
<a HREF='sub/b.html'>B</a>
<a href="a.html#top">A again</a>
<a href="/text">up and out</a>
<img src="img/logo.png" alt="logo">
<a href="private/secret.html">secret</a>
<a href="missing.html">missing</a>
<a href="moved">moved</a>
<a href="http://169.254.169.254/latest/meta-data/">metadata</a>
<a href="file:///etc/passwd">passwd</a>
<a href="mailto:someone@example.org">mail</a>
<a href="javascript:void(0)">js</a>
<a href="data.txt?x=1&amp;y=2">data</a>
</body></html>
`,
  },
  '/site/a.html': {
    type: 'text/html',
    body: '<html><body><a href="./">home</a> <a href="sub/c.html">C</a> <a href=index.html>index</a></body></html>\n',
  },
  '/site/index.html': {
    type: 'text/html',
    body: '<html><body><p>the index by name</p><a href="a.html">A</a></body></html>\n',
  },
  '/site/sub/b.html': {
    type: 'text/html',
    body: '<html><body><a href="../a.html">A</a> <a href="c.html">C</a> <a href="deep/d.html">D</a></body></html>\n',
  },
  '/site/sub/c.html': {
    type: 'text/html',
    body: '<html><body><a href="/site/sub/b.html">B</a><img src="../img/logo.png"></body></html>\n',
  },
  '/site/sub/deep/d.html': {
    type: 'text/html',
    body: '<html><body>deep <a href="e.html">E</a></body></html>\n',
  },
  '/site/sub/deep/e.html': { type: 'text/html', body: '<html><body>deeper</body></html>\n' },
  '/site/style.css': { type: 'text/css', body: 'body { color: black; }\n' },
  '/site/app.js': { type: 'application/javascript', body: 'console.log("app");\n' },
  '/site/img/logo.png': {
    type: 'image/png',
    body: Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 13) & 0xff)),
  },
  '/site/private/secret.html': { type: 'text/html', body: '<html>secret</html>\n' },
  '/site/data.txt?x=1&y=2': { type: 'text/plain', body: 'data\n' },
  '/site/target.html': { type: 'text/html', body: '<html><body>moved here</body></html>\n' },
};

/** Redirects inside the site: path to Location. */
export const SITE_REDIRECTS: Record<string, string> = {
  '/site/moved': '/site/target.html',
};
