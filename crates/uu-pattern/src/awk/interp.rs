//! The awk tree-walking interpreter: records and fields, variables and
//! arrays, user functions, builtins, getline and output redirection.

use super::ast::*;
use super::parser::*;
use super::value::{check_format_args, num_to_str, sprintf, str_to_num, Value};
use crate::rx::{Config, Regex, Syntax};
use coreutils_core::error::strerror;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};

use crate::common::read_line;
use std::rc::Rc;

/// An associative array keeping insertion order for `for (k in a)`.
#[derive(Default, Debug)]
pub struct Array {
    map: HashMap<Rc<[u8]>, usize>,
    keys: Vec<Option<Rc<[u8]>>>,
    vals: Vec<Value>,
    live: usize,
}

impl Array {
    fn get(&self, k: &[u8]) -> Option<&Value> {
        self.map.get(k).map(|&i| &self.vals[i])
    }
    fn slot(&mut self, k: &[u8]) -> &mut Value {
        let i = match self.map.get(k) {
            Some(&i) => i,
            None => {
                let key: Rc<[u8]> = Rc::from(k);
                self.keys.push(Some(key.clone()));
                self.vals.push(Value::Uninit);
                self.map.insert(key, self.vals.len() - 1);
                self.live += 1;
                self.vals.len() - 1
            }
        };
        &mut self.vals[i]
    }
    fn remove(&mut self, k: &[u8]) {
        if let Some(i) = self.map.remove(k) {
            self.keys[i] = None;
            self.vals[i] = Value::Uninit;
            self.live -= 1;
        }
    }
    fn clear(&mut self) {
        *self = Array::default();
    }
    fn key_list(&self) -> Vec<Rc<[u8]>> {
        self.keys.iter().flatten().cloned().collect()
    }
}

/// A variable cell.
#[derive(Debug, Clone)]
pub enum Cell {
    Val(Value),
    Arr(Rc<std::cell::RefCell<Array>>),
}

/// Non-local control flow.
pub enum Flow {
    Next,
    NextFile,
    Exit(i32),
    Break,
    Continue,
    Return(Value),
    Error(String),
}

type R<T> = Result<T, Flow>;

struct InputFile {
    reader: Box<dyn BufRead>,
}

/// The interpreter state.
pub struct Interp {
    prog: Rc<Program>,
    globals: Vec<Cell>,
    frames: Vec<Vec<Cell>>,
    record: Vec<u8>,
    fields: Vec<Value>,
    /// Field boundaries in `record` while `lazy`: fields are made into
    /// values only when read, so unread fields cost no allocation.
    spans: Vec<(usize, usize)>,
    /// `spans` (not `fields`) describe the current fields.
    lazy: bool,
    /// Reused read buffer for the next record.
    spare: Vec<u8>,
    /// Regex-RS reading of the main input: bytes read, where the next
    /// record starts, whether the input has ended.
    rx_buf: Vec<u8>,
    rx_pos: usize,
    rx_eof: bool,
    split_done: bool,
    nf: usize,
    regexes: Vec<Rc<Regex>>,
    dyn_re: HashMap<Vec<u8>, Rc<Regex>>,
    out: Box<dyn Write>,
    files: HashMap<Vec<u8>, Box<dyn Write>>,
    readers: HashMap<Vec<u8>, InputFile>,
    range_active: Vec<bool>,
    /// Main input.
    main: Option<Box<dyn BufRead>>,
    arg_index: usize,
    main_done: bool,
    rand_seed: f64,
    prev_seed: f64,
    rng: u64,
    pub exit_code: i32,
    convfmt: Vec<u8>,
    /// Output pipes (`print | cmd`), by command text.
    cmd_out: HashMap<Vec<u8>, (crate::common::command::Running, Box<dyn Write>)>,
    /// Input pipes (`cmd | getline`), by command text.
    cmd_in: HashMap<Vec<u8>, (crate::common::command::Running, Box<dyn BufRead>)>,
    in_end: bool,
    used_file: bool,
    pending_var: Option<Vec<u8>>,
}

fn err<T>(m: impl Into<String>) -> R<T> {
    Err(Flow::Error(m.into()))
}

impl Interp {
    pub fn new(
        prog: Program,
        args: Vec<Vec<u8>>,
        assigns: Vec<(Vec<u8>, Vec<u8>)>,
    ) -> Result<Interp, String> {
        let mut regexes = Vec::new();
        for r in &prog.regexes {
            regexes.push(Rc::new(compile(r)?));
        }
        let n = prog.globals.len();
        let mut globals = vec![Cell::Val(Value::Uninit); n];
        let s = |b: &[u8]| Cell::Val(Value::from_bytes(b));
        globals[FS] = s(b" ");
        globals[OFS] = s(b" ");
        globals[ORS] = s(b"\n");
        globals[RS] = s(b"\n");
        globals[SUBSEP] = s(b"\x1c");
        globals[CONVFMT] = s(b"%.6g");
        globals[OFMT] = s(b"%.6g");
        globals[NR] = Cell::Val(Value::Num(0.0));
        globals[FNR] = Cell::Val(Value::Num(0.0));
        globals[NF] = Cell::Val(Value::Num(0.0));
        globals[RSTART] = Cell::Val(Value::Num(0.0));
        globals[RLENGTH] = Cell::Val(Value::Num(-1.0));
        let mut env = Array::default();
        for (k, v) in std::env::vars_os() {
            *env.slot(coreutils_core::bytes::os_bytes(&k)) =
                Value::input(coreutils_core::bytes::os_bytes(&v));
        }
        globals[ENVIRON] = Cell::Arr(Rc::new(std::cell::RefCell::new(env)));
        let mut argv = Array::default();
        for (i, a) in args.iter().enumerate() {
            *argv.slot(i.to_string().as_bytes()) = Value::input(a);
        }
        globals[ARGV] = Cell::Arr(Rc::new(std::cell::RefCell::new(argv)));
        globals[ARGC] = Cell::Val(Value::Num(args.len() as f64));
        let nrules = prog.rules.len();
        let mut it = Interp {
            prog: Rc::new(prog),
            globals,
            frames: Vec::new(),
            record: Vec::new(),
            fields: Vec::new(),
            spans: Vec::new(),
            lazy: false,
            spare: Vec::new(),
            rx_buf: Vec::new(),
            rx_pos: 0,
            rx_eof: false,
            split_done: true,
            nf: 0,
            regexes,
            dyn_re: HashMap::new(),
            out: Box::new(coreutils_core::io::stdout()),
            files: HashMap::new(),
            readers: HashMap::new(),
            range_active: vec![false; nrules],
            main: None,
            arg_index: 1,
            main_done: false,
            rand_seed: 0.0,
            prev_seed: 0.0,
            rng: 0x2545_F491_4F6C_DD1D,
            exit_code: 0,
            convfmt: b"%.6g".to_vec(),
            cmd_out: HashMap::new(),
            cmd_in: HashMap::new(),
            in_end: false,
            used_file: false,
            pending_var: None,
        };
        for (name, val) in assigns {
            it.assign_var(&name, &val)?;
        }
        Ok(it)
    }

    fn assign_var(&mut self, name: &[u8], val: &[u8]) -> Result<(), String> {
        let n = String::from_utf8_lossy(name).into_owned();
        let v = unescape(val);
        if let Some(i) = self.prog.globals.iter().position(|g| *g == n) {
            if matches!(self.globals[i], Cell::Arr(_)) {
                return Err(format!("cannot use array `{}' in scalar context", n));
            }
            self.set_global(i, Value::input(&v));
        }
        Ok(())
    }

    fn gstr(&self, i: usize) -> Rc<[u8]> {
        match &self.globals[i] {
            Cell::Val(v) => v.to_bytes(&self.convfmt),
            Cell::Arr(_) => Rc::from(&b""[..]),
        }
    }

