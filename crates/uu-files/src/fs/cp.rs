//! `cp [-aRrpdfinvTt] SOURCE... DEST`: copy files and trees.

use super::rm::ask;
use super::target::{clobber, copy_longs, pairs, same_file};
use coreutils_core::args::{long, parse_or_usage, std_opts, HasArg, LongOpt};
use coreutils_core::canon::{canonicalize, Mode};
use coreutils_core::error::strerror;
use coreutils_core::meta;
use coreutils_core::quote::quote_gnu;
use std::ffi::OsString;
use std::path::Path;

const PRESERVE: char = '\u{e001}';
/// cp's own options, beside those it shares with mv.
const OWN_LONGS: [LongOpt; 5] = [
    long("archive", HasArg::No, 'a'),
    long("recursive", HasArg::No, 'R'),
    long("no-dereference", HasArg::No, 'P'),
    long("dereference", HasArg::No, 'L'),
    long("preserve", HasArg::Optional, PRESERVE),
];

struct Opts {
    no_deref: bool,
    recursive: bool,
    deref: bool,
    preserve: bool,
    no_clobber: bool,
    interactive: bool,
    force: bool,
    verbose: bool,
    update: bool,
    /// The process's umask, asked once (not per copied file).
    umask: u32,
}

/// Give a new `dst` (made with `created` permission bits, what the kernel
/// gives a new file or directory under the umask) the bits of `src` minus
/// the umask: no call when they are already those.
fn set_new_mode(src: &Path, dst: &Path, bits: u32, created: u32, umask: u32) {
    if let Ok(st) = meta::stat_ext(src, true) {
        let mode = st.mode & bits & !umask;
        if mode != created & !umask {
            let _ = meta::chmod(dst, mode, true);
        }
    }
}

fn preserve_attrs(src: &Path, dst: &Path, m: &std::fs::Metadata) {
    if let Ok(st) = meta::stat_ext(src, false) {
        let _ = meta::chmod(dst, st.mode & 0o7777, true);
    }
    let t = |x: std::io::Result<std::time::SystemTime>| {
        x.ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_nanos() as u64)
    };
    let _ = meta::set_times(dst, t(m.accessed()), t(m.modified()), false);
}

