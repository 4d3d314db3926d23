//! Parser for the command language: tokens, lists, pipelines, compound commands,
//! redirections and here-docs. Words are parsed in `word.rs`, `[[ ]]` in
//! `cond.rs`, arithmetic in `arith.rs`.
//!
//! The parser works on bytes and reads one complete command at a time
//! (`next_command`), as bash does: earlier commands run before a later syntax
//! error is seen.

mod arith;
mod cond;
#[cfg(test)]
mod no_panic_tests;
mod word;

pub use arith::parse_arith;

use crate::ast::*;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// Deepest nesting of constructs the parser accepts (guards the stack).
const MAX_DEPTH: usize = 200;

#[derive(Debug, Clone)]
pub struct SyntaxError {
    pub line: u32,
    pub msg: String,
    /// Text of the offending line, shown by bash as a second message line.
    pub context: Option<Bytes>,
    /// True when the error is caused by running out of input (interactive
    /// mode then asks for more lines).
    pub eof: bool,
    /// A second message line (bash reports an error inside `[[ ( .. ) ]]`
    /// and then the missing `)`).
    pub also: Option<String>,
    /// bash's `[[ ]]` errors met before the end of input: the script stops
    /// with the status it had, not 2.
    pub keep_status: bool,
    /// The status bash gives this error instead of 2 (1 inside an array
    /// literal, which bash parses as part of the assignment word).
    pub status: Option<i32>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    Word(Word, Bytes),
    Op(&'static str),
    IoNum(i32),
    IoVar(Bytes),
    Newline,
    Eof,
}

const OPS: &[&str] = &[
    ";;&", "&>>", "<<<", "<<-", ";;", ";&", "&&", "||", "|&", "&>", "<<", "<>", "<&", ">>", ">&",
    ">|", ";", "&", "|", "(", ")", "<", ">",
];

#[derive(Clone)]
struct TokCache {
    start: usize,
    end: usize,
    end_line: u32,
    tok: Tok,
    docs: Vec<PendingDoc>,
}

#[derive(Clone)]
struct PendingDoc {
    doc: Rc<RefCell<HereDoc>>,
}

pub struct Parser {
    pub(crate) src: Vec<u8>,
    pub(crate) pos: usize,
    pub(crate) line: u32,
    pending: Vec<PendingDoc>,
    depth: usize,
    pub aliases: Option<HashMap<Bytes, Bytes>>,
    /// Text an alias expanded to (start, end, name): the same alias is not
    /// expanded again inside its own expansion.
    alias_guard: Vec<(usize, usize, Bytes)>,
    /// When parsing `$( )`, the closing paren ends the program.
    pub(crate) in_cmdsub: usize,
    cache: Option<TokCache>,
    /// Extended globbing patterns recognised in words.
    pub extglob: bool,
    /// In `a=( ... )`: `x=~` elements keep their tilde, as in bash.
    pub(crate) in_array_literal: bool,
    /// Inside `name=( ... )`: a word may start with a `[sub]=` subscript.
    pub(crate) in_compound: bool,
    /// Line where the token being read started: bash reports an unclosed
    /// quote or bracket at the line that opened it.
    tok_line: u32,
}

impl PartialEq for Word {
    fn eq(&self, _o: &Word) -> bool {
        false
    }
}

pub type PResult<T> = Result<T, SyntaxError>;

pub fn is_name(s: &[u8]) -> bool {
    !s.is_empty()
        && (s[0].is_ascii_alphabetic() || s[0] == b'_')
        && s.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

fn is_meta(c: u8) -> bool {
    matches!(
        c,
        b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>' | b'(' | b')'
    )
}

impl Parser {
    pub fn new(src: Vec<u8>, line: u32) -> Parser {
        Parser {
            src,
            pos: 0,
            line,
            tok_line: line,
            pending: Vec::new(),
            depth: 0,
            aliases: None,
            alias_guard: Vec::new(),
            in_cmdsub: 0,
            cache: None,
            extglob: true,
            in_array_literal: false,
            in_compound: false,
        }
    }

    /// Parse a whole text (used for `eval`, functions, child code).
    pub fn parse_all(src: &[u8], line: u32) -> PResult<Program> {
        let mut p = Parser::new(src.to_vec(), line);
        let mut prog = Program::default();
        while let Some(mut part) = p.next_command()? {
            prog.items.append(&mut part.items);
        }
        Ok(prog)
    }

    pub(crate) fn peek_byte(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }
    pub(crate) fn byte_at(&self, i: usize) -> Option<u8> {
        self.src.get(self.pos + i).copied()
    }
    pub(crate) fn bump(&mut self) -> Option<u8> {
        let c = self.src.get(self.pos).copied()?;
        self.pos += 1;
        if c == b'\n' {
            self.line += 1;
        }
        Some(c)
    }

    pub(crate) fn err(&self, msg: String) -> SyntaxError {
        SyntaxError {
            line: self.line,
            msg,
            context: None,
            eof: false,
            also: None,
            keep_status: false,
            status: None,
        }
    }
    pub(crate) fn eof_err(&self, what: &str) -> SyntaxError {
        SyntaxError {
            line: self.tok_line,
            msg: format!("unexpected EOF while looking for matching `{}'", what),
            context: None,
            eof: true,
            also: None,
            keep_status: false,
            status: None,
        }
    }
    fn line_text(&self, p: usize) -> Bytes {
        let p = p.min(self.src.len());
        let start = self.src[..p]
            .iter()
            .rposition(|&c| c == b'\n')
            .map(|i| i + 1)
            .unwrap_or(0);
        let mut end = p;
        while end < self.src.len() && self.src[end] != b'\n' {
            end += 1;
        }
        let mut t = self.src[start..end].to_vec();
        while t.last() == Some(&b'\n') {
            t.pop();
        }
        t
    }
    pub(crate) fn unexpected(&self, t: &Tok) -> SyntaxError {
        if *t == Tok::Eof {
            return SyntaxError {
                line: self.line,
                msg: "syntax error: unexpected end of file".into(),
                context: None,
                eof: true,
                also: None,
                keep_status: false,
                status: None,
            };
        }
        let name = match t {
            Tok::Word(_, raw) => String::from_utf8_lossy(raw).into_owned(),
            Tok::Op(o) => o.to_string(),
            Tok::IoNum(n) => n.to_string(),
            Tok::IoVar(v) => format!("{{{}}}", String::from_utf8_lossy(v)),
            Tok::Newline => "newline".into(),
            Tok::Eof => String::new(),
        };
        // a newline token is reported on the line it ends
        let at = if *t == Tok::Newline {
            self.pos.saturating_sub(1)
        } else {
            self.pos
        };
        SyntaxError {
            line: self.tok_line,
            msg: format!("syntax error near unexpected token `{}'", name),
            context: Some(self.line_text(at)),
            eof: false,
            also: None,
            keep_status: false,
            status: None,
        }
    }

    fn src_start(&mut self) -> (usize, u32) {
        self.skip_blanks();
        (self.pos, self.line)
    }
    pub(crate) fn src_rc(&self, a: usize, b: usize, line: u32) -> Rc<Src> {
        let b = b.min(self.src.len());
        Rc::new(Src {
            text: self.src[a.min(b)..b].to_vec(),
            line,
        })
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err("syntax error: nesting too deep".into()));
        }
        Ok(())
    }
    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Skip blanks, line continuations and comments.
    pub(crate) fn skip_blanks_pub(&mut self) {
        self.skip_blanks()
    }
    fn skip_blanks(&mut self) {
        loop {
            match self.peek_byte() {
                Some(b' ') | Some(b'\t') => self.pos += 1,
                Some(b'\\') if self.byte_at(1) == Some(b'\n') => {
                    self.pos += 2;
                    self.line += 1;
                }
                Some(b'#') => {
                    while let Some(c) = self.peek_byte() {
                        if c == b'\n' {
                            break;
                        }
                        self.pos += 1;
                    }
                }
                _ => return,
            }
        }
    }

