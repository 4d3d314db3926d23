//! `tail`: the last part of files (`-n`, `-c`, `+N` from-start forms,
//! headers, `-z`) and following growing files (`-f`, `-F`, `-s`).

use coreutils_core::fs::File;
use std::ffi::OsString;
use std::io::{Read, Seek, SeekFrom, Write};
use std::time::Duration;

use crate::common::bytes::{memchr, q};
use crate::common::input::{err_text, finish, is_dir_error, put, stdout, Out};
use crate::common::num::{parse_size, SizeError};
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};

const USAGE: Usage = Usage::new(
    "tail",
    "[OPTION]... [FILE]...\nPrint the last 10 lines of each FILE to standard output.\n",
    1,
);

const SPEC: &[OptSpec<&str>] = &[
    opt("c", Some('c'), Some("bytes"), HasArg::Required),
    opt("n", Some('n'), Some("lines"), HasArg::Required),
    opt("f", Some('f'), Some("follow"), HasArg::Optional),
    opt("F", Some('F'), None, HasArg::No),
    opt("retry", None, Some("retry"), HasArg::No),
    opt("pid", None, Some("pid"), HasArg::Required),
    opt("s", Some('s'), Some("sleep-interval"), HasArg::Required),
    opt("q", Some('q'), Some("quiet"), HasArg::No),
    opt("q", None, Some("silent"), HasArg::No),
    opt("v", Some('v'), Some("verbose"), HasArg::No),
    opt("z", Some('z'), Some("zero-terminated"), HasArg::No),
];

#[derive(Clone, Copy)]
struct Mode {
    bytes: bool,
    from_start: bool,
    n: u64,
}

fn parse_count(s: &str, what: &str) -> Result<(u64, bool), String> {
    let (plus, body) = if let Some(r) = s.strip_prefix('+') {
        (true, r)
    } else {
        (false, s.strip_prefix('-').unwrap_or(s))
    };
    match parse_size(body) {
        Ok(n) => Ok((n, plus)),
        Err(SizeError::TooLarge) => Ok((u64::MAX, plus)),
        Err(SizeError::Invalid) => Err(format!("invalid number of {}: '{}'", what, s)),
    }
}

/// Rewrite the obsolete `[+-]NUM[bcl][f]` first argument into options.
fn legacy(args: &mut Vec<OsString>) {
    if args.len() < 2 || args.len() > 3 {
        return;
    }
    if args.len() == 3 {
        let b = args[2].to_string_lossy();
        if b.starts_with('-') && b.len() > 1 {
            return;
        }
    }
    let a = args[1].to_string_lossy().into_owned();
    let sign = match a.chars().next() {
        Some(c @ ('+' | '-')) => c,
        _ => return,
    };
    let body = &a[1..];
    let end = body
        .bytes()
        .position(|c| !c.is_ascii_digit())
        .unwrap_or(body.len());
    let (num, mut rest) = body.split_at(end);
    if num.is_empty() && sign == '-' {
        return;
    }
    let num = if num.is_empty() { "10" } else { num };
    let mut unit = "-n";
    let mut mult = "";
    match rest.chars().next() {
        Some('b') => {
            unit = "-c";
            mult = "b";
            rest = &rest[1..];
        }
        Some('c') => {
            unit = "-c";
            rest = &rest[1..];
        }
        Some('l') => rest = &rest[1..],
        _ => {}
    }
    let follow = match rest {
        "" => false,
        "f" => true,
        _ => return,
    };
    let mut new = vec![
        OsString::from(unit),
        OsString::from(format!(
            "{}{}{}",
            if sign == '+' { "+" } else { "" },
            num,
            mult
        )),
    ];
    if follow {
        new.push(OsString::from("-f"));
    }
    args.splice(1..2, new);
}

