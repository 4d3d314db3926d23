//! Calendar arithmetic, GNU-style date parsing (`@N`, ISO dates and
//! times, `now`/`yesterday`, relative items like `2 days ago`) and
//! `strftime` formatting. Everything is UTC: the sandbox has no zone data.

/// Days since 1970-01-01 of a proleptic Gregorian date.
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

/// Date of a day number: (year, month 1-12, day 1-31).
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719468;
    let era = if z >= 0 { z } else { z - 146096 } / 146097;
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ => {
            if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 {
                29
            } else {
                28
            }
        }
    }
}

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
    let (hms, frac) = match s.split_once(|c| c == '.' || c == ',') {
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

const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// Broken-down UTC time.
struct Tm {
    year: i64,
    mon: u32,
    mday: u32,
    hour: i64,
    min: i64,
    sec: i64,
    wday: i64,
    yday: i64,
}

fn tm(t: Time) -> Tm {
    let day = t.secs.div_euclid(86400);
    let sod = t.secs.rem_euclid(86400);
    let (year, mon, mday) = civil_from_days(day);
    Tm {
        year,
        mon,
        mday,
        hour: sod / 3600,
        min: sod % 3600 / 60,
        sec: sod % 60,
        wday: (day + 4).rem_euclid(7),
        yday: day - days_from_civil(year, 1, 1),
    }
}

/// ISO 8601 week-based year and week number.
fn iso_week(t: &Tm) -> (i64, i64) {
    let wday = (t.wday + 6) % 7; // Monday = 0
    let mut year = t.year;
    let mut week = (t.yday - wday + 10) / 7;
    if week < 1 {
        year -= 1;
        let prev_days = if days_in_month(year, 2) == 29 {
            366
        } else {
            365
        };
        week = (t.yday + prev_days - wday + 10) / 7;
    } else {
        let days = if days_in_month(t.year, 2) == 29 {
            366
        } else {
            365
        };
        if t.yday - wday + 3 >= days {
            year += 1;
            week = 1;
        }
    }
    (year, week)
}

/// Format `t` (UTC) with a strftime format, GNU flags `-`, `_`, `0`, `^`
/// and widths included.
pub fn strftime(fmt: &str, t: Time) -> String {
    let b = tm(t);
    let mut out = String::new();
    let mut it = fmt.chars().peekable();
    while let Some(c) = it.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut pad: Option<char> = None;
        let mut upper = false;
        while let Some(&f) = it.peek() {
            match f {
                '-' | '_' | '0' => pad = Some(f),
                '^' => upper = true,
                '#' => {}
                _ => break,
            }
            it.next();
        }
        let mut width: Option<usize> = None;
        while let Some(d) = it.peek().and_then(|c| c.to_digit(10)) {
            width = Some(width.unwrap_or(0) * 10 + d as usize);
            it.next();
        }
        let conv = match it.next() {
            Some(c) => c,
            None => {
                out.push('%');
                break;
            }
        };
        let num = |v: i64, w: usize, def: char| -> String {
            let w = width.unwrap_or(w);
            let p = pad.unwrap_or(def);
            match p {
                '-' => v.to_string(),
                '_' => format!("{:>w$}", v, w = w),
                _ => {
                    if v < 0 {
                        format!("-{:0w$}", -v, w = w.saturating_sub(1))
                    } else {
                        format!("{:0w$}", v, w = w)
                    }
                }
            }
        };
        let h12 = if b.hour % 12 == 0 { 12 } else { b.hour % 12 };
        let s: String = match conv {
            '%' => "%".into(),
            'n' => "\n".into(),
            't' => "\t".into(),
            'Y' => num(b.year, 1, '0'),
            'C' => num(b.year.div_euclid(100), 2, '0'),
            'y' => num(b.year.rem_euclid(100), 2, '0'),
            'm' => num(b.mon as i64, 2, '0'),
            'd' => num(b.mday as i64, 2, '0'),
            'e' => num(b.mday as i64, 2, '_'),
            'H' => num(b.hour, 2, '0'),
            'k' => num(b.hour, 2, '_'),
            'I' => num(h12, 2, '0'),
            'l' => num(h12, 2, '_'),
            'M' => num(b.min, 2, '0'),
            'S' => num(b.sec, 2, '0'),
            'j' => num(b.yday + 1, 3, '0'),
            'u' => num(if b.wday == 0 { 7 } else { b.wday }, 1, '0'),
            'w' => num(b.wday, 1, '0'),
            'U' => num((b.yday + 7 - b.wday) / 7, 2, '0'),
            'W' => num((b.yday + 7 - (b.wday + 6) % 7) / 7, 2, '0'),
            'V' => num(iso_week(&b).1, 2, '0'),
            'G' => num(iso_week(&b).0, 1, '0'),
            'g' => num(iso_week(&b).0.rem_euclid(100), 2, '0'),
            's' => num(t.secs, 1, '0'),
            'N' => {
                let s = format!("{:09}", t.nanos);
                match width {
                    Some(w) if w < 9 => s[..w].to_string(),
                    _ => s,
                }
            }
            'a' => DAYS[b.wday as usize][..3].into(),
            'A' => DAYS[b.wday as usize].into(),
            'b' | 'h' => MONTHS[b.mon as usize - 1][..3].into(),
            'B' => MONTHS[b.mon as usize - 1].into(),
            'p' => if b.hour < 12 { "AM" } else { "PM" }.into(),
            'P' => if b.hour < 12 { "am" } else { "pm" }.into(),
            'Z' => "UTC".into(),
            'z' => "+0000".into(),
            'F' => format!("{}-{:02}-{:02}", num(b.year, 4, '0'), b.mon, b.mday),
            'T' => format!("{:02}:{:02}:{:02}", b.hour, b.min, b.sec),
            'R' => format!("{:02}:{:02}", b.hour, b.min),
            'D' | 'x' => format!("{:02}/{:02}/{:02}", b.mon, b.mday, b.year.rem_euclid(100)),
            'X' => format!("{:02}:{:02}:{:02}", b.hour, b.min, b.sec),
            'r' => format!(
                "{:02}:{:02}:{:02} {}",
                h12,
                b.min,
                b.sec,
                if b.hour < 12 { "AM" } else { "PM" }
            ),
            'c' => strftime("%a %b %e %H:%M:%S %Y", t),
            ':' => {
                if it.peek() == Some(&'z') {
                    it.next();
                    "+00:00".into()
                } else {
                    "%:".into()
                }
            }
            other => format!("%{}", other),
        };
        let s = if upper { s.to_uppercase() } else { s };
        match width {
            Some(w)
                if s.len() < w
                    && !matches!(
                        conv,
                        'Y' | 'C'
                            | 'y'
                            | 'm'
                            | 'd'
                            | 'e'
                            | 'H'
                            | 'k'
                            | 'I'
                            | 'l'
                            | 'M'
                            | 'S'
                            | 'j'
                            | 'u'
                            | 'w'
                            | 'U'
                            | 'W'
                            | 'V'
                            | 'G'
                            | 'g'
                            | 's'
                            | 'N'
                    ) =>
            {
                let fill = if pad == Some('0') { '0' } else { ' ' };
                out.extend(std::iter::repeat(fill).take(w - s.len()));
                out.push_str(&s);
            }
            _ => out.push_str(&s),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    const NOW: Time = Time {
        secs: 1_700_000_000,
        nanos: 0,
    }; // 2023-11-14 22:13:20 UTC
    #[test]
    fn civil_roundtrip() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(civil_from_days(19675), (2023, 11, 14));
        assert_eq!(days_from_civil(2000, 3, 1), 11017);
    }
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
    #[test]
    fn formats() {
        assert_eq!(
            strftime("%Y-%m-%d %H:%M:%S %a %b %e %j", NOW),
            "2023-11-14 22:13:20 Tue Nov 14 318"
        );
        assert_eq!(
            strftime("%-d|%_m|%s|%F %T|%V", NOW),
            "14|11|1700000000|2023-11-14 22:13:20|46"
        );
    }
}
