//! `fmt`: fill and join paragraphs, choosing line breaks the way GNU fmt
//! does (cost-minimising around a goal width of 93% of `-w`, sentence and
//! punctuation bonuses); `-u`, `-s`, `-p PREFIX`, `-g GOAL`.

use std::ffi::OsString;

use crate::common::bytes::{os_bytes, records};
use crate::common::input::{err_text, finish, put, read_all, stdout};
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};

const USAGE: Usage = Usage::new("fmt", "[-WIDTH] [OPTION]... [FILE]...\nReformat each paragraph in the FILE(s), writing to standard output.\n", 1);

const SPEC: &[OptSpec<&str>] = &[
    opt("c", Some('c'), Some("crown-margin"), HasArg::No),
    opt("p", Some('p'), Some("prefix"), HasArg::Required),
    opt("s", Some('s'), Some("split-only"), HasArg::No),
    opt("t", Some('t'), Some("tagged-paragraph"), HasArg::No),
    opt("u", Some('u'), Some("uniform-spacing"), HasArg::No),
    opt("w", Some('w'), Some("width"), HasArg::Required),
    opt("g", Some('g'), Some("goal"), HasArg::Required),
];

type Cost = i64;
const fn equiv(n: i64) -> Cost {
    n * n
}
fn short_cost(n: i64) -> Cost {
    equiv(n * 10)
}
fn ragged_cost(n: i64) -> Cost {
    short_cost(n) / 2
}
const LINE_COST: Cost = equiv(70);
const SENTENCE_BONUS: Cost = equiv(50);
const NOBREAK_COST: Cost = equiv(600);
const PAREN_BONUS: Cost = equiv(40);
const PUNCT_BONUS: Cost = equiv(40);
fn widow_cost(n: i64) -> Cost {
    equiv(200) / (n + 2)
}
fn orphan_cost(n: i64) -> Cost {
    equiv(150) / (n + 2)
}

#[derive(Clone, Debug, Default)]
struct Word {
    text: Vec<u8>,
    space: i64,
    paren: bool,
    period: bool,
    punct: bool,
    final_: bool,
    best_cost: Cost,
    next_break: usize,
    line_length: i64,
}

struct Cfg {
    width: i64,
    goal: i64,
    uniform: bool,
    split: bool,
    crown: bool,
    tagged: bool,
    prefix: Vec<u8>,
}

fn indent_of(line: &[u8]) -> (usize, usize) {
    // (columns, bytes) of leading blanks.
    let mut col = 0;
    let mut i = 0;
    while i < line.len() && (line[i] == b' ' || line[i] == b'\t') {
        col = if line[i] == b'\t' {
            col + 8 - col % 8
        } else {
            col + 1
        };
        i += 1;
    }
    (col, i)
}

fn split_words(line: &[u8], uniform: bool, words: &mut Vec<Word>) {
    let mut i = indent_of(line).1;
    while i < line.len() {
        let st = i;
        while i < line.len() && !(line[i] == b' ' || line[i] == b'\t') {
            i += 1;
        }
        let text = line[st..i].to_vec();
        let ws = i;
        let mut col_sp = 0;
        while i < line.len() && (line[i] == b' ' || line[i] == b'\t') {
            col_sp += 1;
            i += 1;
        }
        let at_eol = i >= line.len();
        let mut e = text.len();
        while e > 0 && b")]'\"".contains(&text[e - 1]) {
            e -= 1;
        }
        let period = e > 0 && b".?!".contains(&text[e - 1]);
        let punct = text.last().map_or(false, |c| c.is_ascii_punctuation());
        let paren = text.first().map_or(false, |c| b"([`'\"".contains(c));
        let final_ = period && (at_eol || col_sp > 1);
        let space = if uniform || at_eol {
            if final_ {
                2
            } else {
                1
            }
        } else {
            (i - ws) as i64
        };
        words.push(Word {
            text,
            space,
            paren,
            period,
            punct,
            final_,
            ..Default::default()
        });
    }
}

fn base_cost(w: &[Word], t: usize) -> Cost {
    let mut cost = LINE_COST;
    if t > 0 {
        let p = &w[t - 1];
        if p.period {
            if p.final_ {
                cost -= SENTENCE_BONUS;
            } else {
                cost += NOBREAK_COST;
            }
        } else if p.punct {
            cost -= PUNCT_BONUS;
        } else if t > 1 && w[t - 2].final_ {
            cost += widow_cost(p.text.len() as i64);
        }
    }
    if w[t].paren {
        cost -= PAREN_BONUS;
    } else if w[t].final_ {
        cost += orphan_cost(w[t].text.len() as i64);
    }
    cost
}

