//! `split`: split a file into pieces by lines (`-l`), bytes (`-b`),
//! line-bounded bytes (`-C`) or chunks (`-n N`, `l/N`, `r/N`, `K/N`), with
//! alphabetic or numeric (`-d`, `-x`) suffixes of GNU's lengths.

use std::ffi::OsString;
use std::io::Write;

use crate::common::bytes::{os_bytes, os_from_vec, q};
use crate::common::input::{err_text, read_all};
use crate::common::num::parse_size;
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};

const USAGE: Usage = Usage::new(
    "split",
    "[OPTION]... [FILE [PREFIX]]\nOutput pieces of FILE to PREFIXaa, PREFIXab, ...\n",
    1,
);

const SPEC: &[OptSpec<&str>] = &[
    opt("a", Some('a'), Some("suffix-length"), HasArg::Required),
    opt("add", None, Some("additional-suffix"), HasArg::Required),
    opt("b", Some('b'), Some("bytes"), HasArg::Required),
    opt("C", Some('C'), Some("line-bytes"), HasArg::Required),
    opt("d", Some('d'), None, HasArg::No),
    opt("numeric", None, Some("numeric-suffixes"), HasArg::Optional),
    opt("x", Some('x'), None, HasArg::No),
    opt("hex", None, Some("hex-suffixes"), HasArg::Optional),
    opt("e", Some('e'), Some("elide-empty-files"), HasArg::No),
    opt("l", Some('l'), Some("lines"), HasArg::Required),
    opt("n", Some('n'), Some("number"), HasArg::Required),
    opt("t", Some('t'), Some("separator"), HasArg::Required),
    opt("u", Some('u'), Some("unbuffered"), HasArg::No),
    opt("verbose", None, Some("verbose"), HasArg::No),
];

enum Mode {
    Lines(u64),
    Bytes(u64),
    LineBytes(u64),
    Chunks { n: u64, k: Option<u64>, kind: u8 },
}

struct Namer {
    prefix: Vec<u8>,
    add: Vec<u8>,
    len: usize,
    auto: bool,
    radix: u32,
    start: u64,
    idx: u64,
}

impl Namer {
    fn next(&mut self) -> Result<Vec<u8>, String> {
        let alphabet: &[u8] = match self.radix {
            10 => b"0123456789",
            16 => b"0123456789abcdef",
            _ => b"abcdefghijklmnopqrstuvwxyz",
        };
        let r = alphabet.len() as u64;
        let mut n = self.idx + self.start;
        let len = self.len;
        self.idx += 1;
        // GNU widens automatic suffixes: after `yz` come `zaaa`, `zaab`...
        if self.auto {
            let mut w = 0usize;
            loop {
                let digits_len = len + w;
                let count = (r - 1).saturating_mul(r.saturating_pow(digits_len as u32 - 1));
                if n < count {
                    let mut digits = vec![0u8; digits_len];
                    let mut m = n;
                    for d in digits.iter_mut().rev() {
                        *d = alphabet[(m % r) as usize];
                        m /= r;
                    }
                    let mut name = self.prefix.clone();
                    name.extend(std::iter::repeat(alphabet[alphabet.len() - 1]).take(w));
                    name.extend_from_slice(&digits);
                    name.extend_from_slice(&self.add);
                    return Ok(name);
                }
                n -= count;
                w += 1;
            }
        }
        if n >= r.saturating_pow(len as u32) {
            return Err("output file suffixes exhausted".into());
        }
        let mut digits = vec![0u8; len];
        for d in digits.iter_mut().rev() {
            *d = alphabet[(n % r) as usize];
            n /= r;
        }
        let mut name = self.prefix.clone();
        name.extend_from_slice(&digits);
        name.extend_from_slice(&self.add);
        Ok(name)
    }
}

fn write_piece(namer: &mut Namer, data: &[u8], verbose: bool) -> Result<(), String> {
    let name = namer.next()?;
    let os = os_from_vec(name);
    if verbose {
        println!("creating file {}", q(&os));
    }
    coreutils_core::fs::create(&os)
        .and_then(|mut f| f.write_all(data))
        .map_err(|e| format!("{}: {}", q(&os), err_text(&e)))
}

fn size_arg(s: &str, what: &str) -> Result<u64, String> {
    match parse_size(s) {
        Ok(0) => Err(format!(
            "invalid number of {}: {}: Numerical result out of range",
            what,
            q(std::ffi::OsStr::new(s))
        )),
        Err(_) => Err(format!(
            "invalid number of {}: {}",
            what,
            q(std::ffi::OsStr::new(s))
        )),
        Ok(n) => Ok(n),
    }
}

