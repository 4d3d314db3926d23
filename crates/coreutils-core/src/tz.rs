//! Time zones from `TZ`: POSIX rule strings (`EST5EDT`, `UTC0`,
//! `CET-1CEST,M3.5.0,M10.5.0/3`, `<+03>-3`) as glibc reads them, and the
//! common tz database names (`Europe/Paris`, `America/New_York`, ...) mapped
//! to their current rules: the sandbox ships no zoneinfo files, so a named
//! zone follows today's rules for every year (dates before a zone's last
//! rule change can differ from the host's tzdata by its old offsets).

use crate::calendar::{civil_from_days, days_from_civil, days_in_month, is_leap};

/// When a daylight-saving period starts or ends: a day of the year and a
/// local time of day in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Rule {
    day: RuleDay,
    time: i64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum RuleDay {
    /// `Jn`: day 1..=365, February 29 never counted.
    NoLeap(i64),
    /// `n`: day 0..=365, counting February 29.
    Zero(i64),
    /// `Mm.w.d`: weekday d of week w (5 = last) of month m.
    Month(u32, i64, i64),
}

#[derive(Clone, Debug, PartialEq)]
struct Dst {
    name: String,
    offset: i64,
    start: Rule,
    end: Rule,
}

/// A zone: standard name and offset (seconds east of UTC), and daylight
/// saving if it has any.
#[derive(Clone, Debug, PartialEq)]
pub struct Zone {
    name: String,
    offset: i64,
    dst: Option<Dst>,
}

/// The local-time view of an instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Local<'a> {
    /// Seconds east of UTC.
    pub offset: i64,
    /// Whether daylight saving time is in force.
    pub is_dst: bool,
    /// The abbreviation (`CEST`, `+03`).
    pub name: &'a str,
}

