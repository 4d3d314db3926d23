//! Word expansion in bash's order: brace, tilde, parameter, arithmetic and
//! command substitution, word splitting by IFS, pathname expansion, quote removal.
//!
//! A field is built as two strings: the literal value and its pattern form
//! (quoted glob characters escaped with `\`), so globbing knows what was quoted.

use super::pattern::{
    escape_pattern, glob_expand, has_glob_chars, pat_match, pattern_is_glob, MatchMode,
};
use super::pattern_scan::Scan;
use super::{Ctl, Shell, R};
use crate::ast::*;
use crate::state::*;

#[derive(Default, Clone)]
struct Field {
    lit: Bytes,
    pat: Bytes,
    glob: bool,
    started: bool,
}

#[derive(Default)]
struct Acc {
    fields: Vec<Field>,
    cur: Field,
}

impl Acc {
    fn push_lit(&mut self, s: &[u8], quoted: bool) {
        self.cur.lit.extend_from_slice(s);
        if quoted {
            escape_pattern(s, &mut self.cur.pat);
        } else {
            self.cur.pat.extend_from_slice(s);
            if has_glob_chars(s) {
                self.cur.glob = true;
            }
        }
        self.cur.started = true;
    }
    fn end_field(&mut self) {
        let f = std::mem::take(&mut self.cur);
        self.fields.push(f);
    }
    fn finish(mut self) -> Vec<Field> {
        if self.cur.started {
            self.end_field();
        }
        self.fields
    }
}

/// Result of looking up a parameter before operators are applied.
struct PVal {
    vals: Vec<Bytes>,
    /// `$@`-like: several words.
    list: bool,
    /// `$*`-like: joined with IFS[0] when quoted.
    star: bool,
    set: bool,
    /// An unquoted `${x-word}` / `${x+word}` that takes its word: the caller
    /// expands the word in place, splitting all but its quoted parts.
    split: Option<Word>,
}

impl Shell {
    fn ifs(&self) -> Bytes {
        match self.vars.get(b"IFS") {
            Some(v) => v
                .value
                .as_ref()
                .map(|v| v.scalar())
                .unwrap_or_else(|| b" \t\n".to_vec()),
            None => b" \t\n".to_vec(),
        }
    }

    /// Full expansion of command words into fields.
    pub fn expand_words(&mut self, words: &[Word]) -> R<Vec<Bytes>> {
        let mut out = Vec::new();
        for w in words {
            // fast path: one plain literal without glob or brace characters
            if let [WordPart::Lit(s)] = w.parts.as_slice() {
                if !s
                    .iter()
                    .any(|c| matches!(c, b'*' | b'?' | b'[' | b'{' | b'('))
                {
                    out.push(s.clone());
                    continue;
                }
            }
            let words = if self.opts.braceexpand
                && w.parts
                    .iter()
                    .any(|p| matches!(p, WordPart::Lit(s) if s.contains(&b'{')))
            {
                brace_expand(w)
            } else {
                vec![w.clone()]
            };
            for w in &words {
                let fields = self.expand_fields(w)?;
                for f in fields {
                    // `[` alone (the test command) or `x[y` has no wildcard: bash
                    // leaves such a word as it is, without a stat per use.
                    if f.glob && !self.opts.noglob && pattern_is_glob(&f.pat) {
                        let mut matches = glob_expand(self, &f.pat);
                        if matches.is_empty() {
                            if self.opts.failglob {
                                let mut m = b"no match: ".to_vec();
                                m.extend_from_slice(&f.lit);
                                self.err(&m);
                                return Err(Ctl::Abort(1));
                            }
                            if !self.opts.nullglob {
                                out.push(f.lit);
                            }
                        } else {
                            out.append(&mut matches);
                        }
                    } else {
                        out.push(f.lit);
                    }
                }
            }
        }
        Ok(out)
    }

    /// The replacement of `${x/pat/rep}`: an unquoted `&` stands for the
    /// matched text (bash's patsub_replacement); `\&` and quoted `&` are
    /// literal.
    fn expand_replacement(&mut self, w: &Word) -> R<Replacement> {
        // `&` stands for the match only under shopt patsub_replacement (on)
        let plain = self.shopt_state("patsub_replacement") == Some(false)
            || w.parts.iter().all(|p| match p {
                WordPart::Lit(s) => !s.contains(&b'&'),
                WordPart::Quoted(_) => true,
                _ => false,
            });
        if plain {
            return Ok(Replacement {
                text: self.expand_single(w)?,
                amps: Vec::new(),
            });
        }
        let mut r = Replacement {
            text: Vec::new(),
            amps: Vec::new(),
        };
        for p in &w.parts {
            match p {
                WordPart::Lit(s) => {
                    let mut i = 0;
                    while i < s.len() {
                        match s[i] {
                            b'\\' if s.get(i + 1) == Some(&b'&') => {
                                r.text.push(b'&');
                                i += 1;
                            }
                            b'&' => {
                                r.amps.push(r.text.len());
                                r.text.push(b'&');
                            }
                            c => r.text.push(c),
                        }
                        i += 1;
                    }
                }
                WordPart::Quoted(_) | WordPart::Double(_) => {
                    self.part_string(p, &mut r.text, false)?
                }
                _ => {
                    let at = r.text.len();
                    self.part_string(p, &mut r.text, false)?;
                    for (k, c) in r.text[at..].iter().enumerate() {
                        if *c == b'&' {
                            r.amps.push(at + k);
                        }
                    }
                }
            }
        }
        Ok(r)
    }

    /// Expansion without splitting or globbing (assignment values, redirect
    /// targets, case words, here-strings).
    pub fn expand_single(&mut self, w: &Word) -> R<Bytes> {
        if let [WordPart::Lit(s)] = w.parts.as_slice() {
            return Ok(s.clone());
        }
        let mut out = Vec::new();
        for p in &w.parts {
            self.part_string(p, &mut out, false)?;
        }
        Ok(out)
    }

    /// Expansion to a pattern (quoted characters escaped).
    pub fn expand_pattern(&mut self, w: &Word) -> R<Bytes> {
        let mut out = Vec::new();
        for p in &w.parts {
            self.pattern_part(p, &mut out, false)?;
        }
        Ok(out)
    }

    fn pattern_part(&mut self, p: &WordPart, out: &mut Bytes, quoted: bool) -> R<()> {
        match p {
            WordPart::Lit(s) if !quoted => out.extend_from_slice(s),
            WordPart::Lit(s) | WordPart::Quoted(s) => escape_pattern(s, out),
            WordPart::Double(parts) => {
                for q in parts {
                    self.pattern_part(q, out, true)?;
                }
            }
            other => {
                let mut v = Vec::new();
                self.part_string(other, &mut v, quoted)?;
                if quoted {
                    escape_pattern(&v, out);
                } else {
                    out.extend_from_slice(&v);
                }
            }
        }
        Ok(())
    }

    /// Append the unsplit value of a part.
    fn part_string(&mut self, p: &WordPart, out: &mut Bytes, quoted: bool) -> R<()> {
        match p {
            WordPart::Lit(s) | WordPart::Quoted(s) => out.extend_from_slice(s),
            WordPart::Double(parts) => {
                for q in parts {
                    self.part_string(q, out, true)?;
                }
            }
            WordPart::Tilde(u) => out.extend_from_slice(&self.tilde(u)),
            WordPart::Param(pa) => {
                let v = self.param(pa, quoted)?;
                if let Some(w) = &v.split {
                    out.extend_from_slice(&self.expand_single(w)?);
                } else if v.list || v.star {
                    let sep = if v.star {
                        self.ifs().first().map(|c| vec![*c]).unwrap_or_default()
                    } else {
                        vec![b' ']
                    };
                    out.extend_from_slice(&v.vals.join(&sep[..]));
                } else if let Some(s) = v.vals.into_iter().next() {
                    out.extend_from_slice(&s);
                }
            }
            WordPart::Cmd(prog, _, src) => {
                let s = self.command_subst_src(prog, src)?;
                out.extend_from_slice(&s);
            }
            WordPart::Arith(a) => {
                let n = self.eval_arith_src(a)?;
                out.extend_from_slice(n.to_string().as_bytes());
            }
            WordPart::ProcSub(w, _, src) => {
                let path = self.process_subst(*w, src)?;
                out.extend_from_slice(&path);
            }
        }
        Ok(())
    }

