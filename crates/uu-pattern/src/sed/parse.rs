//! The sed script parser: turns script text into a flat list of commands
//! where blocks and branches are resolved to command indices.

use crate::rx::{Config, Regex, Syntax};
use std::rc::Rc;

/// A regex slot: `None` means "the last regex used" (`//`).
pub type Re = Option<Rc<Regex>>;

/// A line address.
pub enum Addr {
    Line(u64),
    Last,
    Re(Re),
    /// `first~step`.
    Step(u64, u64),
    /// Only as the second address.
    Plus(u64),
    /// Only as the second address: up to the next multiple.
    Mult(u64),
}

/// A piece of an `s` replacement.
pub enum Repl {
    Lit(Vec<u8>),
    Group(usize),
    /// `\U \L \u \l \E`.
    Case(u8),
}

/// The `s` command.
pub struct Subst {
    pub re: Re,
    pub repl: Vec<Repl>,
    pub global: bool,
    pub nth: usize,
    pub print: u8,
    pub wfile: Option<usize>,
    pub eval: bool,
}

/// What a command does.
pub enum Kind {
    Block(usize),
    EndBlock,
    Eq,
    Append(Vec<u8>),
    Insert(Vec<u8>),
    Change(Vec<u8>),
    Branch(usize),
    BranchIfSub(usize),
    BranchIfNotSub(usize),
    Label,
    Delete,
    DeleteFirst,
    GetHold,
    GetHoldAppend,
    Hold,
    HoldAppend,
    Exchange,
    List(Option<usize>),
    Next,
    NextAppend,
    Print,
    PrintFirst,
    Quit(i32),
    QuitSilent(i32),
    ReadFile(Vec<u8>),
    ReadLine(usize),
    Write(usize),
    WriteFirst(usize),
    Subst(Box<Subst>),
    Translate(Box<[u8; 256]>),
    Zap,
    FileName,
    /// `e [command]`: run `command` and print its output, or (no command)
    /// run the pattern space and replace it with the output.
    Exec(Vec<u8>),
    Comment,
}

/// One command with its addresses.
pub struct Cmd {
    pub a1: Option<Addr>,
    pub a2: Option<Addr>,
    pub negate: bool,
    pub kind: Kind,
    /// Range state: in the middle of a range.
    pub active: bool,
    /// Line number ending a numeric range (`addr,+N`, `addr,N`).
    pub end_line: u64,
}

/// A file opened by `w`/`W`/`s///w` or read by `R`.
pub struct FileRef {
    pub name: Vec<u8>,
}

/// A parsed script.
pub struct Script {
    pub cmds: Vec<Cmd>,
    pub wfiles: Vec<FileRef>,
    pub rfiles: Vec<FileRef>,
    /// `#n` on the first line.
    pub hash_n: bool,
}

/// One script chunk: text and where it came from (for messages).
pub struct Chunk {
    pub text: Vec<u8>,
    /// `None` for -e expressions (numbered), `Some(name)` for -f files.
    pub file: Option<String>,
}

struct P<'a> {
    s: &'a [u8],
    i: usize,
    extended: bool,
    /// Error location prefix.
    loc: String,
    file_mode: bool,
    base_line: usize,
    seen_re: &'a std::cell::Cell<bool>,
}

type PResult<T> = Result<T, String>;

