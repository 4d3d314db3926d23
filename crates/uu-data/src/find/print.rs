//! find's -printf directives and the -ls line.

use super::parse::Stamp;
use super::Ent;
use coreutils_core::bytes::path_bytes;
use coreutils_core::users::NameCache;

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const MONTHS_LONG: [&str; 12] = [
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
const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const DAYS_LONG: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// Broken-down UTC time.
pub(crate) struct Tm {
    pub(crate) year: i64,
    pub(crate) mon: u32,
    pub(crate) day: u32,
    pub(crate) hour: u32,
    pub(crate) min: u32,
    pub(crate) sec: u32,
    wday: u32,
    yday: u32,
}

/// UTC calendar fields of `secs` since the epoch.
pub(crate) fn tm(secs: i64) -> Tm {
    let days = secs.div_euclid(86400);
    let rem = secs.rem_euclid(86400);
    // Civil-from-days (proleptic Gregorian), era-based.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let cum = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
    let yday = cum[(m - 1) as usize] + d - 1 + if leap && m > 2 { 1 } else { 0 };
    Tm {
        year: y,
        mon: m as u32,
        day: d as u32,
        hour: (rem / 3600) as u32,
        min: (rem / 60 % 60) as u32,
        sec: (rem % 60) as u32,
        wday: (days + 4).rem_euclid(7) as u32,
        yday: yday as u32,
    }
}

fn strf(c: u8, ns: i128) -> Option<String> {
    let secs = ns.div_euclid(1_000_000_000) as i64;
    let frac = ns.rem_euclid(1_000_000_000);
    let t = tm(secs);
    Some(match c {
        b'@' => format!("{}.{:010}", secs, frac * 10),
        b'Y' => t.year.to_string(),
        b'y' => format!("{:02}", t.year.rem_euclid(100)),
        b'm' => format!("{:02}", t.mon),
        b'd' => format!("{:02}", t.day),
        b'e' => format!("{:2}", t.day),
        b'H' => format!("{:02}", t.hour),
        b'I' => format!("{:02}", if t.hour % 12 == 0 { 12 } else { t.hour % 12 }),
        b'k' => format!("{:2}", t.hour),
        b'l' => format!("{:2}", if t.hour % 12 == 0 { 12 } else { t.hour % 12 }),
        b'M' => format!("{:02}", t.min),
        b'S' => format!("{:02}.{:010}", t.sec, frac * 10),
        b'p' => (if t.hour < 12 { "AM" } else { "PM" }).to_string(),
        b'j' => format!("{:03}", t.yday + 1),
        b'a' => DAYS[t.wday as usize].to_string(),
        b'A' => DAYS_LONG[t.wday as usize].to_string(),
        b'b' | b'h' => MONTHS[t.mon as usize - 1].to_string(),
        b'B' => MONTHS_LONG[t.mon as usize - 1].to_string(),
        b'u' => (if t.wday == 0 { 7 } else { t.wday }).to_string(),
        b'w' => t.wday.to_string(),
        b'T' | b'X' => format!("{:02}:{:02}:{:02}.{:010}", t.hour, t.min, t.sec, frac * 10),
        b'r' => format!(
            "{:02}:{:02}:{:02} {}",
            if t.hour % 12 == 0 { 12 } else { t.hour % 12 },
            t.min,
            t.sec,
            if t.hour < 12 { "AM" } else { "PM" }
        ),
        b'D' | b'x' => format!("{:02}/{:02}/{:02}", t.mon, t.day, t.year.rem_euclid(100)),
        b'F' => format!("{}-{:02}-{:02}", t.year, t.mon, t.day),
        b'R' => format!("{:02}:{:02}", t.hour, t.min),
        b's' => secs.to_string(),
        b'Z' => "UTC".to_string(),
        b'z' => "+0000".to_string(),
        b'+' => format!(
            "{}-{:02}-{:02}+{:02}:{:02}:{:02}.{:010}",
            t.year,
            t.mon,
            t.day,
            t.hour,
            t.min,
            t.sec,
            frac * 10
        ),
        b'c' => ctime(ns, false),
        _ => return None,
    })
}

/// `Sat Nov 21 02:11:28.1234567890 2026` as %t prints it.
fn ctime(ns: i128, _short: bool) -> String {
    let secs = ns.div_euclid(1_000_000_000) as i64;
    let frac = ns.rem_euclid(1_000_000_000);
    let t = tm(secs);
    format!(
        "{} {} {:2} {:02}:{:02}:{:02}.{:010} {}",
        DAYS[t.wday as usize],
        MONTHS[t.mon as usize - 1],
        t.day,
        t.hour,
        t.min,
        t.sec,
        frac * 10,
        t.year
    )
}

/// `drwxr-xr-x` style mode.
pub(crate) fn mode_string(mode: u32, tc: u8) -> String {
    let mut s = String::with_capacity(10);
    s.push(match tc {
        b'f' => '-',
        c => c as char,
    });
    let bits = [
        (0o400, 'r'),
        (0o200, 'w'),
        (0o100, 'x'),
        (0o040, 'r'),
        (0o020, 'w'),
        (0o010, 'x'),
        (0o004, 'r'),
        (0o002, 'w'),
        (0o001, 'x'),
    ];
    for (k, (b, ch)) in bits.iter().enumerate() {
        let set = mode & b != 0;
        let special = match k {
            2 => mode & 0o4000 != 0,
            5 => mode & 0o2000 != 0,
            8 => mode & 0o1000 != 0,
            _ => false,
        };
        s.push(if special {
            let c = if k == 8 { 't' } else { 's' };
            if set {
                c
            } else {
                c.to_ascii_uppercase()
            }
        } else if set {
            *ch
        } else {
            '-'
        });
    }
    s
}

fn blocks(e: &Ent) -> u64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        e.meta().map_or(0, |m| m.blocks())
    }
    #[cfg(not(unix))]
    {
        (e.len() + 4095) / 4096 * 8
    }
}

