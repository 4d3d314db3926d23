//! `column`: util-linux column — fill columns (default, `-x` rows first,
//! `-c` width) or a table (`-t`, `-s` separators, `-o` output separator).

use std::ffi::OsString;

use crate::common::bytes::{disp, os_bytes, records};
use crate::common::input::{err_text, finish, put, read_all, stdout};
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};

const USAGE: Usage = Usage::new("column", "[options] [<file>...]\nColumnate lists.\n", 1);

const SPEC: &[OptSpec<&str>] = &[
    opt("t", Some('t'), Some("table"), HasArg::No),
    opt("s", Some('s'), Some("separator"), HasArg::Required),
    opt("o", Some('o'), Some("output-separator"), HasArg::Required),
    opt("c", Some('c'), Some("output-width"), HasArg::Required),
    opt("x", Some('x'), Some("fillrows"), HasArg::No),
    opt("R", Some('R'), Some("table-right"), HasArg::Required),
    opt("N", Some('N'), Some("table-columns"), HasArg::Required),
    opt("L", Some('L'), Some("keep-empty-lines"), HasArg::No),
];

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let width = match p.last_str("c") {
        Some(s) => match s.parse::<usize>() {
            Ok(n) => n,
            Err(_) => return USAGE.die(1, &format!("invalid columns argument: '{}'", s)),
        },
        None => std::env::var("COLUMNS")
            .ok()
            .and_then(|v| v.parse().ok())
            .filter(|&n: &usize| n > 0)
            .unwrap_or(80),
    };
    let files = if p.operands.is_empty() {
        vec![OsString::from("-")]
    } else {
        p.operands.clone()
    };
    let mut data = Vec::new();
    for f in &files {
        match read_all(f) {
            Ok(mut d) => {
                if !d.is_empty() && d.last() != Some(&b'\n') {
                    d.push(b'\n');
                }
                data.append(&mut d)
            }
            Err(e) => return USAGE.die(1, &format!("{}: {}", disp(f), err_text(&e))),
        }
    }
    let keep_empty = p.has("L");
    let lines: Vec<&[u8]> = records(&data, b'\n')
        .filter(|l| keep_empty || !l.is_empty())
        .collect();
    let mut out = stdout();
    if p.has("t") {
        let seps: Vec<u8> = p
            .last("s")
            .map(|s| os_bytes(s).to_vec())
            .unwrap_or_else(|| b" \t".to_vec());
        let osep: Vec<u8> = p
            .last("o")
            .map(|s| os_bytes(s).to_vec())
            .unwrap_or_else(|| b"  ".to_vec());
        let custom = p.has("s");
        let mut rows: Vec<Vec<&[u8]>> = Vec::new();
        if let Some(names) = p.last_str("N") {
            let _ = names;
        }
        for l in &lines {
            let cells: Vec<&[u8]> = if custom {
                l.split(|c| seps.contains(c)).collect()
            } else {
                l.split(|c| seps.contains(c))
                    .filter(|c| !c.is_empty())
                    .collect()
            };
            rows.push(cells);
        }
        let ncols = rows.iter().map(|r| r.len()).max().unwrap_or(0);
        let mut widths = vec![0usize; ncols];
        for r in &rows {
            for (i, c) in r.iter().enumerate() {
                widths[i] = widths[i].max(unicode_width::UnicodeWidthStr::width(
                    String::from_utf8_lossy(c).as_ref(),
                ));
            }
        }
        for r in &rows {
            let mut line = Vec::new();
            // Short rows count as having empty trailing cells, so every
            // cell before the last column is padded (util-linux does this).
            for (i, width) in widths.iter().enumerate() {
                let c: &[u8] = r.get(i).copied().unwrap_or(b"");
                line.extend_from_slice(c);
                if i + 1 < ncols {
                    let w =
                        unicode_width::UnicodeWidthStr::width(String::from_utf8_lossy(c).as_ref());
                    line.extend(std::iter::repeat(b' ').take(width - w));
                    line.extend_from_slice(&osep);
                }
            }
            line.push(b'\n');
            put(&mut out, &line);
        }
        return finish(&mut out, "column", 0);
    }
    if lines.is_empty() {
        return finish(&mut out, "column", 0);
    }
    let wid = |l: &[u8]| unicode_width::UnicodeWidthStr::width(String::from_utf8_lossy(l).as_ref());
    let maxlen = lines.iter().map(|l| wid(l)).max().unwrap_or(0);
    let maxlength = (maxlen + 8) & !7;
    let numcols = (width / maxlength).max(1);
    let n = lines.len();
    let mut o = Vec::new();
    if p.has("x") {
        let mut chcnt = 0;
        let mut col = 0;
        let mut endcol = maxlength;
        for (k, l) in lines.iter().enumerate() {
            o.extend_from_slice(l);
            chcnt += wid(l);
            if k + 1 == n {
                break;
            }
            col += 1;
            if col == numcols {
                chcnt = 0;
                col = 0;
                endcol = maxlength;
                o.push(b'\n');
            } else {
                loop {
                    let t = (chcnt + 8) & !7;
                    if t > endcol {
                        break;
                    }
                    o.push(b'\t');
                    chcnt = t;
                }
                endcol += maxlength;
            }
        }
        o.push(b'\n');
    } else {
        let numrows = (n + numcols - 1) / numcols;
        for row in 0..numrows {
            let mut endcol = maxlength;
            let mut chcnt = 0;
            let mut base = row;
            for _ in 0..numcols {
                o.extend_from_slice(lines[base]);
                chcnt += wid(lines[base]);
                base += numrows;
                if base >= n {
                    break;
                }
                loop {
                    let t = (chcnt + 8) & !7;
                    if t > endcol {
                        break;
                    }
                    o.push(b'\t');
                    chcnt = t;
                }
                endcol += maxlength;
            }
            o.push(b'\n');
        }
    }
    put(&mut out, &o);
    finish(&mut out, "column", 0)
}
