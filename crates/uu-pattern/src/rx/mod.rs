//! The regular-expression layer shared by grep, sed and awk: POSIX
//! patterns are translated (see [`translate`]) and compiled either to the
//! linear-time `regex` byte engine or, for back-references and `-P`, to
//! `fancy-regex` with a bounded backtracking budget.

pub mod translate;

pub use translate::Syntax;

use std::sync::atomic::{AtomicBool, Ordering};

/// Backtracking budget for fancy-regex: enough for real patterns, small
/// enough that a catastrophic one ends quickly with an error.
const BACKTRACK_LIMIT: usize = 1_000_000;

/// Set once a fancy-regex match hit its backtracking budget.
static LIMIT_HIT: AtomicBool = AtomicBool::new(false);

/// Program name used for warnings printed while compiling.
static PROG: std::sync::Mutex<&'static str> = std::sync::Mutex::new("");

/// Set the program name that prefixes translation warnings; warnings are
/// only printed when one is set (grep prints them, sed and awk do not).
pub fn set_warning_prog(name: &'static str) {
    if let Ok(mut p) = PROG.lock() {
        *p = name;
    }
}

fn warn(w: &str) {
    if let Ok(p) = PROG.lock() {
        if !p.is_empty() {
            eprintln!("{}: warning: {}", p, w);
        }
    }
}

/// Whether some match gave up because of the backtracking limit.
pub fn limit_hit() -> bool {
    LIMIT_HIT.load(Ordering::Relaxed)
}

/// How to compile a pattern.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Dialect.
    pub syntax: Syntax,
    /// Perl syntax (grep -P): passed to fancy-regex unchanged.
    pub perl: bool,
    /// ASCII case folding.
    pub icase: bool,
    /// `^`/`$` match at embedded newlines.
    pub multiline: bool,
    /// The pattern must never match a newline (grep whole-buffer search).
    pub no_newline: bool,
    /// `\n`, `\t`... in the pattern are C escapes (sed).
    pub c_escapes: bool,
    /// The match must span the whole haystack line (grep -x).
    pub whole_line: bool,
}

impl Config {
    /// A config for `syntax` with every flag off.
    pub fn new(syntax: Syntax) -> Config {
        Config {
            syntax,
            perl: false,
            icase: false,
            multiline: false,
            no_newline: false,
            c_escapes: false,
            whole_line: false,
        }
    }
}

enum Inner {
    Fast(regex::bytes::Regex),
    Fancy(fancy_regex::Regex),
}

/// A compiled pattern.
pub struct Regex {
    inner: Inner,
    /// Set when the whole pattern is one plain literal: searched with
    /// memmem, which beats the regex engine's per-call overhead.
    lit: Option<memchr::memmem::Finder<'static>>,
    /// Number of capture groups (not counting the whole match).
    pub groups: usize,
}

/// Capture positions: slot 0 is the whole match.
pub type Locs = Vec<Option<(usize, usize)>>;