/// Entry point.
pub fn uumain(mut args: Vec<OsString>) -> i32 {
    legacy(&mut args);
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let mut mode = Mode {
        bytes: false,
        from_start: false,
        n: 10,
    };
    let mut verbose = None;
    let mut follow = false;
    let mut by_name = false;
    for o in &p.opts {
        let (id, s) = (&o.key, o.val());
        match o.key {
            "n" | "c" => {
                let what = if *id == "n" { "lines" } else { "bytes" };
                match parse_count(&s, what) {
                    Ok((n, plus)) => {
                        mode = Mode {
                            bytes: *id == "c",
                            from_start: plus,
                            n,
                        }
                    }
                    Err(m) => return USAGE.die(1, &m),
                }
            }
            "q" => verbose = Some(false),
            "v" => verbose = Some(true),
            "f" => {
                follow = true;
                match s.as_str() {
                    "" | "descriptor" => {}
                    "name" => by_name = true,
                    _ => {
                        return USAGE.fail(&format!(
                            "invalid argument '{}' for '--follow'\nValid arguments are:\n  - 'descriptor'\n  - 'name'",
                            s
                        ))
                    }
                }
            }
            "F" => {
                follow = true;
                by_name = true;
            }
            _ => {}
        }
    }
    let sleep = match p.last_str("s") {
        Some(s) => match s.parse::<f64>() {
            Ok(v) if v >= 0.0 && v.is_finite() => Duration::from_secs_f64(v),
            _ => return USAGE.die(1, &format!("invalid number of seconds: '{}'", s)),
        },
        None => Duration::from_secs(1),
    };
    let delim = if p.has("z") { 0 } else { b'\n' };
    let files = if p.operands.is_empty() {
        vec![OsString::from("-")]
    } else {
        p.operands
    };
    let headers = verbose.unwrap_or(files.len() > 1);
    let mut out = stdout();
    let mut status = 0;
    let mut first = true;
    let mut followed: Vec<Followed> = Vec::new();
    for f in &files {
        let shown = if f == "-" {
            "standard input".to_string()
        } else {
            f.to_string_lossy().into_owned()
        };
        let header = |out: &mut Out, first: &mut bool| {
            if headers {
                put(
                    out,
                    format!("{}==> {} <==\n", if *first { "" } else { "\n" }, shown).as_bytes(),
                );
            }
            *first = false;
        };
        if f == "-" {
            header(&mut out, &mut first);
            if let Err(e) = tail_stream(&mut std::io::stdin().lock(), &mut out, mode, delim) {
                let _ = out.flush();
                eprintln!(
                    "{}: error reading 'standard input': {}",
                    coreutils_core::prog("tail"),
                    err_text(&e)
                );
                status = 1;
            }
            continue;
        }
        let mut file = match coreutils_core::fs::open(f) {
            Ok(h) => h,
            Err(e) => {
                eprintln!(
                    "{}: cannot open {} for reading: {}",
                    coreutils_core::prog("tail"),
                    q(f),
                    err_text(&e)
                );
                status = 1;
                if by_name {
                    followed.push(Followed {
                        name: f.clone(),
                        shown,
                        file: None,
                        pos: 0,
                    });
                }
                continue;
            }
        };
        let meta = file.metadata();
        if meta.as_ref().map(|m| m.is_dir()).unwrap_or(false) {
            header(&mut out, &mut first);
            let _ = out.flush();
            eprintln!(
                "{}: error reading {}: {}",
                coreutils_core::prog("tail"),
                q(f),
                err_text(&is_dir_error())
            );
            status = 1;
            continue;
        }
        header(&mut out, &mut first);
        let is_reg = meta.as_ref().map(|m| m.is_file()).unwrap_or(false);
        let res = if is_reg && !mode.from_start {
            tail_seekable(&mut file, &mut out, mode, delim)
        } else {
            tail_stream(&mut file, &mut out, mode, delim)
        };
        if let Err(e) = res {
            let _ = out.flush();
            eprintln!(
                "{}: error reading {}: {}",
                coreutils_core::prog("tail"),
                q(f),
                err_text(&e)
            );
            status = 1;
            continue;
        }
        if follow {
            let pos = file.stream_position().unwrap_or(0);
            followed.push(Followed {
                name: f.clone(),
                shown,
                file: Some(file),
                pos,
            });
        }
    }
    if follow && !followed.is_empty() {
        if out.flush().is_err() {
            return 1;
        }
        follow_loop(
            &mut followed,
            &mut out,
            sleep,
            by_name,
            headers,
            files.len(),
        );
    }
    finish(&mut out, "tail", status)
}

