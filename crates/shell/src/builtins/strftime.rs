//! `printf '%(fmt)T'`: strftime for UTC times (the sandbox has no zone
//! database; the reference machine runs in UTC too).

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

struct Tm {
    year: i64,
    mon: usize,
    mday: i64,
    yday: i64,
    wday: usize,
    hour: i64,
    min: i64,
    sec: i64,
}

fn civil(t: i64) -> Tm {
    let days = t.div_euclid(86_400);
    let secs = t.rem_euclid(86_400);
    // days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's method)
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let mday = doy - (153 * mp + 2) / 5 + 1;
    let mon = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(mon <= 2);
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let before = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334][(mon - 1) as usize];
    let yday = before + mday - 1 + i64::from(leap && mon > 2);
    Tm {
        year,
        mon: (mon - 1) as usize,
        mday,
        yday,
        wday: (days + 4).rem_euclid(7) as usize,
        hour: secs / 3600,
        min: secs / 60 % 60,
        sec: secs % 60,
    }
}

pub fn strftime(fmt: &[u8], t: i64) -> Vec<u8> {
    let tm = civil(t);
    let mut o = String::new();
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] != b'%' || i + 1 >= fmt.len() {
            o.push(fmt[i] as char);
            i += 1;
            continue;
        }
        i += 1;
        let h12 = (tm.hour + 11) % 12 + 1;
        match fmt[i] {
            b'Y' => o.push_str(&tm.year.to_string()),
            b'C' => put(&mut o, format_args!("{:02}", tm.year / 100)),
            b'y' => put(&mut o, format_args!("{:02}", tm.year % 100)),
            b'm' => put(&mut o, format_args!("{:02}", tm.mon + 1)),
            b'd' => put(&mut o, format_args!("{:02}", tm.mday)),
            b'e' => put(&mut o, format_args!("{:2}", tm.mday)),
            b'j' => put(&mut o, format_args!("{:03}", tm.yday + 1)),
            b'H' => put(&mut o, format_args!("{:02}", tm.hour)),
            b'k' => put(&mut o, format_args!("{:2}", tm.hour)),
            b'I' => put(&mut o, format_args!("{:02}", h12)),
            b'l' => put(&mut o, format_args!("{:2}", h12)),
            b'M' => put(&mut o, format_args!("{:02}", tm.min)),
            b'S' => put(&mut o, format_args!("{:02}", tm.sec)),
            b'p' => o.push_str(if tm.hour < 12 { "AM" } else { "PM" }),
            b'P' => o.push_str(if tm.hour < 12 { "am" } else { "pm" }),
            b'a' => o.push_str(&DAYS[tm.wday][..3]),
            b'A' => o.push_str(DAYS[tm.wday]),
            b'b' | b'h' => o.push_str(&MONTHS[tm.mon][..3]),
            b'B' => o.push_str(MONTHS[tm.mon]),
            b'u' => o.push_str(&(if tm.wday == 0 { 7 } else { tm.wday }).to_string()),
            b'w' => o.push_str(&tm.wday.to_string()),
            b's' => o.push_str(&t.to_string()),
            b'Z' => o.push_str("UTC"),
            b'z' => o.push_str("+0000"),
            b'F' => put(
                &mut o,
                format_args!("{}-{:02}-{:02}", tm.year, tm.mon + 1, tm.mday),
            ),
            b'T' => put(
                &mut o,
                format_args!("{:02}:{:02}:{:02}", tm.hour, tm.min, tm.sec),
            ),
            b'R' => put(&mut o, format_args!("{:02}:{:02}", tm.hour, tm.min)),
            b'D' | b'x' => put(
                &mut o,
                format_args!("{:02}/{:02}/{:02}", tm.mon + 1, tm.mday, tm.year % 100),
            ),
            b'X' => put(
                &mut o,
                format_args!("{:02}:{:02}:{:02}", tm.hour, tm.min, tm.sec),
            ),
            b'c' => put(
                &mut o,
                format_args!(
                    "{} {} {:2} {:02}:{:02}:{:02} {}",
                    &DAYS[tm.wday][..3],
                    &MONTHS[tm.mon][..3],
                    tm.mday,
                    tm.hour,
                    tm.min,
                    tm.sec,
                    tm.year
                ),
            ),
            b'n' => o.push('\n'),
            b't' => o.push('\t'),
            b'%' => o.push('%'),
            c => {
                o.push('%');
                o.push(c as char);
            }
        }
        i += 1;
    }
    o.into_bytes()
}

/// Formats straight into `o` (no intermediate String).
pub fn put(o: &mut String, a: std::fmt::Arguments) {
    use std::fmt::Write;
    let _ = o.write_fmt(a);
}

#[cfg(test)]
mod tests {
    use super::strftime;

    #[test]
    fn formats_utc_times() {
        assert_eq!(
            strftime(b"%Y-%m-%d %H:%M:%S", 86_400),
            b"1970-01-02 00:00:00"
        );
        assert_eq!(strftime(b"%a %b %e %j", 951_782_400), b"Tue Feb 29 060");
        assert_eq!(
            strftime(b"%F %T %p", 1_700_000_000),
            b"2023-11-14 22:13:20 PM"
        );
    }
}
