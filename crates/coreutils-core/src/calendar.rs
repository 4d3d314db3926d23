//! The UTC calendar every utility shares: civil dates and day numbers,
//! broken-down time, day and month names, and GNU `strftime`. The sandbox
//! has no zone data, so everything is UTC.

/// Full month names; the first three letters are the abbreviation.
pub const MONTHS: [&str; 12] = [
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

/// Full day names from Sunday; the first three letters are the abbreviation.
pub const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// The three-letter abbreviation of month `mon` (1-12).
pub fn month_abbr(mon: u32) -> &'static str {
    &MONTHS[(mon as usize + 11) % 12][..3]
}

/// The three-letter abbreviation of day `wday` (0 = Sunday).
pub fn day_abbr(wday: i64) -> &'static str {
    &DAYS[wday.rem_euclid(7) as usize][..3]
}

/// Whether `y` is a leap year (proleptic Gregorian).
pub fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

/// Days in month `m` (1-12) of year `y`.
pub fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if is_leap(y) => 29,
        _ => 28,
    }
}

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

/// Broken-down UTC time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tm {
    /// Year.
    pub year: i64,
    /// Month, 1-12.
    pub mon: u32,
    /// Day of the month, 1-31.
    pub mday: u32,
    /// Hour, 0-23.
    pub hour: i64,
    /// Minute, 0-59.
    pub min: i64,
    /// Second, 0-59.
    pub sec: i64,
    /// Day of the week, 0 = Sunday.
    pub wday: i64,
    /// Day of the year, 0-365.
    pub yday: i64,
}

impl Tm {
    /// The calendar fields of `secs` since the epoch.
    pub fn from_secs(secs: i64) -> Tm {
        let day = secs.div_euclid(86400);
        let sod = secs.rem_euclid(86400);
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
    pub fn iso_week(&self) -> (i64, i64) {
        let wday = (self.wday + 6) % 7; // Monday = 0
        let year_days = |y: i64| if is_leap(y) { 366 } else { 365 };
        let mut year = self.year;
        let mut week = (self.yday - wday + 10) / 7;
        if week < 1 {
            year -= 1;
            week = (self.yday + year_days(year) - wday + 10) / 7;
        } else if self.yday - wday + 3 >= year_days(self.year) {
            year += 1;
            week = 1;
        }
        (year, week)
    }
}

/// Format `secs` (+ `nanos`) since the epoch, in UTC, with a strftime
/// format: GNU's flags `-`, `_`, `0`, `^` and widths included.
pub fn strftime(fmt: &str, secs: i64, nanos: u32) -> String {
    strftime_in(fmt, secs, nanos, 0, "UTC")
}

/// `offset` seconds east of UTC as `+hhmm` with `colons` (0-3, 3 being
/// `%:::z`: only as precise as needed) between the fields.
fn numeric_zone(offset: i64, colons: usize) -> String {
    let sign = if offset < 0 { '-' } else { '+' };
    let a = offset.abs();
    let (h, m, s) = (a / 3600, a / 60 % 60, a % 60);
    match colons {
        0 => format!("{}{:02}{:02}", sign, h, m),
        1 => format!("{}{:02}:{:02}", sign, h, m),
        2 => format!("{}{:02}:{:02}:{:02}", sign, h, m, s),
        _ if s != 0 => format!("{}{:02}:{:02}:{:02}", sign, h, m, s),
        _ if m != 0 => format!("{}{:02}:{:02}", sign, h, m),
        _ => format!("{}{:02}", sign, h),
    }
}

/// [`strftime`] in a zone `offset` seconds east of UTC, abbreviated `zone`.
pub fn strftime_in(fmt: &str, secs: i64, nanos: u32, offset: i64, zone: &str) -> String {
    let b = Tm::from_secs(secs + offset);
    let mut out = String::new();
    let mut it = fmt.chars().peekable();
    while let Some(c) = it.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut pad: Option<char> = None;
        let mut upper = false;
        let mut swap = false;
        while let Some(&f) = it.peek() {
            match f {
                '-' | '_' | '0' => pad = Some(f),
                '^' => upper = true,
                '#' => swap = true,
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
            'V' => num(b.iso_week().1, 2, '0'),
            'G' => num(b.iso_week().0, 1, '0'),
            'g' => num(b.iso_week().0.rem_euclid(100), 2, '0'),
            's' => num(secs, 1, '0'),
            'N' => {
                let s = format!("{:09}", nanos);
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
            'Z' => zone.into(),
            'z' => numeric_zone(offset, 0),
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
            'c' => strftime_in("%a %b %e %H:%M:%S %Y", secs, nanos, offset, zone),
            'q' => num((b.mon as i64 - 1) / 3 + 1, 1, '0'),
            ':' => {
                let mut colons = 1;
                while colons < 3 && it.peek() == Some(&':') {
                    it.next();
                    colons += 1;
                }
                if it.peek() == Some(&'z') {
                    it.next();
                    numeric_zone(offset, colons)
                } else {
                    format!("%{}", ":".repeat(colons))
                }
            }
            other => format!("%{}", other),
        };
        // `#` swaps case: names go upper, %p and %Z lower (as glibc)
        let s = if swap && matches!(conv, 'p' | 'Z') {
            s.to_lowercase()
        } else if upper || (swap && matches!(conv, 'a' | 'A' | 'b' | 'B' | 'h')) {
            s.to_uppercase()
        } else {
            s
        };
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
                            | 'q'
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
    const NOW: i64 = 1_700_000_000; // 2023-11-14 22:13:20 UTC (a Tuesday)

    #[test]
    fn civil_round_trip() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(civil_from_days(19675), (2023, 11, 14));
        assert_eq!(days_from_civil(2000, 3, 1), 11017);
        for z in [-800_000i64, -1, 0, 59, 11_016, 19_675, 2_932_896] {
            let (y, m, d) = civil_from_days(z);
            assert_eq!(days_from_civil(y, m, d), z);
        }
        assert_eq!(days_in_month(2024, 2), 29);
        assert_eq!(days_in_month(1900, 2), 28);
    }

    #[test]
    fn broken_down_and_names() {
        let t = Tm::from_secs(NOW);
        assert_eq!(
            (t.year, t.mon, t.mday, t.hour, t.min, t.sec),
            (2023, 11, 14, 22, 13, 20)
        );
        assert_eq!((t.wday, t.yday), (2, 317));
        assert_eq!((day_abbr(t.wday), month_abbr(t.mon)), ("Tue", "Nov"));
        assert_eq!(Tm::from_secs(-1).year, 1969);
        // 2021-01-03 is in ISO week 53 of 2020.
        assert_eq!(
            Tm::from_secs(days_from_civil(2021, 1, 3) * 86400).iso_week(),
            (2020, 53)
        );
    }

    #[test]
    fn formats() {
        assert_eq!(
            strftime("%Y-%m-%d %H:%M:%S %a %b %e %j", NOW, 0),
            "2023-11-14 22:13:20 Tue Nov 14 318"
        );
        assert_eq!(
            strftime("%-d|%_m|%s|%F %T|%V", NOW, 0),
            "14|11|1700000000|2023-11-14 22:13:20|46"
        );
        assert_eq!(
            strftime("%c|%3N|%^a", NOW, 123_456_789),
            "Tue Nov 14 22:13:20 2023|123|TUE"
        );
    }
}
