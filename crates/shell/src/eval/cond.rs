//! `[[ ]]` evaluation and the file/string/integer tests it shares with `test`.

use super::pattern::{pat_match, MatchMode};
use super::{Ctl, Shell, R};
use crate::ast::*;
use crate::fsx::{self, Kind};
use std::fmt::Write;

impl Shell {
    /// Status of a `[[ ]]` expression: 0 true, 1 false, 2 error.
    pub fn eval_cond(&mut self, e: &CondExpr) -> R<i32> {
        Ok(match self.cond_bool(e)? {
            Some(true) => 0,
            Some(false) => 1,
            None => 2,
        })
    }

    fn cond_bool(&mut self, e: &CondExpr) -> R<Option<bool>> {
        Ok(match e {
            CondExpr::Not(x) => self.cond_bool(x)?.map(|b| !b),
            CondExpr::Group(x) => self.cond_bool(x)?,
            CondExpr::And(a, b) => match self.cond_bool(a)? {
                Some(true) => self.cond_bool(b)?,
                other => other,
            },
            CondExpr::Or(a, b) => match self.cond_bool(a)? {
                Some(false) => self.cond_bool(b)?,
                other => other,
            },
            CondExpr::Word(w) => {
                let v = self.expand_single(w)?;
                self.trace_cond(&[b"-n", &v]);
                Some(!v.is_empty())
            }
            CondExpr::Unary(op, w) => {
                let v = self.expand_single(w)?;
                self.trace_cond(&[op, &v]);
                Some(self.unary_test(op, &v))
            }
            CondExpr::Binary(op, a, b) => {
                let l = self.expand_single(a)?;
                if self.opts.xtrace {
                    let r = self.expand_single(b)?;
                    self.trace_cond(&[&l, op, &r]);
                }
                match op.as_slice() {
                    b"==" | b"=" | b"!=" => {
                        let pat = self.expand_pattern(b)?;
                        let mode = MatchMode {
                            nocase: self.opts.nocasematch,
                            extglob: true,
                            dotglob: true,
                        };
                        let m = pat_match(&pat, &l, mode);
                        Some(if op == b"!=" { !m } else { m })
                    }
                    b"=~" => return self.regex_match(&l, b),
                    _ => {
                        let r = self.expand_single(b)?;
                        match self.binary_test(op, &l, &r, true) {
                            Ok(b) => Some(b),
                            // An arithmetic error (already reported) makes the test false.
                            Err(m) if m.is_empty() => Some(false),
                            Err(m) => {
                                self.err(&m);
                                return Err(Ctl::Abort(1));
                            }
                        }
                    }
                }
            }
        })
    }

    /// set -x: one `[[ ]]` test as bash shows it, operands expanded.
    fn trace_cond(&mut self, terms: &[&[u8]]) {
        if !self.opts.xtrace {
            return;
        }
        let mut body = b"[[".to_vec();
        for t in terms {
            body.push(b' ');
            body.extend_from_slice(&crate::builtins::quote_x(t));
        }
        body.extend_from_slice(b" ]]");
        self.trace_line(&body);
    }

    fn regex_match(&mut self, s: &[u8], w: &Word) -> R<Option<bool>> {
        // quoted parts match literally
        let mut re = Vec::new();
        for p in &w.parts {
            match p {
                WordPart::Lit(t) => re.extend_from_slice(t),
                WordPart::Quoted(t) => escape_regex(t, &mut re),
                WordPart::Double(_) => {
                    let t = self.expand_single(&Word {
                        raw: None,
                        parts: vec![p.clone()],
                    })?;
                    escape_regex(&t, &mut re);
                }
                other => {
                    let t = self.expand_single(&Word {
                        raw: None,
                        parts: vec![other.clone()],
                    })?;
                    re.extend_from_slice(&t);
                }
            }
        }
        let mut pat = String::from("(?-u)");
        if self.opts.nocasematch {
            pat.push_str("(?i)");
        }
        // bytes → regex source: keep ASCII, escape others as \xNN
        for &c in &re {
            if c < 0x80 {
                pat.push(c as char);
            } else {
                let _ = write!(pat, "\\x{:02x}", c);
            }
        }
        let pat = posix_classes(&pat);
        let rx = match regex::bytes::Regex::new(&pat) {
            Ok(r) => r,
            Err(_) => return Ok(None),
        };
        match rx.captures(s) {
            Some(caps) => {
                let vals: Vec<Bytes> = (0..caps.len())
                    .map(|i| {
                        caps.get(i)
                            .map(|m| m.as_bytes().to_vec())
                            .unwrap_or_default()
                    })
                    .collect();
                self.set_array(b"BASH_REMATCH", vals);
                Ok(Some(true))
            }
            None => {
                self.set_array(b"BASH_REMATCH", Vec::new());
                Ok(Some(false))
            }
        }
    }