    fn set_global(&mut self, i: usize, v: Value) {
        if i == NF {
            self.ensure_split();
            let n = v.num().max(0.0) as usize;
            self.set_nf(n);
            return;
        }
        if i == CONVFMT {
            self.convfmt = v.to_bytes(b"%.6g").to_vec();
        }
        self.globals[i] = Cell::Val(v);
    }

    fn get_global(&mut self, i: usize) -> Value {
        if i == NF {
            self.ensure_split();
            return Value::Num(self.nf as f64);
        }
        match &self.globals[i] {
            Cell::Val(v) => v.clone(),
            Cell::Arr(_) => Value::Uninit,
        }
    }

    // ---- records and fields ----

    fn set_record(&mut self, r: Vec<u8>) {
        self.record = r;
        self.split_done = false;
    }

    fn ensure_split(&mut self) {
        if self.split_done {
            return;
        }
        self.split_done = true;
        let fs = self.gstr(FS);
        let rs = self.gstr(RS);
        self.fields.clear();
        self.spans.clear();
        if self.split_spans(&fs, rs.is_empty()) {
            self.lazy = true;
            self.nf = self.spans.len();
            return;
        }
        self.lazy = false;
        let rec = std::mem::take(&mut self.record);
        let mut parts: Vec<Value> = Vec::new();
        self.split_into(&rec, &fs, rs.is_empty(), &mut parts);
        self.fields = parts;
        self.nf = self.fields.len();
        self.record = rec;
    }

    /// Split the record into `spans` for the common separators (default
    /// blanks, one plain byte); false when FS needs the general path.
    fn split_spans(&mut self, fs: &[u8], para: bool) -> bool {
        let rec = &self.record;
        let spans = &mut self.spans;
        if fs == b" " {
            let mut i = 0;
            let n = rec.len();
            let blank = |c: u8| c == b' ' || c == b'\t' || c == b'\n';
            while i < n {
                while i < n && blank(rec[i]) {
                    i += 1;
                }
                if i == n {
                    break;
                }
                let a = i;
                while i < n && !blank(rec[i]) {
                    i += 1;
                }
                spans.push((a, i));
            }
            return true;
        }
        if fs.len() == 1 && fs[0] != b'\\' && (!para || fs[0] == b'\n') {
            if rec.is_empty() {
                return true;
            }
            let mut a = 0;
            for i in memchr::memchr_iter(fs[0], rec) {
                spans.push((a, i));
                a = i + 1;
            }
            spans.push((a, rec.len()));
            return true;
        }
        false
    }

    /// Turn lazy spans into field values before fields are changed.
    fn materialize(&mut self) {
        if !self.lazy {
            return;
        }
        self.lazy = false;
        self.fields.clear();
        for &(a, b) in &self.spans {
            self.fields.push(Value::input(&self.record[a..b]));
        }
    }

    fn split_into(&mut self, s: &[u8], fs: &[u8], para: bool, out: &mut Vec<Value>) {
        if fs == b" " {
            for w in s
                .split(|c| *c == b' ' || *c == b'\t' || *c == b'\n')
                .filter(|w| !w.is_empty())
            {
                out.push(Value::input(w));
            }
            return;
        }
        if s.is_empty() {
            return;
        }
        if fs.is_empty() {
            for b in s {
                out.push(Value::input(std::slice::from_ref(b)));
            }
            return;
        }
        if fs.len() == 1 && fs[0] != b'\\' && (!para || fs[0] == b'\n') {
            let c = if fs[0] == b'\t' { b'\t' } else { fs[0] };
            for w in s.split(|x| *x == c) {
                out.push(Value::input(w));
            }
            return;
        }
        let mut pat = fs.to_vec();
        if para {
            pat = [b"(".as_ref(), fs, b")|\n"].concat();
            if fs.len() == 1 {
                pat = [b"[".as_ref(), &escape_class(fs[0]), b"\n]"].concat();
            }
        }
        let re = match self.dyn_regex(&pat) {
            Ok(r) => r,
            Err(_) => {
                out.push(Value::input(s));
                return;
            }
        };
        let mut pos = 0;
        let mut start = 0;
        while pos <= s.len() {
            match re.find_at(s, pos) {
                Some((a, b)) if b > a => {
                    out.push(Value::input(&s[start..a]));
                    start = b;
                    pos = b;
                }
                Some((a, _)) => {
                    pos = a + 1;
                }
                None => break,
            }
        }
        out.push(Value::input(&s[start..]));
    }

    fn set_nf(&mut self, n: usize) {
        self.materialize();
        self.fields.resize(n, Value::from_bytes(b""));
        self.nf = n;
        self.rebuild();
    }

    fn rebuild(&mut self) {
        let ofs = self.gstr(OFS);
        let mut r = Vec::new();
        for (i, f) in self.fields.iter().enumerate() {
            if i > 0 {
                r.extend_from_slice(&ofs);
            }
            r.extend_from_slice(&f.to_bytes(&self.convfmt));
        }
        self.record = r;
        self.split_done = true;
    }

    fn get_field(&mut self, i: usize) -> Value {
        if i == 0 {
            return Value::input(&self.record);
        }
        self.ensure_split();
        if self.lazy {
            return match self.spans.get(i - 1) {
                Some(&(a, b)) => Value::input(&self.record[a..b]),
                None => Value::Uninit,
            };
        }
        self.fields.get(i - 1).cloned().unwrap_or(Value::Uninit)
    }

    fn set_field(&mut self, i: usize, v: Value) {
        if i == 0 {
            let b = v.to_bytes(&self.convfmt).to_vec();
            self.set_record(b);
            return;
        }
        self.ensure_split();
        self.materialize();
        if i > self.fields.len() {
            self.fields.resize(i, Value::from_bytes(b""));
            self.nf = i;
        }
        let b = v.to_bytes(&self.convfmt);
        self.fields[i - 1] = match v {
            Value::Num(n) => Value::StrNum(b, n),
            other => other,
        };
        self.rebuild();
    }

    // ---- regexes ----

    fn dyn_regex(&mut self, pat: &[u8]) -> R<Rc<Regex>> {
        if let Some(r) = self.dyn_re.get(pat) {
            return Ok(r.clone());
        }
        let r = Rc::new(compile(pat).map_err(Flow::Error)?);
        if self.dyn_re.len() > 500 {
            self.dyn_re.clear();
        }
        self.dyn_re.insert(pat.to_vec(), r.clone());
        Ok(r)
    }

    fn regex_of(&mut self, e: &Expr) -> R<Rc<Regex>> {
        if let Expr::Regex(i) = e {
            return Ok(self.regexes[*i].clone());
        }
        let v = self.eval(e)?;
        let s = v.to_bytes(&self.convfmt);
        self.dyn_regex(&s)
    }

    // ---- variables ----

    fn cell(&mut self, v: Var) -> &mut Cell {
        match v {
            Var::Global(i) => &mut self.globals[i],
            Var::Local(i) => {
                let f = self.frames.len() - 1;
                &mut self.frames[f][i]
            }
        }
    }

    fn array(&mut self, v: Var) -> R<Rc<std::cell::RefCell<Array>>> {
        let c = self.cell(v);
        match c {
            Cell::Arr(a) => Ok(a.clone()),
            Cell::Val(Value::Uninit) => {
                let a = Rc::new(std::cell::RefCell::new(Array::default()));
                *c = Cell::Arr(a.clone());
                Ok(a)
            }
            Cell::Val(_) => err("attempt to use scalar as array"),
        }
    }

