//! find's expression language: the node tree and its parser (operators
//! `( ) ! -not -a -and -o -or ,`, tests, actions and global options), with
//! GNU's diagnostics for bad expressions.

use regex::bytes::Regex;
use std::fmt::Write as _;

/// Numeric comparison of `+n` (greater), `-n` (less) or `n` (equal).
#[derive(Clone, Copy, Debug)]
pub struct Num {
    /// -1 less than, 0 equal, 1 greater than.
    pub ord: i8,
    /// The number.
    pub n: u64,
}

impl Num {
    /// Compare `v` against this.
    pub fn test(&self, v: u64) -> bool {
        match self.ord {
            -1 => v < self.n,
            1 => v > self.n,
            _ => v == self.n,
        }
    }
}

/// Which timestamp a test looks at.
#[derive(Clone, Copy, Debug)]
pub enum Stamp {
    /// Access time.
    A,
    /// Status change time.
    C,
    /// Modification time.
    M,
}

/// How -perm compares.
#[derive(Clone, Copy, Debug)]
pub enum PermKind {
    /// Exactly these bits.
    Exact,
    /// At least all of these (`-mode`).
    All,
    /// Any of these (`/mode`).
    Any,
}

/// An -exec/-execdir/-ok/-okdir action.
#[derive(Debug)]
pub struct Exec {
    /// Command words, with `{}` still in them.
    pub argv: Vec<Vec<u8>>,
    /// The `{} +` form (batched).
    pub plus: bool,
    /// Run in the file's directory.
    pub dir: bool,
    /// Ask first (-ok).
    pub ask: bool,
    /// Index of this action's batch in the evaluator.
    pub batch: usize,
}

/// One node of the expression.
#[derive(Debug)]
pub enum Node {
    And(Box<Node>, Box<Node>),
    Or(Box<Node>, Box<Node>),
    Comma(Box<Node>, Box<Node>),
    Not(Box<Node>),
    True,
    False,
    Name(Vec<u8>, bool),
    Path(Vec<u8>, bool),
    Lname(Vec<u8>, bool),
    Regex(Regex),
    Type(Vec<u8>, bool),
    Size(Num, u64),
    Age(Stamp, Num, u64),
    Newer(Stamp, i128),
    Perm(u32, PermKind),
    Empty,
    Uid(Num),
    Gid(Num),
    NoUser,
    NoGroup,
    Links(Num),
    Inum(Num),
    Same(u64, u64),
    Access(u32),
    Prune,
    Quit,
    Print(bool),
    Printf(Vec<u8>),
    Ls,
    Exec(Exec),
    Delete,
}

/// Options that are not positional.
#[derive(Debug, Default)]
pub struct Globals {
    /// -maxdepth.
    pub maxdepth: Option<usize>,
    /// -mindepth.
    pub mindepth: usize,
    /// -depth (or implied by -delete).
    pub depth: bool,
    /// -xdev / -mount.
    pub xdev: bool,
    /// -daystart.
    pub daystart: bool,
}

/// The parser's result.
pub struct Parsed {
    /// The expression (with the implicit -print added).
    pub expr: Node,
    /// Global options.
    pub g: Globals,
    /// Number of batched exec actions.
    pub batches: usize,
}

/// Context the parser needs from the outside world.
pub struct Env {
    /// Follow symlinks for -newer etc. (-L).
    pub follow: bool,
}

struct P<'a> {
    toks: &'a [Vec<u8>],
    i: usize,
    g: Globals,
    regextype: u8,
    batches: usize,
    has_action: bool,
    env: &'a Env,
}