    fn tilde(&self, user: &[u8]) -> Bytes {
        match user {
            b"" => self.home(),
            b"+" => self.cwd(),
            b"-" => self.get_var(b"OLDPWD").unwrap_or_else(|| b"~-".to_vec()),
            b"root" => b"/root".to_vec(),
            u if !u.is_empty()
                && u.iter()
                    .skip(matches!(u[0], b'+' | b'-') as usize)
                    .all(|c| c.is_ascii_digit())
                && !(u.len() == 1 && matches!(u[0], b'+' | b'-')) =>
            {
                // ~N, ~+N, ~-N: entries of the directory stack (`dirs +N`)
                let mut all = vec![self.cwd()];
                all.extend(self.dirstack.iter().rev().cloned());
                let from_right = u[0] == b'-';
                let digits = if matches!(u[0], b'+' | b'-') {
                    &u[1..]
                } else {
                    u
                };
                let n = crate::bytes::parse_i64(digits).unwrap_or(i64::MAX) as usize;
                let at = if from_right {
                    all.len().checked_sub(n.saturating_add(1))
                } else {
                    Some(n)
                };
                match at.and_then(|i| all.get(i)) {
                    Some(d) => d.clone(),
                    None => {
                        let mut s = b"~".to_vec();
                        s.extend_from_slice(u);
                        s
                    }
                }
            }
            u => {
                if let Some(h) = self.get_var(b"USER") {
                    if h == u {
                        return self.home();
                    }
                }
                let mut s = b"~".to_vec();
                s.extend_from_slice(u);
                s
            }
        }
    }

    fn expand_fields(&mut self, w: &Word) -> R<Vec<Field>> {
        let mut acc = Acc::default();
        let ifs = self.ifs();
        for p in &w.parts {
            self.field_part(p, &mut acc, false, &ifs)?;
        }
        Ok(acc.finish())
    }

    fn field_part(&mut self, p: &WordPart, acc: &mut Acc, quoted: bool, ifs: &[u8]) -> R<()> {
        match p {
            WordPart::Lit(s) => acc.push_lit(s, quoted),
            WordPart::Quoted(s) => acc.push_lit(s, true),
            WordPart::Tilde(u) => {
                let t = self.tilde(u);
                acc.push_lit(&t, true)
            }
            WordPart::Double(parts) => {
                // "" makes a word; but "$@" / "${a[@]}" with no elements makes none,
                // so a quote made only of parameters starts the word through them
                if parts.is_empty() || !parts.iter().all(|q| matches!(q, WordPart::Param(_))) {
                    acc.cur.started = true;
                }
                for q in parts {
                    self.field_part(q, acc, true, ifs)?;
                }
            }
            WordPart::Param(pa) => {
                let v = self.param(pa, quoted)?;
                if let Some(w) = &v.split {
                    for q in &w.parts {
                        match q {
                            WordPart::Lit(s) => split_into(acc, s, ifs),
                            q => self.field_part(q, acc, false, ifs)?,
                        }
                    }
                    return Ok(());
                }
                if quoted {
                    if v.list && !v.star {
                        // "$@": one field per element
                        let n = v.vals.len();
                        if n == 0 {
                            // "$@" with no params adds nothing (and does not start a field)
                            return Ok(());
                        }
                        for (i, s) in v.vals.iter().enumerate() {
                            acc.push_lit(s, true);
                            if i + 1 < n {
                                acc.end_field();
                            }
                        }
                    } else if v.star {
                        let sep: Bytes = ifs.first().map(|c| vec![*c]).unwrap_or_default();
                        let j = v.vals.join(&sep[..]);
                        acc.push_lit(&j, true);
                    } else {
                        let s = v.vals.into_iter().next().unwrap_or_default();
                        acc.push_lit(&s, true);
                    }
                } else if v.list || v.star {
                    let n = v.vals.len();
                    for (i, s) in v.vals.iter().enumerate() {
                        split_into(acc, s, ifs);
                        if i + 1 < n && acc.cur.started {
                            acc.end_field();
                        }
                    }
                } else if let Some(s) = v.vals.into_iter().next() {
                    split_into(acc, &s, ifs);
                }
            }
            WordPart::Cmd(..) | WordPart::Arith(_) | WordPart::ProcSub(..) => {
                let mut s = Vec::new();
                self.part_string(p, &mut s, quoted)?;
                if quoted {
                    acc.push_lit(&s, true);
                } else {
                    split_into(acc, &s, ifs);
                }
            }
        }
        Ok(())
    }

    // ----- parameters -----

    fn unbound(&mut self, name: &[u8], braced: bool) -> Ctl {
        let mut m = if !braced && name.first().map(|c| c.is_ascii_digit()).unwrap_or(false) {
            b"$".to_vec()
        } else {
            Vec::new()
        };
        m.extend_from_slice(name);
        m.extend_from_slice(b": unbound variable");
        self.err(&m);
        self.expansion_fatal()
    }

    /// Arrays the shell keeps itself: PIPESTATUS and the call stack
    /// (FUNCNAME, BASH_SOURCE, BASH_LINENO, innermost first; "main" and
    /// line 0 stand for the script's top level).
    pub(crate) fn shell_array(&self, n: &[u8]) -> Option<Vec<Bytes>> {
        // once unset, FUNCNAME is an ordinary variable
        if n == b"FUNCNAME" && !self.is_dynamic(n) {
            return None;
        }
        let in_fn = !self.funcnames.is_empty();
        // the frames of function calls (a script has a frame of its own below)
        let calls = &self.frames[self.frames.len().saturating_sub(self.funcnames.len())..];
        Some(match n {
            b"PIPESTATUS" => self
                .pipestatus
                .iter()
                .map(|s| s.to_string().into_bytes())
                .collect(),
            b"FUNCNAME" if in_fn => {
                let mut v: Vec<Bytes> = self.funcnames.iter().rev().cloned().collect();
                if !self.sources.is_empty() {
                    v.push(b"main".to_vec());
                }
                v
            }
            b"FUNCNAME" => Vec::new(),
            b"BASH_SOURCE" if in_fn => {
                let mut v: Vec<Bytes> = calls.iter().rev().map(|f| f.1.clone()).collect();
                v.extend(self.sources.first().cloned());
                v
            }
            b"BASH_SOURCE" => self.sources.iter().rev().cloned().collect(),
            b"BASH_LINENO" if in_fn => {
                let mut v: Vec<Bytes> = calls
                    .iter()
                    .rev()
                    .map(|f| f.2.to_string().into_bytes())
                    .collect();
                if !self.sources.is_empty() {
                    v.push(b"0".to_vec());
                }
                v
            }
            b"BASH_LINENO" => Vec::new(),
            _ => return None,
        })
    }

    /// The parameter as bash names it in `${x?}` errors: `a[1]`, `a[@]`.
    fn param_label(p: &Param) -> Bytes {
        let mut n = Self::name_text(p);
        if let Some(ix) = &p.index {
            n.push(b'[');
            for part in &ix.parts {
                if let WordPart::Lit(t) | WordPart::Quoted(t) = part {
                    n.extend_from_slice(t);
                }
            }
            n.push(b']');
        }
        n
    }

    fn name_text(p: &Param) -> Bytes {
        match &p.name {
            ParamName::Var(n) => n.clone(),
            ParamName::Positional(n) => n.to_string().into_bytes(),
            ParamName::Special(c) => vec![*c],
        }
    }

