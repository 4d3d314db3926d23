//! `dd [OPERAND]...`: copy a file in blocks, converting on the way
//! (if= of= bs= ibs= obs= count= skip= seek= conv= iflag= oflag= status=),
//! with GNU's operand syntax, messages and `records in/out` summary.

use coreutils_core::error::strerror;
use coreutils_core::quote::{quote_gnu, quotef};
use std::ffi::{OsStr, OsString};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::time::Instant;

const USAGE: &str = "Usage: dd [OPERAND]...\n  or:  dd OPTION\nCopy a file, converting and formatting according to the operands.\n\n  bs=BYTES        read and write up to BYTES bytes at a time (default: 512);\n                  overrides ibs and obs\n  cbs=BYTES       convert BYTES bytes at a time\n  conv=CONVS      convert the file as per the comma separated symbol list\n  count=N         copy only N input blocks\n  ibs=BYTES       read up to BYTES bytes at a time (default: 512)\n  if=FILE         read from FILE instead of stdin\n  iflag=FLAGS     read as per the comma separated symbol list\n  obs=BYTES       write BYTES bytes at a time (default: 512)\n  of=FILE         write to FILE instead of stdout\n  oflag=FLAGS     write as per the comma separated symbol list\n  seek=N          (or oseek=N) skip N obs-sized output blocks\n  skip=N          (or iseek=N) skip N ibs-sized input blocks\n  status=LEVEL    The LEVEL of information to print to stderr;\n                  'none' suppresses everything but error messages,\n                  'noxfer' suppresses the final transfer statistics,\n                  'progress' shows periodic transfer statistics\n";

#[derive(Default)]
struct Conv {
    ucase: bool,
    lcase: bool,
    notrunc: bool,
    sync: bool,
    noerror: bool,
    fsync: bool,
    excl: bool,
    nocreat: bool,
    swab: bool,
}

#[derive(Default)]
struct Flags {
    fullblock: bool,
    count_bytes: bool,
    skip_bytes: bool,
    seek_bytes: bool,
    append: bool,
}

#[derive(PartialEq, Eq, Clone, Copy)]
enum Status {
    Default,
    NoXfer,
    None,
}

struct Opts {
    input: Option<OsString>,
    output: Option<OsString>,
    ibs: usize,
    obs: usize,
    /// bs= given: every read is written as one block, no reblocking.
    bs: bool,
    count: Option<u64>,
    skip: u64,
    seek: u64,
    conv: Conv,
    iflag: Flags,
    oflag: Flags,
    status: Status,
}

fn usage_fail(msg: &str) -> i32 {
    eprintln!("{}: {}", coreutils_core::prog("dd"), msg);
    eprintln!(
        "Try '{} --help' for more information.",
        coreutils_core::prog("dd")
    );
    1
}

/// A number with dd's suffixes (c w b, K M G ... with KB/KiB forms) and
/// `x` products; None when malformed or out of range.
fn parse_num(s: &str) -> Option<u64> {
    let mut total: u64 = 1;
    for part in s.split('x') {
        total = total.checked_mul(parse_factor(part)?)?;
    }
    Some(total)
}

fn parse_factor(s: &str) -> Option<u64> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let n: u64 = s[..digits].parse().ok()?;
    let suffix = &s[digits..];
    let mult: u64 = match suffix {
        "" | "c" => 1,
        "w" => 2,
        "b" => 512,
        _ => {
            let (letter, rest) = suffix.split_at(1);
            let power = match letter {
                "k" | "K" => 1,
                "M" => 2,
                "G" => 3,
                "T" => 4,
                "P" => 5,
                "E" => 6,
                _ => return None,
            };
            let base: u64 = match rest {
                "" | "iB" => 1024,
                "B" => 1000,
                _ => return None,
            };
            base.checked_pow(power)?
        }
    };
    n.checked_mul(mult)
}

fn parse_list<T>(
    value: &str,
    what: &str,
    target: &mut T,
    set: fn(&mut T, &str) -> bool,
) -> Result<(), i32> {
    for word in value.split(',') {
        if !set(target, word) {
            return Err(usage_fail(&format!(
                "invalid {}: {}",
                what,
                quote_gnu(OsStr::new(word))
            )));
        }
    }
    Ok(())
}

