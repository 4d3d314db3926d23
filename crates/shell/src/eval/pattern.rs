//! Pattern matching (`* ? [..]`, extglob `@() *() +() ?() !()`) on bytes, and
//! pathname expansion over the filesystem. Patterns use `\` to quote a character.

use super::Shell;
use crate::ast::Bytes;

#[derive(Clone, Copy)]
pub struct MatchMode {
    pub nocase: bool,
    pub extglob: bool,
    /// Whether a leading `.` may be matched by wildcards (always true outside globbing).
    pub dotglob: bool,
}

pub fn escape_pattern(s: &[u8], out: &mut Bytes) {
    for &c in s {
        if matches!(
            c,
            b'*' | b'?' | b'[' | b']' | b'\\' | b'(' | b')' | b'|' | b'!' | b'@' | b'+'
        ) {
            out.push(b'\\');
        }
        out.push(c);
    }
}

pub fn has_glob_chars(s: &[u8]) -> bool {
    s.iter().any(|c| matches!(c, b'*' | b'?' | b'['))
        || s.windows(2)
            .any(|w| matches!(w[0], b'@' | b'!' | b'+') && w[1] == b'(')
}

/// Whether a pattern (with `\` escapes) contains an unescaped wildcard.
pub fn pattern_is_glob(p: &[u8]) -> bool {
    let mut i = 0;
    while i < p.len() {
        match p[i] {
            b'\\' => i += 1,
            b'*' | b'?' => return true,
            b'[' if bracket_end(p, i).is_some() => {
                return true;
            }
            b'@' | b'+' | b'!' if p.get(i + 1) == Some(&b'(') => return true,
            _ => {}
        }
        i += 1;
    }
    false
}

pub fn unescape(p: &[u8]) -> Bytes {
    let mut out = Vec::with_capacity(p.len());
    let mut i = 0;
    while i < p.len() {
        if p[i] == b'\\' && i + 1 < p.len() {
            i += 1;
        }
        out.push(p[i]);
        i += 1;
    }
    out
}

fn lower(c: u8) -> u8 {
    c.to_ascii_lowercase()
}

/// Index just past the closing `]` of a bracket expression starting at `i`.
pub(super) fn bracket_end(p: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    if j < p.len() && (p[j] == b'!' || p[j] == b'^') {
        j += 1;
    }
    if j < p.len() && p[j] == b']' {
        j += 1;
    }
    while j < p.len() {
        match p[j] {
            b']' => return Some(j + 1),
            b'\\' => j += 2,
            b'[' if p.get(j + 1) == Some(&b':') => {
                let close = p[j + 2..].windows(2).position(|w| w == b":]")?;
                j += close + 4;
            }
            _ => j += 1,
        }
    }
    None
}

fn class_match(name: &[u8], c: u8) -> bool {
    match name {
        b"alpha" => c.is_ascii_alphabetic(),
        b"digit" => c.is_ascii_digit(),
        b"alnum" => c.is_ascii_alphanumeric(),
        b"upper" => c.is_ascii_uppercase(),
        b"lower" => c.is_ascii_lowercase(),
        b"space" => c.is_ascii_whitespace() || c == 11,
        b"blank" => c == b' ' || c == b'\t',
        b"punct" => c.is_ascii_punctuation(),
        b"print" => (32..127).contains(&c),
        b"graph" => (33..127).contains(&c),
        b"cntrl" => c < 32 || c == 127,
        b"xdigit" => c.is_ascii_hexdigit(),
        b"word" => c.is_ascii_alphanumeric() || c == b'_',
        _ => false,
    }
}