    fn subscript(&mut self, subs: &[Expr]) -> R<Vec<u8>> {
        if subs.len() == 1 {
            let v = self.eval(&subs[0])?;
            return Ok(v.to_bytes(&self.convfmt).to_vec());
        }
        let sep = self.gstr(SUBSEP);
        let mut k = Vec::new();
        for (i, s) in subs.iter().enumerate() {
            if i > 0 {
                k.extend_from_slice(&sep);
            }
            let v = self.eval(s)?;
            k.extend_from_slice(&v.to_bytes(&self.convfmt));
        }
        Ok(k)
    }

    fn get_var(&mut self, v: Var) -> R<Value> {
        if let Var::Global(i) = v {
            return Ok(self.get_global(i));
        }
        match self.cell(v) {
            Cell::Val(x) => Ok(x.clone()),
            Cell::Arr(_) => err("attempt to use array in a scalar context"),
        }
    }

    fn assign(&mut self, target: &Expr, val: Value) -> R<()> {
        match target {
            Expr::Var(Var::Global(i)) => {
                if matches!(self.globals[*i], Cell::Arr(_)) {
                    return err(format!(
                        "attempt to use array `{}' in a scalar context",
                        self.prog.globals[*i]
                    ));
                }
                self.set_global(*i, val);
            }
            Expr::Var(v) => {
                let c = self.cell(*v);
                if matches!(c, Cell::Arr(_)) {
                    return err("attempt to use array in a scalar context");
                }
                *c = Cell::Val(val);
            }
            Expr::Field(e) => {
                let i = self.eval(e)?.num();
                if i < 0.0 {
                    return err(format!("attempt to access field {}", i as i64));
                }
                self.set_field(i as usize, val);
            }
            Expr::Index(v, subs) => {
                let k = self.subscript(subs)?;
                let a = self.array(*v)?;
                *a.borrow_mut().slot(&k) = val;
            }
            Expr::Group(e) => return self.assign(e, val),
            _ => return err("assignment to non-lvalue"),
        }
        Ok(())
    }

    // ---- evaluation ----

    fn str_of(&self, v: &Value) -> Rc<[u8]> {
        v.to_bytes(&self.convfmt)
    }

    /// The numeric value of field `i`, read from the record without making
    /// a value of it (a field's number is its text's strtod prefix whether
    /// or not it looks numeric).
    fn field_num(&mut self, i: usize) -> f64 {
        if i == 0 {
            return str_to_num(&self.record);
        }
        self.ensure_split();
        if self.lazy {
            return match self.spans.get(i - 1) {
                Some(&(a, b)) => str_to_num(&self.record[a..b]),
                None => 0.0,
            };
        }
        self.fields.get(i - 1).map_or(0.0, Value::num)
    }

    /// `eval(e)?.num()` without building string values on the way: the
    /// arithmetic of `s += $1` and the like.
    fn eval_num(&mut self, e: &Expr) -> R<f64> {
        Ok(match e {
            Expr::Num(n) => *n,
            Expr::Var(Var::Global(i)) if *i != NF => match &self.globals[*i] {
                Cell::Val(v) => v.num(),
                Cell::Arr(_) => 0.0,
            },
            Expr::Field(i) => {
                let n = self.eval_num(i)?;
                if n < 0.0 {
                    return err(format!("attempt to access field {}", n as i64));
                }
                self.field_num(n as usize)
            }
            Expr::Group(e) => self.eval_num(e)?,
            Expr::Neg(a) => -self.eval_num(a)?,
            Expr::Plus(a) => self.eval_num(a)?,
            Expr::Bin(op, a, b) => {
                let x = self.eval_num(a)?;
                let y = self.eval_num(b)?;
                arith(op, x, y)?
            }
            _ => self.eval(e)?.num(),
        })
    }

    pub fn eval(&mut self, e: &Expr) -> R<Value> {
        Ok(match e {
            Expr::Num(n) => Value::Num(*n),
            Expr::Str(s) => Value::from_bytes(s),
            Expr::Regex(i) => {
                let re = self.regexes[*i].clone();
                Value::Num(if re.is_match(&self.record) { 1.0 } else { 0.0 })
            }
            Expr::Var(v) => self.get_var(*v)?,
            Expr::Field(i) => {
                let n = self.eval(i)?.num();
                if n < 0.0 {
                    return err(format!("attempt to access field {}", n as i64));
                }
                self.get_field(n as usize)
            }
            Expr::Index(v, subs) => {
                let k = self.subscript(subs)?;
                let a = self.array(*v)?;
                let mut a = a.borrow_mut();
                a.slot(&k).clone()
            }
            Expr::In(subs, v) => {
                let k = self.subscript(subs)?;
                let a = self.array(*v)?;
                let has = a.borrow().get(&k).is_some();
                Value::Num(if has { 1.0 } else { 0.0 })
            }
            Expr::Group(e) => self.eval(e)?,
            Expr::Assign(t, None, rhs) => {
                let v = self.eval(rhs)?;
                self.assign(t, v.clone())?;
                v
            }
            Expr::Assign(t, Some(o), rhs) => {
                let r = self.eval_num(rhs)?;
                let l = self.eval_num(t)?;
                let v = arith(o, l, r)?;
                self.assign(t, Value::Num(v))?;
                Value::Num(v)
            }
            Expr::Cond(c, a, b) => {
                if self.eval(c)?.truthy() {
                    self.eval(a)?
                } else {
                    self.eval(b)?
                }
            }
            Expr::And(a, b) => Value::Num(if self.eval(a)?.truthy() && self.eval(b)?.truthy() {
                1.0
            } else {
                0.0
            }),
            Expr::Or(a, b) => Value::Num(if self.eval(a)?.truthy() || self.eval(b)?.truthy() {
                1.0
            } else {
                0.0
            }),
            Expr::Not(a) => Value::Num(if self.eval(a)?.truthy() { 0.0 } else { 1.0 }),
            Expr::Neg(a) => Value::Num(-self.eval_num(a)?),
            Expr::Plus(a) => Value::Num(self.eval_num(a)?),
            Expr::Bin(op, a, b) => {
                let x = self.eval_num(a)?;
                let y = self.eval_num(b)?;
                Value::Num(arith(op, x, y)?)
            }
            Expr::Cmp(op, a, b) => {
                let x = self.eval(a)?;
                let y = self.eval(b)?;
                let ord = if x.is_numeric() && y.is_numeric() {
                    let (p, q) = (x.num(), y.num());
                    p.partial_cmp(&q).unwrap_or(std::cmp::Ordering::Less)
                } else {
                    let p = self.str_of(&x);
                    let q = self.str_of(&y);
                    p.as_ref().cmp(q.as_ref())
                };
                use std::cmp::Ordering::*;
                let r = match *op {
                    "<" => ord == Less,
                    "<=" => ord != Greater,
                    "==" => ord == Equal,
                    "!=" => ord != Equal,
                    ">=" => ord != Less,
                    _ => ord == Greater,
                };
                Value::Num(if r { 1.0 } else { 0.0 })
            }
            Expr::Match(neg, a, b) => {
                let s = self.eval(a)?;
                let s = self.str_of(&s);
                let re = self.regex_of(b)?;
                let m = re.is_match(&s);
                Value::Num(if m != *neg { 1.0 } else { 0.0 })
            }
            Expr::Concat(a, b) => {
                let x = self.eval(a)?;
                let y = self.eval(b)?;
                let mut s = self.str_of(&x).to_vec();
                s.extend_from_slice(&self.str_of(&y));
                Value::Str(Rc::from(s))
            }
            Expr::PreInc(t, d) => {
                let v = Value::Num(self.eval_num(t)? + d);
                self.assign(t, v.clone())?;
                v
            }
            Expr::PostInc(t, d) => {
                let old = self.eval_num(t)?;
                self.assign(t, Value::Num(old + d))?;
                Value::Num(old)
            }
            Expr::Call(f, args) => {
                if *f == usize::MAX {
                    return err("syntax error");
                }
                self.call(*f, args)?
            }
            Expr::Builtin(name, args) => self.builtin(name, args)?,
            Expr::Getline(var, file) => self.getline(var.as_deref(), file.as_deref())?,
            Expr::PipeGetline(cmd, var) => {
                let c = self.eval_str(Some(cmd))?;
                self.pipe_getline(c, var.as_deref())?
            }
        })
    }

