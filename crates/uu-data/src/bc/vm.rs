//! The bc machine: variables with dynamic scope (a stack per name), arrays,
//! functions, and the runner for compiled code with GNU bc's runtime errors
//! and warnings.

use std::collections::HashMap;
use std::io::Write;
use std::rc::Rc;

use super::code::{BinOp, Func, Op, RelOp, Step, Var};
use super::num::Num;

/// Largest array index plus one (GNU's BC_DIM_MAX + 1).
const DIM_MAX: i64 = 16_777_215;
/// Function calls deeper than this stop with an error instead of exhausting memory.
const MAX_DEPTH: usize = 20_000;

type Array = HashMap<u32, Num>;

enum Val {
    N(Num),
    A(Array),
}

struct Frame {
    func: Rc<Func>,
    ends: Rc<Vec<u32>>,
    pc: usize,
    stack_base: usize,
}

/// How a run ended.
pub enum Outcome {
    Done,
    /// `halt` was executed.
    Halt,
}

/// Output with GNU bc's line wrapping (a backslash-newline before column 70).
pub struct Out {
    buf: Vec<u8>,
    col: usize,
    line_len: usize,
    /// Keep output in memory instead of writing it (unit tests).
    pub capture: bool,
}

impl Out {
    pub fn new(line_len: usize) -> Out {
        Out {
            buf: Vec::new(),
            col: 0,
            line_len,
            capture: false,
        }
    }

    pub fn put_char(&mut self, c: u8) {
        if c == b'\n' {
            self.col = 0;
        } else {
            self.col += 1;
            if self.line_len > 0 && self.col == self.line_len - 1 {
                self.buf.extend_from_slice(b"\\\n");
                self.col = 1;
            }
        }
        self.buf.push(c);
        if self.buf.len() >= 1 << 16 {
            self.flush();
        }
    }

    pub fn put_str(&mut self, s: &str) {
        for &b in s.as_bytes() {
            self.put_char(b);
        }
    }

    /// The captured output so far.
    pub fn take(&mut self) -> String {
        String::from_utf8_lossy(&std::mem::take(&mut self.buf)).into_owned()
    }

    pub fn flush(&mut self) {
        if self.capture {
            return;
        }
        let mut o = std::io::stdout();
        let _ = o.write_all(&self.buf);
        let _ = o.flush();
        self.buf.clear();
    }
}

pub struct Machine {
    vars: HashMap<String, Vec<Num>>,
    arrays: HashMap<String, Vec<Array>>,
    funcs: HashMap<String, Rc<Func>>,
    pub scale: usize,
    pub ibase: u32,
    pub obase: u64,
    last: Num,
    pub out: Out,
}

/// A runtime error: function name, address and message.
struct RtError {
    msg: String,
    /// GNU notices some errors part-way through an instruction: bytes to
    /// take off the instruction's end address.
    back: u32,
}

impl RtError {
    fn new(msg: String) -> RtError {
        RtError { msg, back: 0 }
    }
}

impl Machine {
    pub fn new(line_len: usize) -> Machine {
        Machine {
            vars: HashMap::new(),
            arrays: HashMap::new(),
            funcs: HashMap::new(),
            scale: 0,
            ibase: 10,
            obase: 10,
            last: Num::zero(),
            out: Out::new(line_len),
        }
    }

    pub fn define(&mut self, f: Func) {
        self.funcs.insert(f.name.clone(), Rc::new(f));
    }

    fn print_num(&mut self, n: &Num) {
        let s = n.to_base_string(self.obase);
        self.out.put_str(&s);
    }

    fn get_var(&self, v: &Var) -> Num {
        match v {
            Var::Named(n) => self
                .vars
                .get(n)
                .and_then(|s| s.last())
                .cloned()
                .unwrap_or_default(),
            Var::Scale => Num::from_i64(self.scale as i64),
            Var::Ibase => Num::from_i64(self.ibase as i64),
            Var::Obase => Num::from_i64(self.obase as i64),
            Var::Last => self.last.clone(),
        }
    }

