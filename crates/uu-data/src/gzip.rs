//! gzip, gunzip and zcat over flate2, streaming in 64 KiB chunks so a
//! decompression bomb stops at the first failed write (the VFS size
//! limit) with GNU's `gzip: NAME: No space left on device`.

use coreutils_core::args::{long, parse, ArgError, HasArg, LongOpt};
use coreutils_core::bytes::{os_bytes, path_from_bytes};
use coreutils_core::error::strerror;
use flate2::read::MultiGzDecoder;
use flate2::{Compression, GzBuilder};
use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::{self, BufReader, BufWriter, Read, Write};

const CHUNK: usize = 64 * 1024;

const LONGS: &[LongOpt] = &[
    long("stdout", HasArg::No, 'c'),
    long("to-stdout", HasArg::No, 'c'),
    long("decompress", HasArg::No, 'd'),
    long("uncompress", HasArg::No, 'd'),
    long("force", HasArg::No, 'f'),
    long("keep", HasArg::No, 'k'),
    long("list", HasArg::No, 'l'),
    long("no-name", HasArg::No, 'n'),
    long("name", HasArg::No, 'N'),
    long("quiet", HasArg::No, 'q'),
    long("test", HasArg::No, 't'),
    long("verbose", HasArg::No, 'v'),
    long("fast", HasArg::No, '1'),
    long("best", HasArg::No, '9'),
    long("suffix", HasArg::Required, 'S'),
    long("help", HasArg::No, 'h'),
    long("version", HasArg::No, 'V'),
];

#[derive(Default)]
struct Opts {
    stdout: bool,
    decompress: bool,
    force: bool,
    keep: bool,
    list: bool,
    no_name: bool,
    quiet: bool,
    test: bool,
    verbose: bool,
    level: u32,
    suffix: Vec<u8>,
}

/// What went wrong with one file: its status (1 error, 2 warning).
struct Failure(i32);

fn warn(o: &Opts, msg: &str) -> Failure {
    if !o.quiet {
        eprintln!("{}: {}", coreutils_core::prog("gzip"), msg);
    }
    Failure(2)
}

fn error(msg: &str) -> Failure {
    eprintln!("{}: {}", coreutils_core::prog("gzip"), msg);
    Failure(1)
}

/// GNU starts a line before reporting bad data in a named file.
fn data_fail(msg: &str) -> Failure {
    eprintln!("\ngzip: {}", msg);
    Failure(1)
}

/// A stream error while decompressing, in gzip's words.
fn data_error(name: &str, e: &io::Error) -> String {
    let m = e.to_string();
    if e.kind() == io::ErrorKind::UnexpectedEof {
        format!("{}: unexpected end of file", name)
    } else if m.contains("checksum") {
        format!("{}: invalid compressed data--crc error", name)
    } else if m.contains("header") {
        format!("{}: not in gzip format", name)
    } else {
        format!("{}: invalid compressed data--format violated", name)
    }
}

/// Copy `r` to `w` in chunks, telling read failures (`Err(Ok)`) from
/// write failures (`Err(Err)`). Returns bytes copied.
fn pump<R: Read + ?Sized, W: Write>(
    r: &mut R,
    w: &mut W,
) -> Result<u64, Result<io::Error, io::Error>> {
    let mut buf = vec![0u8; CHUNK];
    let mut n = 0u64;
    loop {
        let k = match r.read(&mut buf) {
            Ok(0) => break,
            Ok(k) => k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Ok(e)),
        };
        w.write_all(&buf[..k]).map_err(Err)?;
        n += k as u64;
    }
    w.flush().map_err(Err)?;
    Ok(n)
}

/// Wraps a reader to count bytes read (compressed size for -v).
struct Counted<R> {
    inner: R,
    n: u64,
    /// The input ran out: a stream error then means truncation.
    eof: bool,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, b: &mut [u8]) -> io::Result<usize> {
        let k = self.inner.read(b)?;
        if k == 0 && !b.is_empty() {
            self.eof = true;
        }
        self.n += k as u64;
        Ok(k)
    }
}

fn truncated(name: &str) -> String {
    format!("{}: unexpected end of file", name)
}

