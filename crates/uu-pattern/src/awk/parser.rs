//! Recursive-descent awk parser producing [`Program`].

use super::ast::*;
use super::lexer::{Tok, Token};

/// Names of the special variables, in slot order.
pub const SPECIALS: &[&str] = &[
    "NR", "NF", "FNR", "FS", "OFS", "ORS", "RS", "SUBSEP", "RSTART", "RLENGTH", "CONVFMT", "OFMT",
    "FILENAME", "ENVIRON", "ARGC", "ARGV", "RT",
];

pub const NR: usize = 0;
pub const NF: usize = 1;
pub const FNR: usize = 2;
pub const FS: usize = 3;
pub const OFS: usize = 4;
pub const ORS: usize = 5;
pub const RS: usize = 6;
pub const SUBSEP: usize = 7;
pub const RSTART: usize = 8;
pub const RLENGTH: usize = 9;
pub const CONVFMT: usize = 10;
pub const OFMT: usize = 11;
pub const FILENAME: usize = 12;
pub const ENVIRON: usize = 13;
pub const ARGC: usize = 14;
pub const ARGV: usize = 15;

struct Parser {
    t: Vec<Token>,
    i: usize,
    prog: Program,
    locals: Option<Vec<String>>,
    /// Depth of parentheses: `>` is a comparison inside them in print.
    paren: usize,
    no_gt: bool,
    no_in: bool,
}

type PResult<T> = Result<T, (usize, String)>;

impl Parser {
    fn peek(&self) -> &Tok {
        &self.t[self.i].tok
    }
    fn line(&self) -> usize {
        self.t[self.i].line
    }
    fn advance(&mut self) -> Tok {
        let t = self.t[self.i].tok.clone();
        if self.i + 1 < self.t.len() {
            self.i += 1;
        }
        t
    }
    fn is_op(&self, o: &str) -> bool {
        matches!(self.peek(), Tok::Op(x) if *x == o)
    }
    fn is_kw(&self, k: &str) -> bool {
        matches!(self.peek(), Tok::Kw(x) if *x == k)
    }
    fn err<T>(&self, msg: &str) -> PResult<T> {
        Err((self.line(), msg.to_string()))
    }
    fn expect_op(&mut self, o: &str) -> PResult<()> {
        if self.is_op(o) {
            self.advance();
            Ok(())
        } else {
            self.syntax_error()
        }
    }
    fn syntax_error<T>(&self) -> PResult<T> {
        let what = match self.peek() {
            Tok::Newline | Tok::Eof => "unexpected newline or end of string".to_string(),
            _ => "syntax error".to_string(),
        };
        Err((self.line(), what))
    }
    fn nl(&mut self) {
        while matches!(self.peek(), Tok::Newline) {
            self.advance();
        }
    }
    fn terms(&mut self) {
        while matches!(self.peek(), Tok::Newline) || self.is_op(";") {
            self.advance();
        }
    }

    fn global(&mut self, name: &str) -> usize {
        if let Some(i) = self.prog.globals.iter().position(|g| g == name) {
            return i;
        }
        self.prog.globals.push(name.to_string());
        self.prog.globals.len() - 1
    }

    fn var(&mut self, name: &str) -> Var {
        if let Some(l) = &self.locals {
            if let Some(i) = l.iter().position(|x| x == name) {
                return Var::Local(i);
            }
        }
        Var::Global(self.global(name))
    }

    fn func_index(&mut self, name: &str) -> usize {
        if let Some(i) = self.prog.funcs.iter().position(|f| f.name == name) {
            return i;
        }
        self.prog.funcs.push(Func {
            name: name.to_string(),
            nparams: 0,
            body: Vec::new(),
            defined: false,
        });
        self.prog.funcs.len() - 1
    }

    fn program(&mut self) -> PResult<()> {
        self.terms();
        while !matches!(self.peek(), Tok::Eof) {
            self.item()?;
            self.terms();
        }
        Ok(())
    }

