//! bc's tokens, read on demand from the program text so `quit` can stop
//! the program before the rest of the input is even looked at.

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Number(String),
    Ident(String),
    Str(String),
    /// Operators and punctuation, as written.
    Op(&'static str),
    Newline,
    Eof,
    /// A character bc does not know (reported, then skipped).
    Illegal(char),
}

pub struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    pub line: usize,
}

const OPS: &[&str] = &[
    "++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "==", "!=", "<=", ">=", "&&", "||", "+", "-",
    "*", "/", "%", "^", "=", "<", ">", "!", "(", ")", "[", "]", "{", "}", ",", ";",
];

impl<'a> Lexer<'a> {
    pub fn new(src: &'a [u8]) -> Lexer<'a> {
        Lexer {
            src,
            pos: 0,
            line: 1,
        }
    }

    fn peek_at(&self, off: usize) -> Option<u8> {
        self.src.get(self.pos + off).copied()
    }

    /// Skips blanks, comments and backslash-newline continuations.
    fn skip_space(&mut self) -> Result<(), String> {
        loop {
            match self.peek_at(0) {
                Some(b' ') | Some(b'\t') => self.pos += 1,
                Some(b'\\') if self.peek_at(1) == Some(b'\n') => {
                    self.pos += 2;
                    self.line += 1;
                }
                Some(b'#') => {
                    while let Some(c) = self.peek_at(0) {
                        if c == b'\n' {
                            break;
                        }
                        self.pos += 1;
                    }
                }
                Some(b'/') if self.peek_at(1) == Some(b'*') => {
                    self.pos += 2;
                    loop {
                        match self.peek_at(0) {
                            None => return Err("EOF encountered in a comment.".into()),
                            Some(b'*') if self.peek_at(1) == Some(b'/') => {
                                self.pos += 2;
                                break;
                            }
                            Some(c) => {
                                if c == b'\n' {
                                    self.line += 1;
                                }
                                self.pos += 1;
                            }
                        }
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    /// A short look at the raw text after the current token.
    pub fn rest(&self) -> String {
        let end = (self.pos + 64).min(self.src.len());
        String::from_utf8_lossy(&self.src[self.pos..end]).into_owned()
    }

    /// The next token; `Err` carries a fatal lexical message (no line prefix).
    pub fn next_tok(&mut self) -> Result<Tok, String> {
        self.skip_space()?;
        let c = match self.peek_at(0) {
            None => return Ok(Tok::Eof),
            Some(c) => c,
        };
        if c == b'\n' {
            self.pos += 1;
            self.line += 1;
            return Ok(Tok::Newline);
        }
        let is_digit = |c: u8| c.is_ascii_digit() || c.is_ascii_uppercase();
        if is_digit(c) || (c == b'.' && self.peek_at(1).map_or(false, is_digit)) {
            let mut s = String::new();
            let mut seen_dot = false;
            loop {
                match self.peek_at(0) {
                    Some(d) if is_digit(d) => {
                        s.push(d as char);
                        self.pos += 1;
                    }
                    Some(b'.') if !seen_dot => {
                        seen_dot = true;
                        s.push('.');
                        self.pos += 1;
                    }
                    Some(b'\\') if self.peek_at(1) == Some(b'\n') => {
                        self.pos += 2;
                        self.line += 1;
                    }
                    _ => break,
                }
            }
            return Ok(Tok::Number(s));
        }
        if c == b'.' {
            self.pos += 1;
            return Ok(Tok::Ident("last".into()));
        }
        if c.is_ascii_lowercase() {
            let start = self.pos;
            while let Some(d) = self.peek_at(0) {
                if d.is_ascii_lowercase() || d.is_ascii_digit() || d == b'_' {
                    self.pos += 1;
                } else {
                    break;
                }
            }
            let word = String::from_utf8_lossy(&self.src[start..self.pos]).into_owned();
            return Ok(Tok::Ident(word));
        }
        if c == b'"' {
            let start = self.pos + 1;
            let mut i = start;
            let mut lines = 0;
            while i < self.src.len() && self.src[i] != b'"' {
                if self.src[i] == b'\n' {
                    lines += 1;
                }
                i += 1;
            }
            if i >= self.src.len() {
                self.pos += 1;
                return Ok(Tok::Illegal('"'));
            }
            self.pos = i + 1;
            self.line += lines;
            return Ok(Tok::Str(
                String::from_utf8_lossy(&self.src[start..i]).into_owned(),
            ));
        }
        for op in OPS {
            if self.src[self.pos..].starts_with(op.as_bytes()) {
                self.pos += op.len();
                return Ok(Tok::Op(op));
            }
        }
        // One (possibly multi-byte) character that bc does not know.
        let rest = String::from_utf8_lossy(&self.src[self.pos..(self.pos + 4).min(self.src.len())])
            .into_owned();
        let ch = rest.chars().next().unwrap_or('?');
        self.pos += ch.len_utf8().max(1).min(self.src.len() - self.pos);
        Ok(Tok::Illegal(ch))
    }
}