/// gzip's ratio: space saved relative to the uncompressed size.
fn ratio(packed: u64, unpacked: u64) -> String {
    if unpacked == 0 {
        return "  0.0%".to_string();
    }
    let r = (unpacked as f64 - packed as f64) * 100.0 / unpacked as f64;
    format!("{:5.1}%", r)
}

fn strip_suffix(name: &[u8], o: &Opts) -> Option<Vec<u8>> {
    let lower: Vec<u8> = name.to_ascii_lowercase();
    if !o.suffix.is_empty() && name.ends_with(&o.suffix) && name.len() > o.suffix.len() {
        return Some(name[..name.len() - o.suffix.len()].to_vec());
    }
    for s in [&b".gz"[..], b"-gz", b".z", b"-z", b"_z"] {
        if lower.ends_with(s) && name.len() > s.len() {
            return Some(name[..name.len() - s.len()].to_vec());
        }
    }
    if lower.ends_with(b".tgz") && name.len() > 4 {
        let mut v = name[..name.len() - 4].to_vec();
        v.extend_from_slice(b".tar");
        return Some(v);
    }
    None
}

fn s(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn is_gzip(head: &[u8]) -> bool {
    head.len() >= 2 && head[0] == 0x1f && head[1] == 0x8b
}

/// Decompress stdin or one file to stdout (-c, zcat, -t).
fn decompress_stream(
    o: &Opts,
    name: &str,
    input: &mut dyn Read,
    test: bool,
) -> Result<(), Failure> {
    let mut head = [0u8; 2];
    let mut got = 0;
    while got < 2 {
        match input.read(&mut head[got..]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) => return Err(error(&format!("{}: {}", name, strerror(&e)))),
        }
    }
    if !is_gzip(&head[..got]) {
        if got == 0 && name == "stdin" {
            return Err(data_fail("stdin: unexpected end of file"));
        }
        if o.force && o.stdout && !test {
            // gzip -cdf passes non-gzip data through unchanged.
            let mut out = coreutils_core::io::stdout();
            coreutils_core::io::write_or_exit(&mut out, &head[..got]);
            let rest = pump(input, &mut out);
            return match rest {
                Ok(_) => Ok(()),
                Err(Ok(e)) => Err(error(&format!("{}: {}", name, strerror(&e)))),
                Err(Err(e)) => coreutils_core::io::exit_on_write_error(e),
            };
        }
        return Err(data_fail(&format!("{}: not in gzip format", name)));
    }
    let chained = Counted {
        inner: (&head[..got]).chain(input),
        n: 0,
        eof: false,
    };
    let mut dec = MultiGzDecoder::new(BufReader::with_capacity(CHUNK, chained));
    let r = if test {
        pump(&mut dec, &mut io::sink())
    } else {
        let mut out = coreutils_core::io::stdout();
        pump(&mut dec, &mut out)
    };
    match r {
        Ok(_) => {
            if test && o.verbose {
                eprintln!("{}:\t OK", name);
            }
            Ok(())
        }
        Err(Ok(e)) => {
            let m = if dec.get_ref().get_ref().eof {
                truncated(name)
            } else {
                data_error(name, &e)
            };
            Err(data_fail(&m))
        }
        Err(Err(e)) => coreutils_core::io::exit_on_write_error(e),
    }
}

