//! Turns the tree back into shell text: words for messages such as
//! "ambiguous redirect", simple commands for `$BASH_COMMAND`, and whole
//! functions in bash's layout for `declare -f` and `type`.

use crate::ast::*;

pub fn word_text(w: &Word) -> Bytes {
    // as written, but `$'..'` the way bash keeps it: single-quoted text
    if let Some(r) = w.raw.as_ref().filter(|r| !r.windows(2).any(|x| x == b"$'")) {
        return r.to_vec();
    }
    let mut o = Vec::new();
    for p in &w.parts {
        part(p, &mut o);
    }
    o
}

fn part(p: &WordPart, o: &mut Bytes) {
    match p {
        WordPart::Lit(s) => o.extend_from_slice(s),
        WordPart::Quoted(s) => {
            o.push(b'\'');
            o.extend_from_slice(s);
            o.push(b'\'');
        }
        WordPart::Double(ps) => {
            o.push(b'"');
            for q in ps {
                part(q, o);
            }
            o.push(b'"');
        }
        WordPart::Param(pa) => {
            o.push(b'$');
            let simple =
                matches!(pa.op, ParamOp::None) && pa.index.is_none() && !pa.length && !pa.indirect;
            if !simple {
                o.push(b'{');
            }
            if pa.length {
                o.push(b'#');
            }
            if pa.indirect {
                o.push(b'!');
            }
            match &pa.name {
                ParamName::Var(n) => o.extend_from_slice(n),
                ParamName::Positional(n) => o.extend_from_slice(n.to_string().as_bytes()),
                ParamName::Special(c) => o.push(*c),
            }
            if let Some(ix) = &pa.index {
                o.push(b'[');
                o.extend_from_slice(&word_text(ix));
                o.push(b']');
            }
            if !simple {
                o.push(b'}');
            }
        }
        WordPart::Cmd(_, bq, src) => {
            o.extend_from_slice(if *bq { b"`" } else { b"$(" });
            o.extend_from_slice(&src.text);
            o.extend_from_slice(if *bq { b"`" } else { b")" });
        }
        WordPart::Arith(a) => {
            o.extend_from_slice(b"$((");
            o.extend_from_slice(&word_text(&a.word));
            o.extend_from_slice(b"))");
        }
        WordPart::Tilde(u) => {
            o.push(b'~');
            o.extend_from_slice(u);
        }
        WordPart::ProcSub(w, _, src) => {
            o.extend_from_slice(if *w { b">(" } else { b"<(" });
            o.extend_from_slice(&src.text);
            o.push(b')');
        }
    }
}

/// `name` or `name[sub]` of an assignment, as written.
pub fn assign_target(a: &Assign) -> Bytes {
    let mut o = a.name.clone();
    if let Some(ix) = &a.index {
        o.push(b'[');
        o.extend_from_slice(&word_text(ix));
        o.push(b']');
    }
    o
}

/// An assignment word as written: `a[1]+=x`, `a=(x [2]=y)`.
pub fn assign_text(a: &Assign) -> Bytes {
    let mut o = assign_target(a);
    o.extend_from_slice(if a.append { b"+=" } else { b"=" });
    match &a.value {
        AssignValue::Scalar(w) => o.extend_from_slice(&word_text(w)),
        AssignValue::Array(elems) => {
            o.push(b'(');
            for (i, (k, v)) in elems.iter().enumerate() {
                if i > 0 {
                    o.push(b' ');
                }
                if let Some(k) = k {
                    o.push(b'[');
                    o.extend_from_slice(&word_text(k));
                    o.extend_from_slice(b"]=");
                }
                o.extend_from_slice(&word_text(v));
            }
            o.push(b')');
        }
    }
    o
}

/// A simple command as bash shows it in `$BASH_COMMAND`: assignments, words,
/// then redirections written `2> file`, `1>&2`, `<<< word`.
pub fn simple_text(s: &Simple) -> Bytes {
    let mut items: Vec<Bytes> = Vec::new();
    items.extend(s.assigns.iter().map(assign_text));
    items.extend(s.words.iter().map(word_text));
    for r in &s.redirs {
        items.push(redir_text(r));
    }
    items.join(&b' ')
}

