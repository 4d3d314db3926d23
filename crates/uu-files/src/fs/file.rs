//! `file [-bLhi] [--mime-type] FILE...`: guess file types from content
//! (magic numbers for common formats, then text classification), phrased
//! as file(1) 5.x phrases them.

use crate::misc::datetime::{strftime, Time};
use coreutils_core::args::{long, std_opts, HasArg, LongOpt, HELP, VERSION};
use coreutils_core::bytes::{os_bytes, path_bytes};
use coreutils_core::error::strerror;
use coreutils_core::io::{exit_on_write_error, stdout};
use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::{Read, Write};
use std::path::Path;

const USAGE: &str = "Usage: file [-bcCdEhikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding]
            [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>]
            [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet]
            <file> ...
       file -C [-m <magicfiles>]
       file [--help]
";

const MIME_TYPE: char = '\u{e001}';
const LONGS: &[LongOpt] = &[
    long("brief", HasArg::No, 'b'),
    long("dereference", HasArg::No, 'L'),
    long("no-dereference", HasArg::No, 'h'),
    long("mime", HasArg::No, 'i'),
    long("mime-type", HasArg::No, MIME_TYPE),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

/// A description and a MIME type with charset.
pub struct Kind {
    /// Human description.
    pub desc: String,
    /// MIME type.
    pub mime: String,
    /// MIME charset.
    pub charset: &'static str,
}

fn kind(desc: impl Into<String>, mime: &str, charset: &'static str) -> Kind {
    Kind {
        desc: desc.into(),
        mime: mime.into(),
        charset,
    }
}

fn le16(b: &[u8], i: usize) -> u32 {
    b.get(i..i + 2)
        .map_or(0, |x| u16::from_le_bytes([x[0], x[1]]) as u32)
}

fn le32(b: &[u8], i: usize) -> u32 {
    b.get(i..i + 4)
        .map_or(0, |x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]))
}

fn be32(b: &[u8], i: usize) -> u32 {
    b.get(i..i + 4)
        .map_or(0, |x| u32::from_be_bytes([x[0], x[1], x[2], x[3]]))
}

fn gzip(b: &[u8], total_tail: Option<u32>) -> Kind {
    let mut d = String::from("gzip compressed data");
    let flags = b.get(3).copied().unwrap_or(0);
    let mtime = le32(b, 4);
    if flags & 0x08 != 0 {
        let start = 10
            + if flags & 0x04 != 0 {
                2 + le16(b, 10) as usize
            } else {
                0
            };
        if let Some(rest) = b.get(start..) {
            let end = rest.iter().position(|&c| c == 0).unwrap_or(rest.len());
            let _ = write!(d, ", was \"{}\"", String::from_utf8_lossy(&rest[..end]));
        }
    }
    if mtime != 0 {
        let _ = write!(
            d,
            ", last modified: {}",
            strftime(
                "%a %b %e %H:%M:%S %Y",
                Time {
                    secs: mtime as i64,
                    nanos: 0
                }
            )
        );
    }
    match b.get(8) {
        Some(2) => d.push_str(", max compression"),
        Some(4) => d.push_str(", max speed"),
        _ => {}
    }
    let os = match b.get(9) {
        Some(0) => Some("FAT filesystem (MS-DOS, OS/2, NT)"),
        Some(3) => Some("Unix"),
        Some(7) => Some("Macintosh"),
        Some(11) => Some("NTFS filesystem (NT)"),
        _ => None,
    };
    if let Some(o) = os {
        let _ = write!(d, ", from {}", o);
    }
    if let Some(sz) = total_tail {
        let _ = write!(d, ", original size modulo 2^32 {}", sz);
    }
    kind(d, "application/gzip", "binary")
}