    /// Stores; special variables are checked and may warn.
    fn set_var(&mut self, v: &Var, val: Num, warn: &mut Vec<String>) {
        let int = || val.to_i64();
        match v {
            Var::Named(n) => {
                let s = self.vars.entry(n.clone()).or_default();
                match s.last_mut() {
                    Some(top) => *top = val,
                    None => s.push(val),
                }
            }
            Var::Last => self.last = val,
            Var::Scale => match int() {
                Some(x) if x < 0 => {
                    warn.push("negative scale, set to 0".into());
                    self.scale = 0;
                }
                Some(x) if x <= i32::MAX as i64 => self.scale = x as usize,
                _ => {
                    warn.push("scale too large, set to 2147483647".into());
                    self.scale = i32::MAX as usize;
                }
            },
            Var::Ibase => match int() {
                Some(x) if x < 2 => {
                    warn.push("ibase too small, set to 2".into());
                    self.ibase = 2;
                }
                Some(x) if x <= 36 => self.ibase = x as u32,
                _ => {
                    warn.push("ibase too large, set to 36".into());
                    self.ibase = 36;
                }
            },
            Var::Obase => match int() {
                Some(x) if x < 2 => {
                    warn.push("obase too small, set to 2".into());
                    self.obase = 2;
                }
                Some(x) if x <= i32::MAX as i64 => self.obase = x as u64,
                _ => {
                    warn.push("obase too large, set to 2147483647".into());
                    self.obase = i32::MAX as u64;
                }
            },
        }
    }

    fn array_mut(&mut self, name: &str) -> &mut Array {
        let s = self.arrays.entry(name.to_string()).or_default();
        if s.is_empty() {
            s.push(Array::new());
        }
        let n = s.len();
        &mut s[n - 1]
    }

    fn index(&self, name: &str, idx: &Num) -> Result<u32, RtError> {
        match idx.to_i64() {
            Some(i) if (0..=DIM_MAX).contains(&i) => Ok(i as u32),
            _ => Err(RtError::new(format!(
                "Array {} subscript out of bounds.",
                name
            ))),
        }
    }

    /// Runs a top-level chunk. Errors and warnings are printed to stderr.
    pub fn run(&mut self, main: Func) -> Outcome {
        let main = Rc::new(main);
        let mut frames = vec![Frame {
            ends: Rc::new(main.ends()),
            func: main,
            pc: 0,
            stack_base: 0,
        }];
        let mut stack: Vec<Val> = Vec::new();
        let r = self.exec(&mut frames, &mut stack);
        // Unwind the scopes of functions an error left running.
        while frames.len() > 1 {
            if let Some(f) = frames.pop() {
                self.pop_scope(&f.func);
            }
        }
        r
    }

    fn report(&mut self, frames: &[Frame], kind: &str, msg: &str, back: u32) {
        self.out.flush();
        let (name, adr) = match frames.last() {
            Some(f) => (
                f.func.name.clone(),
                f.ends
                    .get(f.pc.saturating_sub(1))
                    .copied()
                    .unwrap_or(0)
                    .saturating_sub(back),
            ),
            None => ("(main)".into(), 0),
        };
        eprintln!("Runtime {} (func={}, adr={}): {}", kind, name, adr, msg);
    }

    fn pop_num(stack: &mut Vec<Val>) -> Num {
        match stack.pop() {
            Some(Val::N(n)) => n,
            _ => Num::zero(),
        }
    }

    fn pop_scope(&mut self, f: &Func) {
        for (name, is_arr) in f.params.iter().chain(f.autos.iter()) {
            if *is_arr {
                if let Some(s) = self.arrays.get_mut(name) {
                    s.pop();
                }
            } else if let Some(s) = self.vars.get_mut(name) {
                s.pop();
            }
        }
    }

    fn exec(&mut self, frames: &mut Vec<Frame>, stack: &mut Vec<Val>) -> Outcome {
        loop {
            let (func, pc) = match frames.last() {
                Some(f) => (f.func.clone(), f.pc),
                None => return Outcome::Done,
            };
            if pc >= func.code.len() {
                // Falling off the end: functions return 0.
                if frames.len() == 1 {
                    return Outcome::Done;
                }
                self.do_return(frames, stack, Num::zero());
                continue;
            }
            if let Some(f) = frames.last_mut() {
                f.pc += 1;
            }
            let mut warns = Vec::new();
            let r = self.step(&func.code[pc].op, frames, stack, &mut warns);
            for w in warns {
                self.report(frames, "warning", &w, 0);
            }
            match r {
                Ok(None) => {}
                Ok(Some(o)) => return o,
                Err(e) => {
                    self.report(frames, "error", &e.msg, e.back);
                    return Outcome::Done;
                }
            }
        }
    }

    fn do_return(&mut self, frames: &mut Vec<Frame>, stack: &mut Vec<Val>, v: Num) {
        if let Some(f) = frames.pop() {
            stack.truncate(f.stack_base);
            self.pop_scope(&f.func);
        }
        stack.push(Val::N(v));
    }

