//! `tr`: translate, squeeze and delete bytes. Sets support escapes,
//! ranges, `[:class:]`, `[=c=]` and `[c*n]` repeats, as GNU's.

use std::ffi::OsString;
use std::io::Read;

use crate::common::bytes::os_bytes;
use crate::common::input::{err_text, finish, put, stdout};
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};

const USAGE: Usage = Usage::new("tr", "[OPTION]... STRING1 [STRING2]\nTranslate, squeeze, and/or delete characters from standard input,\nwriting to standard output.\n", 1);

const SPEC: &[OptSpec<&str>] = &[
    opt("c", Some('c'), Some("complement"), HasArg::No),
    opt("c", Some('C'), None, HasArg::No),
    opt("d", Some('d'), Some("delete"), HasArg::No),
    opt("s", Some('s'), Some("squeeze-repeats"), HasArg::No),
    opt("t", Some('t'), Some("truncate-set1"), HasArg::No),
];

#[derive(Debug, Clone, PartialEq)]
enum Elem {
    Chars(Vec<u8>),
    Class(&'static str, Vec<u8>),
    Repeat(u8, Option<usize>),
}

fn class(name: &str) -> Option<(&'static str, Vec<u8>)> {
    let (n, f): (&'static str, fn(u8) -> bool) = match name {
        "alnum" => ("alnum", |c| c.is_ascii_alphanumeric()),
        "alpha" => ("alpha", |c| c.is_ascii_alphabetic()),
        "blank" => ("blank", |c| c == b' ' || c == b'\t'),
        "cntrl" => ("cntrl", |c| c.is_ascii_control()),
        "digit" => ("digit", |c| c.is_ascii_digit()),
        "graph" => ("graph", |c| c.is_ascii_graphic()),
        "lower" => ("lower", |c| c.is_ascii_lowercase()),
        "print" => ("print", |c| (0x20..0x7f).contains(&c)),
        "punct" => ("punct", |c| c.is_ascii_punctuation()),
        "space" => ("space", |c| {
            matches!(c, b' ' | b'\t' | b'\n' | 11 | 12 | b'\r')
        }),
        "upper" => ("upper", |c| c.is_ascii_uppercase()),
        "xdigit" => ("xdigit", |c| c.is_ascii_hexdigit()),
        _ => return None,
    };
    Some((n, (0u8..=255).filter(|&c| f(c)).collect()))
}

/// Decode backslash escapes; each output byte says whether it was escaped
/// (escaped `[`, `-` and `*` lose their meaning).
fn unescape(s: &[u8]) -> Vec<(u8, bool)> {
    let mut v = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if s[i] != b'\\' {
            v.push((s[i], false));
            i += 1;
            continue;
        }
        i += 1;
        if i >= s.len() {
            eprintln!(
                "{}: warning: an unescaped backslash at end of string is not portable",
                coreutils_core::prog("tr")
            );
            v.push((b'\\', true));
            break;
        }
        let c = s[i];
        i += 1;
        let b = match c {
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'v' => 11,
            b'0'..=b'7' => {
                let mut val = u32::from(c - b'0');
                let mut n = 1;
                while n < 3 && i < s.len() && (b'0'..=b'7').contains(&s[i]) {
                    let nv = val * 8 + u32::from(s[i] - b'0');
                    if nv > 255 {
                        eprintln!(
                            "{}: warning: the ambiguous octal escape \\{}{}{} is being\n\tinterpreted as the 2-byte sequence \\0{}{}, {}", coreutils_core::prog("tr"),
                            c as char, s[i - 1] as char, s[i] as char, c as char, s[i - 1] as char, s[i] as char
                        );
                        break;
                    }
                    val = nv;
                    i += 1;
                    n += 1;
                }
                val as u8
            }
            other => other,
        };
        v.push((b, true));
    }
    v
}

