//! Time for cookie expiry and wget's stamps: wget's stamp format and HTTP
//! dates (RFC 9110 §5.6.7, plus the loose forms Set-Cookie uses in the
//! wild); the calendar arithmetic is coreutils-core's.

use coreutils_core::calendar::{civil_from_days, days_from_civil};
use std::time::{SystemTime, UNIX_EPOCH};

/// Seconds since the epoch, now.
pub fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// `YYYY-MM-DD HH:MM:SS` in UTC (wget's log stamps; the sandbox runs in UTC).
pub fn format_stamp(t: i64) -> String {
    let (y, mo, d) = civil_from_days(t.div_euclid(86_400));
    let s = t.rem_euclid(86_400);
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
        y,
        mo,
        d,
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

/// An HTTP date (IMF-fixdate): `Mon, 01 Jan 2024 00:00:00 GMT`.
pub fn format_http_date(t: i64) -> String {
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const NAMES: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let days = t.div_euclid(86_400);
    let (y, mo, d) = civil_from_days(days);
    let s = t.rem_euclid(86_400);
    format!(
        "{}, {:02} {} {:04} {:02}:{:02}:{:02} GMT",
        DAYS[days.rem_euclid(7) as usize],
        d,
        NAMES[(mo as usize).saturating_sub(1) % 12],
        y,
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// Parse an HTTP or cookie date to Unix seconds: the tokens are found by
/// shape (a time, a month name, a day, a year) so `Sun, 06 Nov 1994
/// 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT` and `Sun Nov  6
/// 08:49:37 1994` all work.
pub fn parse_http_date(s: &str) -> Option<i64> {
    let (mut day, mut month, mut year, mut hms) = (None, None, None, None);
    for tok in s.split(|c: char| c == ' ' || c == ',' || c == '-' || c == '\t') {
        if tok.is_empty() {
            continue;
        }
        if hms.is_none() && tok.contains(':') {
            let p: Vec<&str> = tok.split(':').collect();
            if p.len() == 3 {
                let n: Option<Vec<i64>> = p.iter().map(|x| x.parse().ok()).collect();
                if let Some(n) = n {
                    hms = Some(n[0] * 3600 + n[1] * 60 + n[2]);
                    continue;
                }
            }
        }
        let low = tok.to_ascii_lowercase();
        if month.is_none() && low.len() >= 3 {
            if let Some(i) = MONTHS.iter().position(|m| low.starts_with(m)) {
                month = Some(i as u32 + 1);
                continue;
            }
        }
        if tok.bytes().all(|b| b.is_ascii_digit()) {
            let n: i64 = tok.parse().ok()?;
            if day.is_none() && tok.len() <= 2 && (1..=31).contains(&n) {
                day = Some(n as u32);
            } else if year.is_none() {
                year = Some(match n {
                    0..=69 => n + 2000,
                    70..=99 => n + 1900,
                    _ => n,
                });
            }
        }
    }
    let days = days_from_civil(year?, month?, day?);
    Some(days * 86_400 + hms.unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        assert_eq!(format_stamp(0), "1970-01-01 00:00:00");
        assert_eq!(format_stamp(1_795_000_000), "2026-11-18 11:06:40");
        for d in [-1000, 0, 59, 10_957, 20_000] {
            let (y, m, dd) = civil_from_days(d);
            assert_eq!(days_from_civil(y, m, dd), d);
        }
    }

    #[test]
    fn parses_dates() {
        let want = Some(784_111_777);
        assert_eq!(parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT"), want);
        assert_eq!(parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT"), want);
        assert_eq!(parse_http_date("Sun Nov  6 08:49:37 1994"), want);
        assert_eq!(parse_http_date("garbage"), None);
        assert_eq!(
            format_http_date(784_111_777),
            "Sun, 06 Nov 1994 08:49:37 GMT"
        );
        assert_eq!(
            format_http_date(1_704_067_200),
            "Mon, 01 Jan 2024 00:00:00 GMT"
        );
    }
}
