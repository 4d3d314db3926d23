//! `du [-sahcbkm] [-d N] [--apparent-size] [FILE]...`: disk usage per
//! directory (hard links counted once).

use super::ls::human;
use coreutils_core::args::{
    long, parse_or_usage, std_opts, usage_error, HasArg, LongOpt, HELP, VERSION,
};
use coreutils_core::bytes::path_bytes;
use coreutils_core::error::strerror;
use coreutils_core::io::{exit_on_write_error, stdout};
use coreutils_core::meta;
use coreutils_core::quote::quote_gnu;
use std::collections::HashSet;
use std::ffi::OsString;
use std::io::Write;
use std::path::Path;

const APPARENT: char = '\u{e001}';
const LONGS: &[LongOpt] = &[
    long("all", HasArg::No, 'a'),
    long("summarize", HasArg::No, 's'),
    long("human-readable", HasArg::No, 'h'),
    long("total", HasArg::No, 'c'),
    long("bytes", HasArg::No, 'b'),
    long("max-depth", HasArg::Required, 'd'),
    long("apparent-size", HasArg::No, APPARENT),
    long("dereference", HasArg::No, 'L'),
    long("null", HasArg::No, '0'),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

struct Opts {
    all: bool,
    apparent: bool,
    max_depth: Option<usize>,
    unit: u64,
    human: bool,
    deref: bool,
    term: u8,
}

struct Walker<'a> {
    o: &'a Opts,
    seen: HashSet<(u64, u64)>,
    out: Vec<u8>,
    status: i32,
}

impl<'a> Walker<'a> {
    fn emit(&mut self, size: u64, path: &Path) {
        let s = if self.o.human {
            human(size)
        } else if self.o.unit == 1 {
            size.to_string()
        } else {
            ((size + self.o.unit - 1) / self.o.unit).to_string()
        };
        self.out.extend_from_slice(s.as_bytes());
        self.out.push(b'\t');
        self.out.extend_from_slice(path_bytes(path));
        self.out.push(self.o.term);
    }

    fn walk(&mut self, path: &Path, depth: usize, top: bool) -> u64 {
        let md = if self.o.deref || top {
            coreutils_core::fs::metadata(path)
                .or_else(|_| coreutils_core::fs::symlink_metadata(path))
        } else {
            coreutils_core::fs::symlink_metadata(path)
        };
        let m = match md {
            Ok(m) => m,
            Err(e) => {
                eprintln!(
                    "{}: cannot access {}: {}",
                    coreutils_core::prog("du"),
                    quote_gnu(path.as_os_str()),
                    strerror(&e)
                );
                self.status = 1;
                return 0;
            }
        };
        let ext = coreutils_core::meta::stat_ext(path, false).unwrap_or_default();
        if !m.is_dir() && ext.nlink > 1 {
            if let Ok(r) = coreutils_core::meta::raw_stat(path, false) {
                if !self.seen.insert((r.dev, r.ino)) {
                    return 0;
                }
            }
        }
        let own = if self.o.apparent {
            m.len()
        } else {
            meta::blocks(&m) * 512
        };
        if !m.is_dir() {
            if self.o.all && self.o.max_depth.map_or(true, |d| depth <= d) || top {
                self.emit(own, path);
            }
            return own;
        }
        let mut total = own;
        match std::fs::read_dir(path) {
            Ok(rd) => {
                let mut names: Vec<_> = rd.filter_map(|e| e.ok()).map(|e| e.file_name()).collect();
                names.sort();
                for n in names {
                    total += self.walk(&path.join(n), depth + 1, false);
                }
            }
            Err(e) => {
                eprintln!(
                    "{}: cannot read directory {}: {}",
                    coreutils_core::prog("du"),
                    quote_gnu(path.as_os_str()),
                    strerror(&e)
                );
                self.status = 1;
            }
        }
        if self.o.max_depth.map_or(true, |d| depth <= d) {
            self.emit(total, path);
        }
        total
    }
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("du", &args, "ashcbkmd:LPx0S", LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("du", &p, "Usage: du [OPTION]... [FILE]...\nSummarize device usage of the set of FILEs, recursively for directories.\n") {
        return c;
    }
    let mut o = Opts {
        all: p.has('a'),
        apparent: p.has(APPARENT),
        max_depth: None,
        unit: 1024,
        human: false,
        deref: p.has('L'),
        term: if p.has('0') { 0 } else { b'\n' },
    };
    for opt in &p.opts {
        match opt.key {
            'b' => {
                o.apparent = true;
                o.unit = 1;
                o.human = false;
            }
            'k' => {
                o.unit = 1024;
                o.human = false;
            }
            'm' => {
                o.unit = 1 << 20;
                o.human = false;
            }
            'h' => o.human = true,
            'd' => match opt.val().parse::<usize>() {
                Ok(d) => o.max_depth = Some(d),
                Err(_) => {
                    eprintln!(
                        "{}: invalid maximum depth {}",
                        coreutils_core::prog("du"),
                        quote_gnu(opt.value.as_deref().unwrap_or_default())
                    );
                    eprintln!(
                        "Try '{} --help' for more information.",
                        coreutils_core::prog("du")
                    );
                    return 1;
                }
            },
            _ => {}
        }
    }
    if p.has('s') {
        if o.all {
            return usage_error("du", "cannot both summarize and show all entries", 1);
        }
        if matches!(o.max_depth, Some(d) if d > 0) {
            eprintln!(
                "{}: warning: summarizing conflicts with --max-depth={}",
                coreutils_core::prog("du"),
                o.max_depth.unwrap_or(0)
            );
            return usage_error("du", "", 1).min(1);
        }
        o.max_depth = Some(0);
    }
    let ops: Vec<OsString> = if p.operands.is_empty() {
        vec![OsString::from(".")]
    } else {
        p.operands.clone()
    };
    let mut w = Walker {
        o: &o,
        seen: HashSet::new(),
        out: Vec::new(),
        status: 0,
    };
    let mut grand = 0;
    for op in &ops {
        grand += w.walk(Path::new(op), 0, true);
    }
    if p.has('c') {
        w.emit(grand, Path::new("total"));
    }
    let mut out = stdout();
    if let Err(e) = out.write_all(&w.out).and_then(|_| out.flush()) {
        exit_on_write_error(e);
    }
    w.status
}