/// Decompress a file to a new file next to it.
fn decompress_file(o: &Opts, name: &[u8]) -> Result<(), Failure> {
    let mut src = name.to_vec();
    if coreutils_core::fs::metadata(path_from_bytes(name))
        .map(|m| m.is_dir())
        .unwrap_or(false)
    {
        return Err(warn(o, &format!("{} is a directory -- ignored", s(name))));
    }
    let target = match strip_suffix(name, o) {
        Some(t) => t,
        None => {
            let mut alt = name.to_vec();
            alt.extend_from_slice(if o.suffix.is_empty() {
                b".gz"
            } else {
                &o.suffix
            });
            if coreutils_core::fs::metadata(path_from_bytes(name)).is_err()
                && coreutils_core::fs::metadata(path_from_bytes(&alt)).is_ok()
            {
                src = alt;
                name.to_vec()
            } else if coreutils_core::fs::metadata(path_from_bytes(name)).is_err() {
                return Err(error(&format!("{}: No such file or directory", s(&alt))));
            } else {
                return Err(warn(o, &format!("{}: unknown suffix -- ignored", s(name))));
            }
        }
    };
    let sp = path_from_bytes(&src);
    let meta = coreutils_core::fs::metadata(&sp)
        .map_err(|e| error(&format!("{}: {}", s(&src), strerror(&e))))?;
    if meta.is_dir() {
        return Err(warn(o, &format!("{} is a directory -- ignored", s(&src))));
    }
    let mut f = coreutils_core::fs::open(&sp)
        .map_err(|e| error(&format!("{}: {}", s(&src), strerror(&e))))?;
    let mut head = [0u8; 2];
    let got = f.read(&mut head).unwrap_or(0);
    if !is_gzip(&head[..got]) {
        return Err(data_fail(&format!("{}: not in gzip format", s(&src))));
    }
    let tp = path_from_bytes(&target);
    if coreutils_core::fs::symlink_metadata(&tp).is_ok() {
        if !o.force {
            return Err(warn(
                o,
                &format!("{} already exists;\tnot overwritten", s(&target)),
            ));
        }
        let _ = coreutils_core::fs::remove_file(&tp);
    }
    let out = coreutils_core::fs::create(&tp)
        .map_err(|e| error(&format!("{}: {}", s(&target), strerror(&e))))?;
    let mut out = BufWriter::with_capacity(CHUNK, out);
    let input = Counted {
        inner: (&head[..got]).chain(f),
        n: 0,
        eof: false,
    };
    let mut dec = MultiGzDecoder::new(BufReader::with_capacity(CHUNK, input));
    let r = pump(&mut dec, &mut out);
    drop(out);
    match r {
        Ok(n) => {
            let packed = dec.get_ref().get_ref().n;
            finish(&sp, &tp, &meta, o);
            if o.verbose {
                eprintln!(
                    "{}:\t{} -- replaced with {}",
                    s(&src),
                    ratio(packed.saturating_sub(18 + 1 + target.len() as u64), n),
                    s(&target)
                );
            }
            Ok(())
        }
        Err(e) => {
            let _ = coreutils_core::fs::remove_file(&tp);
            match e {
                Ok(e) => {
                    let m = if dec.get_ref().get_ref().eof {
                        truncated(&s(&src))
                    } else {
                        data_error(&s(&src), &e)
                    };
                    Err(data_fail(&m))
                }
                Err(e) => Err(error(&format!("{}: {}", s(&target), strerror(&e)))),
            }
        }
    }
}

/// Give the output the input's mode and times, then drop the input.
fn finish(src: &std::path::Path, dst: &std::path::Path, meta: &std::fs::Metadata, o: &Opts) {
    let _ = std::fs::set_permissions(dst, meta.permissions());
    let ns = |t: io::Result<std::time::SystemTime>| {
        t.ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_nanos() as u64)
    };
    let _ = coreutils_core::meta::set_times(dst, ns(meta.accessed()), ns(meta.modified()), true);
    if !o.keep {
        let _ = coreutils_core::fs::remove_file(src);
    }
}

fn mtime_secs(meta: &std::fs::Metadata) -> u32 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_secs() as u32)
        .unwrap_or(0)
}

fn compress_to<W: Write>(
    o: &Opts,
    input: &mut dyn Read,
    w: W,
    name: Option<&[u8]>,
    mtime: u32,
) -> Result<(u64, W), Result<io::Error, io::Error>> {
    let mut b = GzBuilder::new().mtime(mtime).operating_system(3);
    if let Some(n) = name {
        b = b.filename(n.to_vec());
    }
    let mut enc = b.write(w, Compression::new(o.level));
    let n = pump(input, &mut enc)?;
    let w = enc.finish().map_err(Err)?;
    Ok((n, w))
}