/// Entry point.
pub fn uumain(mut args: Vec<OsString>) -> i32 {
    // Obsolete `-NUM` means `-l NUM`.
    for a in args.iter_mut().skip(1) {
        let s = a.to_string_lossy().into_owned();
        if s.len() > 1 && s.starts_with('-') && s[1..].bytes().all(|c| c.is_ascii_digit()) {
            *a = OsString::from(format!("-l{}", &s[1..]));
        }
    }
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let mut mode: Option<Mode> = None;
    let mut radix = 26;
    let mut start = 0u64;
    let mut sep = b'\n';
    for o in &p.opts {
        let (id, v, s) = (&o.key, &o.value, o.val());
        let m = match o.key {
            "l" => match size_arg(&s, "lines") {
                Ok(n) => Some(Mode::Lines(n)),
                Err(m) => return USAGE.die(1, &m),
            },
            "b" => match size_arg(&s, "bytes") {
                Ok(n) => Some(Mode::Bytes(n)),
                Err(m) => return USAGE.die(1, &m),
            },
            "C" => match size_arg(&s, "bytes") {
                Ok(n) => Some(Mode::LineBytes(n)),
                Err(m) => return USAGE.die(1, &m),
            },
            "n" => {
                let parts: Vec<&str> = s.split('/').collect();
                let (kind, rest): (u8, Vec<&str>) = match parts[0] {
                    "l" => (b'l', parts[1..].to_vec()),
                    "r" => (b'r', parts[1..].to_vec()),
                    _ => (b'b', parts.clone()),
                };
                let nums: Result<Vec<u64>, _> = rest.iter().map(|x| x.parse::<u64>()).collect();
                match nums.as_deref() {
                    Ok([n]) if *n > 0 => Some(Mode::Chunks {
                        n: *n,
                        k: None,
                        kind,
                    }),
                    Ok([k, n]) if *n > 0 && *k > 0 && k <= n => Some(Mode::Chunks {
                        n: *n,
                        k: Some(*k),
                        kind,
                    }),
                    Ok([k, n]) if *n > 0 && (*k == 0 || k > n) => {
                        return USAGE.die(
                            1,
                            &format!(
                                "invalid chunk number: {}",
                                q(std::ffi::OsStr::new(&k.to_string()))
                            ),
                        )
                    }
                    _ => {
                        return USAGE.die(
                            1,
                            &format!("invalid number of chunks: {}", q(std::ffi::OsStr::new(&s))),
                        )
                    }
                }
            }
            "d" => {
                radix = 10;
                None
            }
            "x" => {
                radix = 16;
                None
            }
            "numeric" | "hex" => {
                radix = if *id == "numeric" { 10 } else { 16 };
                if !s.is_empty() {
                    match s.parse::<u64>() {
                        Ok(n) => start = n,
                        Err(_) => {
                            return USAGE.die(
                                1,
                                &format!(
                                    "invalid start value for numerical suffix: {}",
                                    q(std::ffi::OsStr::new(&s))
                                ),
                            )
                        }
                    }
                }
                None
            }
            "t" => {
                let b = os_bytes(v.as_ref().map(|x| x.as_os_str()).unwrap_or_default());
                sep = match b {
                    [c] => *c,
                    b"\\0" => 0,
                    [] => return USAGE.die(1, "empty record separator"),
                    _ => {
                        return USAGE.die(
                            1,
                            &format!("multi-character separator {}", q(std::ffi::OsStr::new(&s))),
                        )
                    }
                };
                None
            }
            _ => None,
        };
        if let Some(m) = m {
            if mode.is_some() {
                return USAGE.fail("cannot split in more than one way");
            }
            mode = Some(m);
        }
    }
    let mode = mode.unwrap_or(Mode::Lines(1000));
    if p.operands.len() > 2 {
        return USAGE.fail(&format!("extra operand {}", q(&p.operands[2])));
    }
    let input = p
        .operands
        .first()
        .cloned()
        .unwrap_or_else(|| OsString::from("-"));
    let prefix = p
        .operands
        .get(1)
        .map(|s| os_bytes(s).to_vec())
        .unwrap_or_else(|| b"x".to_vec());
    let fixed = p.last_str("a");
    let len = match &fixed {
        Some(s) => match s.parse::<usize>() {
            Ok(n) if n > 0 => n,
            _ => {
                return USAGE.die(
                    1,
                    &format!("invalid suffix length: {}", q(std::ffi::OsStr::new(s))),
                )
            }
        },
        None => 2,
    };
    let add = p
        .last("add")
        .map(|s| os_bytes(s).to_vec())
        .unwrap_or_default();
    if add.contains(&b'/') {
        return USAGE.die(
            1,
            &format!(
                "invalid suffix {}, contains directory separator",
                q(std::ffi::OsStr::new(
                    &String::from_utf8_lossy(&add).into_owned()
                ))
            ),
        );
    }
    let data = match read_all(&input) {
        Ok(d) => d,
        Err(e) => {
            return USAGE.die(
                1,
                &format!("cannot open {} for reading: {}", q(&input), err_text(&e)),
            )
        }
    };
    let chunks_mode = matches!(mode, Mode::Chunks { .. });
    let mut namer = Namer {
        prefix,
        add,
        len,
        auto: fixed.is_none() && !chunks_mode && start == 0,
        radix,
        start,
        idx: 0,
    };
    if let Mode::Chunks { n, .. } = mode {
        // Enough suffix length for all chunks.
        let r = u64::from(radix);
        while r.saturating_pow(namer.len as u32) < n + start {
            if fixed.is_some() {
                return USAGE.die(1, "output file suffixes exhausted");
            }
            namer.len += 1;
        }
    }
    let verbose = p.has("verbose");
    let elide = p.has("e");
    let res = run(&mode, &data, &mut namer, sep, verbose, elide);
    match res {
        Ok(()) => 0,
        Err(m) => USAGE.die(1, &m),
    }
}

