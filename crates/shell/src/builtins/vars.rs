//! Variable and option builtins: declare/typeset/local, export, readonly,
//! unset, set, shopt, shift, let.

use crate::ast::*;
use crate::eval::{Ctl, Shell, R};
use crate::parse::{is_name, Parser};
use crate::state::*;

/// `${x@a}` letters for attributes.
pub fn attr_letters(a: u16, v: &Option<Value>) -> Bytes {
    // bash's order: aAinrtxclu
    let mut o = Vec::new();
    let flags = [
        (a & A_ARRAY != 0 || matches!(v, Some(Value::Arr(_))), b'a'),
        (a & A_ASSOC != 0 || matches!(v, Some(Value::Assoc(_))), b'A'),
        (a & A_INTEGER != 0, b'i'),
        (a & A_NAMEREF != 0, b'n'),
        (a & A_READONLY != 0, b'r'),
        (a & A_TRACE != 0, b't'),
        (a & A_EXPORT != 0, b'x'),
        (a & A_CAPITAL != 0, b'c'),
        (a & A_LOWER != 0, b'l'),
        (a & A_UPPER != 0, b'u'),
    ];
    for (on, c) in flags {
        if on {
            o.push(c);
        }
    }
    o
}

use super::{quote_dq as dq, quote_key};

/// Every `shopt` option of bash 5.2 and its default in a script. Those the
/// shell has no behaviour for are remembered (and listed) all the same.
pub const SHOPT_DEFAULTS: &[(&str, bool)] = &[
    ("autocd", false),
    ("assoc_expand_once", false),
    ("cdable_vars", false),
    ("cdspell", false),
    ("checkhash", false),
    ("checkjobs", false),
    ("checkwinsize", true),
    ("cmdhist", true),
    ("compat31", false),
    ("compat32", false),
    ("compat40", false),
    ("compat41", false),
    ("compat42", false),
    ("compat43", false),
    ("compat44", false),
    ("complete_fullquote", true),
    ("direxpand", false),
    ("dirspell", false),
    ("dotglob", false),
    ("execfail", false),
    ("expand_aliases", false),
    ("extdebug", false),
    ("extglob", false),
    ("extquote", true),
    ("failglob", false),
    ("force_fignore", true),
    ("globasciiranges", true),
    ("globskipdots", true),
    ("globstar", false),
    ("gnu_errfmt", false),
    ("histappend", false),
    ("histreedit", false),
    ("histverify", false),
    ("hostcomplete", true),
    ("huponexit", false),
    ("inherit_errexit", false),
    ("interactive_comments", true),
    ("lastpipe", false),
    ("lithist", false),
    ("localvar_inherit", false),
    ("localvar_unset", false),
    ("login_shell", false),
    ("mailwarn", false),
    ("no_empty_cmd_completion", false),
    ("nocaseglob", false),
    ("nocasematch", false),
    ("noexpand_translation", false),
    ("nullglob", false),
    ("patsub_replacement", true),
    ("progcomp", true),
    ("progcomp_alias", false),
    ("promptvars", true),
    ("restricted_shell", false),
    ("shift_verbose", false),
    ("sourcepath", true),
    ("varredir_close", false),
    ("xpg_echo", false),
];

/// Every `shopt` option name, in bash's order.
pub fn shopt_names() -> impl Iterator<Item = &'static str> {
    SHOPT_DEFAULTS.iter().map(|(n, _)| *n)
}

impl Shell {
    pub fn declare_line(&self, name: &[u8], v: &Var) -> Bytes {
        let mut o = b"declare -".to_vec();
        let letters = attr_letters(v.attrs, &v.value);
        if letters.is_empty() {
            o.push(b'-');
        } else {
            o.extend_from_slice(&letters);
        }
        o.push(b' ');
        o.extend_from_slice(name);
        match &v.value {
            None => {}
            Some(Value::Str(s)) => {
                o.push(b'=');
                o.extend_from_slice(&dq(s));
            }
            Some(Value::Arr(m)) => {
                o.extend_from_slice(b"=(");
                let parts: Vec<Bytes> = m
                    .iter()
                    .map(|(k, v)| {
                        let mut p = format!("[{}]=", k).into_bytes();
                        p.extend_from_slice(&dq(v));
                        p
                    })
                    .collect();
                o.extend_from_slice(&parts.join(&b' '));
                o.push(b')');
            }
            Some(Value::Assoc(m)) => {
                o.extend_from_slice(b"=(");
                for (k, v) in m {
                    o.push(b'[');
                    o.extend_from_slice(&quote_key(k));
                    o.extend_from_slice(b"]=");
                    o.extend_from_slice(&dq(v));
                    o.push(b' ');
                }
                o.push(b')');
            }
        }
        o.push(b'\n');
        o
    }