/// Match one char against `[..]` at p[i..end].
pub(super) fn bracket_match(p: &[u8], i: usize, end: usize, c: u8, mode: MatchMode) -> bool {
    let mut j = i + 1;
    let neg = p[j] == b'!' || p[j] == b'^';
    if neg {
        j += 1;
    }
    let mut matched = false;
    let mut first = true;
    let cc = if mode.nocase { lower(c) } else { c };
    while j < end - 1 {
        if p[j] == b']' && !first {
            break;
        }
        first = false;
        if p[j] == b'[' && p.get(j + 1) == Some(&b':') {
            if let Some(close) = p[j + 2..].windows(2).position(|w| w == b":]") {
                if class_match(&p[j + 2..j + 2 + close], c) {
                    matched = true;
                }
                j += close + 4;
                continue;
            }
        }
        let mut lo = p[j];
        if lo == b'\\' && j + 1 < end {
            j += 1;
            lo = p[j];
        }
        j += 1;
        if j + 1 < end && p[j] == b'-' && p[j + 1] != b']' {
            let mut hi = p[j + 1];
            j += 2;
            if hi == b'\\' && j < end {
                hi = p[j];
                j += 1;
            }
            let (l, h) = if mode.nocase {
                (lower(lo), lower(hi))
            } else {
                (lo, hi)
            };
            if l <= cc && cc <= h {
                matched = true;
            }
        } else {
            let l = if mode.nocase { lower(lo) } else { lo };
            if l == cc {
                matched = true;
            }
        }
    }
    matched != neg
}

/// Split the alternatives of an extglob group p[i..end] (i at the `(`).
fn group_alts(p: &[u8], open: usize) -> Option<(Vec<(usize, usize)>, usize)> {
    let mut depth = 0;
    let mut alts = Vec::new();
    let mut s = open + 1;
    let mut j = open;
    while j < p.len() {
        match p[j] {
            b'\\' => j += 1,
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    alts.push((s, j));
                    return Some((alts, j + 1));
                }
            }
            b'|' if depth == 1 => {
                alts.push((s, j));
                s = j + 1;
            }
            _ => {}
        }
        j += 1;
    }
    None
}

pub fn pat_match(p: &[u8], s: &[u8], mode: MatchMode) -> bool {
    let mut steps = 0usize;
    m(p, 0, s, 0, mode, &mut steps)
}

fn m(p: &[u8], mut pi: usize, s: &[u8], mut si: usize, mode: MatchMode, steps: &mut usize) -> bool {
    *steps += 1;
    if *steps > 5_000_000 {
        return false;
    }
    while pi < p.len() {
        let c = p[pi];
        if mode.extglob
            && matches!(c, b'@' | b'*' | b'+' | b'?' | b'!')
            && p.get(pi + 1) == Some(&b'(')
        {
            if let Some((alts, after)) = group_alts(p, pi + 1) {
                return ext(p, c, &alts, after, s, si, mode, steps);
            }
        }
        match c {
            b'*' => {
                while pi < p.len()
                    && p[pi] == b'*'
                    && !(mode.extglob && p.get(pi + 1) == Some(&b'('))
                {
                    pi += 1;
                }
                if pi == p.len() {
                    return true;
                }
                for k in si..=s.len() {
                    if m(p, pi, s, k, mode, steps) {
                        return true;
                    }
                }
                return false;
            }
            b'?' => {
                if si >= s.len() {
                    return false;
                }
                si += super::expand::utf8_len(s, si);
                pi += 1;
            }
            b'[' => {
                if let Some(end) = bracket_end(p, pi) {
                    if si >= s.len() || !bracket_match(p, pi, end, s[si], mode) {
                        return false;
                    }
                    si += 1;
                    pi = end;
                } else {
                    if si >= s.len() || s[si] != b'[' {
                        return false;
                    }
                    si += 1;
                    pi += 1;
                }
            }
            _ => {
                let mut c = c;
                if c == b'\\' && pi + 1 < p.len() {
                    pi += 1;
                    c = p[pi];
                }
                if si >= s.len() {
                    return false;
                }
                let eq = if mode.nocase {
                    lower(c) == lower(s[si])
                } else {
                    c == s[si]
                };
                if !eq {
                    return false;
                }
                si += 1;
                pi += 1;
            }
        }
    }
    si == s.len()
}

