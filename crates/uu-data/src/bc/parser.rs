//! bc's grammar, compiled straight to stack-machine code in one pass (the
//! way GNU bc's yacc grammar generates its bytecode), one input item at a
//! time: a function definition or a line of statements.

use super::code::{BinOp, Func, Ins, Op, RelOp, Step, Var};
use super::lexer::{Lexer, Tok};
use super::num::Num;

/// What the next input item is.
pub enum Item {
    /// Top-level statements to run now.
    Chunk(Func),
    Define(Func),
    /// `quit` was read: stop at once.
    Quit,
    /// The input ended in the middle of a line of statements; GNU bc goes
    /// on parsing into the next input, where this becomes a syntax error.
    Unterminated(Func),
    Eof,
}

/// A compile error: line number and message; the parser has skipped to the
/// end of the offending line.
pub struct ParseError {
    pub line: usize,
    pub msg: String,
}

struct LoopCtx {
    breaks: Vec<usize>,
    cont: usize,
}

pub struct Parser<'a> {
    lex: Lexer<'a>,
    tok: Tok,
    code: Vec<Ins>,
    loops: Vec<LoopCtx>,
    in_func: bool,
    /// Set when `quit` is read anywhere.
    quit: bool,
    /// An illegal character was reported in the current item: it is
    /// compiled but not run, as in GNU bc.
    pub had_error: bool,
    /// Messages for illegal characters, reported as they are read.
    pub lex_errors: Vec<ParseError>,
}

type PResult<T> = Result<T, ParseError>;

const KEYWORDS: &[&str] = &[
    "define", "auto", "return", "if", "else", "while", "for", "break", "continue", "quit", "halt",
    "print", "length", "sqrt", "scale", "ibase", "obase", "last", "read", "limits", "warranty",
];