    /// A function as `declare -f` and `type` show it: bash's layout.
    pub fn function_text(&self, name: &[u8], f: &crate::ast::FuncDef) -> Bytes {
        crate::printer::function_def(name, f)
    }

    fn print_function(&mut self, name: &[u8]) -> bool {
        match self.funcs.get(name).cloned() {
            Some(f) => {
                let t = self.function_text(name, &f);
                self.write_fd(1, &t);
                true
            }
            None => false,
        }
    }

    pub fn b_declare(&mut self, args: &[Bytes], cmd: &'static str) -> R<()> {
        let is_local = cmd == "local";
        let mut set: u16 = 0;
        let mut unset_a: u16 = 0;
        let mut print = false;
        let mut inherit = false;
        let mut funcs = false;
        let mut func_names = false;
        let mut global = false;
        let mut i = 0;
        while i < args.len() {
            let a = &args[i];
            if a.len() < 2 || (a[0] != b'-' && a[0] != b'+') {
                break;
            }
            if a == b"--" {
                i += 1;
                break;
            }
            let on = a[0] == b'-';
            for &c in &a[1..] {
                let bit = match c {
                    b'a' => A_ARRAY,
                    b'A' => A_ASSOC,
                    b'i' => A_INTEGER,
                    b'l' => A_LOWER,
                    b'u' => A_UPPER,
                    b'c' => A_CAPITAL,
                    b'x' => A_EXPORT,
                    b'r' => A_READONLY,
                    b'n' => A_NAMEREF,
                    b't' => A_TRACE,
                    b'p' => {
                        print = true;
                        0
                    }
                    b'f' => {
                        funcs = true;
                        0
                    }
                    b'F' => {
                        func_names = true;
                        0
                    }
                    b'g' => {
                        global = true;
                        0
                    }
                    b'I' => {
                        // a new local takes the value and attributes it shadows
                        inherit = on;
                        0
                    }
                    _ => {
                        self.berr(cmd, format!("-{}: invalid option", c as char).as_bytes());
                        self.write_fd(
                            2,
                            if is_local {
                                "local: usage: local [option] name[=value] ...\n".to_string()
                            } else {
                                format!(
                                    "{}: usage: {} [-aAfFgiIlnrtux] [name[=value] ...] or {} -p [-aAfFilnrtux] [name ...]\n",
                                    cmd, cmd, cmd
                                )
                            }
                            .as_bytes(),
                        );
                        self.status = 2;
                        return Ok(());
                    }
                };
                if on {
                    set |= bit;
                } else {
                    unset_a |= bit;
                }
            }
            i += 1;
        }
        if (set & A_CASE).count_ones() > 1 {
            // bash: two of -l, -u, -c at once cancel each other
            set &= !A_CASE;
        }
        let rest = &args[i..];
        if funcs || func_names {
            let mut st = 0;
            if rest.is_empty() {
                let mut names: Vec<Bytes> = self.funcs.keys().cloned().collect();
                names.sort();
                for n in names {
                    if func_names {
                        // bash lists a function's attributes too: `declare -frx f`
                        let mut l = b"declare -f".to_vec();
                        let a = self.func_attrs.get(&n).copied().unwrap_or(0);
                        l.extend_from_slice(&attr_letters(a & (A_READONLY | A_EXPORT), &None));
                        l.push(b' ');
                        l.extend_from_slice(&n);
                        l.push(b'\n');
                        self.write_fd(1, &l);
                    } else {
                        self.print_function(&n);
                    }
                }
            }
            for n in rest {
                if func_names && print {
                    // `declare -pF f`: the function's declare line
                    if self.funcs.contains_key(n) {
                        let mut l = b"declare -f".to_vec();
                        let a = self.func_attrs.get(n).copied().unwrap_or(0);
                        l.extend_from_slice(&attr_letters(a & (A_READONLY | A_EXPORT), &None));
                        l.push(b' ');
                        l.extend_from_slice(n);
                        l.push(b'\n');
                        self.write_fd(1, &l);
                    } else {
                        let mut m = n.clone();
                        m.extend_from_slice(b": not found");
                        self.berr(cmd, &m);
                        st = 1;
                    }
                } else if func_names {
                    if let Some(line) = self.funcs.get(n).map(|f| f.src.line) {
                        let mut l = n.clone();
                        if self.shopt_state("extdebug") == Some(true) {
                            // extdebug: the line and file it was defined at
                            l.extend_from_slice(format!(" {} ", line).as_bytes());
                            let file = self.func_files.get(n).map_or(&b"environment"[..], |f| f);
                            l.extend_from_slice(file);
                        }
                        l.push(b'\n');
                        self.write_fd(1, &l);
                    } else {
                        st = 1;
                    }
                } else if !self.print_function(n) {
                    st = 1;
                }
            }
            self.status = st;
            return Ok(());
        }
        if rest.is_empty() {
            // print variables (`local`: the function's own)
            let names: Vec<Bytes> = if is_local {
                let mut v: Vec<Bytes> = self
                    .vars
                    .scopes
                    .last()
                    .map(|s| s.keys().cloned().collect())
                    .unwrap_or_default();
                v.sort();
                v
            } else {
                self.vars.names()
            };
            let mut out = Vec::new();
            for n in names {
                if let Some(v) = self.vars.get_raw(&n).cloned() {
                    if set != 0 && v.attrs & set == 0 {
                        continue;
                    }
                    let v = &self.var_for_print(&n, &v, true);
                    if print || set != 0 || is_local {
                        out.extend_from_slice(&self.declare_line(&n, v));
                    } else if let Some(val) = &v.value {
                        out.extend_from_slice(&n);
                        out.push(b'=');
                        match val {
                            Value::Str(s) => out.extend_from_slice(&super::quote_set(s)),
                            _ => {
                                let l = self.declare_line(&n, v);
                                let eq = l.iter().position(|c| *c == b'=').unwrap_or(0);
                                out.extend_from_slice(&l[eq + 1..l.len() - 1]);
                            }
                        }
                        out.push(b'\n');
                    }
                }
            }
            self.write_fd(1, &out);
            return Ok(());
        }
        if print {
            let mut st = 0;
            for n in rest {
                match self.vars.get_raw(n).cloned() {
                    Some(v) => {
                        let v = self.var_for_print(n, &v, false);
                        let l = self.declare_line(n, &v);
                        self.write_fd(1, &l);
                    }
                    None => {
                        let mut m = n.clone();
                        m.extend_from_slice(b": not found");
                        self.berr(cmd, &m);
                        st = 1;
                    }
                }
            }
            self.status = st;
            return Ok(());
        }
        let local = (is_local || !self.funcnames.is_empty()) && !global;
        let mut st = 0;
        for a in rest {
            // its arithmetic errors (`declare -i x='1 +'`) name the builtin
            let outer = self.arith_ctx.replace(cmd);
            let r = self.declare_one(cmd, a, (set, unset_a), local, inherit);
            self.arith_ctx = outer;
            if let Err(e) = r {
                match e {
                    Ctl::Abort(_) => st = 1,
                    other => return Err(other),
                }
            }
        }
        self.status = st;
        Ok(())
    }