    fn item(&mut self) -> PResult<()> {
        if self.is_kw("function") {
            self.advance();
            let name = match self.advance() {
                Tok::Name(n) | Tok::FuncName(n) => n,
                _ => return self.syntax_error(),
            };
            self.expect_op("(")?;
            let mut params = Vec::new();
            while !self.is_op(")") {
                match self.advance() {
                    Tok::Name(n) => params.push(n),
                    _ => return self.syntax_error(),
                }
                if self.is_op(",") {
                    self.advance();
                    self.nl();
                }
            }
            self.advance();
            self.nl();
            let idx = self.func_index(&name);
            if self.prog.funcs[idx].defined {
                return self.err(&format!("function `{}' previously defined", name));
            }
            self.locals = Some(params.clone());
            let body = self.block()?;
            self.locals = None;
            let f = &mut self.prog.funcs[idx];
            f.nparams = params.len();
            f.body = body;
            f.defined = true;
            return Ok(());
        }
        let pattern = if self.is_kw("BEGIN") {
            self.advance();
            Pattern::Begin
        } else if self.is_kw("END") {
            self.advance();
            Pattern::End
        } else if self.is_op("{") {
            Pattern::All
        } else {
            let e = self.expr()?;
            if self.is_op(",") {
                self.advance();
                self.nl();
                let e2 = self.expr()?;
                Pattern::Range(e, e2)
            } else {
                Pattern::Expr(e)
            }
        };
        let action = if self.is_op("{") {
            Some(self.block()?)
        } else {
            if matches!(pattern, Pattern::Begin | Pattern::End) {
                return self.syntax_error();
            }
            None
        };
        self.prog.rules.push(Rule { pattern, action });
        Ok(())
    }

    fn block(&mut self) -> PResult<Vec<Stmt>> {
        self.expect_op("{")?;
        let mut v = Vec::new();
        self.terms();
        while !self.is_op("}") {
            if matches!(self.peek(), Tok::Eof) {
                return self.syntax_error();
            }
            v.push(self.stmt()?);
            self.terms();
        }
        self.advance();
        Ok(v)
    }

    fn simple_end(&mut self) -> PResult<()> {
        if self.is_op(";") || matches!(self.peek(), Tok::Newline) {
            self.advance();
            Ok(())
        } else if self.is_op("}") || matches!(self.peek(), Tok::Eof) {
            Ok(())
        } else {
            self.syntax_error()
        }
    }

    fn stmt_body(&mut self) -> PResult<Stmt> {
        self.nl();
        if self.is_op(";") {
            self.advance();
            return Ok(Stmt::Block(Vec::new()));
        }
        self.stmt()
    }

    fn stmt(&mut self) -> PResult<Stmt> {
        if self.is_op("{") {
            return Ok(Stmt::Block(self.block()?));
        }
        if self.is_kw("if") {
            self.advance();
            self.expect_op("(")?;
            let c = self.expr()?;
            self.expect_op(")")?;
            let then = self.stmt_body()?;
            // `else` may follow after newlines or a semicolon.
            let save = self.i;
            self.terms();
            if self.is_kw("else") {
                self.advance();
                let els = self.stmt_body()?;
                return Ok(Stmt::If(c, Box::new(then), Some(Box::new(els))));
            }
            self.i = save;
            return Ok(Stmt::If(c, Box::new(then), None));
        }
        if self.is_kw("while") {
            self.advance();
            self.expect_op("(")?;
            let c = self.expr()?;
            self.expect_op(")")?;
            if self.is_op(";") {
                self.advance();
                return Ok(Stmt::While(c, Box::new(Stmt::Block(Vec::new()))));
            }
            let body = self.stmt_body()?;
            return Ok(Stmt::While(c, Box::new(body)));
        }
        if self.is_kw("do") {
            self.advance();
            let body = self.stmt_body()?;
            self.terms();
            if !self.is_kw("while") {
                return self.syntax_error();
            }
            self.advance();
            self.expect_op("(")?;
            let c = self.expr()?;
            self.expect_op(")")?;
            self.simple_end()?;
            return Ok(Stmt::Do(Box::new(body), c));
        }
        if self.is_kw("for") {
            self.advance();
            self.expect_op("(")?;
            // for (k in a)
            if let (Tok::Name(k), Tok::Kw("in"), Tok::Name(a), Tok::Op(")")) = (
                self.t[self.i].tok.clone(),
                self.t[self.i + 1].tok.clone(),
                self.t
                    .get(self.i + 2)
                    .map(|t| t.tok.clone())
                    .unwrap_or(Tok::Eof),
                self.t
                    .get(self.i + 3)
                    .map(|t| t.tok.clone())
                    .unwrap_or(Tok::Eof),
            ) {
                self.i += 4;
                let kv = self.var(&k);
                let av = self.var(&a);
                let body = self.stmt_body()?;
                return Ok(Stmt::ForIn(kv, av, Box::new(body)));
            }
            let init = if self.is_op(";") {
                None
            } else {
                Some(Box::new(self.simple_stmt()?))
            };
            self.expect_op(";")?;
            self.nl();
            let cond = if self.is_op(";") {
                None
            } else {
                Some(self.expr()?)
            };
            self.expect_op(";")?;
            self.nl();
            let step = if self.is_op(")") {
                None
            } else {
                Some(Box::new(self.simple_stmt()?))
            };
            self.expect_op(")")?;
            if self.is_op(";") {
                self.advance();
                return Ok(Stmt::For(
                    init,
                    cond,
                    step,
                    Box::new(Stmt::Block(Vec::new())),
                ));
            }
            let body = self.stmt_body()?;
            return Ok(Stmt::For(init, cond, step, Box::new(body)));
        }
        let s = self.simple_or_keyword()?;
        self.simple_end()?;
        Ok(s)
    }