/// Names of the tz database whose current rules are built in.
const NAMED: &[(&str, &str)] = &[
    ("UTC", "UTC0"),
    ("Etc/UTC", "UTC0"),
    ("Etc/UCT", "UTC0"),
    ("UCT", "UTC0"),
    ("Universal", "UTC0"),
    ("Etc/Universal", "UTC0"),
    ("Zulu", "UTC0"),
    ("Etc/Zulu", "UTC0"),
    ("GMT", "GMT0"),
    ("Etc/GMT", "GMT0"),
    ("Etc/GMT0", "GMT0"),
    ("Etc/Greenwich", "GMT0"),
    ("Greenwich", "GMT0"),
    ("Europe/London", "GMT0BST,M3.5.0/1,M10.5.0"),
    ("GB", "GMT0BST,M3.5.0/1,M10.5.0"),
    ("Europe/Dublin", "GMT0IST,M3.5.0/1,M10.5.0"),
    ("Europe/Lisbon", "WET0WEST,M3.5.0/1,M10.5.0"),
    ("WET", "WET0WEST,M3.5.0/1,M10.5.0"),
    ("Atlantic/Canary", "WET0WEST,M3.5.0/1,M10.5.0"),
    ("CET", "CET-1CEST,M3.5.0,M10.5.0/3"),
    ("MET", "MET-1MEST,M3.5.0,M10.5.0/3"),
    ("Europe/Paris", "CET-1CEST,M3.5.0,M10.5.0/3"),
    ("Europe/Berlin", "CET-1CEST,M3.5.0,M10.5.0/3"),
    ("Europe/Madrid", "CET-1CEST,M3.5.0,M10.5.0/3"),
    ("Europe/Rome", "CET-1CEST,M3.5.0,M10.5.0/3"),
    ("Europe/Amsterdam", "CET-1CEST,M3.5.0,M10.5.0/3"),
    ("Europe/Brussels", "CET-1CEST,M3.5.0,M10.5.0/3"),
    ("Europe/Luxembourg", "CET-1CEST,M3.5.0,M10.5.0/3"),
    ("Europe/Vienna", "CET-1CEST,M3.5.0,M10.5.0/3"),
    ("Europe/Zurich", "CET-1CEST,M3.5.0,M10.5.0/3"),
    ("Europe/Stockholm", "CET-1CEST,M3.5.0,M10.5.0/3"),
    ("Europe/Oslo", "CET-1CEST,M3.5.0,M10.5.0/3"),
    ("Europe/Copenhagen", "CET-1CEST,M3.5.0,M10.5.0/3"),
    ("Europe/Warsaw", "CET-1CEST,M3.5.0,M10.5.0/3"),
    ("Europe/Prague", "CET-1CEST,M3.5.0,M10.5.0/3"),
    ("Europe/Budapest", "CET-1CEST,M3.5.0,M10.5.0/3"),
    ("Europe/Belgrade", "CET-1CEST,M3.5.0,M10.5.0/3"),
    ("Europe/Zagreb", "CET-1CEST,M3.5.0,M10.5.0/3"),
    ("Europe/Monaco", "CET-1CEST,M3.5.0,M10.5.0/3"),
    ("Africa/Ceuta", "CET-1CEST,M3.5.0,M10.5.0/3"),
    ("EET", "EET-2EEST,M3.5.0/3,M10.5.0/4"),
    ("Europe/Athens", "EET-2EEST,M3.5.0/3,M10.5.0/4"),
    ("Europe/Helsinki", "EET-2EEST,M3.5.0/3,M10.5.0/4"),
    ("Europe/Kiev", "EET-2EEST,M3.5.0/3,M10.5.0/4"),
    ("Europe/Kyiv", "EET-2EEST,M3.5.0/3,M10.5.0/4"),
    ("Europe/Bucharest", "EET-2EEST,M3.5.0/3,M10.5.0/4"),
    ("Europe/Sofia", "EET-2EEST,M3.5.0/3,M10.5.0/4"),
    ("Europe/Riga", "EET-2EEST,M3.5.0/3,M10.5.0/4"),
    ("Europe/Vilnius", "EET-2EEST,M3.5.0/3,M10.5.0/4"),
    ("Europe/Tallinn", "EET-2EEST,M3.5.0/3,M10.5.0/4"),
    ("Europe/Moscow", "MSK-3"),
    ("Europe/Istanbul", "<+03>-3"),
    ("Europe/Minsk", "<+03>-3"),
    ("Africa/Cairo", "EET-2EEST,M4.5.5/0,M10.5.4/24"),
    ("Africa/Johannesburg", "SAST-2"),
    ("Africa/Lagos", "WAT-1"),
    ("Africa/Nairobi", "EAT-3"),
    ("Africa/Casablanca", "<+01>-1"),
    ("Asia/Tokyo", "JST-9"),
    ("Japan", "JST-9"),
    ("Asia/Seoul", "KST-9"),
    ("Asia/Shanghai", "CST-8"),
    ("PRC", "CST-8"),
    ("Asia/Hong_Kong", "HKT-8"),
    ("Asia/Taipei", "CST-8"),
    ("Asia/Singapore", "<+08>-8"),
    ("Asia/Manila", "PST-8"),
    ("Australia/Perth", "AWST-8"),
    ("Asia/Kolkata", "IST-5:30"),
    ("Asia/Calcutta", "IST-5:30"),
    ("Asia/Kathmandu", "<+0545>-5:45"),
    ("Asia/Karachi", "PKT-5"),
    ("Asia/Dubai", "<+04>-4"),
    ("Asia/Tehran", "<+0330>-3:30"),
    ("Asia/Jerusalem", "IST-2IDT,M3.4.4/26,M10.5.0"),
    ("Asia/Tel_Aviv", "IST-2IDT,M3.4.4/26,M10.5.0"),
    ("Asia/Bangkok", "<+07>-7"),
    ("Asia/Ho_Chi_Minh", "<+07>-7"),
    ("Asia/Jakarta", "WIB-7"),
    ("Asia/Dhaka", "<+06>-6"),
    ("Asia/Riyadh", "<+03>-3"),
    ("Australia/Sydney", "AEST-10AEDT,M10.1.0,M4.1.0/3"),
    ("Australia/Melbourne", "AEST-10AEDT,M10.1.0,M4.1.0/3"),
    ("Australia/Canberra", "AEST-10AEDT,M10.1.0,M4.1.0/3"),
    ("Australia/Hobart", "AEST-10AEDT,M10.1.0,M4.1.0/3"),
    ("Australia/Brisbane", "AEST-10"),
    ("Australia/Adelaide", "ACST-9:30ACDT,M10.1.0,M4.1.0/3"),
    ("Australia/Darwin", "ACST-9:30"),
    ("Pacific/Auckland", "NZST-12NZDT,M9.5.0,M4.1.0/3"),
    ("NZ", "NZST-12NZDT,M9.5.0,M4.1.0/3"),
    ("Pacific/Honolulu", "HST10"),
    ("US/Hawaii", "HST10"),
    ("HST", "HST10"),
    ("America/Anchorage", "AKST9AKDT,M3.2.0,M11.1.0"),
    ("US/Alaska", "AKST9AKDT,M3.2.0,M11.1.0"),
    ("America/Los_Angeles", "PST8PDT,M3.2.0,M11.1.0"),
    ("America/Vancouver", "PST8PDT,M3.2.0,M11.1.0"),
    ("America/Tijuana", "PST8PDT,M3.2.0,M11.1.0"),
    ("US/Pacific", "PST8PDT,M3.2.0,M11.1.0"),
    ("America/Denver", "MST7MDT,M3.2.0,M11.1.0"),
    ("America/Edmonton", "MST7MDT,M3.2.0,M11.1.0"),
    ("America/Boise", "MST7MDT,M3.2.0,M11.1.0"),
    ("US/Mountain", "MST7MDT,M3.2.0,M11.1.0"),
    ("America/Phoenix", "MST7"),
    ("US/Arizona", "MST7"),
    ("MST", "MST7"),
    ("America/Chicago", "CST6CDT,M3.2.0,M11.1.0"),
    ("America/Winnipeg", "CST6CDT,M3.2.0,M11.1.0"),
    ("US/Central", "CST6CDT,M3.2.0,M11.1.0"),
    ("America/Mexico_City", "CST6"),
    ("America/Regina", "CST6"),
    ("America/New_York", "EST5EDT,M3.2.0,M11.1.0"),
    ("America/Detroit", "EST5EDT,M3.2.0,M11.1.0"),
    ("America/Toronto", "EST5EDT,M3.2.0,M11.1.0"),
    ("America/Montreal", "EST5EDT,M3.2.0,M11.1.0"),
    ("US/Eastern", "EST5EDT,M3.2.0,M11.1.0"),
    ("EST", "EST5"),
    ("America/Bogota", "<-05>5"),
    ("America/Lima", "<-05>5"),
    ("America/Panama", "EST5"),
    ("America/Halifax", "AST4ADT,M3.2.0,M11.1.0"),
    ("America/Puerto_Rico", "AST4"),
    ("America/St_Johns", "NST3:30NDT,M3.2.0,M11.1.0"),
    ("America/Sao_Paulo", "<-03>3"),
    ("America/Argentina/Buenos_Aires", "<-03>3"),
    ("America/Buenos_Aires", "<-03>3"),
    ("America/Santiago", "<-04>4<-03>,M9.1.6/24,M4.1.6/24"),
    ("America/Caracas", "<-04>4"),
];

