//! expr: evaluate an expression given as separate arguments (GNU
//! semantics: `| & < <= = == != >= > + - * / % :`, `match substr index
//! length`, `+ TOKEN` quoting; statuses 0 non-null, 1 null/zero, 2
//! invalid expression, 3 other error).

use coreutils_core::bytes::{os_bytes, path_bytes};
use regex::bytes::Regex;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::Write;

#[derive(Clone, Debug, PartialEq)]
enum Val {
    Int(i128),
    Str(Vec<u8>),
}

impl Val {
    fn bytes(&self) -> Vec<u8> {
        match self {
            Val::Int(n) => n.to_string().into_bytes(),
            Val::Str(s) => s.clone(),
        }
    }

    fn int(&self) -> Option<i128> {
        match self {
            Val::Int(n) => Some(*n),
            Val::Str(s) => parse_int(s),
        }
    }

    /// Null: empty string or a zero number.
    fn null(&self) -> bool {
        match self {
            Val::Int(n) => *n == 0,
            Val::Str(s) => s.is_empty() || parse_int(s) == Some(0),
        }
    }
}

fn parse_int(s: &[u8]) -> Option<i128> {
    let body = s.strip_prefix(b"-").unwrap_or(s);
    if body.is_empty() || !body.iter().all(|c| c.is_ascii_digit()) {
        return None;
    }
    std::str::from_utf8(s).ok()?.parse().ok()
}

/// An error and its exit status.
struct Fail(i32, String);

struct P<'a> {
    a: &'a [Vec<u8>],
    i: usize,
}

fn syntax(m: String) -> Fail {
    Fail(2, format!("syntax error: {}", m))
}

impl<'a> P<'a> {
    fn peek(&self) -> Option<&'a [u8]> {
        self.a.get(self.i).map(|v| v.as_slice())
    }

    fn missing_after(&self) -> Fail {
        let prev = if self.i > 0 {
            String::from_utf8_lossy(&self.a[self.i - 1]).into_owned()
        } else {
            String::new()
        };
        syntax(format!("missing argument after '{}'", prev))
    }

    fn or(&mut self) -> Result<Val, Fail> {
        let mut l = self.and()?;
        while self.peek() == Some(b"|") {
            self.i += 1;
            let r = self.and()?;
            l = if !l.null() {
                l
            } else if !r.null() {
                r
            } else {
                Val::Int(0)
            };
        }
        Ok(l)
    }

    fn and(&mut self) -> Result<Val, Fail> {
        let mut l = self.cmp()?;
        while self.peek() == Some(b"&") {
            self.i += 1;
            let r = self.cmp()?;
            l = if l.null() || r.null() { Val::Int(0) } else { l };
        }
        Ok(l)
    }

    fn cmp(&mut self) -> Result<Val, Fail> {
        let mut l = self.add()?;
        while let Some(op) = self.peek() {
            if !matches!(op, b"<" | b"<=" | b"=" | b"==" | b"!=" | b">=" | b">") {
                break;
            }
            self.i += 1;
            let r = self.add()?;
            let ord = match (l.int(), r.int()) {
                (Some(x), Some(y)) => x.cmp(&y),
                _ => l.bytes().cmp(&r.bytes()),
            };
            use std::cmp::Ordering::*;
            let t = match op {
                b"<" => ord == Less,
                b"<=" => ord != Greater,
                b"=" | b"==" => ord == Equal,
                b"!=" => ord != Equal,
                b">=" => ord != Less,
                _ => ord == Greater,
            };
            l = Val::Int(t as i128);
        }
        Ok(l)
    }

    fn arith(l: &Val, r: &Val, op: &[u8]) -> Result<Val, Fail> {
        let (x, y) = match (l.int(), r.int()) {
            (Some(x), Some(y)) => (x, y),
            _ => return Err(Fail(2, "non-integer argument".into())),
        };
        let v = match op {
            b"+" => x.checked_add(y),
            b"-" => x.checked_sub(y),
            b"*" => x.checked_mul(y),
            b"/" | b"%" => {
                if y == 0 {
                    return Err(Fail(2, "division by zero".into()));
                }
                if op == b"/" {
                    x.checked_div(y)
                } else {
                    x.checked_rem(y)
                }
            }
            _ => None,
        };
        v.map(Val::Int)
            .ok_or_else(|| Fail(2, "integer result too large".into()))
    }

    fn add(&mut self) -> Result<Val, Fail> {
        let mut l = self.mul()?;
        while let Some(op) = self.peek() {
            if op != b"+" && op != b"-" {
                break;
            }
            self.i += 1;
            let r = self.mul()?;
            l = Self::arith(&l, &r, op)?;
        }
        Ok(l)
    }

    fn mul(&mut self) -> Result<Val, Fail> {
        let mut l = self.colon()?;
        while let Some(op) = self.peek() {
            if op != b"*" && op != b"/" && op != b"%" {
                break;
            }
            self.i += 1;
            let r = self.colon()?;
            l = Self::arith(&l, &r, op)?;
        }
        Ok(l)
    }

    fn colon(&mut self) -> Result<Val, Fail> {
        let mut l = self.primary()?;
        while self.peek() == Some(b":") {
            self.i += 1;
            let r = self.primary()?;
            l = do_match(&l.bytes(), &r.bytes())?;
        }
        Ok(l)
    }

    fn operand(&mut self) -> Result<Vec<u8>, Fail> {
        match self.peek() {
            Some(b"+") => {
                self.i += 1;
                match self.peek() {
                    Some(t) => {
                        self.i += 1;
                        Ok(t.to_vec())
                    }
                    None => Err(self.missing_after()),
                }
            }
            Some(_) => Ok(self.primary()?.bytes()),
            None => Err(self.missing_after()),
        }
    }

    fn primary(&mut self) -> Result<Val, Fail> {
        let t = match self.peek() {
            Some(t) => t,
            None => return Err(self.missing_after()),
        };
        self.i += 1;
        match t {
            b"(" => {
                let v = self.or()?;
                match self.peek() {
                    Some(b")") => {
                        self.i += 1;
                        Ok(v)
                    }
                    Some(x) => Err(syntax(format!(
                        "expecting ')' instead of '{}'",
                        String::from_utf8_lossy(x)
                    ))),
                    None => Err(syntax(format!(
                        "expecting ')' after '{}'",
                        String::from_utf8_lossy(&self.a[self.i - 1])
                    ))),
                }
            }
            b")" => Err(syntax("unexpected argument ')'".into())),
            b"+" => match self.peek() {
                Some(x) => {
                    self.i += 1;
                    Ok(Val::Str(x.to_vec()))
                }
                None => Err(self.missing_after()),
            },
            b"length" => {
                let s = self.operand()?;
                Ok(Val::Int(s.len() as i128))
            }
            b"match" => {
                let s = self.operand()?;
                let r = self.operand()?;
                do_match(&s, &r)
            }
            b"index" => {
                let s = self.operand()?;
                let c = self.operand()?;
                let pos = s
                    .iter()
                    .position(|b| c.contains(b))
                    .map(|p| p + 1)
                    .unwrap_or(0);
                Ok(Val::Int(pos as i128))
            }
            b"substr" => {
                let s = self.operand()?;
                let p = self.operand()?;
                let l = self.operand()?;
                let (p, l) = match (parse_int(&p), parse_int(&l)) {
                    (Some(p), Some(l)) => (p, l),
                    _ => return Ok(Val::Str(Vec::new())),
                };
                if p < 1 || l < 1 || p as usize > s.len() {
                    return Ok(Val::Str(Vec::new()));
                }
                let start = p as usize - 1;
                let end = (start as i128 + l).min(s.len() as i128) as usize;
                Ok(Val::Str(s[start..end].to_vec()))
            }
            _ => Ok(Val::Str(t.to_vec())),
        }
    }
}