    /// Look up the base value(s) of a parameter (handles indirection and subscripts).
    fn lookup(&mut self, name: &ParamName, index: Option<&Word>) -> R<PVal> {
        let one = |v: Option<Bytes>| PVal {
            set: v.is_some(),
            vals: v.into_iter().collect(),
            list: false,
            star: false,
            split: None,
        };
        Ok(match name {
            ParamName::Positional(n) => one(if *n == 0 {
                Some(self.arg0.clone())
            } else {
                self.positional.get(n - 1).cloned()
            }),
            ParamName::Special(c) => match c {
                b'@' | b'*' => PVal {
                    vals: self.positional.clone(),
                    list: true,
                    star: *c == b'*',
                    set: !self.positional.is_empty(),
                    split: None,
                },
                b'#' => one(Some(self.positional.len().to_string().into_bytes())),
                b'?' => one(Some(self.status.to_string().into_bytes())),
                b'-' => one(Some(self.opts.dash(self.c_mode))),
                b'$' => one(Some(self.pid.to_string().into_bytes())),
                b'!' => one(if self.last_bg == 0 {
                    None
                } else {
                    Some(self.last_bg.to_string().into_bytes())
                }),
                b'0' => one(Some(self.arg0.clone())),
                _ => one(None),
            },
            ParamName::Var(n)
                if self
                    .vars
                    .get_raw(n)
                    .map_or(false, |v| v.attrs & A_NAMEREF != 0) =>
            {
                match self.vars.resolve(n) {
                    Resolved::Name(t) if &t != n => self.lookup(&ParamName::Var(t), index)?,
                    Resolved::Element(t) if index.is_none() => {
                        let open = t.iter().position(|c| *c == b'[').unwrap_or(0);
                        let ix = Word::lit(&t[open + 1..t.len().saturating_sub(1)]);
                        self.lookup(&ParamName::Var(t[..open].to_vec()), Some(&ix))?
                    }
                    Resolved::Circular => {
                        self.circular_ref_warning(n);
                        one(None)
                    }
                    _ => one(self
                        .vars
                        .get_raw(n)
                        .and_then(|v| v.value.as_ref())
                        .map(|v| v.scalar())),
                }
            }
            ParamName::Var(n) => {
                if let Some(ix) = index {
                    let plain = ix.as_plain().map(|s| s.to_vec());
                    if plain.as_deref() == Some(b"@") || plain.as_deref() == Some(b"*") {
                        let star = plain.as_deref() == Some(b"*");
                        let vals = match self.shell_array(n) {
                            Some(v) => v,
                            None => match self.vars.get(n).and_then(|v| v.value.as_ref()) {
                                Some(v) => v.values(),
                                None => Vec::new(),
                            },
                        };
                        let set = !vals.is_empty();
                        return Ok(PVal {
                            vals,
                            list: true,
                            star,
                            set,
                            split: None,
                        });
                    }
                    let special = self.shell_array(n);
                    let is_assoc = self
                        .vars
                        .get(n)
                        .map(|v| v.attrs & A_ASSOC != 0 || matches!(v.value, Some(Value::Assoc(_))))
                        .unwrap_or(false);
                    if is_assoc {
                        let key = self.expand_single(ix)?;
                        let v = match self.vars.get(n).and_then(|v| v.value.as_ref()) {
                            Some(Value::Assoc(m)) => m.get(&key).cloned(),
                            _ => None,
                        };
                        return Ok(one(v));
                    }
                    let text = self.expand_single(ix)?;
                    let mut i = self.eval_arith_text(&text)?;
                    if let Some(list) = special {
                        let len = list.len() as i64;
                        if i < 0 {
                            i += len;
                        }
                        return Ok(one(if i >= 0 {
                            list.get(i as usize).cloned()
                        } else {
                            None
                        }));
                    }
                    if i < 0 {
                        let last = match self.vars.get(n).and_then(|v| v.value.as_ref()) {
                            Some(Value::Arr(m)) => m.keys().next_back().map(|k| k + 1).unwrap_or(0),
                            Some(_) => 1,
                            None => 0,
                        };
                        i += last;
                        if i < 0 {
                            let mut m = n.clone();
                            m.extend_from_slice(b": bad array subscript");
                            self.err(&m);
                            return Ok(one(None));
                        }
                    }
                    return Ok(one(self.array_get(n, i)));
                }
                if n == b"RANDOM" && self.is_dynamic(n) {
                    let r = self.next_random();
                    return Ok(one(Some(r.to_string().into_bytes())));
                }
                if let Some(v) = self.shell_array(n) {
                    return Ok(one(v.into_iter().next()));
                }
                one(self.get_var(n))
            }
        })
    }

    /// `${#s}`, `${s:o:n}`, `${s^^}`, `${s//a/b}`, `${s#p}` on a plain scalar
    /// variable: work on the stored value in place instead of copying it first,
    /// so string loops over a long value do not copy it on every step. None
    /// when the general path is needed (arrays, specials, indirection, errors).
    fn param_scalar_fast(&mut self, p: &Param) -> R<Option<PVal>> {
        let name = match &p.name {
            ParamName::Var(n) if !p.indirect && p.index.is_none() => n,
            _ => return Ok(None),
        };
        if name == b"_" || self.is_dynamic(name) {
            return Ok(None);
        }
        let is_str = |sh: &Self| {
            matches!(
                sh.vars.get(name).and_then(|v| v.value.as_ref()),
                Some(Value::Str(_))
            )
        };
        if !is_str(self) {
            return Ok(None);
        }
        enum Op {
            Len,
            Sub(i64, Option<i64>),
            Case(Bytes, u8, bool),
            Rep(Bytes, Replacement, bool, u8, MatchMode),
            Rem(Bytes, bool, bool, MatchMode),
        }
        // operands first: evaluating them needs the whole shell
        let op = if p.length {
            if !matches!(p.op, ParamOp::None) {
                return Ok(None);
            }
            Op::Len
        } else {
            match &p.op {
                ParamOp::Substr { off, len } => {
                    let ot = self.expand_single(off)?;
                    let o = self.eval_arith_text(&ot)?;
                    let l = match len {
                        Some(l) => {
                            let lt = self.expand_single(l)?;
                            Some(self.eval_arith_text(&lt)?)
                        }
                        None => None,
                    };
                    Op::Sub(o, l)
                }
                ParamOp::Case {
                    upper,
                    toggle,
                    all,
                    pat,
                } => {
                    let pt = if pat.parts.is_empty() {
                        b"?".to_vec()
                    } else {
                        self.expand_pattern(pat)?
                    };
                    Op::Case(pt, if *toggle { b'~' } else { *upper as u8 }, *all)
                }
                ParamOp::Replace {
                    all,
                    anchor,
                    pat,
                    rep,
                } => {
                    let pt = self.expand_pattern(pat)?;
                    let r = self.expand_replacement(rep)?;
                    Op::Rep(pt, r, *all, *anchor, self.match_mode())
                }
                ParamOp::Remove {
                    suffix,
                    longest,
                    pat,
                } => {
                    let pt = self.expand_pattern(pat)?;
                    Op::Rem(pt, *suffix, *longest, self.match_mode())
                }
                _ => return Ok(None),
            }
        };
        let s: &[u8] = match self.vars.get(name).and_then(|v| v.value.as_ref()) {
            Some(Value::Str(s)) => s,
            // the operands changed the variable's kind: take the general path's view
            _ => return Ok(None),
        };
        let out = match op {
            Op::Len => char_len(s).to_string().into_bytes(),
            Op::Sub(o, l) => {
                if !s.is_ascii() {
                    // character offsets: the general path handles it
                    return Ok(None);
                }
                let n = s.len() as i64;
                let o = if o < 0 { o + n } else { o };
                if o < 0 {
                    Vec::new()
                } else {
                    let o = o.min(n);
                    let e = match l {
                        Some(l) if l < 0 => {
                            if n + l < o {
                                // an error message: the general path prints it
                                return Ok(None);
                            }
                            n + l
                        }
                        Some(l) => o.saturating_add(l).min(n),
                        None => n,
                    };
                    s[o as usize..e as usize].to_vec()
                }
            }
            Op::Case(pt, upper, all) => case_change(s, &pt, upper, all),
            Op::Rep(pt, r, all, anchor, mode) => replace_match(s, &pt, &r, all, anchor, mode),
            Op::Rem(pt, suffix, longest, mode) => remove_match(s, &pt, suffix, longest, mode),
        };
        Ok(Some(PVal {
            vals: vec![out],
            list: false,
            star: false,
            set: true,
            split: None,
        }))
    }

