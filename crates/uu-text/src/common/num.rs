//! Number parsing shared by head, tail, split and friends: GNU size
//! suffixes (`K`, `KB`, `KiB`, `b`, ... up to `Y`).

/// Why a size failed to parse.
#[derive(Debug, PartialEq, Eq)]
pub enum SizeError {
    /// Not a number.
    Invalid,
    /// Larger than the integer type.
    TooLarge,
}

/// Parse a non-negative size with optional multiplier suffix.
pub fn parse_size(s: &str) -> Result<u64, SizeError> {
    let digits_end = s
        .bytes()
        .position(|c| !c.is_ascii_digit())
        .unwrap_or(s.len());
    let (num, suf) = s.split_at(digits_end);
    if num.is_empty() {
        return Err(SizeError::Invalid);
    }
    let mult: u128 = match suf {
        "" => 1,
        "b" => 512,
        "c" => 1,
        "w" => 2,
        _ => {
            let mut it = suf.chars();
            let p = match it.next() {
                Some('k') | Some('K') => 1,
                Some('M') => 2,
                Some('G') => 3,
                Some('T') => 4,
                Some('P') => 5,
                Some('E') => 6,
                Some('Z') => 7,
                Some('Y') => 8,
                _ => return Err(SizeError::Invalid),
            };
            let rest: String = it.collect();
            let base: u128 = match rest.as_str() {
                "" | "iB" => 1024,
                "B" => 1000,
                _ => return Err(SizeError::Invalid),
            };
            let mut m: u128 = 1;
            for _ in 0..p {
                m = m.saturating_mul(base);
            }
            m
        }
    };
    let mut n: u128 = 0;
    for c in num.bytes() {
        n = n.saturating_mul(10).saturating_add(u128::from(c - b'0'));
    }
    let v = n.saturating_mul(mult);
    if v > u128::from(u64::MAX) {
        return Err(SizeError::TooLarge);
    }
    Ok(v as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn suffixes() {
        assert_eq!(parse_size("10"), Ok(10));
        assert_eq!(parse_size("2K"), Ok(2048));
        assert_eq!(parse_size("2KB"), Ok(2000));
        assert_eq!(parse_size("1b"), Ok(512));
        assert_eq!(parse_size("1MiB"), Ok(1 << 20));
        assert_eq!(parse_size("x"), Err(SizeError::Invalid));
        assert_eq!(parse_size("1Q"), Err(SizeError::Invalid));
        assert_eq!(
            parse_size("99999999999999999999999"),
            Err(SizeError::TooLarge)
        );
    }
}
