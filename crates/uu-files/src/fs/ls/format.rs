//! Writing a listing: the long format, columns (`-C`), across (`-x`),
//! commas (`-m`) and one name per line, with GNU's widths and padding.

use super::color::Colors;
use super::entry::Entry;
use super::options::{Format, Indicator, Options};
use super::order::time_of;
use super::quoting::quote;
use crate::misc::datetime::{strftime, Time};
use coreutils_core::meta::{perm_string, type_char, S_IFDIR, S_IFIFO, S_IFLNK, S_IFREG, S_IFSOCK};
use coreutils_core::users::NameCache;

/// Display width of a name (control characters take no column).
pub fn width_of(b: &[u8]) -> usize {
    match std::str::from_utf8(b) {
        Ok(s) => s.chars().filter(|c| !c.is_control()).count(),
        Err(_) => b.iter().filter(|&&c| (0x20..0x7f).contains(&c)).count(),
    }
}

/// What `-F`/`-p`/`--file-type` append for a file of `mode`.
fn indicator_for(mode: u32, style: Indicator) -> &'static [u8] {
    let t = mode & coreutils_core::meta::S_IFMT;
    match style {
        Indicator::None => b"",
        _ if t == S_IFREG || t == 0 => {
            if style == Indicator::Classify && mode & 0o111 != 0 {
                b"*"
            } else {
                b""
            }
        }
        _ if t == S_IFDIR => b"/",
        Indicator::Slash => b"",
        _ => match t {
            S_IFLNK => b"@",
            S_IFIFO => b"|",
            S_IFSOCK => b"=",
            _ => b"",
        },
    }
}

/// Writes listings; keeps the name caches and colour state between them.
pub struct Printer<'a> {
    o: &'a Options,
    names: NameCache,
    colors: Option<Colors>,
    /// Whether the reset before the first coloured name was written.
    started: bool,
    now: Time,
}

/// One name of a multi-name layout, ready to write.
struct Cell {
    bytes: Vec<u8>,
    width: usize,
    color_at: Option<usize>,
}

/// One name as it will be written: plain text and its coloured form.
struct Name {
    painted: Vec<u8>,
    /// Where in `painted` the colour starts, if it is coloured.
    color_at: Option<usize>,
    width: usize,
}

impl<'a> Printer<'a> {
    /// A printer for options `o`.
    pub fn new(o: &'a Options) -> Printer<'a> {
        Printer {
            o,
            names: NameCache::default(),
            colors: if o.color {
                Some(Colors::from_env())
            } else {
                None
            },
            started: false,
            now: Time::now(),
        }
    }

    /// Write `bytes`; the first colour of the output is preceded by a reset.
    fn put(&mut self, out: &mut Vec<u8>, bytes: &[u8], color_at: Option<usize>) {
        match (color_at, &self.colors) {
            (Some(i), Some(c)) if !self.started => {
                self.started = true;
                out.extend_from_slice(&bytes[..i]);
                out.extend_from_slice(&c.reset());
                out.extend_from_slice(&bytes[i..]);
            }
            _ => out.extend_from_slice(bytes),
        }
    }

    /// A name in the quoting style (for directory headings).
    pub fn heading(&self, name: &[u8]) -> Vec<u8> {
        quote(name, self.o.quoting, self.o.qmark).0
    }

    /// Whether names that need no quotes get a space in front (GNU aligns
    /// them with quoted ones in columns and long listings).
    fn align_quotes(&self, v: &[Entry]) -> bool {
        let o = self.o;
        o.quoting.variable_quotes()
            && (o.format == Format::Long
                || (matches!(o.format, Format::Columns | Format::Across) && o.width != 0))
            && v.iter().any(|e| quote(&e.name, o.quoting, o.qmark).1)
    }

    fn name(&mut self, e: &Entry, align: bool) -> Name {
        let (q, quoted) = quote(&e.name, self.o.quoting, self.o.qmark);
        let mut text = Vec::new();
        if align && !quoted {
            text.push(b' ');
        }
        let lead = text.len();
        text.extend_from_slice(&q);
        let mut painted = text[..lead].to_vec();
        let colored = match self.colors.as_ref() {
            Some(c) => c.paint(&mut painted, e, &q, false),
            None => {
                painted.extend_from_slice(&q);
                false
            }
        };
        let width = width_of(&text);
        Name {
            painted,
            color_at: if colored { Some(lead) } else { None },
            width,
        }
    }

    fn indicator(&self, e: &Entry) -> &'static [u8] {
        if !e.stat_ok && self.o.indicator != Indicator::None {
            return if e.is_dir { b"/" } else { b"" };
        }
        let mut mode = e.st.mode;
        if mode & coreutils_core::meta::S_IFMT == 0 && e.is_dir {
            mode |= S_IFDIR;
        }
        indicator_for(mode, self.o.indicator)
    }