    fn param(&mut self, p: &Param, quoted: bool) -> R<PVal> {
        if let ParamOp::Transform(0) = p.op {
            if let ParamName::Var(text) = &p.name {
                let mut m = text.clone();
                m.extend_from_slice(b": bad substitution");
                self.err(&m);
            }
            return Err(Ctl::Abort(1));
        }
        match &p.op {
            ParamOp::Names(star) => {
                let pre = match &p.name {
                    ParamName::Var(n) => n.clone(),
                    _ => Vec::new(),
                };
                let vals: Vec<Bytes> = self
                    .vars
                    .names()
                    .into_iter()
                    .filter(|n| n.starts_with(&pre) && self.var_is_set(n))
                    .collect();
                return Ok(PVal {
                    set: true,
                    vals,
                    list: true,
                    star: *star,
                    split: None,
                });
            }
            ParamOp::Keys(star) => {
                let n = Self::name_text(p);
                let vals = match self.vars.get(&n).and_then(|v| v.value.as_ref()) {
                    Some(Value::Arr(m)) => m.keys().map(|k| k.to_string().into_bytes()).collect(),
                    Some(Value::Assoc(m)) => m.keys().cloned().collect(),
                    Some(Value::Str(_)) => vec![b"0".to_vec()],
                    None => Vec::new(),
                };
                return Ok(PVal {
                    set: true,
                    vals,
                    list: true,
                    star: *star,
                    split: None,
                });
            }
            _ => {}
        }
        if let Some(v) = self.param_scalar_fast(p)? {
            return Ok(v);
        }
        let nameref = match &p.name {
            ParamName::Var(n) if p.indirect && p.index.is_none() => self
                .vars
                .get_raw(n)
                .filter(|v| v.attrs & A_NAMEREF != 0)
                .and_then(|v| v.value.as_ref())
                .map(|v| v.scalar()),
            _ => None,
        };
        let mut v = if let Some(t) = nameref {
            // `${!ref}` on a nameref: the name it points at
            PVal {
                vals: vec![t],
                list: false,
                star: false,
                set: true,
                split: None,
            }
        } else if p.indirect {
            let target = self.lookup(&p.name, p.index.as_ref())?;
            let t = target.vals.into_iter().next().unwrap_or_default();
            if t.is_empty() && !target.set {
                // bash 5.2: an unset reference is an error, whatever the operator
                let mut m = Self::name_text(p);
                m.extend_from_slice(b": invalid indirect expansion");
                self.err(&m);
                return Err(Ctl::Abort(1));
            }
            {
                // target may be `name`, `name[idx]`, a positional or special
                let w = crate::parse::Parser::parse_all(
                    &{
                        let mut s = b"${".to_vec();
                        s.extend_from_slice(&t);
                        s.push(b'}');
                        s
                    },
                    self.lineno,
                );
                match w.ok().and_then(|prog| first_param(&prog)) {
                    Some(inner) => self.lookup(&inner.name, inner.index.as_ref())?,
                    None => {
                        let mut m = t;
                        m.extend_from_slice(b": invalid variable name");
                        self.err(&m);
                        return Err(Ctl::Abort(1));
                    }
                }
            }
        } else {
            self.lookup(&p.name, p.index.as_ref())?
        };
        if p.length {
            if v.list {
                return Ok(PVal {
                    vals: vec![v.vals.len().to_string().into_bytes()],
                    list: false,
                    star: false,
                    set: true,
                    split: None,
                });
            }
            if !v.set && self.opts.nounset {
                let n = Self::name_text(p);
                return Err(self.unbound(&n, p.braced));
            }
            let s = v.vals.into_iter().next().unwrap_or_default();
            let n = char_len(&s);
            return Ok(PVal {
                vals: vec![n.to_string().into_bytes()],
                list: false,
                star: false,
                set: true,
                split: None,
            });
        }
        match &p.op {
            ParamOp::None => {}
            ParamOp::Default { colon, kind, word } => {
                // a list is null when its words joined (by a space for `@`,
                // IFS's first character for `*`) are: ('' '') is not
                let star_joins_empty = v.star && self.ifs().is_empty();
                let empty = !v.set
                    || (*colon
                        && (v.vals.is_empty()
                            || (v.vals.len() == 1 && v.vals[0].is_empty())
                            || (v.list
                                && star_joins_empty
                                && v.vals.iter().all(|x| x.is_empty()))));
                let use_word = match kind {
                    b'+' => !empty,
                    _ => empty,
                };
                match kind {
                    b'-' | b'+' => {
                        if use_word {
                            if quoted {
                                let s = self.expand_single(word)?;
                                return Ok(PVal {
                                    vals: vec![s],
                                    list: false,
                                    star: false,
                                    set: true,
                                    split: None,
                                });
                            }
                            return Ok(PVal {
                                list: false,
                                vals: Vec::new(),
                                star: false,
                                set: true,
                                split: Some(word.clone()),
                            });
                        } else if *kind == b'+' {
                            return Ok(PVal {
                                vals: vec![],
                                list: false,
                                star: false,
                                set: false,
                                split: None,
                            });
                        }
                    }
                    b'=' => {
                        if use_word {
                            let s = self.expand_single(word)?;
                            let whole = p
                                .index
                                .as_ref()
                                .and_then(|w| w.as_plain())
                                .map_or(false, |t| t == b"@" || t == b"*");
                            match &p.name {
                                ParamName::Var(_) if whole => {
                                    let mut m = Self::param_label(p);
                                    m.extend_from_slice(b": bad array subscript");
                                    self.err(&m);
                                    return Err(Ctl::Abort(1));
                                }
                                ParamName::Var(n) => {
                                    self.assign_scalar(n, p.index.as_ref(), s.clone(), false)?;
                                }
                                _ => {
                                    let mut m = b"$".to_vec();
                                    m.extend_from_slice(&Self::name_text(p));
                                    m.extend_from_slice(b": cannot assign in this way");
                                    self.err(&m);
                                    return Err(Ctl::Abort(1));
                                }
                            }
                            return Ok(PVal {
                                vals: vec![s],
                                list: false,
                                star: false,
                                set: true,
                                split: None,
                            });
                        }
                    }
                    _ => {
                        if use_word {
                            let s = self.expand_single(word)?;
                            let mut m = Self::param_label(p);
                            if s.is_empty() && *colon {
                                m.extend_from_slice(b": parameter null or not set");
                            } else if s.is_empty() {
                                m.extend_from_slice(b": parameter not set");
                            } else {
                                m.extend_from_slice(b": ");
                                m.extend_from_slice(&s);
                            }
                            self.err(&m);
                            return Err(self.expansion_fatal());
                        }
                    }
                }
            }
            _ => {}
        }
        if !v.set && self.opts.nounset && !matches!(p.op, ParamOp::Default { .. }) {
            let special_ok =
                v.list || matches!(p.name, ParamName::Special(b'@') | ParamName::Special(b'*'));
            if !special_ok {
                // an indirect reference is named as written: `!x`
                let mut n = if p.indirect {
                    b"!".to_vec()
                } else {
                    Vec::new()
                };
                n.extend_from_slice(&Self::name_text(p));
                if let Some(ix) = &p.index {
                    if let Some(t) = ix.as_plain() {
                        n.push(b'[');
                        n.extend_from_slice(t);
                        n.push(b']');
                    }
                }
                return Err(self.unbound(&n, p.braced));
            }
        }
        match &p.op {
            ParamOp::Remove {
                suffix,
                longest,
                pat,
            } => {
                let pt = self.expand_pattern(pat)?;
                let mode = self.match_mode();
                for s in v.vals.iter_mut() {
                    *s = remove_match(s, &pt, *suffix, *longest, mode);
                }
            }
            ParamOp::Replace {
                all,
                anchor,
                pat,
                rep,
            } => {
                let pt = self.expand_pattern(pat)?;
                let r = self.expand_replacement(rep)?;
                let mode = self.match_mode();
                for s in v.vals.iter_mut() {
                    *s = replace_match(s, &pt, &r, *all, *anchor, mode);
                }
            }
            ParamOp::Case {
                upper,
                toggle,
                all,
                pat,
            } => {
                let pt = if pat.parts.is_empty() {
                    b"?".to_vec()
                } else {
                    self.expand_pattern(pat)?
                };
                let to = if *toggle { b'~' } else { *upper as u8 };
                for s in v.vals.iter_mut() {
                    *s = case_change(s, &pt, to, *all);
                }
            }
            ParamOp::Substr { off, len } => {
                // an unset variable's offset and length are not evaluated
                if !v.set && !v.list {
                    return Ok(v);
                }
                let ot = self.expand_single(off)?;
                let o = self.eval_arith_text(&ot)?;
                let l = match len {
                    Some(l) => {
                        let lt = self.expand_single(l)?;
                        Some(self.eval_arith_text(&lt)?)
                    }
                    None => None,
                };
                if v.list {
                    // positional/array slicing
                    let is_pos = matches!(p.name, ParamName::Special(_));
                    if !is_pos && !p.indirect {
                        // an indexed array's offset is an index: sparse arrays skip holes
                        let keys: Option<Vec<i64>> = match self
                            .vars
                            .get(&Self::name_text(p))
                            .and_then(|x| x.value.as_ref())
                        {
                            Some(Value::Arr(m)) => Some(m.keys().copied().collect()),
                            _ => None,
                        };
                        if let Some(keys) = keys.filter(|k| k.len() == v.vals.len()) {
                            let top = keys.last().map_or(0, |k| k + 1);
                            let o = if o < 0 { o + top } else { o };
                            if let Some(l) = l.filter(|l| *l < 0) {
                                self.err(format!("{}: substring expression < 0", l).as_bytes());
                                return Err(Ctl::Abort(1));
                            }
                            v.vals = if o < 0 {
                                vec![]
                            } else {
                                let take = l.map_or(usize::MAX, |l| l as usize);
                                keys.iter()
                                    .zip(v.vals.iter())
                                    .filter(|(k, _)| **k >= o)
                                    .take(take)
                                    .map(|(_, x)| x.clone())
                                    .collect()
                            };
                            return Ok(v);
                        }
                    }
                    let mut items = v.vals.clone();
                    let mut o = o;
                    if is_pos {
                        items.insert(0, self.arg0.clone());
                    }
                    let n = items.len() as i64;
                    if o < 0 {
                        o += n;
                        if o < 0 {
                            v.vals = vec![];
                            return Ok(v);
                        }
                    }
                    let end = match l {
                        Some(l) if l < 0 => {
                            let mut m = Vec::new();
                            m.extend_from_slice(
                                format!("{}: substring expression < 0", l).as_bytes(),
                            );
                            self.err(&m);
                            return Err(Ctl::Abort(1));
                        }
                        Some(l) => (o + l).min(n),
                        None => n,
                    };
                    v.vals = if o >= n {
                        vec![]
                    } else {
                        items[o as usize..end.max(o) as usize].to_vec()
                    };
                } else {
                    for s in v.vals.iter_mut() {
                        if s.is_ascii() {
                            // fast path: byte offsets are character offsets
                            let n = s.len() as i64;
                            let mut o = o;
                            if o < 0 {
                                o += n;
                                if o < 0 {
                                    *s = Vec::new();
                                    continue;
                                }
                            }
                            let o = o.min(n);
                            let e = match l {
                                Some(l) if l < 0 => {
                                    if n + l < o {
                                        let mut m = Vec::new();
                                        m.extend_from_slice(
                                            format!("{}: substring expression < 0", l).as_bytes(),
                                        );
                                        self.err(&m);
                                        return Err(Ctl::Abort(1));
                                    }
                                    n + l
                                }
                                Some(l) => (o + l).min(n),
                                None => n,
                            };
                            *s = s[o as usize..e as usize].to_vec();
                            continue;
                        }
                        let chars = char_bounds(s);
                        let n = chars.len() as i64 - 1;
                        let mut o = o;
                        if o < 0 {
                            o += n;
                            if o < 0 {
                                *s = Vec::new();
                                continue;
                            }
                        }
                        let o = o.min(n);
                        let e = match l {
                            Some(l) if l < 0 => {
                                let e = n + l;
                                if e < o {
                                    let mut m = Vec::new();
                                    m.extend_from_slice(
                                        format!("{}: substring expression < 0", l).as_bytes(),
                                    );
                                    self.err(&m);
                                    return Err(Ctl::Abort(1));
                                }
                                e
                            }
                            Some(l) => (o + l).min(n),
                            None => n,
                        };
                        *s = s[chars[o as usize]..chars[e as usize]].to_vec();
                    }
                }
            }
            ParamOp::Transform(t @ (b'K' | b'k' | b'A'))
                if matches!(p.name, ParamName::Var(_)) && !p.indirect =>
            {
                let n = Self::name_text(p);
                let whole = p
                    .index
                    .as_ref()
                    .and_then(|i| i.as_plain())
                    .map_or(false, |i| i == b"@" || i == b"*");
                let at = p.index.as_ref().and_then(|i| i.as_plain()) == Some(&b"@"[..]);
                v = self.transform_whole(&n, *t, whole, v);
                if *t == b'A' && at && v.vals.len() == 1 {
                    // "${a[@]@A}": the words `declare`, `-a`, `a=(...)`
                    let line = v.vals.pop().unwrap_or_default();
                    let mut words = line.splitn(3, |c| *c == b' ');
                    v.vals = words.by_ref().map(|w| w.to_vec()).collect();
                    v.list = true;
                }
            }
            ParamOp::Transform(t @ (b'K' | b'k' | b'A'))
                if matches!(p.name, ParamName::Special(b'@' | b'*')) =>
            {
                for s in v.vals.iter_mut() {
                    *s = crate::builtins::quote_q(s);
                }
                if *t == b'A' {
                    // the positional parameters as the `set` command that makes them
                    v.vals.splice(0..0, [b"set".to_vec(), b"--".to_vec()]);
                }
            }
            ParamOp::Transform(t) => {
                for s in v.vals.iter_mut() {
                    *s = match t {
                        b'Q' => crate::builtins::quote_q(s),
                        b'U' => case_change(s, b"?", 1, true),
                        b'L' => case_change(s, b"?", 0, true),
                        b'u' => case_change(s, b"?", 1, false),
                        b'E' => crate::parse::Parser::ansi_c_unescape(s),
                        b'P' => self.prompt_expand(s),
                        b'a' => {
                            let n = Self::name_text(p);
                            let a = self.vars.get(&n).map(|v| v.attrs).unwrap_or(0);
                            crate::builtins::vars::attr_letters(
                                a,
                                &self.vars.get(&n).and_then(|v| v.value.clone()),
                            )
                        }
                        b'A' => {
                            let mut o = Self::name_text(p);
                            o.push(b'=');
                            o.extend_from_slice(&crate::builtins::quote_q(s));
                            o
                        }
                        _ => s.clone(),
                    };
                }
                if v.vals.is_empty() && *t == b'a' {
                    let n = Self::name_text(p);
                    if let Some(var) = self.vars.get(&n) {
                        v.vals = vec![crate::builtins::vars::attr_letters(var.attrs, &var.value)];
                    }
                }
            }
            _ => {}
        }
        Ok(v)
    }