    /// `cmd | getline [var]`: start the command on first use, then read
    /// its output a record at a time.
    fn pipe_getline(&mut self, cmd: Vec<u8>, var: Option<&Expr>) -> R<Value> {
        if !self.cmd_in.contains_key(&cmd) {
            self.flush_all();
            match crate::common::command::open_read(&cmd) {
                Ok((run, r)) => {
                    let r: Box<dyn BufRead> = Box::new(BufReader::with_capacity(64 * 1024, r));
                    self.cmd_in.insert(cmd.clone(), (run, r));
                }
                Err(_) => return Ok(Value::Num(-1.0)),
            }
        }
        let rs = self.gstr(RS);
        let mut rec = Vec::new();
        let got = match self.cmd_in.get_mut(&cmd) {
            Some((_, r)) => Self::read_record(r.as_mut(), &rs, &mut rec).unwrap_or(false),
            None => false,
        };
        if !got {
            return Ok(Value::Num(0.0));
        }
        // gawk leaves NR alone for command input (POSIX would count it).
        match var {
            Some(v) => self.assign(v, Value::input(&rec))?,
            None => self.set_record(rec),
        }
        Ok(Value::Num(1.0))
    }

    /// End every command still running (at exit): output pipes get EOF
    /// and are waited for, so their output comes before we return.
    pub fn close_all_cmds(&mut self) {
        let _ = self.out.flush();
        let mut outs: Vec<Vec<u8>> = self.cmd_out.keys().cloned().collect();
        outs.sort();
        for k in outs {
            if let Some((run, mut w)) = self.cmd_out.remove(&k) {
                let _ = w.flush();
                drop(w);
                run.wait();
            }
        }
        let ins: Vec<Vec<u8>> = self.cmd_in.keys().cloned().collect();
        for k in ins {
            if let Some((run, r)) = self.cmd_in.remove(&k) {
                drop(r);
                run.wait();
            }
        }
    }

    fn call(&mut self, f: usize, args: &[Expr]) -> R<Value> {
        let prog = self.prog.clone();
        let func = &prog.funcs[f];
        if args.len() > func.nparams {
            return err(format!(
                "function `{}' called with more arguments than declared",
                func.name
            ));
        }
        let mut frame = Vec::with_capacity(func.nparams);
        for a in args {
            let cell = match a {
                Expr::Var(v) => {
                    let c = self.cell(*v).clone();
                    match c {
                        Cell::Arr(_) => c,
                        Cell::Val(_) => Cell::Val(self.eval(a)?),
                    }
                }
                other => Cell::Val(self.eval(other)?),
            };
            frame.push(cell);
        }
        while frame.len() < func.nparams {
            frame.push(Cell::Val(Value::Uninit));
        }
        if self.frames.len() > 10000 {
            return err("function call nesting too deep");
        }
        self.frames.push(frame);
        let r = self.block(&func.body);
        let frame = self.frames.pop().unwrap_or_default();
        // Arrays created by the callee in untyped arguments flow back.
        for (i, a) in args.iter().enumerate() {
            if let (Expr::Var(v), Some(Cell::Arr(arr))) = (a, frame.get(i)) {
                let c = self.cell(*v);
                if matches!(c, Cell::Val(Value::Uninit)) {
                    *c = Cell::Arr(arr.clone());
                }
            }
        }
        match r {
            Ok(()) => Ok(Value::Uninit),
            Err(Flow::Return(v)) => Ok(v),
            Err(other) => Err(other),
        }
    }