    fn time_text(&mut self, e: &Entry) -> String {
        let t = time_of(e, self.o.time);
        let six_months = 31_556_952 / 2;
        let key = |t: Time| (t.secs, t.nanos);
        if key(t) > key(self.now) {
            self.now = Time::now();
        }
        let recent =
            key(t) > (self.now.secs - six_months, self.now.nanos) && key(t) <= key(self.now);
        let fmt = if recent {
            &self.o.time_recent
        } else {
            &self.o.time_old
        };
        strftime(fmt, t)
    }

    fn blocks_text(&self, e: &Entry) -> String {
        if !e.stat_ok {
            return "?".into();
        }
        self.o.block_scale.show(e.st.blocks * 512)
    }

    /// The `total` line of a directory listing.
    pub fn total(&self, out: &mut Vec<u8>, v: &[Entry]) {
        let sum: u64 = v.iter().map(|e| e.st.blocks).sum();
        out.extend_from_slice(b"total ");
        out.extend_from_slice(self.o.block_scale.show(sum * 512).as_bytes());
        out.push(self.o.eol);
    }

    /// Write `v` in the chosen format.
    pub fn print(&mut self, out: &mut Vec<u8>, v: &[Entry]) {
        self.print_among(out, v, v);
    }

    /// Write `v`, a prefix of `all`, with column widths taken over `all`
    /// (GNU sizes the columns of command-line files over every operand,
    /// directories too).
    pub fn print_among(&mut self, out: &mut Vec<u8>, v: &[Entry], all: &[Entry]) {
        if v.is_empty() {
            return;
        }
        if self.o.format == Format::Long {
            self.long(out, v, all);
            return;
        }
        let o = self.o;
        let align = self.align_quotes(all);
        let commas = o.format == Format::Commas;
        let pad = |s: String, w: usize| {
            if commas {
                format!("{} ", s)
            } else {
                format!("{:>w$} ", s, w = w)
            }
        };
        let inodes: Vec<String> = v.iter().map(inode_text).collect();
        let blocks: Vec<String> = v.iter().map(|e| self.blocks_text(e)).collect();
        let wi = all.iter().map(|e| inode_text(e).len()).max().unwrap_or(0);
        let wb = all
            .iter()
            .map(|e| self.blocks_text(e).len())
            .max()
            .unwrap_or(0);
        let mut cells: Vec<Cell> = Vec::with_capacity(v.len());
        for (k, e) in v.iter().enumerate() {
            let mut prefix = String::new();
            if o.inode {
                prefix.push_str(&pad(inodes[k].clone(), wi));
            }
            if o.print_size {
                prefix.push_str(&pad(blocks[k].clone(), wb));
            }
            if o.context {
                prefix.push_str(&pad("?".into(), 1));
            }
            let n = self.name(e, align);
            let ind = self.indicator(e);
            let mut cell = prefix.clone().into_bytes();
            let color_at = n.color_at.map(|i| i + cell.len());
            cell.extend_from_slice(&n.painted);
            cell.extend_from_slice(ind);
            cells.push(Cell {
                bytes: cell,
                width: prefix.len() + n.width + ind.len(),
                color_at,
            });
        }
        let mut order = Vec::with_capacity(cells.len());
        match o.format {
            Format::OnePerLine => {
                for k in 0..cells.len() {
                    order.push((k, vec![o.eol]));
                }
            }
            Format::Commas => separated(&mut order, &cells, o.width, b',', o.eol),
            // No width limit: one line, names two spaces apart.
            _ if o.width == 0 => separated(&mut order, &cells, 0, b' ', o.eol),
            Format::Across => grid(&mut order, &cells, o, false),
            _ => grid(&mut order, &cells, o, true),
        }
        for (k, after) in order {
            let c = &cells[k];
            self.put(out, &c.bytes, c.color_at);
            out.extend_from_slice(&after);
        }
    }