    /// `${a[@]@K}`, `${a[@]@k}`, `${a@A}`...: transforms that look at the
    /// variable as a whole (its keys, its attributes).
    fn transform_whole(&self, n: &[u8], t: u8, whole: bool, mut v: PVal) -> PVal {
        use crate::builtins::{quote_dq, quote_key, quote_q};
        let var = match self.vars.get(n) {
            Some(var) => var,
            None => return v,
        };
        if t == b'A' && !whole && v.vals.is_empty() {
            // a declared variable without this element: its attributes alone
            let letters = crate::builtins::vars::attr_letters(var.attrs, &var.value);
            if !letters.is_empty() {
                let mut o = b"declare -".to_vec();
                o.extend_from_slice(&letters);
                o.push(b' ');
                o.extend_from_slice(n);
                v.vals = vec![o];
                v.set = true;
            }
            return v;
        }
        if var.value.is_none() {
            return v;
        }
        let pairs: Option<Vec<(Bytes, Bytes)>> = match &var.value {
            Some(Value::Arr(m)) if whole => Some(
                m.iter()
                    .map(|(k, x)| (k.to_string().into_bytes(), x.clone()))
                    .collect(),
            ),
            Some(Value::Assoc(m)) if whole => {
                Some(m.iter().map(|(k, x)| (k.clone(), x.clone())).collect())
            }
            _ => None,
        };
        match (t, pairs) {
            (b'A', Some(_)) => {
                let mut l = self.declare_line(n, var);
                l.pop();
                v.vals = vec![l];
                v.list = false;
            }
            (b'A', None) => {
                let letters = crate::builtins::vars::attr_letters(var.attrs, &var.value);
                for s in v.vals.iter_mut() {
                    let mut o = Vec::new();
                    if !letters.is_empty() {
                        o.extend_from_slice(b"declare -");
                        o.extend_from_slice(&letters);
                        o.push(b' ');
                    }
                    o.extend_from_slice(n);
                    o.push(b'=');
                    o.extend_from_slice(&quote_q(s));
                    *s = o;
                }
            }
            (b'K', Some(pairs)) => {
                let assoc = matches!(var.value, Some(Value::Assoc(_)));
                let mut o = Vec::new();
                for (i, (k, x)) in pairs.iter().enumerate() {
                    if i > 0 {
                        o.push(b' ');
                    }
                    o.extend_from_slice(&if assoc { quote_key(k) } else { k.clone() });
                    o.push(b' ');
                    o.extend_from_slice(&quote_dq(x));
                }
                if assoc && !pairs.is_empty() {
                    o.push(b' ');
                }
                v.vals = vec![o];
                v.list = false;
            }
            (_, Some(pairs)) => {
                v.vals = pairs.into_iter().flat_map(|(k, x)| [k, x]).collect();
                v.list = true;
            }
            (_, None) => {
                for s in v.vals.iter_mut() {
                    *s = quote_q(s);
                }
            }
        }
        v
    }

