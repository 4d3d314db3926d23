//! The jq evaluator: generators as callbacks. Every expression is run
//! against one input and calls `out` once per result; errors, `break` and
//! early stops travel back as `Ctl`. Path expressions (for `path(f)`,
//! assignments, `del`, `paths`) use the same evaluator with the input's
//! path carried alongside its value.

use super::ast::*;
use super::value::{compare, Map, Value};
use std::cell::{Cell, RefCell};
use std::cmp::Ordering;
use std::collections::HashMap;
use std::rc::Rc;

/// Why evaluation stopped early.
#[derive(Debug, Clone)]
pub enum Ctl {
    /// A jq error carrying its value.
    Err(Value),
    /// `break $label` (label id).
    Break(u64),
    /// `halt` / `halt_error`: exit status, optional message to print.
    Halt(i32, Option<Value>),
}

/// Result of running a generator.
pub type R = Result<(), Ctl>;

/// A path: keys and indices from the root.
pub type Path = Rc<Vec<Value>>;

/// A value with, in path mode, the path it was reached by.
#[derive(Clone, Debug)]
pub struct PV {
    /// The value.
    pub v: Value,
    /// Its path when tracking paths.
    pub p: Option<Path>,
}

impl PV {
    fn val(v: Value) -> PV {
        PV { v, p: None }
    }
}

/// An error with a string message.
pub fn err<T>(msg: impl Into<String>) -> Result<T, Ctl> {
    Err(Ctl::Err(Value::str(&msg.into())))
}

