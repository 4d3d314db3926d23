//! `base64`: encode (wrapping at `-w` columns) or decode (`-d`, `-i`).
//! The option handling is shared with `base32` (see [`run`]).

use std::ffi::OsString;
use std::io::Write;

use crate::common::bytes::{q, qf};
use crate::common::input::{err_text, finish, put, read_all, stdout};
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};

const USAGE: Usage = Usage::new(
    "base64",
    "[OPTION]... [FILE]\nBase64 encode or decode FILE, or standard input, to standard output.\n",
    1,
);

/// Decoded bytes, or Err(what decoded before the invalid input).
pub type Decoded = Result<Vec<u8>, Vec<u8>>;

/// One of the RFC 4648 encodings a `base64`-like utility speaks.
pub struct Codec {
    pub usage: Usage,
    pub encode: fn(&[u8]) -> Vec<u8>,
    /// Decodes, skipping garbage when asked (`-i`).
    pub decode: fn(&[u8], bool) -> Decoded,
}

const SPEC: &[OptSpec<&str>] = &[
    opt("d", Some('d'), Some("decode"), HasArg::No),
    opt("i", Some('i'), Some("ignore-garbage"), HasArg::No),
    opt("w", Some('w'), Some("wrap"), HasArg::Required),
];

use coreutils_core::base64::{encode, value};

/// Decode base64, skipping newlines (and any non-alphabet byte when
/// `ignore` is set). On invalid input returns what decoded so far as Err.
pub fn decode(data: &[u8], ignore: bool) -> Result<Vec<u8>, Vec<u8>> {
    let mut o = Vec::with_capacity(data.len() / 4 * 3);
    let mut acc: u32 = 0;
    let mut n = 0;
    let mut pad = 0;
    for &c in data {
        if c == b'\n' {
            continue;
        }
        if c == b'=' {
            if n < 2 {
                if ignore {
                    continue;
                }
                return Err(o);
            }
            pad += 1;
            if n + pad == 4 {
                if n == 2 {
                    o.push((acc >> 4) as u8);
                } else {
                    o.push((acc >> 10) as u8);
                    o.push((acc >> 2) as u8);
                }
                acc = 0;
                n = 0;
                pad = 0;
            }
            continue;
        }
        match value(c) {
            Some(v) => {
                if pad > 0 {
                    return Err(o);
                }
                acc = (acc << 6) | v;
                n += 1;
                if n == 4 {
                    o.push((acc >> 16) as u8);
                    o.push((acc >> 8) as u8);
                    o.push(acc as u8);
                    acc = 0;
                    n = 0;
                }
            }
            None if ignore => {}
            None => return Err(o),
        }
    }
    if pad > 0 {
        return Err(o);
    }
    match n {
        0 => Ok(o),
        2 => {
            o.push((acc >> 4) as u8);
            Err(o)
        }
        3 => {
            o.push((acc >> 10) as u8);
            o.push((acc >> 2) as u8);
            Err(o)
        }
        _ => Err(o),
    }
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    run(
        &Codec {
            usage: USAGE,
            encode,
            decode,
        },
        args,
    )
}

/// A `base64`-like utility over `codec`: options, input, wrapping, errors.
pub fn run(codec: &Codec, args: Vec<OsString>) -> i32 {
    let usage = &codec.usage;
    let name = usage.prog;
    let p = match usage.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let wrap = match p.last_str("w") {
        Some(s) => match s.parse::<usize>() {
            Ok(n) => n,
            Err(_) => {
                return usage.die(
                    1,
                    &format!("invalid wrap size: {}", q(std::ffi::OsStr::new(&s))),
                )
            }
        },
        None => 76,
    };
    if p.operands.len() > 1 {
        return usage.fail(&format!("extra operand {}", q(&p.operands[1])));
    }
    let f = p
        .operands
        .first()
        .cloned()
        .unwrap_or_else(|| OsString::from("-"));
    let data = match read_all(&f) {
        Ok(d) => d,
        Err(e) => return usage.die(1, &format!("{}: {}", qf(&f), err_text(&e))),
    };
    let mut out = stdout();
    if p.has("d") {
        match (codec.decode)(&data, p.has("i")) {
            Ok(d) => {
                put(&mut out, &d);
                finish(&mut out, name, 0)
            }
            Err(partial) => {
                put(&mut out, &partial);
                let _ = out.flush();
                usage.die(1, "invalid input")
            }
        }
    } else {
        let enc = (codec.encode)(&data);
        if wrap == 0 {
            put(&mut out, &enc);
        } else {
            for ch in enc.chunks(wrap) {
                put(&mut out, ch);
                put(&mut out, b"\n");
            }
        }
        finish(&mut out, name, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn roundtrip() {
        assert_eq!(encode(b"hello"), b"aGVsbG8=");
        assert_eq!(decode(b"aGVsbG8=\n", false).unwrap(), b"hello");
        assert_eq!(decode(b"aGVs\nbG8h", false).unwrap(), b"hello!");
        assert!(decode(b"a$b", false).is_err());
        assert_eq!(decode(b"a$GVsbG8=", true).unwrap(), b"hello");
    }
}
