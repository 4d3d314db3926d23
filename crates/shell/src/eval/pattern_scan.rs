//! One-pass matching of plain patterns (`*`, `?`, `[..]`, literals; no
//! extglob) anchored at a start offset: every end offset where the pattern
//! matches is found in a single left-to-right scan, so `${x#pat}`,
//! `${x%pat}` and `${x//pat/rep}` stay linear per start instead of trying
//! every substring (quadratic per start) as the backtracking matcher would.

use super::pattern::{bracket_end, bracket_match, MatchMode};

/// One step of a pattern.
#[derive(Clone, Copy)]
enum Atom {
    Star,
    /// `?`: one character (a whole UTF-8 sequence).
    Any,
    /// `[..]` at pattern[start..end]: one byte, as the backtracking matcher does.
    Class(usize, usize),
    Lit(u8),
}

/// A compiled plain pattern; at most 63 steps, so a state set fits a u64.
pub struct Scan<'p> {
    pat: &'p [u8],
    atoms: Vec<Atom>,
    mode: MatchMode,
    /// For each state, the set reached through stars matching nothing.
    closure: Vec<u64>,
}

/// Result of scanning from one start: the first and last end offsets matched.
pub struct Ends {
    pub first: Option<usize>,
    pub last: Option<usize>,
}

