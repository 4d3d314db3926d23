//! `wc`: line, word, byte/character and maximum-line-width counts with
//! GNU's column widths and totals. In a UTF-8 locale characters, words and
//! widths are Unicode characters (coreutils_core::locale); in C, bytes.

use std::ffi::OsString;
use std::io::Read;

use coreutils_core::locale::{
    char_width, is_unicode_print, is_unicode_space, utf8_locale, Utf8Decoder,
};

use crate::common::bytes::qf;
use crate::common::input::{err_text, finish, open, put, stdout};
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};

const USAGE: Usage = Usage::new(
    "wc",
    "[OPTION]... [FILE]...\nPrint newline, word, and byte counts for each FILE.\n",
    1,
);

const SPEC: &[OptSpec<&str>] = &[
    opt("c", Some('c'), Some("bytes"), HasArg::No),
    opt("m", Some('m'), Some("chars"), HasArg::No),
    opt("l", Some('l'), Some("lines"), HasArg::No),
    opt("w", Some('w'), Some("words"), HasArg::No),
    opt("L", Some('L'), Some("max-line-length"), HasArg::No),
    opt("total", None, Some("total"), HasArg::Required),
];

#[derive(Default, Clone, Copy)]
struct Counts {
    lines: u64,
    words: u64,
    bytes: u64,
    chars: u64,
    maxlen: u64,
}

/// Count state carried across read chunks.
#[derive(Default)]
struct Counter {
    c: Counts,
    in_word: bool,
    linepos: u64,
    /// Set in a UTF-8 locale: characters are decoded, not bytes.
    utf8: Option<Utf8Decoder>,
}

impl Counter {
    fn feed(&mut self, buf: &[u8], need_words: bool) {
        self.c.bytes += buf.len() as u64;
        if let Some(mut d) = self.utf8.take() {
            for &b in buf {
                if let Some(c) = d.push(b) {
                    self.c.chars += 1;
                    if c < 0x80 {
                        self.byte(c as u8);
                    } else if need_words && is_unicode_print(c) {
                        self.linepos += char_width(c);
                        if is_unicode_space(c) {
                            self.in_word = false;
                        } else {
                            self.word_char();
                        }
                    }
                }
            }
            self.utf8 = Some(d);
            return;
        }
        self.c.chars += buf.len() as u64;
        if !need_words {
            self.c.lines += buf.iter().filter(|&&b| b == b'\n').count() as u64;
            return;
        }
        for &b in buf {
            self.byte(b);
        }
    }
    /// One byte of the C locale, or one ASCII character of a UTF-8 one.
    fn byte(&mut self, b: u8) {
        {
            match b {
                b'\n' => {
                    self.c.lines += 1;
                    self.end_line();
                    self.in_word = false;
                }
                b'\r' | 0x0c => {
                    self.end_line();
                    self.in_word = false;
                }
                b'\t' => {
                    self.linepos += 8 - self.linepos % 8;
                    self.in_word = false;
                }
                b' ' => {
                    self.linepos += 1;
                    self.in_word = false;
                }
                0x0b => self.in_word = false,
                0x21..=0x7e => {
                    self.linepos += 1;
                    self.word_char();
                }
                _ => {}
            }
        }
    }
    fn word_char(&mut self) {
        if !self.in_word {
            self.c.words += 1;
            self.in_word = true;
        }
    }
    fn end_line(&mut self) {
        if self.linepos > self.c.maxlen {
            self.c.maxlen = self.linepos;
        }
        self.linepos = 0;
    }
}