fn dirname(p: &[u8]) -> Vec<u8> {
    let mut end = p.len();
    while end > 1 && p[end - 1] == b'/' {
        end -= 1;
    }
    match p[..end].iter().rposition(|&c| c == b'/') {
        Some(0) => b"/".to_vec(),
        Some(i) => p[..i].to_vec(),
        None => b".".to_vec(),
    }
}

fn pad(out: &mut Vec<u8>, val: &[u8], flags: &[u8], width: usize, prec: Option<usize>) {
    let val = match prec {
        Some(p) if p < val.len() => &val[..p],
        _ => val,
    };
    let n = width.saturating_sub(val.len());
    if flags.contains(&b'-') {
        out.extend_from_slice(val);
        out.extend(std::iter::repeat(b' ').take(n));
    } else if flags.contains(&b'0') && val.iter().all(|c| c.is_ascii_digit()) {
        out.extend(std::iter::repeat(b'0').take(n));
        out.extend_from_slice(val);
    } else {
        out.extend(std::iter::repeat(b' ').take(n));
        out.extend_from_slice(val);
    }
}

/// Expand a -printf format for one file.
pub(crate) fn printf(fmt: &[u8], e: &Ent, _now: i128, names: &mut NameCache) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < fmt.len() {
        let c = fmt[i];
        if c == b'\\' && i + 1 < fmt.len() {
            let d = fmt[i + 1];
            i += 2;
            match d {
                b'n' => out.push(b'\n'),
                b't' => out.push(b'\t'),
                b'0'..=b'7' => {
                    let mut v = (d - b'0') as u32;
                    let mut k = 0;
                    while k < 2 && i < fmt.len() && (b'0'..=b'7').contains(&fmt[i]) {
                        v = v * 8 + (fmt[i] - b'0') as u32;
                        i += 1;
                        k += 1;
                    }
                    out.push(v as u8);
                }
                b'a' => out.push(7),
                b'b' => out.push(8),
                b'f' => out.push(12),
                b'r' => out.push(b'\r'),
                b'v' => out.push(11),
                b'\\' => out.push(b'\\'),
                b'c' => return out,
                other => {
                    out.push(b'\\');
                    out.push(other);
                }
            }
            continue;
        }
        if c != b'%' || i + 1 >= fmt.len() {
            out.push(c);
            i += 1;
            continue;
        }
        i += 1;
        let fs = i;
        while i < fmt.len() && b"-+ #0".contains(&fmt[i]) {
            i += 1;
        }
        let flags = &fmt[fs..i];
        let ws = i;
        while i < fmt.len() && fmt[i].is_ascii_digit() {
            i += 1;
        }
        let width: usize = std::str::from_utf8(&fmt[ws..i])
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let mut prec = None;
        if i < fmt.len() && fmt[i] == b'.' {
            i += 1;
            let ps = i;
            while i < fmt.len() && fmt[i].is_ascii_digit() {
                i += 1;
            }
            prec = std::str::from_utf8(&fmt[ps..i])
                .ok()
                .and_then(|s| s.parse().ok())
                .or(Some(0));
        }
        if i >= fmt.len() {
            out.push(b'%');
            break;
        }
        let d = fmt[i];
        i += 1;
        let p = e.p();
        let val: Vec<u8> = match d {
            b'%' => b"%".to_vec(),
            b'p' => e.path.to_vec(),
            b'f' => super::base_of(e.path).to_vec(),
            b'h' => dirname(e.path),
            b'P' => {
                let r = &e.path[e.root_len.min(e.path.len())..];
                r.strip_prefix(b"/").unwrap_or(r).to_vec()
            }
            b'H' => e.path[..e.root_len.min(e.path.len())].to_vec(),
            b'd' => e.depth.to_string().into_bytes(),
            b's' => e.len().to_string().into_bytes(),
            b'k' => ((blocks(e) + 1) / 2).to_string().into_bytes(),
            b'b' => blocks(e).to_string().into_bytes(),
            b'm' => {
                let m = e.ext().mode & 0o7777;
                if flags.contains(&b'#') {
                    format!("{:#o}", m).replace("0o", "0").into_bytes()
                } else {
                    format!("{:o}", m).into_bytes()
                }
            }
            b'M' => mode_string(e.ext().mode, e.type_char()).into_bytes(),
            b'n' => e.ext().nlink.to_string().into_bytes(),
            b'u' => names.user(e.ext().uid).into_bytes(),
            b'g' => names.group(e.ext().gid).into_bytes(),
            b'U' => e.ext().uid.to_string().into_bytes(),
            b'G' => e.ext().gid.to_string().into_bytes(),
            b'i' => coreutils_core::meta::inode(&p, e.follow)
                .unwrap_or(0)
                .to_string()
                .into_bytes(),
            b'D' => coreutils_core::meta::raw_stat(&p, e.follow)
                .map(|r| r.dev)
                .unwrap_or(0)
                .to_string()
                .into_bytes(),
            b'l' => {
                if e.ftype.is_symlink() {
                    std::fs::read_link(&p)
                        .map(|t| path_bytes(&t).to_vec())
                        .unwrap_or_default()
                } else {
                    Vec::new()
                }
            }
            b'y' => vec![e.type_char()],
            b'Y' => match std::fs::metadata(&p) {
                Ok(m) => vec![super::type_char(m.file_type())],
                Err(_) => {
                    if e.ftype.is_symlink() {
                        b"N".to_vec()
                    } else {
                        vec![e.type_char()]
                    }
                }
            },
            b'S' => {
                let b = blocks(e) as f64 * 512.0;
                let l = e.len().max(1) as f64;
                format!("{}", b / l).into_bytes()
            }
            b'a' | b'c' | b't' => {
                let st = match d {
                    b'a' => Stamp::A,
                    b'c' => Stamp::C,
                    _ => Stamp::M,
                };
                ctime(e.time(st), false).into_bytes()
            }
            b'A' | b'C' | b'T' => {
                let st = match d {
                    b'A' => Stamp::A,
                    b'C' => Stamp::C,
                    _ => Stamp::M,
                };
                if i >= fmt.len() {
                    out.push(b'%');
                    out.push(d);
                    break;
                }
                let k = fmt[i];
                i += 1;
                match strf(k, e.time(st)) {
                    Some(s) => s.into_bytes(),
                    None => vec![b'%', d, k],
                }
            }
            other => vec![b'%', other],
        };
        pad(&mut out, &val, flags, width, prec);
    }
    out
}

