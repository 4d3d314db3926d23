//! GNU-style date parsing (`@N`, ISO dates and times, `now`/`yesterday`,
//! relative items like `2 days ago`, weekdays like `next monday`) in a
//! `TZ` zone (`coreutils_core::tz`) over the shared calendar
//! (`coreutils_core::calendar`, which also formats).

use coreutils_core::calendar::days_in_month;
pub use coreutils_core::calendar::{civil_from_days, days_from_civil};
use coreutils_core::tz::Zone;

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
    let p: Vec<&str> = if s.contains('/') {
        // Only the year-first slash form (GNU reads m/d/y too, not offered).
        let p: Vec<&str> = s.split('/').collect();
        if p.first().map_or(true, |y| y.len() != 4) {
            return None;
        }
        p
    } else {
        s.split('-').collect()
    };
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

/// Month (1-12) a name or three-letter abbreviation means.
fn month(t: &str) -> Option<u32> {
    let t = t.strip_suffix('.').unwrap_or(t);
    const NAMES: [&str; 12] = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    let i = NAMES.iter().position(|n| {
        t == *n || (t.len() == 3 && n.starts_with(t)) || (t == "sept" && *n == "september")
    })?;
    Some(i as u32 + 1)
}

/// Month, day and (if written) year.
type MonthDay = (u32, u32, Option<i64>);

/// A date written with a month name at `toks[i..]`: `jun 15 [2024]`,
/// `15 jun [2024]`, `june 15, 2024`. Returns (month, day, year) and the
/// words used.
fn month_date(toks: &[String], i: usize) -> Option<(MonthDay, usize)> {
    let num = |k: usize| -> Option<i64> {
        let t = toks.get(k)?;
        let t = t.strip_suffix(',').unwrap_or(t);
        if t.is_empty() || t.len() > 4 || !t.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        t.parse().ok()
    };
    let (m, d, mut used) = if let Some(m) = month(&toks[i]) {
        (m, num(i + 1).filter(|d| (1..=31).contains(d))?, 2)
    } else {
        let d = num(i).filter(|d| (1..=31).contains(d))?;
        (month(toks.get(i + 1)?)?, d, 2)
    };
    let year = num(i + used).filter(|y| *y >= 1000);
    if year.is_some() {
        used += 1;
    }
    Some(((m, d as u32, year), used))
}

/// Day of the week (0 = Sunday) a name or GNU abbreviation means.
fn weekday(t: &str) -> Option<i64> {
    let t = t.strip_suffix('.').unwrap_or(t);
    let days = [
        ("sunday", "sun"),
        ("monday", "mon"),
        ("tuesday", "tue"),
        ("wednesday", "wed"),
        ("thursday", "thu"),
        ("friday", "fri"),
        ("saturday", "sat"),
    ];
    let extra = [("tues", 2), ("wednes", 3), ("thur", 4), ("thurs", 4)];
    days.iter()
        .position(|(full, abbr)| t == *full || t == *abbr)
        .map(|i| i as i64)
        .or_else(|| extra.iter().find(|(n, _)| *n == t).map(|(_, d)| *d))
}

/// `9am`, `11:30pm`, `12 am` (the meridian as a separate word is folded in
/// by the caller): seconds of the day.
fn parse_meridian(clock: &str, mer: &str) -> Option<(i64, u32)> {
    let (h, rest) = match clock.split_once(':') {
        Some((h, m)) => (h, Some(m)),
        None => (clock, None),
    };
    if h.is_empty() || h.len() > 2 || !h.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let h: i64 = h.parse().ok()?;
    if !(1..=12).contains(&h) {
        return None;
    }
    let (sec, nanos) = match rest {
        Some(r) => parse_clock(&format!("0:{}", r))?,
        None => (0, 0),
    };
    let h = h % 12 + if mer.starts_with('p') { 12 } else { 0 };
    Some((h * 3600 + sec, nanos))
}