fn set_conv(c: &mut Conv, w: &str) -> bool {
    match w {
        "ucase" => c.ucase = true,
        "lcase" => c.lcase = true,
        "notrunc" => c.notrunc = true,
        "sync" => c.sync = true,
        "noerror" => c.noerror = true,
        "fsync" | "fdatasync" => c.fsync = true,
        "excl" => c.excl = true,
        "nocreat" => c.nocreat = true,
        "swab" => c.swab = true,
        // Holes read back as zeros: writing them is the same file.
        "sparse" => {}
        _ => return false,
    }
    true
}

fn set_flag(f: &mut Flags, w: &str) -> bool {
    match w {
        "fullblock" => f.fullblock = true,
        "count_bytes" => f.count_bytes = true,
        "skip_bytes" => f.skip_bytes = true,
        "seek_bytes" => f.seek_bytes = true,
        "append" => f.append = true,
        // Caching and blocking hints: nothing to do on an in-memory VFS.
        "direct" | "dsync" | "sync" | "nonblock" | "noatime" | "nocache" | "noctty"
        | "nofollow" | "binary" | "text" | "directory" => {}
        _ => return false,
    }
    true
}

fn parse(args: &[OsString]) -> Result<Opts, i32> {
    let mut o = Opts {
        input: None,
        output: None,
        ibs: 512,
        obs: 512,
        bs: false,
        count: None,
        skip: 0,
        seek: 0,
        conv: Conv::default(),
        iflag: Flags::default(),
        oflag: Flags::default(),
        status: Status::Default,
    };
    let mut bs = None;
    let mut rest = args.iter().skip(1).peekable();
    if let Some(first) = rest.peek() {
        match first.to_str() {
            Some("--help") => {
                print!("{}", USAGE);
                return Err(0);
            }
            Some("--version") => {
                println!("dd (Sandglass coreutils) {}", env!("CARGO_PKG_VERSION"));
                return Err(0);
            }
            Some("--") => {
                rest.next();
            }
            _ => {}
        }
    }
    for a in rest {
        let bytes = coreutils_core::bytes::os_bytes(a);
        let eq = match bytes.iter().position(|&b| b == b'=') {
            Some(i) => i,
            None => {
                return Err(usage_fail(&format!(
                    "unrecognized operand {}",
                    quote_gnu(a)
                )))
            }
        };
        let key = String::from_utf8_lossy(&bytes[..eq]).into_owned();
        let raw = &bytes[eq + 1..];
        let value = String::from_utf8_lossy(raw).into_owned();
        let num = |v: &str| -> Result<u64, i32> {
            parse_num(v).ok_or_else(|| {
                eprintln!(
                    "{}: invalid number: {}",
                    coreutils_core::prog("dd"),
                    quote_gnu(OsStr::new(v))
                );
                1
            })
        };
        let size = |v: &str| -> Result<usize, i32> {
            match num(v)? {
                0 => {
                    eprintln!(
                        "{}: invalid number: {}",
                        coreutils_core::prog("dd"),
                        quote_gnu(OsStr::new(v))
                    );
                    Err(1)
                }
                n => usize::try_from(n).map_err(|_| {
                    eprintln!(
                        "{}: invalid number: {}",
                        coreutils_core::prog("dd"),
                        quote_gnu(OsStr::new(v))
                    );
                    1
                }),
            }
        };
        match key.as_str() {
            "if" => o.input = Some(coreutils_core::bytes::os_from_bytes(raw)),
            "of" => o.output = Some(coreutils_core::bytes::os_from_bytes(raw)),
            "bs" => bs = Some(size(&value)?),
            "ibs" => o.ibs = size(&value)?,
            "obs" => o.obs = size(&value)?,
            // Conversion blocks only matter to block/unblock, not offered.
            "cbs" => {
                size(&value)?;
            }
            "count" => o.count = Some(num(&value)?),
            "skip" | "iseek" => o.skip = num(&value)?,
            "seek" | "oseek" => o.seek = num(&value)?,
            "conv" => parse_list(&value, "conversion", &mut o.conv, set_conv)?,
            "iflag" => parse_list(&value, "input flag", &mut o.iflag, set_flag)?,
            "oflag" => parse_list(&value, "output flag", &mut o.oflag, set_flag)?,
            "status" => {
                o.status = match value.as_str() {
                    "none" => Status::None,
                    "noxfer" => Status::NoXfer,
                    "progress" => Status::Default,
                    _ => {
                        return Err(usage_fail(&format!(
                            "invalid status level: {}",
                            quote_gnu(OsStr::new(&value))
                        )))
                    }
                }
            }
            _ => {
                return Err(usage_fail(&format!(
                    "unrecognized operand {}",
                    quote_gnu(a)
                )))
            }
        }
    }
    if o.conv.ucase && o.conv.lcase {
        eprintln!(
            "{}: cannot combine lcase and ucase",
            coreutils_core::prog("dd")
        );
        return Err(1);
    }
    if o.conv.excl && o.conv.nocreat {
        eprintln!(
            "{}: cannot combine excl and nocreat",
            coreutils_core::prog("dd")
        );
        return Err(1);
    }
    if let Some(b) = bs {
        o.ibs = b;
        o.obs = b;
        o.bs = true;
    }
    Ok(o)
}