    pub(crate) fn next_tok(&mut self) -> PResult<Tok> {
        self.skip_blanks();
        self.tok_line = self.line;
        if let Some(c) = &self.cache {
            if c.start == self.pos {
                let c = c.clone();
                self.pos = c.end;
                self.line = c.end_line;
                for d in c.docs {
                    if !self.pending.iter().any(|p| Rc::ptr_eq(&p.doc, &d.doc)) {
                        self.pending.push(d);
                    }
                }
                return Ok(c.tok);
            }
        }
        let (start, np) = (self.pos, self.pending.len());
        let t = self.lex_tok()?;
        let docs = self.pending[np.min(self.pending.len())..].to_vec();
        self.cache = Some(TokCache {
            start,
            end: self.pos,
            end_line: self.line,
            tok: t.clone(),
            docs,
        });
        Ok(t)
    }

    fn lex_tok(&mut self) -> PResult<Tok> {
        let c = match self.peek_byte() {
            None => return Ok(Tok::Eof),
            Some(c) => c,
        };
        if c == b'\n' {
            self.bump();
            return Ok(Tok::Newline);
        }
        if (c == b'<' || c == b'>') && self.byte_at(1) == Some(b'(') {
            let (w, raw) = self.read_word()?;
            return Ok(Tok::Word(w, raw));
        }
        for op in OPS {
            if self.src[self.pos..].starts_with(op.as_bytes()) {
                self.pos += op.len();
                return Ok(Tok::Op(op));
            }
        }
        // io number / {var}
        let rest = &self.src[self.pos..];
        let nd = rest.iter().take_while(|c| c.is_ascii_digit()).count();
        if nd > 0 && nd < 10 && matches!(rest.get(nd), Some(b'<') | Some(b'>')) {
            let n: i32 = std::str::from_utf8(&rest[..nd])
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
            self.pos += nd;
            return Ok(Tok::IoNum(n));
        }
        if c == b'{' {
            if let Some(close) = rest.iter().position(|&b| b == b'}') {
                if close > 1
                    && is_fd_var(&rest[1..close])
                    && matches!(rest.get(close + 1), Some(b'<') | Some(b'>'))
                {
                    let name = rest[1..close].to_vec();
                    self.pos += close + 1;
                    return Ok(Tok::IoVar(name));
                }
            }
        }
        let (w, raw) = self.read_word()?;
        Ok(Tok::Word(w, raw))
    }

    pub(crate) fn peek_tok(&mut self) -> PResult<Tok> {
        let m = self.mark();
        let t = self.next_tok();
        self.reset(m);
        t
    }

    pub(crate) fn mark(&self) -> (usize, u32, usize) {
        (self.pos, self.line, self.pending.len())
    }
    pub(crate) fn reset(&mut self, m: (usize, u32, usize)) {
        self.pos = m.0;
        self.line = m.1;
        self.pending.truncate(m.2);
    }

    fn is_kw(t: &Tok, kw: &str) -> bool {
        matches!(t, Tok::Word(w, _) if w.as_plain() == Some(kw.as_bytes()))
    }
    fn peek_kw(&mut self, kw: &str) -> PResult<bool> {
        Ok(Self::is_kw(&self.peek_tok()?, kw))
    }
    fn expect_kw(&mut self, kw: &str) -> PResult<()> {
        let t = self.next_tok()?;
        if Self::is_kw(&t, kw) {
            Ok(())
        } else {
            Err(self.unexpected(&t))
        }
    }

    /// Consume newlines (reading pending here-docs).
    pub(crate) fn skip_newlines(&mut self) -> PResult<()> {
        loop {
            let m = self.mark();
            match self.next_tok()? {
                Tok::Newline => self.read_heredocs()?,
                _ => {
                    self.reset(m);
                    return Ok(());
                }
            }
        }
    }

    /// Parse the next complete command (up to an unnested newline). `None` at end.
    pub fn next_command(&mut self) -> PResult<Option<Program>> {
        loop {
            let t = self.peek_tok()?;
            match t {
                Tok::Eof => return Ok(None),
                Tok::Newline => {
                    self.next_tok()?;
                    self.read_heredocs()?;
                }
                _ => break,
            }
        }
        let mut prog = Program::default();
        loop {
            let (s0, l0) = self.src_start();
            let ao = self.and_or()?;
            let e0 = self.pos;
            let t = self.next_tok()?;
            match t {
                Tok::Op(";") | Tok::Op("&") => {
                    let bg = t == Tok::Op("&");
                    let src = if bg {
                        Some(self.src_rc(s0, e0, l0))
                    } else {
                        None
                    };
                    prog.items.push(ListItem {
                        and_or: ao,
                        background: bg,
                        src,
                    });
                    let n = self.peek_tok()?;
                    match n {
                        Tok::Newline => {
                            self.next_tok()?;
                            self.read_heredocs()?;
                            return Ok(Some(prog));
                        }
                        Tok::Eof => return Ok(Some(prog)),
                        _ => continue,
                    }
                }
                Tok::Newline => {
                    prog.items.push(ListItem {
                        and_or: ao,
                        background: false,
                        src: None,
                    });
                    self.read_heredocs()?;
                    return Ok(Some(prog));
                }
                Tok::Eof => {
                    prog.items.push(ListItem {
                        and_or: ao,
                        background: false,
                        src: None,
                    });
                    if !self.pending.is_empty() {
                        self.read_heredocs()?;
                    }
                    return Ok(Some(prog));
                }
                Tok::Op(")") if self.in_cmdsub > 0 => {
                    return Err(self.unexpected(&t));
                }
                t => return Err(self.unexpected(&t)),
            }
        }
    }