/// `STR : RE`, anchored at the start (POSIX basic regex).
fn do_match(s: &[u8], re: &[u8]) -> Result<Val, Fail> {
    let (src, groups) = translate_bre(re)?;
    let r = Regex::new(&format!("(?s-u)^(?:{})", src))
        .map_err(|_| Fail(2, "Invalid regular expression".into()))?;
    match r.captures(s) {
        Some(c) => {
            if groups > 0 {
                Ok(Val::Str(
                    c.get(1).map(|m| m.as_bytes().to_vec()).unwrap_or_default(),
                ))
            } else {
                let m = c.get(0).map(|m| m.end()).unwrap_or(0);
                Ok(Val::Int(m as i128))
            }
        }
        None => {
            if groups > 0 {
                Ok(Val::Str(Vec::new()))
            } else {
                Ok(Val::Int(0))
            }
        }
    }
}

/// POSIX basic regex (with GNU's `\+ \? \|`) to the regex crate's syntax;
/// also counts the capture groups.
fn translate_bre(re: &[u8]) -> Result<(String, usize), Fail> {
    let mut out = String::new();
    let mut groups = 0;
    let mut depth = 0i32;
    let mut i = 0;
    let hex = |out: &mut String, c: u8| {
        if c.is_ascii_alphanumeric() {
            out.push(c as char);
        } else {
            let _ = write!(out, "\\x{:02x}", c);
        }
    };
    let mut at_start = true;
    while i < re.len() {
        let c = re[i];
        let start_here = at_start;
        at_start = false;
        match c {
            b'\\' if i + 1 < re.len() => {
                let d = re[i + 1];
                i += 2;
                match d {
                    b'(' => {
                        groups += 1;
                        depth += 1;
                        out.push('(');
                        at_start = true;
                    }
                    b')' => {
                        depth -= 1;
                        if depth < 0 {
                            return Err(Fail(2, "Unmatched ) or \\)".into()));
                        }
                        out.push(')');
                    }
                    b'{' => {
                        let end = re[i..]
                            .windows(2)
                            .position(|w| w == b"\\}")
                            .ok_or_else(|| Fail(2, "Unmatched \\{".into()))?;
                        let body = String::from_utf8_lossy(&re[i..i + end]).into_owned();
                        if !body.chars().all(|c| c.is_ascii_digit() || c == ',') || body.is_empty()
                        {
                            return Err(Fail(2, "Invalid content of \\{\\}".into()));
                        }
                        out.push('{');
                        out.push_str(&body);
                        out.push('}');
                        i += end + 2;
                    }
                    b'+' | b'?' => out.push(d as char),
                    b'|' => {
                        out.push('|');
                        at_start = true;
                    }
                    b'1'..=b'9' => return Err(Fail(2, "Invalid back reference".into())),
                    b'w' | b'W' | b's' | b'S' | b'b' | b'B' => {
                        out.push('\\');
                        out.push(d as char);
                    }
                    _ => hex(&mut out, d),
                }
                continue;
            }
            b'[' => {
                let mut j = i + 1;
                out.push('[');
                if j < re.len() && re[j] == b'^' {
                    out.push('^');
                    j += 1;
                }
                let mut first = true;
                while j < re.len() && (first || re[j] != b']') {
                    first = false;
                    if re[j] == b'[' && j + 1 < re.len() && re[j + 1] == b':' {
                        let mut k = j + 2;
                        while k + 1 < re.len() && !(re[k] == b':' && re[k + 1] == b']') {
                            k += 1;
                        }
                        out.push_str(&String::from_utf8_lossy(&re[j..(k + 2).min(re.len())]));
                        j = k + 2;
                        continue;
                    }
                    if re[j] == b'-' && j + 1 < re.len() && re[j + 1] != b']' {
                        out.push('-');
                    } else {
                        hex(&mut out, re[j]);
                    }
                    j += 1;
                }
                if j >= re.len() {
                    return Err(Fail(2, "Invalid regular expression".into()));
                }
                out.push(']');
                i = j + 1;
                continue;
            }
            b'*' if start_here => hex(&mut out, c),
            b'*' | b'.' => out.push(c as char),
            b'^' if start_here => out.push('^'),
            b'$' if i + 1 == re.len()
                || re[i + 1..].starts_with(b"\\)")
                || re[i + 1..].starts_with(b"\\|") =>
            {
                out.push('$')
            }
            _ => hex(&mut out, c),
        }
        i += 1;
    }
    if depth > 0 {
        return Err(Fail(2, "Unmatched ( or \\(".into()));
    }
    Ok((out, groups))
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let mut words: Vec<Vec<u8>> = args.iter().skip(1).map(|a| os_bytes(a).to_vec()).collect();
    if words.len() == 1 {
        if words[0] == b"--help" {
            println!("Usage: expr EXPRESSION\n  or:  expr OPTION");
            return 0;
        }
        if words[0] == b"--version" {
            return crate::common::version("expr");
        }
    }
    if words.first().map(|w| w == b"--").unwrap_or(false) {
        words.remove(0);
    }
    if words.is_empty() {
        return crate::common::usage_error("expr", "missing operand", 2);
    }
    let _ = path_bytes;
    let mut p = P { a: &words, i: 0 };
    let r = p.or().and_then(|v| {
        if p.i < words.len() {
            Err(syntax(format!(
                "unexpected argument '{}'",
                String::from_utf8_lossy(&words[p.i])
            )))
        } else {
            Ok(v)
        }
    });
    match r {
        Ok(v) => {
            let mut out = v.bytes();
            out.push(b'\n');
            let so = std::io::stdout();
            let mut so = so.lock();
            if let Err(e) = so.write_all(&out).and_then(|_| so.flush()) {
                coreutils_core::io::exit_on_write_error(e);
            }
            if v.null() {
                1
            } else {
                0
            }
        }
        Err(Fail(code, m)) => {
            eprintln!("{}: {}", coreutils_core::prog("expr"), m);
            code
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(a: &[&str]) -> Result<Val, Fail> {
        let w: Vec<Vec<u8>> = a.iter().map(|s| s.as_bytes().to_vec()).collect();
        let mut p = P { a: &w, i: 0 };
        p.or()
    }

    #[test]
    fn arithmetic_and_precedence() {
        assert_eq!(ev(&["1", "+", "2", "*", "3"]).ok(), Some(Val::Int(7)));
        assert_eq!(
            ev(&["(", "1", "+", "2", ")", "*", "3"]).ok(),
            Some(Val::Int(9))
        );
        assert_eq!(ev(&["7", "%", "3"]).ok(), Some(Val::Int(1)));
        assert!(ev(&["1", "/", "0"]).is_err());
    }

    #[test]
    fn matching() {
        assert_eq!(ev(&["abc", ":", "a.c"]).ok(), Some(Val::Int(3)));
        assert_eq!(
            ev(&["abc", ":", "a\\(.\\)c"]).ok(),
            Some(Val::Str(b"b".to_vec()))
        );
        assert_eq!(
            ev(&["substr", "hello", "2", "3"]).ok(),
            Some(Val::Str(b"ell".to_vec()))
        );
        assert_eq!(ev(&["index", "hello", "lo"]).ok(), Some(Val::Int(3)));
    }
}
