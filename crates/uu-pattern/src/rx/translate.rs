//! Translation of POSIX regular expressions (GNU BRE, ERE and awk's ERE
//! dialect) into the syntax of the `regex` crate, or of `fancy-regex` when
//! the pattern needs back-references.
//!
//! The translation works on bytes so that patterns with invalid UTF-8 and
//! the C locale's byte semantics survive: in the `regex` target every
//! literal that is not alphanumeric becomes a `\xNN` escape under `(?-u)`.

/// Which POSIX dialect the pattern is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// Basic regular expressions (grep -G, sed): `\(`, `\{`, `\|`, `\+`, `\?`.
    Basic,
    /// Extended regular expressions (grep -E, sed -E).
    Extended,
    /// awk's ERE: backslash escapes inside brackets, `\/` and C escapes.
    Awk,
}

/// How to translate.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The dialect of the input pattern.
    pub syntax: Syntax,
    /// Produce fancy-regex syntax (Unicode strings) instead of byte regex.
    pub fancy: bool,
    /// Never let the pattern match a newline (grep searches whole buffers).
    pub no_newline: bool,
    /// Interpret C escapes (`\n`, `\t`, ...) as sed does.
    pub c_escapes: bool,
}

/// The result of translating a pattern.
#[derive(Debug)]
pub struct Translated {
    /// Pattern text in the target syntax (without flags).
    pub pattern: String,
    /// Whether the pattern uses back-references (needs fancy-regex).
    pub backrefs: bool,
    /// Number of capturing groups.
    pub groups: usize,
    /// GNU warnings about dubious constructs (`* at start of expression`).
    pub warnings: Vec<String>,
}

struct Out {
    buf: Vec<u8>,
    atom_start: Option<usize>,
    last_rep: bool,
    fancy: bool,
}

impl Out {
    fn atom(&mut self, s: &[u8]) {
        self.atom_start = Some(self.buf.len());
        self.buf.extend_from_slice(s);
        self.last_rep = false;
    }
    fn lit_byte(&mut self, c: u8) {
        let start = self.buf.len();
        push_lit(&mut self.buf, c, self.fancy);
        self.atom_start = Some(start);
        self.last_rep = false;
    }
    fn non_atom(&mut self, s: &[u8]) {
        self.buf.extend_from_slice(s);
        self.atom_start = None;
        self.last_rep = false;
    }
    /// Append a repetition operator to the last atom; returns false when
    /// there is no atom to repeat.
    fn rep(&mut self, op: &[u8]) -> bool {
        let start = match self.atom_start {
            Some(s) => s,
            None => return false,
        };
        if self.last_rep {
            // `a**` or `a+*`: the target rejects stacked operators, so group.
            self.buf.splice(start..start, b"(?:".iter().copied());
            self.buf.push(b')');
        }
        self.buf.extend_from_slice(op);
        self.last_rep = true;
        true
    }
}

fn push_lit(buf: &mut Vec<u8>, c: u8, fancy: bool) {
    if c.is_ascii_alphanumeric() || c == b'_' || c == b' ' || (c >= 0x80 && fancy) {
        buf.push(c);
    } else if fancy && c.is_ascii_punctuation() {
        buf.push(b'\\');
        buf.push(c);
    } else {
        buf.extend_from_slice(format!("\\x{:02X}", c).as_bytes());
    }
}

const CLASSES: &[&str] = &[
    "alpha", "digit", "alnum", "upper", "lower", "space", "blank", "punct", "print", "graph",
    "cntrl", "xdigit",
];

/// Value of a C escape letter (`n` → newline), if it is one.
fn c_escape(c: u8) -> Option<u8> {
    Some(match c {
        b'n' => b'\n',
        b't' => b'\t',
        b'r' => b'\r',
        b'f' => 0x0c,
        b'v' => 0x0b,
        b'a' => 0x07,
        _ => return None,
    })
}

