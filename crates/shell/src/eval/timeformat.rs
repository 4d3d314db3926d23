//! The report of the `time` keyword: $TIMEFORMAT's `%[p][l]R/U/S`, `%P` and
//! `%%`, as bash formats them (fractions truncated, not rounded).

use std::time::Duration;

/// bash's format when TIMEFORMAT is unset.
pub const DEFAULT: &[u8] = b"\nreal\t%3lR\nuser\t%3lU\nsys\t%3lS";
/// `time -p`, whatever TIMEFORMAT says.
pub const POSIX: &[u8] = b"real %2R\nuser %2U\nsys %2S";

/// Seconds with `prec` decimals (0-3), as `MmS.FFFs` when `long`.
fn seconds(out: &mut Vec<u8>, usecs: u128, prec: usize, long: bool) {
    let secs = usecs / 1_000_000;
    let frac = (usecs % 1_000_000) / 10u128.pow(6 - prec as u32);
    let whole = if long {
        out.extend_from_slice(format!("{}m", secs / 60).as_bytes());
        secs % 60
    } else {
        secs
    };
    out.extend_from_slice(whole.to_string().as_bytes());
    if prec > 0 {
        out.extend_from_slice(format!(".{:0width$}", frac, width = prec).as_bytes());
    }
    if long {
        out.push(b's');
    }
}

/// The report for one timed pipeline, newline included; Err(c) names the
/// character after a `%` bash rejects (nothing is printed then).
pub fn report(fmt: &[u8], real: Duration, user: Duration, sys: Duration) -> Result<Vec<u8>, u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < fmt.len() {
        let c = fmt[i];
        if c != b'%' || i + 1 >= fmt.len() {
            out.push(c);
            i += 1;
            continue;
        }
        i += 1;
        match fmt[i] {
            b'%' => {
                out.push(b'%');
                i += 1;
                continue;
            }
            b'P' => {
                let cpu = (user + sys).as_micros();
                let r = real.as_micros();
                // hundredths of a percent, shown as a percentage with 2 decimals
                let pct = if r == 0 { 0 } else { cpu * 1_000_000 / r };
                seconds(&mut out, pct, 2, false);
                i += 1;
                continue;
            }
            _ => {}
        }
        let mut prec = 3;
        if fmt[i].is_ascii_digit() {
            prec = usize::from(fmt[i] - b'0').min(3);
            i += 1;
        }
        let long = fmt.get(i) == Some(&b'l');
        if long {
            i += 1;
        }
        let d = match fmt.get(i) {
            Some(b'R') => real,
            Some(b'U') => user,
            Some(b'S') => sys,
            Some(&other) => return Err(other),
            None => return Err(b' '),
        };
        seconds(&mut out, d.as_micros(), prec, long);
        i += 1;
    }
    out.push(b'\n');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(f: &str, ms: u64) -> String {
        let r = report(
            f.as_bytes(),
            Duration::from_millis(ms),
            Duration::from_millis(0),
            Duration::from_millis(0),
        )
        .unwrap();
        String::from_utf8(r).unwrap()
    }

    #[test]
    fn formats_like_bash() {
        assert_eq!(
            fmt("%3lR|%1R|%0R|%R|%9R|%%", 123_456),
            "2m3.456s|123.4|123|123.456|123.456|%\n"
        );
        assert_eq!(fmt("a%", 0), "a%\n");
        assert_eq!(
            fmt(std::str::from_utf8(POSIX).unwrap(), 1_239),
            "real 1.23\nuser 0.00\nsys 0.00\n"
        );
        assert_eq!(fmt("%P", 10), "0.00\n");
        assert!(report(b"a%xb", Duration::ZERO, Duration::ZERO, Duration::ZERO) == Err(b'x'));
    }
}
