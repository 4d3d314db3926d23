//! Parser for arithmetic expressions (`$(( ))`, `(( ))`, `let`, subscripts),
//! with C precedence and bash's numeric literals (`0x1f`, `017`, `base#digits`).

use crate::ast::Arith;

/// An arithmetic syntax error: message and the remaining text (bash's "error token").
#[derive(Debug, Clone)]
pub struct ArithError {
    pub msg: String,
    pub token: Vec<u8>,
}

struct P<'a> {
    s: &'a [u8],
    i: usize,
    /// Start of the last operator read (bash's error token for a missing operand).
    op: usize,
    /// Start of the last operand read (the error token of a missing `:`).
    operand: usize,
    /// Current nesting of unary operators and parentheses.
    depth: usize,
}

/// Deepest nesting of parentheses and unary operators accepted: beyond it the
/// expression is refused (bash's "expression recursion level exceeded")
/// rather than running the engine out of stack.
pub const MAX_ARITH_DEPTH: usize = 1024;

pub fn parse_arith(s: &[u8]) -> Result<Arith, ArithError> {
    let mut p = P {
        s,
        i: 0,
        op: 0,
        operand: 0,
        depth: 0,
    };
    p.ws();
    if p.i >= s.len() {
        return Ok(Arith::Num(0));
    }
    let e = p.comma()?;
    p.ws();
    if p.i < s.len() {
        if s[p.i] == b'.' {
            // `1.5`: bash has no floating point
            return Err(p.error("syntax error: invalid arithmetic operator"));
        }
        return Err(p.error("syntax error in expression"));
    }
    Ok(e)
}

const ASSIGN_OPS: &[&str] = &[
    "<<=", ">>=", "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "=",
];

fn b(e: Arith) -> Box<Arith> {
    Box::new(e)
}