    fn long(&mut self, out: &mut Vec<u8>, v: &[Entry], all: &[Entry]) {
        let o = self.o;
        let align = self.align_quotes(all);
        let user = |names: &mut NameCache, id: u32, ok: bool| -> (String, bool) {
            if !ok {
                ("?".into(), false)
            } else if o.numeric {
                (id.to_string(), true)
            } else {
                let n = names.user(id);
                let num = n == id.to_string();
                (n, num)
            }
        };
        struct Row {
            cols: Vec<(String, bool)>,
        }
        // Columns: inode, blocks, nlink, owner, group, author, context, size;
        // rows for `all`, of which `v` is a part.
        let mut rows = Vec::with_capacity(all.len());
        for e in all {
            let ok = e.stat_ok;
            let q = |s: String| if ok { s } else { "?".into() };
            let owner = user(&mut self.names, e.st.uid, ok);
            let group = if !ok {
                ("?".into(), false)
            } else if o.numeric {
                (e.st.gid.to_string(), true)
            } else {
                let n = self.names.group(e.st.gid);
                let num = n == e.st.gid.to_string();
                (n, num)
            };
            let size = q(match &o.file_scale {
                Some(s) => s.show(e.st.size),
                None => e.st.size.to_string(),
            });
            rows.push(Row {
                cols: vec![
                    (inode_text(e), true),
                    (self.blocks_text(e), true),
                    (q(e.st.nlink.to_string()), true),
                    owner.clone(),
                    group,
                    owner,
                    ("?".into(), false),
                    (size, true),
                ],
            });
        }
        let widths: Vec<usize> = (0..8)
            .map(|k| rows.iter().map(|r| r.cols[k].0.len()).max().unwrap_or(0))
            .collect();
        let show = [
            o.inode,
            o.print_size,
            true,
            !o.no_owner,
            !o.no_group,
            o.author,
            o.context,
            true,
        ];
        let unknown_time = format!(
            "{:>w$}",
            "?",
            w = strftime(&o.time_old, Time { secs: 0, nanos: 0 }).len()
        );
        let mut line = Vec::new();
        for (e, r) in v.iter().zip(rows.iter()) {
            line.clear();
            for k in 0..8 {
                if !show[k] {
                    continue;
                }
                if k == 2 {
                    // The mode string goes before the link count.
                    line.push(type_char(e.st.mode) as u8);
                    if e.stat_ok {
                        line.extend_from_slice(perm_string(e.st.mode).as_bytes());
                    } else {
                        line.extend_from_slice(b"?????????");
                    }
                    line.push(b' ');
                }
                let (s, right) = &r.cols[k];
                let cell = if *right {
                    format!("{:>w$} ", s, w = widths[k])
                } else {
                    format!("{:<w$} ", s, w = widths[k])
                };
                line.extend_from_slice(cell.as_bytes());
            }
            if e.stat_ok {
                let t = self.time_text(e);
                line.extend_from_slice(t.as_bytes());
            } else {
                line.extend_from_slice(unknown_time.as_bytes());
            }
            line.push(b' ');
            let n = self.name(e, align);
            self.put(out, &line, None);
            line.clear();
            self.put(out, &n.painted, n.color_at);
            match &e.link_target {
                Some(t) => {
                    line.extend_from_slice(b" -> ");
                    let q = quote(t, o.quoting, o.qmark).0;
                    let colored = match self.colors.as_ref() {
                        Some(c) => c.paint(&mut line, e, &q, true),
                        None => {
                            line.extend_from_slice(&q);
                            false
                        }
                    };
                    if colored {
                        self.put(out, &line, Some(4));
                        line.clear();
                    }
                    if let Some(m) = e.target_mode {
                        line.extend_from_slice(indicator_for(m, o.indicator));
                    }
                }
                None => line.extend_from_slice(self.indicator(e)),
            }
            line.push(o.eol);
            out.extend_from_slice(&line);
        }
    }
}

fn inode_text(e: &Entry) -> String {
    if e.stat_ok {
        e.st.ino.to_string()
    } else {
        "?".into()
    }
}

/// The cells in writing order, each with the separator that follows it.
type Order = Vec<(usize, Vec<u8>)>;

/// `-m` (`sep` `,`): names separated by `, `, wrapped before the width.
fn separated(order: &mut Order, cells: &[Cell], width: usize, sep: u8, eol: u8) {
    let mut pos = 0usize;
    for (i, c) in cells.iter().enumerate() {
        let len = if width == 0 { 0 } else { c.width };
        if i != 0 {
            let gap = &mut order[i - 1].1;
            gap.push(sep);
            if width == 0 || pos + len + 2 < width {
                pos += 2;
                gap.push(b' ');
            } else {
                pos = 0;
                gap.push(eol);
            }
        }
        order.push((i, Vec::new()));
        pos += len;
    }
    if let Some(last) = order.last_mut() {
        last.1.push(eol);
    }
}

