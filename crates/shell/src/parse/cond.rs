//! Parser for `[[ ... ]]` conditional expressions.

use super::{PResult, Parser, SyntaxError};
use crate::ast::*;

enum CTok {
    And,
    Or,
    Not,
    LParen,
    RParen,
    End,
    Word(Word, Bytes),
    /// The end of the input, with the line the last token was on.
    Eof(u32),
}

impl CTok {
    /// How bash names the token in a message (None for a plain word where
    /// bash names none).
    fn text(&self) -> Option<String> {
        Some(
            match self {
                CTok::And => "&&",
                CTok::Or => "||",
                CTok::Not => "!",
                CTok::LParen => "(",
                CTok::RParen => ")",
                CTok::End => "]]",
                CTok::Eof(_) => "newline",
                CTok::Word(..) => return None,
            }
            .into(),
        )
    }
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
            CTok::Eof(_) => Err(self.cond_eof_err("unexpected EOF while looking for `]]'")),
            t => Err(self.cond_err(match t.text() {
                Some(x) => format!(
                    "syntax error in conditional expression: unexpected token `{}'",
                    x
                ),
                None => "syntax error in conditional expression".into(),
            })),
        }
    }

    /// A `[[ ]]` syntax error before the end of input (see keep_status).
    fn cond_err(&self, msg: String) -> SyntaxError {
        SyntaxError {
            keep_status: true,
            status: None,
            ..self.err(msg)
        }
    }

    /// A `[[ ]]` syntax error at the end of input.
    fn cond_eof_err(&self, msg: &str) -> SyntaxError {
        SyntaxError {
            eof: true,
            ..self.err(msg.into())
        }
    }

    /// The error for token `t` where an operand or operator was expected:
    /// `what` is bash's text around the token's name.
    fn cond_tok_err(&self, t: &CTok, what: impl Fn(Option<String>) -> String) -> SyntaxError {
        match t {
            CTok::Eof(line) => SyntaxError {
                line: *line,
                ..self.cond_eof_err(&what(t.text()))
            },
            _ => self.cond_err(what(t.text())),
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
        let line = self.line;
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
            CTok::Eof(line)
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
                return Err(self.cond_err(format!(
                    "unexpected token `{}' in conditional command",
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
                let e = self.cond_or().map_err(|mut e| {
                    // bash reports the inner error, then the missing `)`
                    if e.also.is_none() {
                        e.also = Some("expected `)'".into());
                    }
                    e
                })?;
                match self.cond_tok()? {
                    CTok::RParen => Ok(CondExpr::Group(Box::new(e))),
                    CTok::Eof(_) => Err(self.cond_eof_err("expected `)'")),
                    t => Err(self.cond_err(match t.text() {
                        Some(x) => format!("unexpected token `{}', expected `)'", x),
                        None => "expected `)'".into(),
                    })),
                }
            }
            CTok::Word(w, raw) => {
                let s = String::from_utf8_lossy(&raw).into_owned();
                if UNARY.contains(&s.as_str()) {
                    return match self.cond_tok()? {
                        CTok::Word(a, _) => Ok(CondExpr::Unary(raw, a)),
                        t => Err(self.cond_tok_err(&t, |x| match x {
                            Some(x) => {
                                format!("unexpected argument `{}' to conditional unary operator", x)
                            }
                            None => "unexpected argument to conditional unary operator".into(),
                        })),
                    };
                }
                let m = self.mark();
                match self.cond_tok()? {
                    CTok::Word(_, opraw) if BINARY.contains(&&*String::from_utf8_lossy(&opraw)) => {
                        let binary_arg_err = |x: Option<String>| match x {
                            Some(x) => {
                                format!(
                                    "unexpected argument `{}' to conditional binary operator",
                                    x
                                )
                            }
                            None => "unexpected argument to conditional binary operator".into(),
                        };
                        let next = self.cond_peek()?;
                        let operand = matches!(next, CTok::Word(..))
                            || (opraw == b"=~" && matches!(next, CTok::LParen));
                        if !operand {
                            return Err(self.cond_tok_err(&next, binary_arg_err));
                        }
                        if opraw == b"=~" {
                            let rhs = self.regex_word()?;
                            return Ok(CondExpr::Binary(opraw, w, rhs));
                        }
                        match self.cond_tok()? {
                            CTok::Word(r, _) => Ok(CondExpr::Binary(opraw, w, r)),
                            t => Err(self.cond_tok_err(&t, binary_arg_err)),
                        }
                    }
                    CTok::End | CTok::And | CTok::Or | CTok::RParen => {
                        // `[[ x ]]` is `[[ -n x ]]`
                        self.reset(m);
                        Ok(CondExpr::Word(w))
                    }
                    t => Err(self.cond_tok_err(&t, |x| match x {
                        Some(x) => format!(
                            "unexpected token `{}', conditional binary operator expected",
                            x
                        ),
                        None => "conditional binary operator expected".into(),
                    })),
                }
            }
            // `[[ ]]`, `[[ a && ]]`: bash stops without a message
            CTok::End => Err(self.cond_err(String::new())),
            CTok::Eof(_) => Err(self.cond_eof_err("unexpected token `EOF' in conditional command")),
            t => Err(self.cond_err(format!(
                "unexpected token `{}' in conditional command",
                t.text().unwrap_or_default()
            ))),
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