    /// One `name[=value]` of declare/local; `inherit`: -I.
    fn declare_one(
        &mut self,
        cmd: &str,
        a: &[u8],
        (set, unset_a): (u16, u16),
        local: bool,
        inherit: bool,
    ) -> R<()> {
        let (name_part, value) = match a.iter().position(|c| *c == b'=') {
            Some(p) => (&a[..p], Some(&a[p + 1..])),
            None => (a, None),
        };
        let (name, append) = match name_part.strip_suffix(b"+") {
            Some(n) => (n, true),
            None => (name_part, false),
        };
        let (base, sub) = match name.iter().position(|c| *c == b'[') {
            Some(p) if name.ends_with(b"]") => (&name[..p], Some(&name[p + 1..name.len() - 1])),
            _ => (name, None),
        };
        if !is_name(base) {
            let mut m = b"`".to_vec();
            m.extend_from_slice(a);
            m.extend_from_slice(b"': not a valid identifier");
            self.berr(cmd, &m);
            return Err(Ctl::Abort(1));
        }
        if self.is_readonly(base) && (value.is_some() || unset_a & A_READONLY != 0) {
            let mut m = base.to_vec();
            m.extend_from_slice(b": readonly variable");
            self.berr(cmd, &m);
            return Err(Ctl::Abort(1));
        }
        let is_ref = set & A_NAMEREF != 0;
        if let (true, Some(v)) = (is_ref, value) {
            let vbase = v.split(|c| *c == b'[').next().unwrap_or(v);
            if !is_name(vbase) || (vbase.len() < v.len() && !v.ends_with(b"]")) {
                let mut m = b"`".to_vec();
                m.extend_from_slice(v);
                m.extend_from_slice(b"': invalid variable name for name reference");
                self.berr(cmd, &m);
                return Err(Ctl::Abort(1));
            }
            if v == base {
                let mut m = base.to_vec();
                m.extend_from_slice(b": nameref variable self references not allowed");
                self.berr(cmd, &m);
                return Err(Ctl::Abort(1));
            }
        }
        if !local
            || self
                .vars
                .scopes
                .last()
                .map_or(false, |s| s.contains_key(base))
        {
            let (was_assoc, was_arr) = self.vars.get(base).map_or((false, false), |v| {
                (
                    v.attrs & A_ASSOC != 0 || matches!(v.value, Some(Value::Assoc(_))),
                    v.attrs & A_ARRAY != 0 || matches!(v.value, Some(Value::Arr(_))),
                )
            });
            let clash = if set & A_ARRAY != 0 && was_assoc {
                Some("associative to indexed")
            } else if set & A_ASSOC != 0 && was_arr {
                Some("indexed to associative")
            } else {
                None
            };
            if let Some(what) = clash {
                let mut m = base.to_vec();
                m.extend_from_slice(format!(": cannot convert {} array", what).as_bytes());
                self.berr(cmd, &m);
                return Err(Ctl::Abort(1));
            }
        }
        {
            let exists_here = if local {
                let top = self.vars.scopes.len() - 1;
                self.vars.scopes[top].contains_key(base)
            } else {
                true
            };
            // `shopt -s localvar_inherit`: a new local starts as the variable it hides
            let inherited = match exists_here
                || !(inherit || self.shopt_state("localvar_inherit") == Some(true))
            {
                true => None,
                false => self.vars.get(base).cloned(),
            };
            let var = if local {
                self.vars.local(base)
            } else if is_ref || unset_a & A_NAMEREF != 0 {
                self.vars.entry_raw(base)
            } else {
                self.vars.entry(base)
            };
            if !exists_here {
                let (value, attrs) =
                    inherited.map_or((None, 0), |v| (v.value, v.attrs & !A_NAMEREF));
                var.attrs = attrs;
                var.value = value;
            }
            var.attrs |= set & !(A_READONLY);
            var.attrs &= !unset_a;
            if set & A_ASSOC != 0 && !matches!(var.value, Some(Value::Assoc(_))) {
                // declared without a value: set only by a later assignment
                if value.is_none() && matches!(var.value, Some(Value::Str(_))) {
                    var.value = Some(Value::Assoc(Default::default()));
                }
            } else if set & A_ARRAY != 0 {
                var.value = match var.value.take() {
                    None => None,
                    Some(Value::Str(s)) => {
                        let mut m = std::collections::BTreeMap::new();
                        m.insert(0, s);
                        Some(Value::Arr(m))
                    }
                    other => other,
                };
            }
            if set & A_CASE != 0 {
                // a new case attribute replaces the old one
                var.attrs = (var.attrs & !A_CASE) | (set & A_CASE);
            }
        }
        if let (true, Some(v)) = (is_ref, value) {
            let var = if local {
                self.vars.local(base)
            } else {
                self.vars.entry_raw(base)
            };
            var.value = Some(Value::Str(v.to_vec()));
        } else if let Some(v) = value {
            if v.first() == Some(&b'(') && v.last() == Some(&b')') && sub.is_none() {
                // compound assignment: parse as `name=(...)`
                let mut src = base.to_vec();
                if append {
                    src.push(b'+');
                }
                src.push(b'=');
                src.extend_from_slice(v);
                if let Ok(prog) = Parser::parse_all(&src, self.lineno) {
                    if let Some(item) = prog.items.first() {
                        if let Some(Command::Simple(s)) = item.and_or.first.cmds.first() {
                            if let Some(asg) = s.assigns.first() {
                                let asg = asg.clone();
                                self.do_assign_literal(&asg, local)?;
                            }
                        }
                    }
                }
            } else {
                let idx = sub.map(|s| Word {
                    raw: None,
                    parts: vec![WordPart::Quoted(s.to_vec())],
                });
                let r = self.assign_scalar(base, idx.as_ref(), v.to_vec(), append);
                if let Err(Ctl::Abort(st)) = r {
                    // a bad arithmetic value for `declare -i` ends a script
                    let integer = self
                        .vars
                        .get(base)
                        .map_or(false, |v| v.attrs & A_INTEGER != 0);
                    if integer && !self.opts.interactive {
                        return Err(Ctl::Exit(st));
                    }
                }
                r?;
            }
        }
        if set & A_READONLY != 0 {
            let var = if local {
                self.vars.local(base)
            } else if is_ref {
                self.vars.entry_raw(base)
            } else {
                self.vars.entry(base)
            };
            var.attrs |= A_READONLY;
        }
        if set & A_INTEGER != 0 && value.is_none() {
            // existing value becomes an integer on next assignment only
        }
        Ok(())
    }

