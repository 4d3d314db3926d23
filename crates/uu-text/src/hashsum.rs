//! `md5sum`, `sha1sum`, `sha224sum`, `sha256sum`, `sha384sum`,
//! `sha512sum`, `b2sum`: print or check digests (`-c`, `--tag`, `-b`/`-t`,
//! `--quiet`, `--status`, `--strict`, `-w`, `--ignore-missing`, `-z`;
//! `b2sum -l BITS`).

use std::ffi::{OsStr, OsString};
use std::io::Read;

use md5::Md5;
use sha1::Sha1;
use sha2::{Digest, Sha224, Sha256, Sha384, Sha512};

use crate::blake2b::{self, Blake2b};
use crate::common::bytes::{os_bytes, os_str, qf, records};
use crate::common::input::{err_text, finish, open, put, read_all, stdout};
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};

/// A digest algorithm by name.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Algo {
    /// MD5.
    Md5,
    /// SHA-1.
    Sha1,
    /// SHA-224.
    Sha224,
    /// SHA-256.
    Sha256,
    /// SHA-384.
    Sha384,
    /// SHA-512.
    Sha512,
    /// BLAKE2b with a digest of this many bytes (1..=64).
    Blake2b(usize),
}

impl Algo {
    /// The `--tag` name (`BLAKE2b-256` for a short BLAKE2b).
    pub fn tag(self) -> String {
        match self {
            Algo::Md5 => "MD5".into(),
            Algo::Sha1 => "SHA1".into(),
            Algo::Sha224 => "SHA224".into(),
            Algo::Sha256 => "SHA256".into(),
            Algo::Sha384 => "SHA384".into(),
            Algo::Sha512 => "SHA512".into(),
            Algo::Blake2b(blake2b::MAX_BYTES) => "BLAKE2b".into(),
            Algo::Blake2b(n) => format!("BLAKE2b-{}", n * 8),
        }
    }
    fn hex_len(self) -> usize {
        match self {
            Algo::Md5 => 32,
            Algo::Sha1 => 40,
            Algo::Sha224 => 56,
            Algo::Sha256 => 64,
            Algo::Sha384 => 96,
            Algo::Sha512 => 128,
            Algo::Blake2b(n) => n * 2,
        }
    }
}

/// Hand everything `r` yields to `eat`, in chunks.
fn read_chunks(r: &mut dyn Read, mut eat: impl FnMut(&[u8])) -> std::io::Result<()> {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let k = r.read(&mut buf)?;
        if k == 0 {
            return Ok(());
        }
        eat(&buf[..k]);
    }
}

fn hash_with<D: Digest>(r: &mut dyn Read) -> std::io::Result<Vec<u8>> {
    let mut d = D::new();
    read_chunks(r, |b| d.update(b))?;
    Ok(d.finalize().to_vec())
}

/// Hex digest of everything `r` yields.
pub fn digest(algo: Algo, r: &mut dyn Read) -> std::io::Result<String> {
    let raw = match algo {
        Algo::Md5 => hash_with::<Md5>(r)?,
        Algo::Sha1 => hash_with::<Sha1>(r)?,
        Algo::Sha224 => hash_with::<Sha224>(r)?,
        Algo::Sha256 => hash_with::<Sha256>(r)?,
        Algo::Sha384 => hash_with::<Sha384>(r)?,
        Algo::Sha512 => hash_with::<Sha512>(r)?,
        Algo::Blake2b(n) => {
            let mut d = Blake2b::new(n);
            read_chunks(r, |b| d.update(b))?;
            d.finalize()
        }
    };
    Ok(raw.iter().map(|b| format!("{:02x}", b)).collect())
}

const SPEC: &[OptSpec<&str>] = &[
    opt("b", Some('b'), Some("binary"), HasArg::No),
    opt("c", Some('c'), Some("check"), HasArg::No),
    opt("tag", None, Some("tag"), HasArg::No),
    opt("t", Some('t'), Some("text"), HasArg::No),
    opt("z", Some('z'), Some("zero"), HasArg::No),
    opt("ignore-missing", None, Some("ignore-missing"), HasArg::No),
    opt("quiet", None, Some("quiet"), HasArg::No),
    opt("status", None, Some("status"), HasArg::No),
    opt("strict", None, Some("strict"), HasArg::No),
    opt("w", Some('w'), Some("warn"), HasArg::No),
];

