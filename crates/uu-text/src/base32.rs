//! `base32`: RFC 4648 base32, with `base64`'s options and messages.

use std::ffi::OsString;

use crate::base64::{run, Codec};
use coreutils_core::args::Usage;

const USAGE: Usage = Usage::new(
    "base32",
    "[OPTION]... [FILE]\nBase32 encode or decode FILE, or standard input, to standard output.\n",
    1,
);

const ALPHA: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// Characters of a final group that carry data, by bytes left (1-4).
const DATA_CHARS: [usize; 5] = [0, 2, 4, 5, 7];

/// Encode with `=` padding to whole groups of 8, no line breaks.
pub fn encode(data: &[u8]) -> Vec<u8> {
    let mut o = Vec::with_capacity((data.len() + 4) / 5 * 8);
    for ch in data.chunks(5) {
        let mut n: u64 = 0;
        for i in 0..5 {
            n = (n << 8) | u64::from(*ch.get(i).unwrap_or(&0));
        }
        let used = if ch.len() == 5 {
            8
        } else {
            DATA_CHARS[ch.len()]
        };
        for i in 0..8 {
            o.push(if i < used {
                ALPHA[(n >> (35 - 5 * i)) as usize & 31]
            } else {
                b'='
            });
        }
    }
    o
}

fn value(c: u8) -> Option<u64> {
    match c {
        b'A'..=b'Z' => Some(u64::from(c - b'A')),
        b'2'..=b'7' => Some(u64::from(c - b'2' + 26)),
        _ => None,
    }
}

/// Decode, skipping newlines (and any other non-alphabet byte when
/// `ignore`); a group must be whole, padded with `=` after 2, 4, 5 or 7
/// data characters. On invalid input returns what decoded so far as Err.
pub fn decode(data: &[u8], ignore: bool) -> Result<Vec<u8>, Vec<u8>> {
    let mut o = Vec::with_capacity(data.len() / 8 * 5);
    let mut group: Vec<u8> = Vec::with_capacity(8);
    for &c in data {
        if c == b'\n' || (ignore && c != b'=' && value(c).is_none()) {
            continue;
        }
        group.push(c);
        if group.len() == 8 {
            if !flush(&group, &mut o) {
                return Err(o);
            }
            group.clear();
        }
    }
    if group.is_empty() {
        Ok(o)
    } else {
        flush(&group, &mut o);
        Err(o)
    }
}

/// Decodes one group (8 characters, or the short end of the input) into
/// `o`; false when it is not valid base32.
fn flush(group: &[u8], o: &mut Vec<u8>) -> bool {
    let data = group.iter().take_while(|&&c| c != b'=').count();
    let mut n: u64 = 0;
    for &c in &group[..data] {
        match value(c) {
            Some(v) => n = (n << 5) | v,
            None => {
                // the bytes before the bad character still decode
                emit(
                    n,
                    group[..data]
                        .iter()
                        .take_while(|c| value(**c).is_some())
                        .count(),
                    o,
                );
                return false;
            }
        }
    }
    let bytes = data * 5 / 8;
    emit(n, data, o);
    let padded = group.len() == 8 && group[data..].iter().all(|&c| c == b'=');
    padded && (data == 8 || DATA_CHARS[bytes] == data)
}

/// Appends the whole bytes that `chars` characters (value `n`) carry.
fn emit(n: u64, chars: usize, o: &mut Vec<u8>) {
    let bits = chars * 5;
    for i in 0..bits / 8 {
        o.push((n >> (bits - 8 * (i + 1))) as u8);
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

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn roundtrip() {
        assert_eq!(encode(b"hi\n"), b"NBUQU===");
        assert_eq!(encode(b"hello"), b"NBSWY3DP");
        assert_eq!(encode(b""), b"");
        for s in [&b"a"[..], b"ab", b"abc", b"abcd", b"abcde", b"abcdef"] {
            assert_eq!(decode(&encode(s), false).unwrap(), s);
        }
        assert_eq!(decode(b"NBUQ====\n", false).unwrap(), b"hi");
        assert!(decode(b"NBU=====", false).is_err());
        assert!(decode(b"NB1Q====", false).is_err());
        assert_eq!(decode(b"NB!UQ====", true).unwrap(), b"hi");
    }
}