fn run(
    mode: &Mode,
    data: &[u8],
    namer: &mut Namer,
    sep: u8,
    verbose: bool,
    elide: bool,
) -> Result<(), String> {
    match *mode {
        Mode::Lines(n) => {
            let mut st = 0;
            let mut count = 0;
            for (i, &c) in data.iter().enumerate() {
                if c == sep {
                    count += 1;
                    if count == n {
                        write_piece(namer, &data[st..=i], verbose)?;
                        st = i + 1;
                        count = 0;
                    }
                }
            }
            if st < data.len() {
                write_piece(namer, &data[st..], verbose)?;
            }
        }
        Mode::Bytes(n) => {
            for ch in data.chunks(n.min(usize::MAX as u64) as usize) {
                write_piece(namer, ch, verbose)?;
            }
        }
        Mode::LineBytes(n) => {
            let n = n.min(usize::MAX as u64) as usize;
            let mut st = 0;
            while st < data.len() {
                let lim = (st + n).min(data.len());
                let end = if lim == data.len() {
                    lim
                } else {
                    match data[st..lim].iter().rposition(|&c| c == sep) {
                        Some(p) => st + p + 1,
                        None => lim,
                    }
                };
                write_piece(namer, &data[st..end], verbose)?;
                st = end;
            }
        }
        Mode::Chunks { n, k, kind } => {
            let size = data.len() as u64;
            let bounds: Vec<(usize, usize)> = match kind {
                b'r' => Vec::new(),
                b'l' => {
                    let mut v = Vec::new();
                    let mut st = 0usize;
                    for i in 1..=n {
                        let target = if i == n { size } else { i * (size / n) };
                        let mut end = (target as usize).max(st);
                        if i == n {
                            end = data.len();
                        } else if end > 0 && end <= data.len() {
                            // Extend to the end of the line containing byte end-1.
                            end = match data[end - 1..].iter().position(|&c| c == sep) {
                                Some(p) => end - 1 + p + 1,
                                None => data.len(),
                            };
                            if end < st {
                                end = st;
                            }
                        }
                        v.push((st, end));
                        st = end;
                    }
                    v
                }
                _ => (1..=n)
                    .map(|i| {
                        let s = ((i - 1) * (size / n)) as usize;
                        let e = if i == n {
                            data.len()
                        } else {
                            (i * (size / n)) as usize
                        };
                        (s, e)
                    })
                    .collect(),
            };
            if kind == b'r' {
                let mut outs: Vec<Vec<u8>> = vec![Vec::new(); n as usize];
                let mut st = 0;
                let mut li = 0usize;
                while st < data.len() {
                    let end = data[st..]
                        .iter()
                        .position(|&c| c == sep)
                        .map_or(data.len(), |p| st + p + 1);
                    outs[li % n as usize].extend_from_slice(&data[st..end]);
                    li += 1;
                    st = end;
                }
                if let Some(k) = k {
                    let _ = std::io::stdout().write_all(&outs[(k - 1) as usize]);
                    return Ok(());
                }
                for o in outs {
                    if elide && o.is_empty() {
                        continue;
                    }
                    write_piece(namer, &o, verbose)?;
                }
                return Ok(());
            }
            if let Some(k) = k {
                let (s, e) = bounds[(k - 1) as usize];
                let _ = std::io::stdout().write_all(&data[s..e]);
                return Ok(());
            }
            for (s, e) in bounds {
                if elide && s == e {
                    continue;
                }
                write_piece(namer, &data[s..e], verbose)?;
            }
        }
    }
    Ok(())
}