    pub fn match_mode(&self) -> MatchMode {
        MatchMode {
            nocase: self.opts.nocasematch,
            extglob: true,
            dotglob: true,
        }
    }

    /// Expand, parse and evaluate arithmetic text.
    pub fn eval_arith_text(&mut self, text: &[u8]) -> R<i64> {
        if let Some(n) = crate::bytes::parse_i64(text) {
            let digits = text.strip_prefix(b"-").unwrap_or(text);
            // A leading 0 means octal (and 08 is an error): not for the fast path.
            let octal = digits.len() > 1 && digits[0] == b'0';
            if !text.is_empty() && text[0] != b'+' && !text.starts_with(b" ") && !octal {
                return Ok(n);
            }
        }
        let unq: Bytes;
        // `let` sees its argument after quote removal: quotes left are an error
        let text = if text.contains(&b'"') && self.arith_ctx != Some("let") {
            unq = text.iter().copied().filter(|c| *c != b'"').collect();
            &unq[..]
        } else {
            text
        };
        match crate::parse::parse_arith(text) {
            Ok(e) => self.arith(&e, text),
            Err(e) => {
                // For a bad number bash quotes the expression up to that
                // number (the parser stops at the first), otherwise all of it.
                let number = e.msg.contains("base") || e.msg.contains("number");
                let at = text
                    .windows(e.token.len().max(1))
                    .position(|w| w == e.token.as_slice());
                let shown = match at {
                    Some(p) if number && !e.token.is_empty() => &text[..p + e.token.len()],
                    _ => text,
                };
                self.arith_error(shown, &e.msg, &e.token);
                Err(Ctl::Abort(1))
            }
        }
    }

    pub fn arith_error(&mut self, text: &[u8], msg: &str, tok: &[u8]) {
        let mut m = text.to_vec();
        let trimmed: &[u8] = {
            let mut t: &[u8] = &m;
            while t.first() == Some(&b' ') {
                t = &t[1..];
            }
            t
        };
        m = trimmed.to_vec();
        if let Some(cmd) = self.arith_ctx {
            let mut p = cmd.as_bytes().to_vec();
            p.extend_from_slice(b": ");
            p.extend_from_slice(&m);
            m = p;
        }
        m.extend_from_slice(b": ");
        m.extend_from_slice(msg.as_bytes());
        m.extend_from_slice(b" (error token is \"");
        m.extend_from_slice(tok);
        m.extend_from_slice(b"\")");
        self.err(&m);
    }

    /// `eval_arith_src` with errors named after the command (`((`, `[[`).
    pub fn eval_arith_src_in(&mut self, cmd: &'static str, a: &ArithSrc) -> R<i64> {
        let outer = self.arith_ctx.replace(cmd);
        let r = self.eval_arith_src(a);
        self.arith_ctx = outer;
        r
    }

    pub fn eval_arith_src(&mut self, a: &ArithSrc) -> R<i64> {
        if let Some(e) = &a.cached {
            let e = e.clone();
            let text = match a.word.parts.as_slice() {
                [WordPart::Lit(s)] | [WordPart::Quoted(s)] => s.clone(),
                _ => Vec::new(),
            };
            return self.arith(&e, &text);
        }
        let text = self.expand_single(&a.word)?;
        self.eval_arith_text(&text)
    }
}

fn first_param(prog: &Program) -> Option<Param> {
    let item = prog.items.first()?;
    if let Command::Simple(s) = item.and_or.first.cmds.first()? {
        if let Some(WordPart::Param(p)) = s.words.first()?.parts.first() {
            if let ParamOp::None = p.op {
                return Some((**p).clone());
            }
        }
    }
    None
}

/// Split an unquoted expansion result into the accumulator by IFS.
fn split_into(acc: &mut Acc, v: &[u8], ifs: &[u8]) {
    if ifs.is_empty() {
        if !v.is_empty() {
            acc.push_lit(v, false);
        }
        return;
    }
    let is_ws = |c: u8| matches!(c, b' ' | b'\t' | b'\n') && ifs.contains(&c);
    let mut i = 0;
    let n = v.len();
    while i < n {
        let c = v[i];
        if ifs.contains(&c) {
            let mut j = i;
            while j < n && is_ws(v[j]) {
                j += 1;
            }
            let mut nonws = false;
            if j < n && ifs.contains(&v[j]) && !is_ws(v[j]) {
                nonws = true;
                j += 1;
                while j < n && is_ws(v[j]) {
                    j += 1;
                }
            }
            if acc.cur.started || nonws {
                acc.end_field();
            }
            i = j;
        } else {
            let s = i;
            while i < n && !ifs.contains(&v[i]) {
                i += 1;
            }
            acc.push_lit(&v[s..i], false);
        }
    }
}

/// Whether the locale (LC_ALL, LC_CTYPE, LANG) has single-byte characters
/// (C/POSIX): lengths, offsets and `?` then count bytes, as bash does.
static BYTE_CHARS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

pub fn set_byte_chars(on: bool) {
    BYTE_CHARS.store(on, std::sync::atomic::Ordering::Relaxed);
}

pub fn byte_chars() -> bool {
    BYTE_CHARS.load(std::sync::atomic::Ordering::Relaxed)
}

/// Byte offsets of character starts (UTF-8 aware; invalid bytes count as one), plus the end.
pub fn char_bounds(s: &[u8]) -> Vec<usize> {
    if s.is_ascii() || byte_chars() {
        return (0..=s.len()).collect();
    }
    let mut v = Vec::with_capacity(s.len() + 1);
    let mut i = 0;
    while i < s.len() {
        v.push(i);
        i += utf8_len(s, i);
    }
    v.push(s.len());
    v
}

pub fn utf8_len(s: &[u8], i: usize) -> usize {
    let c = s[i];
    if c < 0x80 || byte_chars() {
        return 1;
    }
    let n = if c < 0x80 {
        1
    } else if c >> 5 == 6 {
        2
    } else if c >> 4 == 14 {
        3
    } else if c >> 3 == 30 {
        4
    } else {
        1
    };
    if i + n > s.len() || s[i + 1..i + n].iter().any(|b| b >> 6 != 2) {
        1
    } else {
        n
    }
}

pub fn char_len(s: &[u8]) -> usize {
    if s.is_ascii() || byte_chars() {
        return s.len();
    }
    let (mut i, mut n) = (0, 0);
    while i < s.len() {
        i += utf8_len(s, i);
        n += 1;
    }
    n
}

/// Whether byte offset p of s starts a character (or is the end); None
/// stands for "every offset" (ASCII text).
fn boundaries(s: &[u8]) -> Option<Vec<bool>> {
    if s.is_ascii() {
        return None;
    }
    let mut v = vec![false; s.len() + 1];
    for k in char_bounds(s) {
        v[k] = true;
    }
    Some(v)
}