fn s(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Parse the expression words.
pub fn parse(toks: &[Vec<u8>], env: &Env) -> Result<Parsed, String> {
    let mut p = P {
        toks,
        i: 0,
        g: Globals::default(),
        regextype: b'e',
        batches: 0,
        has_action: false,
        env,
    };
    let expr = if toks.is_empty() {
        Node::True
    } else {
        let e = p.comma()?;
        if p.i < toks.len() {
            let t = &toks[p.i];
            if t == b")" {
                return Err("you have too many ')'".into());
            }
            return Err(format!("unexpected extra predicate '{}'", s(t)));
        }
        e
    };
    let expr = if p.has_action {
        expr
    } else {
        Node::And(Box::new(expr), Box::new(Node::Print(false)))
    };
    Ok(Parsed {
        expr,
        g: p.g,
        batches: p.batches,
    })
}

fn is_binop(t: &[u8]) -> bool {
    matches!(t, b"-o" | b"-or" | b"-a" | b"-and" | b",")
}

impl<'a> P<'a> {
    fn peek(&self) -> Option<&'a [u8]> {
        self.toks.get(self.i).map(|v| v.as_slice())
    }

    fn comma(&mut self) -> Result<Node, String> {
        let mut left = self.or()?;
        while self.peek() == Some(b",") {
            self.i += 1;
            if self.peek().is_none() {
                return Err("expected an expression after ','".into());
            }
            let right = self.or()?;
            left = Node::Comma(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn or(&mut self) -> Result<Node, String> {
        let mut left = self.and()?;
        while let Some(t) = self.peek() {
            if t != b"-o" && t != b"-or" {
                break;
            }
            self.i += 1;
            if self.peek().is_none() {
                return Err(format!("expected an expression after '{}'", s(t)));
            }
            let right = self.and()?;
            left = Node::Or(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Node, String> {
        let mut left = self.unary()?;
        while let Some(t) = self.peek() {
            if t == b"-a" || t == b"-and" {
                self.i += 1;
                if self.peek().is_none() {
                    return Err(format!("expected an expression after '{}'", s(t)));
                }
            } else if t == b")" || t == b"-o" || t == b"-or" || t == b"," {
                break;
            }
            let right = self.unary()?;
            left = Node::And(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Node, String> {
        let t = match self.peek() {
            Some(t) => t,
            None => return Err("invalid expression".into()),
        };
        if t == b"!" || t == b"-not" {
            self.i += 1;
            if self.peek().is_none() {
                return Err(format!("expected an expression after '{}'", s(t)));
            }
            return Ok(Node::Not(Box::new(self.unary()?)));
        }
        if t == b"(" {
            self.i += 1;
            if self.peek() == Some(b")") {
                return Err("invalid expression; empty parentheses are not allowed.".into());
            }
            if self.peek().is_none() {
                return Err("invalid expression; I was expecting to find a ')' somewhere but did not see one.".into());
            }
            let e = self.comma()?;
            if self.peek() != Some(b")") {
                return Err("invalid expression; I was expecting to find a ')' somewhere but did not see one.".into());
            }
            self.i += 1;
            return Ok(e);
        }
        if t == b")" {
            return Err("invalid expression; you have too many ')'".into());
        }
        if is_binop(t) {
            return Err(format!(
                "invalid expression; you have used a binary operator '{}' with nothing before it.",
                s(t)
            ));
        }
        self.i += 1;
        self.primary(t)
    }

    fn arg(&mut self, name: &[u8]) -> Result<&'a [u8], String> {
        match self.toks.get(self.i) {
            Some(v) => {
                self.i += 1;
                Ok(v)
            }
            None => Err(format!("missing argument to `{}'", s(name))),
        }
    }

    fn num(&mut self, name: &[u8]) -> Result<Num, String> {
        let a = self.arg(name)?;
        parse_num(a).ok_or_else(|| format!("invalid argument `{}' to `{}'", s(a), s(name)))
    }

    fn primary(&mut self, t: &'a [u8]) -> Result<Node, String> {
        let name = t;
        Ok(match t {
            b"-true" => Node::True,
            b"-false" => Node::False,
            b"-name" | b"-iname" => {
                let a = self.arg(name)?;
                Node::Name(a.to_vec(), t == b"-iname")
            }
            b"-path" | b"-ipath" | b"-wholename" | b"-iwholename" => {
                let a = self.arg(name)?;
                Node::Path(a.to_vec(), t[1] == b'i')
            }
            b"-lname" | b"-ilname" => {
                let a = self.arg(name)?;
                Node::Lname(a.to_vec(), t == b"-ilname")
            }
            b"-regex" | b"-iregex" => {
                let a = self.arg(name)?;
                let src = translate_regex(a, self.regextype);
                let flags = if t == b"-iregex" { "(?si-u)" } else { "(?s-u)" };
                let re = Regex::new(&format!("{}^(?:{})$", flags, src)).map_err(|_| {
                    format!(
                        "failed to compile regular expression '{}': Invalid regular expression",
                        s(a)
                    )
                })?;
                Node::Regex(re)
            }
            b"-regextype" => {
                let a = self.arg(name)?;
                self.regextype = match a {
                    b"emacs" | b"findutils-default" => b'e',
                    b"posix-extended" | b"posix-egrep" | b"egrep" | b"posix-awk" | b"awk"
                    | b"gnu-awk" => b'x',
                    b"posix-basic" | b"grep" | b"ed" | b"sed" => b'b',
                    _ => {
                        return Err(format!(
                            "Unknown regular expression type '{}'; valid types are 'findutils-default', 'ed', 'emacs', 'gnu-awk', 'grep', 'posix-awk', 'awk', 'posix-basic', 'posix-egrep', 'egrep', 'posix-extended', 'posix-minimal-basic', 'sed'.",
                            s(a)
                        ))
                    }
                };
                Node::True
            }
            b"-type" | b"-xtype" => {
                let a = self.arg(name)?;
                let mut set = Vec::new();
                if a.len() > 1 && !a.contains(&b',') {
                    return Err(format!(
                        "Must separate multiple arguments to {} using: ','",
                        s(t)
                    ));
                }
                for (k, part) in a.split(|&c| c == b',').enumerate() {
                    if part.len() != 1 || !b"fdlpsbcD".contains(&part[0]) {
                        if part.is_empty() && k > 0 {
                            return Err(format!("Last file type in list argument to {} is missing, i.e., list is ending on: ','", s(t)));
                        }
                        return Err(format!("Unknown argument to {}: {}", s(t), s(part)));
                    }
                    if set.contains(&part[0]) {
                        return Err(format!(
                            "Duplicate file type '{}' in the argument list to {}.",
                            part[0] as char,
                            s(t)
                        ));
                    }
                    set.push(part[0]);
                }
                Node::Type(set, t == b"-xtype")
            }
            b"-size" => {
                let a = self.arg(name)?;
                let (body, unit) = match a.last() {
                    Some(c) if c.is_ascii_alphabetic() => {
                        let u = match c {
                            b'c' => 1,
                            b'w' => 2,
                            b'b' => 512,
                            b'k' => 1024,
                            b'M' => 1 << 20,
                            b'G' => 1 << 30,
                            _ => return Err(format!("invalid -size type `{}'", *c as char)),
                        };
                        (&a[..a.len() - 1], u)
                    }
                    _ => (a, 512),
                };
                let n = parse_num(body)
                    .ok_or_else(|| format!("invalid argument `{}' to `-size'", s(a)))?;
                Node::Size(n, unit)
            }
            b"-mtime" | b"-atime" | b"-ctime" | b"-mmin" | b"-amin" | b"-cmin" => {
                let n = self.num(name)?;
                let st = stamp(t[1]);
                let unit = if t.ends_with(b"min") { 60 } else { 86400 };
                Node::Age(st, n, unit)
            }
            b"-newer" | b"-anewer" | b"-cnewer" => {
                let a = self.arg(name)?;
                let p = coreutils_core::bytes::path_from_bytes(a);
                let m = coreutils_core::meta::stat(&p, self.env.follow)
                    .map_err(|e| format!("'{}': {}", s(a), coreutils_core::error::strerror(&e)))?;
                let st = if t == b"-newer" {
                    Stamp::M
                } else {
                    stamp(t[1])
                };
                let _ = st;
                Node::Newer(st, super::stamp_ns(&m, Stamp::M))
            }
            b"-perm" => {
                let a = self.arg(name)?;
                let (kind, body) = match a.first() {
                    Some(b'-') => (PermKind::All, &a[1..]),
                    Some(b'/') => (PermKind::Any, &a[1..]),
                    Some(b'+') if a.len() > 1 && a[1..].iter().all(|c| c.is_ascii_digit()) => {
                        return Err(format!("invalid mode '{}'", s(a)))
                    }
                    _ => (PermKind::Exact, a),
                };
                let m = parse_mode(body).ok_or_else(|| format!("invalid mode '{}'", s(a)))?;
                Node::Perm(m, kind)
            }
            b"-empty" => Node::Empty,
            b"-uid" => Node::Uid(self.num(name)?),
            b"-gid" => Node::Gid(self.num(name)?),
            b"-user" => {
                let a = self.arg(name)?;
                let st = s(a);
                let uid = coreutils_core::users::users()
                    .into_iter()
                    .find(|u| u.name == st)
                    .map(|u| u.uid as u64)
                    .or_else(|| st.parse::<u64>().ok())
                    .ok_or_else(|| format!("'{}' is not the name of a known user", st))?;
                Node::Uid(Num { ord: 0, n: uid })
            }
            b"-group" => {
                let a = self.arg(name)?;
                let st = s(a);
                let gid = coreutils_core::users::groups()
                    .into_iter()
                    .find(|g| g.name == st)
                    .map(|g| g.gid as u64)
                    .or_else(|| st.parse::<u64>().ok())
                    .ok_or_else(|| format!("'{}' is not the name of an existing group", st))?;
                Node::Gid(Num { ord: 0, n: gid })
            }
            b"-nouser" => Node::NoUser,
            b"-nogroup" => Node::NoGroup,
            b"-links" => Node::Links(self.num(name)?),
            b"-inum" => Node::Inum(self.num(name)?),
            b"-samefile" => {
                let a = self.arg(name)?;
                let p = coreutils_core::bytes::path_from_bytes(a);
                let r = coreutils_core::meta::stat(&p, self.env.follow)
                    .map_err(|e| format!("'{}': {}", s(a), coreutils_core::error::strerror(&e)))?;
                Node::Same(r.dev, r.ino)
            }
            b"-readable" => Node::Access(coreutils_core::meta::R_OK),
            b"-writable" => Node::Access(coreutils_core::meta::W_OK),
            b"-executable" => Node::Access(coreutils_core::meta::X_OK),
            b"-prune" => Node::Prune,
            b"-quit" => {
                self.has_action = true;
                Node::Quit
            }
            b"-print" | b"-print0" => {
                self.has_action = true;
                Node::Print(t == b"-print0")
            }
            b"-printf" => {
                self.has_action = true;
                Node::Printf(self.arg(name)?.to_vec())
            }
            b"-ls" => {
                self.has_action = true;
                Node::Ls
            }
            b"-delete" => {
                self.has_action = true;
                self.g.depth = true;
                Node::Delete
            }
            b"-exec" | b"-execdir" | b"-ok" | b"-okdir" => {
                self.has_action = true;
                let mut argv: Vec<Vec<u8>> = Vec::new();
                let mut plus = false;
                let mut done = false;
                while let Some(w) = self.toks.get(self.i) {
                    self.i += 1;
                    if w == b";" {
                        done = true;
                        break;
                    }
                    if w == b"+"
                        && argv.last().map(|l| l == b"{}").unwrap_or(false)
                        && t.starts_with(b"-exec")
                    {
                        plus = true;
                        done = true;
                        break;
                    }
                    argv.push(w.clone());
                }
                if !done || argv.is_empty() {
                    return Err(format!("missing argument to `{}'", s(t)));
                }
                let batch = self.batches;
                if plus {
                    argv.pop();
                    self.batches += 1;
                }
                Node::Exec(Exec {
                    argv,
                    plus,
                    dir: t.ends_with(b"dir"),
                    ask: t.starts_with(b"-ok"),
                    batch,
                })
            }
            b"-maxdepth" | b"-mindepth" => {
                let a = self.arg(name)?;
                let v = std::str::from_utf8(a)
                    .ok()
                    .filter(|x| !x.starts_with('+') && !x.starts_with('-'))
                    .and_then(|x| x.parse::<usize>().ok())
                    .ok_or_else(|| {
                        format!(
                            "Expected a positive decimal integer argument to {}, but got '{}'",
                            s(t),
                            s(a)
                        )
                    })?;
                if t == b"-maxdepth" {
                    self.g.maxdepth = Some(v);
                } else {
                    self.g.mindepth = v;
                }
                Node::True
            }
            b"-depth" | b"-d" => {
                self.g.depth = true;
                Node::True
            }
            b"-xdev" | b"-mount" => {
                self.g.xdev = true;
                Node::True
            }
            b"-daystart" => {
                self.g.daystart = true;
                Node::True
            }
            b"-noleaf"
            | b"-ignore_readdir_race"
            | b"-noignore_readdir_race"
            | b"-nowarn"
            | b"-warn"
            | b"-follow" => Node::True,
            _ => {
                if t.first() == Some(&b'-') {
                    return Err(format!("unknown predicate `{}'", s(t)));
                }
                return Err(format!("paths must precede expression: `{}'", s(t)));
            }
        })
    }
}

fn stamp(c: u8) -> Stamp {
    match c {
        b'a' => Stamp::A,
        b'c' => Stamp::C,
        _ => Stamp::M,
    }
}

/// `+n`, `-n` or `n`.
pub fn parse_num(a: &[u8]) -> Option<Num> {
    let (ord, body) = match a.first() {
        Some(b'+') => (1, &a[1..]),
        Some(b'-') => (-1, &a[1..]),
        _ => (0, a),
    };
    if body.is_empty() || !body.iter().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let n = std::str::from_utf8(body).ok()?.parse().ok()?;
    Some(Num { ord, n })
}

/// Octal or symbolic (`u+x,g=r`) mode, applied to 0 as find does.
pub fn parse_mode(a: &[u8]) -> Option<u32> {
    if a.is_empty() {
        return None;
    }
    if a.iter().all(|c| c.is_ascii_digit()) {
        let v = u32::from_str_radix(std::str::from_utf8(a).ok()?, 8).ok()?;
        return if v <= 0o7777 { Some(v) } else { None };
    }
    let mut mode = 0u32;
    for clause in a.split(|&c| c == b',') {
        let mut i = 0;
        let mut who = 0u32;
        while i < clause.len() && b"ugoa".contains(&clause[i]) {
            who |= match clause[i] {
                b'u' => 0o4700,
                b'g' => 0o2070,
                b'o' => 0o1007,
                _ => 0o7777,
            };
            i += 1;
        }
        if who == 0 {
            who = 0o7777;
        }
        if i >= clause.len() {
            return None;
        }
        while i < clause.len() {
            let op = clause[i];
            if !b"+-=".contains(&op) {
                return None;
            }
            i += 1;
            let mut bits = 0u32;
            while i < clause.len() && !b"+-=".contains(&clause[i]) {
                bits |= match clause[i] {
                    b'r' => 0o444,
                    b'w' => 0o222,
                    b'x' | b'X' => 0o111,
                    b's' => 0o6000,
                    b't' => 0o1000,
                    _ => return None,
                };
                i += 1;
            }
            let bits = bits & who;
            match op {
                b'+' => mode |= bits,
                b'-' => mode &= !bits,
                _ => mode = (mode & !who) | bits,
            }
        }
    }
    Some(mode)
}

/// Translate find's regex dialects (`e` emacs, `b` POSIX basic, `x`
/// extended) to the regex crate's syntax.
pub fn translate_regex(src: &[u8], kind: u8) -> String {
    let mut out = String::new();
    let mut i = 0;
    let lit = |out: &mut String, c: u8| {
        if c.is_ascii_alphanumeric() || c >= 0x80 {
            if c >= 0x80 {
                let _ = write!(out, "\\x{:02x}", c);
            } else {
                out.push(c as char);
            }
        } else {
            let _ = write!(out, "\\x{:02x}", c);
        }
    };
    while i < src.len() {
        let c = src[i];
        if c == b'[' {
            // Copy a bracket expression, escaping what Rust treats specially.
            let mut j = i + 1;
            out.push('[');
            if j < src.len() && src[j] == b'^' {
                out.push('^');
                j += 1;
            }
            let mut first = true;
            while j < src.len() && (first || src[j] != b']') {
                first = false;
                if src[j] == b'[' && j + 1 < src.len() && src[j + 1] == b':' {
                    let mut k = j + 2;
                    while k + 1 < src.len() && !(src[k] == b':' && src[k + 1] == b']') {
                        k += 1;
                    }
                    out.push_str(&String::from_utf8_lossy(&src[j..(k + 2).min(src.len())]));
                    j = k + 2;
                    continue;
                }
                if src[j] == b'-' && j + 1 < src.len() && src[j + 1] != b']' && !first {
                    out.push('-');
                } else {
                    lit(&mut out, src[j]);
                }
                j += 1;
            }
            out.push(']');
            i = j + 1;
            continue;
        }
        let special_unescaped: &[u8] = match kind {
            b'x' => b"()|+?{}",
            b'e' => b"+?",
            _ => b"",
        };
        let special_escaped: &[u8] = match kind {
            b'x' => b"",
            b'e' => b"()|",
            _ => b"()|{}+?",
        };
        if c == b'\\' && i + 1 < src.len() {
            let d = src[i + 1];
            i += 2;
            if special_escaped.contains(&d) {
                out.push(d as char);
            } else if d == b'w' || d == b'W' || d == b's' || d == b'S' || d == b'b' || d == b'B' {
                out.push('\\');
                out.push(d as char);
            } else if d == b'`' {
                out.push_str("\\A");
            } else if d == b'\'' {
                out.push_str("\\z");
            } else {
                // Includes back-references, which the engine lacks: literal.
                lit(&mut out, d);
            }
            continue;
        }
        i += 1;
        if special_unescaped.contains(&c) || b".*^$".contains(&c) {
            out.push(c as char);
        } else {
            lit(&mut out, c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse() {
        assert_eq!(parse_mode(b"644"), Some(0o644));
        assert_eq!(parse_mode(b"u+x"), Some(0o100));
        assert_eq!(parse_mode(b"u=rw,go=r"), Some(0o644));
        assert_eq!(parse_mode(b"999"), None);
        assert_eq!(parse_mode(b"z"), None);
    }

    #[test]
    fn regexes_translate() {
        let e = translate_regex(b".*\\.\\(txt\\|md\\)", b'e');
        let re = Regex::new(&format!("^(?:{})$", e)).unwrap();
        assert!(re.is_match(b"./a.txt"));
        assert!(re.is_match(b"./d.md"));
        assert!(!re.is_match(b"./a.log"));
        let x = translate_regex(b".*/[a-c]+\\.(txt|log)", b'x');
        let re = Regex::new(&format!("^(?:{})$", x)).unwrap();
        assert!(re.is_match(b"./dir/b.log"));
    }

    #[test]
    fn numbers_parse() {
        let n = parse_num(b"+3").unwrap();
        assert!(n.test(4) && !n.test(3));
        assert!(parse_num(b"x").is_none());
    }
}