/// US rules glibc assumes for a zone with daylight saving and no rule.
const DEFAULT_RULES: &str = "M3.2.0,M11.1.0";

impl Zone {
    /// UTC, named "UTC".
    pub fn utc() -> Zone {
        Zone {
            name: "UTC".into(),
            offset: 0,
            dst: None,
        }
    }

    /// The zone `TZ` names (UTC when unset or empty).
    pub fn from_env() -> Zone {
        match std::env::var("TZ") {
            Ok(tz) => Zone::parse(&tz),
            Err(_) => Zone::utc(),
        }
    }

    /// A `TZ` value: a known tz database name, else a POSIX rule. Like
    /// glibc, a value that does not parse in full keeps the name it read,
    /// at UTC.
    pub fn parse(tz: &str) -> Zone {
        let tz = tz.strip_prefix(':').unwrap_or(tz);
        if tz.is_empty() {
            return Zone::utc();
        }
        let rule = NAMED
            .iter()
            .find(|(n, _)| *n == tz)
            .map_or(tz.to_string(), |(_, r)| r.to_string());
        if let Some(z) = etc_gmt(tz) {
            return z;
        }
        let mut p = Cursor {
            s: rule.as_bytes(),
            i: 0,
        };
        match parse_posix(&mut p) {
            Ok(z) => z,
            Err(name) => Zone {
                name: if name.is_empty() { "UTC".into() } else { name },
                offset: 0,
                dst: None,
            },
        }
    }