fn escape_name(name: &[u8]) -> (bool, Vec<u8>) {
    if !name.iter().any(|&c| c == b'\\' || c == b'\n' || c == b'\r') {
        return (false, name.to_vec());
    }
    let mut o = Vec::with_capacity(name.len() + 4);
    for &c in name {
        match c {
            b'\\' => o.extend_from_slice(b"\\\\"),
            b'\n' => o.extend_from_slice(b"\\n"),
            b'\r' => o.extend_from_slice(b"\\r"),
            _ => o.push(c),
        }
    }
    (true, o)
}

fn unescape_name(name: &[u8]) -> Option<Vec<u8>> {
    let mut o = Vec::with_capacity(name.len());
    let mut i = 0;
    while i < name.len() {
        if name[i] == b'\\' {
            match name.get(i + 1) {
                Some(b'\\') => o.push(b'\\'),
                Some(b'n') => o.push(b'\n'),
                Some(b'r') => o.push(b'\r'),
                _ => return None,
            }
            i += 2;
        } else {
            o.push(name[i]);
            i += 1;
        }
    }
    Some(o)
}

/// `b2sum`'s `-l BITS`: the digest length in bytes (0 and absent: 64).
fn blake2b_bytes(usage: &Usage, bits: Option<String>) -> Result<usize, i32> {
    let bits = match bits {
        None => return Ok(blake2b::MAX_BYTES),
        Some(b) => b,
    };
    let fail = |why: &str| {
        let prog = coreutils_core::prog(usage.prog);
        eprintln!("{}: invalid length: '{}'", prog, bits);
        if !why.is_empty() {
            eprintln!("{}: {}", prog, why);
        }
        1
    };
    let n: u64 = bits.parse().map_err(|_| fail(""))?;
    if n > blake2b::MAX_BYTES as u64 * 8 {
        return Err(fail("maximum digest length for 'BLAKE2b' is 512 bits"));
    }
    if n % 8 != 0 {
        return Err(fail("length is not a multiple of 8"));
    }
    Ok(if n == 0 {
        blake2b::MAX_BYTES
    } else {
        n as usize / 8
    })
}