    fn builtin(&mut self, name: &str, args: &[Expr]) -> R<Value> {
        let argn = |i: usize| args.get(i);
        let num = |s: &mut Self, i: usize| -> R<f64> {
            match args.get(i) {
                Some(e) => Ok(s.eval(e)?.num()),
                None => Ok(0.0),
            }
        };
        Ok(match name {
            "length" => match argn(0) {
                None => Value::Num(self.record.len() as f64),
                Some(Expr::Var(v)) => {
                    let c = self.cell(*v).clone();
                    match c {
                        Cell::Arr(a) => Value::Num(a.borrow().live as f64),
                        Cell::Val(_) => {
                            let x = self.get_var(*v)?;
                            Value::Num(self.str_of(&x).len() as f64)
                        }
                    }
                }
                Some(e) => {
                    let x = self.eval(e)?;
                    Value::Num(self.str_of(&x).len() as f64)
                }
            },
            "substr" => {
                let s = match argn(0) {
                    Some(e) => {
                        let v = self.eval(e)?;
                        self.str_of(&v)
                    }
                    None => return err("substr: not enough arguments"),
                };
                // gawk truncates both numbers and treats a start below 1 as 1.
                let m = num(self, 1)?;
                let len = s.len() as f64;
                let start = if m.is_nan() { 1.0 } else { m.trunc().max(1.0) };
                let end = match argn(2) {
                    Some(_) => {
                        let n = num(self, 2)?;
                        if n.is_nan() || n <= 0.0 {
                            start
                        } else {
                            start + n.trunc()
                        }
                    }
                    None => len + 1.0,
                };
                let b = end.min(len + 1.0);
                if b <= start || start > len {
                    Value::from_bytes(b"")
                } else {
                    Value::from_bytes(&s[(start as usize - 1)..(b as usize - 1)])
                }
            }
            "index" => {
                let a = self.eval_str(argn(0))?;
                let b = self.eval_str(argn(1))?;
                let p = if b.is_empty() {
                    1
                } else {
                    a.windows(b.len())
                        .position(|w| w == &b[..])
                        .map(|p| p + 1)
                        .unwrap_or(0)
                };
                Value::Num(p as f64)
            }
            "split" => {
                let s = self.eval_str(argn(0))?;
                let arr = match argn(1) {
                    Some(Expr::Var(v)) => self.array(*v)?,
                    _ => return err("split: second argument is not an array"),
                };
                let mut parts = Vec::new();
                match argn(2) {
                    None => {
                        let fs = self.gstr(FS);
                        self.split_into(&s, &fs, false, &mut parts);
                    }
                    Some(Expr::Regex(i)) => {
                        let re = self.regexes[*i].clone();
                        split_re(&s, &re, &mut parts);
                    }
                    Some(e) => {
                        let v = self.eval(e)?;
                        let fs = self.str_of(&v);
                        self.split_into(&s, &fs, false, &mut parts);
                    }
                }
                let mut a = arr.borrow_mut();
                a.clear();
                let n = parts.len();
                for (i, p) in parts.into_iter().enumerate() {
                    *a.slot((i + 1).to_string().as_bytes()) = p;
                }
                Value::Num(n as f64)
            }
            "sub" | "gsub" => {
                let re = match argn(0) {
                    Some(e) => self.regex_of(e)?,
                    None => return err("sub: not enough arguments"),
                };
                let repl = self.eval_str(argn(1))?;
                let target = argn(2)
                    .cloned()
                    .unwrap_or_else(|| Expr::Field(Box::new(Expr::Num(0.0))));
                let v = self.eval(&target)?;
                let s = self.str_of(&v);
                let (res, n) = substitute(&re, &s, &repl, name == "gsub");
                if n > 0 {
                    self.assign(&target, Value::Str(Rc::from(res)))?;
                }
                Value::Num(n as f64)
            }
            "gensub" => {
                let re = match argn(0) {
                    Some(e) => self.regex_of(e)?,
                    None => return err("gensub: not enough arguments"),
                };
                let repl = self.eval_str(argn(1))?;
                let how = match argn(2) {
                    Some(e) => self.eval(e)?,
                    None => Value::Num(1.0),
                };
                let target = match argn(3) {
                    Some(e) => {
                        let v = self.eval(e)?;
                        self.str_of(&v).to_vec()
                    }
                    None => self.record.clone(),
                };
                let hs = self.str_of(&how);
                let global = hs.first().map_or(false, |c| *c == b'g' || *c == b'G');
                let nth = if global {
                    0
                } else {
                    (how.num() as usize).max(1)
                };
                Value::Str(Rc::from(gensub(&re, &target, &repl, global, nth)))
            }
            "match" => {
                let s = self.eval_str(argn(0))?;
                let re = match argn(1) {
                    Some(e) => self.regex_of(e)?,
                    None => return err("match: not enough arguments"),
                };
                let mut locs = Vec::new();
                let found = re.captures_at(&s, 0, &mut locs);
                let (st, len) = match (found, locs.first().copied().flatten()) {
                    (true, Some((a, b))) => ((a + 1) as f64, (b - a) as f64),
                    _ => (0.0, -1.0),
                };
                if let Some(Expr::Var(v)) = argn(2) {
                    let arr = self.array(*v)?;
                    let mut a = arr.borrow_mut();
                    a.clear();
                    if found {
                        for (i, l) in locs.iter().enumerate() {
                            if let Some((x, y)) = l {
                                *a.slot(i.to_string().as_bytes()) = Value::input(&s[*x..*y]);
                                *a.slot(format!("{}\x1cstart", i).as_bytes()) =
                                    Value::Num((*x + 1) as f64);
                                *a.slot(format!("{}\x1clength", i).as_bytes()) =
                                    Value::Num((*y - *x) as f64);
                            }
                        }
                    }
                }
                self.set_global(RSTART, Value::Num(st));
                self.set_global(RLENGTH, Value::Num(len));
                Value::Num(st)
            }
            "sprintf" => {
                if args.is_empty() {
                    return err("sprintf: no arguments");
                }
                let fmt = self.eval_str(argn(0))?;
                let mut vals = Vec::new();
                for a in &args[1..] {
                    vals.push(self.eval(a)?);
                }
                check_format_args(&fmt, vals.len()).map_err(Flow::Error)?;
                Value::Str(Rc::from(sprintf(&fmt, &vals, &self.convfmt)))
            }
            "sin" => Value::Num(num(self, 0)?.sin()),
            "cos" => Value::Num(num(self, 0)?.cos()),
            "atan2" => {
                let y = num(self, 0)?;
                let x = num(self, 1)?;
                Value::Num(y.atan2(x))
            }
            "exp" => Value::Num(num(self, 0)?.exp()),
            "log" => Value::Num(num(self, 0)?.ln()),
            "sqrt" => Value::Num(num(self, 0)?.sqrt()),
            "int" => Value::Num(num(self, 0)?.trunc()),
            "rand" => {
                // xorshift64*: deterministic per seed.
                self.rng ^= self.rng >> 12;
                self.rng ^= self.rng << 25;
                self.rng ^= self.rng >> 27;
                let r = self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D);
                Value::Num((r >> 11) as f64 / (1u64 << 53) as f64)
            }
            "srand" => {
                let prev = self.rand_seed;
                let seed = if args.is_empty() {
                    std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map(|d| d.as_secs() as f64)
                        .unwrap_or(0.0)
                } else {
                    num(self, 0)?
                };
                self.prev_seed = prev;
                self.rand_seed = seed;
                self.rng = (seed as i64 as u64) ^ 0x2545_F491_4F6C_DD1D;
                if self.rng == 0 {
                    self.rng = 1;
                }
                Value::Num(prev)
            }
            "tolower" => {
                let s = self.eval_str(argn(0))?;
                Value::Str(Rc::from(s.to_ascii_lowercase()))
            }
            "toupper" => {
                let s = self.eval_str(argn(0))?;
                Value::Str(Rc::from(s.to_ascii_uppercase()))
            }
            "system" => {
                let c = self.eval_str(argn(0))?;
                self.flush_all();
                match crate::common::command::system(&c) {
                    Ok(st) => Value::Num(st as f64),
                    Err(e) => {
                        let _ = self.out.flush();
                        eprintln!(
                            "{}: warning: cannot run `sh': {}",
                            coreutils_core::prog("awk"),
                            strerror(&e)
                        );
                        Value::Num(-1.0)
                    }
                }
            }
            "close" => {
                let n = self.eval_str(argn(0))?;
                let mut r = -1.0;
                if let Some(mut w) = self.files.remove(&n[..]) {
                    let _ = w.flush();
                    r = 0.0;
                }
                if self.readers.remove(&n[..]).is_some() {
                    r = 0.0;
                }
                if let Some((run, mut w)) = self.cmd_out.remove(&n[..]) {
                    let _ = self.out.flush();
                    let _ = w.flush();
                    drop(w);
                    r = run.wait() as f64;
                }
                if let Some((run, rd)) = self.cmd_in.remove(&n[..]) {
                    drop(rd);
                    r = run.wait() as f64;
                }
                Value::Num(r)
            }
            "fflush" => {
                self.flush_all();
                Value::Num(0.0)
            }
            "systime" => Value::Num(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_secs() as f64)
                    .unwrap_or(0.0),
            ),
            _ => return err(format!("function `{}' not supported", name)),
        })
    }

    fn eval_str(&mut self, e: Option<&Expr>) -> R<Vec<u8>> {
        match e {
            Some(e) => {
                let v = self.eval(e)?;
                Ok(self.str_of(&v).to_vec())
            }
            None => Ok(Vec::new()),
        }
    }

    // ---- input ----

    fn read_record(
        reader: &mut dyn BufRead,
        rs: &[u8],
        out: &mut Vec<u8>,
    ) -> std::io::Result<bool> {
        out.clear();
        if rs.len() == 1 {
            let n = read_line::read_until(reader, rs[0], out)?;
            if n == 0 {
                return Ok(false);
            }
            if out.last() == Some(&rs[0]) {
                out.pop();
            }
            return Ok(true);
        }
        if rs.is_empty() {
            // Paragraph mode: skip leading newlines, stop at a blank line.
            let mut line = Vec::new();
            loop {
                line.clear();
                let n = read_line::read_until(reader, b'\n', &mut line)?;
                if n == 0 {
                    return Ok(!out.is_empty());
                }
                if line == b"\n" {
                    if out.is_empty() {
                        continue;
                    }
                    // Swallow further blank lines lazily: next call skips them.
                    return Ok(true);
                }
                if line.last() == Some(&b'\n') {
                    line.pop();
                }
                if !out.is_empty() {
                    out.push(b'\n');
                }
                out.extend_from_slice(&line);
            }
        }
        Ok(false)
    }

    /// Next main-input record into `self.record`; false at the end.
    fn next_main(&mut self) -> R<bool> {
        let rs = self.gstr(RS);
        loop {
            if self.main_done {
                return Ok(false);
            }
            if self.main.is_none() && !self.open_next_main()? {
                self.main_done = true;
                return Ok(false);
            }
            let mut rec = std::mem::take(&mut self.spare);
            rec.clear();
            let got = if rs.len() > 1 {
                self.read_regex_record(&rs, &mut rec)?
            } else {
                let r = self
                    .main
                    .as_mut()
                    .map(|m| Self::read_record(m.as_mut(), &rs, &mut rec));
                match r {
                    Some(Ok(g)) => g,
                    Some(Err(e)) => return err(format!("read error: {}", strerror(&e))),
                    None => false,
                }
            };
            if got {
                self.spare = std::mem::replace(&mut self.record, rec);
                self.split_done = false;
                self.count(NR);
                self.count(FNR);
                return Ok(true);
            }
            self.main = None;
        }
    }

    /// Add one to NR or FNR (a number, unless a program assigned it).
    fn count(&mut self, i: usize) {
        match &mut self.globals[i] {
            Cell::Val(Value::Num(n)) => *n += 1.0,
            other => {
                let n = match other {
                    Cell::Val(v) => v.num(),
                    Cell::Arr(_) => 0.0,
                };
                *other = Cell::Val(Value::Num(n + 1.0));
            }
        }
    }

    fn read_regex_record(&mut self, rs: &[u8], rec: &mut Vec<u8>) -> R<bool> {
        // Regex RS: read the input in chunks and cut records as separators
        // are found; a separator touching the end of what was read may
        // still grow, so it only counts once more data or EOF confirms it.
        let re = self.dyn_regex(rs)?;
        loop {
            let pos = self.rx_pos;
            let found = match re.find_at(&self.rx_buf, pos) {
                Some((a, b)) if b > a && (b < self.rx_buf.len() || self.rx_eof) => Some((a, b)),
                _ => None,
            };
            if let Some((a, b)) = found {
                rec.extend_from_slice(&self.rx_buf[pos..a]);
                self.rx_pos = b;
                return Ok(true);
            }
            if self.rx_eof {
                let rest = &self.rx_buf[pos..];
                let got = !rest.is_empty();
                rec.extend_from_slice(rest);
                self.rx_buf.clear();
                self.rx_pos = 0;
                self.rx_eof = false;
                return Ok(got);
            }
            // Drop consumed bytes, then read another chunk.
            self.rx_buf.drain(..pos);
            self.rx_pos = 0;
            let old = self.rx_buf.len();
            self.rx_buf.resize(old + 64 * 1024, 0);
            let n = match self.main.as_mut() {
                Some(m) => loop {
                    match m.read(&mut self.rx_buf[old..]) {
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                        other => break other,
                    }
                },
                None => Ok(0),
            };
            let n = match n {
                Ok(n) => n,
                Err(e) => return err(format!("read error: {}", strerror(&e))),
            };
            self.rx_buf.truncate(old + n);
            if n == 0 {
                self.rx_eof = true;
            }
        }
    }

    fn open_next_main(&mut self) -> R<bool> {
        loop {
            let argc = self.get_global(ARGC).num() as usize;
            if self.arg_index >= argc {
                if self.arg_index == usize::MAX {
                    return Ok(false);
                }
                // No file operands at all: standard input.
                let used = self.used_file;
                self.arg_index = usize::MAX;
                if !used {
                    self.used_file = true;
                    self.main = Some(Box::new(BufReader::with_capacity(
                        64 * 1024,
                        std::io::stdin(),
                    )));
                    self.set_global(FNR, Value::Num(0.0));
                    return Ok(true);
                }
                return Ok(false);
            }
            let argv = self.array(Var::Global(ARGV))?;
            let a = argv
                .borrow()
                .get(self.arg_index.to_string().as_bytes())
                .map(|v| v.to_bytes(&self.convfmt).to_vec())
                .unwrap_or_default();
            self.arg_index += 1;
            if a.is_empty() {
                continue;
            }
            if let Some(eq) = a.iter().position(|&c| c == b'=') {
                let name = &a[..eq];
                if !name.is_empty()
                    && (name[0].is_ascii_alphabetic() || name[0] == b'_')
                    && name.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
                {
                    let (n, v) = (name.to_vec(), a[eq + 1..].to_vec());
                    self.assign_var(&n, &v).map_err(Flow::Error)?;
                    continue;
                }
            }
            self.used_file = true;
            self.set_global(FNR, Value::Num(0.0));
            self.set_global(FILENAME, Value::from_bytes(&a));
            if a == b"-" || a == b"/dev/stdin" {
                self.main = Some(Box::new(BufReader::with_capacity(
                    64 * 1024,
                    std::io::stdin(),
                )));
                return Ok(true);
            }
            match coreutils_core::fs::open(coreutils_core::bytes::os_str(&a)) {
                Ok(f) => {
                    if f.metadata().map(|m| m.is_dir()).unwrap_or(false) {
                        let _ = self.out.flush();
                        eprintln!(
                            "{}: warning: command line argument `{}' is a directory: skipped",
                            coreutils_core::prog("awk"),
                            String::from_utf8_lossy(&a)
                        );
                        continue;
                    }
                    self.main = Some(Box::new(BufReader::with_capacity(64 * 1024, f)));
                    return Ok(true);
                }
                Err(e) => {
                    let _ = self.out.flush();
                    eprintln!(
                        "{}: fatal: cannot open file `{}' for reading: {}",
                        coreutils_core::prog("awk"),
                        String::from_utf8_lossy(&a),
                        strerror(&e)
                    );
                    return Err(Flow::Exit(2));
                }
            }
        }
    }

    fn getline(&mut self, var: Option<&Expr>, file: Option<&Expr>) -> R<Value> {
        match file {
            None => {
                if !self.next_main_keep()? {
                    return Ok(Value::Num(0.0));
                }
                Ok(Value::Num(1.0))
            }
            Some(f) => {
                let name = self.eval_str(Some(f))?;
                if !self.readers.contains_key(&name) {
                    let reader: Box<dyn BufRead> = if name == b"-" || name == b"/dev/stdin" {
                        Box::new(BufReader::new(std::io::stdin()))
                    } else {
                        match coreutils_core::fs::open(coreutils_core::bytes::os_str(&name)) {
                            Ok(f) => Box::new(BufReader::new(f)),
                            Err(_) => return Ok(Value::Num(-1.0)),
                        }
                    };
                    self.readers.insert(name.clone(), InputFile { reader });
                }
                let rs = self.gstr(RS);
                let mut rec = Vec::new();
                let got = match self.readers.get_mut(&name) {
                    Some(r) => Self::read_record(r.reader.as_mut(), &rs, &mut rec).unwrap_or(false),
                    None => false,
                };
                if !got {
                    return Ok(Value::Num(0.0));
                }
                match var {
                    Some(v) => self.assign(v, Value::input(&rec))?,
                    // As gawk: NR counts main input only.
                    None => self.set_record(rec),
                }
                Ok(Value::Num(1.0))
            }
        }
        .and_then(|v| {
            if file.is_none() {
                if let (Some(target), true) = (var, v.num() > 0.0) {
                    let rec = self.pending_var.take().unwrap_or_default();
                    self.assign(target, Value::input(&rec))?;
                } else if v.num() > 0.0 {
                    if let Some(rec) = self.pending_var.take() {
                        self.set_record(rec);
                    }
                }
            }
            Ok(v)
        })
    }

    /// Plain `getline` / `getline var`: read the next main record without
    /// disturbing $0 until we know where it goes.
    fn next_main_keep(&mut self) -> R<bool> {
        let saved = std::mem::take(&mut self.record);
        let saved_split = self.split_done;
        let saved_fields = std::mem::take(&mut self.fields);
        let saved_spans = std::mem::take(&mut self.spans);
        let saved_lazy = self.lazy;
        let saved_nf = self.nf;
        let got = self.next_main()?;
        let rec = std::mem::replace(&mut self.record, saved);
        self.split_done = saved_split;
        self.fields = saved_fields;
        self.spans = saved_spans;
        self.lazy = saved_lazy;
        self.nf = saved_nf;
        if got {
            self.pending_var = Some(rec);
        }
        Ok(got)
    }

    // ---- output ----

    fn output(&mut self, redir: &Option<Redir>, data: &[u8]) -> R<()> {
        match redir {
            None => {
                if let Err(e) = self.out.write_all(data) {
                    coreutils_core::io::exit_on_write_error(e);
                }
            }
            Some(Redir::Pipe(c)) => {
                let c = self.eval_str(Some(c))?;
                if !self.cmd_out.contains_key(&c) {
                    self.flush_all();
                    match crate::common::command::open_write(&c) {
                        Ok((run, w)) => {
                            let w: Box<dyn Write> =
                                Box::new(std::io::BufWriter::with_capacity(64 * 1024, w));
                            self.cmd_out.insert(c.clone(), (run, w));
                        }
                        Err(e) => {
                            return err(format!(
                                "can't open pipe `{}' for output ({})",
                                String::from_utf8_lossy(&c),
                                strerror(&e)
                            ))
                        }
                    }
                }
                if let Some((_, w)) = self.cmd_out.get_mut(&c) {
                    // A command that stopped reading is not our error.
                    let _ = w.write_all(data);
                }
            }
            Some(Redir::File(f)) | Some(Redir::Append(f)) => {
                let append = matches!(redir, Some(Redir::Append(_)));
                let name = self.eval_str(Some(f))?;
                if !self.files.contains_key(&name) {
                    let w: Box<dyn Write> = match &name[..] {
                        b"/dev/stdout" | b"-" => {
                            let _ = self.out.flush();
                            Box::new(std::io::stdout())
                        }
                        b"/dev/stderr" => {
                            let _ = self.out.flush();
                            Box::new(std::io::stderr())
                        }
                        _ => {
                            let r = coreutils_core::fs::OpenOptions::new()
                                .write(true)
                                .create(true)
                                .append(append)
                                .truncate(!append)
                                .open(coreutils_core::bytes::os_str(&name));
                            match r {
                                Ok(f) => Box::new(std::io::BufWriter::new(f)),
                                Err(e) => {
                                    return err(format!(
                                        "can't redirect to `{}' ({})",
                                        String::from_utf8_lossy(&name),
                                        strerror(&e)
                                    ))
                                }
                            }
                        }
                    };
                    self.files.insert(name.clone(), w);
                }
                if let Some(w) = self.files.get_mut(&name) {
                    let _ = w.write_all(data);
                    if name.starts_with(b"/dev/std") {
                        let _ = w.flush();
                    }
                }
            }
        }
        Ok(())
    }

    pub fn flush_all(&mut self) {
        let _ = self.out.flush();
        for w in self.files.values_mut() {
            let _ = w.flush();
        }
        for (_, w) in self.cmd_out.values_mut() {
            let _ = w.flush();
        }
    }

    // ---- statements ----

    fn block(&mut self, stmts: &[Stmt]) -> R<()> {
        for s in stmts {
            self.stmt(s)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt) -> R<()> {
        match s {
            Stmt::Expr(e) => {
                self.eval(e)?;
            }
            Stmt::Print(args, redir) => {
                let mut line = Vec::new();
                if args.is_empty() {
                    line.extend_from_slice(&self.record);
                } else {
                    let ofs = self.gstr(OFS);
                    let ofmt = self.gstr(OFMT);
                    for (i, a) in args.iter().enumerate() {
                        if i > 0 {
                            line.extend_from_slice(&ofs);
                        }
                        let v = self.eval(a)?;
                        match v {
                            Value::Num(n) => line.extend_from_slice(&num_to_str(n, &ofmt)),
                            other => line.extend_from_slice(&self.str_of(&other)),
                        }
                    }
                }
                let ors = self.gstr(ORS);
                line.extend_from_slice(&ors);
                self.output(redir, &line)?;
            }
            Stmt::Printf(args, redir) => {
                let fmt = self.eval_str(args.first())?;
                let mut vals = Vec::new();
                for a in &args[1..] {
                    vals.push(self.eval(a)?);
                }
                check_format_args(&fmt, vals.len()).map_err(Flow::Error)?;
                let s = sprintf(&fmt, &vals, &self.convfmt);
                self.output(redir, &s)?;
            }
            Stmt::If(c, a, b) => {
                if self.eval(c)?.truthy() {
                    self.stmt(a)?;
                } else if let Some(b) = b {
                    self.stmt(b)?;
                }
            }
            Stmt::While(c, body) => {
                while self.eval(c)?.truthy() {
                    match self.stmt(body) {
                        Ok(()) | Err(Flow::Continue) => {}
                        Err(Flow::Break) => break,
                        Err(e) => return Err(e),
                    }
                }
            }
            Stmt::Do(body, c) => loop {
                match self.stmt(body) {
                    Ok(()) | Err(Flow::Continue) => {}
                    Err(Flow::Break) => break,
                    Err(e) => return Err(e),
                }
                if !self.eval(c)?.truthy() {
                    break;
                }
            },
            Stmt::For(init, cond, step, body) => {
                if let Some(i) = init {
                    self.stmt(i)?;
                }
                loop {
                    if let Some(c) = cond {
                        if !self.eval(c)?.truthy() {
                            break;
                        }
                    }
                    match self.stmt(body) {
                        Ok(()) | Err(Flow::Continue) => {}
                        Err(Flow::Break) => break,
                        Err(e) => return Err(e),
                    }
                    if let Some(s) = step {
                        self.stmt(s)?;
                    }
                }
            }
            Stmt::ForIn(k, a, body) => {
                let arr = self.array(*a)?;
                let keys = arr.borrow().key_list();
                for key in keys {
                    if arr.borrow().get(&key).is_none() {
                        continue;
                    }
                    self.assign(&Expr::Var(*k), Value::input(&key))?;
                    match self.stmt(body) {
                        Ok(()) | Err(Flow::Continue) => {}
                        Err(Flow::Break) => break,
                        Err(e) => return Err(e),
                    }
                }
            }
            Stmt::Block(b) => self.block(b)?,
            Stmt::Next => {
                if self.in_end {
                    return err("`next' used in END action");
                }
                return Err(Flow::Next);
            }
            Stmt::NextFile => return Err(Flow::NextFile),
            Stmt::Exit(e) => {
                let code = match e {
                    Some(e) => self.eval(e)?.num() as i32,
                    None => self.exit_code,
                };
                return Err(Flow::Exit(code));
            }
            Stmt::Return(e) => {
                let v = match e {
                    Some(e) => self.eval(e)?,
                    None => Value::Uninit,
                };
                return Err(Flow::Return(v));
            }
            Stmt::Break => return Err(Flow::Break),
            Stmt::Continue => return Err(Flow::Continue),
            Stmt::Delete(v, subs) => {
                let arr = self.array(*v)?;
                match subs {
                    Some(s) => {
                        let k = self.subscript(s)?;
                        arr.borrow_mut().remove(&k);
                    }
                    None => arr.borrow_mut().clear(),
                }
            }
            Stmt::Getline(e) => {
                self.eval(e)?;
            }
        }
        Ok(())
    }

    // ---- the main loop ----

    fn pattern_matches(&mut self, i: usize) -> R<bool> {
        let prog = self.prog.clone();
        match &prog.rules[i].pattern {
            Pattern::All => Ok(true),
            Pattern::Begin | Pattern::End => Ok(false),
            Pattern::Expr(e) => Ok(self.eval(e)?.truthy()),
            Pattern::Range(a, b) => {
                if !self.range_active[i] {
                    if self.eval(a)?.truthy() {
                        if !self.eval(b)?.truthy() {
                            self.range_active[i] = true;
                        }
                        return Ok(true);
                    }
                    Ok(false)
                } else {
                    if self.eval(b)?.truthy() {
                        self.range_active[i] = false;
                    }
                    Ok(true)
                }
            }
        }
    }

    /// Run the whole program; returns the exit status.
    pub fn run(&mut self) -> i32 {
        let prog = self.prog.clone();
        let mut exiting: Option<i32> = None;
        for r in prog.rules.iter() {
            if let Pattern::Begin = r.pattern {
                match self.block(r.action.as_deref().unwrap_or(&[])) {
                    Ok(()) => {}
                    Err(Flow::Exit(c)) => {
                        exiting = Some(c);
                        break;
                    }
                    Err(Flow::Error(m)) => return self.fatal(&m),
                    Err(_) => {}
                }
            }
        }
        let has_main = prog
            .rules
            .iter()
            .any(|r| !matches!(r.pattern, Pattern::Begin));
        if exiting.is_none() && has_main {
            'records: loop {
                match self.next_main() {
                    Ok(true) => {}
                    Ok(false) => break,
                    Err(Flow::Exit(c)) => {
                        exiting = Some(c);
                        break;
                    }
                    Err(Flow::Error(m)) => return self.fatal(&m),
                    Err(_) => break,
                }
                for (i, r) in prog.rules.iter().enumerate() {
                    if matches!(r.pattern, Pattern::Begin | Pattern::End) {
                        continue;
                    }
                    let res = match self.pattern_matches(i) {
                        Ok(true) => match &r.action {
                            Some(a) => self.block(a),
                            None => {
                                let mut line = self.record.clone();
                                line.extend_from_slice(&self.gstr(ORS));
                                self.output(&None, &line)
                            }
                        },
                        Ok(false) => Ok(()),
                        Err(e) => Err(e),
                    };
                    match res {
                        Ok(()) => {}
                        Err(Flow::Next) => continue 'records,
                        Err(Flow::NextFile) => {
                            self.main = None;
                            self.rx_buf.clear();
                            self.rx_pos = 0;
                            self.rx_eof = false;
                            continue 'records;
                        }
                        Err(Flow::Exit(c)) => {
                            exiting = Some(c);
                            break 'records;
                        }
                        Err(Flow::Error(m)) => return self.fatal(&m),
                        Err(_) => {}
                    }
                }
            }
        }
        if let Some(c) = exiting {
            self.exit_code = c;
        }
        // END rules run after exit from BEGIN or main, not after exit in END.
        self.in_end = true;
        for r in prog.rules.iter() {
            if let Pattern::End = r.pattern {
                match self.block(r.action.as_deref().unwrap_or(&[])) {
                    Ok(()) => {}
                    Err(Flow::Exit(c)) => {
                        self.exit_code = c;
                        break;
                    }
                    Err(Flow::Error(m)) => return self.fatal(&m),
                    Err(_) => {}
                }
            }
        }
        self.flush_all();
        self.close_all_cmds();
        self.exit_code
    }

    fn fatal(&mut self, m: &str) -> i32 {
        self.flush_all();
        self.close_all_cmds();
        let fnr = self.get_global(FNR).num();
        if self.used_file && fnr > 0.0 && !self.in_end {
            let name = self.gstr(FILENAME);
            eprintln!(
                "{}: cmd. line:1: (FILENAME={} FNR={}) fatal: {}",
                coreutils_core::prog("awk"),
                String::from_utf8_lossy(&name),
                fnr,
                m
            );
        } else {
            eprintln!("{}: cmd. line:1: fatal: {}", coreutils_core::prog("awk"), m);
        }
        2
    }
}

