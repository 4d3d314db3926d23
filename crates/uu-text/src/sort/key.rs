//! Sort key definitions (`-k F[.C][OPTS][,F[.C][OPTS]]`) and locating a
//! key's bytes within a line, following GNU's field rules: without `-t`
//! a field is its leading blanks plus the non-blanks after them.

/// Ordering options of a key (or the global ones).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct KeyOpts {
    /// `b` at the start position.
    pub skip_sblanks: bool,
    /// `b` at the end position.
    pub skip_eblanks: bool,
    /// `d`: only blanks and alphanumerics.
    pub dictionary: bool,
    /// `i`: only printable characters.
    pub printable: bool,
    /// `f`: fold lower case to upper case.
    pub fold: bool,
    /// `n`.
    pub numeric: bool,
    /// `g`.
    pub general: bool,
    /// `h`.
    pub human: bool,
    /// `M`.
    pub month: bool,
    /// `V`.
    pub version: bool,
    /// `R`.
    pub random: bool,
    /// `r`.
    pub reverse: bool,
}

impl KeyOpts {
    /// Whether no ordering option is set (so the key inherits the globals).
    pub fn is_default(&self) -> bool {
        !(self.skip_sblanks
            || self.skip_eblanks
            || self.dictionary
            || self.printable
            || self.fold
            || self.numeric
            || self.general
            || self.human
            || self.month
            || self.version
            || self.random)
    }

    /// Apply one option letter; false when it is not an ordering option.
    pub fn set(&mut self, c: u8, start: bool) -> bool {
        match c {
            b'b' => {
                if start {
                    self.skip_sblanks = true;
                } else {
                    self.skip_eblanks = true;
                }
            }
            b'd' => self.dictionary = true,
            b'i' => self.printable = true,
            b'f' => self.fold = true,
            b'n' => self.numeric = true,
            b'g' => self.general = true,
            b'h' => self.human = true,
            b'M' => self.month = true,
            b'V' => self.version = true,
            b'R' => self.random = true,
            b'r' => self.reverse = true,
            _ => return false,
        }
        true
    }

    /// The option letters, in GNU's order, for the incompatibility message.
    pub fn letters(&self) -> String {
        let mut s = String::new();
        for (on, c) in [
            (self.skip_sblanks || self.skip_eblanks, 'b'),
            (self.dictionary, 'd'),
            (self.fold, 'f'),
            (self.general, 'g'),
            (self.human, 'h'),
            (self.printable, 'i'),
            (self.month, 'M'),
            (self.numeric, 'n'),
            (self.random, 'R'),
            (self.reverse, 'r'),
            (self.version, 'V'),
        ] {
            if on {
                s.push(c);
            }
        }
        s
    }

    /// More than one of the mutually exclusive orderings?
    pub fn incompatible(&self) -> bool {
        let n = [
            self.numeric,
            self.general,
            self.human,
            self.month,
            self.version,
            self.random,
            self.dictionary || self.printable,
        ]
        .iter()
        .filter(|&&b| b)
        .count();
        n > 1
    }
}

/// One `-k` key: 0-based start field and char, end field (None: end of
/// line) and end char (0: end of field).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyDef {
    /// Start field, 0-based.
    pub sword: usize,
    /// Start char offset within the field, 0-based.
    pub schar: usize,
    /// End field, 0-based; `None` for end of line.
    pub eword: Option<usize>,
    /// End char, 1-based; 0 is the end of the field.
    pub echar: usize,
    /// Ordering options.
    pub opts: KeyOpts,
}

fn count(s: &[u8], i: &mut usize) -> Option<usize> {
    let st = *i;
    let mut v: usize = 0;
    while *i < s.len() && s[*i].is_ascii_digit() {
        v = v
            .saturating_mul(10)
            .saturating_add(usize::from(s[*i] - b'0'));
        *i += 1;
    }
    if *i == st {
        None
    } else {
        Some(v)
    }
}

/// Parse a `-k` argument, giving GNU's message on error.
pub fn parse_key(spec: &str) -> Result<KeyDef, String> {
    let s = spec.as_bytes();
    let bad = |why: &str| format!("{}: invalid field specification '{}'", why, spec);
    let mut i = 0;
    let sf = match count(s, &mut i) {
        Some(v) => v,
        None => {
            return Err(format!(
                "invalid number at field start: invalid count at start of '{}'",
                spec
            ))
        }
    };
    if sf == 0 {
        return Err(bad("field number is zero"));
    }
    let mut schar = 0;
    if i < s.len() && s[i] == b'.' {
        i += 1;
        let rest = String::from_utf8_lossy(&s[i..]).into_owned();
        schar = match count(s, &mut i) {
            Some(v) => v,
            None => {
                return Err(format!(
                    "invalid number after '.': invalid count at start of '{}'",
                    rest
                ))
            }
        };
        if schar == 0 {
            return Err(bad("character offset is zero"));
        }
    }
    let mut opts = KeyOpts::default();
    while i < s.len() && s[i] != b',' {
        if !opts.set(s[i], true) {
            return Err(bad("stray character in field spec"));
        }
        i += 1;
    }
    let mut eword = None;
    let mut echar = 0;
    if i < s.len() && s[i] == b',' {
        i += 1;
        let rest = String::from_utf8_lossy(&s[i..]).into_owned();
        let ef = match count(s, &mut i) {
            Some(v) => v,
            None => {
                return Err(format!(
                    "invalid number after ',': invalid count at start of '{}'",
                    rest
                ))
            }
        };
        if ef == 0 {
            return Err(bad("field number is zero"));
        }
        eword = Some(ef - 1);
        if i < s.len() && s[i] == b'.' {
            i += 1;
            let rest = String::from_utf8_lossy(&s[i..]).into_owned();
            echar = match count(s, &mut i) {
                Some(v) => v,
                None => {
                    return Err(format!(
                        "invalid number after '.': invalid count at start of '{}'",
                        rest
                    ))
                }
            };
        }
        while i < s.len() {
            if !opts.set(s[i], false) {
                return Err(bad("stray character in field spec"));
            }
            i += 1;
        }
    }
    Ok(KeyDef {
        sword: sf - 1,
        schar: schar.saturating_sub(1),
        eword,
        echar,
        opts,
    })
}