fn emit_tail(all: &[u8], out: &mut Out, mode: Mode, delim: u8) {
    if mode.bytes {
        let start = if mode.from_start {
            (mode.n.saturating_sub(1)).min(all.len() as u64) as usize
        } else {
            all.len()
                .saturating_sub(mode.n.min(all.len() as u64) as usize)
        };
        put(out, &all[start..]);
        return;
    }
    if mode.from_start {
        let mut skip = mode.n.saturating_sub(1);
        let mut pos = 0;
        while skip > 0 && pos < all.len() {
            match memchr(delim, &all[pos..]) {
                Some(i) => pos += i + 1,
                None => pos = all.len(),
            }
            skip -= 1;
        }
        put(out, &all[pos..]);
        return;
    }
    put(out, &all[last_lines_start(all, mode.n, delim)..]);
}

/// Tail of a stream read front to back (pipes, `+N`): keeps only what can
/// still be part of the answer, so memory stays near the size of the last
/// `n` lines or bytes however long the input is.
fn tail_stream(r: &mut dyn Read, out: &mut Out, mode: Mode, delim: u8) -> std::io::Result<()> {
    const BLOCK: usize = 64 * 1024;
    const SLACK: usize = 1024 * 1024;
    let mut block = vec![0u8; BLOCK];
    if mode.from_start {
        // Skip the first n-1 records (or bytes), then copy through.
        let mut skip = mode.n.saturating_sub(1);
        loop {
            let got = match r.read(&mut block) {
                Ok(0) => return Ok(()),
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            let mut pos = 0;
            while skip > 0 && pos < got {
                if mode.bytes {
                    let take = (got - pos).min(usize::try_from(skip).unwrap_or(usize::MAX));
                    pos += take;
                    skip -= take as u64;
                } else {
                    match memchr(delim, &block[pos..got]) {
                        Some(i) => {
                            pos += i + 1;
                            skip -= 1;
                        }
                        None => pos = got,
                    }
                }
            }
            put(out, &block[pos..got]);
        }
    }
    let mut kept: Vec<u8> = Vec::new();
    let mut trim_at = SLACK;
    loop {
        let got = match r.read(&mut block) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        kept.extend_from_slice(&block[..got]);
        if kept.len() >= trim_at {
            // Whatever comes later only adds records after these, so the
            // answer starts at or after the current last n.
            let start = if mode.bytes {
                kept.len()
                    .saturating_sub(usize::try_from(mode.n).unwrap_or(usize::MAX))
            } else {
                last_lines_start(&kept, mode.n, delim)
            };
            kept.drain(..start);
            trim_at = kept.len().saturating_mul(2).max(SLACK);
        }
    }
    emit_tail(&kept, out, mode, delim);
    Ok(())
}

/// Where the last `n` records of `all` begin.
fn last_lines_start(all: &[u8], n: u64, delim: u8) -> usize {
    if n == 0 {
        return all.len();
    }
    let mut end = all.len();
    if end > 0 && all[end - 1] == delim {
        end -= 1;
    }
    let mut left = n;
    loop {
        match all[..end].iter().rposition(|&c| c == delim) {
            Some(p) => {
                left -= 1;
                if left == 0 {
                    return p + 1;
                }
                end = p;
            }
            None => return 0,
        }
    }
}

/// Last lines of a regular file, reading backwards in blocks so a huge log
/// is not read whole.
fn tail_seekable(f: &mut File, out: &mut Out, mode: Mode, delim: u8) -> std::io::Result<()> {
    let len = f.seek(SeekFrom::End(0))?;
    if mode.bytes {
        let start = len.saturating_sub(mode.n);
        f.seek(SeekFrom::Start(start))?;
        return copy_rest(f, out);
    }
    const BLOCK: u64 = 64 * 1024;
    let mut start = len;
    let mut tailbuf: Vec<u8> = Vec::new();
    loop {
        let from = start.saturating_sub(BLOCK);
        let mut block = vec![0u8; (start - from) as usize];
        f.seek(SeekFrom::Start(from))?;
        f.read_exact(&mut block)?;
        block.extend_from_slice(&tailbuf);
        tailbuf = block;
        start = from;
        let body = if tailbuf.last() == Some(&delim) {
            &tailbuf[..tailbuf.len() - 1]
        } else {
            &tailbuf[..]
        };
        let count = body.iter().filter(|&&c| c == delim).count() as u64;
        if count >= mode.n || start == 0 {
            break;
        }
    }
    let s = last_lines_start(&tailbuf, mode.n, delim);
    put(out, &tailbuf[s..]);
    f.seek(SeekFrom::Start(len))?;
    Ok(())
}

fn copy_rest(f: &mut File, out: &mut Out) -> std::io::Result<()> {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let k = f.read(&mut buf)?;
        if k == 0 {
            return Ok(());
        }
        put(out, &buf[..k]);
    }
}

