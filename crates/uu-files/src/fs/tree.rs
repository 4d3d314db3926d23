//! `tree [-a] [-d] [-L N] [-F] [--noreport] [DIR]...`: a directory tree
//! drawn with box characters, as tree 2.x prints it in the C locale.

use coreutils_core::args::{long, parse_or_usage, std_opts, HasArg, LongOpt, HELP, VERSION};
use coreutils_core::bytes::{os_bytes, path_bytes};
use coreutils_core::io::{exit_on_write_error, stdout};
use std::ffi::OsString;
use std::io::Write;
use std::path::Path;

const NOREPORT: char = '\u{e001}';
const LONGS: &[LongOpt] = &[
    long("noreport", HasArg::No, NOREPORT),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

struct Opts {
    all: bool,
    dirs_only: bool,
    max_level: Option<usize>,
    classify: bool,
    quote: bool,
    utf8: bool,
}

#[derive(Default)]
struct Counts {
    dirs: u64,
    files: u64,
}

/// Tree graphics: box drawing in a UTF-8 locale, ASCII otherwise.
struct Art {
    mid: &'static str,
    last: &'static str,
    bar: &'static str,
}

fn art() -> Art {
    if coreutils_core::locale::utf8_locale() {
        Art {
            mid: "├── ",
            last: "└── ",
            bar: "│   ",
        }
    } else {
        Art {
            mid: "|-- ",
            last: "`-- ",
            bar: "|   ",
        }
    }
}

fn name_bytes(o: &Opts, b: &[u8]) -> Vec<u8> {
    if !o.quote && !o.utf8 && b.contains(&b' ') {
        // tree escapes spaces in the C locale.
        let mut v = Vec::with_capacity(b.len() + 4);
        for &c in b {
            if c == b' ' {
                v.push(b'\\');
            }
            v.push(c);
        }
        return v;
    }
    if o.quote {
        let mut v = vec![b'"'];
        v.extend_from_slice(b);
        v.push(b'"');
        v
    } else {
        b.to_vec()
    }
}

/// List `dir` under `prefix`; returns how many entries were shown.
fn walk(
    out: &mut Vec<u8>,
    dir: &Path,
    prefix: &mut Vec<u8>,
    level: usize,
    o: &Opts,
    c: &mut Counts,
) -> usize {
    let rd = match std::fs::read_dir(dir) {
        Ok(r) => r,
        Err(_) => return 0,
    };
    let a = art();
    let mut entries: Vec<(Vec<u8>, std::path::PathBuf)> = rd
        .filter_map(|e| e.ok())
        .map(|e| (os_bytes(&e.file_name()).to_vec(), e.path()))
        .filter(|(n, _)| o.all || n.first() != Some(&b'.'))
        .filter(|(_, p)| !o.dirs_only || coreutils_core::fs::is_dir(&p))
        .collect();
    entries.sort();
    let n = entries.len();
    for (i, (name, path)) in entries.into_iter().enumerate() {
        let last = i + 1 == n;
        out.extend_from_slice(prefix);
        out.extend_from_slice(if last {
            a.last.as_bytes()
        } else {
            a.mid.as_bytes()
        });
        out.extend_from_slice(&name_bytes(o, &name));
        let lm = coreutils_core::fs::symlink_metadata(&path).ok();
        let is_link = lm.as_ref().map_or(false, |m| m.file_type().is_symlink());
        let is_dir = coreutils_core::fs::is_dir(&path);
        if is_link {
            if let Ok(t) = coreutils_core::fs::read_link(&path) {
                out.extend_from_slice(b" -> ");
                out.extend_from_slice(&name_bytes(o, path_bytes(&t)));
            }
        }
        if o.classify {
            if is_dir && !is_link {
                out.push(b'/');
            } else if !is_link
                && !is_dir
                && coreutils_core::meta::stat_ext(&path, false)
                    .map_or(false, |s| s.mode & 0o111 != 0)
            {
                out.push(b'*');
            }
        }
        out.push(b'\n');
        if is_dir {
            c.dirs += 1;
            if !is_link && o.max_level.map_or(true, |m| level < m) {
                let save = prefix.len();
                prefix.extend_from_slice(if last {
                    "    ".as_bytes()
                } else {
                    a.bar.as_bytes()
                });
                walk(out, &path, prefix, level + 1, o, c);
                prefix.truncate(save);
            }
        } else {
            c.files += 1;
        }
    }
    n
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("tree", &args, "adL:FQfil", LONGS, 2) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts(
        "tree",
        &p,
        "usage: tree [-adFQ] [-L level] [--noreport] [--] [directory ...]\n",
    ) {
        return c;
    }
    let max_level = match p.last('L') {
        Some(v) => match v.to_string_lossy().parse::<usize>() {
            Ok(n) if n > 0 => Some(n),
            _ => {
                eprintln!(
                    "{}: Invalid level, must be greater than 0.",
                    coreutils_core::prog("tree")
                );
                return 1;
            }
        },
        None => None,
    };
    let o = Opts {
        all: p.has('a'),
        dirs_only: p.has('d'),
        max_level,
        classify: p.has('F'),
        quote: p.has('Q'),
        utf8: coreutils_core::locale::utf8_locale(),
    };
    let ops: Vec<OsString> = if p.operands.is_empty() {
        vec![OsString::from(".")]
    } else {
        p.operands.clone()
    };
    let mut out = Vec::new();
    let mut c = Counts::default();
    let mut status = 0;
    for op in &ops {
        let path = Path::new(op);
        out.extend_from_slice(&name_bytes(&o, os_bytes(op)));
        if !coreutils_core::fs::is_dir(&path) {
            out.extend_from_slice(b"  [error opening dir]\n");
            if coreutils_core::fs::exists(&path) {
                c.files += 1;
            } else {
                status = 2;
            }
            continue;
        }
        if o.classify {
            out.push(b'/');
        }
        out.push(b'\n');
        let mut prefix = Vec::new();
        // tree 2 counts a top directory only when it lists something.
        if walk(&mut out, path, &mut prefix, 1, &o, &mut c) > 0 {
            c.dirs += 1;
        }
    }
    if !p.has(NOREPORT) {
        let d = format!(
            "{} director{}",
            c.dirs,
            if c.dirs == 1 { "y" } else { "ies" }
        );
        if o.dirs_only {
            out.extend_from_slice(format!("\n{}\n", d).as_bytes());
        } else {
            out.extend_from_slice(
                format!(
                    "\n{}, {} file{}\n",
                    d,
                    c.files,
                    if c.files == 1 { "" } else { "s" }
                )
                .as_bytes(),
            );
        }
    }
    let mut so = stdout();
    if let Err(e) = so.write_all(&out).and_then(|_| so.flush()) {
        exit_on_write_error(e);
    }
    status
}