    /// Assign `(..)` already expanded by the caller's word expansion: the
    /// elements are literal text at this point (quotes are re-parsed).
    fn do_assign_literal(&mut self, a: &Assign, local: bool) -> R<()> {
        self.declaring = true;
        let r = self.do_assign(a, local).map(|_| ());
        self.declaring = false;
        r
    }

    pub fn b_export(&mut self, args: &[Bytes], readonly: bool) -> R<()> {
        let cmd = if readonly { "readonly" } else { "export" };
        let mut i = 0;
        let mut remove = false;
        let mut print = false;
        let mut funcs = false;
        let mut arrays = false;
        let mut assoc = false;
        while i < args.len() && args[i].len() >= 2 && args[i][0] == b'-' {
            if args[i] == b"--" {
                i += 1;
                break;
            }
            for c in &args[i][1..] {
                match c {
                    b'n' => remove = true,
                    b'p' => print = true,
                    b'f' => funcs = true,
                    b'a' => arrays = true,
                    b'A' => assoc = true,
                    _ => {
                        self.berr(cmd, format!("-{}: invalid option", *c as char).as_bytes());
                        self.status = 2;
                        return Ok(());
                    }
                }
            }
            i += 1;
        }
        let _ = arrays;
        let bit = if readonly { A_READONLY } else { A_EXPORT };
        let rest = &args[i..];
        if funcs && !rest.is_empty() {
            let mut st = 0;
            for n in rest {
                if !self.funcs.contains_key(n) {
                    let mut m = n.clone();
                    m.extend_from_slice(b": not a function");
                    self.berr(cmd, &m);
                    st = 1;
                    continue;
                }
                let a = self.func_attrs.entry(n.clone()).or_insert(0);
                if remove {
                    *a &= !bit;
                } else {
                    *a |= bit;
                }
            }
            self.status = st;
            return Ok(());
        }
        if funcs && rest.is_empty() {
            // each function with the attribute, then its declare line
            let mut names: Vec<Bytes> = self.funcs.keys().cloned().collect();
            names.sort();
            for n in names {
                let a = self.func_attrs.get(&n).copied().unwrap_or(0);
                if a & bit == 0 {
                    continue;
                }
                self.print_function(&n);
                let mut l = b"declare -f".to_vec();
                l.extend_from_slice(&attr_letters(a & (A_READONLY | A_EXPORT), &None));
                l.push(b' ');
                l.extend_from_slice(&n);
                l.push(b'\n');
                self.write_fd(1, &l);
            }
            self.status = 0;
            return Ok(());
        }
        if rest.is_empty() || (print && rest.is_empty()) {
            let mut out = Vec::new();
            for n in self.vars.names() {
                if let Some(v) = self.vars.get(&n) {
                    if v.attrs & bit != 0 {
                        out.extend_from_slice(&self.declare_line(&n, v));
                    }
                }
            }
            self.write_fd(1, &out);
            self.status = 0;
            return Ok(());
        }
        let mut st = 0;
        for a in rest {
            let (name, value) = match a.iter().position(|c| *c == b'=') {
                Some(p) => (&a[..p], Some(a[p + 1..].to_vec())),
                None => (&a[..], None),
            };
            let (name, append) = match name.strip_suffix(b"+") {
                Some(n) => (n, true),
                None => (name, false),
            };
            if !is_name(name) {
                let mut m = b"`".to_vec();
                m.extend_from_slice(a);
                m.extend_from_slice(b"': not a valid identifier");
                self.berr(cmd, &m);
                st = 1;
                continue;
            }
            if let Some(v) = value {
                if v.first() == Some(&b'(') && v.last() == Some(&b')') && readonly {
                    if assoc && !self.is_readonly(name) {
                        // `readonly -A h=(...)`: the literal fills an associative array
                        let var = self.vars.entry(name);
                        var.attrs |= A_ASSOC;
                        var.value = Some(Value::Assoc(Default::default()));
                    }
                    let mut src = name.to_vec();
                    src.push(b'=');
                    src.extend_from_slice(&v);
                    if let Ok(prog) = Parser::parse_all(&src, self.lineno) {
                        if let Some(Command::Simple(s)) =
                            prog.items.first().and_then(|i| i.and_or.first.cmds.first())
                        {
                            if let Some(asg) = s.assigns.first() {
                                let asg = asg.clone();
                                if self.do_assign_literal(&asg, false).is_err() {
                                    st = 1;
                                    continue;
                                }
                            }
                        }
                    }
                } else {
                    if self.opts.xtrace {
                        self.trace_assign(name, if append { b"+=" } else { b"=" }, &v);
                    }
                    if self.assign_scalar(name, None, v, append).is_err() {
                        st = 1;
                        continue;
                    }
                }
            }
            let var = self.vars.entry(name);
            if remove {
                var.attrs &= !bit;
            } else {
                var.attrs |= bit;
            }
        }
        self.status = st;
        Ok(())
    }