impl<'a> P<'a> {
    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }
    fn error(&self, msg: &str) -> ArithError {
        ArithError {
            msg: msg.to_string(),
            token: self.s[self.i.min(self.s.len())..].to_vec(),
        }
    }
    fn at(&mut self, op: &str) -> bool {
        self.ws();
        self.s[self.i..].starts_with(op.as_bytes())
    }
    fn eat(&mut self, op: &str) -> bool {
        if self.at(op) {
            self.op = self.i;
            self.i += op.len();
            true
        } else {
            false
        }
    }

    fn comma(&mut self) -> Result<Arith, ArithError> {
        let mut l = self.assign()?;
        while self.eat(",") {
            let r = self.assign()?;
            l = Arith::Comma(b(l), b(r));
        }
        Ok(l)
    }

    fn assign(&mut self) -> Result<Arith, ArithError> {
        let save = self.i;
        let l = self.ternary()?;
        if let Arith::Var(..) = l {
            self.ws();
            for op in ASSIGN_OPS {
                if self.s[self.i..].starts_with(op.as_bytes()) {
                    if *op == "=" && self.s.get(self.i + 1) == Some(&b'=') {
                        break;
                    }
                    self.op = self.i;
                    self.i += op.len();
                    let r = self.assign()?;
                    return Ok(Arith::Assign(op, b(l), b(r)));
                }
            }
        } else {
            self.ws();
            let rest = &self.s[self.i..];
            if ASSIGN_OPS.iter().any(|op| rest.starts_with(op.as_bytes()))
                && !rest.starts_with(b"==")
            {
                return Err(self.error("attempted assignment to non-variable"));
            }
        }
        let _ = save;
        Ok(l)
    }

    /// bash's check for a missing branch of `?:`: at the end of the text the
    /// error token is the operator `at`, before a `:` it is the rest.
    fn branch_expected(&mut self, at: usize) -> Result<(), ArithError> {
        self.ws();
        let from = match self.s.get(self.i) {
            None => at,
            Some(b':') => self.i,
            Some(_) => return Ok(()),
        };
        Err(ArithError {
            msg: "expression expected".into(),
            token: self.s[from.min(self.s.len())..].to_vec(),
        })
    }

    fn ternary(&mut self) -> Result<Arith, ArithError> {
        let c = self.binary(0)?;
        self.ws();
        let q = self.i;
        if self.eat("?") {
            self.branch_expected(q)?;
            let t = self.comma()?;
            self.ws();
            let colon = self.i;
            if !self.eat(":") {
                return Err(ArithError {
                    msg: "`:' expected for conditional expression".into(),
                    token: self.s[self.operand.min(self.s.len())..].to_vec(),
                });
            }
            self.branch_expected(colon)?;
            let f = self.ternary()?;
            return Ok(Arith::Cond(b(c), b(t), b(f)));
        }
        Ok(c)
    }

    /// Binary operators by precedence climbing: one stack frame per operator
    /// taken, not one per precedence level (parentheses nest cheaply).
    fn binary(&mut self, min: usize) -> Result<Arith, ArithError> {
        let mut l = self.power()?;
        loop {
            self.ws();
            let (op, level) = match self.binary_op() {
                Some(x) if x.1 >= min => x,
                _ => return Ok(l),
            };
            self.op = self.i;
            self.i += op.len();
            let r = self.binary(level + 1)?;
            l = Arith::Bin(op, b(l), b(r));
        }
    }

    /// The binary operator at the cursor and its precedence level (0 binds loosest).
    fn binary_op(&self) -> Option<(&'static str, usize)> {
        const LEVELS: &[&[&str]] = &[
            &["||"],
            &["&&"],
            &["|"],
            &["^"],
            &["&"],
            &["==", "!="],
            &["<=", ">=", "<", ">"],
            &["<<", ">>"],
            &["+", "-"],
            &["*", "/", "%"],
        ];
        let rest = &self.s[self.i..];
        for (level, ops) in LEVELS.iter().enumerate() {
            for op in ops.iter() {
                if !rest.starts_with(op.as_bytes()) {
                    continue;
                }
                let next = rest.get(op.len()).copied();
                // do not take `|` of `||`, `&` of `&&`, `<` of `<<`, an assignment `+=`, ...
                let longer = match *op {
                    "|" => next == Some(b'|') || next == Some(b'='),
                    "&" => next == Some(b'&') || next == Some(b'='),
                    "<" | ">" => next == Some(b'<') || next == Some(b'>') || next == Some(b'='),
                    "<<" | ">>" => next == Some(b'='),
                    // `++`/`--` after an operand is an increment only before
                    // a name (`5++` is `5 +` and a missing operand, as in bash)
                    "+" | "-" => {
                        next == Some(b'=')
                            || (next == Some(op.as_bytes()[0]) && {
                                let after = rest[2..].iter().find(|c| !c.is_ascii_whitespace());
                                after.map_or(false, |c| c.is_ascii_alphabetic() || *c == b'_')
                            })
                    }
                    "*" => next == Some(b'*') || next == Some(b'='),
                    "/" | "%" | "^" => next == Some(b'='),
                    _ => false,
                };
                if !longer {
                    return Some((op, level));
                }
            }
        }
        None
    }

    fn power(&mut self) -> Result<Arith, ArithError> {
        let l = self.unary()?;
        if self.at("**") && self.s.get(self.i + 2) != Some(&b'=') {
            self.i += 2;
            let r = self.power()?;
            return Ok(Arith::Bin("**", b(l), b(r)));
        }
        Ok(l)
    }

    fn unary(&mut self) -> Result<Arith, ArithError> {
        if self.depth >= MAX_ARITH_DEPTH {
            return Err(self.error("expression recursion level exceeded"));
        }
        self.depth += 1;
        let r = self.unary_inner();
        self.depth -= 1;
        r
    }

    fn unary_inner(&mut self) -> Result<Arith, ArithError> {
        self.ws();
        if self.eat("++") {
            let e = self.unary()?;
            return self.incdec(true, true, e);
        }
        if self.eat("--") {
            let e = self.unary()?;
            return self.incdec(true, false, e);
        }
        for op in [b'!', b'~', b'-', b'+'] {
            if self.s.get(self.i) == Some(&op) {
                self.op = self.i;
                self.i += 1;
                let e = self.unary()?;
                return Ok(Arith::Unary(op, b(e)));
            }
        }
        let e = self.primary()?;
        if let Arith::Var(..) = e {
            if self.eat("++") {
                return Ok(Arith::IncDec(false, true, b(e)));
            }
            if self.eat("--") {
                return Ok(Arith::IncDec(false, false, b(e)));
            }
        }
        Ok(e)
    }

    fn incdec(&self, pre: bool, inc: bool, e: Arith) -> Result<Arith, ArithError> {
        match e {
            Arith::Var(..) => Ok(Arith::IncDec(pre, inc, b(e))),
            // `++5` is two unary pluses in bash
            other => Ok(Arith::Unary(
                if inc { b'+' } else { b'-' },
                b(Arith::Unary(if inc { b'+' } else { b'-' }, b(other))),
            )),
        }
    }

    fn primary(&mut self) -> Result<Arith, ArithError> {
        self.ws();
        self.operand = self.i;
        let c = match self.s.get(self.i) {
            Some(c) => *c,
            None => {
                return Err(ArithError {
                    msg: "syntax error: operand expected".into(),
                    token: self.s[self.op.min(self.s.len())..].to_vec(),
                })
            }
        };
        if c == b'(' {
            self.i += 1;
            let e = self.comma()?;
            if !self.eat(")") {
                return Err(self.error("missing `)'"));
            }
            return Ok(e);
        }
        if c.is_ascii_digit() {
            let s = self.i;
            while self.i < self.s.len()
                && (self.s[self.i].is_ascii_alphanumeric()
                    || matches!(self.s[self.i], b'#' | b'@' | b'_'))
            {
                self.i += 1;
            }
            let text = &self.s[s..self.i];
            return match parse_number(text) {
                Ok(n) => Ok(Arith::Num(n)),
                Err(m) => Err(ArithError {
                    msg: m.to_string(),
                    token: text.to_vec(),
                }),
            };
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let s = self.i;
            while self.i < self.s.len()
                && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'_')
            {
                self.i += 1;
            }
            let name = self.s[s..self.i].to_vec();
            let mut sub = None;
            if self.s.get(self.i) == Some(&b'[') {
                if !closes_bracket(&self.s[self.i..]) {
                    return Err(ArithError {
                        msg: "bad array subscript".into(),
                        token: self.s[s..].to_vec(),
                    });
                }
                self.i += 1;
                let e = self.comma()?;
                if !self.eat("]") {
                    return Err(self.error("syntax error: invalid arithmetic operator"));
                }
                sub = Some(b(e));
            }
            return Ok(Arith::Var(name, sub));
        }
        Err(self.error("syntax error: operand expected"))
    }
}

