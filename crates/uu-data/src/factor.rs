//! `factor`: prime factors of each operand (or of the numbers read from
//! standard input), up to 2^128 - 1: Miller-Rabin, then Pollard's rho.

use std::ffi::OsString;
use std::io::{BufRead, Write};

use coreutils_core::args::{OptSpec, Spec, Usage};

const USAGE: Usage = Usage::new(
    "factor",
    "[NUMBER]...\nPrint the prime factors of each specified integer NUMBER.  If none\nare specified on the command line, read them from standard input.\n",
    1,
);

const SPEC: &[OptSpec<&str>] = &[];

/// a * b mod m without overflow (m < 2^128).
fn mul_mod(a: u128, b: u128, m: u128) -> u128 {
    if a.leading_zeros() + b.leading_zeros() >= 128 {
        return a * b % m;
    }
    let (mut a, mut b, mut r) = (a % m, b % m, 0u128);
    while b > 0 {
        if b & 1 == 1 {
            r = add_mod(r, a, m);
        }
        a = add_mod(a, a, m);
        b >>= 1;
    }
    r
}

fn add_mod(a: u128, b: u128, m: u128) -> u128 {
    if a >= m - b {
        a - (m - b)
    } else {
        a + b
    }
}

fn pow_mod(mut b: u128, mut e: u128, m: u128) -> u128 {
    let mut r = 1 % m;
    b %= m;
    while e > 0 {
        if e & 1 == 1 {
            r = mul_mod(r, b, m);
        }
        b = mul_mod(b, b, m);
        e >>= 1;
    }
    r
}

/// Miller-Rabin; these bases decide every n < 3.3 * 10^24 exactly.
fn is_prime(n: u128) -> bool {
    const BASES: [u128; 13] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41];
    if n < 2 {
        return false;
    }
    for p in BASES {
        if n % p == 0 {
            return n == p;
        }
    }
    let s = (n - 1).trailing_zeros();
    let d = (n - 1) >> s;
    'base: for a in BASES {
        let mut x = pow_mod(a, d, n);
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = mul_mod(x, x, n);
            if x == n - 1 {
                continue 'base;
            }
        }
        return false;
    }
    true
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// A non-trivial factor of the odd composite `n` (Pollard's rho, Brent).
fn rho(n: u128) -> u128 {
    let mut c = 1u128;
    loop {
        let f = |x: u128| add_mod(mul_mod(x, x, n), c, n);
        let (mut x, mut y, mut d) = (2u128, 2u128, 1u128);
        while d == 1 {
            x = f(x);
            y = f(f(y));
            d = gcd(x.max(y) - x.min(y), n);
        }
        if d != n {
            return d;
        }
        c += 1;
    }
}

/// The prime factors of `n`, smallest first.
pub fn factors(mut n: u128) -> Vec<u128> {
    let mut out = Vec::new();
    if n < 2 {
        return out;
    }
    for p in [2u128, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37] {
        while n % p == 0 {
            out.push(p);
            n /= p;
        }
    }
    let mut stack = vec![n];
    while let Some(m) = stack.pop() {
        if m == 1 {
            continue;
        }
        if is_prime(m) {
            out.push(m);
        } else {
            let d = rho(m);
            stack.push(d);
            stack.push(m / d);
        }
    }
    out.sort_unstable();
    out
}

/// One line of output, or the complaint about a token that is no number.
fn factor_token(tok: &str, out: &mut Vec<u8>) -> Result<(), String> {
    let t = tok.trim_start();
    let digits = t.strip_prefix('+').unwrap_or(t);
    let n = if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        digits.parse::<u128>().ok()
    } else {
        None
    };
    let n = match n {
        Some(n) => n,
        None => return Err(format!("'{}' is not a valid positive integer", tok)),
    };
    out.extend_from_slice(format!("{}:", n).as_bytes());
    for f in factors(n) {
        out.extend_from_slice(format!(" {}", f).as_bytes());
    }
    out.push(b'\n');
    Ok(())
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let mut status = 0;
    let stdout = std::io::stdout();
    let mut w = stdout.lock();
    let mut one = |tok: &str, w: &mut dyn Write| {
        let mut line = Vec::new();
        let r = factor_token(tok, &mut line);
        let _ = w.write_all(&line);
        if let Err(m) = r {
            let _ = w.flush();
            eprintln!("{}: {}", coreutils_core::prog("factor"), m);
            status = 1;
        }
    };
    if p.operands.is_empty() {
        let stdin = std::io::stdin();
        for line in stdin.lock().split(b'\n') {
            let line = match line {
                Ok(l) => l,
                Err(_) => break,
            };
            for tok in String::from_utf8_lossy(&line).split_ascii_whitespace() {
                one(tok, &mut w);
            }
        }
    } else {
        for a in &p.operands {
            one(&a.to_string_lossy(), &mut w);
        }
    }
    if w.flush().is_err() {
        return 1;
    }
    status
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn factors_like_gnu() {
        assert_eq!(factors(0), Vec::<u128>::new());
        assert_eq!(factors(1), Vec::<u128>::new());
        assert_eq!(factors(12), vec![2, 2, 3]);
        assert_eq!(factors(18446744073709551617), vec![274177, 67280421310721]);
        assert_eq!(
            factors(u128::MAX),
            vec![3, 5, 17, 257, 641, 65537, 274177, 6700417, 67280421310721]
        );
        assert_eq!(factors(1_000_000_007), vec![1_000_000_007]);
        let mut v = Vec::new();
        assert!(factor_token("abc", &mut v).is_err());
        assert!(factor_token("+7", &mut v).is_ok());
        assert_eq!(v, b"7: 7\n");
    }
}
