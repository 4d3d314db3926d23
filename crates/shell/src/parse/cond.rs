//! Parser for `[[ ... ]]` conditional expressions.

use super::{PResult, Parser};
use crate::ast::*;

enum CTok {
    And,
    Or,
    Not,
    LParen,
    RParen,
    End,
    Word(Word, Bytes),
}

const UNARY: &[&str] = &[
    "-a", "-b", "-c", "-d", "-e", "-f", "-g", "-h", "-k", "-p", "-r", "-s", "-t", "-u", "-w", "-x",
    "-G", "-L", "-N", "-O", "-S", "-z", "-n", "-o", "-v", "-R",
];
const BINARY: &[&str] = &[
    "==", "=", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef", "=~",
];

impl Parser {
    pub(crate) fn cond_command(&mut self) -> PResult<CondExpr> {
        let e = self.cond_or()?;
        match self.cond_tok()? {
            CTok::End => Ok(e),
            CTok::Word(_, raw) => Err(self.err(format!(
                "syntax error in conditional expression: unexpected token `{}'",
                String::from_utf8_lossy(&raw)
            ))),
            _ => Err(self.err("syntax error in conditional expression".into())),
        }
    }

    fn skip_cond_blanks(&mut self) {
        loop {
            self.skip_blanks_pub();
            if self.peek_byte() == Some(b'\n') {
                self.bump();
                continue;
            }
            break;
        }
    }

    fn cond_tok(&mut self) -> PResult<CTok> {
        self.skip_cond_blanks();
        let rest = &self.src[self.pos..];
        let t = if rest.starts_with(b"&&") {
            self.pos += 2;
            CTok::And
        } else if rest.starts_with(b"||") {
            self.pos += 2;
            CTok::Or
        } else if rest.starts_with(b"(") {
            self.pos += 1;
            CTok::LParen
        } else if rest.starts_with(b")") {
            self.pos += 1;
            CTok::RParen
        } else if rest.starts_with(b"<") || rest.starts_with(b">") {
            let c = rest[0];
            self.pos += 1;
            CTok::Word(Word::lit(&[c]), vec![c])
        } else if rest.is_empty() {
            return Err(self.eof_err("]]"));
        } else if (rest.starts_with(b"]]"))
            && rest
                .get(2)
                .map(|c| matches!(c, b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b')'))
                .unwrap_or(true)
        {
            self.pos += 2;
            CTok::End
        } else if rest.starts_with(b"!")
            && rest
                .get(1)
                .map(|c| matches!(c, b' ' | b'\t' | b'\n'))
                .unwrap_or(false)
        {
            self.pos += 1;
            CTok::Not
        } else {
            let (w, raw) = self.read_word()?;
            if raw.is_empty() {
                return Err(self.err(format!(
                    "syntax error in conditional expression: unexpected token `{}'",
                    self.src[self.pos] as char
                )));
            }
            CTok::Word(w, raw)
        };
        Ok(t)
    }

    fn cond_peek(&mut self) -> PResult<CTok> {
        let m = self.mark();
        let t = self.cond_tok();
        self.reset(m);
        t
    }

    fn cond_or(&mut self) -> PResult<CondExpr> {
        let mut l = self.cond_and()?;
        while let CTok::Or = self.cond_peek()? {
            self.cond_tok()?;
            let r = self.cond_and()?;
            l = CondExpr::Or(Box::new(l), Box::new(r));
        }
        Ok(l)
    }

    fn cond_and(&mut self) -> PResult<CondExpr> {
        let mut l = self.cond_not()?;
        while let CTok::And = self.cond_peek()? {
            self.cond_tok()?;
            let r = self.cond_not()?;
            l = CondExpr::And(Box::new(l), Box::new(r));
        }
        Ok(l)
    }

    fn cond_not(&mut self) -> PResult<CondExpr> {
        if let CTok::Not = self.cond_peek()? {
            self.cond_tok()?;
            return Ok(CondExpr::Not(Box::new(self.cond_not()?)));
        }
        self.cond_primary()
    }

    fn cond_primary(&mut self) -> PResult<CondExpr> {
        match self.cond_tok()? {
            CTok::LParen => {
                let e = self.cond_or()?;
                match self.cond_tok()? {
                    CTok::RParen => Ok(e),
                    _ => {
                        Err(self.err("syntax error in conditional expression: expected `)'".into()))
                    }
                }
            }
            CTok::Word(w, raw) => {
                let s = String::from_utf8_lossy(&raw).into_owned();
                if UNARY.contains(&s.as_str()) {
                    if let CTok::End = self.cond_peek()? {
                        return Err(self
                            .err("unexpected argument `]]' to conditional unary operator".into()));
                    }
                    if let CTok::Word(..) = self.cond_peek()? {
                        if let CTok::Word(a, araw) = self.cond_tok()? {
                            // `-n x == y`? treat a following binary operator as comparing the operator text
                            let _ = araw;
                            return Ok(CondExpr::Unary(raw, a));
                        }
                    }
                }
                let m = self.mark();
                if let CTok::Word(_, opraw) = self.cond_peek()? {
                    let ops = String::from_utf8_lossy(&opraw).into_owned();
                    if BINARY.contains(&ops.as_str()) {
                        self.cond_tok()?;
                        if let CTok::End = self.cond_peek()? {
                            return Err(self.err(
                                "unexpected argument `]]' to conditional binary operator".into(),
                            ));
                        }
                        if ops == "=~" {
                            let rhs = self.regex_word()?;
                            return Ok(CondExpr::Binary(opraw, w, rhs));
                        }
                        return match self.cond_tok()? {
                            CTok::Word(r, _) => Ok(CondExpr::Binary(opraw, w, r)),
                            _ => Err(self.err(format!(
                                "syntax error in conditional expression: unexpected token `{}'",
                                ops
                            ))),
                        };
                    }
                    self.reset(m);
                    if !matches!(self.cond_peek()?, CTok::End) {
                        let t = self.cond_peek()?;
                        if let CTok::Word(_, r) = t {
                            return Err(self.err(format!(
                                "syntax error in conditional expression: unexpected token `{}'",
                                String::from_utf8_lossy(&r)
                            )));
                        }
                    }
                }
                Ok(CondExpr::Word(w))
            }
            CTok::End => Err(self.err("syntax error near `]]'".into())),
            _ => Err(self.err("syntax error in conditional expression".into())),
        }
    }

    /// The right side of `=~`: parentheses and `|` are part of the regex.
    fn regex_word(&mut self) -> PResult<Word> {
        self.skip_cond_blanks();
        let s = self.pos;
        let mut depth = 0i32;
        while let Some(c) = self.peek_byte() {
            match c {
                b'\\' => {
                    self.pos += 2;
                    continue;
                }
                b'\'' => {
                    self.pos += 1;
                    while let Some(c) = self.bump() {
                        if c == b'\'' {
                            break;
                        }
                    }
                    continue;
                }
                b'"' => {
                    self.pos += 1;
                    while let Some(c) = self.bump() {
                        if c == b'\\' {
                            self.pos += 1;
                        } else if c == b'"' {
                            break;
                        }
                    }
                    continue;
                }
                b'(' => depth += 1,
                b')' if depth > 0 => depth -= 1,
                b')' => break,
                b' ' | b'\t' | b'\n' if depth == 0 => break,
                b'&' | b'|' if depth == 0 && self.byte_at(1) == Some(c) => break,
                _ => {}
            }
            self.pos += 1;
        }
        self.pos = self.pos.min(self.src.len());
        let text = self.src[s..self.pos].to_vec();
        self.parse_sub_word(&text)
    }
}
