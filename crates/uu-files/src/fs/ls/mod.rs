//! `ls`: list directory contents with GNU's sorting, long format,
//! column layout on a terminal and one name per line otherwise.

mod format;

pub use format::human;

use coreutils_core::args::{long, parse_or_usage, std_opts, HasArg, LongOpt, HELP, VERSION};
use coreutils_core::bytes::os_bytes;
use coreutils_core::error::strerror;
use coreutils_core::io::{exit_on_write_error, stdout};
use coreutils_core::quote::quote_gnu;
use format::{Entry, Options, Sort};
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

const COLOR: char = '\u{e001}';
const GDF: char = '\u{e002}';
const LONGS: &[LongOpt] = &[
    long("all", HasArg::No, 'a'),
    long("almost-all", HasArg::No, 'A'),
    long("human-readable", HasArg::No, 'h'),
    long("recursive", HasArg::No, 'R'),
    long("reverse", HasArg::No, 'r'),
    long("directory", HasArg::No, 'd'),
    long("classify", HasArg::Optional, 'F'),
    long("inode", HasArg::No, 'i'),
    long("numeric-uid-gid", HasArg::No, 'n'),
    long("color", HasArg::Optional, COLOR),
    long("group-directories-first", HasArg::No, GDF),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("ls", &args, "aAhRrdFinlStU1CxpgoGL", LONGS, 2) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("ls", &p, "Usage: ls [OPTION]... [FILE]...\nList information about the FILEs (the current directory by default).\n") {
        return c;
    }
    let tty = coreutils_core::tty::isatty(1);
    let mut o = Options {
        one_per_line: !tty,
        width: coreutils_core::tty::columns(),
        ..Options::default()
    };
    for opt in &p.opts {
        match opt.key {
            'a' => o.all = true,
            'A' => o.almost = true,
            'h' => o.human = true,
            'R' => o.recursive = true,
            'r' => o.reverse = true,
            'd' => o.dirs_as_files = true,
            'F' => o.classify = true,
            'p' => o.slash = true,
            'i' => o.inode = true,
            'n' => {
                o.numeric = true;
                o.long = true;
            }
            'l' => o.long = true,
            'g' => {
                o.long = true;
                o.no_owner = true;
            }
            'o' => {
                o.long = true;
                o.no_group = true;
            }
            'G' => o.no_group = true,
            'L' => o.deref = true,
            'S' => o.sort = Sort::Size,
            't' => o.sort = Sort::Time,
            'U' => o.sort = Sort::None,
            '1' => o.one_per_line = true,
            'C' | 'x' => o.one_per_line = false,
            GDF => o.dirs_first = true,
            COLOR => {
                let v = opt.val();
                if ![
                    "", "always", "yes", "force", "never", "no", "none", "auto", "tty", "if-tty",
                ]
                .contains(&v.as_str())
                {
                    eprintln!(
                        "ls: invalid argument {} for '--color'",
                        quote_gnu(&OsString::from(&v))
                    );
                    eprintln!("Valid arguments are:\n  - 'always', 'yes', 'force'\n  - 'never', 'no', 'none'\n  - 'auto', 'tty', 'if-tty'");
                    eprintln!("Try 'ls --help' for more information.");
                    return 1;
                }
            }
            _ => {}
        }
    }
    if o.width == 0 {
        o.width = 80;
    }
    let ops: Vec<OsString> = if p.operands.is_empty() {
        vec![OsString::from(".")]
    } else {
        p.operands
    };
    let mut status = 0;
    let mut files: Vec<Entry> = Vec::new();
    let mut dirs: Vec<Entry> = Vec::new();
    for op in &ops {
        let path = PathBuf::from(op);
        // Command-line symlinks are followed unless -l, -d or -F asks about the link itself.
        let follow = o.deref || (!o.long && !o.dirs_as_files && !o.classify);
        match Entry::load(&path, os_bytes(op).to_vec(), follow, &o) {
            Ok(e) => {
                if e.is_dir && !o.dirs_as_files {
                    dirs.push(e);
                } else {
                    files.push(e);
                }
            }
            Err(err) => {
                eprintln!("ls: cannot access {}: {}", quote_gnu(op), strerror(&err));
                status = 2;
            }
        }
    }
    let mut out = stdout();
    format::sort(&mut files, &o);
    format::sort(&mut dirs, &o);
    let mut printed = false;
    if !files.is_empty() {
        format::print_list(&mut out, &files, &o, false);
        printed = true;
    }
    let show_names = ops.len() > 1 || o.recursive;
    for d in &dirs {
        if let Err(c) = list_dir(&mut out, &d.path, &d.name, &o, show_names, &mut printed) {
            status = status.max(c);
        }
    }
    if let Err(e) = out.flush() {
        exit_on_write_error(e);
    }
    status
}

fn list_dir(
    out: &mut dyn Write,
    path: &Path,
    name: &[u8],
    o: &Options,
    show_name: bool,
    printed: &mut bool,
) -> Result<(), i32> {
    let rd = match std::fs::read_dir(path) {
        Ok(r) => r,
        Err(e) => {
            let _ = out.flush();
            eprintln!(
                "ls: cannot open directory {}: {}",
                quote_gnu(&coreutils_core::bytes::os_from_bytes(name)),
                strerror(&e)
            );
            return Err(2);
        }
    };
    if *printed {
        let _ = out.write_all(b"\n");
    }
    if show_name {
        let _ = out.write_all(name);
        let _ = out.write_all(b":\n");
    }
    *printed = true;
    let mut entries = Vec::new();
    let mut status = 0;
    if o.all {
        for dot in [".", ".."] {
            if let Ok(e) = Entry::load(&path.join(dot), dot.as_bytes().to_vec(), false, o) {
                entries.push(e);
            }
        }
    }
    for de in rd.flatten() {
        let fname = de.file_name();
        let b = os_bytes(&fname).to_vec();
        if b.first() == Some(&b'.') && !(o.all || o.almost) {
            continue;
        }
        let loaded = match de.file_type() {
            Ok(ft) if !o.needs_stat() => Ok(Entry::named(de.path(), b, ft)),
            _ => Entry::load(&de.path(), b, o.deref, o),
        };
        match loaded {
            Ok(e) => entries.push(e),
            Err(e) => {
                eprintln!(
                    "ls: cannot access {}: {}",
                    quote_gnu(de.path().as_os_str()),
                    strerror(&e)
                );
                status = 2;
            }
        }
    }
    format::sort(&mut entries, o);
    if o.long {
        let total: u64 = entries.iter().map(|e| e.blocks).sum();
        let t = if o.human {
            format::human(total * 1024)
        } else {
            total.to_string()
        };
        let _ = out.write_all(format!("total {}\n", t).as_bytes());
    }
    format::print_list(out, &entries, o, true);
    if o.recursive {
        for e in &entries {
            if e.is_dir && !e.is_link && e.name != b"." && e.name != b".." {
                let mut child = name.to_vec();
                if !child.ends_with(b"/") {
                    child.push(b'/');
                }
                child.extend_from_slice(&e.name);
                if let Err(c) = list_dir(out, &e.path, &child, o, true, printed) {
                    status = status.max(c);
                }
            }
        }
    }
    if status != 0 {
        Err(status)
    } else {
        Ok(())
    }
}