/// Choose breaks for `w` (GNU's `fmt_paragraph`); returns line starts.
fn breaks(w: &mut Vec<Word>, first_indent: i64, other_indent: i64, c: &Cfg) -> Vec<usize> {
    let limit = w.len();
    w.push(Word {
        best_cost: 0,
        ..Default::default()
    });
    let sentinel_len = c.width;
    let len_of = |w: &Vec<Word>, k: usize| {
        if k == limit {
            sentinel_len
        } else {
            w[k].text.len() as i64
        }
    };
    for start in (0..limit).rev() {
        let mut best = Cost::MAX;
        let mut len = if start == 0 {
            first_indent
        } else {
            other_indent
        };
        let mut k = start;
        len += len_of(w, k);
        loop {
            k += 1;
            let lc = if k == limit {
                0
            } else {
                let n = c.goal - len;
                let mut cost = short_cost(n);
                if w[k].next_break != limit {
                    cost += ragged_cost(len - w[k].line_length);
                }
                cost
            };
            let wcost = lc.saturating_add(w[k].best_cost);
            if wcost < best {
                best = wcost;
                w[start].next_break = k;
                w[start].line_length = len;
            }
            if k == limit {
                break;
            }
            len += w[k - 1].space + len_of(w, k);
            if len >= c.width {
                break;
            }
        }
        w[start].best_cost = best.saturating_add(base_cost(w, start));
    }
    let mut v = Vec::new();
    let mut s = 0;
    while s < limit {
        v.push(s);
        s = w[s].next_break;
    }
    w.pop();
    v
}

fn emit(
    out: &mut Vec<u8>,
    c: &Cfg,
    words: &mut Vec<Word>,
    first_ind: &[u8],
    other_ind: &[u8],
    first_col: i64,
    other_col: i64,
) {
    if words.is_empty() {
        return;
    }
    let starts = breaks(words, first_col, other_col, c);
    for (li, &s) in starts.iter().enumerate() {
        let e = starts.get(li + 1).copied().unwrap_or(words.len());
        out.extend_from_slice(&c.prefix);
        out.extend_from_slice(if li == 0 { first_ind } else { other_ind });
        for (k, w) in words.iter().enumerate().take(e).skip(s) {
            out.extend_from_slice(&w.text);
            if k + 1 < e {
                out.extend(std::iter::repeat(b' ').take(w.space as usize));
            }
        }
        out.push(b'\n');
    }
}

/// Entry point.
pub fn uumain(mut args: Vec<OsString>) -> i32 {
    for a in args.iter_mut().skip(1) {
        let s = a.to_string_lossy().into_owned();
        if s.len() > 1 && s.starts_with('-') && s[1..].bytes().all(|c| c.is_ascii_digit()) {
            *a = OsString::from(format!("-w{}", &s[1..]));
        }
    }
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let width = match p.last_str("w") {
        Some(s) => match s.parse::<i64>() {
            Ok(n) if (0..=2500).contains(&n) => n,
            _ => return USAGE.die(1, &format!("invalid width: '{}'", s)),
        },
        None => 75,
    };
    let goal = match p.last_str("g") {
        Some(s) => match s.parse::<i64>() {
            Ok(n) if n <= width => n,
            _ => return USAGE.die(1, &format!("invalid width: '{}'", s)),
        },
        None => width * (2 * (100 - 7) + 1) / 200,
    };
    let c = Cfg {
        width,
        goal,
        uniform: p.has("u"),
        split: p.has("s"),
        crown: p.has("c"),
        tagged: p.has("t"),
        prefix: p
            .last("p")
            .map(|s| os_bytes(s).to_vec())
            .unwrap_or_default(),
    };
    let files = if p.operands.is_empty() {
        vec![OsString::from("-")]
    } else {
        p.operands
    };
    let mut out = stdout();
    let mut status = 0;
    for f in &files {
        let data = match read_all(f) {
            Ok(d) => d,
            Err(e) => {
                eprintln!(
                    "{}: cannot open {} for reading: {}",
                    coreutils_core::prog("fmt"),
                    crate::common::bytes::q(f),
                    err_text(&e)
                );
                status = 1;
                continue;
            }
        };
        let mut o = Vec::with_capacity(data.len() + 64);
        let lines: Vec<&[u8]> = records(&data, b'\n').collect();
        let mut i = 0;
        while i < lines.len() {
            let line = lines[i];
            let body = line.strip_prefix(&c.prefix[..]).unwrap_or(line);
            if !line.starts_with(&c.prefix) || body.iter().all(|&b| b == b' ' || b == b'\t') {
                o.extend_from_slice(line);
                o.push(b'\n');
                i += 1;
                continue;
            }
            let (fcol, fbytes) = indent_of(body);
            let first_ind = body[..fbytes].to_vec();
            let mut words = Vec::new();
            split_words(body, c.uniform, &mut words);
            i += 1;
            let mut other_ind = first_ind.clone();
            let mut ocol = fcol;
            if !c.split {
                let same = |l: &[u8]| {
                    l.starts_with(&c.prefix)
                        && !l[c.prefix.len()..].iter().all(|&b| b == b' ' || b == b'\t')
                };
                if (c.crown || c.tagged) && i < lines.len() && same(lines[i]) {
                    let b2 = &lines[i][c.prefix.len()..];
                    let (col2, by2) = indent_of(b2);
                    if !c.tagged || col2 != fcol {
                        other_ind = b2[..by2].to_vec();
                        ocol = col2;
                        split_words(b2, c.uniform, &mut words);
                        i += 1;
                    }
                }
                while i < lines.len() && same(lines[i]) {
                    let b2 = &lines[i][c.prefix.len()..];
                    let (col2, _) = indent_of(b2);
                    if col2 != ocol {
                        break;
                    }
                    split_words(b2, c.uniform, &mut words);
                    i += 1;
                }
            }
            emit(
                &mut o,
                &c,
                &mut words,
                &first_ind,
                &other_ind,
                fcol as i64,
                ocol as i64,
            );
        }
        put(&mut out, &o);
    }
    finish(&mut out, "fmt", status)
}