struct Followed {
    name: OsString,
    shown: String,
    file: Option<File>,
    pos: u64,
}

/// Poll the followed files forever (until the process is killed), printing
/// what is appended; `-F` reopens files that are replaced or reappear.
fn follow_loop(
    files: &mut [Followed],
    out: &mut Out,
    sleep: Duration,
    by_name: bool,
    headers: bool,
    nfiles: usize,
) {
    let mut last_shown: Option<usize> = if nfiles > 0 {
        Some(files.len() - 1)
    } else {
        None
    };
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let mut any = false;
        for (idx, fo) in files.iter_mut().enumerate() {
            if by_name {
                // Reopen when the name now points at a different or new file.
                let cur_len = coreutils_core::fs::metadata(&fo.name).map(|m| m.len()).ok();
                match (&fo.file, cur_len) {
                    (None, Some(_)) => {
                        if let Ok(f) = coreutils_core::fs::open(&fo.name) {
                            eprintln!(
                                "{}: {} has appeared;  following new file",
                                coreutils_core::prog("tail"),
                                q(&fo.name)
                            );
                            fo.file = Some(f);
                            fo.pos = 0;
                        }
                    }
                    (Some(_), None) => {
                        eprintln!(
                            "{}: {} has become inaccessible: No such file or directory",
                            coreutils_core::prog("tail"),
                            q(&fo.name)
                        );
                        fo.file = None;
                        continue;
                    }
                    _ => {}
                }
            }
            let f = match fo.file.as_mut() {
                Some(f) => f,
                None => continue,
            };
            let len = match f.metadata() {
                Ok(m) => m.len(),
                Err(_) => continue,
            };
            if len < fo.pos {
                eprintln!(
                    "{}: {}: file truncated",
                    coreutils_core::prog("tail"),
                    fo.shown
                );
                fo.pos = 0;
            }
            if len == fo.pos {
                continue;
            }
            if f.seek(SeekFrom::Start(fo.pos)).is_err() {
                continue;
            }
            loop {
                let k = match f.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(k) => k,
                };
                if headers && last_shown != Some(idx) {
                    put(out, format!("\n==> {} <==\n", fo.shown).as_bytes());
                    last_shown = Some(idx);
                }
                put(out, &buf[..k]);
                fo.pos += k as u64;
                any = true;
            }
        }
        if any {
            if let Err(e) = out.flush() {
                coreutils_core::io::exit_on_write_error(e);
            }
        }
        std::thread::sleep(sleep);
    }
}
