//! Lexer and recursive-descent parser for jq programs.

use super::ast::*;
use super::value::{Map, Value};
use std::rc::Rc;

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(f64),
    Str(Vec<SPart>),
    Ident(String),
    Field(String),
    Var(String),
    Format(String),
    Punct(&'static str),
    Kw(&'static str),
}

#[derive(Clone, Debug, PartialEq)]
enum SPart {
    Lit(String),
    Interp(Vec<(Tok, usize)>),
}

const KEYWORDS: &[&str] = &[
    "def", "if", "then", "elif", "else", "end", "as", "reduce", "foreach", "try", "catch", "label",
    "import", "include", "and", "or", "__loc__",
];

const PUNCTS: &[&str] = &[
    "?//=", "?//", "//=", "|=", "+=", "-=", "*=", "/=", "%=", "==", "!=", "<=", ">=", "//", "..",
    ".", "[", "]", "{", "}", "(", ")", "|", ",", ":", ";", "=", "<", ">", "+", "-", "*", "/", "%",
    "?", "$",
];

struct Lexer<'a> {
    s: &'a [u8],
    i: usize,
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}
fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

impl<'a> Lexer<'a> {
    fn err(&self, what: &str) -> String {
        what.to_string()
    }

    /// Tokens until end of input or an unbalanced `)` (for interpolation).
    fn tokens(&mut self, in_interp: bool) -> Result<Vec<(Tok, usize)>, String> {
        let mut out = Vec::new();
        let mut depth = 0usize;
        loop {
            while self.i < self.s.len() {
                let c = self.s[self.i];
                if c == b'#' {
                    while self.i < self.s.len() && self.s[self.i] != b'\n' {
                        self.i += 1;
                    }
                } else if c.is_ascii_whitespace() {
                    self.i += 1;
                } else {
                    break;
                }
            }
            if self.i >= self.s.len() {
                if in_interp {
                    return Err(self.err("unterminated string interpolation"));
                }
                return Ok(out);
            }
            let start = self.i;
            let c = self.s[self.i];
            if c == b'"' {
                self.i += 1;
                let parts = self.string()?;
                out.push((Tok::Str(parts), start));
                continue;
            }
            if c.is_ascii_digit()
                || (c == b'.' && self.s.get(self.i + 1).map_or(false, |d| d.is_ascii_digit()))
            {
                while self.i < self.s.len()
                    && (self.s[self.i].is_ascii_digit() || self.s[self.i] == b'.')
                {
                    self.i += 1;
                }
                if self.i < self.s.len() && (self.s[self.i] == b'e' || self.s[self.i] == b'E') {
                    let save = self.i;
                    self.i += 1;
                    if self.i < self.s.len() && (self.s[self.i] == b'+' || self.s[self.i] == b'-') {
                        self.i += 1;
                    }
                    if self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
                        while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
                            self.i += 1;
                        }
                    } else {
                        self.i = save;
                    }
                }
                let txt = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
                let n: f64 = txt
                    .parse()
                    .map_err(|_| format!("syntax error, invalid number {}", txt))?;
                out.push((Tok::Num(n), start));
                continue;
            }
            if c == b'.' && self.s.get(self.i + 1).map_or(false, |&d| is_ident_start(d)) {
                self.i += 1;
                let st = self.i;
                while self.i < self.s.len() && is_ident(self.s[self.i]) {
                    self.i += 1;
                }
                out.push((
                    Tok::Field(String::from_utf8_lossy(&self.s[st..self.i]).into_owned()),
                    start,
                ));
                continue;
            }
            if (c == b'$' || c == b'@')
                && self.s.get(self.i + 1).map_or(false, |&d| is_ident_start(d))
            {
                self.i += 1;
                let st = self.i;
                while self.i < self.s.len()
                    && (is_ident(self.s[self.i])
                        || (self.s[self.i] == b':' && self.s.get(self.i + 1) == Some(&b':')))
                {
                    if self.s[self.i] == b':' {
                        self.i += 1;
                    }
                    self.i += 1;
                }
                let name = String::from_utf8_lossy(&self.s[st..self.i]).into_owned();
                out.push((
                    if c == b'$' {
                        Tok::Var(name)
                    } else {
                        Tok::Format(name)
                    },
                    start,
                ));
                continue;
            }
            if is_ident_start(c) {
                while self.i < self.s.len()
                    && (is_ident(self.s[self.i])
                        || (self.s[self.i] == b':'
                            && self.s.get(self.i + 1) == Some(&b':')
                            && self.s.get(self.i + 2).map_or(false, |&d| is_ident_start(d))))
                {
                    if self.s[self.i] == b':' {
                        self.i += 1;
                    }
                    self.i += 1;
                }
                let w = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
                match KEYWORDS.iter().find(|k| **k == w) {
                    Some(k) if *k != "__loc__" => out.push((Tok::Kw(k), start)),
                    _ => out.push((Tok::Ident(w), start)),
                }
                continue;
            }
            let mut matched = None;
            for p in PUNCTS {
                if self.s[self.i..].starts_with(p.as_bytes()) {
                    matched = Some(*p);
                    break;
                }
            }
            match matched {
                Some(p) => {
                    if in_interp {
                        if p == "(" {
                            depth += 1;
                        } else if p == ")" {
                            if depth == 0 {
                                self.i += 1;
                                return Ok(out);
                            }
                            depth -= 1;
                        }
                    }
                    self.i += p.len();
                    out.push((Tok::Punct(p), start));
                }
                None => {
                    let ch =
                        String::from_utf8_lossy(&self.s[self.i..(self.i + 1).min(self.s.len())])
                            .into_owned();
                    return Err(format!(
                        "syntax error, unexpected INVALID_CHARACTER '{}'",
                        ch
                    ));
                }
            }
        }
    }

    fn string(&mut self) -> Result<Vec<SPart>, String> {
        let mut parts = Vec::new();
        let mut cur: Vec<u8> = Vec::new();
        loop {
            let c = match self.s.get(self.i) {
                Some(&c) => c,
                None => return Err("unterminated string literal".into()),
            };
            self.i += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    let e = match self.s.get(self.i) {
                        Some(&e) => e,
                        None => return Err("unterminated string literal".into()),
                    };
                    self.i += 1;
                    match e {
                        b'n' => cur.push(b'\n'),
                        b't' => cur.push(b'\t'),
                        b'r' => cur.push(b'\r'),
                        b'b' => cur.push(8),
                        b'f' => cur.push(12),
                        b'/' => cur.push(b'/'),
                        b'\\' => cur.push(b'\\'),
                        b'"' => cur.push(b'"'),
                        b'u' => {
                            let h = self.s.get(self.i..self.i + 4).ok_or("invalid \\u escape")?;
                            let mut cp = u32::from_str_radix(&String::from_utf8_lossy(h), 16)
                                .map_err(|_| "invalid \\u escape".to_string())?;
                            self.i += 4;
                            if (0xd800..0xdc00).contains(&cp)
                                && self.s.get(self.i..self.i + 2) == Some(b"\\u")
                            {
                                if let Some(h2) = self.s.get(self.i + 2..self.i + 6) {
                                    if let Ok(lo) =
                                        u32::from_str_radix(&String::from_utf8_lossy(h2), 16)
                                    {
                                        if (0xdc00..0xe000).contains(&lo) {
                                            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                                            self.i += 6;
                                        }
                                    }
                                }
                            }
                            let ch = char::from_u32(cp).unwrap_or('\u{fffd}');
                            let mut t = [0u8; 4];
                            cur.extend_from_slice(ch.encode_utf8(&mut t).as_bytes());
                        }
                        b'(' => {
                            if !cur.is_empty() {
                                parts.push(SPart::Lit(String::from_utf8_lossy(&cur).into_owned()));
                                cur.clear();
                            }
                            let toks = self.tokens(true)?;
                            parts.push(SPart::Interp(toks));
                        }
                        _ => return Err(format!("invalid escape '\\{}'", e as char)),
                    }
                }
                _ => cur.push(c),
            }
        }
        if !cur.is_empty() || parts.is_empty() {
            parts.push(SPart::Lit(String::from_utf8_lossy(&cur).into_owned()));
        }
        Ok(parts)
    }
}