fn redir_text(r: &Redir) -> Bytes {
    let (default_fd, op): (i32, &[u8]) = match r.op {
        RedirOp::In => (0, b"<"),
        RedirOp::Out => (1, b">"),
        RedirOp::Append => (1, b">>"),
        RedirOp::Clobber => (1, b">|"),
        RedirOp::InOut => (0, b"<>"),
        RedirOp::DupIn => (0, b"<&"),
        RedirOp::DupOut => (1, b">&"),
        RedirOp::AndOut => (1, b"&>"),
        RedirOp::AndAppend => (1, b"&>>"),
        RedirOp::HereDoc => (0, b"<<"),
        RedirOp::HereStr => (0, b"<<<"),
    };
    let mut o = Vec::new();
    if let Some(v) = &r.var {
        o.push(b'{');
        o.extend_from_slice(v);
        o.push(b'}');
    } else if matches!(r.op, RedirOp::DupIn | RedirOp::DupOut | RedirOp::InOut) {
        o.extend_from_slice(r.fd.unwrap_or(default_fd).to_string().as_bytes());
    } else if let Some(fd) = r.fd.filter(|fd| *fd != default_fd) {
        o.extend_from_slice(fd.to_string().as_bytes());
    }
    // a close is written `N>&-` whichever way it was asked for
    let close = r.op == RedirOp::DupIn && word_text(&r.target) == b"-";
    o.extend_from_slice(if close { b">&" } else { op });
    match &r.heredoc {
        Some(h) => {
            let h = h.borrow();
            o.extend_from_slice(&h.delim);
        }
        None => {
            if !matches!(r.op, RedirOp::DupIn | RedirOp::DupOut) {
                o.push(b' ');
            }
            o.extend_from_slice(&word_text(&r.target));
        }
    }
    o
}

/// `declare -f` / `type` layout of a function, as bash's printer lays it out:
/// `name () \n{ \n    cmd;\n    cmd\n}`, compound commands over several
/// indented lines, words as written.
pub fn function_def(name: &[u8], f: &FuncDef) -> Bytes {
    let mut p = Layout::default();
    p.funcdef(name, &f.body, &f.redirs, 0, false);
    p.o.push(b'\n');
    p.o
}

/// `[[ expr ]]` as bash prints it (`$BASH_COMMAND`, `declare -f`).
pub fn cond_text(e: &CondExpr) -> Bytes {
    let mut p = Layout::default();
    p.o.extend_from_slice(b"[[ ");
    p.cond(e);
    p.o.extend_from_slice(b" ]]");
    p.o
}

#[derive(Default)]
struct Layout {
    o: Bytes,
}

impl Layout {
    fn indent(&mut self, n: usize) {
        self.o.extend(std::iter::repeat(b' ').take(n));
    }

    /// bash's `semicolon()`: a `;` unless the text already ends a command.
    fn semicolon(&mut self) {
        if !matches!(self.o.last(), Some(b';') | Some(b'&') | Some(b'\n')) {
            self.o.push(b';');
        }
    }

    fn funcdef(
        &mut self,
        name: &[u8],
        body: &Compound,
        redirs: &[Redir],
        ind: usize,
        nested: bool,
    ) {
        if nested {
            self.o.extend_from_slice(b"function ");
        }
        self.o.extend_from_slice(name);
        self.o.extend_from_slice(b" () \n");
        self.indent(ind);
        match body {
            Compound::Brace(prog) => self.group(prog, ind),
            other => {
                self.o.extend_from_slice(b"{ \n");
                self.indent(ind + 4);
                self.compound(other, ind + 4);
                self.o.push(b'\n');
                self.indent(ind);
                self.o.push(b'}');
            }
        }
        self.redirs(redirs);
    }

    fn group(&mut self, prog: &Program, ind: usize) {
        self.o.extend_from_slice(b"{ \n");
        self.indent(ind + 4);
        self.list(prog, ind + 4);
        self.o.push(b'\n');
        self.indent(ind);
        self.o.push(b'}');
    }

    /// Commands separated by `;` and a new line (`&` keeps the next one on
    /// the same line).
    fn list(&mut self, prog: &Program, ind: usize) {
        let n = prog.items.len();
        for (i, item) in prog.items.iter().enumerate() {
            self.and_or(&item.and_or, ind);
            let last = i + 1 == n;
            if item.background {
                self.o.extend_from_slice(if last { b" &" } else { b" & " });
            } else if !last {
                self.semicolon();
                self.o.push(b'\n');
                self.indent(ind);
            }
        }
    }

    /// A list that ends with `;` (the bodies of if, while, for, ...).
    fn body(&mut self, prog: &Program, ind: usize) {
        self.list(prog, ind);
        self.semicolon();
    }

