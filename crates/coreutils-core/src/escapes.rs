//! Backslash escapes: GNU `printf` (format and `%b`), GNU `echo -e`, and
//! the shell's `echo -e`, `printf` and `${x@E}` (bash's rules).

/// How escapes are read: `printf`'s format (`\NNN` up to 3 octal digits)
/// or `%b`/`echo -e` (`\0NNN`, and `\NNN` too for `%b`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// The printf format string.
    Format,
    /// `%b` arguments.
    PercentB,
    /// `echo -e`: octal only as `\0NNN`.
    Echo,
    /// bash's builtins: octal as `%b`, `\E` is ESC too, and a code point
    /// that is no character becomes U+FFFD.
    Bash,
}

/// Result of expanding one escape at `s[0] == b'\\'`.
pub enum Esc {
    /// Bytes to emit and the number of input bytes consumed.
    Bytes(Vec<u8>, usize),
    /// `\c`: stop all output.
    Stop,
}

fn hex(c: u8) -> Option<u32> {
    (c as char).to_digit(16)
}

fn push_char(out: &mut Vec<u8>, v: u32) {
    if let Some(c) = char::from_u32(v) {
        let mut b = [0u8; 4];
        out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
    }
}

/// Expand the escape starting at `s[0]` (a backslash). `utf8`: the locale
/// can encode characters above U+007F (else `\u`/`\U` are written back).
pub fn escape(s: &[u8], style: Style, utf8: bool) -> Esc {
    let next = s.get(1).copied();
    let c = match next {
        Some(c) => c,
        None => return Esc::Bytes(vec![b'\\'], 1),
    };
    let simple = match c {
        b'\\' => Some(b'\\'),
        b'a' => Some(7),
        b'b' => Some(8),
        b'e' => Some(27),
        b'E' if style == Style::Bash => Some(27),
        b'f' => Some(12),
        b'n' => Some(b'\n'),
        b'r' => Some(b'\r'),
        b't' => Some(b'\t'),
        b'v' => Some(11),
        b'"' if style == Style::Format => Some(b'"'),
        _ => None,
    };
    if let Some(b) = simple {
        return Esc::Bytes(vec![b], 2);
    }
    match c {
        b'c' => Esc::Stop,
        b'0'..=b'7' => {
            let (start, max) = match (style, c) {
                (Style::Format, _) => (1, 3),
                (_, b'0') => (2, 3),
                (Style::PercentB | Style::Bash, _) => (1, 3),
                _ => return Esc::Bytes(vec![b'\\', c], 2),
            };
            let mut v: u32 = 0;
            let mut i = start;
            while i < s.len() && i < start + max && (b'0'..=b'7').contains(&s[i]) {
                v = v * 8 + (s[i] - b'0') as u32;
                i += 1;
            }
            Esc::Bytes(vec![(v & 0xff) as u8], i)
        }
        b'x' => {
            let mut v = 0;
            let mut i = 2;
            while i < s.len() && i < 4 {
                match hex(s[i]) {
                    Some(d) => v = v * 16 + d,
                    None => break,
                }
                i += 1;
            }
            if i == 2 {
                return Esc::Bytes(b"\\x".to_vec(), 2);
            }
            Esc::Bytes(vec![v as u8], i)
        }
        b'u' | b'U' => {
            let n = if c == b'u' { 4 } else { 8 };
            let mut v = 0u32;
            let mut i = 2;
            while i < s.len() && i < 2 + n {
                match hex(s[i]) {
                    Some(d) => v = v.wrapping_mul(16).wrapping_add(d),
                    None => break,
                }
                i += 1;
            }
            if i == 2 {
                return Esc::Bytes(vec![b'\\', c], 2);
            }
            let mut out = Vec::new();
            if v >= 0x80 && !utf8 {
                // As GNU in the C locale: the character cannot be encoded.
                if c == b'u' {
                    out.extend_from_slice(format!("\\u{:04X}", v).as_bytes());
                } else {
                    out.extend_from_slice(format!("\\U{:08X}", v).as_bytes());
                }
            } else if style == Style::Bash {
                push_char(&mut out, char::from_u32(v).map_or(0xfffd, |_| v));
            } else {
                push_char(&mut out, v);
            }
            Esc::Bytes(out, i)
        }
        _ => Esc::Bytes(vec![b'\\', c], 2),
    }
}

/// Expand all escapes of `s`; the flag is true when `\c` stopped output.
pub fn expand(s: &[u8], style: Style, utf8: bool) -> (Vec<u8>, bool) {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'\\' {
            match escape(&s[i..], style, utf8) {
                Esc::Bytes(b, n) => {
                    out.extend_from_slice(&b);
                    i += n;
                }
                Esc::Stop => return (out, true),
            }
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    (out, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn expands() {
        assert_eq!(
            expand(b"a\\tb\\101\\x41", Style::Format, false).0,
            b"a\tbAA"
        );
        assert_eq!(expand(b"\\0101\\101", Style::Echo, false).0, b"A\\101");
        assert_eq!(
            expand(b"x\\cy", Style::PercentB, false),
            (b"x".to_vec(), true)
        );
        assert_eq!(expand(b"\\q", Style::Format, false).0, b"\\q");
        assert_eq!(expand(b"\\E\\0101\\101", Style::Bash, false).0, b"\x1bAA");
        assert_eq!(expand(b"\\E", Style::Format, false).0, b"\\E");
        assert_eq!(expand(b"\\u00e9", Style::Bash, false).0, b"\\u00E9");
        assert_eq!(expand(b"\\u00e9", Style::Bash, true).0, "\u{e9}".as_bytes());
        assert_eq!(
            expand(b"\\UD800", Style::Bash, true).0,
            "\u{fffd}".as_bytes()
        );
    }
}