/// Parse an interval body starting at `i` (just after `{` / `\{`).
/// Returns (min, max, index after the closing brace) or None if malformed.
fn parse_interval(
    p: &[u8],
    mut i: usize,
    basic: bool,
) -> Option<(Option<u32>, Option<u32>, usize)> {
    let num = |p: &[u8], i: &mut usize| -> Option<u32> {
        let s = *i;
        while *i < p.len() && p[*i].is_ascii_digit() {
            *i += 1;
        }
        if *i == s {
            None
        } else {
            std::str::from_utf8(&p[s..*i]).ok()?.parse().ok()
        }
    };
    let min = num(p, &mut i);
    let mut max = min;
    let mut comma = false;
    if i < p.len() && p[i] == b',' {
        comma = true;
        i += 1;
        max = num(p, &mut i);
    }
    if min.is_none() && !comma {
        return None;
    }
    if basic {
        if i + 1 < p.len() && p[i] == b'\\' && p[i + 1] == b'}' {
            Some((min, if comma { max } else { min }, i + 2))
        } else {
            None
        }
    } else if i < p.len() && p[i] == b'}' {
        Some((min, if comma { max } else { min }, i + 1))
    } else {
        None
    }
}

/// Translate `pat` according to `o`.
pub fn translate(pat: &[u8], o: &Options) -> Result<Translated, String> {
    let basic = o.syntax == Syntax::Basic;
    let awk = o.syntax == Syntax::Awk;
    let mut out = Out {
        buf: Vec::with_capacity(pat.len() * 2),
        atom_start: None,
        last_rep: false,
        fancy: o.fancy,
    };
    let mut groups_open: Vec<usize> = Vec::new();
    let mut closed = 0usize;
    let mut total = 0usize;
    let mut backrefs = false;
    let mut warnings: Vec<String> = Vec::new();
    let mut i = 0;
    // At the start of an expression (or after `(` / `|`): BRE `*` is literal.
    let mut at_start = true;
    while i < pat.len() {
        let c = pat[i];
        let was_start = at_start;
        at_start = false;
        match c {
            b'\\' => {
                i += 1;
                if i >= pat.len() {
                    return Err("Trailing backslash".into());
                }
                let e = pat[i];
                i += 1;
                match e {
                    b'(' if basic => {
                        groups_open.push(out.buf.len());
                        total += 1;
                        out.non_atom(b"(");
                        at_start = true;
                    }
                    b')' if basic => {
                        let start = groups_open.pop().ok_or("Unmatched ) or \\)")?;
                        closed += 1;
                        out.buf.push(b')');
                        out.atom_start = Some(start);
                        out.last_rep = false;
                    }
                    b'|' if basic => {
                        out.non_atom(b"|");
                        at_start = true;
                    }
                    b'{' if basic => {
                        if was_start {
                            out.lit_byte(b'{');
                            continue;
                        }
                        let (min, max, next) = match parse_interval(pat, i, true) {
                            Some(v) => v,
                            None => {
                                let mut j = i;
                                while j + 1 < pat.len() && !(pat[j] == b'\\' && pat[j + 1] == b'}')
                                {
                                    j += 1;
                                }
                                return Err(if j + 1 >= pat.len() {
                                    "Unmatched \\{".into()
                                } else {
                                    "Invalid content of \\{\\}".into()
                                });
                            }
                        };
                        emit_interval(&mut out, min, max)?;
                        i = next;
                    }
                    b'+' | b'?' if basic => {
                        if !out.rep(&[e]) {
                            out.lit_byte(e);
                        }
                    }
                    b'1'..=b'9' if !awk => {
                        let n = (e - b'0') as usize;
                        if n > closed {
                            return Err("Invalid back reference".into());
                        }
                        backrefs = true;
                        out.atom(&[b'\\', e]);
                    }
                    b'w' => out.atom(b"[0-9A-Za-z_]"),
                    b'W' => out.atom(if o.no_newline {
                        b"[^0-9A-Za-z_\\n]"
                    } else {
                        b"[^0-9A-Za-z_]"
                    }),
                    b's' => out.atom(if o.no_newline {
                        b"[\\t\\x0B\\x0C\\r ]"
                    } else {
                        b"[\\t\\n\\x0B\\x0C\\r ]"
                    }),
                    b'S' => out.atom(b"[^\\t\\n\\x0B\\x0C\\r ]"),
                    b'b' if !awk => out.non_atom(b"\\b"),
                    b'B' => out.non_atom(b"\\B"),
                    b'<' | b'>' | b'y' if e != b'y' || awk => out.non_atom(b"\\b"),
                    b'`' => out.non_atom(b"\\A"),
                    b'\'' => out.non_atom(b"\\z"),
                    b'0'..=b'7' if awk => {
                        let mut v: u32 = 0;
                        let mut j = i - 1;
                        let mut k = 0;
                        while j < pat.len() && k < 3 && (b'0'..=b'7').contains(&pat[j]) {
                            v = v * 8 + (pat[j] - b'0') as u32;
                            j += 1;
                            k += 1;
                        }
                        i = j;
                        out.lit_byte((v & 0xff) as u8);
                    }
                    b'b' if awk => out.lit_byte(0x08),
                    _ => {
                        if let Some(v) = if o.c_escapes || awk {
                            c_escape(e)
                        } else {
                            None
                        } {
                            out.lit_byte(v);
                        } else {
                            out.lit_byte(e);
                        }
                    }
                }
            }
            b'[' => {
                let (class, next) = parse_bracket(pat, i + 1, o)?;
                i = next;
                out.atom(&class);
            }
            b'.' => {
                i += 1;
                out.atom(if o.fancy && !o.no_newline {
                    b"(?s:.)"
                } else {
                    b"."
                });
            }
            b'*' => {
                i += 1;
                if was_start || !out.rep(b"*") {
                    if basic {
                        out.lit_byte(b'*');
                    } else {
                        // ERE: a leading `*` applies to nothing; GNU drops it.
                        warnings.push("* at start of expression".into());
                    }
                }
            }
            b'+' | b'?' if !basic => {
                i += 1;
                if !out.rep(&[c]) {
                    warnings.push(format!("{} at start of expression", c as char));
                }
            }
            b'{' if !basic => match parse_interval(pat, i + 1, false) {
                Some((min, max, next)) => {
                    i = next;
                    if out.atom_start.is_some() {
                        emit_interval(&mut out, min, max)?;
                    } else {
                        warnings.push("{...} at start of expression".into());
                    }
                }
                None => {
                    i += 1;
                    out.lit_byte(b'{');
                }
            },
            b'(' if !basic => {
                i += 1;
                groups_open.push(out.buf.len());
                total += 1;
                out.non_atom(b"(");
                at_start = true;
            }
            b')' if !basic => {
                i += 1;
                match groups_open.pop() {
                    Some(start) => {
                        closed += 1;
                        if out.buf.last() == Some(&b'(') {
                            // `()` is a valid empty group in POSIX.
                            out.buf.extend_from_slice(b"(?:)");
                        }
                        out.buf.push(b')');
                        out.atom_start = Some(start);
                        out.last_rep = false;
                    }
                    None => {
                        if awk {
                            return Err("Unmatched ) or \\)".into());
                        }
                        out.lit_byte(b')');
                    }
                }
            }
            b'|' if !basic => {
                i += 1;
                out.non_atom(b"|");
                at_start = true;
            }
            b'^' => {
                i += 1;
                if basic && !was_start {
                    out.lit_byte(b'^');
                } else {
                    out.non_atom(b"^");
                    at_start = true;
                }
            }
            b'$' => {
                i += 1;
                let at_end = i >= pat.len()
                    || (basic
                        && i + 1 < pat.len()
                        && pat[i] == b'\\'
                        && (pat[i + 1] == b')' || pat[i + 1] == b'|'));
                if basic && !at_end {
                    out.lit_byte(b'$');
                } else {
                    out.non_atom(b"$");
                }
            }
            _ => {
                i += 1;
                out.lit_byte(c);
            }
        }
    }
    if !groups_open.is_empty() {
        return Err("Unmatched ( or \\(".into());
    }
    // The byte target emitted only ASCII; the fancy one keeps UTF-8 input.
    let pattern = String::from_utf8_lossy(&out.buf).into_owned();
    Ok(Translated {
        pattern,
        backrefs,
        groups: total,
        warnings,
    })
}

