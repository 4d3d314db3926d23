//! `shuf`: random permutations of lines, `-e` arguments or an `-i LO-HI`
//! range; `-n` count, `-r` repeat, `--random-source`, `-o`, `-z`.

use std::collections::hash_map::RandomState;
use std::ffi::OsString;
use std::hash::{BuildHasher, Hasher};
use std::io::Write;

use crate::common::bytes::{disp, os_bytes, q, qf, records};
use crate::common::input::{err_text, read_all};
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};

const USAGE: Usage = Usage::new("shuf", "[OPTION]... [FILE]\n  or:  shuf -e [OPTION]... [ARG]...\n  or:  shuf -i LO-HI [OPTION]...\nWrite a random permutation of the input lines to standard output.\n", 1);

const SPEC: &[OptSpec<&str>] = &[
    opt("e", Some('e'), Some("echo"), HasArg::No),
    opt("i", Some('i'), Some("input-range"), HasArg::Required),
    opt("n", Some('n'), Some("head-count"), HasArg::Required),
    opt("o", Some('o'), Some("output"), HasArg::Required),
    opt(
        "random-source",
        None,
        Some("random-source"),
        HasArg::Required,
    ),
    opt("r", Some('r'), Some("repeat"), HasArg::No),
    opt("z", Some('z'), Some("zero-terminated"), HasArg::No),
];

/// xorshift64* generator: fast and good enough for shuffling.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in 0..n (n > 0), without modulo bias.
    fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let v = self.next();
            if v < zone {
                return v % n;
            }
        }
    }
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let eol = if p.has("z") { 0 } else { b'\n' };
    let count = match p.last_str("n") {
        Some(s) => match s.parse::<u64>() {
            Ok(n) => Some(n),
            Err(_) => {
                return USAGE.die(
                    1,
                    &format!("invalid line count: {}", q(std::ffi::OsStr::new(&s))),
                )
            }
        },
        None => None,
    };
    let seed = match p.last("random-source") {
        Some(f) => match read_all(f) {
            Ok(d) => d.iter().fold(0x9E37_79B9_7F4A_7C15u64, |h, &b| {
                (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3)
            }),
            Err(e) => return USAGE.die(1, &format!("{}: {}", qf(f), err_text(&e))),
        },
        None => {
            // RandomState is seeded from the OS's random source (WASI
            // random_get); std::process::id() panics on wasi.
            let mut h = RandomState::new().build_hasher();
            h.write_u64(0x5eed);
            h.finish()
        }
    };
    let mut rng = Rng(seed | 1);
    let data;
    let mut items: Vec<Vec<u8>> = Vec::new();
    let mut range: Option<(u64, u64)> = None;
    if p.has("e") && p.has("i") {
        return USAGE.fail("cannot combine -e and -i options");
    }
    if let Some(r) = p.last_str("i") {
        let bad = || {
            USAGE.die(
                1,
                &format!("invalid input range: {}", q(std::ffi::OsStr::new(&r))),
            )
        };
        let (lo, hi) = match r.split_once('-') {
            Some((a, b)) => match (a.parse::<u64>(), b.parse::<u64>()) {
                (Ok(a), Ok(b)) if b.checked_add(1).map_or(false, |bb| a <= bb) => (a, b),
                _ => return bad(),
            },
            None => return bad(),
        };
        if !p.operands.is_empty() {
            return USAGE.fail(&format!("extra operand {}", q(&p.operands[0])));
        }
        range = Some((lo, hi));
    } else if p.has("e") {
        items = p.operands.iter().map(|s| os_bytes(s).to_vec()).collect();
    } else {
        if p.operands.len() > 1 {
            return USAGE.fail(&format!("extra operand {}", q(&p.operands[1])));
        }
        let f = p
            .operands
            .first()
            .cloned()
            .unwrap_or_else(|| OsString::from("-"));
        data = match read_all(&f) {
            Ok(d) => d,
            Err(e) => return USAGE.die(1, &format!("{}: {}", qf(&f), err_text(&e))),
        };
        items = records(&data, eol).map(|l| l.to_vec()).collect();
    }
    let mut out: Vec<u8> = Vec::new();
    let total = match range {
        Some((lo, hi)) => hi + 1 - lo,
        None => items.len() as u64,
    };
    let get = |i: u64| -> Vec<u8> {
        match range {
            Some((lo, _)) => (lo + i).to_string().into_bytes(),
            None => items[i as usize].clone(),
        }
    };
    if p.has("r") {
        if total == 0 {
            if count.map_or(true, |c| c > 0) {
                return USAGE.die(1, "no lines to repeat");
            }
        } else {
            let n = count.unwrap_or(u64::MAX);
            let mut k = 0;
            let so = std::io::stdout();
            let mut lock = so.lock();
            while k < n {
                let mut v = get(rng.below(total));
                v.push(eol);
                out.extend_from_slice(&v);
                k += 1;
                if count.is_none() && out.len() >= 64 * 1024 {
                    if lock.write_all(&out).is_err() {
                        return 141;
                    }
                    out.clear();
                }
            }
        }
    } else {
        let n = count.unwrap_or(total).min(total);
        // Partial Fisher-Yates over indices.
        let mut idx: Vec<u64> = (0..total).collect();
        for i in 0..n as usize {
            let j = i + rng.below(total - i as u64) as usize;
            idx.swap(i, j);
            let mut v = get(idx[i]);
            v.push(eol);
            out.extend_from_slice(&v);
        }
    }
    let res = match p.last("o") {
        Some(f) => {
            coreutils_core::fs::write(f, &out).map_err(|e| format!("{}: {}", qf(f), err_text(&e)))
        }
        None => {
            let so = std::io::stdout();
            let mut lock = so.lock();
            lock.write_all(&out)
                .and_then(|_| lock.flush())
                .map_err(|e| err_text(&e))
        }
    };
    let _ = disp;
    match res {
        Ok(()) => 0,
        Err(m) => USAGE.die(1, &m),
    }
}
