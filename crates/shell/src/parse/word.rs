//! Word parser: quoting, `$` expansions (`${..}`, `$(..)`, `$((..))`, backquotes),
//! tilde prefixes, process substitution and extended-glob groups inside a word.

use super::{is_name, PResult, Parser, SyntaxError, Tok};
use crate::ast::*;
use std::rc::Rc;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ctx {
    /// An ordinary word: ends at a metacharacter.
    Top,
    /// Inside "..".
    Dq,
    /// The word of a `${x op word}`: ends at `}` (or `/` when `slash`).
    Brace { in_dq: bool, slash: bool },
    /// Here-doc body / arithmetic text: only `$`, backquote and `\` are special.
    Text,
    /// A subscript or assignment value already cut out: quotes work, blanks do not end it.
    Raw { assign: bool },
}

/// `name=` or `name=...:` so far: where bash expands a tilde in an
/// ordinary word that looks like an assignment.
fn assignment_like(lit: &[u8]) -> bool {
    match lit.iter().position(|c| *c == b'=') {
        Some(eq) => {
            crate::parse::is_name(&lit[..eq]) && (eq + 1 == lit.len() || lit.last() == Some(&b':'))
        }
        None => false,
    }
}

fn is_meta(c: u8) -> bool {
    matches!(
        c,
        b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>' | b'(' | b')'
    )
}

fn flush(parts: &mut Vec<WordPart>, lit: &mut Bytes) {
    if !lit.is_empty() {
        parts.push(WordPart::Lit(std::mem::take(lit)));
    }
}

impl Parser {
    pub(crate) fn read_word(&mut self) -> PResult<(Word, Bytes)> {
        let start = self.pos;
        let parts = self.parts(Ctx::Top)?;
        let raw = self.src[start..self.pos].to_vec();
        Ok((
            Word {
                raw: Some(std::rc::Rc::from(raw.as_slice())),
                parts,
            },
            raw,
        ))
    }

    /// At a `[` after a name (or opening an element of `a=( )`) followed by
    /// `]=` or `]+=`: the subscript's length. Blanks and quotes inside stay
    /// part of the word, as in `m[a b]=1` and `m=(['x y']=1)`.
    fn assign_subscript(&self, start: usize) -> Option<usize> {
        let before = &self.src[start..self.pos];
        let ok = if before.is_empty() {
            self.in_compound
        } else {
            is_name(before)
        };
        if !ok {
            return None;
        }
        let rest = &self.src[self.pos..];
        let close = super::find_close_bracket(rest)?;
        let after = &rest[close + 1..];
        if (after.starts_with(b"=") || after.starts_with(b"+=")) && !rest[..close].contains(&b'\n')
        {
            Some(close + 1)
        } else {
            None
        }
    }

    fn sub_parser(&self, text: &[u8]) -> Parser {
        let mut p = Parser::new(text.to_vec(), self.line);
        p.extglob = self.extglob;
        p
    }

    /// A subscript (`a[...]`): quotes are removed, blanks kept.
    pub(crate) fn parse_sub_word(&mut self, text: &[u8]) -> PResult<Word> {
        let mut p = self.sub_parser(text);
        let parts = p.parts(Ctx::Raw { assign: false })?;
        Ok(Word { raw: None, parts })
    }

    /// The value of an assignment (tilde after `=` and `:`).
    pub(crate) fn parse_value_word(&mut self, text: &[u8]) -> PResult<Word> {
        let mut p = self.sub_parser(text);
        let parts = p.parts(Ctx::Raw { assign: true })?;
        Ok(Word {
            raw: Some(std::rc::Rc::from(text)),
            parts,
        })
    }

    /// Text where only `$`, backquote and `\` are special (arithmetic).
    pub(crate) fn parse_dq_text(&mut self, text: &[u8]) -> PResult<Word> {
        let mut p = self.sub_parser(text);
        let parts = p.parts(Ctx::Text)?;
        Ok(Word {
            raw: Some(std::rc::Rc::from(text)),
            parts,
        })
    }

    /// Parse text with here-doc rules (used for prompt expansion).
    pub fn parse_heredoc_text(&mut self, text: &[u8]) -> PResult<Word> {
        let l = self.line;
        self.parse_heredoc_body(text, l)
    }