fn elf(b: &[u8]) -> Kind {
    let bits = if b.get(4) == Some(&2) {
        "64-bit"
    } else {
        "32-bit"
    };
    let le = b.get(5) != Some(&2);
    let mut d = format!("ELF {} {}", bits, if le { "LSB" } else { "MSB" });
    if b.len() >= 20 {
        let t = if le {
            le16(b, 16)
        } else {
            u16::from_be_bytes([b[16], b[17]]) as u32
        };
        let m = if le {
            le16(b, 18)
        } else {
            u16::from_be_bytes([b[18], b[19]]) as u32
        };
        let ty = match t {
            1 => "relocatable",
            2 => "executable",
            3 => "pie executable",
            4 => "core file",
            _ => "",
        };
        if !ty.is_empty() {
            d.push(' ');
            d.push_str(ty);
        }
        let arch = match m {
            3 => "Intel 80386",
            0x28 => "ARM",
            0x3e => "x86-64",
            0xb7 => "ARM aarch64",
            0xf3 => "UCB RISC-V",
            _ => "",
        };
        if !arch.is_empty() {
            d.push_str(", ");
            d.push_str(arch);
        }
    }
    kind(d, "application/x-executable", "binary")
}

fn png(b: &[u8]) -> Kind {
    if b.len() >= 29 && &b[12..16] == b"IHDR" {
        let (w, h) = (be32(b, 16), be32(b, 20));
        let depth = b[24];
        let color = match b[25] {
            0 => "grayscale",
            2 => "RGB",
            3 => "colormap",
            4 => "gray+alpha",
            6 => "RGBA",
            _ => "unknown",
        };
        let inter = if b[28] == 1 {
            "interlaced"
        } else {
            "non-interlaced"
        };
        return kind(
            format!(
                "PNG image data, {} x {}, {}-bit/color {}, {}",
                w, h, depth, color, inter
            ),
            "image/png",
            "binary",
        );
    }
    kind("data", "application/octet-stream", "binary")
}

fn interpreter(line: &[u8]) -> (String, &'static str) {
    let s = String::from_utf8_lossy(&line[2..]).trim().to_string();
    let mut words = s.split_whitespace();
    let first = words.next().unwrap_or("");
    let prog = if first.ends_with("/env") {
        words.find(|w| !w.starts_with('-')).unwrap_or("")
    } else {
        first.rsplit('/').next().unwrap_or("")
    };
    let prog = prog.rsplit('/').next().unwrap_or(prog);
    let (name, mime) = match prog {
        "sh" | "dash" | "ash" => ("POSIX shell script", "text/x-shellscript"),
        "bash" => ("Bourne-Again shell script", "text/x-shellscript"),
        "zsh" => ("Paul Falstad's zsh script", "text/x-shellscript"),
        p if p.starts_with("python") => ("Python script", "text/x-script.python"),
        p if p.starts_with("perl") => ("Perl script", "text/x-perl"),
        p if p.starts_with("ruby") => ("Ruby script", "text/x-ruby"),
        "node" | "nodejs" => ("Node.js script", "application/javascript"),
        "awk" | "gawk" | "mawk" => ("awk or perl script", "text/x-awk"),
        _ => return (format!("a {} script", s), "text/plain"),
    };
    (name.to_string(), mime)
}

/// Minimal JSON validation (file(1) says "JSON text data" for objects/arrays).
fn is_json(b: &[u8]) -> bool {
    json_doc(b, true)
}

/// Whether `b` is one JSON document (an object or array when `container`).
fn json_doc(b: &[u8], container: bool) -> bool {
    fn ws(b: &[u8], mut i: usize) -> usize {
        while i < b.len() && b" \t\r\n".contains(&b[i]) {
            i += 1;
        }
        i
    }
    fn value(b: &[u8], i: usize, depth: usize) -> Option<usize> {
        if depth > 256 {
            return None;
        }
        let i = ws(b, i);
        match *b.get(i)? {
            b'{' | b'[' => {
                let close = if b[i] == b'{' { b'}' } else { b']' };
                let obj = b[i] == b'{';
                let mut j = ws(b, i + 1);
                if b.get(j) == Some(&close) {
                    return Some(j + 1);
                }
                loop {
                    if obj {
                        j = ws(b, j);
                        if b.get(j) != Some(&b'"') {
                            return None;
                        }
                        j = value(b, j, depth + 1)?;
                        j = ws(b, j);
                        if b.get(j) != Some(&b':') {
                            return None;
                        }
                        j += 1;
                    }
                    j = ws(b, value(b, j, depth + 1)?);
                    match b.get(j) {
                        Some(&c) if c == close => return Some(j + 1),
                        Some(b',') => j += 1,
                        _ => return None,
                    }
                }
            }
            b'"' => {
                let mut j = i + 1;
                while j < b.len() {
                    match b[j] {
                        b'\\' => j += 2,
                        b'"' => return Some(j + 1),
                        c if c < 0x20 => return None,
                        _ => j += 1,
                    }
                }
                None
            }
            b't' => b[i..].starts_with(b"true").then(|| i + 4),
            b'f' => b[i..].starts_with(b"false").then(|| i + 5),
            b'n' => b[i..].starts_with(b"null").then(|| i + 4),
            c if c == b'-' || c.is_ascii_digit() => {
                let mut j = i + 1;
                while j < b.len() && (b[j].is_ascii_digit() || b"+-.eE".contains(&b[j])) {
                    j += 1;
                }
                Some(j)
            }
            _ => None,
        }
    }
    let start = ws(b, 0);
    if container && !matches!(b.get(start), Some(b'{') | Some(b'[')) {
        return false;
    }
    matches!(value(b, start, 0), Some(end) if ws(b, end) == b.len())
}