    pub fn b_unset(&mut self, args: &[Bytes]) -> R<()> {
        let r = self.unset_names(args);
        if args
            .iter()
            .any(|a| matches!(a.as_slice(), b"LC_ALL" | b"LC_CTYPE" | b"LANG"))
        {
            self.sync_locale();
        }
        if args.iter().any(|a| a == b"POSIXLY_CORRECT") && !self.var_is_set(b"POSIXLY_CORRECT") {
            self.opts.posix = false;
            self.sync_specials();
        }
        if args.iter().any(|a| a == b"GLOBIGNORE") && !self.var_is_set(b"GLOBIGNORE") {
            // bash: unsetting GLOBIGNORE turns off the dotglob it implied
            self.opts.dotglob = false;
            self.sync_specials();
        }
        r
    }

    fn unset_names(&mut self, args: &[Bytes]) -> R<()> {
        let mut funcs = false;
        let mut refs = false;
        let mut vars_only = false;
        let mut i = 0;
        while i < args.len() && args[i].len() >= 2 && args[i][0] == b'-' {
            for c in &args[i][1..] {
                match c {
                    b'f' => funcs = true,
                    b'v' => vars_only = true,
                    b'n' => refs = true,
                    _ => {
                        self.invalid_option(
                            "unset",
                            *c,
                            b"unset: usage: unset [-f] [-v] [-n] [name ...]\n",
                        );
                        return Ok(());
                    }
                }
            }
            i += 1;
        }
        if funcs && vars_only {
            self.berr(
                "unset",
                b"cannot simultaneously unset a function and a variable",
            );
            self.status = 1;
            return Ok(());
        }
        let mut st = 0;
        for a in &args[i..] {
            if funcs {
                self.funcs.remove(a);
                continue;
            }
            // `unset ref` unsets what a nameref points at; `unset -n ref` the ref
            let a = &match self.vars.resolve(a) {
                Resolved::Name(t) | Resolved::Element(t) if !refs => t,
                _ => a.clone(),
            };
            if let Some(p) = a.iter().position(|c| *c == b'[') {
                if a.ends_with(b"]") {
                    let name = &a[..p];
                    let key = &a[p + 1..a.len() - 1];
                    if self.is_readonly(name) {
                        self.readonly_err(name);
                        st = 1;
                        continue;
                    }
                    let is_assoc = matches!(
                        self.vars.get(name).and_then(|v| v.value.as_ref()),
                        Some(Value::Assoc(_))
                    );
                    if (key == b"@" || key == b"*") && !is_assoc {
                        // bash 5.2 empties the array but keeps it (and its attributes)
                        if let Some(v) = self.vars.get_mut(name) {
                            if matches!(v.value, Some(Value::Arr(_))) {
                                v.value = Some(Value::Arr(Default::default()));
                                continue;
                            }
                        }
                        self.vars.unset(name);
                        continue;
                    }
                    if is_assoc {
                        if let Some(Value::Assoc(m)) =
                            self.vars.get_mut(name).and_then(|v| v.value.as_mut())
                        {
                            m.remove(key);
                        }
                    } else {
                        let mut idx = self.eval_arith_text(key)?;
                        if idx < 0 {
                            if let Some(Value::Arr(m)) =
                                self.vars.get(name).and_then(|v| v.value.as_ref())
                            {
                                idx += m.keys().next_back().map(|k| k + 1).unwrap_or(0);
                                if idx < 0 {
                                    // bash leaves the array's name out here
                                    let mut m = b"[".to_vec();
                                    m.extend_from_slice(key);
                                    m.extend_from_slice(b"]: bad array subscript");
                                    self.berr("unset", &m);
                                    st = 1;
                                    continue;
                                }
                            }
                        }
                        match self.vars.get_mut(name).and_then(|v| v.value.as_mut()) {
                            Some(Value::Arr(m)) => {
                                m.remove(&idx);
                            }
                            Some(Value::Str(_)) if idx == 0 => {
                                self.vars.unset(name);
                            }
                            _ => {}
                        }
                    }
                    continue;
                }
            }
            if !is_name(a) {
                if !vars_only {
                    // not a variable name: maybe a function's
                    self.funcs.remove(a);
                    continue;
                }
                let mut m = b"`".to_vec();
                m.extend_from_slice(a);
                m.extend_from_slice(b"': not a valid identifier");
                self.berr("unset", &m);
                st = 1;
                continue;
            }
            if self.is_readonly(a) {
                let mut m = a.clone();
                m.extend_from_slice(b": cannot unset: readonly variable");
                self.berr("unset", &m);
                st = 1;
                continue;
            }
            if self.vars.get(a).is_some() {
                // unsetting a local in the current function removes it entirely
                let top = self.vars.scopes.len() - 1;
                if top > 0 && self.vars.scopes[top].contains_key(a.as_slice()) {
                    if let Some(v) = self.vars.scopes[top].get_mut(a.as_slice()) {
                        v.value = None;
                        v.attrs = 0;
                    }
                } else {
                    let idx = self
                        .vars
                        .scopes
                        .iter()
                        .rposition(|s| s.contains_key(a.as_slice()))
                        .unwrap_or(0);
                    // a caller's local goes entirely: the next scope's variable shows
                    self.vars.scopes[idx].remove(a.as_slice());
                }
            } else if !vars_only && self.funcs.contains_key(a) {
                self.funcs.remove(a);
            }
        }
        self.status = st;
        Ok(())
    }