    fn simple_or_keyword(&mut self) -> PResult<Stmt> {
        match self.peek().clone() {
            Tok::Kw("next") => {
                self.advance();
                Ok(Stmt::Next)
            }
            Tok::Kw("nextfile") => {
                self.advance();
                Ok(Stmt::NextFile)
            }
            Tok::Kw("break") => {
                self.advance();
                Ok(Stmt::Break)
            }
            Tok::Kw("continue") => {
                self.advance();
                Ok(Stmt::Continue)
            }
            Tok::Kw("exit") => {
                self.advance();
                if self.ends_simple() {
                    Ok(Stmt::Exit(None))
                } else {
                    Ok(Stmt::Exit(Some(self.expr()?)))
                }
            }
            Tok::Kw("return") => {
                self.advance();
                if self.ends_simple() {
                    Ok(Stmt::Return(None))
                } else {
                    Ok(Stmt::Return(Some(self.expr()?)))
                }
            }
            _ => self.simple_stmt(),
        }
    }

    fn ends_simple(&self) -> bool {
        self.is_op(";") || self.is_op("}") || matches!(self.peek(), Tok::Newline | Tok::Eof)
    }

    fn simple_stmt(&mut self) -> PResult<Stmt> {
        if self.is_kw("print") || self.is_kw("printf") {
            let is_printf = self.is_kw("printf");
            self.advance();
            let mut args = Vec::new();
            let old = self.no_gt;
            self.no_gt = true;
            if !self.ends_simple() && !self.is_op(">") && !self.is_op(">>") && !self.is_op("|") {
                // `print (a, b) > f` — a parenthesised list.
                if self.is_op("(") {
                    let save = self.i;
                    self.advance();
                    self.no_gt = false;
                    let mut list = vec![self.expr()?];
                    while self.is_op(",") {
                        self.advance();
                        self.nl();
                        list.push(self.expr()?);
                    }
                    self.no_gt = true;
                    if self.is_op(")") {
                        self.advance();
                        if self.ends_simple()
                            || self.is_op(">")
                            || self.is_op(">>")
                            || self.is_op("|")
                        {
                            args = list;
                        } else {
                            self.i = save;
                        }
                    } else {
                        self.i = save;
                    }
                }
                if args.is_empty() {
                    args.push(self.expr()?);
                    while self.is_op(",") {
                        self.advance();
                        self.nl();
                        args.push(self.expr()?);
                    }
                }
            }
            self.no_gt = old;
            let redir = if self.is_op(">") {
                self.advance();
                Some(Redir::File(self.concat_expr()?))
            } else if self.is_op(">>") {
                self.advance();
                Some(Redir::Append(self.concat_expr()?))
            } else if self.is_op("|") {
                self.advance();
                Some(Redir::Pipe(self.concat_expr()?))
            } else {
                None
            };
            if is_printf {
                if args.is_empty() {
                    return self.syntax_error();
                }
                return Ok(Stmt::Printf(args, redir));
            }
            return Ok(Stmt::Print(args, redir));
        }
        if self.is_kw("delete") {
            self.advance();
            let name = match self.advance() {
                Tok::Name(n) => n,
                _ => return self.syntax_error(),
            };
            let v = self.var(&name);
            if self.is_op("[") {
                self.advance();
                let subs = self.expr_list("]")?;
                return Ok(Stmt::Delete(v, Some(subs)));
            }
            return Ok(Stmt::Delete(v, None));
        }
        Ok(Stmt::Expr(self.expr()?))
    }

