//! `jq`: the command-line JSON processor (jq 1.6/1.7 filter language).
//!
//! `value` is the data model and JSON text, `parser` the program syntax,
//! `eval` the generator-based evaluator, `builtins` the library.

pub mod ast;
pub mod builtins;
pub mod eval;
pub mod parser;
pub mod value;

use crate::common::bytes;
use eval::{Ctl, Env, Inputs, Interp, PV};
use std::ffi::OsString;
use std::io::{Read, Write};
use std::rc::Rc;
use value::{Fmt, Map, Parser, Value};

const HELP: &str = "Usage:\tjq [OPTIONS] FILTER [FILES...]
\tjq [OPTIONS] --args FILTER [ARGUMENTS...]
\tjq [OPTIONS] --jsonargs FILTER [JSON_VALUES...]

jq is a tool for processing JSON inputs, applying the given filter to
its JSON text inputs and producing the filter's results as JSON on
standard output.

Some of the options include:
  -c               compact instead of pretty-printed output;
  -n               use `null` as the single input value;
  -e               set the exit status code based on the output;
  -s               read (slurp) all inputs into an array; apply filter to it;
  -r               output raw strings, not JSON texts;
  -j               like -r but no newline after each output;
  -a               output non-ASCII as escape sequences;
  -S               sort keys of objects on output;
  -R               read raw lines, not JSON texts;
  --tab            use tabs for indentation;
  --indent n       use given number of spaces (no more than 7) for indentation;
  --arg a v        set variable $a to value <v>;
  --argjson a v    set variable $a to JSON value <v>;
  --slurpfile a f  set variable $a to an array of JSON texts read from <f>;
  --rawfile a f    set variable $a to a string consisting of the contents of <f>;
  --args           remaining arguments are string arguments, not files;
  --jsonargs       remaining arguments are JSON arguments, not files;
";

struct Source {
    files: Vec<Option<OsString>>,
    cur: usize,
    buf: Vec<u8>,
    pos: usize,
    loaded: bool,
    raw: bool,
    name: Value,
    /// Line count reported in errors (`at <stdin>:N`).
    line: usize,
    failed: bool,
}

impl Source {
    fn load_next(&mut self) -> bool {
        while self.cur < self.files.len() {
            let f = self.files[self.cur].clone();
            self.cur += 1;
            let mut data = Vec::new();
            let r = match &f {
                None => std::io::stdin().lock().read_to_end(&mut data).map(|_| ()),
                Some(p) => coreutils_core::fs::open(p)
                    .and_then(|mut h| h.read_to_end(&mut data).map(|_| ())),
            };
            match r {
                Ok(()) => {
                    if self.loaded && !self.raw {
                        // Values may continue across files: jq concatenates them.
                        let rest = self.buf.split_off(self.pos);
                        self.buf = rest;
                        self.buf.extend_from_slice(&data);
                    } else {
                        self.buf = data;
                    }
                    self.pos = 0;
                    self.loaded = true;
                    self.line = 0;
                    self.name = match &f {
                        None => Value::Null,
                        Some(p) => Value::str(&p.to_string_lossy()),
                    };
                    return true;
                }
                Err(e) => {
                    let name = f
                        .map(|p| p.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    eprintln!(
                        "{}: error: Could not open file {}: {}",
                        coreutils_core::prog("jq"),
                        name,
                        coreutils_core::error::strerror(&e)
                    );
                    self.failed = true;
                }
            }
        }
        false
    }

    fn where_(&self) -> String {
        if !self.loaded {
            return "<unknown>".to_string();
        }
        match &self.name {
            Value::Str(s) => format!("{}:{}", s, self.line),
            _ => format!("<stdin>:{}", self.line),
        }
    }
}

impl Inputs for Source {
    fn next_input(&mut self) -> Result<Option<Value>, String> {
        loop {
            if !self.loaded || self.pos >= self.buf.len() {
                if !self.load_next() {
                    return Ok(None);
                }
                continue;
            }
            if self.raw {
                let rest = &self.buf[self.pos..];
                let (line, adv) = match memchr_nl(rest) {
                    Some(i) => (&rest[..i], i + 1),
                    None => (rest, rest.len()),
                };
                let v = Value::str(&String::from_utf8_lossy(line));
                self.pos += adv;
                self.line += 1;
                return Ok(Some(v));
            }
            let mut p = Parser::new(&self.buf);
            p.pos = self.pos;
            match p.next_value() {
                Ok(Some(v)) => {
                    let end = (p.pos + 1).min(self.buf.len());
                    self.line += self.buf[self.pos..end]
                        .iter()
                        .filter(|&&c| c == b'\n')
                        .count();
                    self.pos = end;
                    return Ok(Some(v));
                }
                Ok(None) => {
                    self.pos = self.buf.len();
                    continue;
                }
                Err(e) => {
                    let msg = p.describe(&e);
                    self.pos = self.buf.len();
                    self.cur = self.files.len();
                    return Err(msg);
                }
            }
        }
    }

