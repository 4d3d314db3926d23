//! grep's searcher: reads an input in large chunks, finds selected lines
//! by searching whole buffers (line boundaries found with memchr only
//! around matches), and prints lines, context, counts or file names.

use super::{BinaryMode, Opts};
use crate::common::bytes;
use crate::common::stdout::RawStdout;
use coreutils_core::error::strerror;
use coreutils_core::io::exit_on_write_error;
use std::io::{self, BufWriter, Read, Write};

/// Where the bytes come from.
pub enum Source {
    /// Standard input.
    Stdin,
    /// An open file.
    File(std::fs::File),
}

const CHUNK: usize = 256 * 1024;

/// Why processing of a file ended early.
#[derive(PartialEq, Eq, Clone, Copy)]
enum Flow {
    Go,
    StopFile,
    StopAll,
}

/// Per-file state.
struct FileState<'a> {
    name: &'a [u8],
    show_name: bool,
    binary: bool,
    selected: u64,
    /// Absolute offset of the end of the last printed line (after its eol).
    last_printed_end: Option<u64>,
    after_left: usize,
    /// Line number of the line starting at the current position.
    lineno: u64,
    /// Absolute offset of buffer index 0.
    base: u64,
}

/// The grep output engine, shared across files.
pub struct Searcher {
    o: Opts,
    out: BufWriter<RawStdout>,
    printed_any: bool,
    success: bool,
    quiet_matched: bool,
    locs: Vec<(usize, usize)>,
}

impl Searcher {
    pub fn new(o: Opts) -> Searcher {
        Searcher {
            o,
            out: crate::common::stdout::stdout(),
            printed_any: false,
            success: false,
            quiet_matched: false,
            locs: Vec::new(),
        }
    }

    pub fn opts(&self) -> &Opts {
        &self.o
    }

    pub fn any_success(&self) -> bool {
        self.success
    }

    pub fn quiet_matched(&self) -> bool {
        self.quiet_matched
    }

    pub fn finish(&mut self) {
        if let Err(e) = self.out.flush() {
            exit_on_write_error(e);
        }
    }

    fn w(&mut self, b: &[u8]) {
        if let Err(e) = self.out.write_all(b) {
            exit_on_write_error(e);
        }
    }

    /// Whether a line (without its terminator) is matched by any pattern.
    fn line_matches(&self, line: &[u8]) -> bool {
        for re in &self.o.matchers {
            if self.o.word {
                if word_match(re, line, 0).is_some() {
                    return true;
                }
            } else if re.is_match(line) {
                return true;
            }
        }
        false
    }

    /// Next line in `buf[pos..end]` matched by a pattern: (start, end of
    /// line content).
    fn next_match_line(&self, buf: &[u8], pos: usize, end: usize) -> Option<(usize, usize)> {
        let eol = self.o.eol;
        if self.o.matchers.is_empty() {
            return None;
        }
        if self.o.fast {
            let hay = &buf[..end];
            let m = self.o.matchers[0].shortest_match_at(hay, pos)?;
            let ls = match bytes::memrchr(eol, &buf[pos..m]) {
                Some(i) => pos + i + 1,
                None => pos,
            };
            let le = match bytes::memchr(eol, &buf[m..end]) {
                Some(i) => m + i,
                None => end,
            };
            if ls > le || ls >= end {
                // Empty match right after the final newline of the region.
                return None;
            }
            return Some((ls, le));
        }
        let mut p = pos;
        while p < end {
            let le = match bytes::memchr(eol, &buf[p..end]) {
                Some(i) => p + i,
                None => end,
            };
            if self.line_matches(&buf[p..le]) {
                return Some((p, le));
            }
            p = le + 1;
        }
        None
    }