    fn jump(frames: &mut [Frame], to: usize) {
        if let Some(f) = frames.last_mut() {
            f.pc = to;
        }
    }

    fn step(
        &mut self,
        op: &Op,
        frames: &mut Vec<Frame>,
        stack: &mut Vec<Val>,
        warns: &mut Vec<String>,
    ) -> Result<Option<Outcome>, RtError> {
        let err = |e: super::num::NumError| RtError::new(e.message().to_string());
        match op {
            Op::Const(n) => stack.push(Val::N(n.clone())),
            Op::Lit(t) => stack.push(Val::N(Num::parse(t, self.ibase))),
            Op::Load(v) => stack.push(Val::N(self.get_var(v))),
            Op::Store(v) => {
                let n = Self::pop_num(stack);
                self.set_var(v, n, warns);
                stack.push(Val::N(self.get_var(v)));
            }
            Op::LoadArr(a) => {
                let i = Self::pop_num(stack);
                let i = self.index(a, &i)?;
                let v = self
                    .arrays
                    .get(a)
                    .and_then(|s| s.last())
                    .and_then(|arr| arr.get(&i))
                    .cloned()
                    .unwrap_or_default();
                stack.push(Val::N(v));
            }
            Op::StoreArr(a) => {
                let v = Self::pop_num(stack);
                let i = Self::pop_num(stack);
                let i = self.index(a, &i)?;
                self.array_mut(a).insert(i, v.clone());
                stack.push(Val::N(v));
            }
            Op::IncVar(v, s) => {
                let old = self.get_var(v);
                let new = old.add(&Num::from_i64(s.delta));
                self.set_var(v, new, warns);
                stack.push(Val::N(if s.pre { self.get_var(v) } else { old }));
            }
            Op::IncArr(a, Step { pre, delta }) => {
                let i = Self::pop_num(stack);
                let i = self.index(a, &i)?;
                let arr = self.array_mut(a);
                let old = arr.get(&i).cloned().unwrap_or_default();
                let new = old.add(&Num::from_i64(*delta));
                arr.insert(i, new.clone());
                stack.push(Val::N(if *pre { new } else { old }));
            }
            Op::Dup => {
                if let Some(Val::N(n)) = stack.last() {
                    let n = n.clone();
                    stack.push(Val::N(n));
                }
            }
            Op::Bin(b) => {
                let r = Self::pop_num(stack);
                let l = Self::pop_num(stack);
                let v = match b {
                    BinOp::Add => l.add(&r),
                    BinOp::Sub => l.sub(&r),
                    BinOp::Mul => l.mul(&r, self.scale),
                    BinOp::Div => l.div(&r, self.scale).map_err(err)?,
                    BinOp::Rem => l.rem(&r, self.scale).map_err(err)?,
                    BinOp::Pow => {
                        if r.scale() != 0 {
                            warns.push("non-zero scale in exponent".into());
                        }
                        l.pow(&r, self.scale).map_err(err)?
                    }
                };
                stack.push(Val::N(v));
            }
            Op::Rel(o) => {
                let r = Self::pop_num(stack);
                let l = Self::pop_num(stack);
                let c = l.cmp_num(&r);
                use std::cmp::Ordering::*;
                let t = match o {
                    RelOp::Eq => c == Equal,
                    RelOp::Ne => c != Equal,
                    RelOp::Lt => c == Less,
                    RelOp::Le => c != Greater,
                    RelOp::Gt => c == Greater,
                    RelOp::Ge => c != Less,
                };
                stack.push(Val::N(Num::from_i64(t as i64)));
            }
            Op::Neg => {
                let n = Self::pop_num(stack);
                stack.push(Val::N(n.neg()));
            }
            Op::Not => {
                let n = Self::pop_num(stack);
                stack.push(Val::N(Num::from_i64(n.is_zero() as i64)));
            }
            Op::Sqrt => {
                let n = Self::pop_num(stack);
                stack.push(Val::N(n.sqrt(self.scale).map_err(err)?));
            }
            Op::Length => {
                let n = Self::pop_num(stack);
                stack.push(Val::N(Num::from_i64(n.length() as i64)));
            }
            Op::ScaleOf => {
                let n = Self::pop_num(stack);
                stack.push(Val::N(Num::from_i64(n.scale() as i64)));
            }
            Op::Read => {
                self.out.flush();
                let mut line = String::new();
                let _ = std::io::stdin().read_line(&mut line);
                let t = line.trim();
                let (neg, t) = match t.strip_prefix('-') {
                    Some(r) => (true, r),
                    None => (false, t),
                };
                let ok = !t.is_empty()
                    && t.bytes()
                        .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase() || c == b'.')
                    && t.bytes().filter(|&c| c == b'.').count() <= 1;
                if !ok {
                    return Err(RtError::new("read() error".into()));
                }
                let n = Num::parse(t, self.ibase);
                stack.push(Val::N(if neg { n.neg() } else { n }));
            }
            Op::PushArr(a) => {
                let copy = self
                    .arrays
                    .get(a)
                    .and_then(|s| s.last())
                    .cloned()
                    .unwrap_or_default();
                stack.push(Val::A(copy));
            }
            Op::Call(name, n) => return self.call(name, *n, frames, stack).map(|_| None),
            Op::PrintLine => {
                let n = Self::pop_num(stack);
                self.print_num(&n);
                self.out.put_char(b'\n');
                self.last = n;
            }
            Op::PrintVal => {
                let n = Self::pop_num(stack);
                self.print_num(&n);
                self.last = n;
            }
            Op::Pop => {
                stack.pop();
            }
            Op::Str(s) => self.out.put_str(s),
            Op::PrintStr(s) => {
                let mut it = s.chars();
                let mut text = String::new();
                while let Some(c) = it.next() {
                    if c != '\\' {
                        text.push(c);
                        continue;
                    }
                    match it.next() {
                        Some('a') => text.push('\x07'),
                        Some('b') => text.push('\x08'),
                        Some('f') => text.push('\x0c'),
                        Some('n') => text.push('\n'),
                        Some('q') => text.push('"'),
                        Some('r') => text.push('\r'),
                        Some('t') => text.push('\t'),
                        Some('\\') => text.push('\\'),
                        Some(o) => {
                            text.push('\\');
                            text.push(o);
                        }
                        None => text.push('\\'),
                    }
                }
                self.out.put_str(&text);
            }
            Op::Jump(t) => Self::jump(frames, *t),
            Op::JumpZero(t) => {
                if Self::pop_num(stack).is_zero() {
                    Self::jump(frames, *t);
                }
            }
            Op::JumpKeepZero(t) | Op::JumpKeepNonZero(t) => {
                let z = matches!(stack.last(), Some(Val::N(n)) if n.is_zero());
                if z == matches!(op, Op::JumpKeepZero(_)) {
                    Self::jump(frames, *t);
                }
            }
            Op::Return(has) => {
                let v = if *has {
                    Self::pop_num(stack)
                } else {
                    Num::zero()
                };
                if frames.len() > 1 {
                    self.do_return(frames, stack, v);
                }
            }
            Op::Halt => return Ok(Some(Outcome::Halt)),
        }
        Ok(None)
    }

    fn call(
        &mut self,
        name: &str,
        nargs: usize,
        frames: &mut Vec<Frame>,
        stack: &mut Vec<Val>,
    ) -> Result<(), RtError> {
        let f = match self.funcs.get(name) {
            Some(f) => f.clone(),
            None => {
                return Err(RtError {
                    msg: format!("Function {} not defined.", name),
                    back: 1 + nargs as u32,
                })
            }
        };
        if f.params.len() != nargs {
            return Err(RtError {
                msg: "Parameter number mismatch".into(),
                back: nargs.saturating_sub(1) as u32,
            });
        }
        if frames.len() >= MAX_DEPTH {
            return Err(RtError::new("Function call nesting too deep".into()));
        }
        let args: Vec<Val> = stack.split_off(stack.len().saturating_sub(nargs));
        for ((pname, is_arr), a) in f.params.iter().zip(args.iter()) {
            let ok = matches!((is_arr, a), (true, Val::A(_)) | (false, Val::N(_)));
            if !ok {
                return Err(RtError::new(format!(
                    "Parameter type mismatch parameter {}.",
                    pname
                )));
            }
        }
        for ((pname, _), a) in f.params.iter().zip(args) {
            match a {
                Val::N(n) => self.vars.entry(pname.clone()).or_default().push(n),
                Val::A(arr) => self.arrays.entry(pname.clone()).or_default().push(arr),
            }
        }
        for (aname, is_arr) in &f.autos {
            if *is_arr {
                self.arrays
                    .entry(aname.clone())
                    .or_default()
                    .push(Array::new());
            } else {
                self.vars
                    .entry(aname.clone())
                    .or_default()
                    .push(Num::zero());
            }
        }
        frames.push(Frame {
            ends: Rc::new(f.ends()),
            func: f,
            pc: 0,
            stack_base: stack.len(),
        });
        Ok(())
    }
}
