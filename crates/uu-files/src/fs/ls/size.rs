//! Sizes as `ls` prints them: `-h`/`--si`, `--block-size`, `-k`, and the
//! `LS_BLOCK_SIZE`/`BLOCK_SIZE` defaults, rounding up like GNU.

/// How a byte count is shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Powers of 1024 (`-h`) or 1000 (`--si`), one unit letter.
    Human(u64),
    /// Whole units of `n` bytes, followed by `suffix` (`--block-size=K`).
    Units(u64, String),
}

impl Scale {
    /// Format `bytes` (rounded up).
    pub fn show(&self, bytes: u64) -> String {
        match self {
            Scale::Human(base) => human(bytes, *base),
            Scale::Units(n, suffix) => format!("{}{}", (bytes + n - 1) / n, suffix),
        }
    }
}

/// Parse a `--block-size` value (GNU's human_options): `K`, `KiB`, `KB`,
/// `2K`, `1024`, `human-readable`, `si`, an optional leading `'`.
pub fn parse_block_size(spec: &str) -> Option<Scale> {
    let s = spec.strip_prefix('\'').unwrap_or(spec);
    match s {
        "human-readable" => return Some(Scale::Human(1024)),
        "si" => return Some(Scale::Human(1000)),
        _ => {}
    }
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    let (num, unit) = s.split_at(digits);
    let n: u64 = if num.is_empty() { 1 } else { num.parse().ok()? };
    let mut chars = unit.chars();
    let (mult, show) = match chars.next() {
        None => (1u64, String::new()),
        Some(c) => {
            let power = "KMGTPEZY".find(c.to_ascii_uppercase())? as u32 + 1;
            let rest: String = chars.collect();
            let base: u64 = match rest.as_str() {
                "" | "iB" => 1024,
                "B" => 1000,
                _ => return None,
            };
            let m = base.checked_pow(power)?;
            // The unit is shown only when no number came with it.
            let shown = if !num.is_empty() {
                String::new()
            } else if base == 1000 && power == 1 {
                "kB".to_string()
            } else {
                unit.to_string()
            };
            (m, shown)
        }
    };
    let total = n.checked_mul(mult)?;
    if total == 0 {
        return None;
    }
    Some(Scale::Units(total, show))
}

/// GNU's `-h`: 1023, 1.0K, 9.9K, 10K, 1.5M, rounded up; `base` 1000 uses
/// `k` for kilo.
pub fn human(n: u64, base: u64) -> String {
    if n < base {
        return n.to_string();
    }
    let units: &[&str] = if base == 1000 {
        &["k", "M", "G", "T", "P", "E"]
    } else {
        &["K", "M", "G", "T", "P", "E"]
    };
    let b = base as f64;
    let mut v = n as f64;
    let mut i = 0;
    loop {
        v /= b;
        if v < b || i == units.len() - 1 {
            break;
        }
        i += 1;
    }
    if v < 10.0 {
        let r = (v * 10.0).ceil() / 10.0;
        if r >= 10.0 {
            return format!("{}{}", r as u64, units[i]);
        }
        format!("{:.1}{}", r, units[i])
    } else {
        let r = v.ceil();
        if r >= b && i + 1 < units.len() {
            return format!("1.0{}", units[i + 1]);
        }
        format!("{}{}", r as u64, units[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn human_sizes() {
        assert_eq!(human(1023, 1024), "1023");
        assert_eq!(human(1024, 1024), "1.0K");
        assert_eq!(human(1100, 1024), "1.1K");
        assert_eq!(human(10 * 1024 + 1, 1024), "11K");
        assert_eq!(human(1536 * 1024, 1024), "1.5M");
        assert_eq!(human(71500, 1000), "72k");
    }
    #[test]
    fn block_sizes() {
        let show = |s: &str, n: u64| parse_block_size(s).map(|b| b.show(n));
        assert_eq!(show("K", 71500).as_deref(), Some("70K"));
        assert_eq!(show("KB", 71500).as_deref(), Some("72kB"));
        assert_eq!(show("KiB", 71500).as_deref(), Some("70KiB"));
        assert_eq!(show("1K", 71500).as_deref(), Some("70"));
        assert_eq!(show("2K", 71500).as_deref(), Some("35"));
        assert_eq!(show("M", 71500).as_deref(), Some("1M"));
        assert_eq!(show("0", 1), None);
        assert_eq!(show("x", 1), None);
    }
}