    fn expr_list(&mut self, close: &str) -> PResult<Vec<Expr>> {
        let mut v = vec![self.expr()?];
        while self.is_op(",") {
            self.advance();
            self.nl();
            v.push(self.expr()?);
        }
        self.expect_op(close)?;
        Ok(v)
    }

    fn expr(&mut self) -> PResult<Expr> {
        self.ternary()
    }

    fn is_lvalue(e: &Expr) -> bool {
        matches!(e, Expr::Var(_) | Expr::Field(_) | Expr::Index(..))
    }

    fn ternary(&mut self) -> PResult<Expr> {
        let c = self.or()?;
        if self.is_op("?") {
            self.advance();
            self.nl();
            let a = self.ternary()?;
            self.nl();
            self.expect_op(":")?;
            self.nl();
            let b = self.ternary()?;
            return Ok(Expr::Cond(Box::new(c), Box::new(a), Box::new(b)));
        }
        if Self::is_lvalue(&c) {
            let op = match self.peek() {
                Tok::Op("=") => Some(None),
                Tok::Op("+=") => Some(Some("+")),
                Tok::Op("-=") => Some(Some("-")),
                Tok::Op("*=") => Some(Some("*")),
                Tok::Op("/=") => Some(Some("/")),
                Tok::Op("%=") => Some(Some("%")),
                Tok::Op("^=") | Tok::Op("**=") => Some(Some("^")),
                _ => None,
            };
            if let Some(op) = op {
                self.advance();
                self.nl();
                let rhs = self.ternary()?;
                return Ok(Expr::Assign(Box::new(c), op, Box::new(rhs)));
            }
        }
        Ok(c)
    }

    fn or(&mut self) -> PResult<Expr> {
        let mut l = self.and()?;
        while self.is_op("||") {
            self.advance();
            self.nl();
            let r = self.and()?;
            l = Expr::Or(Box::new(l), Box::new(r));
        }
        Ok(l)
    }

    fn and(&mut self) -> PResult<Expr> {
        let mut l = self.in_expr()?;
        while self.is_op("&&") {
            self.advance();
            self.nl();
            let r = self.in_expr()?;
            l = Expr::And(Box::new(l), Box::new(r));
        }
        Ok(l)
    }

    fn in_expr(&mut self) -> PResult<Expr> {
        let mut l = self.match_expr()?;
        while self.is_kw("in") && !self.no_in {
            self.advance();
            let name = match self.advance() {
                Tok::Name(n) => n,
                _ => return self.syntax_error(),
            };
            let v = self.var(&name);
            let subs = match l {
                Expr::Group(g) => vec![*g],
                Expr::Call(usize::MAX, list) => list,
                other => vec![other],
            };
            l = Expr::In(subs, v);
        }
        Ok(l)
    }

    fn match_expr(&mut self) -> PResult<Expr> {
        let mut l = self.comparison()?;
        loop {
            let neg = if self.is_op("~") {
                false
            } else if self.is_op("!~") {
                true
            } else {
                break;
            };
            self.advance();
            let r = self.comparison()?;
            l = Expr::Match(neg, Box::new(l), Box::new(r));
        }
        Ok(l)
    }

    fn comparison(&mut self) -> PResult<Expr> {
        let l = self.concat_expr()?;
        let op = match self.peek() {
            Tok::Op("<") => "<",
            Tok::Op("<=") => "<=",
            Tok::Op("==") => "==",
            Tok::Op("!=") => "!=",
            Tok::Op(">=") => ">=",
            Tok::Op(">") if !self.no_gt || self.paren > 0 => ">",
            Tok::Op("|") if matches!(self.t[self.i + 1].tok, Tok::Kw("getline")) => {
                self.advance();
                self.advance();
                let var = self.getline_var()?;
                let mut e = Expr::PipeGetline(Box::new(l), var);
                // `cmd | getline > 0` and chains.
                while self.is_op("|") && matches!(self.t[self.i + 1].tok, Tok::Kw("getline")) {
                    self.advance();
                    self.advance();
                    let var = self.getline_var()?;
                    e = Expr::PipeGetline(Box::new(e), var);
                }
                return self.comparison_rest(e);
            }
            _ => return Ok(l),
        };
        self.advance();
        let r = self.concat_expr()?;
        Ok(Expr::Cmp(op, Box::new(l), Box::new(r)))
    }

