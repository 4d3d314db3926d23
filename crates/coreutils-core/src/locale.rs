//! The locale's character set, as GNU programs see it through setlocale:
//! the first non-empty of LC_ALL, LC_CTYPE and LANG names it.

/// Whether the locale's charset is UTF-8 (`C.UTF-8`, `en_US.utf8`, ...);
/// `C`, `POSIX` or nothing set mean bytes are characters.
pub fn utf8_locale() -> bool {
    for k in ["LC_ALL", "LC_CTYPE", "LANG"] {
        if let Some(v) = std::env::var_os(k) {
            if !v.is_empty() {
                let s = v.to_string_lossy().to_ascii_lowercase();
                return s.contains("utf-8") || s.contains("utf8");
            }
        }
    }
    false
}

/// Decodes UTF-8 a byte at a time, so a sequence split by a read chunk is
/// finished by the next one. Bytes that do not form a valid sequence are no
/// character (GNU wc counts them as bytes only).
#[derive(Default)]
pub struct Utf8Decoder {
    /// Continuation bytes still expected by the sequence in progress.
    need: u8,
    /// Allowed range of the next continuation byte (excludes overlong forms,
    /// surrogates and values above U+10FFFF).
    lo: u8,
    hi: u8,
    value: u32,
}

impl Utf8Decoder {
    /// The character `b` completes, if any.
    pub fn push(&mut self, b: u8) -> Option<u32> {
        if self.need > 0 {
            if b >= self.lo && b <= self.hi {
                self.need -= 1;
                self.lo = 0x80;
                self.hi = 0xbf;
                self.value = self.value << 6 | u32::from(b & 0x3f);
                return if self.need == 0 {
                    Some(self.value)
                } else {
                    None
                };
            }
            // The sequence is broken: b starts afresh.
            self.need = 0;
        }
        let (need, lo, hi, bits) = match b {
            0x00..=0x7f => return Some(u32::from(b)),
            0xc2..=0xdf => (1, 0x80, 0xbf, b & 0x1f),
            0xe0 => (2, 0xa0, 0xbf, b & 0x0f),
            0xed => (2, 0x80, 0x9f, b & 0x0f),
            0xe1..=0xef => (2, 0x80, 0xbf, b & 0x0f),
            0xf0 => (3, 0x90, 0xbf, b & 0x07),
            0xf4 => (3, 0x80, 0x8f, b & 0x07),
            0xf1..=0xf3 => (3, 0x80, 0xbf, b & 0x07),
            _ => return None,
        };
        self.need = need;
        self.lo = lo;
        self.hi = hi;
        self.value = u32::from(bits);
        None
    }
}

/// Columns a printable character takes on a terminal (glibc's wcwidth for
/// the common cases): 0 for combining marks, 2 for East Asian wide and
/// emoji blocks, else 1.
pub fn char_width(c: u32) -> u64 {
    match c {
        0x0300..=0x036f
        | 0x0483..=0x0489
        | 0x0591..=0x05bd
        | 0x0610..=0x061a
        | 0x064b..=0x065f
        | 0x200b..=0x200f
        | 0x20d0..=0x20ff
        | 0xfe00..=0xfe0f
        | 0xfe20..=0xfe2f => 0,
        0x1100..=0x115f
        | 0x2e80..=0x303e
        | 0x3041..=0x33ff
        | 0x3400..=0x4dbf
        | 0x4e00..=0x9fff
        | 0xa000..=0xa4cf
        | 0xac00..=0xd7a3
        | 0xf900..=0xfaff
        | 0xfe30..=0xfe4f
        | 0xff00..=0xff60
        | 0xffe0..=0xffe6
        | 0x1f300..=0x1f64f
        | 0x1f900..=0x1f9ff
        | 0x20000..=0x3fffd => 2,
        _ => 1,
    }
}

/// glibc's iswspace beyond ASCII in a UTF-8 locale.
pub fn is_unicode_space(c: u32) -> bool {
    matches!(
        c,
        0x1680 | 0x2000..=0x2006 | 0x2008..=0x200a | 0x2028 | 0x2029 | 0x205f | 0x3000
    )
}

/// glibc's iswprint beyond ASCII: everything but the C1 controls.
pub fn is_unicode_print(c: u32) -> bool {
    !(0x80..=0x9f).contains(&c)
}

#[cfg(test)]
mod tests {
    use super::Utf8Decoder;

    fn count(b: &[u8]) -> usize {
        let mut d = Utf8Decoder::default();
        b.iter().filter_map(|&x| d.push(x)).count()
    }

    #[test]
    fn counts_characters_not_bytes() {
        assert_eq!(count("héllo\n".as_bytes()), 6);
        assert_eq!(count("日本語".as_bytes()), 3);
    }

    #[test]
    fn decodes_values() {
        let mut d = Utf8Decoder::default();
        let v: Vec<u32> = "é😀".bytes().filter_map(|x| d.push(x)).collect();
        assert_eq!(v, vec![0xe9, 0x1f600]);
    }

    #[test]
    fn invalid_bytes_are_not_characters() {
        assert_eq!(count(b"a\xffb\xc3"), 2);
        assert_eq!(count(b"\xc3a"), 1);
        assert_eq!(count(b"\xe0\x80\x80"), 0);
    }
}