fn copy_one(src: &Path, dst: &Path, o: &Opts, top: bool) -> bool {
    let md = if o.deref || (top && !o.recursive && !o.no_deref) {
        coreutils_core::fs::metadata(src)
    } else {
        coreutils_core::fs::symlink_metadata(src)
    };
    let m = match md {
        Ok(m) => m,
        Err(e) => {
            eprintln!(
                "{}: cannot stat {}: {}",
                coreutils_core::prog("cp"),
                quote_gnu(src.as_os_str()),
                strerror(&e)
            );
            return false;
        }
    };
    if m.is_dir() {
        if !o.recursive {
            eprintln!(
                "{}: -r not specified; omitting directory {}",
                coreutils_core::prog("cp"),
                quote_gnu(src.as_os_str())
            );
            return false;
        }
        if let (Ok(s), Ok(d)) = (
            canonicalize(src, Mode::All, true),
            canonicalize(
                dst.parent()
                    .filter(|p| !p.as_os_str().is_empty())
                    .unwrap_or_else(|| Path::new(".")),
                Mode::All,
                true,
            ),
        ) {
            if d.starts_with(&s) {
                eprintln!(
                    "{}: cannot copy a directory, {}, into itself, {}",
                    coreutils_core::prog("cp"),
                    quote_gnu(src.as_os_str()),
                    quote_gnu(dst.as_os_str())
                );
                return false;
            }
        }
        let existed = coreutils_core::fs::is_dir(&dst);
        if !existed {
            if let Ok(dm) = coreutils_core::fs::symlink_metadata(dst) {
                let _ = dm;
                eprintln!(
                    "{}: cannot overwrite non-directory {} with directory {}",
                    coreutils_core::prog("cp"),
                    quote_gnu(dst.as_os_str()),
                    quote_gnu(src.as_os_str())
                );
                return false;
            }
            if let Err(e) = coreutils_core::fs::create_dir(dst) {
                eprintln!(
                    "{}: cannot create directory {}: {}",
                    coreutils_core::prog("cp"),
                    quote_gnu(dst.as_os_str()),
                    strerror(&e)
                );
                return false;
            }
            if o.verbose {
                println!(
                    "{} -> {}",
                    quote_gnu(src.as_os_str()),
                    quote_gnu(dst.as_os_str())
                );
            }
        }
        let mut ok = true;
        match std::fs::read_dir(src) {
            Ok(rd) => {
                let mut names: Vec<_> = rd.filter_map(|e| e.ok()).map(|e| e.file_name()).collect();
                names.sort();
                for n in names {
                    ok &= copy_one(&src.join(&n), &dst.join(&n), o, false);
                }
            }
            Err(e) => {
                eprintln!(
                    "{}: cannot open directory {}: {}",
                    coreutils_core::prog("cp"),
                    quote_gnu(src.as_os_str()),
                    strerror(&e)
                );
                ok = false;
            }
        }
        if !existed {
            if o.preserve {
                preserve_attrs(src, dst, &m);
            } else {
                set_new_mode(src, dst, 0o7777, 0o777, o.umask);
            }
        }
        return ok;
    }
    let dst_meta = coreutils_core::fs::symlink_metadata(dst).ok();
    if let Some(dm) = &dst_meta {
        if same_file(src, dst) && !m.file_type().is_symlink() {
            // -n skips an existing destination before any other check.
            if o.no_clobber {
                return true;
            }
            eprintln!(
                "{}: {} and {} are the same file",
                coreutils_core::prog("cp"),
                quote_gnu(src.as_os_str()),
                quote_gnu(dst.as_os_str())
            );
            return false;
        }
        if dm.is_dir() {
            eprintln!(
                "{}: cannot overwrite directory {} with non-directory {}",
                coreutils_core::prog("cp"),
                quote_gnu(dst.as_os_str()),
                quote_gnu(src.as_os_str())
            );
            return false;
        }
        if o.no_clobber {
            return true;
        }
        if o.update {
            if let (Ok(a), Ok(b)) = (m.modified(), dm.modified()) {
                if a <= b {
                    return true;
                }
            }
        }
        if o.interactive && !ask("cp", &format!("overwrite {}? ", quote_gnu(dst.as_os_str()))) {
            return true;
        }
    }
    if m.file_type().is_symlink() {
        let target = match coreutils_core::fs::read_link(src) {
            Ok(t) => t,
            Err(e) => {
                eprintln!(
                    "{}: cannot read symbolic link {}: {}",
                    coreutils_core::prog("cp"),
                    quote_gnu(src.as_os_str()),
                    strerror(&e)
                );
                return false;
            }
        };
        if dst_meta.is_some() {
            let _ = coreutils_core::fs::remove_file(dst);
        }
        if let Err(e) = symlink(&target, dst) {
            eprintln!(
                "{}: cannot create symbolic link {}: {}",
                coreutils_core::prog("cp"),
                quote_gnu(dst.as_os_str()),
                strerror(&e)
            );
            return false;
        }
    } else {
        let r = coreutils_core::fs::open(src).and_then(|mut f| {
            let mut out = match coreutils_core::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .open(dst)
            {
                Ok(x) => x,
                Err(e) if o.force && e.kind() == std::io::ErrorKind::PermissionDenied => {
                    coreutils_core::fs::remove_file(dst)?;
                    coreutils_core::fs::OpenOptions::new()
                        .write(true)
                        .create(true)
                        .truncate(true)
                        .open(dst)?
                }
                Err(e) => return Err(e),
            };
            std::io::copy(&mut f, &mut out).map(|_| ())
        });
        if let Err(e) = r {
            let what = if coreutils_core::fs::open(src).is_err() {
                format!("cannot open {} for reading", quote_gnu(src.as_os_str()))
            } else {
                format!("cannot create regular file {}", quote_gnu(dst.as_os_str()))
            };
            eprintln!("{}: {}: {}", coreutils_core::prog("cp"), what, strerror(&e));
            return false;
        }
        if o.preserve {
            preserve_attrs(src, dst, &m);
        } else if dst_meta.is_none() {
            set_new_mode(src, dst, 0o777, 0o666, o.umask);
        }
    }
    if o.verbose {
        println!(
            "{} -> {}",
            quote_gnu(src.as_os_str()),
            quote_gnu(dst.as_os_str())
        );
    }
    true
}

/// Create a symbolic link: `soft_link` is the one spelling that is
/// stable on both WASI and Unix in Rust 1.63.
#[allow(deprecated)]
pub fn symlink(target: &Path, link: &Path) -> std::io::Result<()> {
    coreutils_core::fs::symlink(target, link)
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage(
        "cp",
        &args,
        "aRrpdfinvPLHt:TuZ",
        &[&OWN_LONGS[..], &copy_longs()[..]].concat(),
        1,
    ) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("cp", &p, "Usage: cp [OPTION]... [-T] SOURCE DEST\n  or:  cp [OPTION]... SOURCE... DIRECTORY\n  or:  cp [OPTION]... -t DIRECTORY SOURCE...\nCopy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY.\n") {
        return c;
    }
    let mut o = Opts {
        no_deref: false,
        recursive: false,
        deref: false,
        preserve: false,
        no_clobber: false,
        interactive: false,
        force: false,
        verbose: false,
        update: false,
        umask: meta::umask(None).unwrap_or(0o022),
    };
    for opt in &p.opts {
        match opt.key {
            'a' => {
                o.recursive = true;
                o.preserve = true;
                o.deref = false;
                o.no_deref = true;
            }
            'R' | 'r' => o.recursive = true,
            'p' | PRESERVE => o.preserve = true,
            'd' | 'P' => {
                o.deref = false;
                o.no_deref = true;
            }
            'L' => o.deref = true,
            'v' => o.verbose = true,
            'u' => o.update = true,
            _ => {}
        }
    }
    let c = clobber(&p, false);
    o.force = c.force;
    o.interactive = c.interactive;
    o.no_clobber = c.no_clobber;
    let list = match pairs("cp", &p.operands, p.last('t'), p.has('T')) {
        Ok(l) => l,
        Err(c) => return c,
    };
    let mut status = 0;
    for (s, d) in list {
        if !copy_one(&s, &d, &o, true) {
            status = 1;
        }
    }
    status
}