impl<'a> P<'a> {
    fn err(&self, msg: &str) -> String {
        if self.file_mode {
            let line = self.s[..self.i.min(self.s.len())]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + self.base_line;
            format!("file {} line {}: {}", self.loc, line, msg)
        } else {
            format!("-e expression #{}, char {}: {}", self.loc, self.i, msg)
        }
    }
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn next(&mut self) -> Option<u8> {
        let c = self.peek();
        if c.is_some() {
            self.i += 1;
        }
        c
    }
    fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            if c == b' ' || c == b'\t' {
                self.i += 1;
            } else {
                break;
            }
        }
    }
    fn num(&mut self) -> u64 {
        let mut n: u64 = 0;
        while let Some(c) = self.peek() {
            if c.is_ascii_digit() {
                n = n.saturating_mul(10).saturating_add((c - b'0') as u64);
                self.i += 1;
            } else {
                break;
            }
        }
        n
    }

    /// Read a delimited part (regex or replacement) up to `delim`.
    /// `\delim` becomes `delim`; other escapes are kept.
    fn delimited(&mut self, delim: u8, is_regex: bool) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        loop {
            let c = self.next()?;
            if c == delim {
                return Some(out);
            }
            if c == b'\\' {
                let e = self.next()?;
                if e == delim {
                    if is_regex && delim != b'&' && b".*[]^$".contains(&delim) {
                        // Keep special delimiters literal.
                        out.push(b'\\');
                    }
                    out.push(e);
                } else if e == b'\n' && is_regex {
                    out.push(b'\n');
                } else {
                    out.push(b'\\');
                    out.push(e);
                }
                continue;
            }
            if c == b'\n' && is_regex {
                return None;
            }
            out.push(c);
        }
    }

    fn regex(&mut self, pat: &[u8], icase: bool, multi: bool) -> PResult<Re> {
        if pat.is_empty() {
            if !self.seen_re.get() {
                let loc = if self.file_mode {
                    format!("file {} line 0", self.loc)
                } else {
                    format!("-e expression #{}, char 0", self.loc)
                };
                return Err(format!("{}: no previous regular expression", loc));
            }
            return Ok(None);
        }
        self.seen_re.set(true);
        let mut cfg = Config::new(if self.extended {
            Syntax::Extended
        } else {
            Syntax::Basic
        });
        cfg.icase = icase;
        cfg.multiline = multi;
        cfg.c_escapes = true;
        Regex::new(pat, &cfg)
            .map(|r| Some(Rc::new(r)))
            .map_err(|e| self.err(&e))
    }

    fn addr(&mut self) -> PResult<Option<Addr>> {
        let c = match self.peek() {
            Some(c) => c,
            None => return Ok(None),
        };
        if c.is_ascii_digit() {
            let n = self.num();
            if self.peek() == Some(b'~') {
                self.i += 1;
                let step = self.num();
                return Ok(Some(Addr::Step(n, step)));
            }
            return Ok(Some(Addr::Line(n)));
        }
        if c == b'$' {
            self.i += 1;
            return Ok(Some(Addr::Last));
        }
        if c == b'/' || c == b'\\' {
            self.i += 1;
            let delim = if c == b'\\' {
                match self.next() {
                    Some(d) => d,
                    None => return Err(self.err("unexpected end of expression")),
                }
            } else {
                b'/'
            };
            let pat = match self.delimited(delim, true) {
                Some(p) => p,
                None => return Err(self.err("unterminated address regex")),
            };
            let mut icase = false;
            let mut multi = false;
            loop {
                match self.peek() {
                    Some(b'I') => icase = true,
                    Some(b'M') => multi = true,
                    _ => break,
                }
                self.i += 1;
            }
            return Ok(Some(Addr::Re(self.regex(&pat, icase, multi)?)));
        }
        Ok(None)
    }

    /// Text argument of a, i, c.
    fn text(&mut self) -> PResult<Vec<u8>> {
        self.skip_ws();
        let mut out = Vec::new();
        if self.peek() == Some(b'\\') {
            // GNU keeps blanks after `a\` on the same line (`a\  text`)
            self.i += 1;
            if self.peek() == Some(b'\n') {
                self.i += 1;
            }
            if self.peek().is_none() {
                return Ok(Vec::new());
            }
        } else if self.peek().is_none() || self.peek() == Some(b'\n') {
            return Err(self.err("expected \\ after `a', `c' or `i'"));
        }
        while let Some(c) = self.next() {
            if c == b'\\' {
                match self.next() {
                    Some(e) => out.push(e),
                    None => break,
                }
                continue;
            }
            if c == b'\n' {
                break;
            }
            out.push(c);
        }
        out.push(b'\n');
        Ok(out)
    }

    fn label(&mut self) -> Vec<u8> {
        self.skip_ws();
        let s = self.i;
        while let Some(c) = self.peek() {
            if c == b'\n' || c == b';' || c == b'}' {
                break;
            }
            self.i += 1;
        }
        let mut l = self.s[s..self.i].to_vec();
        while l.last().map_or(false, |c| *c == b' ' || *c == b'\t') {
            l.pop();
        }
        l
    }

    fn filename(&mut self) -> Vec<u8> {
        self.skip_ws();
        let s = self.i;
        while let Some(c) = self.peek() {
            if c == b'\n' {
                break;
            }
            self.i += 1;
        }
        self.s[s..self.i].to_vec()
    }

    /// After a command: spaces, then `;`, `}`, `#`, newline or end.
    fn end_cmd(&mut self) -> PResult<()> {
        self.skip_ws();
        match self.peek() {
            None | Some(b'\n') | Some(b';') => {
                if self.peek().is_some() {
                    self.i += 1;
                }
                Ok(())
            }
            Some(b'}') | Some(b'#') => Ok(()),
            _ => {
                self.i += 1;
                Err(self.err("extra characters after command"))
            }
        }
    }
}