/// Counts for the summary: whole and partial records each way.
#[derive(Default)]
struct Stats {
    in_full: u64,
    in_part: u64,
    out_full: u64,
    out_part: u64,
    bytes: u64,
}

/// GNU's human_readable with autoscaling and rounding to nearest.
fn human(n: f64, base: f64, units: &[&str]) -> String {
    let mut v = n;
    let mut i = 0;
    while v >= base && i + 1 < units.len() {
        v /= base;
        i += 1;
    }
    if i == 0 {
        return format!("{} {}", n as u64, units[0]);
    }
    if v < 9.95 {
        format!("{:.1} {}", v, units[i])
    } else {
        format!("{} {}", v.round() as u64, units[i])
    }
}

const SI: &[&str] = &["B", "kB", "MB", "GB", "TB", "PB", "EB"];
const IEC: &[&str] = &["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];

/// C's `%g` (six significant digits, trailing zeros dropped).
fn fmt_g(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let exp = v.abs().log10().floor() as i32;
    let trim = |s: String| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    if !(-4..6).contains(&exp) {
        let s = format!("{:.5e}", v);
        let (mant, e) = s.split_once('e').unwrap_or((&s, "0"));
        let e: i32 = e.parse().unwrap_or(0);
        let sign = if e < 0 { '-' } else { '+' };
        format!("{}e{}{:02}", trim(mant.to_string()), sign, e.abs())
    } else {
        let decimals = (5 - exp).max(0) as usize;
        trim(format!("{:.*}", decimals, v))
    }
}

fn summary(s: &Stats, status: Status, elapsed: f64) {
    if status == Status::None {
        return;
    }
    let mut err = io::stderr().lock();
    let _ = write!(
        err,
        "{}+{} records in\n{}+{} records out\n",
        s.in_full, s.in_part, s.out_full, s.out_part
    );
    if status == Status::NoXfer {
        return;
    }
    let b = s.bytes as f64;
    let si = human(b, 1000.0, SI);
    let iec = human(b, 1024.0, IEC);
    let amount = if s.bytes == 1 {
        "1 byte".to_string()
    } else if si.ends_with(" B") {
        format!("{} bytes", s.bytes)
    } else if iec.ends_with(" B") {
        format!("{} bytes ({})", s.bytes, si)
    } else {
        format!("{} bytes ({}, {})", s.bytes, si, iec)
    };
    // GNU shows a zero rate with its first prefix.
    let rate = if s.bytes == 0 {
        "0.0 kB/s".to_string()
    } else if elapsed > 0.0 {
        format!("{}/s", human(b / elapsed, 1000.0, SI))
    } else {
        "Infinity B/s".to_string()
    };
    let _ = writeln!(err, "{} copied, {} s, {}", amount, fmt_g(elapsed), rate);
}

/// Read until `buf` is full or end of input (iflag=fullblock), or once.
fn read_block(r: &mut dyn Read, buf: &mut [u8], full: bool) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => {
                got += n;
                if !full {
                    break;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

fn name_of(o: &Option<OsString>, std: &str) -> String {
    match o {
        Some(n) => quote_gnu(n),
        None => std.to_string(),
    }
}

/// Bytes `skip=` asks to pass over in the input.
fn skip_bytes(o: &Opts) -> u64 {
    if o.iflag.skip_bytes {
        o.skip
    } else {
        o.skip * o.ibs as u64
    }
}

/// GNU's offset diagnostics, `dd: FILE: cannot skip: ERROR` and the like
/// (`file` None: standard input).
fn offset_error(file: Option<&OsStr>, what: &str, e: Option<&io::Error>) {
    let name = quotef(file.unwrap_or_else(|| OsStr::new("standard input")));
    match e {
        Some(e) => eprintln!(
            "{}: {}: {}: {}",
            coreutils_core::prog("dd"),
            name,
            what,
            strerror(e)
        ),
        None => eprintln!("{}: {}: {}", coreutils_core::prog("dd"), name, what),
    }
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let o = match parse(&args) {
        Ok(o) => o,
        Err(c) => return c,
    };
    if o.oflag.append && !o.conv.notrunc && o.status != Status::None {
        eprintln!(
            "{}: you probably want conv=notrunc with oflag=append",
            coreutils_core::prog("dd")
        );
    }
    let start = Instant::now();
    let mut input: Box<dyn Read> = match &o.input {
        None => Box::new(io::stdin().lock()),
        Some(p) => match coreutils_core::fs::open(p) {
            Ok(f) => {
                if o.skip > 0 && f.metadata().map(|m| m.is_file()).unwrap_or(false) {
                    let mut f = f;
                    let off = skip_bytes(&o);
                    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
                    if off > len {
                        offset_error(Some(p), "cannot skip to specified offset", None);
                    }
                    if let Err(e) = f.seek(SeekFrom::Start(off.min(len))) {
                        offset_error(Some(p), "cannot skip", Some(&e));
                        return 1;
                    }
                    Box::new(f)
                } else {
                    Box::new(f)
                }
            }
            Err(e) => {
                eprintln!(
                    "{}: failed to open {}: {}",
                    coreutils_core::prog("dd"),
                    quote_gnu(p),
                    strerror(&e)
                );
                return 1;
            }
        },
    };
    // Skipping a stream: read and drop.
    let seekable_skip = o
        .input
        .as_ref()
        .and_then(|p| coreutils_core::fs::metadata(p).ok())
        .map_or(false, |m| m.is_file());
    if o.skip > 0 && !seekable_skip {
        let want = skip_bytes(&o);
        let mut sink = io::sink();
        match io::copy(&mut (&mut input).take(want), &mut sink) {
            Ok(n) if n < want => {
                offset_error(o.input.as_deref(), "cannot skip to specified offset", None)
            }
            Ok(_) => {}
            Err(e) => {
                offset_error(o.input.as_deref(), "cannot skip", Some(&e));
                return 1;
            }
        }
    }
    let seek_off = if o.oflag.seek_bytes {
        o.seek
    } else {
        o.seek * o.obs as u64
    };
    let mut output: Box<dyn Write> = match &o.output {
        None => Box::new(io::stdout().lock()),
        Some(p) => {
            let mut oo = coreutils_core::fs::OpenOptions::new();
            oo.write(true);
            if o.conv.excl {
                oo.create_new(true);
            } else if !o.conv.nocreat {
                oo.create(true);
            }
            if o.oflag.append {
                oo.append(true);
            }
            let mut f = match oo.open(p) {
                Ok(f) => f,
                Err(e) => {
                    eprintln!(
                        "{}: failed to open {}: {}",
                        coreutils_core::prog("dd"),
                        quote_gnu(p),
                        strerror(&e)
                    );
                    return 1;
                }
            };
            let regular = f.metadata().map(|m| m.is_file()).unwrap_or(false);
            if regular && !o.conv.notrunc {
                if let Err(e) = f.set_len(seek_off) {
                    eprintln!(
                        "{}: failed to truncate to {} bytes in output file {}: {}",
                        coreutils_core::prog("dd"),
                        seek_off,
                        quote_gnu(p),
                        strerror(&e)
                    );
                    return 1;
                }
            }
            if seek_off > 0 {
                if let Err(e) = f.seek(SeekFrom::Start(seek_off)) {
                    offset_error(Some(p), "cannot seek", Some(&e));
                    return 1;
                }
            }
            Box::new(f)
        }
    };
    let mut st = Stats::default();
    let status = copy(&o, &mut *input, &mut *output, &mut st);
    let status = match status {
        Ok(()) => match output.flush() {
            Ok(()) => 0,
            Err(e) => {
                eprintln!(
                    "{}: error writing {}: {}",
                    coreutils_core::prog("dd"),
                    name_of(&o.output, "'standard output'"),
                    strerror(&e)
                );
                1
            }
        },
        Err(c) => c,
    };
    summary(&st, o.status, start.elapsed().as_secs_f64());
    status
}

fn convert(o: &Opts, block: &mut [u8]) {
    if o.conv.swab {
        for pair in block.chunks_exact_mut(2) {
            pair.swap(0, 1);
        }
    }
    if o.conv.ucase {
        block.make_ascii_uppercase();
    } else if o.conv.lcase {
        block.make_ascii_lowercase();
    }
}

fn copy(o: &Opts, input: &mut dyn Read, output: &mut dyn Write, st: &mut Stats) -> Result<(), i32> {
    let mut buf = vec![0u8; o.ibs];
    let mut pending: Vec<u8> = Vec::new();
    let mut left_bytes = if o.iflag.count_bytes { o.count } else { None };
    let mut left_blocks = if o.iflag.count_bytes { None } else { o.count };
    let write_err = |e: io::Error| {
        eprintln!(
            "{}: error writing {}: {}",
            coreutils_core::prog("dd"),
            name_of(&o.output, "'standard output'"),
            strerror(&e)
        );
        1
    };
    loop {
        if left_blocks == Some(0) || left_bytes == Some(0) {
            break;
        }
        let want = match left_bytes {
            Some(b) => (b.min(o.ibs as u64)) as usize,
            None => o.ibs,
        };
        let n = match read_block(input, &mut buf[..want], o.iflag.fullblock) {
            Ok(n) => n,
            Err(e) => {
                eprintln!(
                    "{}: error reading {}: {}",
                    coreutils_core::prog("dd"),
                    name_of(&o.input, "'standard input'"),
                    strerror(&e)
                );
                if o.conv.noerror {
                    continue;
                }
                flush_rest(o, output, &mut pending, st).map_err(write_err)?;
                return Err(1);
            }
        };
        if n == 0 {
            break;
        }
        if let Some(b) = left_bytes.as_mut() {
            *b -= n as u64;
        }
        if let Some(b) = left_blocks.as_mut() {
            *b -= 1;
        }
        if n == o.ibs {
            st.in_full += 1;
        } else {
            st.in_part += 1;
        }
        let mut len = n;
        if o.conv.sync && n < o.ibs {
            buf[n..].iter_mut().for_each(|b| *b = 0);
            len = o.ibs;
        }
        convert(o, &mut buf[..len]);
        if o.bs {
            output.write_all(&buf[..len]).map_err(write_err)?;
            st.bytes += len as u64;
            if len == o.obs {
                st.out_full += 1;
            } else {
                st.out_part += 1;
            }
        } else {
            pending.extend_from_slice(&buf[..len]);
            while pending.len() >= o.obs {
                output.write_all(&pending[..o.obs]).map_err(write_err)?;
                pending.drain(..o.obs);
                st.bytes += o.obs as u64;
                st.out_full += 1;
            }
        }
    }
    flush_rest(o, output, &mut pending, st).map_err(write_err)
}

fn flush_rest(
    o: &Opts,
    output: &mut dyn Write,
    pending: &mut Vec<u8>,
    st: &mut Stats,
) -> io::Result<()> {
    if !pending.is_empty() {
        output.write_all(pending)?;
        st.bytes += pending.len() as u64;
        if pending.len() == o.obs {
            st.out_full += 1;
        } else {
            st.out_part += 1;
        }
        pending.clear();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(parse_num("512"), Some(512));
        assert_eq!(parse_num("1M"), Some(1 << 20));
        assert_eq!(parse_num("1MB"), Some(1_000_000));
        assert_eq!(parse_num("2x3b"), Some(3072));
        assert_eq!(parse_num("1kB"), Some(1000));
        assert_eq!(parse_num("4KiB"), Some(4096));
        assert_eq!(parse_num("x"), None);
        assert_eq!(parse_num("1Q"), None);
    }

    #[test]
    fn summary_units() {
        assert_eq!(human(1_048_576.0, 1000.0, SI), "1.0 MB");
        assert_eq!(human(1_048_576.0, 1024.0, IEC), "1.0 MiB");
        assert_eq!(human(1000.0, 1024.0, IEC), "1000 B");
        assert_eq!(fmt_g(8.119e-05), "8.119e-05");
        assert_eq!(fmt_g(0.000819987), "0.000819987");
    }
}
