//! How `ls` writes names: GNU's quoting styles (`--quoting-style`, `-b`,
//! `-N`, `-Q`) and `-q`'s question marks, in the C locale.

use coreutils_core::quote::quote_bytes;

/// A `--quoting-style`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Style {
    Literal,
    Shell,
    ShellAlways,
    ShellEscape,
    ShellEscapeAlways,
    C,
    /// `c-maybe`: C quotes only when an escape is needed.
    CMaybe,
    Escape,
    /// `locale`: in the C locale, `'...'` with C escapes.
    Locale,
}

impl Style {
    /// The style a `--quoting-style` (or `QUOTING_STYLE`) word names.
    pub fn parse(word: &str) -> Option<Style> {
        Some(match word {
            "literal" => Style::Literal,
            "shell" => Style::Shell,
            "shell-always" => Style::ShellAlways,
            "shell-escape" => Style::ShellEscape,
            "shell-escape-always" => Style::ShellEscapeAlways,
            "c" => Style::C,
            "c-maybe" => Style::CMaybe,
            "escape" => Style::Escape,
            "locale" => Style::Locale,
            // In the C locale `clocale` quotes like `c`.
            "clocale" => Style::C,
            _ => return None,
        })
    }

    /// Whether names that need no quotes get a leading space in columns and
    /// long listings, so quoted and bare names line up.
    pub fn variable_quotes(self) -> bool {
        matches!(self, Style::Shell | Style::ShellEscape | Style::CMaybe)
    }
}

/// The valid words, as GNU lists them after an invalid one.
pub const VALID: &str = "Valid arguments are:\n  - 'literal'\n  - 'shell'\n  - 'shell-always'\n  - 'shell-escape'\n  - 'shell-escape-always'\n  - 'c'\n  - 'c-maybe'\n  - 'escape'\n  - 'locale'\n  - 'clocale'";

fn printable(c: u8) -> bool {
    (0x20..0x7f).contains(&c)
}

fn c_escape(out: &mut Vec<u8>, c: u8, quote: u8, space: bool) {
    let esc: Option<u8> = match c {
        b'\\' => Some(b'\\'),
        b'\n' => Some(b'n'),
        b'\t' => Some(b't'),
        b'\r' => Some(b'r'),
        0x07 => Some(b'a'),
        0x08 => Some(b'b'),
        0x0c => Some(b'f'),
        0x0b => Some(b'v'),
        _ if c == quote && quote != 0 => Some(c),
        b' ' if space => Some(b' '),
        _ => None,
    };
    if let Some(e) = esc {
        out.push(b'\\');
        out.push(e);
    } else if printable(c) {
        out.push(c);
    } else {
        out.extend_from_slice(format!("\\{:03o}", c).as_bytes());
    }
}

/// `name` in `style`; `qmark` turns unprintable bytes into `?` (for the
/// styles that do not escape). Returns the text and whether it is quoted.
pub fn quote(name: &[u8], style: Style, qmark: bool) -> (Vec<u8>, bool) {
    let mark = |v: &[u8]| -> Vec<u8> {
        if qmark {
            v.iter()
                .map(|&c| if printable(c) { c } else { b'?' })
                .collect()
        } else {
            v.to_vec()
        }
    };
    match style {
        Style::Literal => (mark(name), false),
        Style::Shell | Style::ShellAlways => {
            let always = style == Style::ShellAlways;
            // Unprintable bytes need quotes but are written as they are.
            let masked: Vec<u8> = name
                .iter()
                .map(|&c| if printable(c) { c } else { b'\x01' })
                .collect();
            let needs = always
                || masked.contains(&b'\x01')
                || quote_bytes(&masked, false).as_bytes() != masked.as_slice();
            if !needs {
                return (mark(name), false);
            }
            let s = if name.contains(&b'\'') && !name.iter().any(|c| b"\"$`\\".contains(c)) {
                let mut v = vec![b'"'];
                v.extend_from_slice(&mark(name));
                v.push(b'"');
                v
            } else {
                let mut v = vec![b'\''];
                for &c in &mark(name) {
                    if c == b'\'' {
                        v.extend_from_slice(b"'\\''");
                    } else {
                        v.push(c);
                    }
                }
                v.push(b'\'');
                v
            };
            (s, true)
        }
        Style::ShellEscape | Style::ShellEscapeAlways => {
            let q = quote_bytes(name, style == Style::ShellEscapeAlways).into_bytes();
            let quoted = q != name;
            (q, quoted)
        }
        Style::C => {
            let mut v = vec![b'"'];
            for &c in name {
                c_escape(&mut v, c, b'"', false);
            }
            v.push(b'"');
            (v, true)
        }
        Style::CMaybe => {
            let mut v = Vec::new();
            for &c in name {
                c_escape(&mut v, c, b'"', false);
            }
            if v == name {
                (v, false)
            } else {
                let mut q = vec![b'"'];
                q.extend_from_slice(&v);
                q.push(b'"');
                (q, true)
            }
        }
        Style::Escape => {
            let mut v = Vec::new();
            for &c in name {
                c_escape(&mut v, c, 0, true);
            }
            (v, false)
        }
        Style::Locale => {
            let mut v = vec![b'\''];
            for &c in name {
                c_escape(&mut v, c, b'\'', false);
            }
            v.push(b'\'');
            (v, true)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    fn q(n: &str, s: Style) -> String {
        String::from_utf8(quote(n.as_bytes(), s, false).0).unwrap()
    }
    #[test]
    fn styles_like_gnu() {
        assert_eq!(q("a b", Style::Shell), "'a b'");
        assert_eq!(q("it's", Style::Shell), "\"it's\"");
        assert_eq!(q("d", Style::ShellAlways), "'d'");
        assert_eq!(q("nl\nx", Style::ShellEscape), "'nl'$'\\n''x'");
        assert_eq!(q("nl\nx", Style::Shell), "'nl\nx'");
        assert_eq!(q("q\"d", Style::C), "\"q\\\"d\"");
        assert_eq!(q("a b", Style::Escape), "a\\ b");
        assert_eq!(q("it's", Style::Locale), "'it\\'s'");
        assert_eq!(q("t\tab", Style::Locale), "'t\\tab'");
        assert_eq!(q("back\\sl", Style::C), "\"back\\\\sl\"");
        assert_eq!(
            String::from_utf8(quote(b"t\tab", Style::Literal, true).0).unwrap(),
            "t?ab"
        );
    }
}