    fn comparison_rest(&mut self, l: Expr) -> PResult<Expr> {
        let op = match self.peek() {
            Tok::Op("<") => "<",
            Tok::Op("<=") => "<=",
            Tok::Op("==") => "==",
            Tok::Op("!=") => "!=",
            Tok::Op(">=") => ">=",
            Tok::Op(">") if !self.no_gt || self.paren > 0 => ">",
            _ => return Ok(l),
        };
        self.advance();
        let r = self.concat_expr()?;
        Ok(Expr::Cmp(op, Box::new(l), Box::new(r)))
    }

    fn getline_var(&mut self) -> PResult<Option<Box<Expr>>> {
        if matches!(self.peek(), Tok::Name(_)) || self.is_op("$") {
            let e = self.primary_postfix()?;
            return Ok(Some(Box::new(e)));
        }
        Ok(None)
    }

    fn starts_concat(&self) -> bool {
        match self.peek() {
            Tok::Num(_) | Tok::Str(_) | Tok::Regex(_) | Tok::Name(_) | Tok::FuncName(_) => true,
            Tok::Builtin(_) => true,
            Tok::Op(o) => matches!(*o, "$" | "!" | "(" | "-" | "+" | "++" | "--"),
            Tok::Kw("getline") => false,
            _ => false,
        }
    }

    fn concat_expr(&mut self) -> PResult<Expr> {
        let mut l = self.additive()?;
        while self.starts_concat() && !self.is_kw("in") {
            // `a -1` is subtraction, handled in additive; here only
            // tokens that cannot continue an additive expression.
            if self.is_op("-") || self.is_op("+") {
                break;
            }
            let r = self.additive()?;
            l = Expr::Concat(Box::new(l), Box::new(r));
        }
        Ok(l)
    }

    fn additive(&mut self) -> PResult<Expr> {
        let mut l = self.mul()?;
        loop {
            let op = match self.peek() {
                Tok::Op("+") => "+",
                Tok::Op("-") => "-",
                _ => break,
            };
            self.advance();
            self.nl_none();
            let r = self.mul()?;
            l = Expr::Bin(op, Box::new(l), Box::new(r));
        }
        Ok(l)
    }

    fn nl_none(&mut self) {}

    fn mul(&mut self) -> PResult<Expr> {
        let mut l = self.unary()?;
        loop {
            let op = match self.peek() {
                Tok::Op("*") => "*",
                Tok::Op("/") => "/",
                Tok::Op("%") => "%",
                _ => break,
            };
            self.advance();
            let r = self.unary()?;
            l = Expr::Bin(op, Box::new(l), Box::new(r));
        }
        Ok(l)
    }

    fn unary(&mut self) -> PResult<Expr> {
        if self.is_op("!") {
            self.advance();
            let e = self.unary()?;
            return Ok(Expr::Not(Box::new(e)));
        }
        if self.is_op("-") {
            self.advance();
            let e = self.unary()?;
            return Ok(Expr::Neg(Box::new(e)));
        }
        if self.is_op("+") {
            self.advance();
            let e = self.unary()?;
            return Ok(Expr::Plus(Box::new(e)));
        }
        self.power()
    }

    fn power(&mut self) -> PResult<Expr> {
        let base = self.incdec()?;
        if self.is_op("^") || self.is_op("**") {
            self.advance();
            // Right associative; the exponent may carry a unary minus.
            let e = if self.is_op("-") {
                self.advance();
                Expr::Neg(Box::new(self.power()?))
            } else if self.is_op("+") {
                self.advance();
                self.power()?
            } else if self.is_op("!") {
                self.advance();
                Expr::Not(Box::new(self.power()?))
            } else {
                self.power()?
            };
            return Ok(Expr::Bin("^", Box::new(base), Box::new(e)));
        }
        Ok(base)
    }