/// Whether a POSIX pattern contains a back-reference (`\1`..`\9`).
pub fn has_backref(pat: &[u8]) -> bool {
    let mut i = 0;
    while i + 1 < pat.len() {
        if pat[i] == b'\\' {
            if (b'1'..=b'9').contains(&pat[i + 1]) {
                return true;
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    false
}

fn wrap(flags: &str, body: &[String], whole_line: bool) -> String {
    let alt = if body.len() == 1 {
        body[0].clone()
    } else {
        body.iter()
            .map(|b| format!("(?:{})", b))
            .collect::<Vec<_>>()
            .join("|")
    };
    if whole_line {
        format!("{}^(?:{})$", flags, alt)
    } else {
        format!("{}{}", flags, alt)
    }
}

fn to_str(hay: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(hay)
}

impl Regex {
    /// Compile `pat` with `cfg`; errors are GNU-style messages.
    pub fn new(pat: &[u8], cfg: &Config) -> Result<Regex, String> {
        Regex::new_multi(&[pat], cfg)
    }

    /// Compile the alternation of several patterns (grep's `-e a -e b`).
    /// Back-reference numbers are not shifted between patterns, so callers
    /// compile patterns with back-references one at a time (see
    /// [`has_backref`]).
    pub fn new_multi(pats: &[&[u8]], cfg: &Config) -> Result<Regex, String> {
        let mut flags = String::new();
        if cfg.icase {
            flags.push_str("(?i)");
        }
        if cfg.multiline {
            flags.push_str("(?m)");
        }
        if cfg.perl {
            let body: Vec<String> = pats
                .iter()
                .map(|p| String::from_utf8_lossy(p).into_owned())
                .collect();
            let p = wrap(&flags, &body, cfg.whole_line);
            let re = fancy_regex::RegexBuilder::new(&p)
                .backtrack_limit(BACKTRACK_LIMIT)
                .build()
                .map_err(|e| e.to_string())?;
            let groups = re.captures_len().saturating_sub(1);
            return Ok(Regex {
                inner: Inner::Fancy(re),
                lit: None,
                groups,
            });
        }
        if !cfg.no_newline {
            flags.push_str("(?s)");
        }
        let mut o = translate::Options {
            syntax: cfg.syntax,
            fancy: false,
            no_newline: cfg.no_newline,
            c_escapes: cfg.c_escapes,
        };
        let mut body = Vec::with_capacity(pats.len());
        let mut groups = 0;
        let mut backrefs = false;
        for p in pats {
            let t = translate::translate(p, &o)?;
            for w in &t.warnings {
                warn(w);
            }
            backrefs |= t.backrefs;
            groups += t.groups;
            body.push(t.pattern);
        }
        if backrefs {
            o.fancy = true;
            body.clear();
            for p in pats {
                body.push(translate::translate(p, &o)?.pattern);
            }
            let p = wrap(&flags, &body, cfg.whole_line);
            let re = fancy_regex::RegexBuilder::new(&p)
                .backtrack_limit(BACKTRACK_LIMIT)
                .build()
                .map_err(|e| e.to_string())?;
            return Ok(Regex {
                inner: Inner::Fancy(re),
                lit: None,
                groups,
            });
        }
        let lit = if body.len() == 1 && !cfg.icase && !cfg.whole_line {
            plain_literal(&body[0]).map(|l| memchr::memmem::Finder::new(&l).into_owned())
        } else {
            None
        };
        let p = format!("(?-u){}", wrap(&flags, &body, cfg.whole_line));
        let re = regex::bytes::RegexBuilder::new(&p)
            .size_limit(64 << 20)
            .dfa_size_limit(16 << 20)
            .build()
            .map_err(|e| match e {
                regex::Error::CompiledTooBig(_) => "Regular expression too big".to_string(),
                other => other.to_string(),
            })?;
        Ok(Regex {
            inner: Inner::Fast(re),
            lit,
            groups,
        })
    }

    /// Whether this pattern uses the byte engine (fast, linear).
    pub fn is_fast(&self) -> bool {
        matches!(self.inner, Inner::Fast(_))
    }

    /// First match at or after `start`.
    pub fn find_at(&self, hay: &[u8], start: usize) -> Option<(usize, usize)> {
        if let Some(f) = &self.lit {
            let s = start + f.find(hay.get(start..)?)?;
            return Some((s, s + f.needle().len()));
        }
        match &self.inner {
            Inner::Fast(re) => re.find_at(hay, start).map(|m| (m.start(), m.end())),
            Inner::Fancy(re) => {
                let s = to_str(hay);
                match re.find_from_pos(&s, start.min(s.len())) {
                    Ok(m) => m.map(|m| (m.start(), m.end())),
                    Err(_) => {
                        LIMIT_HIT.store(true, Ordering::Relaxed);
                        None
                    }
                }
            }
        }
    }

    /// End of some match at or after `start`, computed cheaply (the byte
    /// engine stops at the first accepting state).
    pub fn shortest_match_at(&self, hay: &[u8], start: usize) -> Option<usize> {
        if self.lit.is_some() {
            return self.find_at(hay, start).map(|m| m.1);
        }
        match &self.inner {
            Inner::Fast(re) => re.shortest_match_at(hay, start),
            Inner::Fancy(_) => self.find_at(hay, start).map(|m| m.1),
        }
    }

    /// Whether the pattern matches anywhere in `hay`.
    pub fn is_match(&self, hay: &[u8]) -> bool {
        if let Some(f) = &self.lit {
            return f.find(hay).is_some();
        }
        match &self.inner {
            Inner::Fast(re) => re.is_match(hay),
            Inner::Fancy(_) => self.find_at(hay, 0).is_some(),
        }
    }

    /// Match at or after `start`, filling `locs` with group positions.
    pub fn captures_at(&self, hay: &[u8], start: usize, locs: &mut Locs) -> bool {
        locs.clear();
        if self.lit.is_some() {
            let m = self.find_at(hay, start);
            locs.push(m);
            return m.is_some();
        }
        match &self.inner {
            Inner::Fast(re) => {
                let mut cl = re.capture_locations();
                if re.captures_read_at(&mut cl, hay, start).is_none() {
                    return false;
                }
                for i in 0..cl.len() {
                    locs.push(cl.get(i));
                }
                true
            }
            Inner::Fancy(re) => {
                let s = to_str(hay);
                match re.captures_from_pos(&s, start.min(s.len())) {
                    Ok(Some(c)) => {
                        for i in 0..c.len() {
                            locs.push(c.get(i).map(|m| (m.start(), m.end())));
                        }
                        true
                    }
                    Ok(None) => false,
                    Err(_) => {
                        LIMIT_HIT.store(true, Ordering::Relaxed);
                        false
                    }
                }
            }
        }
    }
}

/// The bytes a translated pattern matches when it is one plain literal
/// (escaped punctuation allowed), else `None`.
fn plain_literal(pat: &str) -> Option<Vec<u8>> {
    let b = pat.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\\' {
            let n = *b.get(i + 1)?;
            if n == b'x' {
                // The translator's `\xNN` byte escape.
                let hex = std::str::from_utf8(b.get(i + 2..i + 4)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 4;
                continue;
            }
            if !n.is_ascii_punctuation() {
                return None;
            }
            out.push(n);
            i += 2;
            continue;
        }
        if !c.is_ascii() || b".+*?()|[]{}^$".contains(&c) {
            return None;
        }
        out.push(c);
        i += 1;
    }
    if out.is_empty() {
        None
    } else {
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bre_backref_uses_fancy() {
        let re = Regex::new(b"\\(ab\\)\\1", &Config::new(Syntax::Basic)).unwrap();
        assert!(!re.is_fast());
        assert_eq!(re.find_at(b"xxababyy", 0), Some((2, 6)));
        assert!(!re.is_match(b"abxab"));
    }

    #[test]
    fn bytes_and_icase() {
        let mut c = Config::new(Syntax::Extended);
        c.icase = true;
        let re = Regex::new(b"h(e|a)llo", &c).unwrap();
        assert!(re.is_match(b"\xffHALLO"));
        let re = Regex::new(b".", &Config::new(Syntax::Basic)).unwrap();
        assert_eq!(re.find_at(b"\xff", 0), Some((0, 1)));
    }

    #[test]
    fn grep_mode_never_crosses_lines() {
        let mut c = Config::new(Syntax::Extended);
        c.no_newline = true;
        c.multiline = true;
        let re = Regex::new(b"a[^x]*b", &c).unwrap();
        assert_eq!(re.find_at(b"a\nb", 0), None);
        let re = Regex::new(b"^b$", &c).unwrap();
        assert_eq!(re.find_at(b"a\nb\nc", 0), Some((2, 3)));
    }

    #[test]
    fn literal_fast_path_matches_like_regex() {
        let re = Regex::new(b"a.b", &Config::new(Syntax::Basic)).unwrap();
        assert!(re.lit.is_none());
        let re = Regex::new(b"x\\.y z", &Config::new(Syntax::Basic)).unwrap();
        assert!(re.lit.is_some());
        assert_eq!(re.find_at(b"ax.y zx.y z", 2), Some((6, 11)));
        assert_eq!(re.find_at(b"ax.y z", 9), None);
        assert!(!re.is_match(b"xay z"));
        assert_eq!(re.shortest_match_at(b"..x.y z", 0), Some(7));
        let mut c = Config::new(Syntax::Extended);
        c.icase = true;
        assert!(Regex::new(b"ab", &c).unwrap().lit.is_none());
        assert_eq!(plain_literal("a\\d"), None);
    }

    #[test]
    fn catastrophic_is_bounded() {
        let re = Regex::new(b"\\(a*\\)*\\1b", &Config::new(Syntax::Basic)).unwrap();
        let hay = vec![b'a'; 40];
        let t = std::time::Instant::now();
        // Exponential for a backtracker: it must give up, say so, and not hang.
        assert_eq!(re.find_at(&hay, 0), None);
        assert!(limit_hit());
        assert!(t.elapsed() < std::time::Duration::from_secs(20));
    }
}