fn arith(op: &str, x: f64, y: f64) -> R<f64> {
    // The parser's operators are one character each ("^" for both powers).
    Ok(match op.as_bytes().first() {
        Some(b'+') => x + y,
        Some(b'-') => x - y,
        Some(b'*') => x * y,
        Some(b'/') => {
            if y == 0.0 {
                return err("division by zero attempted");
            }
            x / y
        }
        Some(b'%') => {
            if y == 0.0 {
                return err("division by zero attempted in `%'");
            }
            x % y
        }
        _ => x.powf(y),
    })
}

fn escape_class(c: u8) -> Vec<u8> {
    if c == b']' || c == b'\\' || c == b'^' || c == b'-' {
        vec![b'\\', c]
    } else {
        vec![c]
    }
}

/// Compile an awk ERE.
pub fn compile(pat: &[u8]) -> Result<Regex, String> {
    let cfg = Config::new(Syntax::Awk);
    Regex::new(pat, &cfg).map_err(|e| {
        format!(
            "regular expression error: /{}/: {}",
            String::from_utf8_lossy(pat),
            e
        )
    })
}

fn split_re(s: &[u8], re: &Regex, out: &mut Vec<Value>) {
    if s.is_empty() {
        return;
    }
    let mut pos = 0;
    let mut start = 0;
    while pos <= s.len() {
        match re.find_at(s, pos) {
            Some((a, b)) if b > a => {
                out.push(Value::input(&s[start..a]));
                start = b;
                pos = b;
            }
            Some((a, _)) => pos = a + 1,
            None => break,
        }
    }
    out.push(Value::input(&s[start..]));
}