#[allow(clippy::too_many_arguments)]
fn ext(
    p: &[u8],
    kind: u8,
    alts: &[(usize, usize)],
    after: usize,
    s: &[u8],
    si: usize,
    mode: MatchMode,
    steps: &mut usize,
) -> bool {
    let rest = &p[after..];
    let alt_match =
        |a: &(usize, usize), t: &[u8], steps: &mut usize| m(&p[a.0..a.1], 0, t, 0, mode, steps);
    match kind {
        b'@' | b'?' => {
            if kind == b'?' && m(rest, 0, s, si, mode, steps) {
                return true;
            }
            for k in si..=s.len() {
                for a in alts {
                    if alt_match(a, &s[si..k], steps) && m(rest, 0, s, k, mode, steps) {
                        return true;
                    }
                }
            }
            false
        }
        b'*' | b'+' => {
            if kind == b'*' && m(rest, 0, s, si, mode, steps) {
                return true;
            }
            for k in si + 1..=s.len() {
                for a in alts {
                    if alt_match(a, &s[si..k], steps) {
                        // then zero or more further repetitions
                        if m(rest, 0, s, k, mode, steps)
                            || ext(p, b'+', alts, after, s, k, mode, steps)
                        {
                            return true;
                        }
                    }
                }
            }
            false
        }
        _ => {
            // !(..): any text that matches none of the alternatives
            for k in si..=s.len() {
                let t = &s[si..k];
                if !alts.iter().any(|a| alt_match(a, t, steps)) && m(rest, 0, s, k, mode, steps) {
                    return true;
                }
            }
            false
        }
    }
}

/// Pathname expansion of a pattern; sorted matches (empty if none).
pub fn glob_expand(sh: &mut Shell, pat: &[u8]) -> Vec<Bytes> {
    // A set GLOBIGNORE filters the matches; a non-empty one implies dotglob
    // (set on assignment, see assign_scalar; here too for an inherited one).
    let ignore: Vec<Bytes> = sh
        .get_var(b"GLOBIGNORE")
        .map(|g| {
            g.split(|c| *c == b':')
                .filter(|p| !p.is_empty())
                .map(|p| p.to_vec())
                .collect()
        })
        .unwrap_or_default();
    let mode = MatchMode {
        nocase: sh.opts.nocaseglob,
        extglob: sh.opts.extglob,
        dotglob: sh.opts.dotglob || !ignore.is_empty(),
    };
    let mut results = glob_paths(pat, mode, sh.opts.globstar);
    if !ignore.is_empty() {
        let all = MatchMode {
            dotglob: true,
            ..mode
        };
        results.retain(|r| !ignore.iter().any(|p| pat_match(p, r, all)));
    }
    results
}