    pub fn b_set(&mut self, args: &[Bytes]) -> R<()> {
        if args.is_empty() {
            let mut out = Vec::new();
            for n in self.vars.names() {
                if let Some(v) = self.vars.get(&n) {
                    if let Some(val) = &v.value {
                        out.extend_from_slice(&n);
                        out.push(b'=');
                        match val {
                            Value::Str(s) => out.extend_from_slice(&super::quote_set(s)),
                            _ => {
                                let l = self.declare_line(&n, v);
                                let eq = l.iter().position(|c| *c == b'=').unwrap_or(0);
                                out.extend_from_slice(&l[eq + 1..l.len() - 1]);
                            }
                        }
                        out.push(b'\n');
                    }
                }
            }
            // then the functions, as declare -f shows them
            let mut fnames: Vec<Bytes> = self.funcs.keys().cloned().collect();
            fnames.sort();
            for n in fnames {
                if let Some(f) = self.funcs.get(&n).cloned() {
                    out.extend_from_slice(&self.function_text(&n, &f));
                }
            }
            self.write_fd(1, &out);
            return Ok(());
        }
        let mut i = 0;
        while i < args.len() {
            let a = &args[i];
            if a == b"--" {
                self.positional = args[i + 1..].to_vec();
                return Ok(());
            }
            if a == b"-" {
                self.opts.xtrace = false;
                self.opts.verbose = false;
                self.positional = args[i + 1..].to_vec();
                return Ok(());
            }
            if a.len() < 2 || (a[0] != b'-' && a[0] != b'+') {
                self.positional = args[i..].to_vec();
                return Ok(());
            }
            let on = a[0] == b'-';
            let mut j = 1;
            while j < a.len() {
                let c = a[j];
                j += 1;
                if c == b'o' {
                    i += 1;
                    match args.get(i) {
                        None => {
                            self.print_set_o(on);
                            return Ok(());
                        }
                        Some(name) => {
                            let n = String::from_utf8_lossy(name).into_owned();
                            if !crate::state::SET_O.contains(&n.as_str()) {
                                let mut m = name.clone();
                                m.extend_from_slice(b": invalid option name");
                                self.berr("set", &m);
                                self.status = 2;
                                return Ok(());
                            }
                            self.set_option(&n, on);
                        }
                    }
                    continue;
                }
                match crate::state::Options::flag_name(c) {
                    Some(n) => self.set_option(n, on),
                    None => {
                        if matches!(
                            c,
                            b'B' | b'H' | b'P' | b'T' | b'E' | b'b' | b'k' | b'p' | b't'
                        ) {
                            continue;
                        }
                        self.berr(
                            "set",
                            format!("{}{}: invalid option", a[0] as char, c as char).as_bytes(),
                        );
                        self.write_fd(2, b"set: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]\n");
                        self.status = 2;
                        return Ok(());
                    }
                }
            }
            i += 1;
        }
        Ok(())
    }