/// sub/gsub: `&` is the match, `\&` a literal `&`, `\\` a backslash.
fn substitute(re: &Regex, s: &[u8], repl: &[u8], global: bool) -> (Vec<u8>, usize) {
    let mut out = Vec::with_capacity(s.len());
    let mut pos = 0;
    let mut copied = 0;
    let mut n = 0;
    let mut prev_end: Option<usize> = None;
    while pos <= s.len() {
        let (a, b) = match re.find_at(s, pos) {
            Some(m) => m,
            None => break,
        };
        if a == b && prev_end == Some(a) {
            if a >= s.len() {
                break;
            }
            pos = a + 1;
            continue;
        }
        out.extend_from_slice(&s[copied..a]);
        let mut i = 0;
        while i < repl.len() {
            let c = repl[i];
            if c == b'\\' && i + 1 < repl.len() && (repl[i + 1] == b'&' || repl[i + 1] == b'\\') {
                out.push(repl[i + 1]);
                i += 2;
                continue;
            }
            if c == b'&' {
                out.extend_from_slice(&s[a..b]);
            } else {
                out.push(c);
            }
            i += 1;
        }
        copied = b;
        n += 1;
        prev_end = Some(b);
        if !global {
            break;
        }
        pos = if b > a { b } else { b + 1 };
    }
    out.extend_from_slice(&s[copied.min(s.len())..]);
    (out, n)
}

