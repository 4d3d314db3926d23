//! tar: create (c), extract (x) and list (t) archives, optionally
//! gzip-compressed (-z, auto-detected when reading), streaming entry data
//! so a header claiming a huge size fails at the first failed write or at
//! the archive's real end instead of allocating it.

use coreutils_core::args::{long, parse, ArgError, HasArg, LongOpt};
use coreutils_core::bytes::{os_bytes, path_bytes, path_from_bytes};
use coreutils_core::error::strerror;
use coreutils_core::meta;
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use std::ffi::OsString;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

const CHUNK: usize = 64 * 1024;

const LONGS: &[LongOpt] = &[
    long("create", HasArg::No, 'c'),
    long("extract", HasArg::No, 'x'),
    long("get", HasArg::No, 'x'),
    long("list", HasArg::No, 't'),
    long("file", HasArg::Required, 'f'),
    long("gzip", HasArg::No, 'z'),
    long("gunzip", HasArg::No, 'z'),
    long("ungzip", HasArg::No, 'z'),
    long("directory", HasArg::Required, 'C'),
    long("verbose", HasArg::No, 'v'),
    long("exclude", HasArg::Required, 'E'),
    long("to-stdout", HasArg::No, 'O'),
    long("strip-components", HasArg::Required, 'S'),
    long("preserve-permissions", HasArg::No, 'p'),
    long("same-permissions", HasArg::No, 'p'),
    long("no-same-owner", HasArg::No, 'o'),
    long("no-same-permissions", HasArg::No, 'n'),
    long("keep-old-files", HasArg::No, 'k'),
    long("overwrite", HasArg::No, 'W'),
    long("touch", HasArg::No, 'm'),
    long("auto-compress", HasArg::No, 'a'),
    long("numeric-owner", HasArg::No, 'N'),
    long("help", HasArg::No, 'h'),
    long("version", HasArg::No, 'V'),
];

#[derive(Default)]
struct Opts {
    mode: Option<char>,
    file: Option<Vec<u8>>,
    gzip: bool,
    dir: Option<PathBuf>,
    verbose: bool,
    exclude: Vec<Vec<u8>>,
    to_stdout: bool,
    strip: usize,
    preserve: bool,
    keep_old: bool,
    touch: bool,
    auto: bool,
}

