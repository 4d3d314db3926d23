//! `df [-h] [-k] [-T] [FILE]...`: space on the sandbox filesystem.
//!
//! The sandbox has one in-memory filesystem and no syscall reports its
//! capacity, so df shows a pseudo filesystem named `sandglass` mounted on
//! `/`: used space is measured by walking the tree (apparent sizes), the
//! size is the fixed capacity below (used + available), and inodes are
//! counted the same way.

use super::ls::human;
use coreutils_core::args::{long, parse_or_usage, std_opts, HasArg, LongOpt, HELP, VERSION};
use coreutils_core::error::strerror;
use std::ffi::OsString;
use std::path::Path;

/// Capacity reported for the pseudo filesystem.
pub const CAPACITY: u64 = 1 << 30;

const LONGS: &[LongOpt] = &[
    long("human-readable", HasArg::No, 'h'),
    long("print-type", HasArg::No, 'T'),
    long("inodes", HasArg::No, 'i'),
    long("all", HasArg::No, 'a'),
    long("local", HasArg::No, 'l'),
    long("portability", HasArg::No, 'P'),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

/// Bytes and nodes under `p` (symlinks not followed; /proc and /dev skipped).
fn usage(p: &Path, bytes: &mut u64, nodes: &mut u64) {
    let rd = match std::fs::read_dir(p) {
        Ok(r) => r,
        Err(_) => return,
    };
    for e in rd.flatten() {
        let path = e.path();
        if path == Path::new("/proc") || path == Path::new("/dev") || path == Path::new("/sys") {
            continue;
        }
        *nodes += 1;
        if let Ok(m) = coreutils_core::fs::symlink_metadata(&path) {
            if m.is_dir() {
                usage(&path, bytes, nodes);
            } else if m.is_file() {
                *bytes += m.len();
            }
        }
    }
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("df", &args, "hHkTiaPlB:", LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("df", &p, "Usage: df [OPTION]... [FILE]...\nShow information about the file system on which each FILE resides,\nor all file systems by default.\n") {
        return c;
    }
    let mut status = 0;
    for f in &p.operands {
        if let Err(e) = coreutils_core::fs::metadata(f) {
            eprintln!(
                "{}: {}: {}",
                coreutils_core::prog("df"),
                coreutils_core::quote::quotef(f),
                strerror(&e)
            );
            status = 1;
        }
    }
    if status != 0
        && p.operands
            .iter()
            .all(|f| coreutils_core::fs::metadata(f).is_err())
    {
        return 1;
    }
    let (mut used, mut nodes) = (0u64, 1u64);
    usage(Path::new("/"), &mut used, &mut nodes);
    let size = CAPACITY.max(used);
    let avail = size - used;
    let pct = |u: u64, t: u64| match (u * 100 + t.saturating_sub(1)).checked_div(t) {
        Some(p) => format!("{}%", p),
        None => "-".to_string(),
    };
    let ty = p.has('T');
    let header_ty = if ty { " Type     " } else { "" };
    let row_ty = if ty { " sandglass" } else { "" };
    if p.has('i') {
        let itotal = 1u64 << 20;
        println!(
            "Filesystem{}      Inodes  IUsed   IFree IUse% Mounted on",
            header_ty
        );
        println!(
            "sandglass{} {:>11} {:>6} {:>7} {:>4} /",
            row_ty,
            itotal,
            nodes,
            itotal - nodes.min(itotal),
            pct(nodes, itotal)
        );
    } else if p.has('h') || p.has('H') {
        println!(
            "Filesystem{}      Size  Used Avail Use% Mounted on",
            header_ty
        );
        println!(
            "sandglass{} {:>9} {:>5} {:>5} {:>4} /",
            row_ty,
            human(size),
            human(used),
            human(avail),
            pct(used, size)
        );
    } else {
        println!(
            "Filesystem{}     1K-blocks  Used Available Use% Mounted on",
            header_ty
        );
        let k = |b: u64| (b + 1023) / 1024;
        println!(
            "sandglass{} {:>14} {:>5} {:>9} {:>4} /",
            row_ty,
            k(size),
            k(used),
            k(avail),
            pct(used, size)
        );
    }
    status
}