    /// A compound list: commands separated by `;`, `&` or newlines, ended by one
    /// of the given keywords (not consumed).
    pub(crate) fn compound_list(&mut self, ends: &[&str]) -> PResult<Program> {
        self.enter()?;
        let mut prog = Program::default();
        self.skip_newlines()?;
        loop {
            let t = self.peek_tok()?;
            let at_end = match &t {
                Tok::Word(w, _) => w
                    .as_plain()
                    .map(|s| ends.iter().any(|e| e.as_bytes() == s))
                    .unwrap_or(false),
                Tok::Op(")") => ends.contains(&")"),
                Tok::Op(";;") | Tok::Op(";&") | Tok::Op(";;&") => ends.contains(&";;"),
                Tok::Eof => true,
                _ => false,
            };
            if at_end {
                break;
            }
            let (s0, l0) = self.src_start();
            let ao = self.and_or()?;
            let e0 = self.pos;
            let m = self.mark();
            let t = self.next_tok()?;
            match t {
                Tok::Op(";") | Tok::Op("&") => {
                    let bg = t == Tok::Op("&");
                    let src = if bg {
                        Some(self.src_rc(s0, e0, l0))
                    } else {
                        None
                    };
                    prog.items.push(ListItem {
                        and_or: ao,
                        background: bg,
                        src,
                    });
                    self.skip_newlines()?;
                }
                Tok::Newline => {
                    prog.items.push(ListItem {
                        and_or: ao,
                        background: false,
                        src: None,
                    });
                    self.read_heredocs()?;
                    self.skip_newlines()?;
                }
                _ => {
                    self.reset(m);
                    prog.items.push(ListItem {
                        and_or: ao,
                        background: false,
                        src: None,
                    });
                    break;
                }
            }
        }
        self.leave();
        if prog.items.is_empty() {
            let t = self.peek_tok()?;
            return Err(self.unexpected(&t));
        }
        Ok(prog)
    }

    fn and_or(&mut self) -> PResult<AndOr> {
        let first = self.pipeline()?;
        let mut rest = Vec::new();
        loop {
            let t = self.peek_tok()?;
            let and = match t {
                Tok::Op("&&") => true,
                Tok::Op("||") => false,
                _ => break,
            };
            self.next_tok()?;
            self.skip_newlines()?;
            rest.push((and, self.pipeline()?));
        }
        Ok(AndOr { first, rest })
    }

    fn pipeline(&mut self) -> PResult<Pipeline> {
        let mut bang = false;
        let mut time = false;
        let mut time_posix = false;
        loop {
            let t = self.peek_tok()?;
            if Self::is_kw(&t, "!") {
                self.next_tok()?;
                bang = !bang;
            } else if Self::is_kw(&t, "time") {
                self.next_tok()?;
                time = true;
                if matches!(self.peek_tok()?, Tok::Word(_, ref r) if r == b"-p") {
                    self.next_tok()?;
                    time_posix = true;
                }
            } else {
                break;
            }
        }
        if (bang || time) && matches!(self.peek_tok()?, Tok::Op(";") | Tok::Newline | Tok::Eof) {
            // `!` or `time` alone: an empty command (status 0, negated 1)
            let line = self.line;
            return Ok(Pipeline {
                bang,
                time,
                time_posix,
                cmds: vec![Command::Simple(Simple {
                    line,
                    ..Default::default()
                })],
                amp: Vec::new(),
                srcs: Vec::new(),
            });
        }
        let (s0, l0) = self.src_start();
        let mut cmds = vec![self.command()?];
        let mut spans = vec![(s0, self.pos, l0)];
        let mut amp = Vec::new();
        loop {
            let t = self.peek_tok()?;
            let a = match t {
                Tok::Op("|") => false,
                Tok::Op("|&") => true,
                _ => break,
            };
            self.next_tok()?;
            self.skip_newlines()?;
            amp.push(a);
            let (s1, l1) = self.src_start();
            cmds.push(self.command()?);
            spans.push((s1, self.pos, l1));
        }
        let srcs = if cmds.len() > 1 {
            spans
                .into_iter()
                .map(|(a, b, l)| self.src_rc(a, b, l))
                .collect()
        } else {
            Vec::new()
        };
        Ok(Pipeline {
            bang,
            time,
            time_posix,
            cmds,
            amp,
            srcs,
        })
    }

    fn try_alias(&mut self) -> PResult<()> {
        if !matches!(&self.aliases, Some(a) if !a.is_empty()) {
            return Ok(());
        }
        self.skip_blanks();
        let mut at = self.pos;
        loop {
            // the value's first word may be an alias too (a chain); the
            // chain's value ending in a blank makes the next word a candidate
            let mut next = None;
            while let Some((vend, grow, blank)) = self.alias_at(at) {
                next = match next {
                    None => Some((vend, blank)),
                    // the earlier value's end moved with this expansion
                    Some((end, b)) => Some(((end as isize + grow) as usize, b || blank)),
                };
            }
            match next {
                Some((end, true)) => {
                    at = end;
                    while matches!(self.src.get(at), Some(b' ') | Some(b'\t')) {
                        at += 1;
                    }
                }
                _ => break,
            }
        }
        Ok(())
    }