    pub(crate) fn parse_heredoc_body(&mut self, text: &[u8], line: u32) -> PResult<Word> {
        let mut p = self.sub_parser(text);
        p.line = line;
        let parts = p.parts(Ctx::Text)?;
        Ok(Word {
            raw: None,
            parts: vec![WordPart::Double(parts)],
        })
    }

    pub(crate) fn parts(&mut self, ctx: Ctx) -> PResult<Vec<WordPart>> {
        let mut parts = Vec::new();
        let mut lit: Bytes = Vec::new();
        let start = self.pos;
        let quoted_ctx = matches!(ctx, Ctx::Dq | Ctx::Text | Ctx::Brace { in_dq: true, .. });
        // tilde prefix
        if matches!(ctx, Ctx::Top | Ctx::Raw { assign: true }) && self.peek_byte() == Some(b'~') {
            self.try_tilde(&mut parts, ctx);
        }
        loop {
            let c = match self.peek_byte() {
                Some(c) => c,
                None => match ctx {
                    Ctx::Dq => return Err(self.eof_err("\"")),
                    Ctx::Brace { .. } => return Err(self.eof_err("}")),
                    _ => break,
                },
            };
            match ctx {
                Ctx::Top => {
                    if c == b'[' {
                        if let Some(n) = self.assign_subscript(start) {
                            lit.extend_from_slice(&self.src[self.pos..self.pos + n]);
                            self.pos += n;
                            continue;
                        }
                    }
                    if is_meta(c) {
                        if c == b'('
                            && self.extglob
                            && lit.last().map(|l| b"@*+?!".contains(l)).unwrap_or(false)
                        {
                            self.extglob_group(&mut lit)?;
                            continue;
                        }
                        if (c == b'<' || c == b'>')
                            && self.byte_at(1) == Some(b'(')
                            && self.pos == start
                        {
                            self.pos += 2;
                            let (s0, l0) = (self.pos, self.line);
                            let prog = self.nested_program()?;
                            let src = self.src_rc(s0, self.pos - 1, l0);
                            parts.push(WordPart::ProcSub(c == b'>', Rc::new(prog), src));
                            continue;
                        }
                        break;
                    }
                }
                Ctx::Dq => {
                    if c == b'"' {
                        break;
                    }
                }
                Ctx::Brace { slash, .. } => {
                    if c == b'}' || (slash && c == b'/') {
                        break;
                    }
                }
                Ctx::Text | Ctx::Raw { .. } => {}
            }
            match c {
                b'\\' => {
                    let next = self.byte_at(1);
                    match next {
                        None => {
                            lit.push(b'\\');
                            self.pos += 1;
                        }
                        Some(b'\n') => {
                            self.pos += 2;
                            self.line += 1;
                        }
                        Some(n) => {
                            let special = match ctx {
                                Ctx::Dq => matches!(n, b'$' | b'`' | b'"' | b'\\'),
                                Ctx::Text => matches!(n, b'$' | b'`' | b'\\'),
                                Ctx::Brace { in_dq: true, .. } => {
                                    matches!(n, b'$' | b'`' | b'"' | b'\\' | b'}')
                                }
                                _ => true,
                            };
                            if special {
                                flush(&mut parts, &mut lit);
                                parts.push(WordPart::Quoted(vec![n]));
                                self.pos += 2;
                            } else {
                                lit.push(b'\\');
                                self.pos += 1;
                            }
                        }
                    }
                }
                b'\'' if !quoted_ctx => {
                    flush(&mut parts, &mut lit);
                    self.pos += 1;
                    let s = self.pos;
                    let l0 = self.line;
                    loop {
                        match self.bump() {
                            None => {
                                let mut e = self.eof_err("'");
                                e.line = l0;
                                return Err(e);
                            }
                            Some(b'\'') => break,
                            _ => {}
                        }
                    }
                    parts.push(WordPart::Quoted(self.src[s..self.pos - 1].to_vec()));
                }
                b'"' if !matches!(ctx, Ctx::Dq | Ctx::Text) => {
                    flush(&mut parts, &mut lit);
                    self.pos += 1;
                    let l0 = self.line;
                    let inner = self.parts(Ctx::Dq).map_err(|mut e| {
                        if e.msg.ends_with("`\"'") {
                            e.line = l0;
                        }
                        e
                    })?;
                    self.pos += 1; // closing quote
                    parts.push(WordPart::Double(inner));
                }
                b'$' => {
                    if let Some(p) = self.dollar(ctx)? {
                        flush(&mut parts, &mut lit);
                        parts.push(p);
                    } else {
                        lit.push(b'$');
                        self.pos += 1;
                    }
                }
                b'`' => {
                    flush(&mut parts, &mut lit);
                    let dq = ctx == Ctx::Dq;
                    parts.push(self.backquote(dq)?);
                }
                // bash also expands `name=~` in an ordinary word (`echo x=~`)
                b'~' if (matches!(ctx, Ctx::Raw { assign: true }) && lit.last() == Some(&b':'))
                    || (ctx == Ctx::Top
                        && !self.in_array_literal
                        && parts.is_empty()
                        && self.pos == start + lit.len()
                        && assignment_like(&lit)) =>
                {
                    flush(&mut parts, &mut lit);
                    self.try_tilde(&mut parts, ctx);
                    if !matches!(parts.last(), Some(WordPart::Tilde(_))) {
                        lit.push(b'~');
                        self.pos += 1;
                    }
                }
                b'\n' => {
                    lit.push(c);
                    self.bump();
                }
                _ => {
                    lit.push(c);
                    self.pos += 1;
                }
            }
        }
        flush(&mut parts, &mut lit);
        Ok(parts)
    }