/// Several lines, each a JSON object or array.
fn is_ndjson(b: &[u8]) -> bool {
    let lines: Vec<&[u8]> = b
        .split(|&c| c == b'\n')
        .filter(|l| !l.iter().all(|c| c.is_ascii_whitespace()))
        .collect();
    lines.len() >= 2 && is_json(lines[0]) && lines.iter().all(|l| json_doc(l, false))
}

/// Several lines with the same number (>1) of comma-separated fields.
fn is_csv(b: &[u8]) -> bool {
    let count = |l: &[u8]| {
        let mut n = 1;
        let mut q = false;
        for &c in l {
            match c {
                b'"' => q = !q,
                b',' if !q => n += 1,
                _ => {}
            }
        }
        n
    };
    let lines: Vec<&[u8]> = b.split(|&c| c == b'\n').filter(|l| !l.is_empty()).collect();
    if lines.len() < 2 {
        return false;
    }
    let n = count(lines[0]);
    n > 1 && lines.iter().all(|l| count(l) == n)
}

fn text_suffix(b: &[u8]) -> String {
    let (mut crlf, mut lf, mut cr) = (0, 0, 0);
    let mut longest = 0;
    let mut cur = 0;
    let mut esc = false;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\r' if b.get(i + 1) == Some(&b'\n') => {
                crlf += 1;
                longest = longest.max(cur);
                cur = 0;
                i += 1;
            }
            b'\r' => {
                cr += 1;
                longest = longest.max(cur);
                cur = 0;
            }
            b'\n' => {
                lf += 1;
                longest = longest.max(cur);
                cur = 0;
            }
            0x1b => {
                esc = true;
                cur += 1;
            }
            _ => cur += 1,
        }
        i += 1;
    }
    longest = longest.max(cur);
    let mut s = String::new();
    if longest > 300 {
        let _ = write!(s, ", with very long lines ({})", longest);
    }
    let mut kinds = Vec::new();
    if crlf > 0 {
        kinds.push("CRLF");
    }
    if cr > 0 {
        kinds.push("CR");
    }
    if lf > 0 && !kinds.is_empty() {
        kinds.push("LF");
    }
    if !kinds.is_empty() {
        let _ = write!(s, ", with {} line terminators", kinds.join(", "));
    } else if lf == 0 {
        s.push_str(", with no line terminators");
    }
    if esc {
        s.push_str(", with escape sequences");
    }
    s
}

fn text_kind(b: &[u8]) -> Option<(String, &'static str)> {
    let texty = |c: u8| (0x07..=0x0d).contains(&c) || c == 0x1b || (0x20..0x7f).contains(&c);
    if b.iter().all(|&c| texty(c)) {
        return Some(("ASCII text".into(), "us-ascii"));
    }
    if let Some(rest) = b.strip_prefix(b"\xef\xbb\xbf") {
        if std::str::from_utf8(rest).is_ok() {
            return Some(("Unicode text, UTF-8 (with BOM) text".into(), "utf-8"));
        }
    }
    if b.starts_with(b"\xff\xfe") || b.starts_with(b"\xfe\xff") {
        let e = if b[0] == 0xff { "little" } else { "big" };
        return Some((
            format!("Unicode text, UTF-16, {}-endian text", e),
            "utf-16le",
        ));
    }
    if let Ok(s) = std::str::from_utf8(b) {
        if s.chars()
            .all(|c| !c.is_control() || "\x07\x08\t\n\x0b\x0c\r\x1b".contains(c))
        {
            return Some(("Unicode text, UTF-8 text".into(), "utf-8"));
        }
    }
    if b.iter().all(|&c| texty(c) || c >= 0xa0) {
        return Some(("ISO-8859 text".into(), "iso-8859-1"));
    }
    if b.iter().all(|&c| texty(c) || c >= 0x80) {
        return Some(("Non-ISO extended-ASCII text".into(), "unknown-8bit"));
    }
    None
}