    /// Expands an alias named by the word at `start`: the position after its
    /// value, how much the text grew, and whether the value ends with a blank.
    fn alias_at(&mut self, start: usize) -> Option<(usize, isize, bool)> {
        let mut end = start;
        while end < self.src.len()
            && !is_meta(self.src[end])
            && !matches!(self.src[end], b'\'' | b'"' | b'\\' | b'$' | b'`')
        {
            end += 1;
        }
        if end == start || (end < self.src.len() && !is_meta(self.src[end])) {
            return None;
        }
        let name = self.src[start..end].to_vec();
        if self
            .alias_guard
            .iter()
            .any(|(s, e, n)| *n == name && *s <= start && start < *e)
        {
            return None;
        }
        let val = self.aliases.as_ref().and_then(|a| a.get(&name).cloned())?;
        let mut ns = self.src[..start].to_vec();
        ns.extend_from_slice(&val);
        ns.extend_from_slice(&self.src[end..]);
        self.src = ns;
        self.cache = None;
        // text after the replaced word moved
        let grow = val.len() as isize - (end - start) as isize;
        for g in self.alias_guard.iter_mut() {
            if g.0 >= end {
                g.0 = (g.0 as isize + grow) as usize;
            }
            if g.1 >= end {
                g.1 = (g.1 as isize + grow) as usize;
            }
        }
        self.alias_guard.push((start, start + val.len(), name));
        Some((
            start + val.len(),
            grow,
            matches!(val.last(), Some(b' ') | Some(b'\t')),
        ))
    }

    fn command(&mut self) -> PResult<Command> {
        self.enter()?;
        self.try_alias()?;
        let line = self.line;
        let t = self.peek_tok()?;
        let r = match &t {
            Tok::Word(w, _) => match w.as_plain() {
                Some(b"{") | Some(b"if") | Some(b"while") | Some(b"until") | Some(b"for")
                | Some(b"case") | Some(b"select") | Some(b"[[") => {
                    let c = self.compound()?;
                    let redirs = self.redirs_after()?;
                    Ok(Command::Compound(Box::new(c), redirs, line))
                }
                Some(b"function") => self.function_def(true),
                Some(b"coproc") => self.coproc(line),
                Some(b"}") | Some(b"then") | Some(b"else") | Some(b"elif") | Some(b"fi")
                | Some(b"do") | Some(b"done") | Some(b"esac") | Some(b"in") => {
                    self.next_tok()?;
                    Err(self.unexpected(&t))
                }
                Some(name) if is_name_fn(name) && self.is_funcdef_ahead()? => {
                    self.function_def(false)
                }
                _ => self.simple(),
            },
            Tok::Op("(") => {
                self.next_tok()?;
                if self.peek_byte() == Some(b'(') {
                    // (( arithmetic ))
                    self.pos -= 1;
                    let c = self.compound()?;
                    let redirs = self.redirs_after()?;
                    Ok(Command::Compound(Box::new(c), redirs, line))
                } else {
                    let (s0, l0) = (self.pos, self.line);
                    let body = self.compound_list(&[")"])?;
                    let e0 = self.pos;
                    let t = self.next_tok()?;
                    if t != Tok::Op(")") {
                        return Err(self.unexpected(&t));
                    }
                    let src = self.src_rc(s0, e0, l0);
                    let redirs = self.redirs_after()?;
                    Ok(Command::Compound(
                        Box::new(Compound::Subshell(body, src)),
                        redirs,
                        line,
                    ))
                }
            }
            Tok::IoNum(_) | Tok::IoVar(_) => self.simple(),
            Tok::Op(o) if o.starts_with('<') || o.starts_with('>') || *o == "&>" || *o == "&>>" => {
                self.simple()
            }
            _ => {
                self.next_tok()?;
                Err(self.unexpected(&t))
            }
        };
        self.leave();
        r
    }

    fn is_funcdef_ahead(&mut self) -> PResult<bool> {
        let m = self.mark();
        self.next_tok()?;
        self.skip_blanks();
        let mut r = false;
        if self.peek_byte() == Some(b'(') {
            self.pos += 1;
            self.skip_blanks();
            r = self.peek_byte() == Some(b')');
        }
        self.reset(m);
        Ok(r)
    }

    fn function_def(&mut self, keyword: bool) -> PResult<Command> {
        let (s0, line) = self.src_start();
        if keyword {
            self.next_tok()?;
        }
        let t = self.next_tok()?;
        let name = match &t {
            Tok::Word(w, raw) if w.as_plain().is_some() => raw.clone(),
            _ => return Err(self.unexpected(&t)),
        };
        self.skip_blanks();
        if self.peek_byte() == Some(b'(') {
            self.pos += 1;
            let t = self.next_tok()?;
            if t != Tok::Op(")") {
                return Err(self.unexpected(&t));
            }
        }
        self.skip_newlines()?;
        let t = self.peek_tok()?;
        let body = match &t {
            Tok::Word(w, _)
                if matches!(
                    w.as_plain(),
                    Some(b"{")
                        | Some(b"if")
                        | Some(b"while")
                        | Some(b"until")
                        | Some(b"for")
                        | Some(b"case")
                        | Some(b"[[")
                        | Some(b"select")
                ) =>
            {
                self.compound()?
            }
            Tok::Op("(") => {
                self.next_tok()?;
                if self.peek_byte() == Some(b'(') {
                    self.pos -= 1;
                    self.compound()?
                } else {
                    let (s0, l0) = (self.pos, self.line);
                    let body = self.compound_list(&[")"])?;
                    let e0 = self.pos;
                    let t = self.next_tok()?;
                    if t != Tok::Op(")") {
                        return Err(self.unexpected(&t));
                    }
                    Compound::Subshell(body, self.src_rc(s0, e0, l0))
                }
            }
            _ => {
                self.next_tok()?;
                return Err(self.unexpected(&t));
            }
        };
        let redirs = self.redirs_after()?;
        let src = Src {
            text: self.src[s0..self.pos].to_vec(),
            line,
        };
        Ok(Command::FuncDef(Rc::new(FuncDef {
            src,
            name,
            body,
            redirs,
            line,
        })))
    }

    /// `coproc [NAME] command`: a NAME is taken only before a compound
    /// command (`coproc cat` runs `cat` as COPROC).
    fn coproc(&mut self, line: u32) -> PResult<Command> {
        self.next_tok()?;
        let mut name = b"COPROC".to_vec();
        let m = self.mark();
        if let Tok::Word(w, _) = self.next_tok()? {
            if let Some(n) = w.as_plain().filter(|n| is_name_fn(n)).map(|n| n.to_vec()) {
                let compound = match self.peek_tok()? {
                    Tok::Op("(") => true,
                    Tok::Word(w, _) => matches!(
                        w.as_plain(),
                        Some(
                            b"{" | b"if"
                                | b"while"
                                | b"until"
                                | b"for"
                                | b"case"
                                | b"select"
                                | b"[["
                        )
                    ),
                    _ => false,
                };
                if compound {
                    name = n;
                } else {
                    self.reset(m);
                }
            } else {
                self.reset(m);
            }
        } else {
            self.reset(m);
        }
        let (s0, l0) = self.src_start();
        self.command()?;
        let src = self.src_rc(s0, self.pos, l0);
        Ok(Command::Compound(
            Box::new(Compound::Coproc(name, src)),
            Vec::new(),
            line,
        ))
    }