fn s(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A usage error with tar's own `Try` line.
fn usage(msg: &str, code: i32) -> i32 {
    let prog = coreutils_core::prog("tar");
    eprintln!("{}: {}", prog, msg);
    eprintln!(
        "Try '{0} --help' or '{0} --usage' for more information.",
        prog
    );
    code
}

fn fatal(msg: &str) -> i32 {
    eprintln!("{}: {}", coreutils_core::prog("tar"), msg);
    eprintln!(
        "{}: Error is not recoverable: exiting now",
        coreutils_core::prog("tar")
    );
    2
}

fn excluded(o: &Opts, name: &[u8]) -> bool {
    let base = name
        .rsplit(|&c| c == b'/')
        .find(|c| !c.is_empty())
        .unwrap_or(name);
    o.exclude
        .iter()
        .any(|p| crate::find::fnmatch_pub(p, base) || crate::find::fnmatch_pub(p, name))
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let mut words: Vec<OsString> = args[1..].to_vec();
    let mut old_style = false;
    // Old-style bundled first word: `tar czf x.tgz dir`.
    if let Some(first) = words.first() {
        let b = os_bytes(first);
        if !b.is_empty() && b[0] != b'-' {
            old_style = true;
            let mut v = b"-".to_vec();
            v.extend_from_slice(b);
            words[0] = coreutils_core::bytes::os_from_vec(v);
        }
    }
    let parsed = match parse(&words, "cxtf:zC:vOpokmaNhjJ", LONGS) {
        Ok(p) => p,
        Err(ArgError { message: m }) => {
            if old_style && m.starts_with("option requires an argument -- '") {
                let c = m.chars().rev().nth(1).unwrap_or('f');
                return usage(&format!("Old option '{}' requires an argument.", c), 2);
            }
            return usage(&m, 64);
        }
    };
    let mut o = Opts::default();
    for op in &parsed.opts {
        let arg = || {
            op.value
                .as_ref()
                .map(|a| os_bytes(a).to_vec())
                .unwrap_or_default()
        };
        match op.key {
            'c' | 'x' | 't' => {
                if o.mode.map_or(false, |m| m != op.key) {
                    return usage("You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option", 2);
                }
                o.mode = Some(op.key);
            }
            'f' => o.file = Some(arg()),
            'z' => o.gzip = true,
            'C' => o.dir = Some(path_from_bytes(&arg())),
            'v' => o.verbose = true,
            'E' => o.exclude.push(arg()),
            'O' => o.to_stdout = true,
            'S' => match s(&arg()).parse() {
                Ok(n) => o.strip = n,
                Err(_) => return usage(&format!("Invalid number of elements: '{}'", s(&arg())), 2),
            },
            'p' => o.preserve = true,
            'k' => o.keep_old = true,
            'm' => o.touch = true,
            'a' => o.auto = true,
            'j' | 'J' => {
                eprintln!(
                    "{}: bzip2/xz compression is not available",
                    coreutils_core::prog("tar")
                );
                return 2;
            }
            'h' => {
                println!("Usage: tar [OPTION...] [FILE]...");
                return 0;
            }
            'V' => return crate::common::version("tar"),
            _ => {}
        }
    }
    let names: Vec<Vec<u8>> = parsed
        .operands
        .iter()
        .map(|a| os_bytes(a).to_vec())
        .collect();
    match o.mode {
        Some('c') => create(&o, &names),
        Some(m) => read_archive(&o, &names, m == 'x'),
        None => usage(
            "You must specify one of the '-Acdtrux', '--delete' or '--test-label' options",
            2,
        ),
    }
}

fn archive_name(o: &Opts) -> Vec<u8> {
    o.file.clone().unwrap_or_else(|| b"-".to_vec())
}

fn create(o: &Opts, names: &[Vec<u8>]) -> i32 {
    if names.is_empty() {
        return usage("Cowardly refusing to create an empty archive", 2);
    }
    let an = archive_name(o);
    let sink: Box<dyn Write> = if an == b"-" {
        Box::new(coreutils_core::io::stdout())
    } else {
        match coreutils_core::fs::create(path_from_bytes(&an)) {
            Ok(f) => Box::new(BufWriter::with_capacity(CHUNK, f)),
            Err(e) => return fatal(&format!("{}: Cannot open: {}", s(&an), strerror(&e))),
        }
    };
    let sink: Box<dyn Write> =
        if o.gzip || (o.auto && (an.ends_with(b".tgz") || an.ends_with(b".gz"))) {
            Box::new(GzEncoder::new(sink, Compression::new(6)))
        } else {
            sink
        };
    let mut b = tar::Builder::new(sink);
    b.follow_symlinks(false);
    let mut pk = Packer::default();
    let base = o.dir.clone().unwrap_or_else(|| PathBuf::from("."));
    let mut status = 0;
    let mut warned = false;
    // Verbose names go to stdout unless the archive itself is stdout.
    let to_err = an == b"-";
    for n in names {
        let mut name = n.clone();
        if name.first() == Some(&b'/') {
            if !warned {
                eprintln!(
                    "{}: Removing leading `/' from member names",
                    coreutils_core::prog("tar")
                );
                warned = true;
            }
            while name.first() == Some(&b'/') {
                name.remove(0);
            }
        }
        let src = if n.first() == Some(&b'/') {
            path_from_bytes(n)
        } else {
            base.join(path_from_bytes(n))
        };
        if let Err(c) = add(o, &mut b, &mut pk, &src, &name, to_err) {
            status = status.max(c);
        }
    }
    let r = b.into_inner().and_then(|mut w| w.flush());
    if let Err(e) = r {
        return fatal(&format!("{}: Cannot write: {}", s(&an), strerror(&e)));
    }
    if status != 0 {
        eprintln!(
            "{}: Exiting with failure status due to previous errors",
            coreutils_core::prog("tar")
        );
    }
    status
}

/// What `tar c` remembers across members.
#[derive(Default)]
struct Packer {
    names: coreutils_core::users::NameCache,
    /// Files with several links already stored: (dev, ino) -> member name.
    links: std::collections::HashMap<(u64, u64), Vec<u8>>,
}

fn add(
    o: &Opts,
    b: &mut tar::Builder<Box<dyn Write>>,
    pk: &mut Packer,
    src: &Path,
    name: &[u8],
    to_err: bool,
) -> Result<(), i32> {
    if excluded(o, name) {
        return Ok(());
    }
    let m = match coreutils_core::fs::symlink_metadata(src) {
        Ok(m) => m,
        Err(e) => {
            eprintln!(
                "{}: {}: Cannot stat: {}",
                coreutils_core::prog("tar"),
                s(name),
                strerror(&e)
            );
            return Err(2);
        }
    };
    let shown = if m.is_dir() && !name.ends_with(b"/") {
        let mut v = name.to_vec();
        v.push(b'/');
        v
    } else {
        name.to_vec()
    };
    if o.verbose {
        if to_err {
            eprintln!("{}", s(&shown));
        } else {
            let mut so = io::stdout();
            let _ = so.write_all(&shown).and_then(|_| so.write_all(b"\n"));
        }
    }
    // Directories are stored as `dir/`, as GNU does (`.` becomes `./`).
    let entry_name = if name.is_empty() {
        b"./".to_vec()
    } else {
        shown
    };
    if let Err(e) = append_entry(b, pk, src, &m, &entry_name) {
        eprintln!(
            "{}: {}: {}",
            coreutils_core::prog("tar"),
            s(name),
            strerror(&e)
        );
        return Err(2);
    }
    if m.is_dir() {
        let rd = match std::fs::read_dir(src) {
            Ok(r) => r,
            Err(e) => {
                eprintln!(
                    "{}: {}: Cannot open: {}",
                    coreutils_core::prog("tar"),
                    s(name),
                    strerror(&e)
                );
                return Err(2);
            }
        };
        let mut st = Ok(());
        for de in rd.flatten() {
            let fname = de.file_name();
            let mut child = name.to_vec();
            if !child.is_empty() && !child.ends_with(b"/") {
                child.push(b'/');
            }
            child.extend_from_slice(os_bytes(&fname));
            if let Err(c) = add(o, b, pk, &src.join(&fname), &child, to_err) {
                st = Err(c);
            }
        }
        return st;
    }
    Ok(())
}

/// Reader over the archive with gzip auto-detected from the magic bytes.
fn open_archive(o: &Opts) -> Result<Box<dyn Read>, i32> {
    let an = archive_name(o);
    let raw: Box<dyn Read> = if an == b"-" {
        Box::new(io::stdin())
    } else {
        match coreutils_core::fs::open(path_from_bytes(&an)) {
            Ok(f) => Box::new(f),
            Err(e) => return Err(fatal(&format!("{}: Cannot open: {}", s(&an), strerror(&e)))),
        }
    };
    let mut r = BufReader::with_capacity(CHUNK, raw);
    let head = match io::BufRead::fill_buf(&mut r) {
        Ok(h) => h.to_vec(),
        Err(e) => return Err(fatal(&format!("{}: Read error: {}", s(&an), strerror(&e)))),
    };
    if head.len() >= 2 && head[0] == 0x1f && head[1] == 0x8b {
        Ok(Box::new(MultiGzDecoder::new(r)))
    } else if head.is_empty() {
        eprintln!(
            "{}: This does not look like a tar archive",
            coreutils_core::prog("tar")
        );
        eprintln!(
            "{}: Exiting with failure status due to previous errors",
            coreutils_core::prog("tar")
        );
        Err(2)
    } else if o.gzip {
        eprintln!("\ngzip: stdin: not in gzip format");
        Err(fatal("Child returned status 1"))
    } else {
        Ok(Box::new(r))
    }
}

fn mode_str(h: &tar::Header) -> String {
    let tc = match h.entry_type() {
        tar::EntryType::Directory => b'd',
        tar::EntryType::Symlink => b'l',
        tar::EntryType::Char => b'c',
        tar::EntryType::Block => b'b',
        tar::EntryType::Fifo => b'p',
        tar::EntryType::Link => b'h',
        _ => b'f',
    };
    if tc == b'h' {
        // GNU shows hard links with their own type letter.
        let m = crate::find::print::mode_string(h.mode().unwrap_or(0), b'f');
        return format!("h{}", m.get(1..).unwrap_or(""));
    }
    crate::find::print::mode_string(h.mode().unwrap_or(0), tc)
}

fn listing(h: &tar::Header, name: &[u8], link: Option<Vec<u8>>) -> Vec<u8> {
    let user = h
        .username_bytes()
        .filter(|u| !u.is_empty())
        .map(s)
        .unwrap_or_else(|| h.uid().unwrap_or(0).to_string());
    let group = h
        .groupname_bytes()
        .filter(|u| !u.is_empty())
        .map(s)
        .unwrap_or_else(|| h.gid().unwrap_or(0).to_string());
    let ug = format!("{}/{}", user, group);
    let size = h.size().unwrap_or(0).to_string();
    let w = 19usize.saturating_sub(ug.len()).max(size.len() + 1);
    let t = coreutils_core::calendar::Tm::from_secs(h.mtime().unwrap_or(0) as i64);
    let mut line = format!(
        "{} {}{:>w$} {}-{:02}-{:02} {:02}:{:02} ",
        mode_str(h),
        ug,
        size,
        t.year,
        t.mon,
        t.mday,
        t.hour,
        t.min,
        w = w
    )
    .into_bytes();
    line.extend_from_slice(name);
    if let Some(l) = link {
        line.extend_from_slice(if h.entry_type() == tar::EntryType::Link {
            b" link to "
        } else {
            b" -> "
        });
        line.extend_from_slice(&l);
    }
    line.push(b'\n');
    line
}

/// Does member `name` match an operand (itself or inside it)?
fn selected(names: &[Vec<u8>], found: &mut [bool], name: &[u8]) -> bool {
    if names.is_empty() {
        return true;
    }
    let trimmed = name.strip_suffix(b"/").unwrap_or(name);
    let mut hit = false;
    for (i, n) in names.iter().enumerate() {
        let n = n.strip_suffix(b"/").unwrap_or(n);
        if trimmed == n || (trimmed.starts_with(n) && trimmed.get(n.len()) == Some(&b'/')) {
            found[i] = true;
            hit = true;
        }
    }
    hit
}

fn read_archive(o: &Opts, names: &[Vec<u8>], extract: bool) -> i32 {
    let input = match open_archive(o) {
        Ok(r) => r,
        Err(c) => return c,
    };
    let mut ar = tar::Archive::new(input);
    let base = o.dir.clone().unwrap_or_else(|| PathBuf::from("."));
    if let Some(d) = &o.dir {
        if let Err(e) = coreutils_core::fs::metadata(d) {
            return fatal(&format!("{}: Cannot open: {}", d.display(), strerror(&e)));
        }
    }
    let mut found = vec![false; names.len()];
    let mut status = 0;
    let mut out = coreutils_core::io::stdout();
    let mut warned_abs = false;
    let entries = match ar.entries() {
        Ok(e) => e,
        Err(e) => return fatal(&strerror(&e)),
    };
    let mut seen_any = false;
    let umask = if o.preserve {
        0
    } else {
        meta::umask(None).unwrap_or(0o022)
    };
    let mut dir_times: Vec<(PathBuf, u64)> = Vec::new();
    for ent in entries {
        let mut ent = match ent {
            Ok(e) => e,
            Err(e) => {
                let _ = out.flush();
                if !seen_any {
                    eprintln!(
                        "{}: This does not look like a tar archive",
                        coreutils_core::prog("tar")
                    );
                    eprintln!(
                        "{}: Exiting with failure status due to previous errors",
                        coreutils_core::prog("tar")
                    );
                    return 2;
                }
                let msg = e.to_string();
                if msg.contains("unexpected EOF")
                    || e.kind() == io::ErrorKind::UnexpectedEof
                    || msg.contains("failed to read entire block")
                {
                    // A member's data runs past the end. GNU, reading a
                    // file, seeks over data when listing and then finds
                    // itself off a record boundary.
                    let seekable = o.file.as_deref().map_or(false, |f| f != b"-");
                    if extract || !seekable {
                        eprintln!("{}: Unexpected EOF in archive", coreutils_core::prog("tar"));
                    }
                    if seekable {
                        eprintln!(
                            "{}: rmtlseek not stopped at a record boundary",
                            coreutils_core::prog("tar")
                        );
                    }
                    eprintln!(
                        "{}: Error is not recoverable: exiting now",
                        coreutils_core::prog("tar")
                    );
                    return 2;
                }
                return fatal(&format!("Damaged archive: {}", msg));
            }
        };
        seen_any = true;
        let raw_name = ent.path_bytes().into_owned();
        let mut name = raw_name.clone();
        if name.starts_with(b"../") && !warned_abs {
            eprintln!(
                "{}: Removing leading `../' from member names",
                coreutils_core::prog("tar")
            );
            warned_abs = true;
        }
        if name.first() == Some(&b'/') {
            if !warned_abs {
                eprintln!(
                    "{}: Removing leading `/' from member names",
                    coreutils_core::prog("tar")
                );
                warned_abs = true;
            }
            while name.first() == Some(&b'/') {
                name.remove(0);
            }
        }
        if !selected(names, &mut found, &name) || excluded(o, &name) {
            continue;
        }
        let link = ent.link_name_bytes().map(|l| l.into_owned());
        if !extract {
            let line = if o.verbose {
                listing(ent.header(), &raw_name, link)
            } else {
                let mut v = raw_name.clone();
                v.push(b'\n');
                v
            };
            coreutils_core::io::write_or_exit(&mut out, &line);
            continue;
        }
        if o.verbose {
            let mut v = raw_name.clone();
            v.push(b'\n');
            coreutils_core::io::write_or_exit(&mut out, &v);
        }
        // Strip leading components for --strip-components.
        let parts: Vec<&[u8]> = name
            .split(|&c| c == b'/')
            .filter(|p| !p.is_empty() && *p != b".")
            .collect();
        if parts.len() <= o.strip {
            continue;
        }
        let parts = &parts[o.strip..];
        if parts.iter().any(|p| *p == b"..") {
            eprintln!(
                "{}: {}: Member name contains '..'",
                coreutils_core::prog("tar"),
                s(&raw_name)
            );
            status = 2;
            continue;
        }
        if o.to_stdout {
            if ent.header().entry_type().is_file() {
                let _ = out.flush();
                let mut buf = vec![0u8; CHUNK];
                loop {
                    match ent.read(&mut buf) {
                        Ok(0) => break,
                        Ok(k) => coreutils_core::io::write_or_exit(&mut out, &buf[..k]),
                        Err(_) => {
                            let _ = out.flush();
                            return fatal("Unexpected EOF in archive");
                        }
                    }
                }
            }
            continue;
        }
        let rel = path_from_bytes(&parts.join(&b'/'));
        let dst = base.join(&rel);
        if let Some(parent) = dst.parent() {
            let _ = coreutils_core::fs::create_dir_all(parent);
        }
        if o.keep_old
            && coreutils_core::fs::symlink_metadata(&dst).is_ok()
            && !ent.header().entry_type().is_dir()
        {
            eprintln!(
                "{}: {}: Cannot open: File exists",
                coreutils_core::prog("tar"),
                s(&raw_name)
            );
            status = 2;
            continue;
        }
        match extract_member(&mut ent, &dst, &base, o, umask) {
            Ok(()) => {}
            Err(MemberError::Fatal(msg)) => {
                let _ = out.flush();
                eprintln!("{}: {}: {}", coreutils_core::prog("tar"), s(&raw_name), msg);
                eprintln!(
                    "{}: Exiting with failure status due to previous errors",
                    coreutils_core::prog("tar")
                );
                return 2;
            }
            Err(MemberError::Truncated) => {
                // The archive ended inside the member (a header that claims
                // more data than exists): GNU keeps the partial file.
                let _ = out.flush();
                eprintln!("{}: Unexpected EOF in archive", coreutils_core::prog("tar"));
                if o.file.as_deref().map_or(false, |f| f != b"-") {
                    eprintln!(
                        "{}: rmtlseek not stopped at a record boundary",
                        coreutils_core::prog("tar")
                    );
                }
                eprintln!(
                    "{}: Error is not recoverable: exiting now",
                    coreutils_core::prog("tar")
                );
                return 2;
            }
            Err(MemberError::Skip(msg)) => {
                let _ = out.flush();
                eprintln!("{}: {}: {}", coreutils_core::prog("tar"), s(&raw_name), msg);
                status = 2;
            }
        }
        if ent.header().entry_type().is_dir() && !o.touch {
            if let Ok(m) = ent.header().mtime() {
                dir_times.push((dst.clone(), m));
            }
        }
    }
    // Directory times last: extracting their contents changed them.
    for (d, m) in dir_times.iter().rev() {
        let _ = meta::set_times(d, None, Some(m.saturating_mul(1_000_000_000)), true);
    }
    let _ = out.flush();
    if extract && o.dir.is_some() {
        let _ = path_bytes;
    }
    for (i, f) in found.iter().enumerate() {
        if !f {
            eprintln!(
                "{}: {}: Not found in archive",
                coreutils_core::prog("tar"),
                s(&names[i])
            );
            status = 2;
        }
    }
    if status != 0 {
        eprintln!(
            "{}: Exiting with failure status due to previous errors",
            coreutils_core::prog("tar")
        );
    }
    status
}

/// Why writing one member failed.
enum MemberError {
    /// Reported; tar goes on with the next member (exit status 2).
    Skip(String),
    /// Reported; tar stops (a full disk or quota).
    Fatal(String),
    /// The archive ended inside the member's data.
    Truncated,
}

/// Removes what is in the way of a new member (GNU's default
/// --overwrite behaviour for non-directories).
fn clear_path(dst: &Path) -> Result<(), MemberError> {
    match coreutils_core::fs::symlink_metadata(dst) {
        Ok(m) if m.is_dir() => coreutils_core::fs::remove_dir(dst)
            .map_err(|e| MemberError::Skip(format!("Cannot unlink: {}", strerror(&e)))),
        Ok(_) => coreutils_core::fs::remove_file(dst)
            .map_err(|e| MemberError::Skip(format!("Cannot unlink: {}", strerror(&e)))),
        Err(_) => Ok(()),
    }
}

/// Is this error the file system running out of room?
fn is_full(e: &io::Error) -> bool {
    // ENOSPC, EDQUOT and EFBIG, by their messages (WASI has no raw_os_error mapping in std).
    let m = strerror(e);
    m.contains("No space") || m.contains("quota") || m.contains("too large")
}

/// Writes one member below the extraction directory with plain std::fs and
/// our metadata calls: the tar crate's own unpack goes through WASI path
/// calls the sandbox does not provide. File data is streamed in chunks, so
/// a header claiming gigabytes costs no memory.
fn extract_member<R: Read>(
    ent: &mut tar::Entry<R>,
    dst: &Path,
    base: &Path,
    o: &Opts,
    umask: u32,
) -> Result<(), MemberError> {
    let h = ent.header();
    let kind = h.entry_type();
    let mode = h.mode().unwrap_or(0o644) & 0o7777 & !umask;
    let mtime = h.mtime().ok();
    let cannot_open = |e: io::Error| MemberError::Skip(format!("Cannot open: {}", strerror(&e)));
    if kind.is_dir() {
        if let Ok(m) = coreutils_core::fs::symlink_metadata(dst) {
            if !m.is_dir() {
                clear_path(dst)?;
            }
        }
        if let Err(e) = coreutils_core::fs::create_dir_all(dst) {
            return Err(MemberError::Skip(format!("Cannot mkdir: {}", strerror(&e))));
        }
        let _ = meta::chmod(dst, mode, true);
        return Ok(());
    }
    if kind.is_symlink() || kind.is_hard_link() {
        let target = match ent.link_name_bytes() {
            Some(t) => t.into_owned(),
            None => return Err(MemberError::Skip("Cannot create link: no target".into())),
        };
        clear_path(dst)?;
        if kind.is_symlink() {
            #[allow(deprecated)] // soft_link is the spelling that works on WASI and Unix in 1.63
            let r = coreutils_core::fs::symlink(path_from_bytes(&target), dst);
            return r.map_err(|e| {
                MemberError::Skip(format!(
                    "Cannot create symlink to '{}': {}",
                    s(&target),
                    strerror(&e)
                ))
            });
        }
        // Hard links name another member, relative to the extraction root.
        let parts: Vec<&[u8]> = target
            .split(|&c| c == b'/')
            .filter(|p| !p.is_empty() && *p != b".")
            .collect();
        if parts.len() <= o.strip || parts.iter().any(|p| *p == b"..") {
            return Err(MemberError::Skip(format!(
                "Cannot hard link to '{}': Invalid argument",
                s(&target)
            )));
        }
        let src = base.join(path_from_bytes(&parts[o.strip..].join(&b'/')));
        return coreutils_core::fs::hard_link(&src, dst).map_err(|e| {
            MemberError::Skip(format!(
                "Cannot hard link to '{}': {}",
                s(&target),
                strerror(&e)
            ))
        });
    }
    if !(kind.is_file() || kind.is_contiguous() || kind.is_gnu_sparse()) {
        // Devices and FIFOs need privileges an unprivileged user lacks.
        return Err(MemberError::Skip(
            "Cannot mknod: Operation not permitted".into(),
        ));
    }
    clear_path(dst)?;
    let mut f = coreutils_core::fs::create(dst).map_err(cannot_open)?;
    let mut buf = vec![0u8; CHUNK];
    loop {
        let k = match ent.read(&mut buf) {
            Ok(0) => break,
            Ok(k) => k,
            Err(_) => return Err(MemberError::Truncated),
        };
        if let Err(e) = f.write_all(&buf[..k]) {
            drop(f);
            let _ = coreutils_core::fs::remove_file(dst);
            let msg = format!("Cannot write: {}", strerror(&e));
            return Err(if is_full(&e) {
                MemberError::Fatal(msg)
            } else {
                MemberError::Skip(msg)
            });
        }
    }
    drop(f);
    let _ = meta::chmod(dst, mode, true);
    if !o.touch {
        if let Some(m) = mtime {
            let _ = meta::set_times(dst, None, Some(m.saturating_mul(1_000_000_000)), true);
        }
    }
    Ok(())
}

/// Appends one member with a header built from our own metadata: the tar
/// crate's `append_path*` fill headers through platform code that is
/// `unimplemented!()` on WASI.
fn append_entry(
    b: &mut tar::Builder<Box<dyn Write>>,
    pk: &mut Packer,
    src: &Path,
    m: &std::fs::Metadata,
    name: &[u8],
) -> io::Result<()> {
    let ext = coreutils_core::meta::stat_ext(src, false).ok();
    let mut h = tar::Header::new_gnu();
    let default_mode = if m.is_dir() { 0o755 } else { 0o644 };
    h.set_mode(
        ext.as_ref()
            .map(|x| x.mode & 0o7777)
            .unwrap_or(default_mode),
    );
    let (uid, gid) = ext.as_ref().map(|x| (x.uid, x.gid)).unwrap_or((0, 0));
    h.set_uid(u64::from(uid));
    h.set_gid(u64::from(gid));
    // Owner names as GNU records them (left empty when the id has no name).
    let user = pk.names.user(uid);
    if user != uid.to_string() {
        let _ = h.set_username(&user);
    }
    let group = pk.names.group(gid);
    if group != gid.to_string() {
        let _ = h.set_groupname(&group);
    }
    let mtime = m
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_secs())
        .unwrap_or(0);
    h.set_mtime(mtime);
    let ft = m.file_type();
    if ft.is_symlink() {
        h.set_entry_type(tar::EntryType::Symlink);
        h.set_size(0);
        let target = coreutils_core::fs::read_link(src)?;
        set_link_exact(b, &mut h, path_bytes(&target))?;
        set_name_exact(b, &mut h, name)?;
        h.set_cksum();
        b.append(&h, io::empty())
    } else if ft.is_dir() {
        h.set_entry_type(tar::EntryType::Directory);
        h.set_size(0);
        set_name_exact(b, &mut h, name)?;
        h.set_cksum();
        b.append(&h, io::empty())
    } else {
        // A file with several links is stored once; later names link to it.
        if ext.as_ref().map_or(false, |x| x.nlink > 1) {
            if let Ok(r) = coreutils_core::meta::raw_stat(src, false) {
                if let Some(first) = pk.links.get(&(r.dev, r.ino)).cloned() {
                    h.set_entry_type(tar::EntryType::Link);
                    h.set_size(0);
                    set_link_exact(b, &mut h, &first)?;
                    set_name_exact(b, &mut h, name)?;
                    h.set_cksum();
                    return b.append(&h, io::empty());
                }
                pk.links.insert((r.dev, r.ino), name.to_vec());
            }
        }
        h.set_entry_type(tar::EntryType::Regular);
        h.set_size(m.len());
        set_name_exact(b, &mut h, name)?;
        h.set_cksum();
        let f = coreutils_core::fs::open(src)?;
        b.append(&h, f)
    }
}