/// A regular file's size, to count its bytes without reading it (GNU does
/// the same). It is opened first, so an unreadable file fails as if read.
fn regular_size(f: &OsString) -> Option<u64> {
    if f == "-" {
        return None;
    }
    let m = coreutils_core::fs::open(f)
        .and_then(|h| h.metadata())
        .ok()?;
    if m.is_file() {
        Some(m.len())
    } else {
        None
    }
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let mut show = [p.has("l"), p.has("w"), p.has("m"), p.has("c"), p.has("L")];
    if !show.iter().any(|&b| b) {
        show = [true, true, false, true, false];
    }
    let total_mode = match p.last_str("total").as_deref() {
        None | Some("auto") => 0,
        Some("always") => 1,
        Some("only") => 2,
        Some("never") => 3,
        Some(other) => {
            return USAGE.fail(&format!(
                "invalid argument '{}' for '--total'\nValid arguments are:\n  - 'auto'\n  - 'always'\n  - 'only'\n  - 'never'",
                other
            ))
        }
    };
    let named = !p.operands.is_empty();
    let files = if named {
        p.operands
    } else {
        vec![OsString::from("-")]
    };
    let nshown = show.iter().filter(|&&b| b).count();
    // GNU sizes columns from the regular files' total size (7 when any
    // input is not a regular file), 1 for a single count of a single file.
    let width = if files.len() == 1 && nshown == 1 {
        1
    } else {
        let mut min = 1;
        let mut total: u64 = 0;
        for f in &files {
            if f == "-" {
                min = 7;
                continue;
            }
            if let Ok(m) = coreutils_core::fs::metadata(f) {
                if m.is_file() {
                    total += m.len();
                } else {
                    min = 7;
                }
            }
        }
        let mut w = 1;
        while total >= 10 {
            total /= 10;
            w += 1;
        }
        w.max(min)
    };
    let width = if total_mode == 2 { 1 } else { width };
    let need_words = show[1] || show[4];
    let utf8 = utf8_locale();
    let mut out = stdout();
    let mut status = 0;
    let mut sum = Counts::default();
    // Only bytes wanted: a regular file's size is its count (GNU does the same).
    let bytes_only = show == [false, false, false, true, false];
    for f in &files {
        let sized = if bytes_only { regular_size(f) } else { None };
        let (c, failed) = match sized {
            Some(bytes) => (
                Counts {
                    bytes,
                    ..Counts::default()
                },
                false,
            ),
            None => {
                let mut r = match open(f) {
                    Ok(r) => r,
                    Err(e) => {
                        eprintln!(
                            "{}: {}: {}",
                            coreutils_core::prog("wc"),
                            qf(f),
                            err_text(&e)
                        );
                        status = 1;
                        // A directory opens but cannot be read: GNU still prints zeros.
                        if coreutils_core::fs::metadata(f)
                            .map(|m| m.is_dir())
                            .unwrap_or(false)
                            && total_mode != 2
                        {
                            let name = if named {
                                Some(crate::common::bytes::os_bytes(f))
                            } else {
                                None
                            };
                            line(&mut out, &Counts::default(), &show, width, name);
                        }
                        continue;
                    }
                };
                let mut cnt = Counter {
                    utf8: if utf8 {
                        Some(Utf8Decoder::default())
                    } else {
                        None
                    },
                    ..Counter::default()
                };
                let mut buf = vec![0u8; 64 * 1024];
                let mut failed = false;
                loop {
                    match r.read(&mut buf) {
                        Ok(0) => break,
                        Ok(k) => cnt.feed(&buf[..k], need_words),
                        Err(e) => {
                            eprintln!(
                                "{}: {}: {}",
                                coreutils_core::prog("wc"),
                                qf(f),
                                err_text(&e)
                            );
                            status = 1;
                            failed = true;
                            break;
                        }
                    }
                }
                cnt.end_line();
                (cnt.c, failed)
            }
        };
        sum.lines += c.lines;
        sum.words += c.words;
        sum.bytes += c.bytes;
        sum.chars += c.chars;
        sum.maxlen = sum.maxlen.max(c.maxlen);
        if failed {
            continue;
        }
        if total_mode != 2 {
            let name = if named { Some(f.as_os_str()) } else { None };
            line(
                &mut out,
                &c,
                &show,
                width,
                name.map(crate::common::bytes::os_bytes),
            );
        }
    }
    let print_total = match total_mode {
        0 => files.len() > 1,
        1 | 2 => true,
        _ => false,
    };
    if print_total {
        let name: Option<&[u8]> = if total_mode == 2 {
            None
        } else {
            Some(b"total")
        };
        line(&mut out, &sum, &show, width, name);
    }
    finish(&mut out, "wc", status)
}

fn line(
    out: &mut crate::common::input::Out,
    c: &Counts,
    show: &[bool; 5],
    width: usize,
    name: Option<&[u8]>,
) {
    let vals = [c.lines, c.words, c.chars, c.bytes, c.maxlen];
    let mut s = Vec::with_capacity(64);
    for (i, v) in vals.iter().enumerate() {
        if show[i] {
            if !s.is_empty() {
                s.push(b' ');
            }
            s.extend_from_slice(format!("{:>w$}", v, w = width).as_bytes());
        }
    }
    if let Some(n) = name {
        s.push(b' ');
        s.extend_from_slice(n);
    }
    s.push(b'\n');
    put(out, &s);
}