/// Entry point shared by the digest utilities.
pub fn run(args: Vec<OsString>, prog: &'static str, mut algo: Algo) -> i32 {
    let usage = Usage::new(
        prog,
        "[OPTION]... [FILE]...\nPrint or check checksums.\n",
        1,
    );
    let mut spec = SPEC.to_vec();
    let blake = matches!(algo, Algo::Blake2b(_));
    if blake {
        spec.push(opt("l", Some('l'), Some("length"), HasArg::Required));
    }
    let p = match usage.parse(&Spec::gnu(&spec), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if blake {
        match blake2b_bytes(&usage, p.last_str("l")) {
            Ok(n) => algo = Algo::Blake2b(n),
            Err(c) => return c,
        }
    }
    let check = p.has("c");
    if p.has("tag") && check {
        return usage.fail("the --tag option is meaningless when verifying checksums");
    }
    if !check {
        for (o, n) in [
            ("ignore-missing", "--ignore-missing"),
            ("quiet", "--quiet"),
            ("status", "--status"),
            ("strict", "--strict"),
            ("w", "--warn"),
        ] {
            if p.has(o) {
                return usage.fail(&format!(
                    "the {} option is meaningful only when verifying checksums",
                    n
                ));
            }
        }
    }
    let files = if p.operands.is_empty() {
        vec![OsString::from("-")]
    } else {
        p.operands.clone()
    };
    if check {
        return check_files(&usage, &p, &files, algo);
    }
    let binary = p.opts.iter().rev().find_map(|o| match o.key {
        "b" => Some(true),
        "t" => Some(false),
        _ => None,
    });
    let tag = p.has("tag");
    let zero = p.has("z");
    let mut out = stdout();
    let mut status = 0;
    for f in &files {
        let res = open(f).and_then(|mut r| digest(algo, &mut *r));
        let h = match res {
            Ok(h) => h,
            Err(e) => {
                let _ = std::io::Write::flush(&mut out);
                eprintln!(
                    "{}: {}: {}",
                    coreutils_core::prog(prog),
                    qf(f),
                    err_text(&e)
                );
                status = 1;
                continue;
            }
        };
        let (esc, name) = if zero {
            (false, os_bytes(f).to_vec())
        } else {
            escape_name(os_bytes(f))
        };
        let mut line = Vec::new();
        if esc {
            line.push(b'\\');
        }
        if tag {
            line.extend_from_slice(algo.tag().as_bytes());
            line.extend_from_slice(b" (");
            line.extend_from_slice(&name);
            line.extend_from_slice(b") = ");
            line.extend_from_slice(h.as_bytes());
        } else {
            line.extend_from_slice(h.as_bytes());
            line.extend_from_slice(if binary == Some(true) { b" *" } else { b"  " });
            line.extend_from_slice(&name);
        }
        line.push(if zero { 0 } else { b'\n' });
        put(&mut out, &line);
    }
    finish(&mut out, prog, status)
}

/// The BLAKE2b of a check line: its tag's length (`BLAKE2b-256 (`), or for
/// an untagged line the length of its leading hex digits, as `b2sum -c`
/// takes it whatever `-l` says.
fn blake2b_of_line(l: &[u8]) -> Algo {
    if let Some(rest) = l.strip_prefix(b"BLAKE2b-") {
        let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
        let bits: usize = std::str::from_utf8(&rest[..digits])
            .ok()
            .and_then(|d| d.parse().ok())
            .unwrap_or(0);
        if bits % 8 == 0 && (8..=blake2b::MAX_BYTES * 8).contains(&bits) {
            return Algo::Blake2b(bits / 8);
        }
        return Algo::Blake2b(blake2b::MAX_BYTES);
    }
    let hex = l.iter().take_while(|c| c.is_ascii_hexdigit()).count();
    if hex % 2 == 0 && (2..=blake2b::MAX_BYTES * 2).contains(&hex) {
        Algo::Blake2b(hex / 2)
    } else {
        Algo::Blake2b(blake2b::MAX_BYTES)
    }
}

/// Parse a check line: (its algorithm, hex digest, file name).
fn parse_line(line: &[u8], algo: Algo) -> Option<(Algo, Vec<u8>, Vec<u8>)> {
    let (escaped, l) = match line.strip_prefix(b"\\") {
        Some(r) => (true, r),
        None => (false, line),
    };
    let algo = match algo {
        Algo::Blake2b(_) => blake2b_of_line(l),
        a => a,
    };
    let hl = algo.hex_len();
    let tag = algo.tag();
    let tag = tag.as_bytes();
    let name_of = |n: &[u8]| {
        if escaped {
            unescape_name(n)
        } else {
            Some(n.to_vec())
        }
    };
    if l.starts_with(tag) && l.get(tag.len()..tag.len() + 2) == Some(b" (") {
        let rest = &l[tag.len() + 2..];
        let pos = rest.windows(4).rposition(|w| w == b") = ")?;
        let hex = &rest[pos + 4..];
        if hex.len() != hl || !hex.iter().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        return Some((algo, hex.to_ascii_lowercase(), name_of(&rest[..pos])?));
    }
    if l.len() < hl + 2 {
        return None;
    }
    let hex = &l[..hl];
    if !hex.iter().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let sep = &l[hl..hl + 2];
    if sep != b"  " && sep != b" *" {
        return None;
    }
    let name = &l[hl + 2..];
    if name.is_empty() {
        return None;
    }
    Some((algo, hex.to_ascii_lowercase(), name_of(name)?))
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", n, if n == 1 { one } else { many })
}

fn check_files(
    usage: &Usage,
    p: &coreutils_core::args::Parsed<&'static str>,
    files: &[OsString],
    algo: Algo,
) -> i32 {
    let prog = coreutils_core::prog(usage.prog);
    let prog = prog.as_str();
    let (quiet, status_only, strict, warn, ignore_missing) = (
        p.has("quiet"),
        p.has("status"),
        p.has("strict"),
        p.has("w"),
        p.has("ignore-missing"),
    );
    let mut out = stdout();
    let mut status = 0;
    for f in files {
        let data = match read_all(f) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("{}: {}: {}", prog, qf(f), err_text(&e));
                status = 1;
                continue;
            }
        };
        let shown = if f == "-" {
            "standard input".to_string()
        } else {
            f.to_string_lossy().into_owned()
        };
        let (mut bad_format, mut mismatched, mut unreadable, mut good) =
            (0usize, 0usize, 0usize, 0usize);
        let mut matched_any = false;
        for (ln, raw) in records(&data, b'\n').enumerate() {
            let line = raw.strip_suffix(b"\r").unwrap_or(raw);
            let (line_algo, hex, name) = match parse_line(line, algo) {
                Some(x) => x,
                None => {
                    bad_format += 1;
                    if warn {
                        let _ = std::io::Write::flush(&mut out);
                        eprintln!(
                            "{}: {}: {}: improperly formatted {} checksum line",
                            prog,
                            shown,
                            ln + 1,
                            match algo {
                                // GNU names the family here, whatever -l says.
                                Algo::Blake2b(_) => "BLAKE2b".into(),
                                a => a.tag(),
                            }
                        );
                    }
                    continue;
                }
            };
            matched_any = true;
            let path: &OsStr = os_str(&name);
            let res = open(path).and_then(|mut r| digest(line_algo, &mut *r));
            let mut msg = name.clone();
            match res {
                Err(e) => {
                    if ignore_missing && e.kind() == std::io::ErrorKind::NotFound {
                        continue;
                    }
                    unreadable += 1;
                    let _ = std::io::Write::flush(&mut out);
                    eprintln!(
                        "{}: {}: {}",
                        prog,
                        String::from_utf8_lossy(&name),
                        err_text(&e)
                    );
                    if !status_only {
                        msg.extend_from_slice(b": FAILED open or read\n");
                        put(&mut out, &msg);
                    }
                }
                Ok(h) => {
                    if h.as_bytes() == &hex[..] {
                        good += 1;
                        if !quiet && !status_only {
                            msg.extend_from_slice(b": OK\n");
                            put(&mut out, &msg);
                        }
                    } else {
                        mismatched += 1;
                        if !status_only {
                            msg.extend_from_slice(b": FAILED\n");
                            put(&mut out, &msg);
                        }
                    }
                }
            }
        }
        let _ = std::io::Write::flush(&mut out);
        if !matched_any {
            eprintln!(
                "{}: {}: no properly formatted checksum lines found",
                prog, shown
            );
            status = 1;
            continue;
        }
        if !status_only {
            if bad_format > 0 {
                eprintln!(
                    "{}: WARNING: {} improperly formatted",
                    prog,
                    plural(bad_format, "line is", "lines are")
                );
            }
            if unreadable > 0 {
                eprintln!(
                    "{}: WARNING: {} could not be read",
                    prog,
                    plural(unreadable, "listed file", "listed files")
                );
            }
            if mismatched > 0 {
                eprintln!(
                    "{}: WARNING: {} did NOT match",
                    prog,
                    plural(mismatched, "computed checksum", "computed checksums")
                );
            }
        }
        if ignore_missing && good == 0 && mismatched == 0 && unreadable == 0 {
            eprintln!("{}: {}: no file was verified", prog, shown);
            status = 1;
        }
        if mismatched > 0 || unreadable > 0 || (strict && bad_format > 0) {
            status = 1;
        }
    }
    finish(&mut out, prog, status)
}

/// `md5sum`.
pub fn md5_main(a: Vec<OsString>) -> i32 {
    run(a, "md5sum", Algo::Md5)
}
/// `sha1sum`.
pub fn sha1_main(a: Vec<OsString>) -> i32 {
    run(a, "sha1sum", Algo::Sha1)
}
/// `sha224sum`.
pub fn sha224_main(a: Vec<OsString>) -> i32 {
    run(a, "sha224sum", Algo::Sha224)
}
/// `sha256sum`.
pub fn sha256_main(a: Vec<OsString>) -> i32 {
    run(a, "sha256sum", Algo::Sha256)
}
/// `sha384sum`.
pub fn sha384_main(a: Vec<OsString>) -> i32 {
    run(a, "sha384sum", Algo::Sha384)
}
/// `sha512sum`.
pub fn sha512_main(a: Vec<OsString>) -> i32 {
    run(a, "sha512sum", Algo::Sha512)
}
/// `b2sum`.
pub fn b2_main(a: Vec<OsString>) -> i32 {
    run(a, "b2sum", Algo::Blake2b(blake2b::MAX_BYTES))
}
