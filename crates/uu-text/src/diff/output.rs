//! Rendering hunks in diff's normal, unified and context formats.

use super::analyze::Hunk;

/// One side of the comparison as lines (without their newlines).
pub struct Side<'a> {
    /// The lines.
    pub lines: Vec<&'a [u8]>,
    /// Whether the last line lacks a trailing newline.
    pub missing_nl: bool,
}

impl<'a> Side<'a> {
    /// Split file contents into lines.
    pub fn new(data: &'a [u8]) -> Side<'a> {
        let mut lines: Vec<&[u8]> = data.split(|&c| c == b'\n').collect();
        let missing_nl = !data.is_empty() && data.last() != Some(&b'\n');
        if !missing_nl {
            lines.pop();
        }
        Side { lines, missing_nl }
    }
}

fn push_line(o: &mut Vec<u8>, prefix: &[u8], s: &Side, i: usize) {
    o.extend_from_slice(prefix);
    o.extend_from_slice(s.lines[i]);
    o.push(b'\n');
    if s.missing_nl && i + 1 == s.lines.len() {
        o.extend_from_slice(b"\\ No newline at end of file\n");
    }
}

fn range_normal(a: usize, b: usize) -> String {
    // 1-based inclusive; an empty range names the line before it.
    if b <= a + 1 {
        if b == a {
            a.to_string()
        } else {
            b.to_string()
        }
    } else {
        format!("{},{}", a + 1, b)
    }
}

/// Normal format (`3c3`, `< old`, `---`, `> new`).
pub fn normal(o: &mut Vec<u8>, a: &Side, b: &Side, hunks: &[Hunk]) {
    for h in hunks {
        let op = if h.a0 == h.a1 {
            'a'
        } else if h.b0 == h.b1 {
            'd'
        } else {
            'c'
        };
        o.extend_from_slice(
            format!(
                "{}{}{}\n",
                range_normal(h.a0, h.a1),
                op,
                range_normal(h.b0, h.b1)
            )
            .as_bytes(),
        );
        for i in h.a0..h.a1 {
            push_line(o, b"< ", a, i);
        }
        if op == 'c' {
            o.extend_from_slice(b"---\n");
        }
        for i in h.b0..h.b1 {
            push_line(o, b"> ", b, i);
        }
    }
}

/// Group hunks whose context would touch or overlap.
fn groups(hunks: &[Hunk], ctx: usize) -> Vec<Vec<Hunk>> {
    let mut out: Vec<Vec<Hunk>> = Vec::new();
    for h in hunks {
        match out.last_mut() {
            Some(g) if h.a0 <= g[g.len() - 1].a1 + 2 * ctx => g.push(*h),
            _ => out.push(vec![*h]),
        }
    }
    out
}

fn range_unified(start: usize, len: usize) -> String {
    match len {
        0 => format!("{},0", start),
        1 => format!("{}", start + 1),
        _ => format!("{},{}", start + 1, len),
    }
}

/// Unified format hunks (headers written by the caller).
pub fn unified(o: &mut Vec<u8>, a: &Side, b: &Side, hunks: &[Hunk], ctx: usize) {
    for g in groups(hunks, ctx) {
        let first = g[0];
        let last = g[g.len() - 1];
        let a0 = first.a0.saturating_sub(ctx);
        let b0 = first.b0.saturating_sub(ctx);
        let a1 = (last.a1 + ctx).min(a.lines.len());
        let b1 = (last.b1 + ctx).min(b.lines.len());
        o.extend_from_slice(
            format!(
                "@@ -{} +{} @@\n",
                range_unified(a0, a1 - a0),
                range_unified(b0, b1 - b0)
            )
            .as_bytes(),
        );
        let mut i = a0;
        for h in &g {
            while i < h.a0 {
                push_line(o, b" ", a, i);
                i += 1;
            }
            for k in h.a0..h.a1 {
                push_line(o, b"-", a, k);
            }
            for k in h.b0..h.b1 {
                push_line(o, b"+", b, k);
            }
            i = h.a1;
        }
        while i < a1 {
            push_line(o, b" ", a, i);
            i += 1;
        }
    }
}

fn range_context(start: usize, end: usize) -> String {
    if end == start {
        format!("{}", start)
    } else if end == start + 1 {
        format!("{}", end)
    } else {
        format!("{},{}", start + 1, end)
    }
}

/// Context format hunks (headers written by the caller).
pub fn context(o: &mut Vec<u8>, a: &Side, b: &Side, hunks: &[Hunk], ctx: usize) {
    for g in groups(hunks, ctx) {
        let first = g[0];
        let last = g[g.len() - 1];
        let a0 = first.a0.saturating_sub(ctx);
        let b0 = first.b0.saturating_sub(ctx);
        let a1 = (last.a1 + ctx).min(a.lines.len());
        let b1 = (last.b1 + ctx).min(b.lines.len());
        o.extend_from_slice(b"***************\n");
        o.extend_from_slice(format!("*** {} ****\n", range_context(a0, a1)).as_bytes());
        if g.iter().any(|h| h.a1 > h.a0) {
            let mut i = a0;
            for h in &g {
                while i < h.a0 {
                    push_line(o, b"  ", a, i);
                    i += 1;
                }
                let mark: &[u8] = if h.b1 > h.b0 { b"! " } else { b"- " };
                for k in h.a0..h.a1 {
                    push_line(o, mark, a, k);
                }
                i = h.a1;
            }
            while i < a1 {
                push_line(o, b"  ", a, i);
                i += 1;
            }
        }
        o.extend_from_slice(format!("--- {} ----\n", range_context(b0, b1)).as_bytes());
        if g.iter().any(|h| h.b1 > h.b0) {
            let mut i = b0;
            for h in &g {
                while i < h.b0 {
                    push_line(o, b"  ", b, i);
                    i += 1;
                }
                let mark: &[u8] = if h.a1 > h.a0 { b"! " } else { b"+ " };
                for k in h.b0..h.b1 {
                    push_line(o, mark, b, k);
                }
                i = h.b1;
            }
            while i < b1 {
                push_line(o, b"  ", b, i);
                i += 1;
            }
        }
    }
}