fn parse_repl(p: &P, r: &[u8], groups: Option<usize>) -> PResult<Vec<Repl>> {
    let mut out = Vec::new();
    let mut lit = Vec::new();
    let mut i = 0;
    while i < r.len() {
        let c = r[i];
        i += 1;
        if c == b'&' {
            if !lit.is_empty() {
                out.push(Repl::Lit(std::mem::take(&mut lit)));
            }
            out.push(Repl::Group(0));
        } else if c == b'\\' && i < r.len() {
            let e = r[i];
            i += 1;
            match e {
                b'0'..=b'9' => {
                    let n = (e - b'0') as usize;
                    if let Some(g) = groups {
                        if n > g {
                            return Err(
                                p.err(&format!("invalid reference \\{} on `s' command's RHS", n))
                            );
                        }
                    }
                    if !lit.is_empty() {
                        out.push(Repl::Lit(std::mem::take(&mut lit)));
                    }
                    out.push(Repl::Group(n));
                }
                b'L' | b'U' | b'l' | b'u' | b'E' => {
                    if !lit.is_empty() {
                        out.push(Repl::Lit(std::mem::take(&mut lit)));
                    }
                    out.push(Repl::Case(e));
                }
                b'n' => lit.push(b'\n'),
                b't' => lit.push(b'\t'),
                b'r' => lit.push(b'\r'),
                b'f' => lit.push(0x0c),
                b'v' => lit.push(0x0b),
                b'a' => lit.push(0x07),
                b'\n' => lit.push(b'\n'),
                _ => lit.push(e),
            }
        } else {
            lit.push(c);
        }
    }
    if !lit.is_empty() {
        out.push(Repl::Lit(lit));
    }
    Ok(out)
}

/// Unescape the parts of a `y` command.
fn y_part(p: &P, s: &[u8]) -> PResult<Vec<u8>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'\\' && i + 1 < s.len() {
            out.push(match s[i + 1] {
                b'n' => b'\n',
                b't' => b'\t',
                b'r' => b'\r',
                b'\\' => b'\\',
                other => {
                    let _ = p;
                    other
                }
            });
            i += 2;
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    Ok(out)
}

fn wfile(files: &mut Vec<FileRef>, name: Vec<u8>) -> usize {
    if let Some(i) = files.iter().position(|f| f.name == name) {
        return i;
    }
    files.push(FileRef { name });
    files.len() - 1
}

/// GNU's message for a command `--sandbox` refuses.
const SANDBOXED: &str = "e/r/w commands disabled in sandbox mode";