impl<'p> Scan<'p> {
    /// Compile `pat`, or None when it needs the general matcher (extglob
    /// groups, or too many steps).
    pub fn new(pat: &'p [u8], mode: MatchMode) -> Option<Scan<'p>> {
        let mut atoms = Vec::new();
        let mut i = 0;
        while i < pat.len() {
            let c = pat[i];
            if matches!(c, b'@' | b'*' | b'+' | b'?' | b'!') && pat.get(i + 1) == Some(&b'(') {
                // A possible extglob group: leave it to the full matcher.
                if mode.extglob {
                    return None;
                }
            }
            match c {
                b'*' => {
                    if !matches!(atoms.last(), Some(Atom::Star)) {
                        atoms.push(Atom::Star);
                    }
                    i += 1;
                }
                b'?' => {
                    atoms.push(Atom::Any);
                    i += 1;
                }
                b'[' => match bracket_end(pat, i) {
                    Some(end) => {
                        atoms.push(Atom::Class(i, end));
                        i = end;
                    }
                    None => {
                        atoms.push(Atom::Lit(b'['));
                        i += 1;
                    }
                },
                b'\\' if i + 1 < pat.len() => {
                    atoms.push(Atom::Lit(pat[i + 1]));
                    i += 2;
                }
                _ => {
                    atoms.push(Atom::Lit(c));
                    i += 1;
                }
            }
        }
        if atoms.len() >= 64 {
            return None;
        }
        // closure[a]: states reachable from a by skipping stars (empty matches).
        let n = atoms.len();
        let mut closure = vec![0u64; n + 1];
        for a in (0..=n).rev() {
            closure[a] = 1 << a;
            if a < n && matches!(atoms[a], Atom::Star) {
                closure[a] |= closure[a + 1];
            }
        }
        Some(Scan {
            pat,
            atoms,
            mode,
            closure,
        })
    }

    /// Whether the pattern has no wildcard at all (a literal string).
    pub fn literal(&self) -> Option<Vec<u8>> {
        let mut v = Vec::with_capacity(self.atoms.len());
        for a in &self.atoms {
            match a {
                Atom::Lit(c) => v.push(*c),
                _ => return None,
            }
        }
        Some(v)
    }

    fn eq(&self, a: u8, b: u8) -> bool {
        if self.mode.nocase {
            a.eq_ignore_ascii_case(&b)
        } else {
            a == b
        }
    }

    /// Ends of matches of the pattern against s[start..end] for every end,
    /// considering only ends that satisfy `boundary` (character starts).
    /// `stop_first` ends the scan at the first match (shortest wanted).
    pub fn ends(
        &self,
        s: &[u8],
        start: usize,
        boundary: &dyn Fn(usize) -> bool,
        stop_first: bool,
    ) -> Ends {
        let n = self.atoms.len();
        let fin = 1u64 << n;
        let mut res = Ends {
            first: None,
            last: None,
        };
        // Pending state sets for the next few byte positions (a `?` may step
        // over up to 4 bytes): window[k] holds the set for pos + k.
        let mut window = [0u64; 5];
        window[0] = self.closure[0];
        let mut pos = start;
        loop {
            let cur = window[0];
            if cur & fin != 0 && boundary(pos) {
                if res.first.is_none() {
                    res.first = Some(pos);
                }
                res.last = Some(pos);
                if stop_first {
                    return res;
                }
            }
            window.rotate_left(1);
            window[4] = 0;
            if pos >= s.len() {
                return res;
            }
            let mut states = cur & !fin;
            if states == 0 && window.iter().all(|w| *w == 0) {
                return res;
            }
            let c = s[pos];
            while states != 0 {
                let a = states.trailing_zeros() as usize;
                states &= states - 1;
                match self.atoms[a] {
                    // Byte steps, as the backtracking matcher takes them.
                    Atom::Star => window[0] |= self.closure[a],
                    Atom::Any => {
                        let w = super::expand::utf8_len(s, pos);
                        window[w - 1] |= self.closure[a + 1];
                    }
                    Atom::Class(i, end) => {
                        if bracket_match(self.pat, i, end, c, self.mode) {
                            window[0] |= self.closure[a + 1];
                        }
                    }
                    Atom::Lit(l) => {
                        if self.eq(l, c) {
                            window[0] |= self.closure[a + 1];
                        }
                    }
                }
            }
            pos += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::pattern::pat_match;
    use super::*;

    const MODE: MatchMode = MatchMode {
        nocase: false,
        extglob: false,
        dotglob: true,
    };

    /// Every end found by the scan is one the backtracking matcher accepts, and
    /// the other way round.
    #[test]
    fn agrees_with_backtracking_matcher() {
        let pats: &[&[u8]] = &[
            b"*",
            b"a",
            b"a*",
            b"*a",
            b"* ",
            b"?",
            b"??b",
            b"[ab]*c",
            b"*[!a]",
            b"\\*x",
            b"a*b*c",
            b"[[:digit:]]*",
            b"*o*o",
            b"",
            b"[",
            b"x[y",
        ];
        let subjects: &[&[u8]] = &[
            b"",
            b"a",
            b"abc",
            b"aabbcc",
            b"the quick brown fox",
            b"*x*x",
            b"12ab",
            b"o o o",
            "h\u{e9}llo".as_bytes(),
            b"[a[",
            b"x[y",
        ];
        for p in pats {
            let sc = Scan::new(p, MODE).expect("plain pattern");
            for s in subjects {
                for start in 0..=s.len() {
                    let all: Vec<usize> = (start..=s.len())
                        .filter(|&e| {
                            std::str::from_utf8(s)
                                .map(|t| t.is_char_boundary(e))
                                .unwrap_or(true)
                        })
                        .filter(|&e| pat_match(p, &s[start..e], MODE))
                        .collect();
                    let isb = |e: usize| {
                        std::str::from_utf8(s)
                            .map(|t| t.is_char_boundary(e))
                            .unwrap_or(true)
                    };
                    let got = sc.ends(s, start, &isb, false);
                    assert_eq!(got.first, all.first().copied(), "{:?} on {:?}", p, s);
                    assert_eq!(got.last, all.last().copied(), "{:?} on {:?}", p, s);
                }
            }
        }
    }

    #[test]
    fn literals_and_extglob() {
        assert_eq!(
            Scan::new(b"ab\\*", MODE).and_then(|s| s.literal()),
            Some(b"ab*".to_vec())
        );
        assert!(Scan::new(b"a?", MODE).and_then(|s| s.literal()).is_none());
        let ext = MatchMode {
            extglob: true,
            ..MODE
        };
        assert!(Scan::new(b"+(a)", ext).is_none());
    }
}