fn compress_file(o: &Opts, name: &[u8]) -> Result<(), Failure> {
    let sp = path_from_bytes(name);
    let meta = coreutils_core::fs::metadata(&sp)
        .map_err(|e| error(&format!("{}: {}", s(name), strerror(&e))))?;
    if meta.is_dir() {
        return Err(warn(o, &format!("{} is a directory -- ignored", s(name))));
    }
    let suffix: &[u8] = if o.suffix.is_empty() {
        b".gz"
    } else {
        &o.suffix
    };
    if !o.stdout && name.ends_with(suffix) && !o.force {
        // GNU warns but keeps status 0 for this one.
        let _ = warn(
            o,
            &format!("{} already has {} suffix -- unchanged", s(name), s(suffix)),
        );
        return Err(Failure(0));
    }
    let mut f = coreutils_core::fs::open(&sp)
        .map_err(|e| error(&format!("{}: {}", s(name), strerror(&e))))?;
    let base = name.rsplit(|&c| c == b'/').next().unwrap_or(name);
    let hname = if o.no_name { None } else { Some(base) };
    let mtime = if o.no_name { 0 } else { mtime_secs(&meta) };
    if o.stdout {
        let out = coreutils_core::io::stdout();
        return match compress_to(o, &mut f, out, hname, mtime) {
            Ok(_) => Ok(()),
            Err(Ok(e)) => Err(error(&format!("{}: {}", s(name), strerror(&e)))),
            Err(Err(e)) => coreutils_core::io::exit_on_write_error(e),
        };
    }
    let mut target = name.to_vec();
    target.extend_from_slice(suffix);
    let tp = path_from_bytes(&target);
    if coreutils_core::fs::symlink_metadata(&tp).is_ok() {
        if !o.force {
            return Err(warn(
                o,
                &format!("{} already exists;\tnot overwritten", s(&target)),
            ));
        }
        let _ = coreutils_core::fs::remove_file(&tp);
    }
    let out = coreutils_core::fs::create(&tp)
        .map_err(|e| error(&format!("{}: {}", s(&target), strerror(&e))))?;
    let out = BufWriter::with_capacity(CHUNK, Counting { inner: out, n: 0 });
    match compress_to(o, &mut f, out, hname, mtime) {
        Ok((n, w)) => {
            let packed = match w.into_inner() {
                Ok(c) => c.n,
                Err(e) => {
                    let _ = coreutils_core::fs::remove_file(&tp);
                    return Err(error(&format!("{}: {}", s(&target), strerror(e.error()))));
                }
            };
            finish(&sp, &tp, &meta, o);
            if o.verbose {
                let hdr = 18 + hname.map(|n| n.len() as u64 + 1).unwrap_or(0);
                let what = if o.keep { "created" } else { "replaced with" };
                eprintln!(
                    "{}:\t{} -- {} {}",
                    s(name),
                    ratio(packed.saturating_sub(hdr), n),
                    what,
                    s(&target)
                );
            }
            Ok(())
        }
        Err(e) => {
            let _ = coreutils_core::fs::remove_file(&tp);
            match e {
                Ok(e) => Err(error(&format!("{}: {}", s(name), strerror(&e)))),
                Err(e) => Err(error(&format!("{}: {}", s(&target), strerror(&e)))),
            }
        }
    }
}