/// Parse all chunks into one script.
///
/// `sandbox` (GNU `--sandbox`) rejects the commands that reach outside:
/// `e`, `r`, `R`, `w`, `W` and the `s` flags `w` and `e`.
pub fn parse(chunks: &[Chunk], extended: bool, sandbox: bool) -> Result<Script, String> {
    // GNU joins -e expressions with newlines; errors are reported per chunk.
    let mut script = Script {
        cmds: Vec::new(),
        wfiles: Vec::new(),
        rfiles: Vec::new(),
        hash_n: false,
    };
    if let Some(c) = chunks.first() {
        if c.text.starts_with(b"#n") && (c.text.len() == 2 || c.text[2] == b'\n') {
            script.hash_n = true;
        }
    }
    let mut blocks: Vec<usize> = Vec::new();
    let mut labels: Vec<(Vec<u8>, usize)> = Vec::new();
    let mut jumps: Vec<(usize, Vec<u8>)> = Vec::new();
    let mut expr_no = 0;
    let mut pending_text: Option<usize> = None;
    let seen_re = std::cell::Cell::new(false);
    for chunk in chunks {
        let loc = match &chunk.file {
            Some(f) => f.clone(),
            None => {
                expr_no += 1;
                expr_no.to_string()
            }
        };
        let mut p = P {
            s: &chunk.text,
            i: 0,
            extended,
            loc,
            file_mode: chunk.file.is_some(),
            base_line: 1,
            seen_re: &seen_re,
        };
        // `a\` ending one -e continues into the next one.
        if let Some(ci) = pending_text.take() {
            let mut t = Vec::new();
            let mut j = 0;
            while j < p.s.len() && p.s[j] != b'\n' {
                if p.s[j] == b'\\' && j + 1 < p.s.len() {
                    j += 1;
                }
                t.push(p.s[j]);
                j += 1;
            }
            t.push(b'\n');
            p.i = (j + 1).min(p.s.len());
            match &mut script.cmds[ci].kind {
                Kind::Append(x) | Kind::Insert(x) | Kind::Change(x) => *x = t,
                _ => {}
            }
        }
        loop {
            // Skip separators.
            while let Some(c) = p.peek() {
                if c == b' ' || c == b'\t' || c == b'\n' || c == b';' {
                    p.i += 1;
                } else {
                    break;
                }
            }
            if p.peek().is_none() {
                break;
            }
            if p.peek() == Some(b'#') {
                while let Some(c) = p.next() {
                    if c == b'\n' {
                        break;
                    }
                }
                continue;
            }
            let a1 = p.addr()?;
            let mut a2 = None;
            if a1.is_some() {
                p.skip_ws();
                if p.peek() == Some(b',') {
                    p.i += 1;
                    p.skip_ws();
                    a2 = match p.peek() {
                        Some(b'+') => {
                            p.i += 1;
                            Some(Addr::Plus(p.num()))
                        }
                        Some(b'~') => {
                            p.i += 1;
                            Some(Addr::Mult(p.num()))
                        }
                        _ => match p.addr()? {
                            Some(Addr::Step(n, _)) => Some(Addr::Line(n)),
                            Some(a) => Some(a),
                            None => return Err(p.err("unexpected `,'")),
                        },
                    };
                }
            } else if p.peek() == Some(b',') {
                p.i += 1;
                return Err(p.err("unknown command: `,'"));
            }
            p.skip_ws();
            let mut negate = false;
            while p.peek() == Some(b'!') {
                negate = true;
                p.i += 1;
                p.skip_ws();
            }
            let c = match p.next() {
                Some(c) => c,
                None => return Err(p.err("missing command")),
            };
            if let Some(Addr::Line(0)) = a1 {
                if !matches!(a2, Some(Addr::Re(_))) {
                    return Err(p.err("invalid usage of line address 0"));
                }
            }
            let idx = script.cmds.len();
            let kind = match c {
                b'{' => {
                    blocks.push(idx);
                    Kind::Block(0)
                }
                b'}' => {
                    if a1.is_some() {
                        return Err(p.err("} doesn't want any addresses"));
                    }
                    let open = match blocks.pop() {
                        Some(o) => o,
                        None => return Err(p.err("unexpected `}'")),
                    };
                    script.cmds[open].kind = Kind::Block(idx + 1);
                    p.end_cmd()?;
                    Kind::EndBlock
                }
                b'#' => {
                    if a1.is_some() {
                        return Err(p.err("comments don't accept any addresses"));
                    }
                    Kind::Comment
                }
                b'=' => {
                    p.end_cmd()?;
                    Kind::Eq
                }
                b'a' | b'i' | b'c' => {
                    let t = p.text()?;
                    // A chunk ending in `a\` takes its text from the next chunk.
                    let bare = t.is_empty();
                    if bare {
                        pending_text = Some(idx);
                    }
                    match c {
                        b'a' => Kind::Append(t),
                        b'i' => Kind::Insert(t),
                        _ => Kind::Change(t),
                    }
                }
                b':' => {
                    if a1.is_some() {
                        return Err(p.err(": doesn't want any addresses"));
                    }
                    let l = p.label();
                    if l.is_empty() {
                        return Err(p.err("\":\" lacks a label"));
                    }
                    labels.push((l, idx));
                    Kind::Label
                }
                b'b' | b't' | b'T' => {
                    let l = p.label();
                    if p.peek() == Some(b';') {
                        p.i += 1;
                    }
                    jumps.push((idx, l));
                    match c {
                        b'b' => Kind::Branch(0),
                        b't' => Kind::BranchIfSub(0),
                        _ => Kind::BranchIfNotSub(0),
                    }
                }
                b'd' | b'D' | b'g' | b'G' | b'h' | b'H' | b'x' | b'n' | b'N' | b'p' | b'P'
                | b'z' | b'F' => {
                    p.end_cmd()?;
                    match c {
                        b'd' => Kind::Delete,
                        b'D' => Kind::DeleteFirst,
                        b'g' => Kind::GetHold,
                        b'G' => Kind::GetHoldAppend,
                        b'h' => Kind::Hold,
                        b'H' => Kind::HoldAppend,
                        b'x' => Kind::Exchange,
                        b'n' => Kind::Next,
                        b'N' => Kind::NextAppend,
                        b'p' => Kind::Print,
                        b'P' => Kind::PrintFirst,
                        b'z' => Kind::Zap,
                        _ => Kind::FileName,
                    }
                }
                b'l' | b'q' | b'Q' | b'L' => {
                    p.skip_ws();
                    let has = p.peek().map_or(false, |c| c.is_ascii_digit());
                    let n = p.num();
                    if (c == b'q' || c == b'Q') && a2.is_some() {
                        return Err(p.err("command only uses one address"));
                    }
                    p.end_cmd()?;
                    match c {
                        b'l' => Kind::List(if has { Some(n as usize) } else { None }),
                        b'q' => Kind::Quit(n as i32),
                        b'Q' => Kind::QuitSilent(n as i32),
                        _ => return Err(p.err("unknown command: `L'")),
                    }
                }
                b'e' | b'r' | b'R' | b'w' | b'W' if sandbox => {
                    return Err(p.err(SANDBOXED));
                }
                b'r' => {
                    let f = p.filename();
                    if f.is_empty() {
                        return Err(p.err("missing filename in r/R/w/W commands"));
                    }
                    Kind::ReadFile(f)
                }
                b'R' => {
                    let f = p.filename();
                    if f.is_empty() {
                        return Err(p.err("missing filename in r/R/w/W commands"));
                    }
                    Kind::ReadLine(wfile(&mut script.rfiles, f))
                }
                b'w' | b'W' => {
                    let f = p.filename();
                    if f.is_empty() {
                        return Err(p.err("missing filename in r/R/w/W commands"));
                    }
                    let n = wfile(&mut script.wfiles, f);
                    if c == b'w' {
                        Kind::Write(n)
                    } else {
                        Kind::WriteFirst(n)
                    }
                }
                b'e' => Kind::Exec(p.filename()),
                b's' => {
                    let delim = match p.next() {
                        Some(d) if d != b'\n' && d != b'\\' => d,
                        _ => return Err(p.err("unterminated `s' command")),
                    };
                    let pat = match p.delimited(delim, true) {
                        Some(x) => x,
                        None => return Err(p.err("unterminated `s' command")),
                    };
                    let rep = match p.delimited(delim, false) {
                        Some(x) => x,
                        None => return Err(p.err("unterminated `s' command")),
                    };
                    let mut sub = Subst {
                        re: None,
                        repl: Vec::new(),
                        global: false,
                        nth: 1,
                        print: 0,
                        wfile: None,
                        eval: false,
                    };
                    let mut icase = false;
                    let mut multi = false;
                    let mut seen_n = false;
                    loop {
                        match p.peek() {
                            Some(b'g') => {
                                p.i += 1;
                                if sub.global {
                                    return Err(p.err("multiple `g' options to `s' command"));
                                }
                                sub.global = true;
                            }
                            Some(b'p') => {
                                p.i += 1;
                                sub.print += 1;
                            }
                            Some(b'i') | Some(b'I') => {
                                p.i += 1;
                                icase = true;
                            }
                            Some(b'm') | Some(b'M') => {
                                p.i += 1;
                                multi = true;
                            }
                            Some(b'e') => {
                                p.i += 1;
                                if sandbox {
                                    return Err(p.err(SANDBOXED));
                                }
                                sub.eval = true;
                            }
                            Some(c) if c.is_ascii_digit() => {
                                if seen_n {
                                    p.i += 1;
                                    return Err(p.err("multiple number options to `s' command"));
                                }
                                seen_n = true;
                                let n = p.num();
                                if n == 0 {
                                    return Err(
                                        p.err("number option to `s' command may not be zero")
                                    );
                                }
                                sub.nth = n as usize;
                            }
                            Some(b'w') => {
                                p.i += 1;
                                if sandbox {
                                    return Err(p.err(SANDBOXED));
                                }
                                let f = p.filename();
                                if f.is_empty() {
                                    return Err(p.err("missing filename in r/R/w/W commands"));
                                }
                                sub.wfile = Some(wfile(&mut script.wfiles, f));
                                break;
                            }
                            _ => break,
                        }
                    }
                    p.skip_ws();
                    match p.peek() {
                        None | Some(b'\n') | Some(b';') | Some(b'}') | Some(b'#') => {}
                        _ => {
                            p.i += 1;
                            return Err(p.err("unknown option to `s'"));
                        }
                    }
                    sub.re = p.regex(&pat, icase, multi)?;
                    let groups = sub.re.as_ref().map(|r| r.groups);
                    sub.repl = parse_repl(&p, &rep, groups)?;
                    p.end_cmd()?;
                    Kind::Subst(Box::new(sub))
                }
                b'y' => {
                    let delim = match p.next() {
                        Some(d) if d != b'\n' && d != b'\\' => d,
                        _ => return Err(p.err("unterminated `y' command")),
                    };
                    let a = match p.delimited(delim, false) {
                        Some(x) => y_part(&p, &x)?,
                        None => return Err(p.err("unterminated `y' command")),
                    };
                    let b = match p.delimited(delim, false) {
                        Some(x) => y_part(&p, &x)?,
                        None => return Err(p.err("unterminated `y' command")),
                    };
                    if a.len() != b.len() {
                        return Err(p.err("strings for `y' command are different lengths"));
                    }
                    let mut map = Box::new([0u8; 256]);
                    for (k, v) in map.iter_mut().enumerate() {
                        *v = k as u8;
                    }
                    for (x, y) in a.iter().zip(b.iter()) {
                        map[*x as usize] = *y;
                    }
                    p.end_cmd()?;
                    Kind::Translate(map)
                }
                other => {
                    return Err(p.err(&format!("unknown command: `{}'", other as char)));
                }
            };
            script.cmds.push(Cmd {
                a1,
                a2,
                negate,
                kind,
                active: false,
                end_line: 0,
            });
        }
    }
    if !blocks.is_empty() {
        let loc = if chunks.last().map_or(false, |c| c.file.is_some()) {
            "file - line 0".to_string()
        } else {
            format!("-e expression #{}, char 0", expr_no.max(1))
        };
        return Err(format!("{}: unmatched `{{'", loc));
    }
    for (idx, l) in jumps {
        let target = if l.is_empty() {
            script.cmds.len()
        } else {
            match labels.iter().find(|(n, _)| *n == l) {
                Some((_, t)) => *t,
                None => {
                    return Err(format!(
                        "\x04can't find label for jump to `{}'",
                        String::from_utf8_lossy(&l)
                    ))
                }
            }
        };
        match &mut script.cmds[idx].kind {
            Kind::Branch(t) | Kind::BranchIfSub(t) | Kind::BranchIfNotSub(t) => *t = target,
            _ => {}
        }
    }
    Ok(script)
}