    /// Offset, daylight flag and abbreviation at a UTC instant.
    pub fn at(&self, utc: i64) -> Local<'_> {
        let std = Local {
            offset: self.offset,
            is_dst: false,
            name: &self.name,
        };
        let d = match &self.dst {
            None => return std,
            Some(d) => d,
        };
        let dst = Local {
            offset: d.offset,
            is_dst: true,
            name: &d.name,
        };
        let year = civil_from_days((utc + self.offset).div_euclid(86400)).0;
        let start = rule_local(&d.start, year) - self.offset;
        let end = rule_local(&d.end, year) - d.offset;
        let in_dst = if start < end {
            utc >= start && utc < end
        } else {
            // Southern hemisphere: the period spans New Year.
            utc < end || utc >= start
        };
        if in_dst {
            dst
        } else {
            std
        }
    }

    /// The UTC instant whose local wall clock reads `local` (seconds since
    /// the epoch as if local time were UTC), found as glibc's mktime finds
    /// it (guess, then correct by the offset at the guess), so a time
    /// repeated when clocks go back reads as glibc reads it; a time skipped
    /// when they go forward is None.
    pub fn to_utc(&self, local: i64) -> Option<i64> {
        let mut u = local;
        for _ in 0..3 {
            u = local - self.at(u).offset;
        }
        if self.at(u).offset == local - u {
            return Some(u);
        }
        let mut offsets = vec![self.offset];
        if let Some(d) = &self.dst {
            offsets.push(d.offset);
        }
        offsets
            .into_iter()
            .map(|o| local - o)
            .find(|&u| self.at(u).offset == local - u)
    }
}

/// `Etc/GMT+5` is five hours west (named `-05`), the sign POSIX uses.
fn etc_gmt(tz: &str) -> Option<Zone> {
    let rest = tz.strip_prefix("Etc/GMT")?;
    let (sign, digits) = match rest.as_bytes().first()? {
        b'+' => (-1, &rest[1..]),
        b'-' => (1, &rest[1..]),
        _ => return None,
    };
    let h: i64 = digits.parse().ok().filter(|h| *h <= 14)?;
    Some(Zone {
        name: format!("{}{:02}", if sign < 0 { '-' } else { '+' }, h),
        offset: sign * h * 3600,
        dst: None,
    })
}

/// Seconds since the epoch, as local wall time, at which `r` falls in `year`.
fn rule_local(r: &Rule, year: i64) -> i64 {
    let jan1 = days_from_civil(year, 1, 1);
    let day = match r.day {
        RuleDay::NoLeap(n) => {
            let mut d = jan1 + n - 1;
            if is_leap(year) && n >= 60 {
                d += 1;
            }
            d
        }
        RuleDay::Zero(n) => jan1 + n,
        RuleDay::Month(m, w, wd) => {
            let first = days_from_civil(year, m, 1);
            // 1970-01-01 was a Thursday (weekday 4).
            let first_wd = (first + 4).rem_euclid(7);
            let mut d = first + (wd - first_wd).rem_euclid(7) + (w - 1) * 7;
            let last = first + days_in_month(year, m) as i64 - 1;
            while d > last {
                d -= 7;
            }
            d
        }
    };
    day * 86400 + r.time
}

struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn number(&mut self) -> Option<i64> {
        let start = self.i;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.i += 1;
        }
        std::str::from_utf8(&self.s[start..self.i])
            .ok()?
            .parse()
            .ok()
    }
}

fn parse_name(p: &mut Cursor) -> Option<String> {
    let start = p.i;
    if p.eat(b'<') {
        while let Some(c) = p.peek() {
            p.i += 1;
            if c == b'>' {
                let n = &p.s[start + 1..p.i - 1];
                return Some(String::from_utf8_lossy(n).into_owned());
            }
        }
        return None;
    }
    while matches!(p.peek(), Some(c) if c.is_ascii_alphabetic()) {
        p.i += 1;
    }
    let n = String::from_utf8_lossy(&p.s[start..p.i]).into_owned();
    Some(n)
}

/// `[+-]hh[:mm[:ss]]` in seconds (sign as written).
fn parse_hms(p: &mut Cursor) -> Option<i64> {
    let sign = if p.eat(b'-') {
        -1
    } else {
        p.eat(b'+');
        1
    };
    let h = p.number()?;
    let mut secs = h * 3600;
    if p.eat(b':') {
        secs += p.number()? * 60;
        if p.eat(b':') {
            secs += p.number()?;
        }
    }
    Some(sign * secs)
}