/// Counts bytes written.
struct Counting<W> {
    inner: W,
    n: u64,
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        let k = self.inner.write(b)?;
        self.n += k as u64;
        Ok(k)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// `-l` for one file: (compressed, uncompressed, name) or a failure.
fn list_one(o: &Opts, name: &[u8]) -> Result<(u64, u64, Vec<u8>), Failure> {
    let data = coreutils_core::fs::read(path_from_bytes(name))
        .map_err(|e| error(&format!("{}: {}", s(name), strerror(&e))))?;
    if !is_gzip(&data) || data.len() < 18 {
        return Err(data_fail(&format!("{}: not in gzip format", s(name))));
    }
    let t = &data[data.len() - 4..];
    let isize = u32::from_le_bytes([t[0], t[1], t[2], t[3]]) as u64;
    let out = strip_suffix(name, o).unwrap_or_else(|| name.to_vec());
    Ok((data.len() as u64, isize, out))
}

fn header_len(data: &[u8]) -> u64 {
    // Fixed 10-byte header + trailer, plus the optional stored name.
    let mut h = 18u64;
    if data.len() > 10 && data[3] & 0x08 != 0 {
        if let Some(z) = data[10..].iter().position(|&c| c == 0) {
            h += z as u64 + 1;
        }
    }
    h
}

/// Entry point shared by gzip, gunzip and zcat.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let prog = args
        .first()
        .map(|a| {
            s(os_bytes(a))
                .rsplit('/')
                .next()
                .unwrap_or("gzip")
                .to_string()
        })
        .unwrap_or_else(|| "gzip".into());
    let parsed = match parse(
        args.get(1..).unwrap_or(&[]),
        "cdfklnNqrtvS:hV123456789L",
        LONGS,
    ) {
        Ok(p) => p,
        Err(ArgError { message: m }) => {
            // gzip's own wording and its old-style quotes.
            let m = if m == "invalid option -- 'Z'" {
                "-Z not supported in this version".to_string()
            } else {
                m
            };
            eprintln!("{}: {}", prog, m);
            eprintln!("Try `{} --help' for more information.", prog);
            return 1;
        }
    };
    let mut o = Opts {
        level: 6,
        ..Default::default()
    };
    if prog == "gunzip" {
        o.decompress = true;
    }
    if prog == "zcat" {
        o.decompress = true;
        o.stdout = true;
    }
    for op in &parsed.opts {
        match op.key {
            'c' => o.stdout = true,
            'd' => o.decompress = true,
            'f' => o.force = true,
            'k' => o.keep = true,
            'l' => o.list = true,
            'n' => o.no_name = true,
            'N' => o.no_name = false,
            'q' => o.quiet = true,
            't' => o.test = true,
            'v' => o.verbose = true,
            'S' => {
                o.suffix = op
                    .value
                    .as_ref()
                    .map(|a| os_bytes(a).to_vec())
                    .unwrap_or_default()
            }
            'h' => {
                println!("Usage: {} [OPTION]... [FILE]...", prog);
                return 0;
            }
            'V' | 'L' => return crate::common::version(&prog),
            'r' => {}
            c if c.is_ascii_digit() => o.level = c as u32 - '0' as u32,
            _ => {}
        }
    }
    let mut files: Vec<Vec<u8>> = parsed
        .operands
        .iter()
        .map(|a| os_bytes(a).to_vec())
        .collect();
    if files.is_empty() {
        files.push(b"-".to_vec());
    }
    let mut status = 0;
    let mut bump = |f: Failure| {
        if f.0 == 1 || status == 0 {
            status = f.0;
        }
    };
    if o.list {
        let mut out = coreutils_core::io::stdout();
        let mut text =
            String::from("         compressed        uncompressed  ratio uncompressed_name\n");
        // GNU's totals line subtracts only the last file's header size.
        let (mut tc, mut tu, mut th, mut count) = (0u64, 0u64, 0u64, 0);
        for f in &files {
            if f == b"-" {
                let mut data = Vec::new();
                let _ = io::stdin().lock().read_to_end(&mut data);
                if !is_gzip(&data) || data.len() < 18 {
                    bump(error("stdin: not in gzip format"));
                    continue;
                }
                let t = &data[data.len() - 4..];
                let u = u32::from_le_bytes([t[0], t[1], t[2], t[3]]) as u64;
                let h = header_len(&data);
                let _ = writeln!(
                    text,
                    "{:>19} {:>19} {} stdout",
                    data.len(),
                    u,
                    ratio(data.len() as u64 - h, u)
                );
                tc += data.len() as u64;
                tu += u;
                th = h;
                count += 1;
                continue;
            }
            match list_one(&o, f) {
                Ok((c, u, n)) => {
                    let h = coreutils_core::fs::read(path_from_bytes(f))
                        .map(|d| header_len(&d))
                        .unwrap_or(18);
                    let _ = writeln!(
                        text,
                        "{:>19} {:>19} {} {}",
                        c,
                        u,
                        ratio(c.saturating_sub(h), u),
                        s(&n)
                    );
                    tc += c;
                    tu += u;
                    th = h;
                    count += 1;
                }
                Err(e) => bump(e),
            }
        }
        if count > 1 {
            let _ = writeln!(
                text,
                "{:>19} {:>19} {} (totals)",
                tc,
                tu,
                ratio(tc.saturating_sub(th), tu)
            );
        }
        if count > 0 {
            coreutils_core::io::write_or_exit(&mut out, text.as_bytes());
        }
        let _ = out.flush();
        return status;
    }
    for f in &files {
        let r = if f == b"-" {
            if o.decompress || o.test {
                decompress_stream(&o, "stdin", &mut io::stdin().lock(), o.test)
            } else if !o.force && coreutils_core::tty::isatty(1) {
                eprintln!(
                    "{}: compressed data not written to a terminal. Use -f to force compression.",
                    coreutils_core::prog("gzip")
                );
                eprintln!("For help, type: gzip -h");
                Err(Failure(1))
            } else {
                let out = coreutils_core::io::stdout();
                match compress_to(&o, &mut io::stdin().lock(), out, None, 0) {
                    Ok(_) => Ok(()),
                    Err(Ok(e)) => Err(error(&format!("stdin: {}", strerror(&e)))),
                    Err(Err(e)) => coreutils_core::io::exit_on_write_error(e),
                }
            }
        } else if o.test || (o.decompress && o.stdout) {
            let p = path_from_bytes(f);
            let mut src = f.clone();
            if coreutils_core::fs::metadata(&p).is_err() && strip_suffix(f, &o).is_none() {
                src.extend_from_slice(b".gz");
            }
            match coreutils_core::fs::open(path_from_bytes(&src)) {
                Ok(fh) => {
                    if fh.metadata().map(|m| m.is_dir()).unwrap_or(false) {
                        Err(warn(&o, &format!("{} is a directory -- ignored", s(f))))
                    } else {
                        let mut r = BufReader::with_capacity(CHUNK, fh);
                        decompress_stream(&o, &s(&src), &mut r, o.test)
                    }
                }
                Err(e) => Err(error(&format!("{}: {}", s(&src), strerror(&e)))),
            }
        } else if o.decompress {
            decompress_file(&o, f)
        } else {
            compress_file(&o, f)
        };
        if let Err(e) = r {
            bump(e);
        }
    }
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_detects_corruption() {
        let o = Opts {
            level: 6,
            ..Default::default()
        };
        let data: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        let (n, packed) = compress_to(&o, &mut &data[..], Vec::new(), Some(b"x"), 0)
            .ok()
            .unwrap();
        assert_eq!(n, data.len() as u64);
        assert!(packed.len() < data.len() / 10);
        let mut dec = MultiGzDecoder::new(&packed[..]);
        let mut back = Vec::new();
        pump(&mut dec, &mut back).ok().unwrap();
        assert_eq!(back, data);
        let mut bad = packed.clone();
        let k = bad.len() - 6;
        bad[k] ^= 0xff;
        let mut dec = MultiGzDecoder::new(&bad[..]);
        assert!(matches!(pump(&mut dec, &mut Vec::new()), Err(Ok(_))));
    }