impl<'a> Parser<'a> {
    pub fn new(src: &'a [u8]) -> Parser<'a> {
        Parser {
            lex: Lexer::new(src),
            tok: Tok::Newline,
            code: Vec::new(),
            loops: Vec::new(),
            in_func: false,
            quit: false,
            had_error: false,
            lex_errors: Vec::new(),
        }
    }

    /// The line the lexer has reached.
    pub fn line(&self) -> usize {
        self.lex.line
    }

    fn err<T>(&self, msg: &str) -> PResult<T> {
        // Like yacc, the error is noticed once the offending token is read.
        Err(ParseError {
            line: self.lex.line,
            msg: msg.to_string(),
        })
    }

    fn advance(&mut self) -> PResult<()> {
        loop {
            match self.lex.next_tok() {
                Ok(Tok::Illegal(c)) => {
                    // Reported, skipped, and the item is not run.
                    let shown = if (c as u32) < 0x20 {
                        format!("^{}", char::from(c as u8 + 0x40))
                    } else if c as u32 == 0x7f {
                        "^?".to_string()
                    } else {
                        c.to_string()
                    };
                    self.lex_errors.push(ParseError {
                        line: self.lex.line,
                        msg: format!("illegal character: {}", shown),
                    });
                    self.had_error = true;
                    continue;
                }
                Ok(Tok::Ident(ref w)) if w == "quit" => {
                    self.quit = true;
                    self.tok = Tok::Ident("quit".into());
                    return Ok(());
                }
                Ok(t) => {
                    self.tok = t;
                    return Ok(());
                }
                Err(m) => {
                    return Err(ParseError {
                        line: self.lex.line,
                        msg: m,
                    })
                }
            }
        }
    }

    fn is_op(&self, op: &str) -> bool {
        matches!(&self.tok, Tok::Op(o) if *o == op)
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(&self.tok, Tok::Ident(i) if i == w)
    }

    fn expect_op(&mut self, op: &str) -> PResult<()> {
        if self.is_op(op) {
            self.advance()
        } else {
            self.err("syntax error")
        }
    }

    fn emit(&mut self, op: Op, size: u32) -> usize {
        self.code.push(Ins { op, size });
        self.code.len() - 1
    }

    fn patch(&mut self, at: usize, target: usize) {
        match &mut self.code[at].op {
            Op::Jump(t) | Op::JumpZero(t) | Op::JumpKeepZero(t) | Op::JumpKeepNonZero(t) => {
                *t = target
            }
            _ => {}
        }
    }

    fn here(&self) -> usize {
        self.code.len()
    }

    fn skip_newlines(&mut self) -> PResult<()> {
        while self.tok == Tok::Newline {
            self.advance()?;
        }
        Ok(())
    }

    /// Skips the first line of the input (GNU's recovery from an error that
    /// began at the end of the previous input).
    pub fn skip_line(&mut self) {
        self.tok = Tok::Op(";");
        self.recover();
    }

    /// After an error: drop the rest of the line.
    fn recover(&mut self) {
        self.code.clear();
        self.loops.clear();
        self.in_func = false;
        while !matches!(self.tok, Tok::Newline | Tok::Eof) {
            if self.advance().is_err() {
                continue;
            }
        }
    }

    /// Reads the next input item.
    pub fn next_item(&mut self) -> Result<Item, ParseError> {
        self.had_error = false;
        let r = self.item();
        if r.is_err() {
            if self.quit {
                return Ok(Item::Quit);
            }
            self.recover();
        }
        r
    }

    fn item(&mut self) -> PResult<Item> {
        // The current token is the one after the previous item.
        if self.tok == Tok::Newline {
            self.advance()?;
        }
        loop {
            if self.quit {
                return Ok(Item::Quit);
            }
            match &self.tok {
                Tok::Eof => return Ok(Item::Eof),
                Tok::Newline => self.advance()?,
                _ => break,
            }
        }
        if self.is_word("define") {
            let f = self.define()?;
            if self.quit {
                return Ok(Item::Quit);
            }
            return Ok(Item::Define(f));
        }
        self.code.clear();
        loop {
            self.statement()?;
            if self.quit {
                return Ok(Item::Quit);
            }
            if self.is_op(";") {
                self.advance()?;
                continue;
            }
            match self.tok {
                Tok::Newline | Tok::Eof => break,
                _ => return self.err("syntax error"),
            }
        }
        let f = Func {
            name: "(main)".into(),
            code: std::mem::take(&mut self.code),
            ..Func::default()
        };
        if self.tok == Tok::Eof {
            return Ok(Item::Unterminated(f));
        }
        Ok(Item::Chunk(f))
    }

    fn ident(&mut self) -> PResult<String> {
        match &self.tok {
            Tok::Ident(w) if !KEYWORDS.contains(&w.as_str()) => {
                let w = w.clone();
                self.advance()?;
                Ok(w)
            }
            _ => self.err("syntax error"),
        }
    }

    /// `name`, or `name[]` for an array; returns (name, is_array).
    fn decl(&mut self) -> PResult<(String, bool)> {
        let name = self.ident()?;
        if self.is_op("[") {
            self.advance()?;
            self.expect_op("]")?;
            return Ok((name, true));
        }
        Ok((name, false))
    }

    fn define(&mut self) -> PResult<Func> {
        self.advance()?;
        let name = self.ident()?;
        self.expect_op("(")?;
        let mut params = Vec::new();
        if !self.is_op(")") {
            loop {
                params.push(self.decl()?);
                if self.is_op(",") {
                    self.advance()?;
                } else {
                    break;
                }
            }
        }
        self.expect_op(")")?;
        self.skip_newlines()?;
        self.expect_op("{")?;
        self.skip_newlines()?;
        let mut autos = Vec::new();
        while self.is_word("auto") {
            self.advance()?;
            loop {
                autos.push(self.decl()?);
                if self.is_op(",") {
                    self.advance()?;
                } else {
                    break;
                }
            }
            if self.is_op(";") || self.tok == Tok::Newline {
                self.advance()?;
            } else {
                return self.err("syntax error");
            }
            self.skip_newlines()?;
        }
        self.code.clear();
        self.in_func = true;
        self.statement_list("}")?;
        self.in_func = false;
        // The closing brace ends the item; what follows stays for the next one.
        self.expect_op("}")?;
        Ok(Func {
            name,
            params,
            autos,
            code: std::mem::take(&mut self.code),
        })
    }

    /// Statements separated by `;` or newlines, up to (not past) `close`.
    fn statement_list(&mut self, close: &str) -> PResult<()> {
        loop {
            while self.is_op(";") || self.tok == Tok::Newline {
                self.advance()?;
            }
            if self.is_op(close) {
                return Ok(());
            }
            if self.tok == Tok::Eof {
                return self.err("syntax error");
            }
            self.statement()?;
            if self.quit {
                return Ok(());
            }
            if !(self.is_op(";") || self.tok == Tok::Newline || self.is_op(close)) {
                return self.err("syntax error");
            }
        }
    }

    fn statement(&mut self) -> PResult<()> {
        let word = match &self.tok {
            Tok::Ident(w) => Some(w.clone()),
            _ => None,
        };
        match word.as_deref() {
            Some("quit") => {
                self.quit = true;
                return Ok(());
            }
            Some("halt") => {
                self.advance()?;
                self.emit(Op::Halt, 1);
                return Ok(());
            }
            Some("if") => return self.if_stmt(),
            Some("while") => return self.while_stmt(),
            Some("for") => return self.for_stmt(),
            Some("break") | Some("continue") => {
                self.advance()?;
                let is_break = word.as_deref() == Some("break");
                let j = self.emit(Op::Jump(0), 3);
                match self.loops.last_mut() {
                    None if is_break => return self.err("Break outside a for/while"),
                    None => return self.err("Continue outside a for"),
                    Some(l) => {
                        if is_break {
                            l.breaks.push(j);
                        } else {
                            let c = l.cont;
                            self.patch(j, c);
                        }
                    }
                }
                return Ok(());
            }
            Some("return") => {
                if !self.in_func {
                    return self.err("Return outside of a function.");
                }
                self.advance()?;
                if self.is_op(";")
                    || self.is_op("}")
                    || self.tok == Tok::Newline
                    || self.tok == Tok::Eof
                {
                    self.emit(Op::Return(false), 2);
                } else {
                    self.expr()?;
                    self.emit(Op::Return(true), 1);
                }
                return Ok(());
            }
            Some("print") => {
                self.advance()?;
                loop {
                    if let Tok::Str(s) = &self.tok {
                        let s = s.clone();
                        self.advance()?;
                        let n = s.len() as u32 + 2;
                        self.emit(Op::PrintStr(s), n);
                    } else {
                        self.expr()?;
                        self.emit(Op::PrintVal, 1);
                    }
                    if self.is_op(",") {
                        self.advance()?;
                    } else {
                        break;
                    }
                }
                return Ok(());
            }
            Some("limits") => {
                self.advance()?;
                let text = "BC_BASE_MAX     = 2147483647\nBC_DIM_MAX      = 16777215\nBC_SCALE_MAX    = 2147483647\nBC_STRING_MAX   = 2147483647\nMAX Exponent    = 9223372036854775807\nNumber of vars  = 32767\n";
                self.emit(Op::Str(text.into()), 1);
                return Ok(());
            }
            _ => {}
        }
        if let Tok::Str(s) = &self.tok {
            let s = s.clone();
            self.advance()?;
            let n = s.len() as u32 + 2;
            self.emit(Op::Str(s), n);
            return Ok(());
        }
        if self.is_op("{") {
            self.advance()?;
            self.statement_list("}")?;
            return self.expect_op("}");
        }
        if self.is_op(";") || self.tok == Tok::Newline || self.tok == Tok::Eof || self.is_op("}") {
            return Ok(()); // empty statement
        }
        let assign = self.expr()?;
        if assign {
            self.emit(Op::Pop, 1);
        } else {
            self.emit(Op::PrintLine, 1);
        }
        Ok(())
    }

    fn paren_cond(&mut self) -> PResult<()> {
        self.expect_op("(")?;
        self.expr()?;
        self.expect_op(")")
    }

    fn if_stmt(&mut self) -> PResult<()> {
        self.advance()?;
        self.paren_cond()?;
        let jz = self.emit(Op::JumpZero(0), 3);
        self.skip_newlines()?;
        self.statement()?;
        if self.is_word("else") {
            self.advance()?;
            let j = self.emit(Op::Jump(0), 3);
            let h = self.here();
            self.patch(jz, h);
            self.skip_newlines()?;
            self.statement()?;
            let h = self.here();
            self.patch(j, h);
        } else {
            let h = self.here();
            self.patch(jz, h);
        }
        Ok(())
    }

    fn while_stmt(&mut self) -> PResult<()> {
        self.advance()?;
        let top = self.here();
        self.paren_cond()?;
        let jz = self.emit(Op::JumpZero(0), 3);
        self.loops.push(LoopCtx {
            breaks: Vec::new(),
            cont: top,
        });
        self.skip_newlines()?;
        let r = self.statement();
        let ctx = self.loops.pop();
        r?;
        self.emit(Op::Jump(top), 3);
        let end = self.here();
        self.patch(jz, end);
        for b in ctx.map(|c| c.breaks).unwrap_or_default() {
            self.patch(b, end);
        }
        Ok(())
    }

    /// for (init; cond; step) body, laid out as GNU does:
    /// init; L1: cond; JZ end; J body; L2: step; J L1; body: ...; J L2; end:
    fn for_stmt(&mut self) -> PResult<()> {
        self.advance()?;
        self.expect_op("(")?;
        if !self.is_op(";") {
            self.expr()?;
            self.emit(Op::Pop, 1);
        }
        self.expect_op(";")?;
        let cond = self.here();
        if self.is_op(";") {
            self.emit(Op::Const(Num::from_i64(1)), 1);
        } else {
            self.expr()?;
        }
        self.expect_op(";")?;
        let jz = self.emit(Op::JumpZero(0), 3);
        let jbody = self.emit(Op::Jump(0), 3);
        let step = self.here();
        if !self.is_op(")") {
            self.expr()?;
            self.emit(Op::Pop, 1);
        }
        self.expect_op(")")?;
        self.emit(Op::Jump(cond), 3);
        let body = self.here();
        self.patch(jbody, body);
        self.loops.push(LoopCtx {
            breaks: Vec::new(),
            cont: step,
        });
        let r = self.skip_newlines().and_then(|_| self.statement());
        let ctx = self.loops.pop();
        r?;
        self.emit(Op::Jump(step), 3);
        let end = self.here();
        self.patch(jz, end);
        for b in ctx.map(|c| c.breaks).unwrap_or_default() {
            self.patch(b, end);
        }
        Ok(())
    }

    /// Parses an expression; true if it is an assignment (not printed).
    fn expr(&mut self) -> PResult<bool> {
        let mut assign = self.and_expr()?;
        while self.is_op("||") {
            self.advance()?;
            let mut jumps = vec![self.emit(Op::JumpKeepNonZero(0), 5)];
            self.emit(Op::Pop, 0);
            self.and_expr()?;
            jumps.push(self.emit(Op::JumpKeepNonZero(0), 5));
            self.emit(Op::Pop, 0);
            self.emit(Op::Const(Num::from_i64(0)), 1);
            let j = self.emit(Op::Jump(0), 0);
            let t = self.here();
            for x in jumps {
                self.patch(x, t);
            }
            self.emit(Op::Pop, 0);
            self.emit(Op::Const(Num::from_i64(1)), 0);
            let end = self.here();
            self.patch(j, end);
            assign = false;
        }
        Ok(assign)
    }

    fn and_expr(&mut self) -> PResult<bool> {
        let mut assign = self.not_expr()?;
        while self.is_op("&&") {
            self.advance()?;
            let mut jumps = vec![self.emit(Op::JumpKeepZero(0), 5)];
            self.emit(Op::Pop, 0);
            self.not_expr()?;
            jumps.push(self.emit(Op::JumpKeepZero(0), 5));
            self.emit(Op::Pop, 0);
            self.emit(Op::Const(Num::from_i64(1)), 1);
            let j = self.emit(Op::Jump(0), 0);
            let f = self.here();
            for x in jumps {
                self.patch(x, f);
            }
            self.emit(Op::Pop, 0);
            self.emit(Op::Const(Num::from_i64(0)), 0);
            let end = self.here();
            self.patch(j, end);
            assign = false;
        }
        Ok(assign)
    }

    fn not_expr(&mut self) -> PResult<bool> {
        if self.is_op("!") {
            self.advance()?;
            self.not_expr()?;
            self.emit(Op::Not, 1);
            return Ok(false);
        }
        self.rel_expr()
    }

    fn rel_expr(&mut self) -> PResult<bool> {
        let mut assign = self.add_expr()?;
        loop {
            let op = match &self.tok {
                Tok::Op("==") => RelOp::Eq,
                Tok::Op("!=") => RelOp::Ne,
                Tok::Op("<") => RelOp::Lt,
                Tok::Op("<=") => RelOp::Le,
                Tok::Op(">") => RelOp::Gt,
                Tok::Op(">=") => RelOp::Ge,
                _ => return Ok(assign),
            };
            self.advance()?;
            self.add_expr()?;
            self.emit(Op::Rel(op), 1);
            assign = false;
        }
    }

    fn add_expr(&mut self) -> PResult<bool> {
        let mut assign = self.mul_expr()?;
        loop {
            let op = match &self.tok {
                Tok::Op("+") => BinOp::Add,
                Tok::Op("-") => BinOp::Sub,
                _ => return Ok(assign),
            };
            self.advance()?;
            self.mul_expr()?;
            self.emit(Op::Bin(op), 1);
            assign = false;
        }
    }

    fn mul_expr(&mut self) -> PResult<bool> {
        let mut assign = self.pow_expr()?;
        loop {
            let op = match &self.tok {
                Tok::Op("*") => BinOp::Mul,
                Tok::Op("/") => BinOp::Div,
                Tok::Op("%") => BinOp::Rem,
                _ => return Ok(assign),
            };
            self.advance()?;
            self.pow_expr()?;
            self.emit(Op::Bin(op), 1);
            assign = false;
        }
    }

    fn pow_expr(&mut self) -> PResult<bool> {
        let assign = self.unary_expr()?;
        if self.is_op("^") {
            self.advance()?;
            self.pow_expr()?;
            self.emit(Op::Bin(BinOp::Pow), 1);
            return Ok(false);
        }
        Ok(assign)
    }

    fn unary_expr(&mut self) -> PResult<bool> {
        if self.is_op("-") {
            self.advance()?;
            self.unary_expr()?;
            self.emit(Op::Neg, 1);
            return Ok(false);
        }
        self.primary()
    }

    fn call_builtin(&mut self, op: Op) -> PResult<bool> {
        self.advance()?;
        self.expect_op("(")?;
        self.expr()?;
        self.expect_op(")")?;
        self.emit(op, 2);
        Ok(false)
    }

    fn primary(&mut self) -> PResult<bool> {
        match self.tok.clone() {
            Tok::Number(text) => {
                self.advance()?;
                let size = if text == "0" || text == "1" {
                    1
                } else {
                    text.len() as u32 + 2
                };
                // Converted when run: `ibase=16; FF` on one line means 255.
                self.emit(Op::Lit(text), size);
                Ok(false)
            }
            Tok::Op("(") => {
                self.advance()?;
                self.expr()?;
                self.expect_op(")")?;
                Ok(false)
            }
            Tok::Op(op @ "++") | Tok::Op(op @ "--") => {
                self.advance()?;
                let step = Step {
                    pre: true,
                    delta: if op == "++" { 1 } else { -1 },
                };
                match self.named()? {
                    Named::Var(v) => self.emit(Op::IncVar(v, step), 4),
                    Named::Arr(a) => self.emit(Op::IncArr(a, step), 4),
                };
                Ok(false)
            }
            Tok::Ident(w) => match w.as_str() {
                "sqrt" => self.call_builtin(Op::Sqrt),
                "length" => self.call_builtin(Op::Length),
                "scale" if self.peek_paren() => self.call_builtin(Op::ScaleOf),
                "read" => {
                    self.advance()?;
                    self.expect_op("(")?;
                    self.expect_op(")")?;
                    self.emit(Op::Read, 2);
                    Ok(false)
                }
                _ => {
                    if !matches!(w.as_str(), "scale" | "ibase" | "obase" | "last")
                        && KEYWORDS.contains(&w.as_str())
                    {
                        return self.err("syntax error");
                    }
                    if self.peek_paren() {
                        return self.call();
                    }
                    let target = self.named()?;
                    self.after_named(target)
                }
            },
            _ => self.err("syntax error"),
        }
    }

    /// Is the next character (after the current identifier) a `(`?
    fn peek_paren(&self) -> bool {
        self.lex_peek_is("(")
    }

    fn lex_peek_is(&self, op: &str) -> bool {
        // The lexer sits just after the current token; look at the raw bytes.
        self.lex_rest()
            .trim_start_matches([' ', '\t'])
            .starts_with(op)
    }

    fn lex_rest(&self) -> String {
        self.lex.rest()
    }

    fn call(&mut self) -> PResult<bool> {
        let name = self.ident()?;
        self.expect_op("(")?;
        let mut n = 0;
        if !self.is_op(")") {
            loop {
                // An array argument is written `name[]`.
                let arr = match &self.tok {
                    Tok::Ident(w) if !KEYWORDS.contains(&w.as_str()) => {
                        let rest = self.lex_rest();
                        let r = rest.trim_start_matches([' ', '\t']);
                        if let Some(after) = r.strip_prefix('[') {
                            if after.trim_start_matches([' ', '\t']).starts_with(']') {
                                Some(w.clone())
                            } else {
                                None
                            }
                        } else {
                            None
                        }
                    }
                    _ => None,
                };
                if let Some(a) = arr {
                    self.advance()?;
                    self.expect_op("[")?;
                    self.expect_op("]")?;
                    self.emit(Op::PushArr(a), 3);
                } else {
                    self.expr()?;
                }
                n += 1;
                if self.is_op(",") {
                    self.advance()?;
                } else {
                    break;
                }
            }
        }
        self.expect_op(")")?;
        self.emit(Op::Call(name, n), 3 + n as u32);
        Ok(false)
    }

    /// A variable, special variable or array element (index code emitted).
    fn named(&mut self) -> PResult<Named> {
        let w = match &self.tok {
            Tok::Ident(w) => w.clone(),
            _ => return self.err("syntax error"),
        };
        let special = match w.as_str() {
            "scale" => Some(Var::Scale),
            "ibase" => Some(Var::Ibase),
            "obase" => Some(Var::Obase),
            "last" => Some(Var::Last),
            _ => None,
        };
        if let Some(v) = special {
            self.advance()?;
            return Ok(Named::Var(v));
        }
        let name = self.ident()?;
        if self.is_op("[") {
            self.advance()?;
            self.expr()?;
            self.expect_op("]")?;
            return Ok(Named::Arr(name));
        }
        Ok(Named::Var(Var::Named(name)))
    }

    fn after_named(&mut self, target: Named) -> PResult<bool> {
        let compound = match &self.tok {
            Tok::Op("=") => None,
            Tok::Op("+=") => Some(BinOp::Add),
            Tok::Op("-=") => Some(BinOp::Sub),
            Tok::Op("*=") => Some(BinOp::Mul),
            Tok::Op("/=") => Some(BinOp::Div),
            Tok::Op("%=") => Some(BinOp::Rem),
            Tok::Op("^=") => Some(BinOp::Pow),
            Tok::Op(op @ "++") | Tok::Op(op @ "--") => {
                let step = Step {
                    pre: false,
                    delta: if *op == "++" { 1 } else { -1 },
                };
                self.advance()?;
                match target {
                    Named::Var(v) => self.emit(Op::IncVar(v, step), 4),
                    Named::Arr(a) => self.emit(Op::IncArr(a, step), 4),
                };
                return Ok(false);
            }
            _ => {
                match target {
                    Named::Var(v) => self.emit(Op::Load(v), 2),
                    Named::Arr(a) => self.emit(Op::LoadArr(a), 2),
                };
                return Ok(false);
            }
        };
        self.advance()?;
        match target {
            Named::Var(v) => {
                if let Some(op) = compound {
                    self.emit(Op::Load(v.clone()), 2);
                    self.assign_rhs()?;
                    self.emit(Op::Bin(op), 1);
                } else {
                    self.assign_rhs()?;
                }
                self.emit(Op::Store(v), 2);
            }
            Named::Arr(a) => {
                if let Some(op) = compound {
                    self.emit(Op::Dup, 1);
                    self.emit(Op::LoadArr(a.clone()), 2);
                    self.assign_rhs()?;
                    self.emit(Op::Bin(op), 1);
                } else {
                    self.assign_rhs()?;
                }
                self.emit(Op::StoreArr(a), 2);
            }
        }
        Ok(true)
    }

    /// The right side of an assignment: binds looser than `+` but tighter
    /// than comparisons, as in GNU bc's grammar.
    fn assign_rhs(&mut self) -> PResult<()> {
        self.add_expr().map(|_| ())
    }
}

enum Named {
    Var(Var),
    Arr(String),
}