fn remove_match(s: &[u8], pat: &[u8], suffix: bool, longest: bool, mode: MatchMode) -> Bytes {
    if let Some(sc) = Scan::new(pat, mode) {
        let bset = boundaries(s);
        let isb = |p: usize| bset.as_ref().map(|v| v[p]).unwrap_or(true);
        if !suffix {
            let e = sc.ends(s, 0, &isb, !longest);
            return match if longest { e.last } else { e.first } {
                Some(k) => s[k..].to_vec(),
                None => s.to_vec(),
            };
        }
        let b = char_bounds(s);
        let at_end = |p: usize| p == s.len();
        let found = if longest {
            b.iter()
                .copied()
                .find(|&k| sc.ends(s, k, &at_end, true).first.is_some())
        } else {
            b.iter()
                .rev()
                .copied()
                .find(|&k| sc.ends(s, k, &at_end, true).first.is_some())
        };
        return match found {
            Some(k) => s[..k].to_vec(),
            None => s.to_vec(),
        };
    }
    let b = char_bounds(s);
    let n = b.len();
    if !suffix {
        let it: Box<dyn Iterator<Item = usize>> = if longest {
            Box::new((0..n).rev())
        } else {
            Box::new(0..n)
        };
        for k in it {
            if pat_match(pat, &s[..b[k]], mode) {
                return s[b[k]..].to_vec();
            }
        }
    } else {
        let it: Box<dyn Iterator<Item = usize>> = if longest {
            Box::new(0..n)
        } else {
            Box::new((0..n).rev())
        };
        for k in it {
            if pat_match(pat, &s[b[k]..], mode) {
                return s[..b[k]].to_vec();
            }
        }
    }
    s.to_vec()
}

/// The longest match of pat starting at byte offset start, as its end offset
/// (start itself for an empty match), or None.
fn longest_at(
    s: &[u8],
    start: usize,
    pat: &[u8],
    scan: Option<&Scan>,
    lit: Option<&[u8]>,
    b: &[usize],
    mode: MatchMode,
) -> Option<usize> {
    if let Some(l) = lit {
        let end = start + l.len();
        let hit = end <= s.len()
            && s[start..end].iter().zip(l).all(|(a, c)| {
                if mode.nocase {
                    a.eq_ignore_ascii_case(c)
                } else {
                    a == c
                }
            });
        return if hit && b.binary_search(&end).is_ok() {
            Some(end)
        } else {
            None
        };
    }
    if let Some(sc) = scan {
        let isb = |p: usize| b.binary_search(&p).is_ok();
        return sc.ends(s, start, &isb, false).last;
    }
    let i = b.binary_search(&start).ok()?;
    (i..b.len())
        .rev()
        .find(|&k| pat_match(pat, &s[start..b[k]], mode))
        .map(|k| b[k])
}

/// Replacement text whose `amps` positions stand for the matched text.
pub struct Replacement {
    text: Bytes,
    amps: Vec<usize>,
}

impl Replacement {
    fn put(&self, out: &mut Bytes, matched: &[u8]) {
        let mut from = 0;
        for &a in &self.amps {
            out.extend_from_slice(&self.text[from..a]);
            out.extend_from_slice(matched);
            from = a + 1;
        }
        out.extend_from_slice(&self.text[from..]);
    }
}

fn replace_match(
    s: &[u8],
    pat: &[u8],
    rep: &Replacement,
    all: bool,
    anchor: u8,
    mode: MatchMode,
) -> Bytes {
    let b = char_bounds(s);
    let n = b.len();
    let mut out = Vec::with_capacity(s.len());
    if pat.is_empty() {
        match anchor {
            b'#' => {
                rep.put(&mut out, b"");
                out.extend_from_slice(s);
            }
            b'%' => {
                out.extend_from_slice(s);
                rep.put(&mut out, b"");
            }
            _ => out.extend_from_slice(s),
        }
        return out;
    }
    let scan = Scan::new(pat, mode);
    let lit = scan.as_ref().and_then(|sc| sc.literal());
    let longest = |start: usize| longest_at(s, start, pat, scan.as_ref(), lit.as_deref(), &b, mode);
    match anchor {
        b'#' => match longest(0) {
            Some(k) => {
                rep.put(&mut out, &s[..k]);
                out.extend_from_slice(&s[k..]);
                out
            }
            None => s.to_vec(),
        },
        b'%' => {
            for &k in &b {
                let whole = match &scan {
                    Some(sc) => sc.ends(s, k, &|p| p == s.len(), true).first.is_some(),
                    None => pat_match(pat, &s[k..], mode),
                };
                if whole {
                    out.extend_from_slice(&s[..k]);
                    rep.put(&mut out, &s[k..]);
                    return out;
                }
            }
            s.to_vec()
        }
        _ => {
            let mut i = 0;
            let mut done = false;
            while i < n - 1 {
                let matched = if done {
                    None
                } else {
                    longest(b[i]).filter(|&e| e > b[i])
                };
                match matched {
                    Some(e) => {
                        rep.put(&mut out, &s[b[i]..e]);
                        // e is a character start (or the end) by construction.
                        i = b.binary_search(&e).unwrap_or(n - 1);
                        if !all {
                            done = true;
                        }
                    }
                    None => {
                        if done {
                            // Nothing more to replace: copy the rest at once.
                            out.extend_from_slice(&s[b[i]..]);
                            break;
                        }
                        out.extend_from_slice(&s[b[i]..b[i + 1]]);
                        i += 1;
                    }
                }
            }
            out
        }
    }
}

/// `to`: 1 upper, 0 lower, b'~' swap.
fn case_change(s: &[u8], pat: &[u8], to: u8, all: bool) -> Bytes {
    if pat == b"?" && s.is_ascii() {
        // the common `${s^^}` / `${s,}`: no per-character pattern matching
        let mut out = s.to_vec();
        let part = if all {
            &mut out[..]
        } else {
            &mut out[..s.len().min(1)]
        };
        match to {
            1 => part.make_ascii_uppercase(),
            0 => part.make_ascii_lowercase(),
            _ => {
                for c in part.iter_mut() {
                    *c = if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    };
                }
            }
        }
        return out;
    }
    let b = char_bounds(s);
    let mut out = Vec::with_capacity(s.len());
    let mode = MatchMode {
        nocase: false,
        extglob: true,
        dotglob: true,
    };
    for k in 0..b.len() - 1 {
        let ch = &s[b[k]..b[k + 1]];
        if (all || k == 0) && pat_match(pat, ch, mode) {
            let t = String::from_utf8_lossy(ch);
            let up = match to {
                1 => true,
                0 => false,
                _ => t.to_uppercase() != t,
            };
            let c = if up {
                t.to_uppercase()
            } else {
                t.to_lowercase()
            };
            if std::str::from_utf8(ch).is_ok() {
                out.extend_from_slice(c.as_bytes());
            } else {
                out.extend_from_slice(ch);
            }
        } else {
            out.extend_from_slice(ch);
        }
    }
    out
}

// ----- brace expansion -----

#[derive(Clone)]
enum Item {
    C(u8),
    P(WordPart),
}

fn to_items(w: &Word) -> Vec<Item> {
    let mut v = Vec::new();
    for p in &w.parts {
        match p {
            WordPart::Lit(s) => v.extend(s.iter().map(|c| Item::C(*c))),
            other => v.push(Item::P(other.clone())),
        }
    }
    v
}

fn from_items(items: &[Item]) -> Word {
    let mut parts = Vec::new();
    let mut lit = Vec::new();
    let mut i = 0;
    while i < items.len() {
        match &items[i] {
            Item::C(c) => lit.push(*c),
            Item::P(p) => {
                if !lit.is_empty() {
                    parts.push(WordPart::Lit(std::mem::take(&mut lit)));
                }
                let mut p = p.clone();
                // bash expands braces in the text first: `{$x,b}c` gives
                // `$xc`, whose name takes the letters brace expansion put after it
                if let WordPart::Param(b) = &mut p {
                    if let (false, None, ParamOp::None, false, false, ParamName::Var(n)) =
                        (b.braced, &b.index, &b.op, b.length, b.indirect, &mut b.name)
                    {
                        while let Some(Item::C(c)) = items.get(i + 1) {
                            if !(c.is_ascii_alphanumeric() || *c == b'_') {
                                break;
                            }
                            n.push(*c);
                            i += 1;
                        }
                    }
                }
                parts.push(p);
            }
        }
        i += 1;
    }
    if !lit.is_empty() {
        parts.push(WordPart::Lit(lit));
    }
    Word { raw: None, parts }
}