/// Whether the `[` that `s` starts with has its `]`.
fn closes_bracket(s: &[u8]) -> bool {
    let mut depth = 0usize;
    for &c in s {
        match c {
            b'[' => depth += 1,
            b']' => {
                depth -= 1;
                if depth == 0 {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// A number in bash syntax: decimal, `0x` hex, leading-0 octal, `base#digits`.
pub fn parse_number(t: &[u8]) -> Result<i64, &'static str> {
    if let Some(h) = t.iter().position(|&c| c == b'#') {
        let base: u32 = std::str::from_utf8(&t[..h])
            .ok()
            .and_then(|s| s.parse().ok())
            .ok_or("invalid number")?;
        if !(2..=64).contains(&base) {
            return Err("invalid arithmetic base");
        }
        let mut v: i64 = 0;
        if h + 1 >= t.len() {
            return Err("invalid integer constant");
        }
        for &c in &t[h + 1..] {
            let d = match c {
                b'0'..=b'9' => (c - b'0') as u32,
                b'a'..=b'z' => (c - b'a') as u32 + 10,
                b'A'..=b'Z' => {
                    if base <= 36 {
                        (c - b'A') as u32 + 10
                    } else {
                        (c - b'A') as u32 + 36
                    }
                }
                b'@' => 62,
                b'_' => 63,
                _ => return Err("invalid number"),
            };
            if d >= base {
                return Err("value too great for base");
            }
            v = v.wrapping_mul(base as i64).wrapping_add(d as i64);
        }
        return Ok(v);
    }
    if t.len() >= 2 && t[0] == b'0' && (t[1] == b'x' || t[1] == b'X') {
        // a bare `0x` is 0 in bash
        let mut v: i64 = 0;
        for &c in &t[2..] {
            let d = (c as char).to_digit(16).ok_or("value too great for base")?;
            v = v.wrapping_mul(16).wrapping_add(d as i64);
        }
        return Ok(v);
    }
    if t.len() > 1 && t[0] == b'0' {
        let mut v: i64 = 0;
        for &c in &t[1..] {
            let d = (c as char).to_digit(8).ok_or("value too great for base")?;
            v = v.wrapping_mul(8).wrapping_add(d as i64);
        }
        return Ok(v);
    }
    let mut v: i64 = 0;
    for &c in t {
        if !c.is_ascii_digit() {
            return Err("value too great for base");
        }
        v = v.wrapping_mul(10).wrapping_add((c - b'0') as i64);
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(parse_number(b"0x1f").unwrap(), 31);
        assert_eq!(parse_number(b"017").unwrap(), 15);
        assert_eq!(parse_number(b"2#101").unwrap(), 5);
        assert_eq!(parse_number(b"64#_").unwrap(), 63);
        assert!(parse_number(b"08").is_err());
    }

    #[test]
    fn precedence_parses() {
        assert!(matches!(
            parse_arith(b"1 + 2 * 3").unwrap(),
            Arith::Bin("+", _, _)
        ));
        assert!(matches!(
            parse_arith(b"x += 2").unwrap(),
            Arith::Assign("+=", _, _)
        ));
        assert!(matches!(
            parse_arith(b"a ? b : c").unwrap(),
            Arith::Cond(..)
        ));
        assert!(parse_arith(b"2 +").is_err());
    }
}
