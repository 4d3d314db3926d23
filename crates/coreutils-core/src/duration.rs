//! GNU duration operands (`sleep`, `timeout`): a non-negative number with
//! an optional suffix s, m, h or d.

/// Seconds in a duration such as `1.5m`, `2d` or `inf`; `None` when the
/// text is not one (negative, NaN, empty, blanks, unknown suffix).
pub fn parse_secs(s: &str) -> Option<f64> {
    let (num, mult) = match s.chars().last()? {
        's' => (&s[..s.len() - 1], 1.0),
        'm' => (&s[..s.len() - 1], 60.0),
        'h' => (&s[..s.len() - 1], 3600.0),
        'd' => (&s[..s.len() - 1], 86400.0),
        _ => (s, 1.0),
    };
    if num.is_empty() || num.starts_with('-') || num.contains(|c: char| c.is_whitespace()) {
        return None;
    }
    let v: f64 = num.parse().ok()?;
    if v.is_nan() || v < 0.0 {
        return None;
    }
    Some(v * mult)
}

#[cfg(test)]
mod tests {
    use super::parse_secs;

    #[test]
    fn suffixes_and_rejections() {
        assert_eq!(parse_secs("1.5m"), Some(90.0));
        assert_eq!(parse_secs("2d"), Some(172_800.0));
        assert_eq!(parse_secs("3"), Some(3.0));
        assert_eq!(parse_secs("inf"), Some(f64::INFINITY));
        for bad in ["", "s", "-1", "nan", "NaNs", "1 s", "1x"] {
            assert_eq!(parse_secs(bad), None, "{}", bad);
        }
    }
}