    /// Turn a `set -o` option on or off, with the options tied to it.
    pub(crate) fn set_option(&mut self, name: &str, on: bool) {
        if let Some(f) = self.opts.get(name) {
            *f = on;
        }
        match (name, on) {
            // one line-editing mode at a time
            ("vi", true) => self.opts.emacs = false,
            ("emacs", true) => self.opts.vi = false,
            ("posix", true) => {
                self.set_var(b"POSIXLY_CORRECT", b"y".to_vec());
            }
            ("posix", false) => {
                self.vars.unset(b"POSIXLY_CORRECT");
            }
            _ => {}
        }
    }

    fn set_o_line(&mut self, n: &str, human: bool) -> String {
        let on = self.opts.get(n).map(|b| *b).unwrap_or(false);
        if human {
            format!("{:<15}\t{}\n", n, if on { "on" } else { "off" })
        } else {
            format!("set {}o {}\n", if on { '-' } else { '+' }, n)
        }
    }

    fn print_set_o(&mut self, human: bool) {
        let mut out = String::new();
        for n in crate::state::SET_O {
            out.push_str(&self.set_o_line(n, human));
        }
        self.write_fd(1, out.as_bytes());
    }

    pub fn b_shopt(&mut self, args: &[Bytes]) {
        let mut set: Option<bool> = None;
        let mut quiet = false;
        let mut print = false;
        let mut o_mode = false;
        let mut i = 0;
        while i < args.len() && args[i].len() >= 2 && args[i][0] == b'-' {
            for c in &args[i][1..] {
                match c {
                    b's' => set = Some(true),
                    b'u' => set = Some(false),
                    b'q' => quiet = true,
                    b'p' => print = true,
                    b'o' => o_mode = true,
                    _ => {
                        self.invalid_option(
                            "shopt",
                            *c,
                            b"shopt: usage: shopt [-pqsu] [-o] [optname ...]\n",
                        );
                        return;
                    }
                }
            }
            i += 1;
        }
        let names: Vec<String> = args[i..]
            .iter()
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        let known: Vec<&str> = if o_mode {
            crate::state::SET_O.to_vec()
        } else {
            SHOPT_DEFAULTS.iter().map(|(n, _)| *n).collect()
        };
        let line = |n: &str, on: bool| {
            if print && o_mode {
                format!("set {}o {}\n", if on { '-' } else { '+' }, n)
            } else if print {
                format!("shopt -{} {}\n", if on { 's' } else { 'u' }, n)
            } else {
                format!("{:<15}\t{}\n", n, if on { "on" } else { "off" })
            }
        };
        if names.is_empty() {
            let mut out = String::new();
            for n in &known {
                let on = self.shopt_state(n).unwrap_or(false);
                if set.map_or(true, |s| s == on) {
                    out.push_str(&line(n, on));
                }
            }
            if !quiet {
                self.write_fd(1, out.as_bytes());
            }
            self.status = 0;
            return;
        }
        let mut st = 0;
        for n in &names {
            let n = n.as_str();
            let state = if o_mode && !crate::state::SET_O.contains(&n) {
                None
            } else {
                self.shopt_state(n)
            };
            match (state, set) {
                (None, _) => {
                    let what = if o_mode { "option" } else { "shell option" };
                    self.berr("shopt", format!("{}: invalid {} name", n, what).as_bytes());
                    st = 1;
                }
                (Some(_), Some(v)) if o_mode => self.set_option(n, v),
                (Some(_), Some(v)) => self.set_shopt(n, v),
                (Some(on), None) => {
                    if !on {
                        st = 1;
                    }
                    if !quiet {
                        self.write_fd(1, line(n, on).as_bytes());
                    }
                }
            }
        }
        self.status = st;
    }