/// Parse a GNU `date -d` string relative to `now`, reading times without
/// a zone of their own as local time in `zone`.
pub fn parse(input: &str, now: Time, zone: &Zone) -> Option<Time> {
    // A leading TZ="ZONE" reads the rest in that zone.
    let trimmed = input.trim_start();
    if let Some(rest) = trimmed.strip_prefix("TZ=\"") {
        let end = rest.find('"')?;
        return parse(&rest[end + 1..], now, &Zone::parse(&rest[..end]));
    }
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
    // A zone written in the string (seconds east), else local time.
    let mut offset: Option<i64> = None;
    let mut rel_secs = 0i64;
    let mut rel_days = 0i64;
    let mut rel_months = 0i64;
    // (ordinal, weekday) of a day-of-week item.
    let mut dow: Option<(i64, i64)> = None;
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i].as_str();
        i += 1;
        match t {
            "now" | "today" => continue,
            "yesterday" => {
                rel_days -= 1;
                continue;
            }
            "tomorrow" => {
                rel_days += 1;
                continue;
            }
            "ago" => {
                rel_secs = -rel_secs;
                rel_days = -rel_days;
                rel_months = -rel_months;
                continue;
            }
            "utc" | "gmt" | "z" | "ut" => {
                offset = Some(0);
                continue;
            }
            _ => {}
        }
        if dow.is_none() {
            if let Some(d) = weekday(t) {
                dow = Some((0, d));
                continue;
            }
        }
        if day.is_none() {
            if let Some(d) = parse_ymd(t) {
                day = Some(d);
                continue;
            }
            if let Some(((m, d, y), used)) = month_date(&toks, i - 1) {
                let local_now = now.secs + zone.at(now.secs).offset;
                let y = y.unwrap_or_else(|| civil_from_days(local_now.div_euclid(86400)).0);
                if d > days_in_month(y, m) {
                    return None;
                }
                day = Some(days_from_civil(y, m, d));
                i += used - 1;
                continue;
            }
        }
        if tod.is_none() {
            // 9am, 9:30pm, or 9 am.
            for mer in ["am", "pm", "a.m.", "p.m."] {
                if let Some(c) = t.strip_suffix(mer) {
                    if let Some(x) = parse_meridian(c, mer) {
                        tod = Some(x);
                    }
                }
            }
            if tod.is_none() {
                if let Some(mer) = toks
                    .get(i)
                    .filter(|m| matches!(m.as_str(), "am" | "pm" | "a.m." | "p.m."))
                {
                    if let Some(x) = parse_meridian(t, mer) {
                        tod = Some(x);
                        i += 1;
                    }
                }
            }
            if tod.is_some() {
                continue;
            }
            // A clock time, possibly with a zone suffix glued on.
            let cut = t
                .find(|c| c == 'z' || c == '+' || (c == '-' && t.contains(':')))
                .filter(|&k| k > 0);
            let (clock, zone_part) = match cut {
                Some(k) => (&t[..k], Some(&t[k..])),
                None => (t, None),
            };
            if let Some(c) = parse_clock(clock) {
                tod = Some(c);
                if let Some(z) = zone_part {
                    offset = Some(parse_offset(z)?);
                }
                continue;
            }
        }
        if let Some(o) = parse_offset(t) {
            if (t.starts_with('+') || t.starts_with('-')) && (t.len() == 5 || t.contains(':')) {
                offset = Some(o);
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
        if dow.is_none() {
            if let Some(d) = weekday(&unit) {
                dow = Some((n, d));
                continue;
            }
        }
        let (mult, months) = unit_secs(&unit)?;
        if months {
            rel_months += n * mult;
        } else if mult % 86400 == 0 {
            rel_days += n * mult / 86400;
        } else {
            rel_secs += n * mult;
        }
    }
    if day.is_none() && tod.is_none() && dow.is_none() && rel_days == 0 && rel_months == 0 {
        return Some(Time {
            secs: now.secs + rel_secs,
            nanos: now.nanos,
        });
    }
    // Work in local wall-clock seconds, as GNU's mktime-based arithmetic.
    let now_local = now.secs + offset.unwrap_or_else(|| zone.at(now.secs).offset);
    let today = now_local.div_euclid(86400);
    let (mut local, nanos) = match (day, tod) {
        (None, None) if dow.is_some() => (today * 86400, 0),
        (None, None) => (now_local, now.nanos),
        (Some(d), None) => (d * 86400, 0),
        (d, Some((sec, nanos))) => (d.unwrap_or(today) * 86400 + sec, nanos),
    };
    if let (Some((ord, wd)), None) = (dow, day) {
        let cur = (local.div_euclid(86400) + 4).rem_euclid(7);
        let ahead = (wd - cur + 7) % 7;
        let weeks = ord - i64::from(ord > 0 && cur != wd);
        local += (ahead + 7 * weeks) * 86400;
    }
    if rel_months != 0 {
        local = add_months(
            Time {
                secs: local,
                nanos: 0,
            },
            rel_months,
        )
        .secs;
    }
    local += rel_days * 86400;
    let secs = match offset {
        Some(o) => local - o,
        None => zone.to_utc(local)?,
    };
    Some(Time {
        secs: secs + rel_secs,
        nanos,
    })
}

thread_local! {
    /// The zone `TZ` names, read once per process.
    static LOCAL: Zone = Zone::from_env();
}

/// Format `t` in the local zone (`TZ`) with a strftime format.
pub fn strftime(fmt: &str, t: Time) -> String {
    LOCAL.with(|z| strftime_zone(fmt, t, z))
}

/// Format `t` in `zone` with a strftime format (GNU flags and widths).
pub fn strftime_zone(fmt: &str, t: Time, zone: &Zone) -> String {
    let l = zone.at(t.secs);
    coreutils_core::calendar::strftime_in(fmt, t.secs, t.nanos, l.offset, l.name)
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
        let utc = Zone::utc();
        let parse = |s: &str, now: Time| super::parse(s, now, &utc);
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
        // 2023-11-14 is a Tuesday.
        assert_eq!(parse("next monday", NOW).unwrap().secs, 1_700_438_400);
        assert_eq!(parse("last monday", NOW).unwrap().secs, 1_699_833_600);
        assert_eq!(parse("tuesday", NOW).unwrap().secs, 1_699_920_000);
        assert_eq!(parse("tomorrow 9am", NOW).unwrap().secs, 1_700_038_800);
    }

    #[test]
    fn local_zone() {
        let paris = Zone::parse("Europe/Paris");
        // Local noon in July is 10:00 UTC; an explicit zone wins.
        assert_eq!(
            parse("2024-07-01 12:00", NOW, &paris).unwrap().secs,
            1_719_828_000
        );
        assert_eq!(
            parse("2024-07-01 12:00Z", NOW, &paris).unwrap().secs,
            1_719_835_200
        );
        let t = Time {
            secs: 1_719_835_200,
            nanos: 0,
        };
        assert_eq!(
            strftime_zone("%H:%M %Z %z %:z", t, &paris),
            "14:00 CEST +0200 +02:00"
        );
    }
}