    fn redirs_after(&mut self) -> PResult<Vec<Redir>> {
        let mut v = Vec::new();
        while let Some(r) = self.try_redir()? {
            v.push(r);
        }
        Ok(v)
    }

    fn try_redir(&mut self) -> PResult<Option<Redir>> {
        let m = self.mark();
        let t = self.next_tok()?;
        let (fd, var, opt) = match t {
            Tok::IoNum(n) => (Some(n), None, self.next_tok()?),
            Tok::IoVar(v) => (None, Some(v), self.next_tok()?),
            other => (None, None, other),
        };
        let op = match opt {
            Tok::Op("<") => RedirOp::In,
            Tok::Op(">") => RedirOp::Out,
            Tok::Op(">>") => RedirOp::Append,
            Tok::Op(">|") => RedirOp::Clobber,
            Tok::Op("<>") => RedirOp::InOut,
            Tok::Op("<&") => RedirOp::DupIn,
            Tok::Op(">&") => RedirOp::DupOut,
            Tok::Op("&>") => RedirOp::AndOut,
            Tok::Op("&>>") => RedirOp::AndAppend,
            Tok::Op("<<") | Tok::Op("<<-") => RedirOp::HereDoc,
            Tok::Op("<<<") => RedirOp::HereStr,
            other => {
                if fd.is_some() || var.is_some() {
                    return Err(self.unexpected(&other));
                }
                self.reset(m);
                return Ok(None);
            }
        };
        let strip = opt == Tok::Op("<<-");
        let t = self.next_tok()?;
        let (target, raw) = match t {
            Tok::Word(w, raw) => (w, raw),
            other => return Err(self.unexpected(&other)),
        };
        let mut heredoc = None;
        if op == RedirOp::HereDoc {
            let quoted = raw.iter().any(|c| matches!(c, b'\'' | b'"' | b'\\'));
            let delim = unquote_delim(&raw);
            let doc = Rc::new(RefCell::new(HereDoc {
                strip,
                quoted,
                delim,
                raw: Vec::new(),
                body: Word::default(),
            }));
            self.pending.push(PendingDoc { doc: doc.clone() });
            heredoc = Some(doc);
        }
        Ok(Some(Redir {
            fd,
            var,
            op,
            target,
            heredoc,
        }))
    }