    /// The word of `${x-word}` and kin: a leading `~` expands outside quotes.
    fn default_word(&mut self, bctx: Ctx) -> PResult<Word> {
        let mut parts = Vec::new();
        if bctx
            == (Ctx::Brace {
                in_dq: false,
                slash: false,
            })
            && self.peek_byte() == Some(b'~')
        {
            self.try_tilde(&mut parts, bctx);
        }
        parts.extend(self.parts(bctx)?);
        Ok(Word { raw: None, parts })
    }

    fn try_tilde(&mut self, parts: &mut Vec<WordPart>, ctx: Ctx) {
        let rest = &self.src[self.pos + 1..];
        let n = rest
            .iter()
            .take_while(|&&c| {
                !(c == b'/'
                    || c == b':'
                    || (ctx == Ctx::Top && is_meta(c))
                    || (matches!(ctx, Ctx::Brace { .. }) && (c == b'}' || is_meta(c))))
            })
            .count();
        let user = &rest[..n];
        if user
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'+'))
        {
            parts.push(WordPart::Tilde(user.to_vec()));
            self.pos += 1 + n;
        }
    }

    fn extglob_group(&mut self, lit: &mut Bytes) -> PResult<()> {
        let mut depth = 0;
        loop {
            let c = match self.bump() {
                Some(c) => c,
                None => return Err(self.eof_err(")")),
            };
            lit.push(c);
            match c {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                b'\\' => {
                    if let Some(n) = self.bump() {
                        lit.push(n);
                    }
                }
                _ => {}
            }
        }
    }

    /// The program inside `$(..)` / `<(..)`: parsed in place up to the `)`.
    pub(crate) fn nested_program(&mut self) -> PResult<Program> {
        // Counts toward the nesting limit: `$($($(...` otherwise recursed
        // past the stack (found by the no-panic property tests).
        self.enter()?;
        let prog = self.nested_program_inner();
        self.leave();
        prog
    }

    fn nested_program_inner(&mut self) -> PResult<Program> {
        self.in_cmdsub += 1;
        let m = self.mark();
        self.skip_newlines()?;
        let prog = if self.peek_tok()? == Tok::Op(")") {
            Program::default()
        } else if self.peek_tok()? == Tok::Eof {
            return Err(self.eof_err(")"));
        } else {
            self.reset(m);
            self.compound_list(&[")"])?
        };
        let t = self.next_tok()?;
        self.in_cmdsub -= 1;
        match t {
            Tok::Op(")") => Ok(prog),
            Tok::Eof => Err(self.eof_err(")")),
            other => Err(self.unexpected(&other)),
        }
    }

    /// `...`; `in_dq`: inside double quotes, where `\"` is a quote too.
    fn backquote(&mut self, in_dq: bool) -> PResult<WordPart> {
        self.pos += 1;
        let mut text = Vec::new();
        let line = self.line;
        loop {
            match self.bump() {
                None => return Err(self.eof_err("`")),
                Some(b'`') => break,
                Some(b'\\') => match self.peek_byte() {
                    Some(n @ (b'$' | b'`' | b'\\')) => {
                        text.push(n);
                        self.pos += 1;
                    }
                    Some(b'"') if in_dq => {
                        text.push(b'"');
                        self.pos += 1;
                    }
                    _ => text.push(b'\\'),
                },
                Some(c) => text.push(c),
            }
        }
        let mut p = self.sub_parser(&text);
        p.line = line;
        let mut prog = Program::default();
        while let Some(mut part) = p.next_command()? {
            prog.items.append(&mut part.items);
        }
        Ok(WordPart::Cmd(
            Rc::new(prog),
            true,
            Rc::new(Src { text, line }),
        ))
    }

    fn dollar(&mut self, ctx: Ctx) -> PResult<Option<WordPart>> {
        let n = match self.byte_at(1) {
            Some(n) => n,
            None => return Ok(None),
        };
        match n {
            // extquote: $'...' works inside "${...}" too
            b'\'' if matches!(ctx, Ctx::Top | Ctx::Raw { .. } | Ctx::Brace { .. }) => {
                self.pos += 2;
                let mut out = Vec::new();
                loop {
                    let c = match self.bump() {
                        None => return Err(self.eof_err("'")),
                        Some(c) => c,
                    };
                    match c {
                        b'\'' => break,
                        b'\\' => {
                            let e = match self.bump() {
                                Some(e) => e,
                                None => return Err(self.eof_err("'")),
                            };
                            self.ansi_escape(e, &mut out);
                        }
                        c => out.push(c),
                    }
                }
                // A string ends at its first NUL (bash's strings are C strings).
                if let Some(z) = out.iter().position(|&c| c == 0) {
                    out.truncate(z);
                }
                Ok(Some(WordPart::Quoted(out)))
            }
            b'"' if matches!(
                ctx,
                Ctx::Top | Ctx::Raw { .. } | Ctx::Brace { in_dq: false, .. }
            ) =>
            {
                self.pos += 2;
                let inner = self.parts(Ctx::Dq)?;
                self.pos += 1;
                Ok(Some(WordPart::Double(inner)))
            }
            b'{' => {
                self.pos += 2;
                let in_dq = matches!(ctx, Ctx::Dq | Ctx::Text | Ctx::Brace { in_dq: true, .. });
                let l0 = self.line;
                let p = self.brace_param(in_dq).map_err(|mut e| {
                    if e.msg.ends_with("`}'") {
                        e.line = l0;
                    }
                    e
                })?;
                Ok(Some(WordPart::Param(Box::new(p))))
            }
            b'(' => {
                if self.byte_at(2) == Some(b'(') {
                    let (m, l0) = (self.mark(), self.line);
                    self.pos += 3;
                    match self.read_arith_text() {
                        Ok(text) => {
                            let src = self.arith_src(&text)?;
                            return Ok(Some(WordPart::Arith(src)));
                        }
                        // unbalanced to the end: bash names the line of the `$((`
                        Err(e) if e.eof || self.src[self.pos..].iter().all(|c| *c == b'\n') => {
                            return Err(SyntaxError {
                                line: l0,
                                ..self.eof_err(")")
                            })
                        }
                        Err(_) => {}
                    }
                    self.reset(m);
                }
                self.pos += 2;
                let (s0, l0) = (self.pos, self.line);
                let prog = self.nested_program()?;
                let src = self.src_rc(s0, self.pos - 1, l0);
                Ok(Some(WordPart::Cmd(Rc::new(prog), false, src)))
            }
            b'[' => {
                // old-style $[ expr ]
                self.pos += 2;
                let (s, l0) = (self.pos, self.line);
                let mut depth = 1;
                while depth > 0 {
                    match self.bump() {
                        Some(b'[') => depth += 1,
                        Some(b']') => depth -= 1,
                        Some(_) => {}
                        None => {
                            return Err(SyntaxError {
                                line: l0,
                                ..self.eof_err("]")
                            })
                        }
                    }
                }
                let text = self.src[s..self.pos - 1].to_vec();
                Ok(Some(WordPart::Arith(self.arith_src(&text)?)))
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let s = self.pos + 1;
                let mut e = s;
                while e < self.src.len()
                    && (self.src[e].is_ascii_alphanumeric() || self.src[e] == b'_')
                {
                    e += 1;
                }
                let name = self.src[s..e].to_vec();
                self.pos = e;
                Ok(Some(simple_param(ParamName::Var(name))))
            }
            c if c.is_ascii_digit() => {
                self.pos += 2;
                if c == b'0' {
                    return Ok(Some(simple_param(ParamName::Special(b'0'))));
                }
                Ok(Some(simple_param(ParamName::Positional(
                    (c - b'0') as usize,
                ))))
            }
            b'@' | b'*' | b'#' | b'?' | b'-' | b'$' | b'!' => {
                self.pos += 2;
                Ok(Some(simple_param(ParamName::Special(n))))
            }
            _ => Ok(None),
        }
    }

    /// `$'...'` escapes in a string, as `${x@E}` expands them (bash's
    /// ansicstr); the string ends at its first NUL.
    pub(crate) fn ansi_c_unescape(s: &[u8]) -> Bytes {
        let mut p = Parser::new(s.to_vec(), 1);
        let mut out = Vec::new();
        while let Some(c) = p.bump() {
            if c != b'\\' {
                out.push(c);
                continue;
            }
            match p.bump() {
                Some(e) => p.ansi_escape(e, &mut out),
                None => out.push(c),
            }
        }
        if let Some(z) = out.iter().position(|&c| c == 0) {
            out.truncate(z);
        }
        out
    }

    fn ansi_escape(&mut self, e: u8, out: &mut Bytes) {
        match e {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'e' | b'E' => out.push(27),
            b'f' => out.push(12),
            b'v' => out.push(11),
            b'\\' => out.push(b'\\'),
            b'\'' => out.push(b'\''),
            b'"' => out.push(b'"'),
            b'?' => out.push(b'?'),
            // `\c` ending the string stays as it is
            b'c' if matches!(self.peek_byte(), None | Some(b'\'')) => out.extend_from_slice(b"\\c"),
            b'c' => {
                if let Some(c) = self.bump() {
                    // \c? is DEL, as in bash
                    out.push(if c == b'?' { 0x7f } else { c & 0x1f });
                }
            }
            b'x' if self.peek_byte() == Some(b'{') => {
                // \x{HH...}: any number of hex digits; the low byte is kept
                let digits = self.src[self.pos + 1..]
                    .iter()
                    .take_while(|d| d.is_ascii_hexdigit())
                    .count();
                if self.src.get(self.pos + 1 + digits) == Some(&b'}') && digits > 0 {
                    let v =
                        self.src[self.pos + 1..self.pos + 1 + digits]
                            .iter()
                            .fold(0u32, |v, d| {
                                v.wrapping_mul(16)
                                    .wrapping_add((*d as char).to_digit(16).unwrap_or(0))
                            });
                    out.push(v as u8);
                    self.pos += digits + 2;
                } else {
                    out.push(b'\\');
                    out.push(b'x');
                }
            }
            b'0'..=b'7' => {
                let mut v = (e - b'0') as u32;
                for _ in 0..2 {
                    match self.peek_byte() {
                        Some(d @ b'0'..=b'7') => {
                            v = v * 8 + (d - b'0') as u32;
                            self.pos += 1;
                        }
                        _ => break,
                    }
                }
                out.push(v as u8);
            }
            b'x' | b'u' | b'U' => {
                let max = match e {
                    b'x' => 2,
                    b'u' => 4,
                    _ => 8,
                };
                let mut v = 0u32;
                let mut n = 0;
                while n < max {
                    match self.peek_byte().and_then(|d| (d as char).to_digit(16)) {
                        Some(d) => {
                            v = v.wrapping_mul(16).wrapping_add(d);
                            self.pos += 1;
                            n += 1;
                        }
                        None => break,
                    }
                }
                if n == 0 {
                    out.push(b'\\');
                    out.push(e);
                } else if e == b'x' {
                    out.push(v as u8);
                } else if v > 0x7f && crate::eval::expand::byte_chars() {
                    // No encoding for it in a single-byte locale: bash keeps the escape.
                    let t = if e == b'u' {
                        format!("\\u{:04X}", v)
                    } else {
                        format!("\\U{:08X}", v)
                    };
                    out.extend_from_slice(t.as_bytes());
                } else {
                    let ch = char::from_u32(v).unwrap_or('\u{fffd}');
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
            }
            other => {
                out.push(b'\\');
                out.push(other);
            }
        }
    }

    fn brace_param(&mut self, in_dq: bool) -> PResult<Param> {
        // Counts toward the nesting limit: `${x:-${x:-...` recurses here.
        self.enter()?;
        let param = self.brace_param_inner(in_dq);
        self.leave();
        param
    }

    fn brace_param_inner(&mut self, in_dq: bool) -> PResult<Param> {
        let start = self.pos;
        let mut length = false;
        let mut indirect = false;
        let c0 = self.peek_byte();
        let c1 = self.byte_at(1);
        if c0 == Some(b'#')
            && c1 != Some(b'}')
            && !(matches!(
                c1,
                Some(b':') | Some(b'-') | Some(b'=') | Some(b'+') | Some(b'?')
            ) && self.byte_at(2) != Some(b'}'))
        {
            length = true;
            self.pos += 1;
        } else if c0 == Some(b'!') && c1 != Some(b'}') && c1.is_some() {
            indirect = true;
            self.pos += 1;
        }
        let name = match self.peek_byte() {
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                let s = self.pos;
                while self
                    .peek_byte()
                    .map(|c| c.is_ascii_alphanumeric() || c == b'_')
                    .unwrap_or(false)
                {
                    self.pos += 1;
                }
                ParamName::Var(self.src[s..self.pos].to_vec())
            }
            Some(c) if c.is_ascii_digit() => {
                let s = self.pos;
                while self
                    .peek_byte()
                    .map(|c| c.is_ascii_digit())
                    .unwrap_or(false)
                {
                    self.pos += 1;
                }
                let n: usize = std::str::from_utf8(&self.src[s..self.pos])
                    .ok()
                    .and_then(|t| t.parse().ok())
                    .unwrap_or(usize::MAX);
                if n == 0 {
                    ParamName::Special(b'0')
                } else {
                    ParamName::Positional(n)
                }
            }
            Some(c @ (b'@' | b'*' | b'#' | b'?' | b'-' | b'$' | b'!')) => {
                self.pos += 1;
                ParamName::Special(c)
            }
            None => return Err(self.eof_err("}")),
            _ => return self.bad_subst(start),
        };
        let mut index = None;
        if self.peek_byte() == Some(b'[') && matches!(name, ParamName::Var(_)) {
            self.pos += 1;
            let s = self.pos;
            let mut depth = 1;
            loop {
                match self.bump() {
                    // `${a[}`: no `]` before the brace ends it: a bad
                    // substitution when it runs, as bash
                    None if self.src[s..].contains(&b'}') => {
                        self.pos = s;
                        return self.bad_subst(start);
                    }
                    None => return Err(self.eof_err("}")),
                    Some(b'[') => depth += 1,
                    Some(b']') => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let text = self.src[s..self.pos - 1].to_vec();
            if text.is_empty() {
                // `${a[]}`
                return self.bad_subst(start);
            }
            index = Some(self.parse_sub_word(&text)?);
        }
        let mut p = Param {
            name,
            index,
            length,
            indirect,
            op: ParamOp::None,
            braced: true,
        };
        if indirect {
            if let ParamName::Var(_) = p.name {
                if p.index.is_none()
                    && matches!(self.peek_byte(), Some(b'*') | Some(b'@'))
                    && self.byte_at(1) == Some(b'}')
                {
                    let star = self.peek_byte() == Some(b'*');
                    self.pos += 2;
                    p.indirect = false;
                    p.op = ParamOp::Names(star);
                    return Ok(p);
                }
                if let Some(ix) = &p.index {
                    if let Some(t) = ix.as_plain() {
                        if (t == b"@" || t == b"*") && self.peek_byte() == Some(b'}') {
                            let star = t == b"*";
                            self.pos += 1;
                            p.indirect = false;
                            p.op = ParamOp::Keys(star);
                            return Ok(p);
                        }
                    }
                }
            }
        }
        let c = match self.bump() {
            Some(c) => c,
            None => return Err(self.eof_err("}")),
        };
        if length && c != b'}' {
            return self.bad_subst(start);
        }
        let bctx = Ctx::Brace {
            in_dq,
            slash: false,
        };
        match c {
            b'}' => return Ok(p),
            b':' => match self.peek_byte() {
                Some(k @ (b'-' | b'=' | b'+' | b'?')) => {
                    self.pos += 1;
                    let word = self.default_word(bctx)?;
                    p.op = ParamOp::Default {
                        colon: true,
                        kind: k,
                        word,
                    };
                }
                Some(b'}') => return self.bad_subst(start),
                _ => {
                    let off = self.substr_field()?;
                    let len = if self.peek_byte() == Some(b':') {
                        self.pos += 1;
                        Some(self.substr_field()?)
                    } else {
                        None
                    };
                    p.op = ParamOp::Substr { off, len };
                }
            },
            b'-' | b'=' | b'+' | b'?' => {
                let word = self.default_word(bctx)?;
                p.op = ParamOp::Default {
                    colon: false,
                    kind: c,
                    word,
                };
            }
            b'#' | b'%' => {
                let longest = self.peek_byte() == Some(c);
                if longest {
                    self.pos += 1;
                }
                let pat = Word {
                    raw: None,
                    parts: self.parts(Ctx::Brace {
                        in_dq: false,
                        slash: false,
                    })?,
                };
                p.op = ParamOp::Remove {
                    suffix: c == b'%',
                    longest,
                    pat,
                };
            }
            b'/' => {
                let mut all = false;
                let mut anchor = 0;
                match self.peek_byte() {
                    Some(b'/') => {
                        all = true;
                        self.pos += 1;
                    }
                    Some(a @ (b'#' | b'%')) => {
                        anchor = a;
                        self.pos += 1;
                    }
                    _ => {}
                }
                let pat = Word {
                    raw: None,
                    parts: self.parts(Ctx::Brace {
                        in_dq: false,
                        slash: true,
                    })?,
                };
                let rep = if self.peek_byte() == Some(b'/') {
                    self.pos += 1;
                    // bash 5.2: quote removal applies to the replacement even
                    // inside double quotes, as it does to the pattern
                    Word {
                        raw: None,
                        parts: self.parts(Ctx::Brace {
                            in_dq: false,
                            slash: false,
                        })?,
                    }
                } else {
                    Word::default()
                };
                p.op = ParamOp::Replace {
                    all,
                    anchor,
                    pat,
                    rep,
                };
            }
            b'^' | b',' | b'~' => {
                let all = self.peek_byte() == Some(c);
                if all {
                    self.pos += 1;
                }
                let pat = Word {
                    raw: None,
                    parts: self.parts(Ctx::Brace {
                        in_dq: false,
                        slash: false,
                    })?,
                };
                p.op = ParamOp::Case {
                    upper: c == b'^',
                    toggle: c == b'~',
                    all,
                    pat,
                };
            }
            b'@' => {
                let t = match self.bump() {
                    Some(t) => t,
                    None => return Err(self.eof_err("}")),
                };
                if !b"QEPAaULuKk".contains(&t) || self.peek_byte() != Some(b'}') {
                    return self.bad_subst(start);
                }
                p.op = ParamOp::Transform(t);
            }
            _ => return self.bad_subst(start),
        }
        match self.bump() {
            Some(b'}') => Ok(p),
            None => Err(self.eof_err("}")),
            Some(_) => self.bad_subst(start),
        }
    }

    /// Skip to the closing brace and produce a parameter that fails at run time
    /// with bash's "bad substitution" message.
    fn bad_subst(&mut self, start: usize) -> PResult<Param> {
        let mut depth = 1;
        loop {
            match self.bump() {
                None => return Err(self.eof_err("}")),
                Some(b'{') => depth += 1,
                Some(b'}') => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
        }
        let mut text = b"${".to_vec();
        text.extend_from_slice(&self.src[start..self.pos]);
        Ok(Param {
            name: ParamName::Var(text),
            index: None,
            length: false,
            indirect: false,
            op: ParamOp::Transform(0),
            braced: true,
        })
    }

    fn substr_field(&mut self) -> PResult<Word> {
        let s = self.pos;
        let mut depth = 0;
        loop {
            match self.peek_byte() {
                None => return Err(self.eof_err("}")),
                Some(b'(') | Some(b'[') | Some(b'{') => depth += 1,
                Some(b')') | Some(b']') => depth -= 1,
                Some(b'}') if depth == 0 => break,
                Some(b'}') => depth -= 1,
                Some(b':') if depth == 0 => break,
                Some(b'?') if depth == 0 => {
                    // ternary inside offset: consume up to its ':'
                    depth += 1;
                }
                _ => {}
            }
            if self.peek_byte() == Some(b':') && depth > 0 {
                depth -= 1;
            }
            self.pos += 1;
        }
        let text = self.src[s..self.pos].to_vec();
        self.parse_dq_text(&text)
    }
}

fn simple_param(name: ParamName) -> WordPart {
    WordPart::Param(Box::new(Param {
        name,
        index: None,
        length: false,
        indirect: false,
        op: ParamOp::None,
        braced: false,
    }))
}

#[allow(dead_code)]
fn _name_check(s: &[u8]) -> bool {
    is_name(s)
}