/// Lexical environment: variables, functions, closure parameters, labels.
pub enum Env {
    /// The top.
    Root,
    /// `$name`
    Var(Rc<str>, Value, Rc<Env>),
    /// A `def` visible here.
    Func(&'static FuncDef, Rc<Env>),
    /// A filter parameter: name, argument expression and its env.
    Closure(Rc<str>, &'static Ast, Rc<Env>, Rc<Env>),
    /// A label.
    Label(Rc<str>, u64, Rc<Env>),
}

impl Env {
    fn parent(&self) -> Option<&Rc<Env>> {
        match self {
            Env::Root => None,
            Env::Var(_, _, p)
            | Env::Func(_, p)
            | Env::Closure(_, _, _, p)
            | Env::Label(_, _, p) => Some(p),
        }
    }
}

/// Where inputs come from (the CLI implements it).
pub trait Inputs {
    /// The next input value, `None` at the end; errors are parse errors.
    fn next_input(&mut self) -> Result<Option<Value>, String>;
    /// Name of the current input file (`null` for stdin).
    fn filename(&self) -> Value;
}

/// Interpreter state shared by the whole run.
pub struct Interp {
    /// Definitions written in jq (the builtin library).
    pub prelude: HashMap<(String, usize), &'static FuncDef>,
    /// Source of `input`/`inputs`.
    pub inputs: RefCell<Option<Box<dyn Inputs>>>,
    /// Next label id.
    labels: Cell<u64>,
    regex_cache: RefCell<HashMap<(String, String), Rc<regex::Regex>>>,
    /// `$ENV`.
    pub env_obj: Value,
    /// Messages from `debug`/`stderr` go to stderr.
    pub dbg: RefCell<Vec<u8>>,
}

fn type_err(v: &Value, what: &str) -> Ctl {
    Ctl::Err(Value::str(&format!(
        "{} ({}) {}",
        v.type_name(),
        short(v),
        what
    )))
}

/// jq's abbreviated value in error messages (at most ~11 bytes + "...").
pub fn short(v: &Value) -> String {
    let s = v.to_json();
    if s.len() > 11 {
        let mut end = 10;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}...", &s[..end])
    } else {
        s
    }
}

/// Index `v` by `k` (`.[k]`).
pub fn index(v: &Value, k: &Value) -> Result<Value, Ctl> {
    match (v, k) {
        (Value::Obj(m), Value::Str(s)) => Ok(m.get(s).cloned().unwrap_or(Value::Null)),
        (Value::Arr(a), Value::Num(n)) => {
            if n.is_nan() {
                return Ok(Value::Null);
            }
            let mut i = n.floor() as i64;
            if i < 0 {
                i += a.len() as i64;
            }
            if i < 0 {
                return Ok(Value::Null);
            }
            Ok(a.get(i as usize).cloned().unwrap_or(Value::Null))
        }
        (Value::Null, Value::Str(_))
        | (Value::Null, Value::Num(_))
        | (Value::Null, Value::Null) => Ok(Value::Null),
        (Value::Arr(_), Value::Arr(_)) => Ok(indices(v, k)),
        (Value::Obj(_), Value::Obj(_))
        | (Value::Arr(_), Value::Obj(_))
        | (Value::Null, Value::Obj(_)) => slice_obj(v, k),
        (_, Value::Str(s)) => err(format!(
            "Cannot index {} with string \"{}\"",
            v.type_name(),
            s
        )),
        _ => err(format!(
            "Cannot index {} with {}",
            v.type_name(),
            k.type_name()
        )),
    }
}

fn slice_obj(v: &Value, k: &Value) -> Result<Value, Ctl> {
    if let Value::Obj(m) = k {
        let s = m.get("start").cloned().unwrap_or(Value::Null);
        let e = m.get("end").cloned().unwrap_or(Value::Null);
        return slice(v, &s, &e);
    }
    err(format!(
        "Cannot index {} with {}",
        v.type_name(),
        k.type_name()
    ))
}

fn clamp_idx(x: &Value, len: usize, dflt: usize) -> Result<usize, Ctl> {
    match x {
        Value::Null => Ok(dflt),
        Value::Num(n) => {
            let mut i = n.floor();
            if i < 0.0 {
                i += len as f64;
            }
            if i < 0.0 {
                i = 0.0;
            }
            Ok((i as usize).min(len))
        }
        _ => err("Start and end indices of an array slice must be numbers"),
    }
}

/// `.[a:b]` on arrays and strings (string offsets are code points).
pub fn slice(v: &Value, a: &Value, b: &Value) -> Result<Value, Ctl> {
    match v {
        Value::Null => Ok(Value::Null),
        Value::Arr(arr) => {
            let s = clamp_idx(a, arr.len(), 0)?;
            let e = clamp_idx(b, arr.len(), arr.len())?;
            Ok(Value::arr(if e > s {
                arr[s..e].to_vec()
            } else {
                Vec::new()
            }))
        }
        Value::Str(st) => {
            let n = st.chars().count();
            let s = clamp_idx(a, n, 0)?;
            let e = clamp_idx(b, n, n)?;
            if e <= s {
                return Ok(Value::str(""));
            }
            Ok(Value::str(
                &st.chars().skip(s).take(e - s).collect::<String>(),
            ))
        }
        _ => err(format!("Cannot index {} with object", v.type_name())),
    }
}

fn indices(v: &Value, k: &Value) -> Value {
    let mut out = Vec::new();
    match (v, k) {
        (Value::Arr(a), Value::Arr(b)) => {
            if !b.is_empty() && a.len() >= b.len() {
                for i in 0..=(a.len() - b.len()) {
                    if a[i..i + b.len()] == b[..] {
                        out.push(Value::Num(i as f64));
                    }
                }
            }
        }
        (Value::Arr(a), x) => {
            for (i, y) in a.iter().enumerate() {
                if y == x {
                    out.push(Value::Num(i as f64));
                }
            }
        }
        (Value::Str(s), Value::Str(t)) => {
            if !t.is_empty() {
                // jq reports byte offsets here.
                let (sb, tb) = (s.as_bytes(), t.as_bytes());
                let mut i = 0;
                while i + tb.len() <= sb.len() {
                    if &sb[i..i + tb.len()] == tb {
                        out.push(Value::Num(i as f64));
                    }
                    i += 1;
                }
            }
        }
        _ => return Value::Null,
    }
    Value::arr(out)
}

/// `a + b`.
pub fn add(a: &Value, b: &Value) -> Result<Value, Ctl> {
    Ok(match (a, b) {
        (Value::Null, x) | (x, Value::Null) => x.clone(),
        (Value::Num(x), Value::Num(y)) => Value::Num(x + y),
        (Value::Str(x), Value::Str(y)) => {
            let mut s = String::with_capacity(x.len() + y.len());
            s.push_str(x);
            s.push_str(y);
            Value::str(&s)
        }
        (Value::Arr(x), Value::Arr(y)) => {
            let mut v = Vec::with_capacity(x.len() + y.len());
            v.extend(x.iter().cloned());
            v.extend(y.iter().cloned());
            Value::arr(v)
        }
        (Value::Obj(x), Value::Obj(y)) => {
            let mut m = (**x).clone();
            for (k, v) in y.iter() {
                m.insert(k.clone(), v.clone());
            }
            Value::obj(m)
        }
        _ => {
            return Err(Ctl::Err(Value::str(&format!(
                "{} ({}) and {} ({}) cannot be added",
                a.type_name(),
                short(a),
                b.type_name(),
                short(b)
            ))))
        }
    })
}

fn deep_merge(a: &Map, b: &Map) -> Map {
    let mut m = a.clone();
    for (k, v) in b.iter() {
        let nv = match (m.get(k), v) {
            (Some(Value::Obj(x)), Value::Obj(y)) => Value::obj(deep_merge(x, y)),
            _ => v.clone(),
        };
        m.insert(k.clone(), nv);
    }
    m
}

fn binop(op: BinOp, a: &Value, b: &Value) -> Result<Value, Ctl> {
    let cannot = |verb: &str| {
        Err(Ctl::Err(Value::str(&format!(
            "{} ({}) and {} ({}) cannot be {}",
            a.type_name(),
            short(a),
            b.type_name(),
            short(b),
            verb
        ))))
    };
    match op {
        BinOp::Add => add(a, b),
        BinOp::Sub => match (a, b) {
            (Value::Num(x), Value::Num(y)) => Ok(Value::Num(x - y)),
            (Value::Arr(x), Value::Arr(y)) => Ok(Value::arr(
                x.iter().filter(|e| !y.contains(e)).cloned().collect(),
            )),
            _ => cannot("subtracted"),
        },
        BinOp::Mul => match (a, b) {
            (Value::Num(x), Value::Num(y)) => Ok(Value::Num(x * y)),
            (Value::Str(s), Value::Num(n)) | (Value::Num(n), Value::Str(s)) => {
                if *n <= 0.0 {
                    Ok(Value::Null)
                } else {
                    let times = if *n < 1.0 { 1 } else { *n as usize };
                    Ok(Value::str(&s.repeat(times)))
                }
            }
            (Value::Obj(x), Value::Obj(y)) => Ok(Value::obj(deep_merge(x, y))),
            _ => cannot("multiplied"),
        },
        BinOp::Div => match (a, b) {
            (Value::Num(x), Value::Num(y)) => {
                if *y == 0.0 {
                    return cannot("divided because the divisor is zero");
                }
                Ok(Value::Num(x / y))
            }
            (Value::Str(x), Value::Str(y)) => Ok(split_str(x, y)),
            _ => cannot("divided"),
        },
        BinOp::Mod => match (a, b) {
            (Value::Num(x), Value::Num(y)) => {
                let yi = y.trunc() as i64;
                if yi == 0 {
                    return cannot("divided (remainder) because the divisor is zero");
                }
                let xi = x.trunc() as i64;
                // Truncating remainder: the sign follows the dividend (-7 % 3 is -1).
                Ok(Value::Num((xi % yi.abs()) as f64))
            }
            _ => cannot("divided"),
        },
        BinOp::Eq => Ok(Value::Bool(a == b)),
        BinOp::Ne => Ok(Value::Bool(a != b)),
        BinOp::Lt => Ok(Value::Bool(compare(a, b) == Ordering::Less)),
        BinOp::Le => Ok(Value::Bool(compare(a, b) != Ordering::Greater)),
        BinOp::Gt => Ok(Value::Bool(compare(a, b) == Ordering::Greater)),
        BinOp::Ge => Ok(Value::Bool(compare(a, b) != Ordering::Less)),
    }
}

/// `split(sep)` on plain strings.
pub fn split_str(s: &str, sep: &str) -> Value {
    if s.is_empty() {
        return Value::arr(Vec::new());
    }
    if sep.is_empty() {
        return Value::arr(s.chars().map(|c| Value::str(&c.to_string())).collect());
    }
    Value::arr(s.split(sep).map(Value::str).collect())
}

/// Set the value at `path` inside `root`.
pub fn setpath(root: &Value, path: &[Value], nv: Value) -> Result<Value, Ctl> {
    let (k, rest) = match path.split_first() {
        None => return Ok(nv),
        Some(x) => x,
    };
    match (root, k) {
        (Value::Obj(_), Value::Str(s)) | (Value::Null, Value::Str(s)) => {
            let mut m = match root {
                Value::Obj(m) => (**m).clone(),
                _ => Map::new(),
            };
            let cur = m.get(s).cloned().unwrap_or(Value::Null);
            let v = setpath(&cur, rest, nv)?;
            m.insert(s.clone(), v);
            Ok(Value::obj(m))
        }
        (Value::Arr(_), Value::Num(n)) | (Value::Null, Value::Num(n)) => {
            let mut a = match root {
                Value::Arr(a) => (**a).clone(),
                _ => Vec::new(),
            };
            let mut i = n.floor() as i64;
            if i < 0 {
                i += a.len() as i64;
                if i < 0 {
                    return err("Out of bounds negative array index");
                }
            }
            let i = i as usize;
            if i > 100_000_000 {
                return err("Array index too large");
            }
            if i >= a.len() {
                a.resize(i + 1, Value::Null);
            }
            let v = setpath(&a[i], rest, nv)?;
            a[i] = v;
            Ok(Value::arr(a))
        }
        (Value::Arr(_), Value::Obj(o)) | (Value::Null, Value::Obj(o)) => {
            let a = match root {
                Value::Arr(a) => (**a).clone(),
                _ => Vec::new(),
            };
            let s = clamp_idx(o.get("start").unwrap_or(&Value::Null), a.len(), 0)?;
            let e = clamp_idx(o.get("end").unwrap_or(&Value::Null), a.len(), a.len())?.max(s);
            let cur = Value::arr(a[s..e].to_vec());
            let v = setpath(&cur, rest, nv)?;
            match v {
                Value::Arr(ins) => {
                    let mut out = a[..s].to_vec();
                    out.extend(ins.iter().cloned());
                    out.extend(a[e..].iter().cloned());
                    Ok(Value::arr(out))
                }
                _ => err("A slice of an array can only be assigned another array"),
            }
        }
        _ => match k {
            Value::Str(s) => err(format!("Cannot index {} with \"{}\"", root.type_name(), s)),
            _ => err(format!(
                "Cannot index {} with {}",
                root.type_name(),
                k.type_name()
            )),
        },
    }
}

/// Value at `path`, `null` where missing.
pub fn getpath(root: &Value, path: &[Value]) -> Result<Value, Ctl> {
    let mut cur = root.clone();
    for k in path {
        if let Value::Null = cur {
            return Ok(Value::Null);
        }
        cur = index(&cur, k)?;
    }
    Ok(cur)
}

fn delpath(root: &Value, path: &[Value]) -> Result<Value, Ctl> {
    let (k, rest) = match path.split_first() {
        None => return Ok(Value::Null),
        Some(x) => x,
    };
    if let Value::Null = root {
        return Ok(Value::Null);
    }
    if rest.is_empty() {
        return match (root, k) {
            (Value::Obj(m), Value::Str(s)) => {
                let mut m = (**m).clone();
                m.shift_remove(s);
                Ok(Value::obj(m))
            }
            (Value::Arr(a), Value::Num(n)) => {
                let mut i = n.floor() as i64;
                if i < 0 {
                    i += a.len() as i64;
                }
                if i < 0 || i as usize >= a.len() {
                    if i < 0 {
                        return err("Out of bounds negative array index");
                    }
                    return Ok(root.clone());
                }
                let mut a = (**a).clone();
                a.remove(i as usize);
                Ok(Value::arr(a))
            }
            (Value::Arr(a), Value::Obj(o)) => {
                let s = clamp_idx(o.get("start").unwrap_or(&Value::Null), a.len(), 0)?;
                let e = clamp_idx(o.get("end").unwrap_or(&Value::Null), a.len(), a.len())?.max(s);
                let mut out = a[..s].to_vec();
                out.extend(a[e..].iter().cloned());
                Ok(Value::arr(out))
            }
            _ => match k {
                Value::Str(s) => err(format!(
                    "Cannot delete field at object index of {}",
                    root.type_name()
                )
                .replace("object index of", &format!("index \"{}\" of", s))),
                _ => err(format!(
                    "Cannot delete field at index of {}",
                    root.type_name()
                )),
            },
        };
    }
    let child = index(root, k)?;
    let nc = delpath(&child, rest)?;
    setpath(root, std::slice::from_ref(k), nc)
}

/// Delete several paths (longest first so indices stay valid).
pub fn delpaths(root: &Value, paths: &[Value]) -> Result<Value, Ctl> {
    let mut ps: Vec<&Value> = paths.iter().collect();
    ps.sort_by(|a, b| compare(b, a));
    let mut cur = root.clone();
    for p in ps {
        match p {
            Value::Arr(a) => cur = delpath(&cur, a)?,
            _ => return err("Path must be specified as an array"),
        }
    }
    Ok(cur)
}

impl Interp {
    /// A fresh interpreter with the jq-defined library loaded.
    pub fn new(prelude: Vec<&'static FuncDef>, env_obj: Value) -> Interp {
        let mut map = HashMap::new();
        for d in prelude {
            map.insert((d.name.to_string(), d.params.len()), d);
        }
        Interp {
            prelude: map,
            inputs: RefCell::new(None),
            labels: Cell::new(0),
            regex_cache: RefCell::new(HashMap::new()),
            env_obj,
            dbg: RefCell::new(Vec::new()),
        }
    }