fn parse_rule(p: &mut Cursor) -> Option<Rule> {
    let day = if p.eat(b'J') {
        RuleDay::NoLeap(p.number().filter(|n| (1..=365).contains(n))?)
    } else if p.eat(b'M') {
        let m = p.number().filter(|n| (1..=12).contains(n))?;
        if !p.eat(b'.') {
            return None;
        }
        let w = p.number().filter(|n| (1..=5).contains(n))?;
        if !p.eat(b'.') {
            return None;
        }
        let d = p.number().filter(|n| (0..=6).contains(n))?;
        RuleDay::Month(m as u32, w, d)
    } else {
        RuleDay::Zero(p.number().filter(|n| (0..=365).contains(n))?)
    };
    let time = if p.eat(b'/') { parse_hms(p)? } else { 7200 };
    Some(Rule { day, time })
}

/// A POSIX TZ rule; on failure the standard name read so far.
fn parse_posix(p: &mut Cursor) -> Result<Zone, String> {
    let name = parse_name(p).unwrap_or_default();
    if name.len() < 3 && !name.starts_with(['+', '-']) && name != "UT" {
        return Err(name);
    }
    let west = match parse_hms(p) {
        Some(v) => v,
        None => return Err(name),
    };
    let mut z = Zone {
        name,
        offset: -west,
        dst: None,
    };
    if p.peek().is_none() {
        return Ok(z);
    }
    let dname = match parse_name(p) {
        Some(n) if !n.is_empty() => n,
        _ => return Ok(z),
    };
    let doff = match p.peek() {
        Some(b',') | None => z.offset + 3600,
        _ => match parse_hms(p) {
            Some(v) => -v,
            None => return Ok(z),
        },
    };
    let rules = if p.eat(b',') {
        String::from_utf8_lossy(&p.s[p.i..]).into_owned()
    } else {
        DEFAULT_RULES.to_string()
    };
    let mut r = Cursor {
        s: rules.as_bytes(),
        i: 0,
    };
    let start = parse_rule(&mut r);
    let comma = r.eat(b',');
    let end = parse_rule(&mut r);
    if let (Some(start), true, Some(end)) = (start, comma, end) {
        z.dst = Some(Dst {
            name: dname,
            offset: doff,
            start,
            end,
        });
    }
    Ok(z)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(tz: &str, utc: i64) -> (i64, String) {
        let z = Zone::parse(tz);
        let l = z.at(utc);
        (l.offset, l.name.to_string())
    }

    // 2024-07-01 12:00 UTC and 2024-01-15 12:00 UTC.
    const JULY: i64 = 1_719_835_200;
    const JAN: i64 = 1_705_320_000;

    #[test]
    fn posix_rules() {
        assert_eq!(at("EST5EDT", JULY), (-4 * 3600, "EDT".into()));
        assert_eq!(at("EST5EDT", JAN), (-5 * 3600, "EST".into()));
        assert_eq!(at("UTC0", JULY), (0, "UTC".into()));
        assert_eq!(at("<+03>-3", JULY), (3 * 3600, "+03".into()));
        assert_eq!(at("Foo/Bar", JULY), (0, "Foo".into()));
        assert_eq!(at("", JULY), (0, "UTC".into()));
        assert_eq!(at("Etc/GMT+5", JULY), (-5 * 3600, "-05".into()));
    }

    #[test]
    fn named_zones() {
        assert_eq!(at("Europe/Paris", JULY), (7200, "CEST".into()));
        assert_eq!(at("Europe/Paris", JAN), (3600, "CET".into()));
        assert_eq!(at("Australia/Sydney", JULY), (36000, "AEST".into()));
        assert_eq!(at("Australia/Sydney", JAN), (39600, "AEDT".into()));
        assert_eq!(at("Asia/Kolkata", JAN), (19800, "IST".into()));
    }

    #[test]
    fn transitions() {
        let z = Zone::parse("Europe/Paris");
        // 2024-03-31 01:00 UTC: clocks go 02:00 -> 03:00 local.
        assert_eq!(z.at(1_711_846_799).offset, 3600);
        assert_eq!(z.at(1_711_846_800).offset, 7200);
        // 2024-10-27 01:00 UTC: back to standard time.
        assert_eq!(z.at(1_729_990_799).offset, 7200);
        assert_eq!(z.at(1_729_990_800).offset, 3600);
        // Local noon on 2024-07-01 is 10:00 UTC.
        assert_eq!(z.to_utc(JULY), Some(JULY - 7200));
        // 02:30 on 2024-03-31 does not exist there.
        assert_eq!(z.to_utc(1_711_852_200), None);
    }
}