/// Classify file contents (`head` is the start, `tail4` the last 4 bytes).
pub fn classify(head: &[u8], tail4: Option<u32>) -> Kind {
    let b = head;
    if b.is_empty() {
        return kind("empty", "inode/x-empty", "binary");
    }
    if b.starts_with(b"\x7fELF") {
        return elf(b);
    }
    if b.starts_with(b"\0asm") {
        return kind(
            format!(
                "WebAssembly (wasm) binary module version 0x{:x} (MVP)",
                le32(b, 4)
            ),
            "application/wasm",
            "binary",
        );
    }
    if b.starts_with(b"\x1f\x8b") {
        return gzip(b, tail4);
    }
    if b.starts_with(b"PK\x03\x04") {
        let v = le16(b, 4);
        let method = match le16(b, 8) {
            0 => "store".to_string(),
            8 => "deflate".to_string(),
            m => m.to_string(),
        };
        return kind(
            format!(
                "Zip archive data, at least v{}.{} to extract, compression method={}",
                v / 10,
                v % 10,
                method
            ),
            "application/zip",
            "binary",
        );
    }
    if b.len() > 262 && &b[257..262] == b"ustar" {
        let gnu = &b[257..265] == b"ustar  \0";
        return kind(
            if gnu {
                "POSIX tar archive (GNU)"
            } else {
                "POSIX tar archive"
            },
            "application/x-tar",
            "binary",
        );
    }
    if b.starts_with(b"\x89PNG\r\n\x1a\n") {
        return png(b);
    }
    if b.starts_with(b"\xff\xd8\xff") {
        return kind("JPEG image data", "image/jpeg", "binary");
    }
    if b.starts_with(b"GIF87a") || b.starts_with(b"GIF89a") {
        return kind(
            format!(
                "GIF image data, version {}, {} x {}",
                String::from_utf8_lossy(&b[3..6]),
                le16(b, 6),
                le16(b, 8)
            ),
            "image/gif",
            "binary",
        );
    }
    if b.starts_with(b"%PDF-") {
        let v: String = b[5..]
            .iter()
            .take_while(|c| c.is_ascii_digit() || **c == b'.')
            .map(|&c| c as char)
            .collect();
        return kind(
            format!("PDF document, version {}", v),
            "application/pdf",
            "binary",
        );
    }
    if b.starts_with(b"BZh") {
        return kind(
            "bzip2 compressed data, block size = 900k",
            "application/x-bzip2",
            "binary",
        );
    }
    if b.starts_with(b"\xfd7zXZ\0") {
        return kind(
            "XZ compressed data, checksum CRC64",
            "application/x-xz",
            "binary",
        );
    }
    if let Some((t, cs)) = text_kind(b) {
        if b.starts_with(b"#!") {
            let line_end = b.iter().position(|&c| c == b'\n').unwrap_or(b.len());
            let (name, mime) = interpreter(&b[..line_end]);
            return kind(
                format!(
                    "{}, {} executable{}",
                    name,
                    t,
                    text_suffix(b).replace(", with no line terminators", "")
                ),
                mime,
                cs,
            );
        }
        if is_json(b) {
            return kind("JSON text data", "application/json", cs);
        }
        if is_ndjson(b) {
            return kind(
                "New Line Delimited JSON text data",
                "application/x-ndjson",
                cs,
            );
        }
        if is_csv(b) {
            return kind("CSV text", "text/csv", cs);
        }
        return kind(format!("{}{}", t, text_suffix(b)), "text/plain", cs);
    }
    kind("data", "application/octet-stream", "binary")
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match coreutils_core::args::parse(&args[1.min(args.len())..], "bLhiz", LONGS) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{}: {}", coreutils_core::prog("file"), e.message);
            eprint!("{}", USAGE);
            return 1;
        }
    };
    if let Some(c) = std_opts(
        "file",
        &p,
        "Usage: file [-bLhi] [--mime-type] FILE...\nDetermine type of FILEs.\n",
    ) {
        return c;
    }
    if p.operands.is_empty() {
        eprint!("{}", USAGE);
        return 1;
    }
    let brief = p.has('b');
    let follow = p
        .opts
        .iter()
        .rev()
        .find(|o| o.key == 'L' || o.key == 'h')
        .map_or(false, |o| o.key == 'L');
    let mime = p.has('i');
    let mime_type = p.has(MIME_TYPE);
    let width = p
        .operands
        .iter()
        .map(|o| String::from_utf8_lossy(os_bytes(o)).chars().count())
        .max()
        .unwrap_or(0);
    let mut out = Vec::new();
    for f in &p.operands {
        let path = Path::new(f);
        let k: Kind = (|| {
            let lm = match coreutils_core::fs::symlink_metadata(path) {
                Ok(m) => m,
                Err(e) => {
                    return kind(
                        format!("cannot open `{}' ({})", f.to_string_lossy(), strerror(&e)),
                        "cannot open",
                        "binary",
                    )
                }
            };
            if lm.file_type().is_symlink() && !follow {
                let t = coreutils_core::fs::read_link(path)
                    .map(|t| String::from_utf8_lossy(path_bytes(&t)).into_owned())
                    .unwrap_or_default();
                let broken = coreutils_core::fs::metadata(path).is_err();
                return kind(
                    format!(
                        "{}symbolic link to {}",
                        if broken { "broken " } else { "" },
                        t
                    ),
                    "inode/symlink",
                    "binary",
                );
            }
            let m = match coreutils_core::fs::metadata(path) {
                Ok(m) => m,
                Err(e) => {
                    return kind(
                        format!("cannot open `{}' ({})", f.to_string_lossy(), strerror(&e)),
                        "cannot open",
                        "binary",
                    )
                }
            };
            if m.is_dir() {
                return kind("directory", "inode/directory", "binary");
            }
            let mut head = Vec::with_capacity(64 * 1024);
            let mut tail = None;
            match coreutils_core::fs::open(path) {
                Ok(mut h) => {
                    let _ = (&mut h).take(64 * 1024).read_to_end(&mut head);
                    if m.len() >= 4 && head.starts_with(b"\x1f\x8b") {
                        use std::io::{Seek, SeekFrom};
                        let mut t = [0u8; 4];
                        if h.seek(SeekFrom::End(-4)).is_ok() && h.read_exact(&mut t).is_ok() {
                            tail = Some(u32::from_le_bytes(t));
                        }
                    }
                }
                Err(e) => {
                    return kind(
                        format!("cannot open `{}' ({})", f.to_string_lossy(), strerror(&e)),
                        "cannot open",
                        "binary",
                    )
                }
            }
            classify(&head, tail)
        })();
        if !brief {
            out.extend_from_slice(os_bytes(f));
            out.push(b':');
            let n = String::from_utf8_lossy(os_bytes(f)).chars().count();
            out.extend(std::iter::repeat(b' ').take(width - n + 1));
        }
        let text = if mime_type {
            k.mime.clone()
        } else if mime {
            format!("{}; charset={}", k.mime, k.charset)
        } else {
            k.desc.clone()
        };
        out.extend_from_slice(text.as_bytes());
        out.push(b'\n');
    }
    let mut so = stdout();
    if let Err(e) = so.write_all(&out).and_then(|_| so.flush()) {
        exit_on_write_error(e);
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn classifies() {
        assert_eq!(classify(b"hello\n", None).desc, "ASCII text");
        assert_eq!(
            classify(b"a\r\nb\r\n", None).desc,
            "ASCII text, with CRLF line terminators"
        );
        assert_eq!(classify(b"{\"a\": [1, 2]}\n", None).desc, "JSON text data");
        assert_eq!(
            classify(b"#!/bin/sh\necho\n", None).desc,
            "POSIX shell script, ASCII text executable"
        );
        assert_eq!(
            classify(b"\0asm\x01\0\0\0", None).desc,
            "WebAssembly (wasm) binary module version 0x1 (MVP)"
        );
        assert_eq!(classify(b"\xe9t\xe9\n", None).desc, "ISO-8859 text");
        assert_eq!(classify(b"", None).desc, "empty");
    }
}