/// Writes a GNU long-name ('L') or long-link ('K') member carrying `text`.
fn append_long(b: &mut tar::Builder<Box<dyn Write>>, kind: u8, text: &[u8]) -> io::Result<()> {
    let mut h = tar::Header::new_gnu();
    let field = &mut h.as_old_mut().name;
    let tag = b"././@LongLink";
    field[..tag.len()].copy_from_slice(tag);
    h.set_mode(0o644);
    h.set_mtime(0);
    h.set_entry_type(tar::EntryType::new(kind));
    let mut data = text.to_vec();
    data.push(0);
    h.set_size(data.len() as u64);
    h.set_cksum();
    b.append(&h, &data[..])
}

/// Stores the member name byte for byte (the tar crate's set_path drops
/// `./` components), with a GNU long-name member when it does not fit.
fn set_name_exact(
    b: &mut tar::Builder<Box<dyn Write>>,
    h: &mut tar::Header,
    name: &[u8],
) -> io::Result<()> {
    let field = &mut h.as_old_mut().name;
    if name.len() > field.len() {
        append_long(b, b'L', name)?;
    }
    let field = &mut h.as_old_mut().name;
    let n = name.len().min(field.len());
    field.iter_mut().for_each(|c| *c = 0);
    field[..n].copy_from_slice(&name[..n]);
    Ok(())
}

/// Stores a link target byte for byte, with a GNU long-link member when needed.
fn set_link_exact(
    b: &mut tar::Builder<Box<dyn Write>>,
    h: &mut tar::Header,
    target: &[u8],
) -> io::Result<()> {
    let field = &mut h.as_old_mut().linkname;
    if target.len() > field.len() {
        append_long(b, b'K', target)?;
    }
    let field = &mut h.as_old_mut().linkname;
    let n = target.len().min(field.len());
    field.iter_mut().for_each(|c| *c = 0);
    field[..n].copy_from_slice(&target[..n]);
    Ok(())
}