    fn incdec(&mut self) -> PResult<Expr> {
        if self.is_op("++") || self.is_op("--") {
            let d = if self.is_op("++") { 1.0 } else { -1.0 };
            self.advance();
            let e = self.primary_postfix()?;
            if !Self::is_lvalue(&e) {
                return self.syntax_error();
            }
            return Ok(Expr::PreInc(Box::new(e), d));
        }
        let e = self.primary_postfix()?;
        if Self::is_lvalue(&e) && (self.is_op("++") || self.is_op("--")) {
            let d = if self.is_op("++") { 1.0 } else { -1.0 };
            self.advance();
            return Ok(Expr::PostInc(Box::new(e), d));
        }
        Ok(e)
    }

    fn primary_postfix(&mut self) -> PResult<Expr> {
        let tok = self.advance();
        match tok {
            Tok::Num(n) => Ok(Expr::Num(n)),
            Tok::Str(s) => Ok(Expr::Str(s)),
            Tok::Regex(r) => {
                self.prog.regexes.push(r);
                Ok(Expr::Regex(self.prog.regexes.len() - 1))
            }
            Tok::Op("$") => {
                let e = if self.is_op("++") || self.is_op("--") {
                    self.incdec()?
                } else if self.is_op("-") {
                    self.advance();
                    Expr::Neg(Box::new(self.primary_postfix()?))
                } else {
                    self.primary_postfix()?
                };
                Ok(Expr::Field(Box::new(e)))
            }
            Tok::Op("(") => {
                self.paren += 1;
                let old_in = self.no_in;
                self.no_in = false;
                let e = self.expr()?;
                if self.is_op(",") {
                    // (a, b) in arr
                    let mut list = vec![e];
                    while self.is_op(",") {
                        self.advance();
                        self.nl();
                        list.push(self.expr()?);
                    }
                    self.expect_op(")")?;
                    self.paren -= 1;
                    self.no_in = old_in;
                    if !self.is_kw("in") {
                        return self.syntax_error();
                    }
                    return Ok(Expr::Call(usize::MAX, list));
                }
                self.expect_op(")")?;
                self.paren -= 1;
                self.no_in = old_in;
                Ok(Expr::Group(Box::new(e)))
            }
            Tok::Op("-") => Ok(Expr::Neg(Box::new(self.unary()?))),
            Tok::Op("!") => Ok(Expr::Not(Box::new(self.unary()?))),
            Tok::Kw("getline") => {
                let var = self.getline_var()?;
                if self.is_op("<") {
                    self.advance();
                    let f = self.incdec()?;
                    return Ok(Expr::Getline(var, Some(Box::new(f))));
                }
                Ok(Expr::Getline(var, None))
            }
            Tok::FuncName(name) => {
                self.advance(); // (
                let idx = self.func_index(&name);
                let mut args = Vec::new();
                self.paren += 1;
                if !self.is_op(")") {
                    args = self.expr_list(")")?;
                } else {
                    self.advance();
                }
                self.paren -= 1;
                Ok(Expr::Call(idx, args))
            }
            Tok::Builtin(name) => {
                if self.is_op("(") {
                    self.advance();
                    self.paren += 1;
                    let args = if self.is_op(")") {
                        self.advance();
                        Vec::new()
                    } else {
                        self.expr_list(")")?
                    };
                    self.paren -= 1;
                    Ok(Expr::Builtin(name, args))
                } else if name == "length" {
                    Ok(Expr::Builtin(name, Vec::new()))
                } else {
                    self.syntax_error()
                }
            }
            Tok::Name(name) => {
                let v = self.var(&name);
                if self.is_op("[") {
                    self.advance();
                    self.paren += 1;
                    let subs = self.expr_list("]")?;
                    self.paren -= 1;
                    return Ok(Expr::Index(v, subs));
                }
                Ok(Expr::Var(v))
            }
            _ => {
                self.i -= 1;
                self.syntax_error()
            }
        }
    }
}

/// Parse a tokenized program.
pub fn parse(tokens: Vec<Token>) -> Result<Program, (usize, String)> {
    let mut p = Parser {
        t: tokens,
        i: 0,
        prog: Program::default(),
        locals: None,
        paren: 0,
        no_gt: false,
        no_in: false,
    };
    for s in SPECIALS {
        p.prog.globals.push(s.to_string());
    }
    p.program()?;
    for f in &p.prog.funcs {
        if !f.defined {
            return Err((0, format!("function `{}' called but never defined", f.name)));
        }
    }
    Ok(p.prog)
}