    /// A `shopt` option's state; None for a name bash does not have.
    pub fn shopt_state(&mut self, name: &str) -> Option<bool> {
        if let Some(f) = self.opts.get(name) {
            return Some(*f);
        }
        let (n, default) = SHOPT_DEFAULTS.iter().find(|(n, _)| *n == name)?;
        Some(*self.opts.other.get(*n).unwrap_or(default))
    }

    pub(crate) fn set_shopt(&mut self, name: &str, on: bool) {
        if let Some(f) = self.opts.get(name) {
            *f = on;
        } else if let Some((n, _)) = SHOPT_DEFAULTS.iter().find(|(n, _)| *n == name) {
            self.opts.other.insert(n, on);
        }
    }

    pub fn b_shift(&mut self, args: &[Bytes]) -> R<()> {
        self.one_count("shift", args)?;
        let n = match args.first() {
            Some(a) => match crate::bytes::parse_i64(a) {
                Some(n) if n >= 0 => n as usize,
                Some(_) => {
                    let mut m = a.clone();
                    m.extend_from_slice(b": shift count out of range");
                    self.berr("shift", &m);
                    self.status = 1;
                    return Ok(());
                }
                _ => {
                    let mut m = a.clone();
                    m.extend_from_slice(b": numeric argument required");
                    self.berr("shift", &m);
                    self.status = 1;
                    return Ok(());
                }
            },
            None => 1,
        };
        if n > self.positional.len() {
            if self.shopt_state("shift_verbose") == Some(true) {
                self.berr("shift", b"shift count out of range");
            }
            self.status = 1;
            return Ok(());
        }
        self.positional.drain(..n);
        self.status = 0;
        Ok(())
    }

    pub fn b_let(&mut self, args: &[Bytes]) -> R<()> {
        if args.is_empty() {
            self.berr("let", b"expression expected");
            self.status = 1;
            return Ok(());
        }
        let mut last = 0;
        for a in args {
            let outer = self.arith_ctx.replace("let");
            let r = self.eval_arith_text(a);
            self.arith_ctx = outer;
            match r {
                Ok(v) => last = v,
                Err(Ctl::Abort(_)) => {
                    self.status = 1;
                    return Ok(());
                }
                Err(e) => return Err(e),
            }
        }
        self.status = (last == 0) as i32;
        Ok(())
    }
}
