//! `cksum`: POSIX CRC-32 checksum and byte count (GNU's default
//! algorithm), or a named digest with `-a`.

use std::ffi::OsString;
use std::io::Read;

use crate::common::bytes::{os_bytes, qf};
use crate::common::input::{err_text, finish, open, put, stdout};
use crate::hashsum::{digest, Algo};
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};

const USAGE: Usage = Usage::new(
    "cksum",
    "[OPTION]... [FILE]...\nPrint CRC checksum and byte counts of each FILE.\n",
    1,
);

const SPEC: &[OptSpec<&str>] = &[
    opt("a", Some('a'), Some("algorithm"), HasArg::Required),
    opt("untagged", None, Some("untagged"), HasArg::No),
    opt("l", Some('l'), Some("length"), HasArg::Required),
];

fn table() -> [u32; 256] {
    let mut t = [0u32; 256];
    for (i, e) in t.iter_mut().enumerate() {
        let mut c = (i as u32) << 24;
        for _ in 0..8 {
            c = if c & 0x8000_0000 != 0 {
                (c << 1) ^ 0x04C1_1DB7
            } else {
                c << 1
            };
        }
        *e = c;
    }
    t
}

/// CRC and length of everything `r` yields, as POSIX `cksum` defines.
pub fn crc(r: &mut dyn Read) -> std::io::Result<(u32, u64)> {
    let t = table();
    let mut c: u32 = 0;
    let mut len: u64 = 0;
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let k = r.read(&mut buf)?;
        if k == 0 {
            break;
        }
        for &b in &buf[..k] {
            c = (c << 8) ^ t[((c >> 24) as u8 ^ b) as usize];
        }
        len += k as u64;
    }
    let mut n = len;
    while n > 0 {
        c = (c << 8) ^ t[((c >> 24) as u8 ^ (n as u8)) as usize];
        n >>= 8;
    }
    Ok((!c, len))
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let algo = match p.last_str("a").as_deref() {
        None | Some("crc") => None,
        Some("md5") => Some(Algo::Md5),
        Some("sha1") => Some(Algo::Sha1),
        Some("sha224") => Some(Algo::Sha224),
        Some("sha256") => Some(Algo::Sha256),
        Some("sha384") => Some(Algo::Sha384),
        Some("sha512") => Some(Algo::Sha512),
        Some(o) => {
            return USAGE.fail(&format!(
                "invalid argument '{}' for '--algorithm'\nValid arguments are:\n  - 'bsd'\n  - 'sysv'\n  - 'crc'\n  - 'md5'\n  - 'sha1'\n  - 'sha224'\n  - 'sha256'\n  - 'sha384'\n  - 'sha512'\n  - 'blake2b'\n  - 'sm3'",
                o
            ))
        }
    };
    let named = !p.operands.is_empty();
    let files = if named {
        p.operands.clone()
    } else {
        vec![OsString::from("-")]
    };
    let mut out = stdout();
    let mut status = 0;
    for f in &files {
        let mut line = Vec::new();
        let res = open(f).and_then(|mut r| match algo {
            None => crc(&mut *r).map(|(c, l)| {
                line.extend_from_slice(format!("{} {}", c, l).as_bytes());
                if named {
                    line.push(b' ');
                    line.extend_from_slice(os_bytes(f));
                }
            }),
            Some(a) => digest(a, &mut *r).map(|h| {
                if p.has("untagged") {
                    line.extend_from_slice(format!("{}  ", h).as_bytes());
                    line.extend_from_slice(os_bytes(f));
                } else {
                    line.extend_from_slice(format!("{} (", a.tag()).as_bytes());
                    line.extend_from_slice(os_bytes(f));
                    line.extend_from_slice(format!(") = {}", h).as_bytes());
                }
            }),
        });
        match res {
            Ok(()) => {
                line.push(b'\n');
                put(&mut out, &line);
            }
            Err(e) => {
                let _ = std::io::Write::flush(&mut out);
                eprintln!(
                    "{}: {}: {}",
                    coreutils_core::prog("cksum"),
                    qf(f),
                    err_text(&e)
                );
                status = 1;
            }
        }
    }
    finish(&mut out, "cksum", status)
}