fn parse_set(s: &[u8], is_set2: bool) -> Result<Vec<Elem>, String> {
    let u = unescape(s);
    let mut out: Vec<Elem> = Vec::new();
    let mut i = 0;
    let push_char = |out: &mut Vec<Elem>, c: u8| match out.last_mut() {
        Some(Elem::Chars(v)) => v.push(c),
        _ => out.push(Elem::Chars(vec![c])),
    };
    while i < u.len() {
        let (c, esc) = u[i];
        if c == b'[' && !esc && i + 1 < u.len() {
            let (n1, e1) = u[i + 1];
            if (n1 == b':' || n1 == b'=') && !e1 {
                // Find the closing `:]` / `=]`.
                let mut j = i + 2;
                let mut found = None;
                while j + 1 < u.len() {
                    if u[j].0 == n1 && u[j + 1].0 == b']' && !u[j].1 && !u[j + 1].1 {
                        found = Some(j);
                        break;
                    }
                    j += 1;
                }
                if let Some(j) = found {
                    let inner: Vec<u8> = u[i + 2..j].iter().map(|x| x.0).collect();
                    if n1 == b':' {
                        let name = String::from_utf8_lossy(&inner).into_owned();
                        match class(&name) {
                            Some((n, v)) => out.push(Elem::Class(n, v)),
                            None => return Err(format!("invalid character class '{}'", name)),
                        }
                    } else {
                        if inner.len() != 1 {
                            return Err(format!(
                                "{}: equivalence class operand must be a single character",
                                String::from_utf8_lossy(&inner)
                            ));
                        }
                        push_char(&mut out, inner[0]);
                    }
                    i = j + 2;
                    continue;
                }
            }
            // `[c*n]` repeat.
            if i + 2 < u.len() && u[i + 2] == (b'*', false) {
                let mut j = i + 3;
                while j < u.len() && u[j].0.is_ascii_digit() {
                    j += 1;
                }
                if j < u.len() && u[j] == (b']', false) {
                    if !is_set2 {
                        return Err("the [c*] repeat construct may not appear in string1".into());
                    }
                    let digits: String = u[i + 3..j].iter().map(|x| x.0 as char).collect();
                    let count = if digits.is_empty() {
                        None
                    } else {
                        let radix = if digits.starts_with('0') { 8 } else { 10 };
                        match usize::from_str_radix(&digits, radix) {
                            Ok(0) => None,
                            Ok(n) => Some(n),
                            Err(_) => {
                                return Err(format!(
                                    "invalid repeat count '{}' in [c*n] construct",
                                    digits
                                ))
                            }
                        }
                    };
                    out.push(Elem::Repeat(n1, count));
                    i = j + 1;
                    continue;
                }
            }
        }
        // Range `a-b`.
        if i + 2 < u.len() && u[i + 1] == (b'-', false) {
            let hi = u[i + 2].0;
            if hi < c {
                return Err(format!(
                    "range-endpoints of '{}-{}' are in reverse collating sequence order",
                    show(c),
                    show(hi)
                ));
            }
            for x in c..=hi {
                push_char(&mut out, x);
            }
            i += 3;
            continue;
        }
        push_char(&mut out, c);
        i += 1;
    }
    Ok(out)
}

fn show(c: u8) -> String {
    if c.is_ascii_graphic() || c == b' ' {
        (c as char).to_string()
    } else {
        format!("\\{:03o}", c)
    }
}

/// Where each element of a set starts (in characters), with its class.
fn class_offsets(set: &[Elem]) -> Vec<(usize, Option<&'static str>)> {
    let mut at = 0;
    let mut out = Vec::new();
    for e in set {
        let (len, class) = match e {
            Elem::Chars(v) => (v.len(), None),
            Elem::Class(n, v) => (v.len(), Some(*n)),
            Elem::Repeat(_, n) => (n.unwrap_or(0), None),
        };
        out.push((at, class));
        at += len;
    }
    out
}

/// GNU's checks on `[:upper:]`/`[:lower:]` in string2 when translating:
/// a class may not end a shorter string2, and each must face an
/// `[:upper:]` or `[:lower:]` of string1 at the same position.
fn case_class_error(
    s1: &[Elem],
    comp: bool,
    len1: usize,
    s2: &[Elem],
    len2: usize,
    trunc: bool,
) -> Option<&'static str> {
    if !trunc && len1 > len2 && matches!(s2.last(), Some(Elem::Class(..))) {
        return Some(
            "when translating with string1 longer than string2,\nthe latter string must not end with a character class",
        );
    }
    let firsts = if comp { Vec::new() } else { class_offsets(s1) };
    let case = |c: Option<&str>| matches!(c, Some("upper") | Some("lower"));
    for (at, class) in class_offsets(s2) {
        if case(class) && !firsts.iter().any(|&(a, c)| a == at && case(c)) {
            return Some("misaligned [:upper:] and/or [:lower:] construct");
        }
    }
    None
}