    fn and_or(&mut self, a: &AndOr, ind: usize) {
        self.pipeline(&a.first, ind);
        for (and, p) in &a.rest {
            self.o
                .extend_from_slice(if *and { b" && " } else { b" || " });
            self.pipeline(p, ind);
        }
    }

    fn pipeline(&mut self, p: &Pipeline, ind: usize) {
        if p.time {
            self.o.extend_from_slice(b"time ");
            if p.time_posix {
                self.o.extend_from_slice(b"-p ");
            }
        }
        if p.bang {
            self.o.extend_from_slice(b"! ");
        }
        for (i, c) in p.cmds.iter().enumerate() {
            if i > 0 {
                let amp = p.amp.get(i - 1).copied().unwrap_or(false);
                self.o
                    .extend_from_slice(if amp { b" 2>&1 | " } else { b" | " });
            }
            self.command(c, ind);
        }
    }

    fn command(&mut self, c: &Command, ind: usize) {
        match c {
            Command::Simple(s) => {
                self.o.extend_from_slice(&simple_text(s));
                self.heredoc_bodies(&s.redirs);
            }
            Command::Compound(c, redirs, _) => {
                self.compound(c, ind);
                self.redirs(redirs);
            }
            Command::FuncDef(f) => self.funcdef(&f.name, &f.body, &f.redirs, ind, true),
        }
    }

    fn redirs(&mut self, redirs: &[Redir]) {
        for r in redirs {
            self.o.push(b' ');
            self.o.extend_from_slice(&redir_text(r));
        }
        self.heredoc_bodies(redirs);
    }

    /// Here-document bodies follow the line that names them.
    fn heredoc_bodies(&mut self, redirs: &[Redir]) {
        for r in redirs {
            if let Some(h) = &r.heredoc {
                let h = h.borrow();
                self.o.push(b'\n');
                self.o.extend_from_slice(&h.raw);
                if !h.raw.is_empty() && !h.raw.ends_with(b"\n") {
                    self.o.push(b'\n');
                }
                self.o.extend_from_slice(&unquoted_delim(&h.delim));
                self.o.push(b'\n');
            }
        }
    }

    fn words(&mut self, ws: &[Word]) {
        for (i, w) in ws.iter().enumerate() {
            if i > 0 {
                self.o.push(b' ');
            }
            self.o.extend_from_slice(&word_text(w));
        }
    }

    fn compound(&mut self, c: &Compound, ind: usize) {
        match c {
            Compound::Brace(prog) => self.group(prog, ind),
            Compound::Subshell(prog, _) => {
                self.o.extend_from_slice(b"( ");
                self.list(prog, ind);
                self.o.extend_from_slice(b" )");
            }
            Compound::If(arms, els) => self.if_arms(arms, els.as_ref(), ind),
            Compound::While(until, cond, body) => {
                self.o
                    .extend_from_slice(if *until { b"until " } else { b"while " });
                self.list(cond, ind);
                self.semicolon();
                self.o.extend_from_slice(b" do\n");
                self.indent(ind + 4);
                self.body(body, ind + 4);
                self.o.push(b'\n');
                self.indent(ind);
                self.o.extend_from_slice(b"done");
            }
            Compound::For(var, words, body) | Compound::Select(var, words, body) => {
                let kw: &[u8] = if matches!(c, Compound::For(..)) {
                    b"for "
                } else {
                    b"select "
                };
                self.o.extend_from_slice(kw);
                self.o.extend_from_slice(var);
                self.o.extend_from_slice(b" in ");
                match words {
                    Some(ws) => self.words(ws),
                    None => self.o.extend_from_slice(b"\"$@\""),
                }
                self.o.extend_from_slice(b";\n");
                self.do_done(body, ind);
            }
            Compound::ArithFor(a, b, c3, body) => {
                self.o.extend_from_slice(b"for ((");
                for (i, e) in [a, b, c3].iter().enumerate() {
                    if i > 0 {
                        self.o.extend_from_slice(b"; ");
                    }
                    if let Some(e) = e {
                        self.o.extend_from_slice(trim(&word_text(&e.word)));
                    }
                }
                self.o.extend_from_slice(b"))\n");
                self.do_done(body, ind);
            }
            Compound::Case(w, arms) => {
                self.o.extend_from_slice(b"case ");
                self.o.extend_from_slice(&word_text(w));
                self.o.extend_from_slice(b" in \n");
                for arm in arms {
                    self.indent(ind + 4);
                    for (i, p) in arm.pats.iter().enumerate() {
                        if i > 0 {
                            self.o.extend_from_slice(b" | ");
                        }
                        self.o.extend_from_slice(&word_text(p));
                    }
                    self.o.extend_from_slice(b")\n");
                    if !arm.body.items.is_empty() {
                        self.indent(ind + 8);
                        self.list(&arm.body, ind + 8);
                    }
                    self.o.push(b'\n');
                    self.indent(ind + 4);
                    self.o.extend_from_slice(match arm.term {
                        CaseTerm::Break => b";;",
                        CaseTerm::FallThrough => b";&",
                        CaseTerm::Continue => b";;&",
                    });
                    self.o.push(b'\n');
                }
                self.indent(ind);
                self.o.extend_from_slice(b"esac");
            }
            Compound::Arith(a) => {
                self.o.extend_from_slice(b"(( ");
                self.o.extend_from_slice(trim(&word_text(&a.word)));
                self.o.extend_from_slice(b" ))");
            }
            Compound::Cond(e) => self.o.extend_from_slice(&cond_text(e)),
            Compound::Coproc(name, src) => {
                self.o.extend_from_slice(b"coproc ");
                self.o.extend_from_slice(name);
                self.o.push(b' ');
                self.o.extend_from_slice(trim(&src.text));
            }
        }
    }