    /// Search one input. Returns true when everything should stop.
    pub fn search(&mut self, src: Source, name: &[u8], show_name: bool, status: &mut bool) -> bool {
        if self.o.max_count == Some(0) {
            return false;
        }
        let mut reader: Box<dyn Read> = match src {
            Source::Stdin => Box::new(io::stdin()),
            Source::File(f) => Box::new(f),
        };
        let mut st = FileState {
            name,
            show_name,
            binary: false,
            selected: 0,
            last_printed_end: None,
            after_left: 0,
            lineno: 1,
            base: 0,
        };
        // Zeroed once: refills reuse the same bytes (`len` of them are valid).
        let mut buf: Vec<u8> = vec![0; CHUNK * 2];
        let mut len = 0usize;
        let mut proc_start = 0usize;
        let mut eof = false;
        let eol = self.o.eol;
        let mut flow = Flow::Go;
        while flow == Flow::Go {
            // Fill: at least one chunk of new data, or to EOF.
            let old_len = len;
            let want = old_len + CHUNK;
            if buf.len() < want {
                buf.resize(want, 0);
            }
            let mut filled = old_len;
            while filled < want {
                match reader.read(&mut buf[filled..want]) {
                    Ok(0) => {
                        eof = true;
                        break;
                    }
                    Ok(n) => {
                        filled += n;
                        // Keep reads large but do not wait for a pipe to fill.
                        if filled - old_len >= CHUNK / 4 {
                            break;
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        *status = true;
                        let msg = if e.raw_os_error() == Some(31) || e.raw_os_error() == Some(21) {
                            "Is a directory".to_string()
                        } else {
                            strerror(&e)
                        };
                        eprintln!(
                            "{}: {}: {}",
                            coreutils_core::prog("grep"),
                            String::from_utf8_lossy(name),
                            msg
                        );
                        eof = true;
                        break;
                    }
                }
            }
            len = filled;
            if !st.binary
                && self.o.binary != BinaryMode::Text
                && bytes::memchr(0, &buf[old_len..len]).is_some()
                && self.o.eol != 0
            {
                st.binary = true;
                if self.o.binary == BinaryMode::WithoutMatch {
                    return false;
                }
            }
            let complete_end = if eof {
                len
            } else {
                match bytes::memrchr(eol, &buf[proc_start..len]) {
                    Some(i) => proc_start + i + 1,
                    None => continue,
                }
            };
            flow = self.process(&mut st, &buf[..len], proc_start, complete_end);
            if eof {
                break;
            }
            // Keep the last `before` lines for leading context.
            let mut keep = complete_end;
            let mut n = self.o.before;
            while n > 0 && keep > 0 {
                match bytes::memrchr(eol, &buf[..keep - 1]) {
                    Some(i) => keep = i + 1,
                    None => keep = 0,
                }
                n -= 1;
            }
            buf.copy_within(keep..len, 0);
            len -= keep;
            st.base += keep as u64;
            proc_start = complete_end - keep;
        }
        if flow == Flow::StopAll {
            return true;
        }
        let name_end: &[u8] = if self.o.null { b"\0" } else { b"\n" };
        if self.o.count {
            if st.show_name {
                self.w(name);
                self.w(if self.o.null { b"\0" } else { b":" });
            }
            let c = format!("{}\n", st.selected);
            self.w(c.as_bytes());
        }
        if self.o.files_with && st.selected > 0 {
            self.w(name);
            self.w(name_end);
        }
        if self.o.files_without && st.selected == 0 {
            self.w(name);
            self.w(name_end);
        }
        if st.selected > 0 {
            self.success = true;
        }
        if st.binary
            && st.selected > 0
            && !self.o.count
            && !self.o.files_with
            && !self.o.files_without
            && !self.o.quiet
        {
            self.finish();
            eprintln!(
                "{}: {}: binary file matches",
                coreutils_core::prog("grep"),
                String::from_utf8_lossy(name)
            );
        }
        false
    }

    fn max_reached(&self, st: &FileState) -> bool {
        match self.o.max_count {
            Some(m) => st.selected >= m,
            None => false,
        }
    }

    /// Process complete lines in `buf[s..e]`.
    fn process(&mut self, st: &mut FileState, buf: &[u8], s: usize, e: usize) -> Flow {
        let eol = self.o.eol;
        let mut pos = s;
        while pos < e {
            if self.max_reached(st) {
                // Only trailing context remains.
                if st.after_left > 0 {
                    self.unselected_region(st, buf, pos, e);
                }
                return Flow::StopFile;
            }
            let found = self.next_match_line(buf, pos, e);
            let (ms, me) = found.unwrap_or((e, e));
            if !self.o.invert {
                self.unselected_region(st, buf, pos, ms);
                match found {
                    Some(_) => {
                        let f = self.selected_line(st, buf, ms, me);
                        if f != Flow::Go {
                            return f;
                        }
                        pos = (me + 1).min(e.max(me + 1));
                    }
                    None => pos = e,
                }
            } else {
                let mut p = pos;
                while p < ms {
                    if self.max_reached(st) {
                        if st.after_left > 0 {
                            self.unselected_region(st, buf, p, e);
                        }
                        return Flow::StopFile;
                    }
                    let le = match bytes::memchr(eol, &buf[p..ms]) {
                        Some(i) => p + i,
                        None => ms,
                    };
                    let f = self.selected_line(st, buf, p, le);
                    if f != Flow::Go {
                        return f;
                    }
                    p = le + 1;
                }
                match found {
                    Some(_) => {
                        if me < e || ms < e {
                            self.unselected_region(st, buf, ms, (me + 1).min(e));
                        }
                        pos = me + 1;
                    }
                    None => pos = e,
                }
            }
        }
        Flow::Go
    }

    fn output_lines(&self) -> bool {
        !(self.o.quiet || self.o.count || self.o.files_with || self.o.files_without)
    }

    /// Lines in `buf[a..b]` that are not selected: trailing context and
    /// line counting.
    fn unselected_region(&mut self, st: &mut FileState, buf: &[u8], a: usize, b: usize) {
        if a >= b {
            return;
        }
        let eol = self.o.eol;
        let mut p = a;
        while st.after_left > 0 && p < b && self.output_lines() && !st.binary {
            let le = match bytes::memchr(eol, &buf[p..b]) {
                Some(i) => p + i,
                None => b,
            };
            self.print_line(st, buf, p, le, b'-');
            st.after_left -= 1;
            st.lineno += 1;
            p = le + 1;
        }
        if p < b && self.o.line_number {
            st.lineno += bytes::count(eol, &buf[p..b]) as u64;
            if buf[b - 1] != eol {
                st.lineno += 1;
            }
        }
    }

    fn selected_line(&mut self, st: &mut FileState, buf: &[u8], ls: usize, le: usize) -> Flow {
        st.selected += 1;
        if self.o.quiet {
            self.quiet_matched = true;
            self.success = true;
            return Flow::StopAll;
        }
        if self.o.files_with || self.o.files_without {
            return Flow::StopFile;
        }
        if self.o.count {
            st.lineno += 1;
            return Flow::Go;
        }
        if st.binary {
            return Flow::StopFile;
        }
        // Leading context.
        if self.o.before > 0 {
            let eol = self.o.eol;
            let mut starts = Vec::new();
            let mut p = ls;
            for _ in 0..self.o.before {
                if p == 0 {
                    break;
                }
                let s = match bytes::memrchr(eol, &buf[..p - 1]) {
                    Some(i) => i + 1,
                    None => 0,
                };
                if let Some(lp) = st.last_printed_end {
                    if st.base + (s as u64) < lp {
                        break;
                    }
                }
                starts.push(s);
                p = s;
            }
            let n = starts.len() as u64;
            for (k, s) in starts.iter().rev().enumerate() {
                let e = ls - 1;
                let le = match bytes::memchr(eol, &buf[*s..e]) {
                    Some(i) => s + i,
                    None => e,
                };
                let saved = st.lineno;
                st.lineno = saved.saturating_sub(n - k as u64);
                self.print_line(st, buf, *s, le, b'-');
                st.lineno = saved;
            }
        }
        self.print_line(st, buf, ls, le, b':');
        st.lineno += 1;
        st.after_left = self.o.after;
        Flow::Go
    }

    fn prefix(&mut self, st: &FileState, sep: u8, offset: u64) {
        if st.show_name {
            self.w(st.name);
            if self.o.null {
                self.w(b"\0");
            } else {
                self.w(&[sep]);
            }
        }
        if self.o.line_number {
            let s = if self.o.initial_tab {
                format!("{:>4}{}", st.lineno, sep as char)
            } else {
                format!("{}{}", st.lineno, sep as char)
            };
            self.w(s.as_bytes());
        }
        if self.o.byte_offset {
            let s = format!("{}{}", offset, sep as char);
            self.w(s.as_bytes());
        }
        if self.o.initial_tab && (st.show_name || self.o.line_number || self.o.byte_offset) {
            self.w(b"\t");
        }
    }

    fn print_line(&mut self, st: &mut FileState, buf: &[u8], ls: usize, le: usize, sep: u8) {
        let abs = st.base + ls as u64;
        if self.o.context {
            let adjacent = st.last_printed_end == Some(abs);
            if self.printed_any && !adjacent {
                if let Some(sep) = self.o.group_sep.as_deref() {
                    let line = [sep, b"\n"].concat();
                    self.w(&line);
                }
            }
        }
        self.printed_any = true;
        st.last_printed_end = Some(abs + (le - ls) as u64 + 1);
        if self.o.only {
            if sep != b':' || self.o.invert {
                return;
            }
            self.locs.clear();
            let line = &buf[ls..le];
            let mut pos = 0;
            while pos <= line.len() {
                let mut best: Option<(usize, usize)> = None;
                for re in &self.o.matchers {
                    let m = if self.o.word {
                        word_match(re, line, pos)
                    } else {
                        re.find_at(line, pos)
                    };
                    if let Some(m) = m {
                        best = match best {
                            Some(b) if b.0 < m.0 || (b.0 == m.0 && b.1 >= m.1) => Some(b),
                            _ => Some(m),
                        };
                    }
                }
                match best {
                    Some((s, e)) => {
                        if e > s {
                            self.locs.push((s, e));
                            pos = e;
                        } else {
                            pos = s + 1;
                        }
                    }
                    None => break,
                }
            }
            let locs = std::mem::take(&mut self.locs);
            for &(s, e) in &locs {
                self.prefix(st, sep, abs + s as u64);
                self.w(&line[s..e]);
                self.w(&[self.o.eol]);
            }
            self.locs = locs;
            return;
        }
        self.prefix(st, sep, abs);
        self.w(&buf[ls..le]);
        self.w(&[self.o.eol]);
    }
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// A match of `re` in `line` at or after `from` that stands as a whole word.
fn word_match(re: &crate::rx::Regex, line: &[u8], from: usize) -> Option<(usize, usize)> {
    let mut pos = from;
    while pos <= line.len() {
        let (s, e) = re.find_at(line, pos)?;
        let before_ok = s == 0 || !is_word(line[s - 1]);
        let after_ok = e == line.len() || !is_word(line[e]);
        if before_ok && after_ok && (e > s || from == 0) {
            return Some((s, e));
        }
        if before_ok && e > s {
            // Try shorter matches starting at `s` (GNU does the same).
            let mut end = e;
            while end > s {
                end -= 1;
                if let Some((s2, e2)) = re.find_at(&line[..end], s) {
                    if s2 == s && (e2 == line.len() || !is_word(line[e2])) && e2 > s {
                        return Some((s2, e2));
                    }
                    end = e2.min(end);
                } else {
                    break;
                }
            }
        }
        pos = s + 1;
    }
    None
}
