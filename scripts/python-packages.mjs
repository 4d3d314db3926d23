// Pure-Python packages bundled into the sandbox's Python (requests and what it
// needs), taken from Debian's packages: `apt-get download` (no root needed)
// into .cache/python-debs, then `dpkg-deb -x`. build-python.mjs adds the files
// to python_stdlib.zip (compiled to .pyc like the standard library), so
// `import requests` needs nothing at run time. The sandbox's http.client is
// patched to go through the network gateway (src-worker/python/realm/netShim.py),
// and urllib3 1.26 builds on it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = path.join(root, '.cache', 'python-debs');

/** Debian package → the top-level modules it puts in dist-packages. */
export const PYTHON_PACKAGES = {
  'python3-requests': ['requests'],
  'python3-urllib3': ['urllib3'],
  'python3-idna': ['idna'],
  'python3-certifi': ['certifi'],
  // requests takes chardet when present; Debian's charset-normalizer 3 alone
  // would make requests 2.28 warn at import.
  'python3-chardet': ['chardet'],
  'python3-charset-normalizer': ['charset_normalizer'],
  // Debian's urllib3 imports the unvendored six.
  'python3-six': ['six.py'],
};

function debFor(pkg) {
  if (!fs.existsSync(cacheDir)) return null;
  const hit = fs.readdirSync(cacheDir).find((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'));
  return hit ? path.join(cacheDir, hit) : null;
}

function download(missing) {
  fs.mkdirSync(cacheDir, { recursive: true });
  const fetch = () =>
    execFileSync('apt-get', ['download', ...missing], { cwd: cacheDir, stdio: 'pipe' });
  try {
    try {
      fetch();
    } catch (first) {
      // A fresh machine may have no package lists yet; root can fetch them.
      if (process.getuid?.() !== 0) throw first;
      execFileSync('apt-get', ['update', '-qq'], { stdio: 'pipe' });
      fetch();
    }
  } catch (e) {
    const why = e.stderr ? String(e.stderr).trim().split('\n').pop() : e.message;
    throw new Error(
      `python packages: "apt-get download ${missing.join(' ')}" failed (${why}); ` +
        'the bundled requests comes from Debian packages (run apt-get update first, or put the .deb files in ' +
        cacheDir +
        ')',
      { cause: e },
    );
  }
}

function walk(dir, rel, out) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === '__pycache__') continue;
    const full = path.join(dir, e.name);
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) walk(full, r, out);
    else if (e.isFile()) out.set(r, fs.readFileSync(full));
  }
}

/**
 * The bundled files: zip-relative path → contents, plus the package versions.
 * Downloads the .deb files the cache lacks.
 */
export function pythonPackageFiles() {
  const pkgs = Object.keys(PYTHON_PACKAGES);
  const missing = pkgs.filter((p) => !debFor(p));
  if (missing.length) download(missing);
  const files = new Map();
  const versions = {};
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sandglass-pydeb-'));
  try {
    for (const pkg of pkgs) {
      const deb = debFor(pkg);
      if (!deb) throw new Error(`python packages: ${pkg} was not downloaded`);
      versions[pkg] = path.basename(deb).split('_')[1];
      const dest = path.join(tmp, pkg);
      execFileSync('dpkg-deb', ['-x', deb, dest], { stdio: 'pipe' });
      const site = path.join(dest, 'usr', 'lib', 'python3', 'dist-packages');
      for (const top of PYTHON_PACKAGES[pkg]) {
        const p = path.join(site, top);
        if (!fs.existsSync(p)) throw new Error(`python packages: ${pkg} has no ${top}`);
        if (fs.statSync(p).isDirectory()) walk(p, top, files);
        else files.set(top, fs.readFileSync(p));
      }
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return { files, versions };
}
