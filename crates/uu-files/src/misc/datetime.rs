//! GNU-style date parsing (`@N`, ISO dates and times, `now`/`yesterday`,
//! relative items like `2 days ago`) over the shared UTC calendar
//! (`coreutils_core::calendar`, which also formats).

use coreutils_core::calendar::days_in_month;
pub use coreutils_core::calendar::{civil_from_days, days_from_civil};

/// A point in time: seconds since the epoch and nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Time {
    /// Seconds since 1970-01-01T00:00:00Z.
    pub secs: i64,
    /// Nanoseconds within the second.
    pub nanos: u32,
}

impl Time {
    /// The current time.
    pub fn now() -> Time {
        let d = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        Time {
            secs: d.as_secs() as i64,
            nanos: d.subsec_nanos(),
        }
    }
}

fn add_months(t: Time, months: i64) -> Time {
    let day = t.secs.div_euclid(86400);
    let sod = t.secs.rem_euclid(86400);
    let (y, m, d) = civil_from_days(day);
    let total = y * 12 + (m as i64 - 1) + months;
    let ny = total.div_euclid(12);
    let nm = (total.rem_euclid(12) + 1) as u32;
    // GNU lets the day overflow into the next month (Jan 31 + 1 month = Mar 3).
    let nd = days_from_civil(ny, nm, 1) + d as i64 - 1;
    Time {
        secs: nd * 86400 + sod,
        nanos: t.nanos,
    }
}

fn unit_secs(u: &str) -> Option<(i64, bool)> {
    let u = if u.len() > 1 && u.ends_with('s') {
        &u[..u.len() - 1]
    } else {
        u
    };
    Some(match u {
        "sec" | "second" | "s" => (1, false),
        "min" | "minute" => (60, false),
        "hour" | "h" => (3600, false),
        "day" | "d" => (86400, false),
        "week" | "w" => (7 * 86400, false),
        "fortnight" => (14 * 86400, false),
        "month" => (1, true),
        "year" => (12, true),
        _ => return None,
    })
}

fn parse_clock(s: &str) -> Option<(i64, u32)> {
    let (hms, frac) = match s.split_once(['.', ',']) {
        Some((a, b)) => (a, Some(b)),
        None => (s, None),
    };
    let parts: Vec<&str> = hms.split(':').collect();
    if parts.len() < 2
        || parts.len() > 3
        || parts
            .iter()
            .any(|p| p.is_empty() || p.len() > 2 || !p.bytes().all(|c| c.is_ascii_digit()))
    {
        return None;
    }
    let h: i64 = parts[0].parse().ok()?;
    let m: i64 = parts[1].parse().ok()?;
    let sec: i64 = if parts.len() == 3 {
        parts[2].parse().ok()?
    } else {
        0
    };
    if h > 23 || m > 59 || sec > 60 {
        return None;
    }
    let nanos = match frac {
        Some(f) if f.bytes().all(|c| c.is_ascii_digit()) && !f.is_empty() => {
            let mut v = String::from(f);
            v.truncate(9);
            while v.len() < 9 {
                v.push('0');
            }
            v.parse().ok()?
        }
        Some(_) => return None,
        None => 0,
    };
    Some((h * 3600 + m * 60 + sec, nanos))
}

fn parse_ymd(s: &str) -> Option<i64> {
    let p: Vec<&str> = s.split('-').collect();
    if p.len() != 3
        || p.iter()
            .any(|x| x.is_empty() || !x.bytes().all(|c| c.is_ascii_digit()))
    {
        return None;
    }
    let y: i64 = p[0].parse().ok()?;
    let m: u32 = p[1].parse().ok()?;
    let d: u32 = p[2].parse().ok()?;
    if !(1..=12).contains(&m) || d == 0 || d > days_in_month(y, m) {
        return None;
    }
    Some(days_from_civil(y, m, d))
}

fn parse_offset(s: &str) -> Option<i64> {
    if s == "z" || s == "utc" || s == "gmt" {
        return Some(0);
    }
    let (sign, rest) = match s.as_bytes().first()? {
        b'+' => (1, &s[1..]),
        b'-' => (-1, &s[1..]),
        _ => return None,
    };
    let digits: String = rest.chars().filter(|c| *c != ':').collect();
    if !digits.bytes().all(|c| c.is_ascii_digit()) || (digits.len() != 4 && digits.len() != 2) {
        return None;
    }
    let h: i64 = digits[..2].parse().ok()?;
    let m: i64 = if digits.len() == 4 {
        digits[2..].parse().ok()?
    } else {
        0
    };
    Some(sign * (h * 3600 + m * 60))
}