/// Padding from column `from` to `to`: tabs (every `tab` columns) and spaces.
fn indent(mut from: usize, to: usize, tab: usize) -> Vec<u8> {
    let mut v = Vec::new();
    while from < to {
        if tab != 0 && to / tab > (from + 1) / tab {
            v.push(b'\t');
            from += tab - from % tab;
        } else {
            v.push(b' ');
            from += 1;
        }
    }
    v
}

/// GNU's column fitting: the most columns whose lines stay under the
/// width; `by_columns` fills down (`-C`), else across (`-x`).
fn grid(order: &mut Order, cells: &[Cell], o: &Options, by_columns: bool) {
    let n = cells.len();
    let max_cols = (o.width / 3).max(1).min(n).max(1);
    let mut best: (usize, Vec<usize>) = (1, vec![0]);
    for cols in (1..=max_cols).rev() {
        let rows = (n + cols - 1) / cols;
        let mut widths = vec![0usize; cols];
        let mut line = 0usize;
        let mut fits = true;
        for (f, c) in cells.iter().enumerate() {
            let idx = if by_columns { f / rows } else { f % cols };
            let real = c.width + if idx == cols - 1 { 0 } else { 2 };
            if widths[idx] < real {
                line += real - widths[idx];
                widths[idx] = real;
                if line >= o.width {
                    fits = false;
                    break;
                }
            }
        }
        if fits || cols == 1 {
            best = (cols, widths);
            break;
        }
    }
    let (cols, widths) = best;
    // Tabs cannot be mixed with colours.
    let tab = if o.color { 0 } else { o.tabsize };
    let eol = o.eol;
    if by_columns {
        let rows = (n + cols - 1) / cols;
        for r in 0..rows {
            let mut col = 0;
            let mut f = r;
            let mut pos = 0;
            loop {
                let len = cells[f].width;
                let at = f;
                f += rows;
                if f >= n {
                    order.push((at, vec![eol]));
                    break;
                }
                order.push((at, indent(pos + len, pos + widths[col], tab)));
                pos += widths[col];
                col += 1;
            }
        }
    } else {
        let mut pos = 0;
        for (f, c) in cells.iter().enumerate() {
            let col = f % cols;
            if f + 1 == n || (f + 1) % cols == 0 {
                order.push((f, vec![eol]));
                pos = 0;
            } else {
                order.push((f, indent(pos + c.width, pos + widths[col], tab)));
                pos += widths[col];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::ls::options::parse;

    fn opts(width: &str) -> Options {
        let args: Vec<std::ffi::OsString> = ["ls", "-C", "-w", width]
            .iter()
            .map(std::ffi::OsString::from)
            .collect();
        parse(&args).expect("options").0
    }

    fn layout(names: &[&str], width: &str) -> String {
        let cells: Vec<Cell> = names
            .iter()
            .map(|s| Cell {
                bytes: s.as_bytes().to_vec(),
                width: s.len(),
                color_at: None,
            })
            .collect();
        let mut order = Vec::new();
        grid(&mut order, &cells, &opts(width), true);
        let mut b = Vec::new();
        for (k, after) in order {
            b.extend_from_slice(&cells[k].bytes);
            b.extend_from_slice(&after);
        }
        String::from_utf8(b).unwrap_or_default()
    }

    #[test]
    fn column_layout() {
        assert_eq!(layout(&["a", "bb", "ccc", "d"], "80"), "a  bb  ccc  d\n");
        assert_eq!(layout(&["abcdefghij", "b"], "80"), "abcdefghij  b\n");
        assert_eq!(layout(&["a", "bb", "ccc", "d"], "8"), "a   ccc\nbb  d\n");
    }

    #[test]
    fn indicators() {
        assert_eq!(indicator_for(S_IFDIR | 0o755, Indicator::Slash), b"/");
        assert_eq!(indicator_for(S_IFREG | 0o755, Indicator::Classify), b"*");
        assert_eq!(indicator_for(S_IFREG | 0o755, Indicator::FileType), b"");
        assert_eq!(indicator_for(S_IFLNK | 0o777, Indicator::FileType), b"@");
        assert_eq!(indicator_for(S_IFLNK | 0o777, Indicator::Slash), b"");
    }
}