/// Whether `c` is a blank for field splitting (C locale: space and tab,
/// plus newline when lines are NUL-terminated).
#[inline]
pub fn is_blank(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

/// Start of the key in `line` (`tab` is the `-t` separator).
pub fn begfield(line: &[u8], key: &KeyDef, tab: Option<u8>) -> usize {
    let lim = line.len();
    let mut p = 0;
    let mut sword = key.sword;
    match tab {
        Some(t) => {
            while p < lim && sword > 0 {
                sword -= 1;
                while p < lim && line[p] != t {
                    p += 1;
                }
                if p < lim {
                    p += 1;
                }
            }
        }
        None => {
            while p < lim && sword > 0 {
                sword -= 1;
                while p < lim && is_blank(line[p]) {
                    p += 1;
                }
                while p < lim && !is_blank(line[p]) {
                    p += 1;
                }
            }
        }
    }
    if key.opts.skip_sblanks {
        while p < lim && is_blank(line[p]) {
            p += 1;
        }
    }
    (p.saturating_add(key.schar)).min(lim)
}

/// End (exclusive) of the key in `line`.
pub fn limfield(line: &[u8], key: &KeyDef, tab: Option<u8>) -> usize {
    let lim = line.len();
    let mut eword = match key.eword {
        Some(e) => e,
        None => return lim,
    };
    let echar = key.echar;
    if echar == 0 {
        eword += 1;
    }
    let mut p = 0;
    match tab {
        Some(t) => {
            while p < lim && eword > 0 {
                eword -= 1;
                while p < lim && line[p] != t {
                    p += 1;
                }
                if p < lim && (eword > 0 || echar != 0) {
                    p += 1;
                }
            }
        }
        None => {
            while p < lim && eword > 0 {
                eword -= 1;
                while p < lim && is_blank(line[p]) {
                    p += 1;
                }
                while p < lim && !is_blank(line[p]) {
                    p += 1;
                }
            }
        }
    }
    if echar != 0 {
        if key.opts.skip_eblanks {
            while p < lim && is_blank(line[p]) {
                p += 1;
            }
        }
        p = (p.saturating_add(echar)).min(lim);
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(s: &str) -> KeyDef {
        parse_key(s).unwrap()
    }

    fn field<'a>(line: &'a [u8], k: &str, tab: Option<u8>) -> &'a [u8] {
        let kd = key(k);
        let b = begfield(line, &kd, tab);
        let e = limfield(line, &kd, tab).max(b);
        &line[b..e]
    }

    #[test]
    fn parses_keydefs() {
        let k = key("2.3nr,4.5b");
        assert_eq!((k.sword, k.schar, k.eword, k.echar), (1, 2, Some(3), 5));
        assert!(k.opts.numeric && k.opts.reverse && k.opts.skip_eblanks && !k.opts.skip_sblanks);
        assert!(parse_key("0").unwrap_err().contains("field number is zero"));
        assert!(parse_key("1.0")
            .unwrap_err()
            .contains("character offset is zero"));
        assert!(parse_key("1x").unwrap_err().contains("stray character"));
        assert!(parse_key("a")
            .unwrap_err()
            .starts_with("invalid number at field start"));
    }

    #[test]
    fn fields_without_tab_keep_leading_blanks() {
        assert_eq!(field(b"a  bb c", "2,2", None), b"  bb");
        assert_eq!(field(b"a  bb c", "2b,2", None), b"bb");
        assert_eq!(field(b"a  bb c", "2", None), b"  bb c");
        assert_eq!(field(b"abc def", "1.2,1.2", None), b"b");
    }

    #[test]
    fn fields_with_tab() {
        assert_eq!(field(b"a:b:c", "2,2", Some(b':')), b"b");
        assert_eq!(field(b"a:b:c", "2", Some(b':')), b"b:c");
        assert_eq!(field(b"a::c", "2,2", Some(b':')), b"");
        assert_eq!(field(b"a:b", "5", Some(b':')), b"");
    }
}