fn gensub(re: &Regex, s: &[u8], repl: &[u8], global: bool, nth: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut pos = 0;
    let mut copied = 0;
    let mut count = 0;
    let mut locs = Vec::new();
    while pos <= s.len() {
        if !re.captures_at(s, pos, &mut locs) {
            break;
        }
        let (a, b) = match locs.first().copied().flatten() {
            Some(m) => m,
            None => break,
        };
        count += 1;
        if global || count == nth {
            out.extend_from_slice(&s[copied..a]);
            let mut i = 0;
            while i < repl.len() {
                let c = repl[i];
                if c == b'\\' && i + 1 < repl.len() {
                    let e = repl[i + 1];
                    if e.is_ascii_digit() {
                        if let Some(Some((x, y))) = locs.get((e - b'0') as usize) {
                            out.extend_from_slice(&s[*x..*y]);
                        }
                    } else {
                        out.push(e);
                    }
                    i += 2;
                    continue;
                }
                if c == b'&' {
                    out.extend_from_slice(&s[a..b]);
                } else {
                    out.push(c);
                }
                i += 1;
            }
            copied = b;
            if !global {
                break;
            }
        }
        pos = if b > a { b } else { b + 1 };
    }
    out.extend_from_slice(&s[copied.min(s.len())..]);
    out
}

/// Process escapes in `-v` values and command-line assignments.
pub fn unescape(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'\\' && i + 1 < s.len() {
            let e = s[i + 1];
            i += 2;
            match e {
                b'n' => out.push(b'\n'),
                b't' => out.push(b'\t'),
                b'r' => out.push(b'\r'),
                b'\\' => out.push(b'\\'),
                b'"' => out.push(b'"'),
                b'/' => out.push(b'/'),
                b'a' => out.push(7),
                b'b' => out.push(8),
                b'f' => out.push(12),
                b'v' => out.push(11),
                _ => {
                    out.push(b'\\');
                    out.push(e);
                }
            }
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    out
}