/// Parse a jq program. The error is jq's message (without position).
pub fn parse_program(src: &str) -> Result<Ast, String> {
    let mut lx = Lexer {
        s: src.as_bytes(),
        i: 0,
    };
    let toks = lx.tokens(false)?;
    let mut p = Parser { t: toks, i: 0, src };
    if p.t.is_empty() {
        return Ok(Ast::Identity);
    }
    let ast = p.pipe()?;
    if p.i < p.t.len() {
        return Err(p.unexpected());
    }
    Ok(ast)
}

/// Parse a library of definitions (`def a: ...; def b: ...;`).
pub fn parse_defs(src: &str) -> Result<Vec<&'static FuncDef>, String> {
    let mut lx = Lexer {
        s: src.as_bytes(),
        i: 0,
    };
    let toks = lx.tokens(false)?;
    let mut p = Parser { t: toks, i: 0, src };
    let mut out = Vec::new();
    while p.i < p.t.len() {
        out.push(p.def()?);
    }
    Ok(out)
}

struct Parser<'a> {
    t: Vec<(Tok, usize)>,
    i: usize,
    src: &'a str,
}

fn b(a: Ast) -> Box<Ast> {
    Box::new(a)
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&Tok> {
        self.t.get(self.i).map(|t| &t.0)
    }
    fn is(&self, p: &str) -> bool {
        matches!(self.peek(), Some(Tok::Punct(x)) if *x == p)
    }
    fn is_kw(&self, k: &str) -> bool {
        matches!(self.peek(), Some(Tok::Kw(x)) if *x == k)
    }
    fn unexpected(&self) -> String {
        match self.peek() {
            None => "syntax error, unexpected $end".to_string(),
            Some(Tok::Punct(p)) => format!("syntax error, unexpected '{}'", p),
            Some(Tok::Ident(s)) => {
                format!("syntax error, unexpected IDENT, expecting $end '{}'", s)
            }
            Some(t) => format!("syntax error, unexpected {:?}", t),
        }
    }
    fn expect(&mut self, p: &str) -> Result<(), String> {
        if self.is(p) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.unexpected())
        }
    }
    fn expect_kw(&mut self, k: &str) -> Result<(), String> {
        if self.is_kw(k) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.unexpected())
        }
    }
    fn line_of(&self, pos: usize) -> usize {
        self.src.as_bytes()[..pos.min(self.src.len())]
            .iter()
            .filter(|&&c| c == b'\n')
            .count()
            + 1
    }

    fn pipe(&mut self) -> Result<Ast, String> {
        if self.is_kw("def") {
            let d = self.def()?;
            let rest = self.pipe()?;
            return Ok(Ast::Def(d, b(rest)));
        }
        if self.is_kw("label") {
            self.i += 1;
            let name = match self.peek() {
                Some(Tok::Var(v)) => v.clone(),
                _ => return Err(self.unexpected()),
            };
            self.i += 1;
            self.expect("|")?;
            let body = self.pipe()?;
            return Ok(Ast::Label(name.into(), b(body)));
        }
        let lhs = self.comma()?;
        if self.is("|") {
            self.i += 1;
            let rhs = self.pipe()?;
            return Ok(Ast::Pipe(b(lhs), b(rhs)));
        }
        Ok(lhs)
    }

    fn def(&mut self) -> Result<&'static FuncDef, String> {
        self.expect_kw("def")?;
        let name = match self.peek() {
            Some(Tok::Ident(n)) => n.clone(),
            Some(Tok::Kw(k)) => k.to_string(),
            _ => return Err(self.unexpected()),
        };
        self.i += 1;
        let mut params = Vec::new();
        if self.is("(") {
            self.i += 1;
            loop {
                match self.peek() {
                    Some(Tok::Ident(n)) => params.push((Rc::from(n.as_str()), false)),
                    Some(Tok::Var(n)) => params.push((Rc::from(n.as_str()), true)),
                    _ => return Err(self.unexpected()),
                }
                self.i += 1;
                if self.is(";") {
                    self.i += 1;
                    continue;
                }
                self.expect(")")?;
                break;
            }
        }
        self.expect(":")?;
        let body = self.pipe()?;
        self.expect(";")?;
        // Programs are parsed once per process and live until exit.
        Ok(Box::leak(Box::new(FuncDef {
            name: name.into(),
            params,
            body,
        })))
    }

    fn comma(&mut self) -> Result<Ast, String> {
        let mut lhs = self.alt()?;
        while self.is(",") {
            self.i += 1;
            let rhs = self.alt()?;
            lhs = Ast::Comma(b(lhs), b(rhs));
        }
        Ok(lhs)
    }

    fn alt(&mut self) -> Result<Ast, String> {
        let lhs = self.assign()?;
        if self.is("//") {
            self.i += 1;
            let rhs = self.alt()?;
            return Ok(Ast::Alt(b(lhs), b(rhs)));
        }
        Ok(lhs)
    }

    fn assign(&mut self) -> Result<Ast, String> {
        let lhs = self.or()?;
        let op = match self.peek() {
            Some(Tok::Punct("=")) => AssignOp::Set,
            Some(Tok::Punct("|=")) => AssignOp::Update,
            Some(Tok::Punct("+=")) => AssignOp::Arith(BinOp::Add),
            Some(Tok::Punct("-=")) => AssignOp::Arith(BinOp::Sub),
            Some(Tok::Punct("*=")) => AssignOp::Arith(BinOp::Mul),
            Some(Tok::Punct("/=")) => AssignOp::Arith(BinOp::Div),
            Some(Tok::Punct("%=")) => AssignOp::Arith(BinOp::Mod),
            Some(Tok::Punct("//=")) => AssignOp::Alt,
            _ => return Ok(lhs),
        };
        self.i += 1;
        let rhs = self.alt()?;
        Ok(Ast::Assign(op, b(lhs), b(rhs)))
    }

    fn or(&mut self) -> Result<Ast, String> {
        let mut lhs = self.and()?;
        while self.is_kw("or") {
            self.i += 1;
            let rhs = self.and()?;
            lhs = Ast::Or(b(lhs), b(rhs));
        }
        Ok(lhs)
    }

    fn and(&mut self) -> Result<Ast, String> {
        let mut lhs = self.cmp()?;
        while self.is_kw("and") {
            self.i += 1;
            let rhs = self.cmp()?;
            lhs = Ast::And(b(lhs), b(rhs));
        }
        Ok(lhs)
    }

    fn cmp(&mut self) -> Result<Ast, String> {
        let lhs = self.additive()?;
        let op = match self.peek() {
            Some(Tok::Punct("==")) => BinOp::Eq,
            Some(Tok::Punct("!=")) => BinOp::Ne,
            Some(Tok::Punct("<")) => BinOp::Lt,
            Some(Tok::Punct("<=")) => BinOp::Le,
            Some(Tok::Punct(">")) => BinOp::Gt,
            Some(Tok::Punct(">=")) => BinOp::Ge,
            _ => return Ok(lhs),
        };
        self.i += 1;
        let rhs = self.additive()?;
        Ok(Ast::Bin(op, b(lhs), b(rhs)))
    }

    fn additive(&mut self) -> Result<Ast, String> {
        let mut lhs = self.mult()?;
        loop {
            let op = match self.peek() {
                Some(Tok::Punct("+")) => BinOp::Add,
                Some(Tok::Punct("-")) => BinOp::Sub,
                _ => return Ok(lhs),
            };
            self.i += 1;
            let rhs = self.mult()?;
            lhs = Ast::Bin(op, b(lhs), b(rhs));
        }
    }

    fn mult(&mut self) -> Result<Ast, String> {
        let mut lhs = self.unary()?;
        loop {
            let op = match self.peek() {
                Some(Tok::Punct("*")) => BinOp::Mul,
                Some(Tok::Punct("/")) => BinOp::Div,
                Some(Tok::Punct("%")) => BinOp::Mod,
                _ => return Ok(lhs),
            };
            self.i += 1;
            let rhs = self.unary()?;
            lhs = Ast::Bin(op, b(lhs), b(rhs));
        }
    }

    fn unary(&mut self) -> Result<Ast, String> {
        if self.is("-") {
            self.i += 1;
            let e = self.unary()?;
            return Ok(Ast::Neg(b(e)));
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Result<Ast, String> {
        let mut t = self.term()?;
        loop {
            match self.peek() {
                Some(Tok::Field(f)) => {
                    let f = f.clone();
                    self.i += 1;
                    t = Ast::Index(b(t), b(Ast::Lit(Value::str(&f))));
                }
                Some(Tok::Punct(".")) => match self.t.get(self.i + 1).map(|x| &x.0) {
                    Some(Tok::Str(_)) => {
                        self.i += 1;
                        let s = self.term()?;
                        t = Ast::Index(b(t), b(s));
                    }
                    Some(Tok::Punct("[")) => {
                        self.i += 1;
                    }
                    _ => return Err(self.unexpected()),
                },
                Some(Tok::Punct("[")) => {
                    self.i += 1;
                    if self.is("]") {
                        self.i += 1;
                        t = Ast::Iterate(b(t));
                        continue;
                    }
                    if self.is(":") {
                        self.i += 1;
                        let hi = self.pipe()?;
                        self.expect("]")?;
                        t = Ast::Slice(b(t), None, Some(b(hi)));
                        continue;
                    }
                    let e = self.pipe()?;
                    if self.is(":") {
                        self.i += 1;
                        if self.is("]") {
                            self.i += 1;
                            t = Ast::Slice(b(t), Some(b(e)), None);
                            continue;
                        }
                        let hi = self.pipe()?;
                        self.expect("]")?;
                        t = Ast::Slice(b(t), Some(b(e)), Some(b(hi)));
                        continue;
                    }
                    self.expect("]")?;
                    t = Ast::Index(b(t), b(e));
                }
                Some(Tok::Punct("?")) => {
                    self.i += 1;
                    t = Ast::Try(b(t), None);
                }
                Some(Tok::Kw("as")) => {
                    self.i += 1;
                    let mut pats = vec![self.pattern()?];
                    while self.is("?//") {
                        self.i += 1;
                        pats.push(self.pattern()?);
                    }
                    self.expect("|")?;
                    let body = self.pipe()?;
                    return Ok(Ast::As(b(t), pats, b(body)));
                }
                _ => return Ok(t),
            }
        }
    }

    fn pattern(&mut self) -> Result<Pattern, String> {
        match self.peek().cloned() {
            Some(Tok::Var(v)) => {
                self.i += 1;
                Ok(Pattern::Var(v.into()))
            }
            Some(Tok::Punct("[")) => {
                self.i += 1;
                let mut v = Vec::new();
                if self.is("]") {
                    return Err(self.unexpected());
                }
                loop {
                    v.push(self.pattern()?);
                    if self.is(",") {
                        self.i += 1;
                        continue;
                    }
                    self.expect("]")?;
                    break;
                }
                Ok(Pattern::Arr(v))
            }
            Some(Tok::Punct("{")) => {
                self.i += 1;
                let mut v = Vec::new();
                loop {
                    let key = match self.peek().cloned() {
                        Some(Tok::Var(n)) => {
                            self.i += 1;
                            ObjPatKey::Var(n.into())
                        }
                        Some(Tok::Ident(n)) => {
                            self.i += 1;
                            ObjPatKey::Expr(Ast::Lit(Value::str(&n)))
                        }
                        Some(Tok::Kw(n)) => {
                            self.i += 1;
                            ObjPatKey::Expr(Ast::Lit(Value::str(n)))
                        }
                        Some(Tok::Str(_)) => ObjPatKey::Expr(self.term()?),
                        Some(Tok::Punct("(")) => {
                            self.i += 1;
                            let e = self.pipe()?;
                            self.expect(")")?;
                            ObjPatKey::Expr(e)
                        }
                        _ => return Err(self.unexpected()),
                    };
                    let sub = if self.is(":") {
                        self.i += 1;
                        Some(self.pattern()?)
                    } else {
                        if !matches!(key, ObjPatKey::Var(_)) {
                            return Err(self.unexpected());
                        }
                        None
                    };
                    v.push((key, sub));
                    if self.is(",") {
                        self.i += 1;
                        continue;
                    }
                    self.expect("}")?;
                    break;
                }
                Ok(Pattern::Obj(v))
            }
            _ => Err(self.unexpected()),
        }
    }

    fn str_parts(&mut self, parts: Vec<SPart>) -> Result<Vec<StrPart>, String> {
        let mut out = Vec::new();
        for p in parts {
            match p {
                SPart::Lit(s) => out.push(StrPart::Lit(s)),
                SPart::Interp(toks) => {
                    let mut sub = Parser {
                        t: toks,
                        i: 0,
                        src: self.src,
                    };
                    let e = sub.pipe()?;
                    if sub.i < sub.t.len() {
                        return Err(sub.unexpected());
                    }
                    out.push(StrPart::Interp(e));
                }
            }
        }
        Ok(out)
    }

    fn string_ast(&mut self, parts: Vec<SPart>, fmt: Option<Rc<str>>) -> Result<Ast, String> {
        let parts = self.str_parts(parts)?;
        if parts.len() == 1 {
            if let StrPart::Lit(s) = &parts[0] {
                return Ok(Ast::Lit(Value::str(s)));
            }
        }
        Ok(Ast::Str(parts, fmt))
    }

    fn term(&mut self) -> Result<Ast, String> {
        let (tok, pos) = match self.t.get(self.i) {
            Some(t) => t.clone(),
            None => return Err(self.unexpected()),
        };
        self.i += 1;
        match tok {
            Tok::Num(n) => Ok(Ast::Lit(Value::Num(n))),
            Tok::Str(parts) => self.string_ast(parts, None),
            Tok::Format(f) => {
                if let Some(Tok::Str(parts)) = self.peek().cloned() {
                    self.i += 1;
                    return self
                        .string_ast(parts, Some(f.as_str().into()))
                        .map(|a| match a {
                            Ast::Lit(v) => Ast::Str(
                                vec![StrPart::Lit(match v {
                                    Value::Str(s) => s.to_string(),
                                    _ => String::new(),
                                })],
                                None,
                            ),
                            other => other,
                        });
                }
                Ok(Ast::Format(f.into()))
            }
            Tok::Field(f) => Ok(Ast::Index(b(Ast::Identity), b(Ast::Lit(Value::str(&f))))),
            Tok::Var(v) => {
                if v == "__loc__" {
                    return Ok(Ast::Loc(self.line_of(pos)));
                }
                Ok(Ast::Var(v.into()))
            }
            Tok::Punct(".") => {
                if let Some(Tok::Str(parts)) = self.peek().cloned() {
                    self.i += 1;
                    let k = self.string_ast(parts, None)?;
                    return Ok(Ast::Index(b(Ast::Identity), b(k)));
                }
                Ok(Ast::Identity)
            }
            Tok::Punct("..") => Ok(Ast::RecurseAll),
            Tok::Punct("(") => {
                let e = self.pipe()?;
                self.expect(")")?;
                Ok(e)
            }
            Tok::Punct("[") => {
                if self.is("]") {
                    self.i += 1;
                    return Ok(Ast::Array(None));
                }
                let e = self.pipe()?;
                self.expect("]")?;
                Ok(Ast::Array(Some(b(e))))
            }
            Tok::Punct("{") => self.object(),
            Tok::Punct("-") => {
                let e = self.postfix()?;
                Ok(Ast::Neg(b(e)))
            }
            Tok::Kw("if") => {
                let mut arms = Vec::new();
                let c = self.pipe()?;
                self.expect_kw("then")?;
                let t = self.pipe()?;
                arms.push((c, t));
                loop {
                    if self.is_kw("elif") {
                        self.i += 1;
                        let c = self.pipe()?;
                        self.expect_kw("then")?;
                        let t = self.pipe()?;
                        arms.push((c, t));
                        continue;
                    }
                    if self.is_kw("else") {
                        self.i += 1;
                        let e = self.pipe()?;
                        self.expect_kw("end")?;
                        return Ok(Ast::If(arms, Some(b(e))));
                    }
                    self.expect_kw("end")?;
                    return Ok(Ast::If(arms, None));
                }
            }
            Tok::Kw("try") => {
                let body = self.postfix_noas()?;
                if self.is_kw("catch") {
                    self.i += 1;
                    let h = self.postfix_noas()?;
                    return Ok(Ast::Try(b(body), Some(b(h))));
                }
                Ok(Ast::Try(b(body), None))
            }
            Tok::Kw("reduce") | Tok::Kw("foreach") => {
                let is_reduce = tok == Tok::Kw("reduce");
                let src = self.postfix_noas()?;
                self.expect_kw("as")?;
                let mut pats = vec![self.pattern()?];
                while self.is("?//") {
                    self.i += 1;
                    pats.push(self.pattern()?);
                }
                self.expect("(")?;
                let init = self.pipe()?;
                self.expect(";")?;
                let upd = self.pipe()?;
                if is_reduce {
                    self.expect(")")?;
                    return Ok(Ast::Reduce(b(src), pats, b(init), b(upd)));
                }
                let mut ext = None;
                if self.is(";") {
                    self.i += 1;
                    ext = Some(b(self.pipe()?));
                }
                self.expect(")")?;
                Ok(Ast::Foreach(b(src), pats, b(init), b(upd), ext))
            }
            Tok::Kw("def") => {
                self.i -= 1;
                let d = self.def()?;
                let rest = self.pipe()?;
                Ok(Ast::Def(d, b(rest)))
            }
            Tok::Kw("label") => {
                self.i -= 1;
                self.pipe()
            }
            Tok::Ident(name) => {
                match name.as_str() {
                    "null" => return Ok(Ast::Lit(Value::Null)),
                    "true" => return Ok(Ast::Lit(Value::Bool(true))),
                    "false" => return Ok(Ast::Lit(Value::Bool(false))),
                    _ => {}
                }
                if name == "break" {
                    if let Some(Tok::Var(v)) = self.peek().cloned() {
                        self.i += 1;
                        return Ok(Ast::Break(v.into()));
                    }
                }
                let mut args = Vec::new();
                if self.is("(") {
                    self.i += 1;
                    loop {
                        args.push(self.pipe()?);
                        if self.is(";") {
                            self.i += 1;
                            continue;
                        }
                        self.expect(")")?;
                        break;
                    }
                }
                Ok(Ast::Call(name.into(), args))
            }
            _ => {
                self.i -= 1;
                Err(self.unexpected())
            }
        }
    }

    /// A postfix term that does not swallow a following `as` (for
    /// `reduce`/`foreach` sources and `try` bodies).
    fn postfix_noas(&mut self) -> Result<Ast, String> {
        let mut t = self.term()?;
        loop {
            match self.peek() {
                Some(Tok::Field(_))
                | Some(Tok::Punct("["))
                | Some(Tok::Punct("?"))
                | Some(Tok::Punct(".")) => {
                    // Reuse the general postfix loop on a synthetic base.
                    let save_t = std::mem::replace(&mut t, Ast::Identity);
                    let mut one = self.postfix_step(save_t)?;
                    std::mem::swap(&mut t, &mut one);
                }
                _ => return Ok(t),
            }
        }
    }

    fn postfix_step(&mut self, t: Ast) -> Result<Ast, String> {
        match self.peek().cloned() {
            Some(Tok::Field(f)) => {
                self.i += 1;
                Ok(Ast::Index(b(t), b(Ast::Lit(Value::str(&f)))))
            }
            Some(Tok::Punct("?")) => {
                self.i += 1;
                Ok(Ast::Try(b(t), None))
            }
            Some(Tok::Punct(".")) => {
                self.i += 1;
                if let Some(Tok::Str(parts)) = self.peek().cloned() {
                    self.i += 1;
                    let k = self.string_ast(parts, None)?;
                    return Ok(Ast::Index(b(t), b(k)));
                }
                if self.is("[") {
                    return self.postfix_step(t);
                }
                Err(self.unexpected())
            }
            Some(Tok::Punct("[")) => {
                self.i += 1;
                if self.is("]") {
                    self.i += 1;
                    return Ok(Ast::Iterate(b(t)));
                }
                if self.is(":") {
                    self.i += 1;
                    let hi = self.pipe()?;
                    self.expect("]")?;
                    return Ok(Ast::Slice(b(t), None, Some(b(hi))));
                }
                let e = self.pipe()?;
                if self.is(":") {
                    self.i += 1;
                    if self.is("]") {
                        self.i += 1;
                        return Ok(Ast::Slice(b(t), Some(b(e)), None));
                    }
                    let hi = self.pipe()?;
                    self.expect("]")?;
                    return Ok(Ast::Slice(b(t), Some(b(e)), Some(b(hi))));
                }
                self.expect("]")?;
                Ok(Ast::Index(b(t), b(e)))
            }
            _ => Ok(t),
        }
    }

    fn object(&mut self) -> Result<Ast, String> {
        let mut entries = Vec::new();
        if self.is("}") {
            self.i += 1;
            return Ok(Ast::Lit(Value::obj(Map::new())));
        }
        loop {
            let (tok, pos) = match self.t.get(self.i) {
                Some(t) => t.clone(),
                None => return Err(self.unexpected()),
            };
            let (key, default_val): (Ast, Option<Ast>) = match tok {
                Tok::Ident(n) => {
                    self.i += 1;
                    (
                        Ast::Lit(Value::str(&n)),
                        Some(Ast::Index(b(Ast::Identity), b(Ast::Lit(Value::str(&n))))),
                    )
                }
                Tok::Kw(k) => {
                    self.i += 1;
                    (
                        Ast::Lit(Value::str(k)),
                        Some(Ast::Index(b(Ast::Identity), b(Ast::Lit(Value::str(k))))),
                    )
                }
                Tok::Var(v) => {
                    self.i += 1;
                    if v == "__loc__" {
                        (
                            Ast::Lit(Value::str("__loc__")),
                            Some(Ast::Loc(self.line_of(pos))),
                        )
                    } else {
                        (Ast::Lit(Value::str(&v)), Some(Ast::Var(v.as_str().into())))
                    }
                }
                Tok::Num(n) => {
                    self.i += 1;
                    (Ast::Lit(Value::Num(n)), None)
                }
                Tok::Str(_) | Tok::Format(_) => {
                    let k = self.term()?;
                    let dv = Ast::Index(b(Ast::Identity), b(k.clone()));
                    (k, Some(dv))
                }
                Tok::Punct("(") => {
                    self.i += 1;
                    let e = self.pipe()?;
                    self.expect(")")?;
                    (e, None)
                }
                _ => return Err(self.unexpected()),
            };
            let value = if self.is(":") {
                self.i += 1;
                self.objval()?
            } else {
                match default_val {
                    Some(v) => v,
                    None => return Err(self.unexpected()),
                }
            };
            entries.push(ObjEntry { key, value });
            if self.is(",") {
                self.i += 1;
                continue;
            }
            self.expect("}")?;
            break;
        }
        Ok(Ast::Object(entries))
    }

    /// Object values: a pipe without top-level commas.
    fn objval(&mut self) -> Result<Ast, String> {
        let lhs = self.alt()?;
        if self.is("|") {
            self.i += 1;
            let rhs = self.objval()?;
            return Ok(Ast::Pipe(b(lhs), b(rhs)));
        }
        Ok(lhs)
    }
}

#[cfg(test)]
mod tests {
    use super::parse_program;

    #[test]
    fn parses_common_programs() {
        for p in [
            ".",
            ".a.b[0]",
            ".[] | select(.x > 1) | {name, id: .id}",
            "reduce .[] as $x (0; . + $x)",
            "def f(g; $n): g * $n; f(.; 2)",
            "\"a\\(.x + 1)b\"",
            "@base64 \"x\\(.)\"",
            ". as [$a, {b: $c}] | $a",
            "try error(\"x\") catch .",
            "if . then 1 elif . == 2 then 2 else 3 end",
            ".a |= . + 1",
            "label $out | foreach .[] as $i (0; . + $i; if . > 3 then ., break $out else empty end)",
            ".[2:4], .[:-1], .[1:]",
            "{(.k): .v, \"x\": 1, $__loc__}",
            "-1 - -2",
        ] {
            assert!(parse_program(p).is_ok(), "{}", p);
        }
        assert!(parse_program(".a |").is_err());
        assert!(parse_program("if . then 1").is_err());
    }
}