    fn not_path(&self, inp: &PV, v: &Value) -> R {
        if inp.p.is_some() {
            return err(format!("Invalid path expression with result {}", short(v)));
        }
        Ok(())
    }

    /// Emit a computed value; in path mode that is an error.
    fn emit(&self, inp: &PV, v: Value, out: &mut dyn FnMut(PV) -> R) -> R {
        self.not_path(inp, &v)?;
        out(PV::val(v))
    }

    /// Run `ast` on `inp`, calling `out` per result.
    pub fn eval(
        &self,
        ast: &'static Ast,
        env: &Rc<Env>,
        inp: PV,
        out: &mut dyn FnMut(PV) -> R,
    ) -> R {
        match ast {
            Ast::Identity => out(inp),
            Ast::RecurseAll => self.recurse_all(inp, out),
            Ast::Lit(v) => self.emit(&inp, v.clone(), out),
            Ast::Loc(line) => {
                let mut m = Map::new();
                m.insert(Rc::from("file"), Value::str("<top-level>"));
                m.insert(Rc::from("line"), Value::Num(*line as f64));
                self.emit(&inp, Value::obj(m), out)
            }
            Ast::Str(parts, fmt) => {
                self.string(parts, fmt.as_deref(), 0, String::new(), env, &inp, out)
            }
            Ast::Format(f) => {
                let s = super::builtins::format(f, &inp.v)?;
                self.emit(&inp, s, out)
            }
            Ast::Index(t, k) => {
                let key_src = PV::val(inp.v.clone());
                self.eval(t, env, inp, &mut |tv| {
                    self.eval(k, env, key_src.clone(), &mut |kv| {
                        let r = index(&tv.v, &kv.v)?;
                        let p = tv.p.as_ref().map(|p| {
                            let mut p = (**p).clone();
                            p.push(kv.v.clone());
                            Rc::new(p)
                        });
                        out(PV { v: r, p })
                    })
                })
            }
            Ast::Slice(t, a, b) => {
                let src = PV::val(inp.v.clone());
                self.eval(t, env, inp, &mut |tv| {
                    let mut go = |av: Value, bv: Value| -> R {
                        let r = slice(&tv.v, &av, &bv)?;
                        let p = tv.p.as_ref().map(|p| {
                            let mut p = (**p).clone();
                            let mut m = Map::new();
                            m.insert(Rc::from("start"), av.clone());
                            m.insert(Rc::from("end"), bv.clone());
                            p.push(Value::obj(m));
                            Rc::new(p)
                        });
                        out(PV { v: r, p })
                    };
                    match (a, b) {
                        (Some(a), Some(b)) => self.eval(b, env, src.clone(), &mut |bv| {
                            self.eval(a, env, src.clone(), &mut |av| go(av.v, bv.v.clone()))
                        }),
                        (Some(a), None) => {
                            self.eval(a, env, src.clone(), &mut |av| go(av.v, Value::Null))
                        }
                        (None, Some(b)) => {
                            self.eval(b, env, src.clone(), &mut |bv| go(Value::Null, bv.v))
                        }
                        (None, None) => go(Value::Null, Value::Null),
                    }
                })
            }
            Ast::Iterate(t) => self.eval(t, env, inp, &mut |tv| self.iterate(tv, out)),
            Ast::Try(body, handler) => {
                let r = self.eval(body, env, inp.clone(), out);
                match r {
                    Err(Ctl::Err(e)) => {
                        if let Value::Obj(m) = &e {
                            // `error(null)` style break-out markers are not caught.
                            if m.contains_key("__jq") {
                                return Err(Ctl::Err(e));
                            }
                        }
                        match handler {
                            Some(h) => self.eval(h, env, PV::val(e), out),
                            None => Ok(()),
                        }
                    }
                    other => other,
                }
            }
            Ast::Pipe(a, b) => self.eval(a, env, inp, &mut |x| self.eval(b, env, x, out)),
            Ast::Comma(a, b) => {
                self.eval(a, env, inp.clone(), out)?;
                self.eval(b, env, inp, out)
            }
            Ast::Neg(a) => {
                let src = PV::val(inp.v.clone());
                self.eval(a, env, src, &mut |x| match x.v {
                    Value::Num(n) => self.emit(&inp, Value::Num(-n), out),
                    v => Err(type_err(&v, "cannot be negated")),
                })
            }
            Ast::Bin(op, a, b) => {
                let src = PV::val(inp.v.clone());
                self.eval(b, env, src.clone(), &mut |bv| {
                    self.eval(a, env, src.clone(), &mut |av| {
                        let r = binop(*op, &av.v, &bv.v)?;
                        self.emit(&inp, r, out)
                    })
                })
            }
            Ast::And(a, b) | Ast::Or(a, b) => {
                let is_and = matches!(ast, Ast::And(..));
                let src = PV::val(inp.v.clone());
                self.eval(a, env, src.clone(), &mut |av| {
                    let t = av.v.truthy();
                    if is_and && !t {
                        return self.emit(&inp, Value::Bool(false), out);
                    }
                    if !is_and && t {
                        return self.emit(&inp, Value::Bool(true), out);
                    }
                    self.eval(b, env, src.clone(), &mut |bv| {
                        self.emit(&inp, Value::Bool(bv.v.truthy()), out)
                    })
                })
            }
            Ast::Alt(a, b) => {
                let mut any = false;
                let r = self.eval(a, env, inp.clone(), &mut |x| {
                    if x.v.truthy() {
                        any = true;
                        out(x)
                    } else {
                        Ok(())
                    }
                });
                match r {
                    Err(Ctl::Err(_)) => {}
                    Err(e) => return Err(e),
                    Ok(()) => {}
                }
                if !any {
                    return self.eval(b, env, inp, out);
                }
                Ok(())
            }
            Ast::Array(e) => {
                let mut v = Vec::new();
                if let Some(e) = e {
                    self.eval(e, env, PV::val(inp.v.clone()), &mut |x| {
                        v.push(x.v);
                        Ok(())
                    })?;
                }
                self.emit(&inp, Value::arr(v), out)
            }
            Ast::Object(entries) => self.object(entries, 0, Map::new(), env, &inp, out),
            Ast::If(arms, els) => self.if_arms(arms, 0, els.as_deref(), env, inp, out),
            Ast::Reduce(src, pats, init, upd) => {
                let s = PV::val(inp.v.clone());
                self.eval(init, env, s.clone(), &mut |acc0| {
                    let mut acc = Some(acc0.v);
                    self.eval(src, env, s.clone(), &mut |item| {
                        self.bind_patterns(pats, &item.v, env, &mut |e2| {
                            let cur = acc.take().unwrap_or(Value::Null);
                            let mut last = None;
                            self.eval(upd, &e2, PV::val(cur), &mut |r| {
                                last = Some(r.v);
                                Ok(())
                            })?;
                            acc = Some(last.unwrap_or(Value::Null));
                            Ok(())
                        })
                    })?;
                    self.emit(&inp, acc.take().unwrap_or(Value::Null), out)
                })
            }
            Ast::Foreach(src, pats, init, upd, ext) => {
                let s = PV::val(inp.v.clone());
                self.eval(init, env, s.clone(), &mut |acc0| {
                    let mut acc = acc0.v;
                    self.eval(src, env, s.clone(), &mut |item| {
                        self.bind_patterns(pats, &item.v, env, &mut |e2| {
                            let cur = acc.clone();
                            self.eval(upd, &e2, PV::val(cur), &mut |r| {
                                acc = r.v.clone();
                                match ext {
                                    Some(x) => self.eval(x, &e2, PV::val(r.v), &mut |y| {
                                        self.emit(&inp, y.v, out)
                                    }),
                                    None => self.emit(&inp, r.v, out),
                                }
                            })
                        })
                    })
                })
            }
            Ast::Def(d, rest) => {
                let e2 = Rc::new(Env::Func(d, env.clone()));
                self.eval(rest, &e2, inp, out)
            }
            Ast::Var(name) => {
                let v = self.lookup_var(env, name)?;
                self.emit(&inp, v, out)
            }
            Ast::As(src, pats, body) => {
                let s = PV::val(inp.v.clone());
                self.eval(src, env, s, &mut |x| {
                    self.bind_patterns(pats, &x.v, env, &mut |e2| {
                        self.eval(body, &e2, inp.clone(), out)
                    })
                })
            }
            Ast::Label(name, body) => {
                let id = self.labels.get() + 1;
                self.labels.set(id);
                let e2 = Rc::new(Env::Label(name.clone(), id, env.clone()));
                match self.eval(body, &e2, inp, out) {
                    Err(Ctl::Break(b)) if b == id => Ok(()),
                    other => other,
                }
            }
            Ast::Break(name) => {
                let mut e = env;
                loop {
                    match &**e {
                        Env::Label(n, id, _) if n == name => return Err(Ctl::Break(*id)),
                        Env::Root => return err("$*label-".to_string() + name + " is not defined"),
                        _ => {}
                    }
                    match e.parent() {
                        Some(p) => e = p,
                        None => return err("break without label"),
                    }
                }
            }
            Ast::Assign(op, lhs, rhs) => self.assign(*op, lhs, rhs, env, inp, out),
            Ast::Call(name, args) => self.call(name, args, env, inp, out),
        }
    }