/// Parse a GNU `date -d` string relative to `now`.
pub fn parse(input: &str, now: Time) -> Option<Time> {
    let s = input.trim().to_ascii_lowercase();
    if let Some(e) = s.strip_prefix('@') {
        let (a, f) = match e.split_once('.') {
            Some((a, f)) => (a, f),
            None => (e, ""),
        };
        let secs: i64 = a.parse().ok()?;
        let mut nanos = 0u32;
        if !f.is_empty() {
            let mut v = f.to_string();
            v.truncate(9);
            while v.len() < 9 {
                v.push('0');
            }
            nanos = v.parse().ok()?;
        }
        return Some(Time { secs, nanos });
    }
    let mut toks: Vec<String> = Vec::new();
    for w in s.split_whitespace() {
        // Split "2024-01-02t10:00:00z" at the T.
        if w.len() > 10 && w.as_bytes().get(10) == Some(&b't') && parse_ymd(&w[..10]).is_some() {
            toks.push(w[..10].to_string());
            toks.push(w[11..].to_string());
        } else {
            toks.push(w.to_string());
        }
    }
    let mut day: Option<i64> = None;
    let mut tod: Option<(i64, u32)> = None;
    let mut offset = 0i64;
    let mut rel_secs = 0i64;
    let mut rel_months = 0i64;
    let mut base_today = false;
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i].as_str();
        i += 1;
        match t {
            "now" => continue,
            "today" => {
                base_today = true;
                continue;
            }
            "yesterday" => {
                rel_secs -= 86400;
                continue;
            }
            "tomorrow" => {
                rel_secs += 86400;
                continue;
            }
            "ago" => {
                rel_secs = -rel_secs;
                rel_months = -rel_months;
                continue;
            }
            "utc" | "gmt" | "z" => continue,
            _ => {}
        }
        if day.is_none() {
            if let Some(d) = parse_ymd(t) {
                day = Some(d);
                continue;
            }
        }
        if tod.is_none() {
            // A clock time, possibly with a zone suffix glued on.
            let cut = t
                .find(|c| c == 'z' || c == '+' || (c == '-' && t.contains(':')))
                .filter(|&k| k > 0);
            let (clock, zone) = match cut {
                Some(k) => (&t[..k], Some(&t[k..])),
                None => (t, None),
            };
            if let Some(c) = parse_clock(clock) {
                tod = Some(c);
                if let Some(z) = zone {
                    offset = parse_offset(z)?;
                }
                continue;
            }
        }
        if let Some(o) = parse_offset(t) {
            if (t.starts_with('+') || t.starts_with('-')) && (t.len() == 5 || t.contains(':')) {
                offset = o;
                continue;
            }
        }
        // Relative item: [+-]N unit, or next/last unit, or a bare unit.
        let (n, unit) = if let Ok(n) = t.parse::<i64>() {
            let u = toks.get(i)?.clone();
            i += 1;
            (n, u)
        } else if t == "next" || t == "last" || t == "this" {
            let u = toks.get(i)?.clone();
            i += 1;
            (
                if t == "next" {
                    1
                } else if t == "last" {
                    -1
                } else {
                    0
                },
                u,
            )
        } else {
            (1, t.to_string())
        };
        let (mult, months) = unit_secs(&unit)?;
        if months {
            rel_months += n * mult;
        } else {
            rel_secs += n * mult;
        }
    }
    let mut t = match (day, tod) {
        (None, None) if !base_today => now,
        (None, None) => Time {
            secs: now.secs.div_euclid(86400) * 86400,
            nanos: 0,
        },
        (Some(d), None) => Time {
            secs: d * 86400 - offset,
            nanos: 0,
        },
        (d, Some((sec, nanos))) => {
            let d = d.unwrap_or_else(|| now.secs.div_euclid(86400));
            Time {
                secs: d * 86400 + sec - offset,
                nanos,
            }
        }
    };
    if day.is_none() && tod.is_none() && base_today {
        t = now;
    }
    if rel_months != 0 {
        t = add_months(t, rel_months);
    }
    t.secs += rel_secs;
    Some(t)
}

/// Format `t` (UTC) with a strftime format (GNU flags and widths).
pub fn strftime(fmt: &str, t: Time) -> String {
    coreutils_core::calendar::strftime(fmt, t.secs, t.nanos)
}

#[cfg(test)]
mod tests {
    use super::*;
    const NOW: Time = Time {
        secs: 1_700_000_000,
        nanos: 0,
    }; // 2023-11-14 22:13:20 UTC
    #[test]
    fn parses() {
        assert_eq!(parse("@86400", NOW).unwrap().secs, 86400);
        assert_eq!(parse("2024-01-02", NOW).unwrap().secs, 1704153600);
        assert_eq!(parse("2024-01-02 10:30:00", NOW).unwrap().secs, 1704191400);
        assert_eq!(parse("2024-01-02T10:30:00Z", NOW).unwrap().secs, 1704191400);
        assert_eq!(parse("1 day ago", NOW).unwrap().secs, NOW.secs - 86400);
        assert_eq!(parse("yesterday", NOW).unwrap().secs, NOW.secs - 86400);
        assert_eq!(parse("+2 hours", NOW).unwrap().secs, NOW.secs + 7200);
        assert_eq!(
            parse("2024-01-31 1 month", NOW).unwrap().secs,
            parse("2024-03-02", NOW).unwrap().secs
        );
        assert!(parse("garbage", NOW).is_none());
        assert!(parse("2024-13-01", NOW).is_none());
    }
}