fn flatten(set: &[Elem], target_len: usize) -> Result<Vec<u8>, String> {
    let fixed: usize = set
        .iter()
        .map(|e| match e {
            Elem::Chars(v) | Elem::Class(_, v) => v.len(),
            Elem::Repeat(_, Some(n)) => *n,
            Elem::Repeat(_, None) => 0,
        })
        .sum();
    let fills = set
        .iter()
        .filter(|e| matches!(e, Elem::Repeat(_, None)))
        .count();
    if fills > 1 {
        return Err("only one [c*] repeat construct may appear in string2".into());
    }
    let mut v = Vec::new();
    for e in set {
        match e {
            Elem::Chars(c) | Elem::Class(_, c) => v.extend_from_slice(c),
            Elem::Repeat(c, Some(n)) => v.extend(std::iter::repeat(*c).take(*n)),
            Elem::Repeat(c, None) => {
                v.extend(std::iter::repeat(*c).take(target_len.saturating_sub(fixed)))
            }
        }
    }
    Ok(v)
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let (comp, del, sq, trunc) = (p.has("c"), p.has("d"), p.has("s"), p.has("t"));
    let ops = &p.operands;
    let translating = !del && ops.len() >= 2;
    let need = if (del && !sq) || (!del && sq && ops.len() < 2) {
        1
    } else {
        2
    };
    if ops.is_empty() {
        return USAGE.fail("missing operand");
    }
    if ops.len() < need {
        let why = if del {
            "Two strings must be given when both deleting and squeezing repeats."
        } else {
            "Two strings must be given when translating."
        };
        return USAGE.fail(&format!(
            "missing operand after '{}'\n{}",
            ops[ops.len() - 1].to_string_lossy(),
            why
        ));
    }
    if ops.len() > need {
        let extra = format!("extra operand '{}'", ops[need].to_string_lossy());
        if del && !sq {
            return USAGE.fail(&format!(
                "{}\nOnly one string may be given when deleting without squeezing repeats.",
                extra
            ));
        }
        return USAGE.fail(&extra);
    }
    let s1 = match parse_set(os_bytes(&ops[0]), false) {
        Ok(s) => s,
        Err(m) => return USAGE.die(1, &m),
    };
    let s2 = match ops.get(1).map(|s| parse_set(os_bytes(s), true)) {
        Some(Ok(s)) => Some(s),
        Some(Err(m)) => return USAGE.die(1, &m),
        None => None,
    };
    let mut set1 = match flatten(&s1, 0) {
        Ok(v) => v,
        Err(m) => return USAGE.die(1, &m),
    };
    if comp {
        let mut inset = [false; 256];
        for &c in &set1 {
            inset[usize::from(c)] = true;
        }
        set1 = (0u8..=255).filter(|&c| !inset[usize::from(c)]).collect();
    }
    let mut member1 = [false; 256];
    for &c in &set1 {
        member1[usize::from(c)] = true;
    }
    let mut map: [u8; 256] = [0; 256];
    for (i, m) in map.iter_mut().enumerate() {
        *m = i as u8;
    }
    let mut squeeze = [false; 256];
    if translating {
        let elems2 = s2.as_deref().unwrap_or(&[]);
        if elems2
            .iter()
            .any(|e| matches!(e, Elem::Class(n, _) if *n != "upper" && *n != "lower"))
        {
            return USAGE.die(
                1,
                "when translating, the only character classes that may appear in\nstring2 are 'upper' and 'lower'",
            );
        }
        let mut set2 = match flatten(elems2, set1.len()) {
            Ok(v) => v,
            Err(m) => return USAGE.die(1, &m),
        };
        if let Some(m) = case_class_error(&s1, comp, set1.len(), elems2, set2.len(), trunc) {
            return USAGE.die(1, m);
        }
        if trunc {
            set1.truncate(set2.len());
        } else if set2.is_empty() && !set1.is_empty() {
            return USAGE.die(1, "when not truncating set1, string2 must be non-empty");
        }
        while set2.len() < set1.len() {
            let last = set2[set2.len() - 1];
            set2.push(last);
        }
        for (i, &c) in set1.iter().enumerate() {
            map[usize::from(c)] = set2[i];
        }
        if sq {
            for &c in &set2 {
                squeeze[usize::from(c)] = true;
            }
        }
    } else if sq {
        let src: Vec<u8> = if del {
            match s2.as_deref().map(|e| flatten(e, 0)) {
                Some(Ok(v)) => v,
                Some(Err(m)) => return USAGE.die(1, &m),
                None => Vec::new(),
            }
        } else {
            set1.clone()
        };
        for c in src {
            squeeze[usize::from(c)] = true;
        }
    }
    let mut out = stdout();
    let mut inp = std::io::stdin().lock();
    let mut buf = vec![0u8; 64 * 1024];
    let mut obuf = Vec::with_capacity(64 * 1024);
    let mut last: Option<u8> = None;
    loop {
        let k = match inp.read(&mut buf) {
            Ok(0) => break,
            Ok(k) => k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                eprintln!(
                    "{}: read error: {}",
                    coreutils_core::prog("tr"),
                    err_text(&e)
                );
                return 1;
            }
        };
        obuf.clear();
        for &b in &buf[..k] {
            if del && member1[usize::from(b)] {
                continue;
            }
            let c = map[usize::from(b)];
            if sq && squeeze[usize::from(c)] && last == Some(c) {
                continue;
            }
            last = Some(c);
            obuf.push(c);
        }
        put(&mut out, &obuf);
    }
    finish(&mut out, "tr", 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn sets_expand() {
        assert_eq!(
            flatten(&parse_set(b"a-d", false).unwrap(), 0).unwrap(),
            b"abcd"
        );
        assert_eq!(
            flatten(&parse_set(b"[:digit:]x", false).unwrap(), 0).unwrap(),
            b"0123456789x"
        );
        assert_eq!(
            flatten(&parse_set(b"\\101\\n", false).unwrap(), 0).unwrap(),
            b"A\n"
        );
        assert_eq!(
            flatten(&parse_set(b"[x*]y", true).unwrap(), 4).unwrap(),
            b"xxxy"
        );
        assert_eq!(
            flatten(&parse_set(b"[x*2]", true).unwrap(), 9).unwrap(),
            b"xx"
        );
        assert!(parse_set(b"z-a", false).is_err());
        assert!(parse_set(b"[:bogus:]", false).is_err());
        assert!(parse_set(b"[a*]", false).is_err());
    }
}