    fn lookup_var(&self, env: &Rc<Env>, name: &str) -> Result<Value, Ctl> {
        let mut e = env;
        loop {
            if let Env::Var(n, v, _) = &**e {
                if &**n == name {
                    return Ok(v.clone());
                }
            }
            match e.parent() {
                Some(p) => e = p,
                None => break,
            }
        }
        if name == "ENV" {
            return Ok(self.env_obj.clone());
        }
        if name == "__prog_name" {
            return Ok(Value::str("jq"));
        }
        err(format!("${} is not defined", name))
    }

    #[allow(clippy::too_many_arguments)]
    fn string(
        &self,
        parts: &'static [StrPart],
        fmt: Option<&str>,
        i: usize,
        acc: String,
        env: &Rc<Env>,
        inp: &PV,
        out: &mut dyn FnMut(PV) -> R,
    ) -> R {
        if i == parts.len() {
            return self.emit(inp, Value::str(&acc), out);
        }
        match &parts[i] {
            StrPart::Lit(s) => {
                let mut a = acc;
                a.push_str(s);
                self.string(parts, fmt, i + 1, a, env, inp, out)
            }
            StrPart::Interp(e) => self.eval(e, env, PV::val(inp.v.clone()), &mut |x| {
                let piece = match fmt {
                    Some(f) => match super::builtins::format(f, &x.v)? {
                        Value::Str(s) => s.to_string(),
                        v => v.to_json(),
                    },
                    None => match &x.v {
                        Value::Str(s) => s.to_string(),
                        v => v.to_json(),
                    },
                };
                let mut a = acc.clone();
                a.push_str(&piece);
                self.string(parts, fmt, i + 1, a, env, inp, out)
            }),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn object(
        &self,
        entries: &'static [ObjEntry],
        i: usize,
        acc: Map,
        env: &Rc<Env>,
        inp: &PV,
        out: &mut dyn FnMut(PV) -> R,
    ) -> R {
        if i == entries.len() {
            return self.emit(inp, Value::obj(acc), out);
        }
        let e = &entries[i];
        let src = PV::val(inp.v.clone());
        self.eval(&e.key, env, src.clone(), &mut |k| {
            let key = match k.v {
                Value::Str(s) => s,
                other => {
                    let _ = other;
                    return err("Object keys must be strings".to_string());
                }
            };
            self.eval(&e.value, env, src.clone(), &mut |v| {
                let mut m = acc.clone();
                m.insert(key.clone(), v.v);
                self.object(entries, i + 1, m, env, inp, out)
            })
        })
    }

    fn if_arms(
        &self,
        arms: &'static [(Ast, Ast)],
        i: usize,
        els: Option<&'static Ast>,
        env: &Rc<Env>,
        inp: PV,
        out: &mut dyn FnMut(PV) -> R,
    ) -> R {
        if i == arms.len() {
            return match els {
                Some(e) => self.eval(e, env, inp, out),
                None => out(inp),
            };
        }
        let (c, t) = &arms[i];
        self.eval(c, env, PV::val(inp.v.clone()), &mut |cv| {
            if cv.v.truthy() {
                self.eval(t, env, inp.clone(), out)
            } else {
                self.if_arms(arms, i + 1, els, env, inp.clone(), out)
            }
        })
    }

    fn iterate(&self, tv: PV, out: &mut dyn FnMut(PV) -> R) -> R {
        let child = |p: &Option<Path>, k: Value| {
            p.as_ref().map(|p| {
                let mut p = (**p).clone();
                p.push(k);
                Rc::new(p)
            })
        };
        match &tv.v {
            Value::Arr(a) => {
                for (i, x) in a.iter().enumerate() {
                    out(PV {
                        v: x.clone(),
                        p: child(&tv.p, Value::Num(i as f64)),
                    })?;
                }
                Ok(())
            }
            Value::Obj(m) => {
                for (k, x) in m.iter() {
                    out(PV {
                        v: x.clone(),
                        p: child(&tv.p, Value::Str(k.clone())),
                    })?;
                }
                Ok(())
            }
            Value::Null if tv.p.is_some() => Ok(()),
            v => err(format!(
                "Cannot iterate over {}{}",
                v.type_name(),
                match v {
                    Value::Null => String::new(),
                    _ => format!(" ({})", short(v)),
                }
            )),
        }
    }

    fn recurse_all(&self, inp: PV, out: &mut dyn FnMut(PV) -> R) -> R {
        out(inp.clone())?;
        match &inp.v {
            Value::Arr(_) | Value::Obj(_) => self.iterate(inp, &mut |c| self.recurse_all(c, out)),
            _ => Ok(()),
        }
    }

    /// Bind destructuring alternatives (`?//`): try each in turn while the
    /// body errors; every pattern's variables are all bound (null if absent).
    fn bind_patterns(
        &self,
        pats: &'static [Pattern],
        v: &Value,
        env: &Rc<Env>,
        body: &mut dyn FnMut(Rc<Env>) -> R,
    ) -> R {
        if pats.len() == 1 {
            return self.bind(&pats[0], v, env.clone(), body);
        }
        let mut all_vars = Vec::new();
        for p in pats {
            pattern_vars(p, &mut all_vars);
        }
        let mut base = env.clone();
        for n in &all_vars {
            base = Rc::new(Env::Var(n.clone(), Value::Null, base));
        }
        for (i, p) in pats.iter().enumerate() {
            let r = self.bind(p, v, base.clone(), body);
            match r {
                Err(Ctl::Err(e)) if i + 1 < pats.len() => {
                    let _ = e;
                    continue;
                }
                other => return other,
            }
        }
        Ok(())
    }

    fn bind(
        &self,
        p: &'static Pattern,
        v: &Value,
        env: Rc<Env>,
        body: &mut dyn FnMut(Rc<Env>) -> R,
    ) -> R {
        match p {
            Pattern::Var(n) => body(Rc::new(Env::Var(n.clone(), v.clone(), env))),
            Pattern::Arr(ps) => {
                if !matches!(v, Value::Arr(_) | Value::Null) {
                    return err(format!("Cannot index {} with number", v.type_name()));
                }
                self.bind_seq(ps, 0, v, env, body)
            }
            Pattern::Obj(entries) => self.bind_obj(entries, 0, v, env, body),
        }
    }

    fn bind_seq(
        &self,
        ps: &'static [Pattern],
        i: usize,
        v: &Value,
        env: Rc<Env>,
        body: &mut dyn FnMut(Rc<Env>) -> R,
    ) -> R {
        if i == ps.len() {
            return body(env);
        }
        let item = index(v, &Value::Num(i as f64))?;
        self.bind(&ps[i], &item, env, &mut |e2| {
            self.bind_seq(ps, i + 1, v, e2, body)
        })
    }

    fn bind_obj(
        &self,
        entries: &'static [(ObjPatKey, Option<Pattern>)],
        i: usize,
        v: &Value,
        env: Rc<Env>,
        body: &mut dyn FnMut(Rc<Env>) -> R,
    ) -> R {
        if i == entries.len() {
            return body(env);
        }
        let (k, sub) = &entries[i];
        match k {
            ObjPatKey::Var(n) => {
                let item = index(v, &Value::Str(n.clone()))?;
                let e2 = Rc::new(Env::Var(n.clone(), item.clone(), env));
                match sub {
                    Some(sp) => self.bind(sp, &item, e2, &mut |e3| {
                        self.bind_obj(entries, i + 1, v, e3, body)
                    }),
                    None => self.bind_obj(entries, i + 1, v, e2, body),
                }
            }
            ObjPatKey::Expr(ke) => {
                let env_c = env.clone();
                self.eval(ke, &env_c, PV::val(v.clone()), &mut |kv| {
                    if !matches!(kv.v, Value::Str(_)) {
                        return err(format!(
                            "Cannot index {} with {}",
                            v.type_name(),
                            kv.v.type_name()
                        ));
                    }
                    let item = index(v, &kv.v)?;
                    match sub {
                        Some(sp) => self.bind(sp, &item, env.clone(), &mut |e3| {
                            self.bind_obj(entries, i + 1, v, e3, body)
                        }),
                        None => self.bind_obj(entries, i + 1, v, env.clone(), body),
                    }
                })
            }
        }
    }

    /// All paths of `f` applied to `v`.
    pub fn paths_of(
        &self,
        f: &'static Ast,
        env: &Rc<Env>,
        v: &Value,
        out: &mut dyn FnMut(Value, Value) -> R,
    ) -> R {
        let inp = PV {
            v: v.clone(),
            p: Some(Rc::new(Vec::new())),
        };
        self.eval(f, env, inp, &mut |r| {
            let p = r.p.map(|p| Value::arr((*p).clone())).unwrap_or(Value::Null);
            out(p, r.v)
        })
    }

    fn assign(
        &self,
        op: AssignOp,
        lhs: &'static Ast,
        rhs: &'static Ast,
        env: &Rc<Env>,
        inp: PV,
        out: &mut dyn FnMut(PV) -> R,
    ) -> R {
        let root = inp.v.clone();
        match op {
            AssignOp::Update => {
                let mut paths = Vec::new();
                self.paths_of(lhs, env, &root, &mut |p, _| {
                    paths.push(p);
                    Ok(())
                })?;
                let mut cur = root;
                let mut dels = Vec::new();
                for p in paths {
                    let pa = match &p {
                        Value::Arr(a) => a.clone(),
                        _ => continue,
                    };
                    let old = getpath(&cur, &pa)?;
                    let mut first = None;
                    let r = self.eval(rhs, env, PV::val(old), &mut |x| {
                        first = Some(x.v);
                        Err(Ctl::Break(u64::MAX))
                    });
                    match r {
                        Ok(()) | Err(Ctl::Break(u64::MAX)) => {}
                        Err(e) => return Err(e),
                    }
                    match first {
                        Some(nv) => cur = setpath(&cur, &pa, nv)?,
                        None => dels.push(p),
                    }
                }
                if !dels.is_empty() {
                    cur = delpaths(&cur, &dels)?;
                }
                self.emit(&inp, cur, out)
            }
            AssignOp::Set | AssignOp::Arith(_) | AssignOp::Alt => {
                self.eval(rhs, env, PV::val(root.clone()), &mut |rv| {
                    let mut cur = root.clone();
                    let mut paths = Vec::new();
                    self.paths_of(lhs, env, &root, &mut |p, _| {
                        paths.push(p);
                        Ok(())
                    })?;
                    for p in paths {
                        let pa = match &p {
                            Value::Arr(a) => a.clone(),
                            _ => continue,
                        };
                        let nv = match op {
                            AssignOp::Set => rv.v.clone(),
                            AssignOp::Arith(b) => binop(b, &getpath(&cur, &pa)?, &rv.v)?,
                            _ => {
                                let old = getpath(&cur, &pa)?;
                                if old.truthy() {
                                    old
                                } else {
                                    rv.v.clone()
                                }
                            }
                        };
                        cur = setpath(&cur, &pa, nv)?;
                    }
                    self.emit(&inp, cur, out)
                })
            }
        }
    }

    fn call(
        &self,
        name: &Rc<str>,
        args: &'static [Ast],
        env: &Rc<Env>,
        inp: PV,
        out: &mut dyn FnMut(PV) -> R,
    ) -> R {
        let arity = args.len();
        // User definitions and filter parameters, innermost first.
        let mut e = env;
        loop {
            match &**e {
                Env::Func(d, _) if d.name == *name && d.params.len() == arity => {
                    return self.call_def(d, e, args, env, inp, out);
                }
                Env::Closure(n, body, cenv, _) if arity == 0 && n == name => {
                    return self.eval(body, cenv, inp, out);
                }
                _ => {}
            }
            match e.parent() {
                Some(p) => e = p,
                None => break,
            }
        }
        if let Some(done) = super::builtins::native(self, name, args, env, &inp, out) {
            return done;
        }
        if let Some(d) = self.prelude.get(&(name.to_string(), arity)) {
            let root = Rc::new(Env::Root);
            let denv = Rc::new(Env::Func(d, root));
            return self.call_def(d, &denv, args, env, inp, out);
        }
        err(format!("{}/{} is not defined", name, arity))
    }

    /// Call `d` (found at env node `def_env`, which contains itself so the
    /// body can recurse) with argument expressions from `caller`.
    fn call_def(
        &self,
        d: &'static FuncDef,
        def_env: &Rc<Env>,
        args: &'static [Ast],
        caller: &Rc<Env>,
        inp: PV,
        out: &mut dyn FnMut(PV) -> R,
    ) -> R {
        let mut benv = def_env.clone();
        let mut value_params: Vec<(Rc<str>, &'static Ast)> = Vec::new();
        for ((pname, is_val), a) in d.params.iter().zip(args.iter()) {
            benv = Rc::new(Env::Closure(pname.clone(), a, caller.clone(), benv));
            if *is_val {
                value_params.push((pname.clone(), a));
            }
        }
        if value_params.is_empty() {
            return self.eval(&d.body, &benv, inp, out);
        }
        self.bind_values(&value_params, 0, benv, caller, &d.body, inp, out)
    }

    #[allow(clippy::too_many_arguments)]
    fn bind_values(
        &self,
        ps: &[(Rc<str>, &'static Ast)],
        i: usize,
        benv: Rc<Env>,
        caller: &Rc<Env>,
        body: &'static Ast,
        inp: PV,
        out: &mut dyn FnMut(PV) -> R,
    ) -> R {
        if i == ps.len() {
            return self.eval(body, &benv, inp, out);
        }
        let (n, a) = &ps[i];
        self.eval(a, caller, PV::val(inp.v.clone()), &mut |v| {
            let e2 = Rc::new(Env::Var(n.clone(), v.v, benv.clone()));
            self.bind_values(ps, i + 1, e2, caller, body, inp.clone(), out)
        })
    }

    /// Evaluate `a` against `v` and collect all outputs.
    pub fn collect(&self, a: &'static Ast, env: &Rc<Env>, v: &Value) -> Result<Vec<Value>, Ctl> {
        let mut r = Vec::new();
        self.eval(a, env, PV::val(v.clone()), &mut |x| {
            r.push(x.v);
            Ok(())
        })?;
        Ok(r)
    }

    /// Each output of `a` against `v`, as a plain value.
    pub fn each(
        &self,
        a: &'static Ast,
        env: &Rc<Env>,
        v: &Value,
        f: &mut dyn FnMut(Value) -> R,
    ) -> R {
        self.eval(a, env, PV::val(v.clone()), &mut |x| f(x.v))
    }

    /// A compiled regex for `re` with jq flags, cached.
    pub fn regex(&self, re: &str, flags: &str) -> Result<Rc<regex::Regex>, Ctl> {
        let key = (re.to_string(), flags.to_string());
        if let Some(r) = self.regex_cache.borrow().get(&key) {
            return Ok(r.clone());
        }
        // Oniguruma's named groups are `(?<name>...)`; Rust's regex wants `(?P<name>...)`.
        let mut pat = String::with_capacity(re.len());
        let rb = re.as_bytes();
        let mut i = 0;
        while i < rb.len() {
            if rb[i] == b'\\' && i + 1 < rb.len() {
                pat.push_str(&re[i..i + 2]);
                i += 2;
                continue;
            }
            if re[i..].starts_with("(?<")
                && !re[i..].starts_with("(?<=")
                && !re[i..].starts_with("(?<!")
            {
                pat.push_str("(?P<");
                i += 3;
                continue;
            }
            let ch = re[i..].chars().next().unwrap_or(' ');
            pat.push(ch);
            i += ch.len_utf8();
        }
        let mut b = regex::RegexBuilder::new(&pat);
        for f in flags.chars() {
            match f {
                'i' => {
                    b.case_insensitive(true);
                }
                'x' => {
                    b.ignore_whitespace(true);
                }
                's' => {
                    b.dot_matches_new_line(true);
                }
                'g' | 'n' | 'l' | 'p' => {}
                _ => return err(format!("{} is not a valid modifier string", flags)),
            }
        }
        let r = b.build().map_err(|e| {
            Ctl::Err(Value::str(&format!(
                "{} (at offset 0) is not a valid regex: {}",
                re, e
            )))
        })?;
        let r = Rc::new(r);
        self.regex_cache.borrow_mut().insert(key, r.clone());
        Ok(r)
    }
}

/// The variable names a destructuring pattern binds.
pub fn pattern_vars(p: &Pattern, out: &mut Vec<Rc<str>>) {
    match p {
        Pattern::Var(n) => out.push(n.clone()),
        Pattern::Arr(ps) => ps.iter().for_each(|q| pattern_vars(q, out)),
        Pattern::Obj(es) => {
            for (k, s) in es {
                if let ObjPatKey::Var(n) = k {
                    out.push(n.clone());
                }
                if let Some(s) = s {
                    pattern_vars(s, out);
                }
            }
        }
    }
}