    pub fn unary_test(&mut self, op: &[u8], v: &[u8]) -> bool {
        match op {
            b"-n" => !v.is_empty(),
            b"-z" => v.is_empty(),
            b"-v" => {
                if let Some(open) = v.iter().position(|c| *c == b'[') {
                    let name = &v[..open];
                    let idx = &v[open + 1..v.len().saturating_sub(1)];
                    let i = crate::bytes::parse_i64(idx).unwrap_or(0);
                    match self.vars.get(name).and_then(|x| x.value.as_ref()) {
                        Some(crate::state::Value::Assoc(m)) => m.contains_key(idx),
                        Some(_) => self.array_get(name, i).is_some(),
                        None => false,
                    }
                } else if !v.is_empty() && v.iter().all(u8::is_ascii_digit) {
                    // a positional parameter
                    crate::bytes::parse_i64(v)
                        .map_or(false, |n| n as usize <= self.positional.len())
                } else {
                    self.var_is_set(v)
                }
            }
            b"-R" => self.vars.get_raw(v).map_or(false, |x| {
                x.attrs & crate::state::A_NAMEREF != 0 && x.value.is_some()
            }),
            b"-o" => std::str::from_utf8(v)
                .ok()
                .and_then(|n| self.opts.get(n).map(|b| *b))
                .unwrap_or(false),
            b"-t" => crate::bytes::parse_i64(v)
                .map(|fd| self.sys.isatty(fd as i32))
                .unwrap_or(false),
            b"-e" | b"-a" => fsx::stat(v).is_some(),
            b"-f" => fsx::stat(v).map(|m| m.is_file()).unwrap_or(false),
            b"-d" => fsx::stat(v).map(|m| m.is_dir()).unwrap_or(false),
            b"-h" | b"-L" => fsx::lstat(v)
                .map(|m| m.kind == Kind::Symlink)
                .unwrap_or(false),
            b"-s" => fsx::stat(v).map(|m| m.size > 0).unwrap_or(false),
            b"-r" => fsx::access(v, 4),
            b"-w" => fsx::access(v, 2),
            b"-x" => match fsx::stat(v) {
                Some(m) if m.is_dir() => true,
                Some(_) => self.sys.executable(v),
                None => false,
            },
            b"-p" => file_type_is(v, Kind::Fifo),
            b"-S" => file_type_is(v, Kind::Socket),
            b"-b" => file_type_is(v, Kind::Block),
            b"-c" => file_type_is(v, Kind::Char),
            // bash: modified since last read means a newer mtime than atime.
            b"-N" => fsx::stat(v).map_or(false, |m| m.mtime_ns > m.atime_ns),
            b"-g" | b"-u" | b"-k" | b"-G" | b"-O" => match fsx::owner(v) {
                Some(o) => match op {
                    b"-u" => o.mode & 0o4000 != 0,
                    b"-g" => o.mode & 0o2000 != 0,
                    b"-k" => o.mode & 0o1000 != 0,
                    b"-O" => o.uid == fsx::effective_ids().0,
                    _ => o.gid == fsx::effective_ids().1,
                },
                None => false,
            },
            _ => false,
        }
    }

    /// Binary test. `arith_expr`: `[[ ]]` evaluates integer operands as expressions.
    pub fn binary_test(
        &mut self,
        op: &[u8],
        l: &[u8],
        r: &[u8],
        arith_expr: bool,
    ) -> Result<bool, Bytes> {
        match op {
            b"=" | b"==" => Ok(l == r),
            b"!=" => Ok(l != r),
            b"<" => Ok(l < r),
            b">" => Ok(l > r),
            b"-eq" | b"-ne" | b"-lt" | b"-le" | b"-gt" | b"-ge" => {
                let a = self.test_int(l, arith_expr)?;
                let b = self.test_int(r, arith_expr)?;
                Ok(match op {
                    b"-eq" => a == b,
                    b"-ne" => a != b,
                    b"-lt" => a < b,
                    b"-le" => a <= b,
                    b"-gt" => a > b,
                    _ => a >= b,
                })
            }
            b"-nt" | b"-ot" => {
                let m = |p: &[u8]| fsx::stat(p).map(|m| m.mtime_ns);
                let (a, b) = (m(l), m(r));
                Ok(match op {
                    b"-nt" => match (a, b) {
                        (Some(a), Some(b)) => a > b,
                        (Some(_), None) => true,
                        _ => false,
                    },
                    _ => match (a, b) {
                        (Some(a), Some(b)) => a < b,
                        (None, Some(_)) => true,
                        _ => false,
                    },
                })
            }
            // Same device and inode, after following symlinks (so hard links count too).
            b"-ef" => Ok(match (fsx::stat(l), fsx::stat(r)) {
                (Some(a), Some(b)) => a.dev == b.dev && a.ino == b.ino,
                _ => false,
            }),
            _ => Err(Vec::new()),
        }
    }

    fn test_int(&mut self, s: &[u8], arith_expr: bool) -> Result<i64, Bytes> {
        if arith_expr {
            let outer = self.arith_ctx.replace("[[");
            let r = self.eval_arith_text(s).map_err(|_| Vec::new());
            self.arith_ctx = outer;
            return r;
        }
        let t = std::str::from_utf8(s).map(|t| t.trim()).unwrap_or("");
        match t.parse::<i64>() {
            Ok(n) => Ok(n),
            Err(_) => {
                let mut m = s.to_vec();
                m.extend_from_slice(b": integer expression expected");
                Err(m)
            }
        }
    }
}

fn file_type_is(p: &[u8], kind: Kind) -> bool {
    match fsx::stat(p) {
        Some(m) if m.kind == kind => true,
        // The sandbox's devices may report no type of their own.
        Some(m) => kind == Kind::Char && m.kind == Kind::Other && p.starts_with(b"/dev/"),
        None => false,
    }
}

fn escape_regex(t: &[u8], out: &mut Bytes) {
    for &c in t {
        if b"\\.+*?()|[]{}^$#&-~ ".contains(&c) && c != b' ' {
            out.push(b'\\');
        }
        out.push(c);
    }
}

/// POSIX bracket classes are supported by the regex crate; nothing to rewrite
/// except `[[:<:]]`-style word boundaries, which bash does not support either.
fn posix_classes(p: &str) -> String {
    p.to_string()
}