/// One `-ls` line.
pub(crate) fn ls(e: &Ent, now: i128, names: &mut NameCache) -> Vec<u8> {
    let p = e.p();
    let ext = e.ext();
    let ino = coreutils_core::meta::inode(&p, e.follow).unwrap_or(0);
    let t = e.time(Stamp::M);
    let secs = t.div_euclid(1_000_000_000) as i64;
    let tmv = tm(secs);
    let half_year = 15_778_476i128 * 1_000_000_000;
    let recent = t <= now && now - t < half_year;
    let when = if recent {
        format!(
            "{} {:2} {:02}:{:02}",
            MONTHS[tmv.mon as usize - 1],
            tmv.day,
            tmv.hour,
            tmv.min
        )
    } else {
        format!(
            "{} {:2}  {}",
            MONTHS[tmv.mon as usize - 1],
            tmv.day,
            tmv.year
        )
    };
    let mut s = format!(
        "{:9} {:6} {:10} {:3} {:<8} {:<8} {:8} {} ",
        ino,
        (blocks(e) + 1) / 2,
        mode_string(ext.mode, e.type_char()),
        ext.nlink,
        names.user(ext.uid),
        names.group(ext.gid),
        e.len(),
        when
    )
    .into_bytes();
    s.extend_from_slice(e.path);
    if e.ftype.is_symlink() {
        if let Ok(target) = std::fs::read_link(&p) {
            s.extend_from_slice(b" -> ");
            s.extend_from_slice(path_bytes(&target));
        }
    }
    s.push(b'\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_time() {
        let t = tm(1_700_000_000);
        assert_eq!(
            (t.year, t.mon, t.day, t.hour, t.min, t.sec),
            (2023, 11, 14, 22, 13, 20)
        );
        assert_eq!(t.wday, 2);
        assert_eq!(mode_string(0o4755, b'f'), "-rwsr-xr-x");
        assert_eq!(mode_string(0o1777, b'd'), "drwxrwxrwt");
    }
}