fn glob_paths(pat: &[u8], mode: MatchMode, globstar: bool) -> Vec<Bytes> {
    let absolute = pat.first() == Some(&b'/');
    let comps: Vec<&[u8]> = pat.split(|c| *c == b'/').collect();
    let mut results: Vec<Bytes> = vec![if absolute { b"/".to_vec() } else { Vec::new() }];
    let comps = if absolute { &comps[1..] } else { &comps[..] };
    for (ci, comp) in comps.iter().enumerate() {
        let last = ci + 1 == comps.len();
        let mut next = Vec::new();
        if comp.is_empty() {
            if last {
                // the zero-depth match of a leading `**` names no directory
                for r in results.iter().filter(|r| !r.is_empty()) {
                    let mut r = r.clone();
                    if !r.ends_with(b"/") {
                        r.push(b'/');
                    }
                    next.push(r);
                }
                results = next;
            }
            continue;
        }
        if !pattern_is_glob(comp) {
            let lit = unescape(comp);
            for r in &results {
                let mut p = r.clone();
                if !p.is_empty() && !p.ends_with(b"/") {
                    p.push(b'/');
                }
                p.extend_from_slice(&lit);
                if last {
                    if std::fs::symlink_metadata(crate::bytes::path(&p)).is_ok() {
                        next.push(p);
                    }
                } else {
                    next.push(p);
                }
            }
            results = next;
            continue;
        }
        let star2 = globstar && *comp == b"**";
        for r in &results {
            let dir = if r.is_empty() {
                b".".to_vec()
            } else {
                r.clone()
            };
            if star2 {
                let mut acc = Vec::new();
                if !last {
                    acc.push(r.clone());
                } else if !r.is_empty() {
                    let mut d = r.clone();
                    if !d.ends_with(b"/") {
                        d.push(b'/');
                    }
                    acc.push(d);
                }
                walk(&dir, r, mode, &mut acc, last, 0);
                next.extend(acc);
                continue;
            }
            let entries = match std::fs::read_dir(crate::bytes::path(&dir)) {
                Ok(e) => e,
                Err(_) => continue,
            };
            let mut names: Vec<Bytes> = entries
                .filter_map(|e| e.ok())
                .map(|e| crate::bytes::os_bytes(&e.file_name()))
                .collect();
            names.sort();
            for name in names {
                if name.first() == Some(&b'.')
                    && comp.first() != Some(&b'.')
                    && !(comp.starts_with(b"\\."))
                    && !mode.dotglob
                {
                    continue;
                }
                if name == b"." || name == b".." {
                    continue;
                }
                if pat_match(comp, &name, mode) {
                    let mut p = r.clone();
                    if !p.is_empty() && !p.ends_with(b"/") {
                        p.push(b'/');
                    }
                    p.extend_from_slice(&name);
                    if !last
                        && !std::fs::metadata(crate::bytes::path(&p))
                            .map(|m| m.is_dir())
                            .unwrap_or(false)
                    {
                        continue;
                    }
                    next.push(p);
                }
            }
        }
        results = next;
        if results.is_empty() {
            break;
        }
    }
    if results.len() == 1 && results[0].is_empty() {
        return Vec::new();
    }
    results.sort();
    results.dedup();
    results
}

fn walk(
    dir: &[u8],
    prefix: &[u8],
    mode: MatchMode,
    out: &mut Vec<Bytes>,
    files_too: bool,
    depth: usize,
) {
    if depth > 64 {
        return;
    }
    let entries = match std::fs::read_dir(crate::bytes::path(dir)) {
        Ok(e) => e,
        Err(_) => return,
    };
    let mut names: Vec<(Bytes, bool)> = entries
        .filter_map(|e| e.ok())
        .map(|e| {
            (
                crate::bytes::os_bytes(&e.file_name()),
                e.file_type().map(|t| t.is_dir()).unwrap_or(false),
            )
        })
        .collect();
    names.sort();
    for (name, is_dir) in names {
        if name.first() == Some(&b'.') && !mode.dotglob {
            continue;
        }
        let mut p = prefix.to_vec();
        if !p.is_empty() && !p.ends_with(b"/") {
            p.push(b'/');
        }
        p.extend_from_slice(&name);
        if is_dir || files_too {
            out.push(p.clone());
        }
        if is_dir {
            let mut d = dir.to_vec();
            d.push(b'/');
            d.extend_from_slice(&name);
            walk(&d, &p, mode, out, files_too, depth + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const M: MatchMode = MatchMode {
        nocase: false,
        extglob: true,
        dotglob: true,
    };

    #[test]
    fn basic() {
        assert!(pat_match(b"*.txt", b"a.txt", M));
        assert!(!pat_match(b"*.txt", b"a.txc", M));
        assert!(pat_match(b"a?c", b"abc", M));
        assert!(pat_match(b"[a-c]x", b"bx", M));
        assert!(pat_match(b"[!a-c]x", b"dx", M));
        assert!(pat_match(b"[[:digit:]]*", b"9lives", M));
        assert!(pat_match(b"\\*", b"*", M));
        assert!(!pat_match(b"\\*", b"a", M));
    }

    #[test]
    fn extglob() {
        assert!(pat_match(b"@(foo|bar)", b"bar", M));
        assert!(pat_match(b"*(ab)", b"ababab", M));
        assert!(pat_match(b"+(a)b", b"aaab", M));
        assert!(!pat_match(b"+(a)b", b"b", M));
        assert!(pat_match(b"!(*.c)", b"x.h", M));
        assert!(!pat_match(b"!(*.c)", b"x.c", M));
        assert!(pat_match(b"?(x)y", b"y", M));
    }
}