    fn filename(&self) -> Value {
        self.name.clone()
    }
}

fn memchr_nl(b: &[u8]) -> Option<usize> {
    b.iter().position(|&c| c == b'\n')
}

/// A shared handle so both the main loop and `input` read the same stream.
struct Shared(Rc<std::cell::RefCell<Source>>);

impl Inputs for Shared {
    fn next_input(&mut self) -> Result<Option<Value>, String> {
        self.0.borrow_mut().next_input()
    }
    fn filename(&self) -> Value {
        self.0.borrow().filename()
    }
}

fn usage(msg: &str) -> i32 {
    eprintln!("{}: {}", coreutils_core::prog("jq"), msg);
    eprintln!("Use jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://stedolan.github.io/jq");
    2
}

/// Scope entries with this arity are `$variables`.
const VAR: usize = usize::MAX;

/// Brings the variables of destructuring patterns into scope; returns the
/// scope length to restore.
fn bind_vars(pats: &[ast::Pattern], scope: &mut Vec<(String, usize)>) -> usize {
    let base = scope.len();
    let mut names = Vec::new();
    for p in pats {
        eval::pattern_vars(p, &mut names);
    }
    scope.extend(names.into_iter().map(|n| (format!("${}", n), VAR)));
    base
}

/// Check that every called function and every `$variable` exists (jq
/// reports both at compile time, exit status 3).
fn check(ast: &ast::Ast, scope: &mut Vec<(String, usize)>, it: &Interp) -> Result<(), String> {
    use ast::Ast::*;
    match ast {
        Call(n, args) => {
            let known = scope.iter().any(|(s, a)| s == &**n && *a == args.len())
                || it.prelude.contains_key(&(n.to_string(), args.len()))
                || builtins::NATIVE
                    .iter()
                    .any(|(s, a)| *s == &**n && *a == args.len());
            if !known {
                return Err(format!("{}/{} is not defined", n, args.len()));
            }
            for a in args {
                check(a, scope, it)?;
            }
            Ok(())
        }
        Var(n) => {
            let key = format!("${}", n);
            if scope.iter().any(|(s, a)| *a == VAR && *s == key) {
                Ok(())
            } else {
                Err(format!("{} is not defined", key))
            }
        }
        Def(d, rest) => {
            let base = scope.len();
            scope.push((d.name.to_string(), d.params.len()));
            for (p, is_val) in &d.params {
                scope.push((p.to_string(), 0));
                if *is_val {
                    scope.push((format!("${}", p), VAR));
                }
            }
            check(&d.body, scope, it)?;
            scope.truncate(base + 1);
            check(rest, scope, it)?;
            scope.truncate(base);
            Ok(())
        }
        Index(a, b)
        | Pipe(a, b)
        | Comma(a, b)
        | Bin(_, a, b)
        | And(a, b)
        | Or(a, b)
        | Alt(a, b)
        | Assign(_, a, b) => {
            check(a, scope, it)?;
            check(b, scope, it)
        }
        Slice(a, b, c) => {
            check(a, scope, it)?;
            if let Some(b) = b {
                check(b, scope, it)?;
            }
            if let Some(c) = c {
                check(c, scope, it)?;
            }
            Ok(())
        }
        Iterate(a) | Neg(a) | Label(_, a) => check(a, scope, it),
        Try(a, b) => {
            check(a, scope, it)?;
            if let Some(b) = b {
                check(b, scope, it)?;
            }
            Ok(())
        }
        Array(Some(a)) => check(a, scope, it),
        Object(es) => {
            for e in es {
                check(&e.key, scope, it)?;
                check(&e.value, scope, it)?;
            }
            Ok(())
        }
        If(arms, els) => {
            for (c, t) in arms {
                check(c, scope, it)?;
                check(t, scope, it)?;
            }
            if let Some(e) = els {
                check(e, scope, it)?;
            }
            Ok(())
        }
        Reduce(s, pats, i, u) => {
            check(s, scope, it)?;
            check(i, scope, it)?;
            let base = bind_vars(pats, scope);
            let r = check(u, scope, it);
            scope.truncate(base);
            r
        }
        Foreach(s, pats, i, u, x) => {
            check(s, scope, it)?;
            check(i, scope, it)?;
            let base = bind_vars(pats, scope);
            let mut r = check(u, scope, it);
            if let (Ok(()), Some(x)) = (&r, x) {
                r = check(x, scope, it);
            }
            scope.truncate(base);
            r
        }
        As(s, pats, b) => {
            check(s, scope, it)?;
            let base = bind_vars(pats, scope);
            let r = check(b, scope, it);
            scope.truncate(base);
            r
        }
        Str(parts, _) => {
            for p in parts {
                if let ast::StrPart::Interp(e) = p {
                    check(e, scope, it)?;
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let mut fmt = Fmt {
        indent: b"  ".to_vec(),
        ascii: false,
        sort_keys: false,
    };
    let (mut raw, mut join, mut slurp, mut null_in, mut exit_status, mut raw_in) =
        (false, false, false, false, false, false);
    let mut seq = false;
    let mut filter: Option<String> = None;
    let mut files: Vec<OsString> = Vec::new();
    let mut named: Vec<(String, Value)> = Vec::new();
    let mut positional: Vec<Value> = Vec::new();
    let mut rest_mode = 0; // 1: --args, 2: --jsonargs
    let mut i = 1;
    let mut no_more_opts = false;
    let a_s = |i: usize| args.get(i).map(|a| a.to_string_lossy().into_owned());
    while i < args.len() {
        let a = args[i].to_string_lossy().into_owned();
        // Like jq's isoptish(): `-7 % 3` is a program, not an option.
        let optish = a.len() > 1
            && a.starts_with('-')
            && a[1..].starts_with(|c: char| c == '-' || c.is_ascii_alphabetic());
        if !no_more_opts && optish {
            if a == "--" {
                no_more_opts = true;
                i += 1;
                continue;
            }
            if let Some(long) = a.strip_prefix("--") {
                match long {
                    "raw-output" => raw = true,
                    "join-output" => {
                        raw = true;
                        join = true
                    }
                    "ascii-output" => fmt.ascii = true,
                    "compact-output" => fmt.indent.clear(),
                    "slurp" => slurp = true,
                    "null-input" => null_in = true,
                    "exit-status" => exit_status = true,
                    "sort-keys" => fmt.sort_keys = true,
                    "raw-input" => raw_in = true,
                    "tab" => fmt.indent = b"\t".to_vec(),
                    "color-output" | "monochrome-output" | "unbuffered" | "stream-errors" => {}
                    "seq" => seq = true,
                    "indent" => {
                        let n = match a_s(i + 1).and_then(|s| s.parse::<i32>().ok()) {
                            Some(n) => n,
                            None => return usage("--indent takes one parameter"),
                        };
                        if n > 7 {
                            return usage("Cannot indent more than 7 characters");
                        }
                        if n < 0 {
                            return usage("Cannot indent less than -1 characters");
                        }
                        fmt.indent = vec![b' '; n as usize];
                        i += 1;
                    }
                    "arg" | "argjson" | "slurpfile" | "rawfile" => {
                        let (k, v) = match (a_s(i + 1), args.get(i + 2)) {
                            (Some(k), Some(v)) => (k, v.clone()),
                            _ => {
                                return usage(&format!(
                                    "--{} takes two parameters (e.g. --{} varname value)",
                                    long, long
                                ))
                            }
                        };
                        let val = match long {
                            "arg" => Value::str(&v.to_string_lossy()),
                            "argjson" => match Parser::single(bytes(&v)) {
                                Ok(x) => x,
                                Err(_) => return usage("Invalid JSON text passed to --argjson"),
                            },
                            _ => {
                                let data = match coreutils_core::fs::read(&v) {
                                    Ok(d) => d,
                                    Err(e) => {
                                        eprintln!(
                                            "{}: error: Could not open {}: {}",
                                            coreutils_core::prog("jq"),
                                            v.to_string_lossy(),
                                            coreutils_core::error::strerror(&e)
                                        );
                                        return 2;
                                    }
                                };
                                if long == "rawfile" {
                                    Value::str(&String::from_utf8_lossy(&data))
                                } else {
                                    let mut p = Parser::new(&data);
                                    let mut all = Vec::new();
                                    loop {
                                        match p.next_value() {
                                            Ok(Some(x)) => all.push(x),
                                            Ok(None) => break,
                                            Err(e) => {
                                                eprintln!(
                                                    "{}: Bad JSON in --slurpfile {} {}: {}",
                                                    coreutils_core::prog("jq"),
                                                    k,
                                                    v.to_string_lossy(),
                                                    e.msg
                                                );
                                                return 2;
                                            }
                                        }
                                    }
                                    Value::arr(all)
                                }
                            }
                        };
                        named.push((k, val));
                        i += 2;
                    }
                    "args" => rest_mode = 1,
                    "jsonargs" => rest_mode = 2,
                    "from-file" => {
                        // handled like -f
                        match args.get(i + 1) {
                            Some(f) => match coreutils_core::fs::read_to_string(f) {
                                Ok(s) => {
                                    if let Some(prev) = filter.take() {
                                        files.insert(0, OsString::from(prev));
                                    }
                                    filter = Some(s);
                                }
                                Err(e) => {
                                    eprintln!(
                                        "{}: error: Could not open {}: {}",
                                        coreutils_core::prog("jq"),
                                        f.to_string_lossy(),
                                        coreutils_core::error::strerror(&e)
                                    );
                                    return 2;
                                }
                            },
                            None => return usage("-f takes a parameter"),
                        }
                        i += 1;
                    }
                    "help" => {
                        print!("{}", HELP);
                        return 0;
                    }
                    "version" => {
                        println!("jq-1.6");
                        return 0;
                    }
                    _ => return usage(&format!("Unknown option {}", a)),
                }
                i += 1;
                continue;
            }
            let mut consumed_next = false;
            for c in a[1..].chars() {
                match c {
                    'r' => raw = true,
                    'j' => {
                        raw = true;
                        join = true
                    }
                    'a' => fmt.ascii = true,
                    'c' => fmt.indent.clear(),
                    's' => slurp = true,
                    'n' => null_in = true,
                    'e' => exit_status = true,
                    'S' => fmt.sort_keys = true,
                    'R' => raw_in = true,
                    'C' | 'M' => {}
                    'h' => {
                        print!("{}", HELP);
                        return 0;
                    }
                    'f' => {
                        match args.get(i + 1) {
                            Some(f) => match coreutils_core::fs::read_to_string(f) {
                                Ok(s) => {
                                    if let Some(prev) = filter.take() {
                                        files.insert(0, OsString::from(prev));
                                    }
                                    filter = Some(s);
                                }
                                Err(e) => {
                                    eprintln!(
                                        "{}: error: Could not open {}: {}",
                                        coreutils_core::prog("jq"),
                                        f.to_string_lossy(),
                                        coreutils_core::error::strerror(&e)
                                    );
                                    return 2;
                                }
                            },
                            None => return usage("-f takes a parameter"),
                        }
                        consumed_next = true;
                    }
                    _ => return usage(&format!("Unknown option {}", a)),
                }
            }
            i += if consumed_next { 2 } else { 1 };
            continue;
        }
        if filter.is_none() {
            filter = Some(a);
        } else if rest_mode == 1 {
            positional.push(Value::str(&a));
        } else if rest_mode == 2 {
            match Parser::single(bytes(&args[i])) {
                Ok(x) => positional.push(x),
                Err(_) => return usage("Invalid JSON text passed to --jsonargs"),
            }
        } else {
            files.push(args[i].clone());
        }
        i += 1;
    }
    let _ = seq;
    let filter = match filter {
        Some(f) => f,
        // jq 1.6 defaults to `.` when no program is given.
        None => ".".to_string(),
    };
    let mut env_map = Map::new();
    for (k, v) in std::env::vars_os() {
        env_map.insert(
            Rc::from(k.to_string_lossy().as_ref()),
            Value::str(&v.to_string_lossy()),
        );
    }
    let prelude = match parser::parse_defs(builtins::PRELUDE) {
        Ok(p) => p,
        Err(e) => {
            eprintln!(
                "{}: internal error in builtins: {}",
                coreutils_core::prog("jq"),
                e
            );
            return 3;
        }
    };
    let interp = Interp::new(prelude, Value::obj(env_map));
    let program: &'static ast::Ast = match parser::parse_program(&filter) {
        Ok(a) => Box::leak(Box::new(a)),
        Err(m) => {
            let m = if m.starts_with("syntax error") {
                format!("{} (Unix shell quoting issues?)", m)
            } else {
                m
            };
            eprintln!(
                "{}: error: {} at <top-level>, line 1:\n{}\njq: 1 compile error",
                coreutils_core::prog("jq"),
                m,
                filter
            );
            return 3;
        }
    };
    let mut scope: Vec<(String, usize)> = ["ENV", "__prog_name", "ARGS", "__loc__"]
        .iter()
        .map(|n| (format!("${}", n), VAR))
        .chain(named.iter().map(|(k, _)| (format!("${}", k), VAR)))
        .collect();
    if let Err(m) = check(program, &mut scope, &interp) {
        eprintln!(
            "{}: error: {} at <top-level>, line 1:\n{}\njq: 1 compile error",
            coreutils_core::prog("jq"),
            m,
            filter
        );
        return 3;
    }
    // Variables: named args, $ARGS.
    let mut env = Rc::new(Env::Root);
    let mut named_obj = Map::new();
    for (k, v) in &named {
        named_obj.insert(Rc::from(k.as_str()), v.clone());
    }
    let mut args_obj = Map::new();
    args_obj.insert(Rc::from("positional"), Value::arr(positional));
    args_obj.insert(Rc::from("named"), Value::obj(named_obj));
    env = Rc::new(Env::Var(Rc::from("ARGS"), Value::obj(args_obj), env));
    for (k, v) in named {
        env = Rc::new(Env::Var(Rc::from(k.as_str()), v, env));
    }

    let srcfiles: Vec<Option<OsString>> = if files.is_empty() {
        vec![None]
    } else {
        files.into_iter().map(Some).collect()
    };
    let source = Rc::new(std::cell::RefCell::new(Source {
        files: srcfiles,
        cur: 0,
        buf: Vec::new(),
        pos: 0,
        loaded: false,
        raw: raw_in,
        name: Value::Null,
        line: 0,
        failed: false,
    }));
    *interp.inputs.borrow_mut() = Some(Box::new(Shared(source.clone())));

    let mut out = coreutils_core::io::stdout();
    let mut status = 0;
    let mut last: Option<Value> = None;
    let mut buf: Vec<u8> = Vec::with_capacity(1 << 16);

    let mut run_one = |input: Value,
                       out: &mut std::io::BufWriter<std::io::StdoutLock<'static>>,
                       last: &mut Option<Value>|
     -> Result<(), (i32, Option<Value>, bool)> {
        let r = interp.eval(program, &env, PV { v: input, p: None }, &mut |r| {
            buf.clear();
            match (&r.v, raw) {
                (Value::Str(s), true) => buf.extend_from_slice(s.as_bytes()),
                _ => value::write_value(&mut buf, &r.v, &fmt),
            }
            if !join {
                buf.push(b'\n');
            }
            coreutils_core::io::write_or_exit(out, &buf);
            *last = Some(r.v);
            Ok(())
        });
        match r {
            Ok(()) => Ok(()),
            Err(Ctl::Err(e)) => Err((5, Some(e), false)),
            Err(Ctl::Break(_)) => Err((5, Some(Value::str("break")), false)),
            Err(Ctl::Halt(code, msg)) => Err((code, msg, true)),
        }
    };

    let report = |e: Option<Value>, src: &Source| {
        let wh = src.where_();
        match e {
            Some(Value::Str(s)) => {
                eprintln!("{}: error (at {}): {}", coreutils_core::prog("jq"), wh, s)
            }
            Some(v) => eprintln!(
                "{}: error (at {}) (not a string): {}",
                coreutils_core::prog("jq"),
                wh,
                v.to_json()
            ),
            None => eprintln!(
                "{}: error (at {}) (not a string): null",
                coreutils_core::prog("jq"),
                wh
            ),
        }
    };

    let mut handle = |input: Value,
                      out: &mut std::io::BufWriter<std::io::StdoutLock<'static>>,
                      last: &mut Option<Value>|
     -> Option<i32> {
        match run_one(input, out, last) {
            Ok(()) => None,
            Err((code, msg, true)) => {
                let _ = out.flush();
                match msg {
                    Some(Value::Str(s)) => {
                        let _ = std::io::stderr().write_all(s.as_bytes());
                    }
                    Some(v) => eprintln!("{}", v.to_json()),
                    None => {}
                }
                Some(code)
            }
            Err((_, msg, false)) => {
                let _ = out.flush();
                report(msg, &source.borrow());
                status = 5;
                None
            }
        }
    };

    if null_in {
        if slurp && !raw_in {
            // jq -ns: the input is still null.
        }
        if let Some(c) = handle(Value::Null, &mut out, &mut last) {
            let _ = out.flush();
            return c;
        }
    } else if slurp {
        let mut all = Vec::new();
        let mut text = String::new();
        loop {
            let r = source.borrow_mut().next_input();
            match r {
                Ok(Some(v)) => {
                    if raw_in {
                        if let Value::Str(s) = &v {
                            text.push_str(s);
                            text.push('\n');
                        }
                    } else {
                        all.push(v)
                    }
                }
                Ok(None) => break,
                Err(m) => {
                    eprintln!(
                        "{}: error (at {}): {}",
                        coreutils_core::prog("jq"),
                        source.borrow().where_(),
                        m
                    );
                    let _ = out.flush();
                    return 2;
                }
            }
        }
        let input = if raw_in {
            // -Rs gives the whole text; strip the newline we added if the
            // input did not end with one.
            let whole = {
                let s = source.borrow();
                String::from_utf8_lossy(&s.buf).into_owned()
            };
            let _ = text;
            Value::str(&whole)
        } else {
            Value::arr(all)
        };
        if let Some(c) = handle(input, &mut out, &mut last) {
            let _ = out.flush();
            return c;
        }
    } else {
        loop {
            let r = source.borrow_mut().next_input();
            match r {
                Ok(Some(v)) => {
                    if let Some(c) = handle(v, &mut out, &mut last) {
                        let _ = out.flush();
                        return c;
                    }
                }
                Ok(None) => break,
                Err(m) => {
                    let _ = out.flush();
                    eprintln!("parse error: {}", m);
                    // jq 1.6 exits 2 after some output, 4 when nothing was printed.
                    status = if last.is_some() { 2 } else { 4 };
                    break;
                }
            }
        }
    }
    if let Err(e) = out.flush() {
        coreutils_core::io::exit_on_write_error(e);
    }
    if source.borrow().failed && status == 0 {
        status = 2;
    }
    if status != 0 {
        return status;
    }
    if exit_status {
        return match last {
            None => 4,
            Some(v) if !v.truthy() => 1,
            _ => 0,
        };
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Compiles a program the way `jq` does before running it.
    fn compile(src: &str) -> Result<(), String> {
        let prelude = match parser::parse_defs(builtins::PRELUDE) {
            Ok(p) => p,
            Err(e) => return Err(format!("prelude: {}", e)),
        };
        let it = Interp::new(prelude, Value::obj(Map::new()));
        let prog = parser::parse_program(src)?;
        let mut scope = vec![("$ENV".to_string(), VAR)];
        check(&prog, &mut scope, &it)
    }

    #[test]
    fn undefined_variables_are_compile_errors() {
        assert_eq!(
            compile("$undefined"),
            Err("$undefined is not defined".to_string())
        );
        assert!(compile("(. as $x | 1), $x").is_err());
        assert!(compile(". as $x | $x").is_ok());
        assert!(compile("reduce .[] as [$a, $b] (0; . + $a + $b)").is_ok());
        assert!(compile("foreach .[] as $i (0; . + $i; [$i, .])").is_ok());
        assert!(compile("def f($p): $p + 1; f(1)").is_ok());
        assert!(compile(". as {a: $x, $b} | $x + $b").is_ok());
        assert!(compile("$ENV.PATH").is_ok());
    }

    #[test]
    fn unknown_functions_are_compile_errors() {
        assert_eq!(compile("ascii"), Err("ascii/0 is not defined".to_string()));
        assert!(compile("def f: .; f").is_ok());
    }
}