fn emit_interval(out: &mut Out, min: Option<u32>, max: Option<u32>) -> Result<(), String> {
    let lo = min.unwrap_or(0);
    if let Some(hi) = max {
        if hi < lo {
            return Err("Invalid content of \\{\\}".into());
        }
    }
    if lo > 32767 || max.unwrap_or(0) > 32767 {
        return Err("Regular expression too big".into());
    }
    let op = match max {
        Some(hi) if hi == lo => format!("{{{}}}", lo),
        Some(hi) => format!("{{{},{}}}", lo, hi),
        None => format!("{{{},}}", lo),
    };
    if !out.rep(op.as_bytes()) {
        // Nothing to repeat: GNU ignores a leading interval.
    }
    Ok(())
}

/// Parse a bracket expression whose body starts at `i` (after `[`).
/// Returns the target class text and the index after the closing `]`.
fn parse_bracket(p: &[u8], mut i: usize, o: &Options) -> Result<(Vec<u8>, usize), String> {
    const UNMATCHED: &str = "Unmatched [, [^, [:, [., or [=";
    let awk = o.syntax == Syntax::Awk;
    let mut negate = false;
    if i < p.len() && p[i] == b'^' {
        negate = true;
        i += 1;
    }
    let mut items: Vec<u8> = Vec::new();
    let mut first = true;
    // The previous single character, usable as a range start.
    let mut prev: Option<u8> = None;
    loop {
        if i >= p.len() {
            return Err(UNMATCHED.into());
        }
        let c = p[i];
        if c == b']' && !first {
            i += 1;
            break;
        }
        first = false;
        // Read one element: a class, an equivalence, a collating symbol or a byte.
        let single: u8;
        if c == b'[' && i + 1 < p.len() && matches!(p[i + 1], b':' | b'=' | b'.') {
            let kind = p[i + 1];
            let body = i + 2;
            let mut j = body;
            while j + 1 < p.len() && !(p[j] == kind && p[j + 1] == b']') {
                j += 1;
            }
            if j + 1 >= p.len() {
                return Err(UNMATCHED.into());
            }
            let name = &p[body..j];
            i = j + 2;
            if kind == b':' {
                let n = String::from_utf8_lossy(name);
                if !CLASSES.contains(&n.as_ref()) {
                    return Err("Invalid character class name".into());
                }
                items.extend_from_slice(b"[:");
                items.extend_from_slice(name);
                items.extend_from_slice(b":]");
                prev = None;
                continue;
            }
            if name.len() != 1 {
                return Err("Invalid collation character".into());
            }
            single = name[0];
        } else if c == b'\\' && awk && i + 1 < p.len() {
            let e = p[i + 1];
            i += 2;
            single = c_escape(e).unwrap_or(if e == b'b' { 0x08 } else { e });
        } else {
            single = c;
            i += 1;
        }
        // A range `a-z` (a `-` before the closing `]` is literal).
        if i + 1 < p.len() && p[i] == b'-' && p[i + 1] != b']' {
            let mut hi = p[i + 1];
            i += 2;
            if hi == b'[' && i < p.len() && p[i] == b'.' {
                // `[.x.]` as a range end.
                if i + 3 < p.len() && p[i + 2] == b'.' && p[i + 3] == b']' {
                    hi = p[i + 1];
                    i += 4;
                }
            } else if hi == b'\\' && awk && i < p.len() {
                hi = c_escape(p[i]).unwrap_or(p[i]);
                i += 1;
            }
            if hi < single {
                return Err("Invalid range end".into());
            }
            push_lit(&mut items, single, o.fancy);
            items.push(b'-');
            push_lit(&mut items, hi, o.fancy);
            prev = None;
            continue;
        }
        let _ = prev;
        prev = Some(single);
        push_lit(&mut items, single, o.fancy);
    }
    let mut out = Vec::with_capacity(items.len() + 6);
    out.push(b'[');
    if negate {
        out.push(b'^');
    }
    out.extend_from_slice(&items);
    if negate && o.no_newline {
        out.extend_from_slice(b"\\n");
    }
    out.push(b']');
    Ok((out, i))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tr(p: &str, s: Syntax) -> String {
        translate(
            p.as_bytes(),
            &Options {
                syntax: s,
                fancy: false,
                no_newline: false,
                c_escapes: false,
            },
        )
        .map(|t| t.pattern)
        .unwrap_or_else(|e| format!("ERR {}", e))
    }

    #[test]
    fn basic_groups_and_intervals() {
        assert_eq!(tr("\\(ab\\)*", Syntax::Basic), "(ab)*");
        assert_eq!(tr("a\\{2,3\\}", Syntax::Basic), "a{2,3}");
        assert_eq!(tr("a\\{,3\\}", Syntax::Basic), "a{0,3}");
        assert_eq!(tr("a+?", Syntax::Basic), "a\\x2B\\x3F");
        assert_eq!(tr("a\\+", Syntax::Basic), "a+");
        assert_eq!(tr("*a", Syntax::Basic), "\\x2Aa");
        assert_eq!(tr("^*", Syntax::Basic), "^\\x2A");
        assert_eq!(tr("a^b$c$", Syntax::Basic), "a\\x5Eb\\x24c$");
    }

    #[test]
    fn extended() {
        assert_eq!(tr("(a|b)+", Syntax::Extended), "(a|b)+");
        assert_eq!(tr("a{", Syntax::Extended), "a\\x7B");
        assert_eq!(tr("a**", Syntax::Extended), "(?:a*)*");
        assert_eq!(tr("*a", Syntax::Extended), "a");
        assert_eq!(tr("a)", Syntax::Extended), "a\\x29");
        assert_eq!(tr("()", Syntax::Extended), "((?:))");
        assert_eq!(tr("(", Syntax::Extended), "ERR Unmatched ( or \\(");
        assert_eq!(
            tr("a{2,1}", Syntax::Extended),
            "ERR Invalid content of \\{\\}"
        );
    }

    #[test]
    fn brackets() {
        assert_eq!(tr("[]a]", Syntax::Basic), "[\\x5Da]");
        assert_eq!(tr("[^a-c]", Syntax::Basic), "[^a-c]");
        assert_eq!(tr("[[:digit:]x]", Syntax::Basic), "[[:digit:]x]");
        assert_eq!(tr("[a-]", Syntax::Basic), "[a\\x2D]");
        assert_eq!(tr("[\\n]", Syntax::Basic), "[\\x5Cn]");
        assert_eq!(tr("[\\/]", Syntax::Awk), "[\\x2F]");
        assert_eq!(tr("[b-a]", Syntax::Basic), "ERR Invalid range end");
        assert_eq!(
            tr("[a", Syntax::Basic),
            "ERR Unmatched [, [^, [:, [., or [="
        );
        assert_eq!(
            tr("[[:foo:]]", Syntax::Basic),
            "ERR Invalid character class name"
        );
    }

    #[test]
    fn backrefs_detected() {
        let t = translate(
            b"\\(a\\)\\1",
            &Options {
                syntax: Syntax::Basic,
                fancy: true,
                no_newline: false,
                c_escapes: false,
            },
        )
        .unwrap();
        assert!(t.backrefs);
        assert_eq!(t.pattern, "(a)\\1");
        assert_eq!(
            tr("\\(a\\)\\2", Syntax::Basic),
            "ERR Invalid back reference"
        );
    }

    #[test]
    fn non_ascii_bytes_escape() {
        assert_eq!(tr("\u{e9}", Syntax::Basic), "\\xC3\\xA9");
    }
}