    fn do_done(&mut self, body: &Program, ind: usize) {
        self.indent(ind);
        self.o.extend_from_slice(b"do\n");
        self.indent(ind + 4);
        self.body(body, ind + 4);
        self.o.push(b'\n');
        self.indent(ind);
        self.o.extend_from_slice(b"done");
    }

    /// bash prints `elif` as an `if` nested in `else`.
    fn if_arms(&mut self, arms: &[(Program, Program)], els: Option<&Program>, ind: usize) {
        let (cond, then) = match arms.first() {
            Some(a) => a,
            None => return,
        };
        self.o.extend_from_slice(b"if ");
        self.list(cond, ind);
        self.semicolon();
        self.o.extend_from_slice(b" then\n");
        self.indent(ind + 4);
        self.body(then, ind + 4);
        self.o.push(b'\n');
        if arms.len() > 1 {
            self.indent(ind);
            self.o.extend_from_slice(b"else\n");
            self.indent(ind + 4);
            self.if_arms(&arms[1..], els, ind + 4);
            self.semicolon();
            self.o.push(b'\n');
        } else if let Some(e) = els {
            self.indent(ind);
            self.o.extend_from_slice(b"else\n");
            self.indent(ind + 4);
            self.body(e, ind + 4);
            self.o.push(b'\n');
        }
        self.indent(ind);
        self.o.extend_from_slice(b"fi");
    }

    /// `[[ ]]` contents.
    fn cond(&mut self, e: &CondExpr) {
        match e {
            CondExpr::Unary(op, w) => {
                self.o.extend_from_slice(op);
                self.o.push(b' ');
                self.o.extend_from_slice(&word_text(w));
            }
            CondExpr::Binary(op, l, r) => {
                self.o.extend_from_slice(&word_text(l));
                self.o.push(b' ');
                self.o.extend_from_slice(op);
                self.o.push(b' ');
                self.o.extend_from_slice(&word_text(r));
            }
            // a lone word is a test for a non-empty string
            CondExpr::Word(w) => {
                self.o.extend_from_slice(b"-n ");
                self.o.extend_from_slice(&word_text(w));
            }
            CondExpr::Not(x) => {
                self.o.extend_from_slice(b"! ");
                self.cond(x);
            }
            CondExpr::Group(x) => {
                self.o.extend_from_slice(b"( ");
                self.cond(x);
                self.o.extend_from_slice(b" )");
            }
            CondExpr::And(l, r) | CondExpr::Or(l, r) => {
                let and = matches!(e, CondExpr::And(..));
                self.cond(l);
                self.o
                    .extend_from_slice(if and { b" && " } else { b" || " });
                self.cond(r);
            }
        }
    }
}

pub fn trim(s: &[u8]) -> &[u8] {
    let a = s.iter().take_while(|c| c.is_ascii_whitespace()).count();
    let b = s
        .iter()
        .rev()
        .take_while(|c| c.is_ascii_whitespace())
        .count();
    if a >= s.len() {
        &[]
    } else {
        &s[a..s.len() - b]
    }
}

/// The delimiter line that ends a here-document (its quotes removed).
fn unquoted_delim(d: &[u8]) -> Bytes {
    d.iter()
        .copied()
        .filter(|c| !matches!(c, b'\'' | b'"' | b'\\'))
        .collect()
}
