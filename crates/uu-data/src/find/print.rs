//! find's -printf directives and the -ls line.

use super::parse::Stamp;
use super::Ent;
use coreutils_core::bytes::path_bytes;
use coreutils_core::calendar::{day_abbr, month_abbr, Tm, DAYS, MONTHS};
use coreutils_core::users::NameCache;

fn strf(c: u8, ns: i128) -> Option<String> {
    let secs = ns.div_euclid(1_000_000_000) as i64;
    let frac = ns.rem_euclid(1_000_000_000);
    let t = Tm::from_secs(secs);
    Some(match c {
        b'@' => format!("{}.{:010}", secs, frac * 10),
        b'Y' => t.year.to_string(),
        b'y' => format!("{:02}", t.year.rem_euclid(100)),
        b'm' => format!("{:02}", t.mon),
        b'd' => format!("{:02}", t.mday),
        b'e' => format!("{:2}", t.mday),
        b'H' => format!("{:02}", t.hour),
        b'I' => format!("{:02}", if t.hour % 12 == 0 { 12 } else { t.hour % 12 }),
        b'k' => format!("{:2}", t.hour),
        b'l' => format!("{:2}", if t.hour % 12 == 0 { 12 } else { t.hour % 12 }),
        b'M' => format!("{:02}", t.min),
        b'S' => format!("{:02}.{:010}", t.sec, frac * 10),
        b'p' => (if t.hour < 12 { "AM" } else { "PM" }).to_string(),
        b'j' => format!("{:03}", t.yday + 1),
        b'a' => day_abbr(t.wday).to_string(),
        b'A' => DAYS[t.wday as usize].to_string(),
        b'b' | b'h' => month_abbr(t.mon).to_string(),
        b'B' => MONTHS[t.mon as usize - 1].to_string(),
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
        b'D' | b'x' => format!("{:02}/{:02}/{:02}", t.mon, t.mday, t.year.rem_euclid(100)),
        b'F' => format!("{}-{:02}-{:02}", t.year, t.mon, t.mday),
        b'R' => format!("{:02}:{:02}", t.hour, t.min),
        b's' => secs.to_string(),
        b'Z' => "UTC".to_string(),
        b'z' => "+0000".to_string(),
        b'+' => format!(
            "{}-{:02}-{:02}+{:02}:{:02}:{:02}.{:010}",
            t.year,
            t.mon,
            t.mday,
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
    let t = Tm::from_secs(secs);
    format!(
        "{} {} {:2} {:02}:{:02}:{:02}.{:010} {}",
        day_abbr(t.wday),
        month_abbr(t.mon),
        t.mday,
        t.hour,
        t.min,
        t.sec,
        frac * 10,
        t.year
    )
}

/// `drwxr-xr-x` style mode; `tc` is find's type letter (`f` shows as `-`).
pub(crate) fn mode_string(mode: u32, tc: u8) -> String {
    let t = if tc == b'f' { '-' } else { tc as char };
    format!("{}{}", t, coreutils_core::meta::perm_string(mode))
}

fn blocks(e: &Ent) -> u64 {
    e.stat().map_or(0, |m| m.blocks)
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
            b'i' => e.stat().map_or(0, |s| s.ino).to_string().into_bytes(),
            b'D' => e.stat().map_or(0, |s| s.dev).to_string().into_bytes(),
            b'l' => {
                if e.ftype.is_symlink() {
                    coreutils_core::fs::read_link(&p)
                        .map(|t| path_bytes(&t).to_vec())
                        .unwrap_or_default()
                } else {
                    Vec::new()
                }
            }
            b'y' => vec![e.type_char()],
            b'Y' => match coreutils_core::fs::metadata(&p) {
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
    let ino = e.stat().map_or(0, |s| s.ino);
    let t = e.time(Stamp::M);
    let secs = t.div_euclid(1_000_000_000) as i64;
    let tmv = Tm::from_secs(secs);
    let half_year = 15_778_476i128 * 1_000_000_000;
    let recent = t <= now && now - t < half_year;
    let when = if recent {
        format!(
            "{} {:2} {:02}:{:02}",
            month_abbr(tmv.mon),
            tmv.mday,
            tmv.hour,
            tmv.min
        )
    } else {
        format!("{} {:2}  {}", month_abbr(tmv.mon), tmv.mday, tmv.year)
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
        if let Ok(target) = coreutils_core::fs::read_link(&p) {
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
        let t = Tm::from_secs(1_700_000_000);
        assert_eq!(
            (t.year, t.mon, t.mday, t.hour, t.min, t.sec),
            (2023, 11, 14, 22, 13, 20)
        );
        assert_eq!(t.wday, 2);
        assert_eq!(mode_string(0o4755, b'f'), "-rwsr-xr-x");
        assert_eq!(mode_string(0o1777, b'd'), "drwxrwxrwt");
    }
}