    #[test]
    fn write_failure_stops_a_bomb() {
        // A sink that refuses past 1 MiB, like the VFS limit.
        struct Limited(u64);
        impl Write for Limited {
            fn write(&mut self, b: &[u8]) -> io::Result<usize> {
                if self.0 + b.len() as u64 > 1 << 20 {
                    return Err(io::Error::from_raw_os_error(28));
                }
                self.0 += b.len() as u64;
                Ok(b.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let o = Opts {
            level: 9,
            ..Default::default()
        };
        let zeros = vec![0u8; 8 << 20];
        let (_, packed) = compress_to(&o, &mut &zeros[..], Vec::new(), None, 0)
            .ok()
            .unwrap();
        let mut dec = MultiGzDecoder::new(&packed[..]);
        let r = pump(&mut dec, &mut Limited(0));
        assert!(matches!(r, Err(Err(_))));
    }

    #[test]
    fn suffixes() {
        let o = Opts::default();
        assert_eq!(strip_suffix(b"a.gz", &o), Some(b"a".to_vec()));
        assert_eq!(strip_suffix(b"a.tgz", &o), Some(b"a.tar".to_vec()));
        assert_eq!(strip_suffix(b"a.txt", &o), None);
        assert_eq!(ratio(5, 3), "-66.7%");
    }
}