pub fn brace_expand(w: &Word) -> Vec<Word> {
    let items = to_items(w);
    let mut out = Vec::new();
    expand_items(items, &mut out, 0);
    let many = out.len() > 1;
    out.into_iter()
        .map(|i| {
            let w = from_items(&i);
            // Tilde expansion follows brace expansion: `{~,x}` gives `~`.
            if many {
                leading_tilde(w)
            } else {
                w
            }
        })
        .collect()
}

/// A word brace expansion made whose text starts with an unquoted `~user`:
/// the prefix becomes a tilde part.
fn leading_tilde(mut w: Word) -> Word {
    let lit = match w.parts.first() {
        Some(WordPart::Lit(l)) if l.first() == Some(&b'~') => l.clone(),
        _ => return w,
    };
    let n = lit[1..]
        .iter()
        .take_while(|c| !matches!(c, b'/' | b':'))
        .count();
    let user = &lit[1..1 + n];
    if n + 1 == lit.len() && w.parts.len() > 1 {
        // the prefix must end the word or meet a slash
        return w;
    }
    if !user
        .iter()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'+'))
    {
        return w;
    }
    let rest = lit[1 + n..].to_vec();
    w.parts[0] = WordPart::Tilde(user.to_vec());
    if !rest.is_empty() {
        w.parts.insert(1, WordPart::Lit(rest));
    }
    w
}

fn expand_items(items: Vec<Item>, out: &mut Vec<Vec<Item>>, depth: usize) {
    if depth > 64 || out.len() > 100_000 {
        out.push(items);
        return;
    }
    let n = items.len();
    let mut start = 0;
    while start < n {
        if !matches!(items[start], Item::C(b'{'))
            || (start > 0 && matches!(items[start - 1], Item::C(b'$')))
        {
            start += 1;
            continue;
        }
        // find matching close and commas
        let mut d = 0;
        let mut commas = Vec::new();
        let mut close = None;
        let mut i = start;
        while i < n {
            match items[i] {
                Item::C(b'{') => d += 1,
                Item::C(b'}') => {
                    d -= 1;
                    if d == 0 {
                        close = Some(i);
                        break;
                    }
                }
                Item::C(b',') if d == 1 => commas.push(i),
                Item::C(b'\\') => i += 1,
                _ => {}
            }
            i += 1;
        }
        let close = match close {
            Some(c) => c,
            None => {
                // an unmatched `{` is literal: a later one may still open a brace
                start += 1;
                continue;
            }
        };
        let pre = &items[..start];
        let post = &items[close + 1..];
        if !commas.is_empty() {
            let mut bounds = vec![start];
            bounds.extend(commas.iter().copied());
            bounds.push(close);
            for k in 0..bounds.len() - 1 {
                let mut v = pre.to_vec();
                v.extend_from_slice(&items[bounds[k] + 1..bounds[k + 1]]);
                v.extend_from_slice(post);
                expand_items(v, out, depth + 1);
            }
            return;
        }
        // sequence {a..b[..step]}
        let inner: Option<Vec<u8>> = items[start + 1..close]
            .iter()
            .map(|i| if let Item::C(c) = i { Some(*c) } else { None })
            .collect();
        if let Some(inner) = inner {
            if let Some(seq) = sequence(&inner) {
                for s in seq {
                    let mut v = pre.to_vec();
                    // a `\` from a character range is a quote, removed later in bash
                    if s == b"\\" {
                        v.push(Item::P(WordPart::Quoted(Vec::new())));
                    } else {
                        v.extend(s.into_iter().map(Item::C));
                    }
                    v.extend_from_slice(post);
                    expand_items(v, out, depth + 1);
                }
                return;
            }
        }
        start += 1;
    }
    out.push(items);
}

fn sequence(s: &[u8]) -> Option<Vec<Bytes>> {
    let t = std::str::from_utf8(s).ok()?;
    let parts: Vec<&str> = t.split("..").collect();
    if parts.len() != 2 && parts.len() != 3 {
        return None;
    }
    let step: i64 = if parts.len() == 3 {
        parts[2].parse().ok()?
    } else {
        1
    };
    let step = if step == 0 { 1 } else { step.abs() };
    if let (Ok(a), Ok(b)) = (parts[0].parse::<i64>(), parts[1].parse::<i64>()) {
        let width = if (parts[0].starts_with('0') && parts[0].len() > 1)
            || (parts[1].starts_with('0') && parts[1].len() > 1)
            || parts[0].starts_with("-0")
            || parts[1].starts_with("-0")
        {
            parts[0].len().max(parts[1].len())
        } else {
            0
        };
        let mut v = Vec::new();
        let mut x = a;
        loop {
            if (a <= b && x > b) || (a > b && x < b) || v.len() > 1_000_000 {
                break;
            }
            let s = if width > 0 {
                if x < 0 {
                    format!("-{:0w$}", -x, w = width - 1)
                } else {
                    format!("{:0w$}", x, w = width)
                }
            } else {
                x.to_string()
            };
            v.push(s.into_bytes());
            if a <= b {
                x += step;
            } else {
                x -= step;
            }
        }
        return Some(v);
    }
    let (a, b) = (parts[0].as_bytes(), parts[1].as_bytes());
    if a.len() == 1 && b.len() == 1 && a[0].is_ascii_alphabetic() && b[0].is_ascii_alphabetic() {
        let (a, b) = (a[0] as i64, b[0] as i64);
        let mut v = Vec::new();
        let mut x = a;
        while (a <= b && x <= b) || (a > b && x >= b) {
            v.push(vec![x as u8]);
            if a <= b {
                x += step;
            } else {
                x -= step;
            }
        }
        return Some(v);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        let w = Word::lit(s.as_bytes());
        brace_expand(&w)
            .iter()
            .map(|w| String::from_utf8_lossy(w.as_plain().unwrap_or(b"")).into_owned())
            .collect()
    }

    #[test]
    fn braces() {
        assert_eq!(words("a{b,c}d"), vec!["abd", "acd"]);
        assert_eq!(words("{1..3}"), vec!["1", "2", "3"]);
        assert_eq!(words("{01..03}"), vec!["01", "02", "03"]);
        assert_eq!(words("{a..e..2}"), vec!["a", "c", "e"]);
        assert_eq!(words("{x}"), vec!["{x}"]);
        assert_eq!(words("{a,{b,c}}"), vec!["a", "b", "c"]);
    }

    #[test]
    fn splitting() {
        let mut acc = Acc::default();
        split_into(&mut acc, b"  a b\t c ", b" \t\n");
        let f: Vec<Bytes> = acc.finish().into_iter().map(|f| f.lit).collect();
        assert_eq!(f, vec![b"a".to_vec(), b"b".to_vec(), b"c".to_vec()]);
        let mut acc = Acc::default();
        split_into(&mut acc, b"a::b:", b":");
        let f: Vec<Bytes> = acc.finish().into_iter().map(|f| f.lit).collect();
        assert_eq!(f, vec![b"a".to_vec(), b"".to_vec(), b"b".to_vec()]);
    }

    #[test]
    fn remove_and_replace() {
        let m = MatchMode {
            nocase: false,
            extglob: true,
            dotglob: true,
        };
        assert_eq!(remove_match(b"a.b.c", b"*.", false, false, m), b"b.c");
        assert_eq!(remove_match(b"a.b.c", b"*.", false, true, m), b"c");
        assert_eq!(remove_match(b"a.b.c", b".*", true, false, m), b"a.b");
        let lit = |t: &[u8]| Replacement {
            text: t.to_vec(),
            amps: Vec::new(),
        };
        assert_eq!(replace_match(b"aaa", b"a", &lit(b"b"), true, 0, m), b"bbb");
        assert_eq!(replace_match(b"abc", b"b", &lit(b""), false, 0, m), b"ac");
        let amp = Replacement {
            text: b"<&>".to_vec(),
            amps: vec![1],
        };
        assert_eq!(replace_match(b"abc", b"b", &amp, false, 0, m), b"a<b>c");
    }
}