    /// Read the bodies of here-docs whose operator appeared on the line just ended.
    pub(crate) fn read_heredocs(&mut self) -> PResult<()> {
        let pending = std::mem::take(&mut self.pending);
        for pd in pending {
            let mut doc = pd.doc.borrow_mut();
            let start_line = self.line;
            let mut body = Vec::new();
            let mut found = false;
            while self.pos < self.src.len() {
                let end = self.src[self.pos..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map(|i| self.pos + i)
                    .unwrap_or(self.src.len());
                let mut lt = &self.src[self.pos..end];
                if doc.strip {
                    while lt.first() == Some(&b'\t') {
                        lt = &lt[1..];
                    }
                }
                let lt = lt.to_vec();
                self.pos = (end + 1).min(self.src.len());
                self.line += 1;
                if lt == doc.delim {
                    found = true;
                    break;
                }
                body.extend_from_slice(&lt);
                if end < self.src.len() {
                    body.push(b'\n');
                }
            }
            if !found {
                eprintln_warn(
                    start_line.saturating_sub(1),
                    self.line.saturating_sub(1),
                    &doc.delim,
                );
            }
            if !doc.quoted {
                doc.body = self.parse_heredoc_body(&body, start_line)?;
            }
            doc.raw = body;
        }
        Ok(())
    }

    fn simple(&mut self) -> PResult<Command> {
        let line = self.line;
        let mut s = Simple {
            line,
            ..Default::default()
        };
        loop {
            if let Some(r) = self.try_redir()? {
                s.redirs.push(r);
                continue;
            }
            let m = self.mark();
            let t = self.next_tok()?;
            match t {
                Tok::Word(w, raw) => {
                    if s.words
                        .first()
                        .and_then(|w0| w0.as_plain())
                        .map(|n| {
                            matches!(
                                n,
                                b"declare" | b"local" | b"export" | b"readonly" | b"typeset"
                            )
                        })
                        .unwrap_or(false)
                    {
                        if let Some(w2) = self.decl_word(&raw)? {
                            s.words.push(w2);
                            continue;
                        }
                    }
                    if s.words.is_empty() {
                        if let Some(a) = self.try_assignment(&raw, m.0)? {
                            s.assigns.push(a);
                            continue;
                        }
                        if s.assigns.is_empty()
                            && s.redirs.is_empty()
                            && s.line != self.line
                            && raw.is_empty()
                        {
                            // unreachable in practice; keeps line accounting simple
                        }
                    }
                    if s.words.is_empty() && s.assigns.is_empty() {
                        s.line = m.1;
                    }
                    s.words.push(w);
                }
                Tok::Op("(") if s.words.len() == 1 && s.assigns.is_empty() => {
                    // `word (` starts a function definition: bash wants `)` next
                    let t = self.next_tok()?;
                    return Err(self.unexpected(&t));
                }
                _ => {
                    self.reset(m);
                    break;
                }
            }
        }
        if s.words.is_empty() && s.assigns.is_empty() && s.redirs.is_empty() {
            let t = self.peek_tok()?;
            self.next_tok()?;
            return Err(self.unexpected(&t));
        }
        Ok(Command::Simple(s))
    }

    /// An assignment argument of a declaration builtin (`local x=$y`): the value
    /// is not split or globbed; `x=(..)` is kept as text for the builtin.
    fn decl_word(&mut self, raw: &[u8]) -> PResult<Option<Word>> {
        let n = raw
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
            .count();
        if n == 0 || raw[0].is_ascii_digit() {
            return Ok(None);
        }
        let mut i = n;
        if raw.get(i) == Some(&b'[') {
            match find_close_bracket(&raw[i..]) {
                Some(c) => i += c + 1,
                None => return Ok(None),
            }
        }
        if raw.get(i) == Some(&b'+') {
            i += 1;
        }
        if raw.get(i) != Some(&b'=') {
            return Ok(None);
        }
        i += 1;
        if i == raw.len() && self.peek_byte() == Some(b'(') {
            let s = self.pos;
            let mut depth = 0;
            loop {
                match self.bump() {
                    None => return Err(self.eof_err(")")),
                    Some(b'(') => depth += 1,
                    Some(b')') => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    Some(b'\\') => {
                        self.bump();
                    }
                    Some(q @ (b'\'' | b'"')) => {
                        while let Some(c) = self.bump() {
                            if c == q {
                                break;
                            }
                            if c == b'\\' && q == b'"' {
                                self.bump();
                            }
                        }
                    }
                    _ => {}
                }
            }
            let mut t = raw.to_vec();
            t.extend_from_slice(&self.src[s..self.pos]);
            self.cache = None;
            return Ok(Some(Word {
                raw: Some(Rc::from(t.as_slice())),
                parts: vec![WordPart::Quoted(t)],
            }));
        }
        let value = self.parse_value_word(&raw[i..])?;
        Ok(Some(Word {
            raw: Some(Rc::from(raw)),
            parts: vec![
                WordPart::Lit(raw[..i].to_vec()),
                WordPart::Double(value.parts),
            ],
        }))
    }

    /// `name=value`, `name+=value`, `name[sub]=value`, `name=(...)`.
    fn try_assignment(&mut self, raw: &[u8], start: usize) -> PResult<Option<Assign>> {
        let n = raw
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
            .count();
        if n == 0 || raw[0].is_ascii_digit() {
            return Ok(None);
        }
        let name = raw[..n].to_vec();
        let mut i = n;
        let mut index = None;
        if raw.get(i) == Some(&b'[') {
            let j = match find_close_bracket(&raw[i..]) {
                Some(c) => i + c,
                None => return Ok(None),
            };
            let sub = &raw[i + 1..j];
            index = Some(self.parse_sub_word(sub)?);
            i = j + 1;
        }
        let append = raw.get(i) == Some(&b'+');
        if append {
            i += 1;
        }
        if raw.get(i) != Some(&b'=') {
            return Ok(None);
        }
        i += 1;
        let vraw = &raw[i..];
        if vraw.is_empty() && self.peek_byte() == Some(b'(') && index.is_none() {
            // array literal
            self.pos += 1;
            let mut elems = Vec::new();
            let was = std::mem::replace(&mut self.in_compound, true);
            let r = self.array_literal(&mut elems);
            self.in_compound = was;
            r.map_err(|e| SyntaxError {
                status: Some(1),
                ..e
            })?;
            return Ok(Some(Assign {
                name,
                index,
                append,
                value: AssignValue::Array(elems),
            }));
        }
        let _ = start;
        let value = self.parse_value_word(vraw)?;
        Ok(Some(Assign {
            name,
            index,
            append,
            value: AssignValue::Scalar(value),
        }))
    }

    /// The elements of `name=( ... )` up to and with the `)`.
    fn array_literal(&mut self, elems: &mut Vec<(Option<Word>, Word)>) -> PResult<()> {
        {
            loop {
                self.skip_blanks();
                match self.peek_byte() {
                    Some(b'\n') => {
                        self.bump();
                        continue;
                    }
                    Some(b')') => {
                        self.pos += 1;
                        break;
                    }
                    None => return Err(self.eof_err(")")),
                    _ => {}
                }
                self.in_array_literal = true;
                let t = self.next_tok();
                self.in_array_literal = false;
                match t? {
                    Tok::Word(w, wraw) => {
                        let key = if wraw.first() == Some(&b'[') {
                            if let Some(close) = find_close_bracket(&wraw) {
                                if wraw.get(close + 1) == Some(&b'=') {
                                    Some((
                                        self.parse_sub_word(&wraw[1..close])?,
                                        self.parse_value_word(&wraw[close + 2..])?,
                                    ))
                                } else {
                                    None
                                }
                            } else {
                                None
                            }
                        } else {
                            None
                        };
                        match key {
                            Some((k, v)) => elems.push((Some(k), v)),
                            None => elems.push((None, w)),
                        }
                    }
                    other => return Err(self.unexpected(&other)),
                }
            }
        }
        Ok(())
    }

    fn compound(&mut self) -> PResult<Compound> {
        let m = self.mark();
        let t = self.next_tok()?;
        let kw: Bytes = match &t {
            Tok::Word(w, _) => w.as_plain().map(|s| s.to_vec()).unwrap_or_default(),
            Tok::Op("(") => b"((".to_vec(),
            _ => Vec::new(),
        };
        match kw.as_slice() {
            b"{" => {
                let body = self.compound_list(&["}"])?;
                self.expect_kw("}")?;
                Ok(Compound::Brace(body))
            }
            b"if" => {
                let mut arms = Vec::new();
                let mut els = None;
                let c = self.compound_list(&["then"])?;
                self.expect_kw("then")?;
                let b = self.compound_list(&["elif", "else", "fi"])?;
                arms.push((c, b));
                loop {
                    let t = self.next_tok()?;
                    if Self::is_kw(&t, "elif") {
                        let c = self.compound_list(&["then"])?;
                        self.expect_kw("then")?;
                        let b = self.compound_list(&["elif", "else", "fi"])?;
                        arms.push((c, b));
                    } else if Self::is_kw(&t, "else") {
                        els = Some(self.compound_list(&["fi"])?);
                        self.expect_kw("fi")?;
                        break;
                    } else if Self::is_kw(&t, "fi") {
                        break;
                    } else {
                        return Err(self.unexpected(&t));
                    }
                }
                Ok(Compound::If(arms, els))
            }
            b"while" | b"until" => {
                let c = self.compound_list(&["do"])?;
                self.expect_kw("do")?;
                let b = self.compound_list(&["done"])?;
                self.expect_kw("done")?;
                Ok(Compound::While(kw == b"until", c, b))
            }
            b"for" | b"select" => {
                self.skip_blanks();
                if kw == b"for" && self.src[self.pos..].starts_with(b"((") {
                    self.pos += 2;
                    let text = self.read_arith_text()?;
                    let parts = match split_arith_for(&text) {
                        Ok(p) => p,
                        Err(few) => {
                            // bash names the problem, then shows the header
                            let mut e = self.err(if few {
                                "syntax error: arithmetic expression required".into()
                            } else {
                                "syntax error: `;' unexpected".into()
                            });
                            e.also = Some(format!(
                                "syntax error: `(({}))'",
                                String::from_utf8_lossy(&text)
                            ));
                            return Err(e);
                        }
                    };
                    let mut srcs = Vec::new();
                    for p in parts {
                        if p.iter().all(|c| c.is_ascii_whitespace()) {
                            srcs.push(None);
                        } else {
                            srcs.push(Some(self.arith_src(&p)?));
                        }
                    }
                    self.skip_blanks();
                    if self.peek_byte() == Some(b';') {
                        self.pos += 1;
                    }
                    self.skip_newlines()?;
                    let body = self.loop_body()?;
                    let mut it = srcs.into_iter();
                    let (a, b, c) = (
                        it.next().flatten(),
                        it.next().flatten(),
                        it.next().flatten(),
                    );
                    return Ok(Compound::ArithFor(a, b, c, body));
                }
                let t = self.next_tok()?;
                // any word parses; one that is not a name fails as the loop runs
                let var = match &t {
                    Tok::Word(_, raw) => raw.clone(),
                    _ => return Err(self.unexpected(&t)),
                };
                let m2 = self.mark();
                let mut t = self.next_tok()?;
                while t == Tok::Newline {
                    self.read_heredocs()?;
                    t = self.next_tok()?;
                }
                let words = if Self::is_kw(&t, "in") {
                    let mut ws = Vec::new();
                    loop {
                        let t = self.next_tok()?;
                        match t {
                            Tok::Word(w, _) => ws.push(w),
                            Tok::Op(";") | Tok::Newline => {
                                if t == Tok::Newline {
                                    self.read_heredocs()?;
                                }
                                break;
                            }
                            other => return Err(self.unexpected(&other)),
                        }
                    }
                    Some(ws)
                } else if t == Tok::Op(";") {
                    None
                } else {
                    self.reset(m2);
                    None
                };
                self.skip_newlines()?;
                let body = self.loop_body()?;
                if kw == b"for" {
                    Ok(Compound::For(var, words, body))
                } else {
                    Ok(Compound::Select(var, words, body))
                }
            }
            b"case" => self.case_cmd(),
            b"[[" => {
                // [[ ]] patterns always know extglob (bash 5.2)
                let outer = std::mem::replace(&mut self.extglob, true);
                let e = self.cond_command();
                self.extglob = outer;
                let e = e?;
                Ok(Compound::Cond(e))
            }
            b"((" => {
                if self.src.get(self.pos) != Some(&b'(') {
                    self.reset(m);
                    return Err(self.unexpected(&t));
                }
                self.pos += 1;
                let start = self.pos;
                let text = match self.read_arith_text() {
                    Ok(t) => t,
                    // `((1+2)` and the end of input: bash names the whole text
                    Err(e) if !e.eof && self.src[self.pos..].iter().all(|c| *c == b'\n') => {
                        let mut near = b"((".to_vec();
                        near.extend_from_slice(&self.src[start..self.pos]);
                        let mut e = self.err(format!(
                            "syntax error near `{}'",
                            String::from_utf8_lossy(&near)
                        ));
                        e.context = Some(self.line_text(self.pos.saturating_sub(1)));
                        return Err(e);
                    }
                    Err(e) => return Err(e),
                };
                Ok(Compound::Arith(self.arith_src(&text)?))
            }
            _ => Err(self.unexpected(&t)),
        }
    }

    fn loop_body(&mut self) -> PResult<Program> {
        let t = self.next_tok()?;
        if Self::is_kw(&t, "do") {
            let b = self.compound_list(&["done"])?;
            self.expect_kw("done")?;
            Ok(b)
        } else if Self::is_kw(&t, "{") {
            let b = self.compound_list(&["}"])?;
            self.expect_kw("}")?;
            Ok(b)
        } else {
            Err(self.unexpected(&t))
        }
    }

    fn case_cmd(&mut self) -> PResult<Compound> {
        let t = self.next_tok()?;
        let word = match t {
            Tok::Word(w, _) => w,
            other => return Err(self.unexpected(&other)),
        };
        self.skip_newlines()?;
        self.expect_kw("in")?;
        self.skip_newlines()?;
        let mut arms = Vec::new();
        loop {
            let t = self.next_tok()?;
            if Self::is_kw(&t, "esac") {
                break;
            }
            let mut t = t;
            if t == Tok::Op("(") {
                t = self.next_tok()?;
            }
            let mut pats = Vec::new();
            loop {
                match t {
                    Tok::Word(w, _) => pats.push(w),
                    other => return Err(self.unexpected(&other)),
                }
                let n = self.next_tok()?;
                match n {
                    Tok::Op("|") => t = self.next_tok()?,
                    Tok::Op(")") => break,
                    other => return Err(self.unexpected(&other)),
                }
            }
            self.skip_newlines()?;
            let body = if self.peek_kw("esac")?
                || matches!(
                    self.peek_tok()?,
                    Tok::Op(";;") | Tok::Op(";&") | Tok::Op(";;&")
                ) {
                Program::default()
            } else {
                self.compound_list(&[";;", "esac"])?
            };
            let t = self.next_tok()?;
            let term = match t {
                Tok::Op(";;") => CaseTerm::Break,
                Tok::Op(";&") => CaseTerm::FallThrough,
                Tok::Op(";;&") => CaseTerm::Continue,
                ref x if Self::is_kw(x, "esac") => {
                    arms.push(CaseArm {
                        pats,
                        body,
                        term: CaseTerm::Break,
                    });
                    break;
                }
                other => return Err(self.unexpected(&other)),
            };
            arms.push(CaseArm { pats, body, term });
            self.skip_newlines()?;
        }
        Ok(Compound::Case(word, arms))
    }

    /// Text of `(( ... ))` after the opening parens, up to the matching `))`.
    pub(crate) fn read_arith_text(&mut self) -> PResult<Bytes> {
        let start = self.pos;
        let mut depth = 0i32;
        loop {
            let c = match self.bump() {
                Some(c) => c,
                None => return Err(self.eof_err(")")),
            };
            match c {
                b'(' => depth += 1,
                b')' => {
                    if depth == 0 {
                        if self.peek_byte() == Some(b')') {
                            let text = self.src[start..self.pos - 1].to_vec();
                            self.pos += 1;
                            return Ok(text);
                        }
                        return Err(self.err("syntax error near unexpected token `)'".into()));
                    }
                    depth -= 1;
                }
                b'\'' => {
                    while let Some(c) = self.bump() {
                        if c == b'\'' {
                            break;
                        }
                    }
                }
                _ => {}
            }
        }
    }

    pub(crate) fn arith_src(&mut self, text: &[u8]) -> PResult<Rc<ArithSrc>> {
        let word = self.parse_dq_text(text)?;
        let cached = match word.parts.as_slice() {
            [] => None,
            [WordPart::Lit(s)] | [WordPart::Quoted(s)] => parse_arith(s).ok().map(Rc::new),
            _ => None,
        };
        Ok(Rc::new(ArithSrc { word, cached }))
    }
}

fn is_name_fn(s: &[u8]) -> bool {
    !s.is_empty()
        && !s
            .iter()
            .any(|c| matches!(c, b'=' | b'$' | b'`' | b'\'' | b'"'))
}

/// The `]` closing the `[` at s[0] (quotes and backslashes respected).
pub(crate) fn find_close_bracket(s: &[u8]) -> Option<usize> {
    let mut depth = 0;
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'[' => depth += 1,
            b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            b'\\' => i += 1,
            q @ (b'\'' | b'"') => {
                i += 1;
                while i < s.len() && s[i] != q {
                    if q == b'"' && s[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

fn unquote_delim(raw: &[u8]) -> Bytes {
    let mut out = Vec::new();
    let mut i = 0;
    while i < raw.len() {
        match raw[i] {
            b'\'' | b'"' => {}
            b'\\' if i + 1 < raw.len() => {
                i += 1;
                out.push(raw[i]);
            }
            c => out.push(c),
        }
        i += 1;
    }
    out
}

/// Split `init; cond; step` of `for ((..))` at top-level semicolons.
/// The three expressions of `for (( a; b; c ))`; Err(true) when there are
/// fewer, Err(false) when more.
fn split_arith_for(t: &[u8]) -> Result<Vec<Bytes>, bool> {
    let mut parts = Vec::new();
    let mut cur = Vec::new();
    let mut depth = 0;
    for &c in t {
        match c {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b';' if depth == 0 => {
                parts.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    parts.push(cur);
    match parts.len() {
        3 => Ok(parts),
        n => Err(n < 3),
    }
}

thread_local! {
    /// Warnings the parser produces (here-doc ended by EOF); the shell prints them.
    // Newer clippy wants a `const` initializer, which Debian's clippy 1.63 flags as interior-mutable.
    #[allow(unknown_lints, clippy::missing_const_for_thread_local)]
    pub static WARNINGS: RefCell<Vec<(u32, String)>> = RefCell::new(Vec::new());
}

fn eprintln_warn(start: u32, line: u32, delim: &[u8]) {
    WARNINGS.with(|w| {
        w.borrow_mut().push((
            line,
            format!(
                "warning: here-document at line {} delimited by end-of-file (wanted `{}')",
                start,
                String::from_utf8_lossy(delim)
            ),
        ))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> PResult<Program> {
        Parser::parse_all(s.as_bytes(), 1)
    }

    #[test]
    fn simple_and_lists() {
        let p = parse("a b; c && d || e &\n").unwrap();
        assert_eq!(p.items.len(), 2);
        assert!(p.items[1].background);
        assert_eq!(p.items[1].and_or.rest.len(), 2);
    }

    #[test]
    fn compound_commands() {
        assert!(parse("if a; then b; elif c; then d; else e; fi").is_ok());
        assert!(parse("for x in 1 2; do echo $x; done").is_ok());
        assert!(parse("for ((i=0;i<3;i++)); do :; done").is_ok());
        assert!(parse("case x in a|b) echo;; (c) ;& *) ;;& esac").is_ok());
        assert!(parse("f() { echo; }; function g { :; }").is_ok());
        assert!(parse("while read l; do :; done < f").is_ok());
        assert!(parse("[[ a == b && -n c ]]").is_ok());
        assert!(parse("(( x += 2 ))").is_ok());
    }

    #[test]
    fn syntax_errors_name_token() {
        let e = parse("fi").unwrap_err();
        assert_eq!(e.msg, "syntax error near unexpected token `fi'");
        let e = parse("if true; then").unwrap_err();
        assert_eq!(e.msg, "syntax error: unexpected end of file");
        let e = parse("echo \"abc").unwrap_err();
        assert!(e.msg.contains("matching `\"'"));
    }

    #[test]
    fn unterminated_constructs_name_bash_lines_and_statuses() {
        // `$((` unbalanced to the end: the line it starts on
        let e = parse("echo $((1 +\n2\n").unwrap_err();
        assert_eq!((e.line, e.eof), (1, true));
        assert!(e.msg.contains("matching `)'"));
        let e = parse("echo $(\n").unwrap_err();
        assert!(e.msg.contains("matching `)'"));
        // an array literal's errors end the shell with 1, not 2
        assert_eq!(parse("a=(1 2\n").unwrap_err().status, Some(1));
        assert_eq!(parse("a=(1 2; echo\n").unwrap_err().status, Some(1));
        assert_eq!(parse("fi\n").unwrap_err().status, None);
        let e = parse("for ((i=0; i<2)); do :; done\n").unwrap_err();
        assert_eq!(e.msg, "syntax error: arithmetic expression required");
        assert_eq!(e.also.as_deref(), Some("syntax error: `((i=0; i<2))'"));
        let e = parse("for ((a;b;c;d)); do :; done\n").unwrap_err();
        assert_eq!(e.msg, "syntax error: `;' unexpected");
    }

    #[test]
    fn heredoc_body_read() {
        let p = parse("cat <<EOF\nhello $x\nEOF\necho after\n").unwrap();
        assert_eq!(p.items.len(), 2);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        // shell.wasm gets 8 MiB (build.rs); unoptimised test frames are much larger
        let t = std::thread::Builder::new().stack_size(256 << 20).spawn(|| {
            let s = "( ".repeat(5000) + &" )".repeat(5000);
            parse(&s).is_err()
        });
        assert!(t.expect("thread").join().unwrap_or(false));
    }
}

/// What `{var}>file` may name: a variable or an array element (`{a[1]}`).
fn is_fd_var(v: &[u8]) -> bool {
    match v.iter().position(|&c| c == b'[') {
        Some(open) => v.last() == Some(&b']') && open > 0 && is_name(&v[..open]),
        None => is_name(v),
    }
}
