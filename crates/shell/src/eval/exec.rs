//! Command execution: lists, and-or lists, pipelines (concurrent processes over
//! kernel pipes), simple commands (assignments, builtins, functions, external
//! programs), compound commands, `set -e` and the ERR trap.

use super::child::{decode_status, may_assign};
use super::redir::Saved;
use super::{Ctl, Shell, R};
use crate::ast::*;
use crate::parse::{Parser, SyntaxError};
use crate::state::*;
use std::rc::Rc;

impl Shell {
    pub fn run_program(&mut self, p: &Program) -> R<()> {
        for item in &p.items {
            self.run_item(item)?;
        }
        Ok(())
    }

    fn run_item(&mut self, item: &ListItem) -> R<()> {
        self.check_signals()?;
        if item.background {
            return self.run_background(item);
        }
        self.run_and_or(&item.and_or)
    }

    fn run_and_or(&mut self, ao: &AndOr) -> R<()> {
        let n = ao.rest.len();
        self.run_pipeline_ctx(&ao.first, n > 0)?;
        for (i, (and, pl)) in ao.rest.iter().enumerate() {
            if (*and && self.status == 0) || (!*and && self.status != 0) {
                self.run_pipeline_ctx(pl, i + 1 < n)?;
            }
        }
        Ok(())
    }

    fn run_pipeline_ctx(&mut self, pl: &Pipeline, cond: bool) -> R<()> {
        let guard = cond || pl.bang;
        if guard {
            self.no_errexit += 1;
        }
        let r = self.run_pipeline(pl);
        if guard {
            self.no_errexit -= 1;
        }
        r?;
        if pl.bang {
            self.status = (self.status == 0) as i32;
        } else if !cond {
            let simple_like = pl.cmds.len() > 1
                || matches!(&pl.cmds[0], Command::Simple(_))
                || matches!(&pl.cmds[0], Command::Compound(c, _, _) if matches!(**c, Compound::Subshell(..) | Compound::Arith(_) | Compound::Cond(_)));
            if simple_like {
                self.after_command()?;
            }
        }
        Ok(())
    }

    /// ERR trap and `set -e` after a failed command outside a condition.
    fn after_command(&mut self) -> R<()> {
        if self.status == 0 || self.no_errexit > 0 {
            return Ok(());
        }
        if let Some(code) = self.traps.get(&-1).cloned() {
            if !self.in_trap && !code.is_empty() {
                let st = self.status;
                self.run_trap(&code)?;
                self.status = st;
            }
        }
        if self.opts.errexit {
            return Err(Ctl::Exit(self.status));
        }
        Ok(())
    }

    fn run_pipeline(&mut self, pl: &Pipeline) -> R<()> {
        let start = if pl.time {
            Some(std::time::Instant::now())
        } else {
            None
        };
        let r = if pl.cmds.len() == 1 {
            let r = self.run_command(&pl.cmds[0]);
            self.pipestatus = vec![self.status];
            r
        } else {
            self.run_multi(pl)
        };
        if let Some(t) = start {
            self.time_report(pl.time_posix, t.elapsed());
        }
        r
    }

    /// What `time` prints after its pipeline. User and system times are
    /// not measured (no CPU clock reaches the guest): they read zero.
    fn time_report(&mut self, posix: bool, real: std::time::Duration) {
        let fmt = if posix {
            super::timeformat::POSIX.to_vec()
        } else {
            match self.get_var(b"TIMEFORMAT") {
                Some(f) => f.to_vec(),
                None => super::timeformat::DEFAULT.to_vec(),
            }
        };
        if fmt.is_empty() {
            return;
        }
        let zero = std::time::Duration::from_secs(0);
        match super::timeformat::report(&fmt, real, zero, zero) {
            Ok(s) => {
                self.write_fd(2, &s);
            }
            Err(c) => {
                let mut m = b"TIMEFORMAT: `".to_vec();
                m.push(c);
                m.extend_from_slice(b"': invalid format character");
                self.err(&m);
            }
        }
    }

    fn run_multi(&mut self, pl: &Pipeline) -> R<()> {
        // its stages run in children: $LINENO (ERR trap, messages) is its line
        if let Some(s) = pl.srcs.first() {
            self.lineno = s.line;
        }
        self.jc_group = 0;
        if self.jc {
            let texts: Vec<&[u8]> = pl.srcs.iter().map(|s| s.text.as_slice()).collect();
            self.jc_cmd = texts.join(&b" | "[..]);
        }
        let r = self.run_multi_stages(pl);
        let job = self.jc_group != 0;
        self.end_job();
        r?;
        if job && self.status == 130 && self.opts.interactive {
            self.write_fd(2, b"\n");
            return Err(Ctl::Abort(130));
        }
        Ok(())
    }

    fn run_multi_stages(&mut self, pl: &Pipeline) -> R<()> {
        let n = pl.cmds.len();
        let mut pids: Vec<Option<i32>> = Vec::with_capacity(n);
        let mut prev: Option<i32> = None;
        let mut last_status = 0;
        let mut inproc_status: Option<i32> = None;
        for i in 0..n {
            let last = i + 1 == n;
            let mut saved: Saved = Vec::new();
            if let Some(rd) = prev.take() {
                let s = self.save_fd(0);
                saved.push((0, s));
                let _ = self.sys.dup2(rd, 0);
                self.sys.close(rd);
            }
            if !last {
                let (rd, wr) = match self.sys.pipe() {
                    Ok(p) => p,
                    Err(_) => {
                        self.restore_all(saved);
                        self.errs("pipe error");
                        return Err(Ctl::Abort(1));
                    }
                };
                let s = self.save_fd(1);
                saved.push((1, s));
                let _ = self.sys.dup2(wr, 1);
                if pl.amp.get(i).copied().unwrap_or(false) {
                    let s2 = self.save_fd(2);
                    saved.push((2, s2));
                    let _ = self.sys.dup2(wr, 2);
                }
                self.sys.close(wr);
                prev = Some(rd);
            }
            if last && self.opts.lastpipe && !self.opts.monitor {
                let r = self.run_command(&pl.cmds[i]);
                self.restore_all(saved);
                inproc_status = Some(self.status);
                pids.push(None);
                if let Err(e) = r {
                    for p in pids.iter().flatten() {
                        self.wait_pid(*p);
                    }
                    return Err(e);
                }
                continue;
            }
            let src = pl.srcs.get(i).cloned().unwrap_or_default();
            let r = self.spawn_stage(&pl.cmds[i], &src);
            self.restore_all(saved);
            match r {
                Ok(pid) => pids.push(Some(pid)),
                Err(Ctl::Abort(st)) => {
                    pids.push(None);
                    last_status = st;
                }
                Err(e) => {
                    if let Some(rd) = prev {
                        self.sys.close(rd);
                    }
                    return Err(e);
                }
            }
        }
        let mut statuses = Vec::with_capacity(n);
        for (i, p) in pids.iter().enumerate() {
            let st = match p {
                Some(pid) if *pid > 0 => self.wait_pid(*pid),
                Some(_) => 0,
                None => {
                    if i + 1 == n {
                        inproc_status.unwrap_or(last_status)
                    } else {
                        last_status
                    }
                }
            };
            statuses.push(st);
        }
        self.status = if self.opts.pipefail {
            statuses
                .iter()
                .rev()
                .find(|s| **s != 0)
                .copied()
                .unwrap_or(0)
        } else {
            *statuses.last().unwrap_or(&0)
        };
        self.pipestatus = statuses;
        Ok(())
    }

    /// Start one pipeline stage as a process; returns its pid.
    fn spawn_stage(&mut self, cmd: &Command, src: &Src) -> R<i32> {
        let simple = self.forks_simple_at_top(cmd);
        if let Command::Simple(s) = cmd {
            if let Some(name) = s.words.first().and_then(|w| w.as_plain()) {
                if !self.funcs.contains_key(name)
                    && !self.builtin_on(name)
                    && !is_keyword(name)
                    && !s.words.iter().any(may_assign)
                    && !s.assigns.iter().any(|a| match &a.value {
                        AssignValue::Scalar(w) => may_assign(w),
                        _ => true,
                    })
                {
                    // expanded here as the stage's child would: an error
                    // ends only the stage, with the child's status
                    let fatal = |c: Ctl| match c {
                        Ctl::Exit(_) | Ctl::Abort(_) => Ctl::Abort(if simple { 127 } else { 1 }),
                        c => c,
                    };
                    let argv = self.expand_words(&s.words).map_err(fatal)?;
                    if argv.is_empty() {
                        return Ok(0);
                    }
                    let mut env = Vec::new();
                    for a in &s.assigns {
                        if let AssignValue::Scalar(w) = &a.value {
                            let v = self.expand_single(w).map_err(fatal)?;
                            env.push((a.name.clone(), v));
                        }
                    }
                    if self.opts.xtrace {
                        self.xtrace(&argv, &env);
                    }
                    let saved = match self.apply_redirs(&s.redirs, false) {
                        Ok(s) => s,
                        Err(st) => return Err(Ctl::Abort(st)),
                    };
                    self.jc_job = true;
                    let r = self.start_external(&argv, &env);
                    self.jc_job = false;
                    self.restore_all(saved);
                    return match r {
                        Some(pid) => Ok(pid),
                        None => Err(Ctl::Abort(self.status)),
                    };
                }
            }
        }
        self.jc_job = true;
        self.spawning_stage = true;
        self.spawning_simple = simple;
        let r = self.spawn_shell(src, -1);
        self.spawning_simple = false;
        self.spawning_stage = false;
        self.jc_job = false;
        r
    }

    /// PATH search (with the hash table). None if not found.
    pub fn find_command(&mut self, name: &[u8]) -> Option<Bytes> {
        self.lookup_command(name, true)
    }

    /// A PATH search; `remember` puts what it finds in the hash table (running
    /// a command does, `type` and `command -v` do not).
    pub fn lookup_command(&mut self, name: &[u8], remember: bool) -> Option<Bytes> {
        if name.contains(&b'/') {
            return Some(name.to_vec());
        }
        if let Some(p) = self.hash.get(name).cloned() {
            if self.sys.executable(&p) {
                *self.hash_hits.entry(name.to_vec()).or_insert(0) += 1;
                return Some(p);
            }
        }
        let path = self.get_var(b"PATH").unwrap_or_default();
        let found = self.search_path(name, &path);
        if let (true, Some(p)) = (remember, &found) {
            self.hash.insert(name.to_vec(), p.clone());
            self.hash_hits.insert(name.to_vec(), 1);
        }
        found
    }

    /// The command an external `name` runs as, given the command's prefix
    /// assignments: as in bash, a `PATH=..` among them is searched instead of
    /// the shell's (the hash table neither used nor filled).
    pub(crate) fn command_path(&mut self, name: &[u8], env: &[(Bytes, Bytes)]) -> Option<Bytes> {
        match env.iter().rev().find(|(k, _)| k == b"PATH") {
            Some((_, path)) if !name.contains(&b'/') => {
                let path = path.clone();
                self.search_path(name, &path)
            }
            _ => self.find_command(name),
        }
    }

    /// Search the directories of `path` for an executable `name`. An empty
    /// PATH names no directory: the name is tried as it is (bash then says
    /// "No such file or directory").
    fn search_path(&mut self, name: &[u8], path: &[u8]) -> Option<Bytes> {
        if path.is_empty() {
            return self.sys.executable(name).then(|| name.to_vec());
        }
        for dir in path.split(|c| *c == b':') {
            let mut p = if dir.is_empty() {
                b".".to_vec()
            } else {
                dir.to_vec()
            };
            p.push(b'/');
            p.extend_from_slice(name);
            if self.sys.executable(&p) {
                return Some(p);
            }
        }
        None
    }

    pub fn spawn_external(
        &mut self,
        path: &[u8],
        argv: &[Bytes],
        env: &[(Bytes, Bytes)],
    ) -> Result<i32, i32> {
        let env = self.child_env(env);
        let fds = self.child_fds();
        let (pgid, foreground) = self.job_pgid(-1);
        let req = crate::sys::SpawnReq {
            path,
            argv,
            env: &env,
            fds: &fds,
            pgid,
            foreground,
            intquit: self.program_intquit(),
        };
        let pid = self.sys.spawn(&req)?;
        self.job_spawned(pid);
        Ok(pid)
    }

    /// Find and spawn an external command, reporting errors bash's way.
    /// Returns None (status set) on failure.
    fn start_external(&mut self, argv: &[Bytes], env: &[(Bytes, Bytes)]) -> Option<i32> {
        let name = &argv[0];
        let path = match self.command_path(name, env) {
            Some(p) => p,
            None => {
                let mut m = name.clone();
                // with no directory to search, bash tries the name as a file
                let path = match env.iter().rev().find(|(k, _)| k == b"PATH") {
                    Some((_, p)) => p.is_empty(),
                    None => self.get_var(b"PATH").map_or(true, |p| p.is_empty()),
                };
                m.extend_from_slice(if path {
                    b": No such file or directory"
                } else {
                    b": command not found"
                });
                self.err(&m);
                self.status = 127;
                return None;
            }
        };
        // A path is spawned at once: the kernel refuses what cannot run, and
        // only then do the stat and access checks pick bash's message (a
        // spawn pays no extra round trips for them).
        match self.spawn_external(&path, argv, env) {
            Ok(pid) => Some(pid),
            Err(e) if e == crate::sys::ENOEXEC => self.run_as_script(name, &path, argv, env),
            Err(e) => {
                if name.contains(&b'/') && self.path_not_runnable(name, &path) {
                    return None;
                }
                let mut m = name.clone();
                m.extend_from_slice(b": ");
                m.extend_from_slice(crate::sys::strerror(e).as_bytes());
                self.err(&m);
                self.status = if e == crate::sys::ENOENT { 127 } else { 126 };
                None
            }
        }
    }

    /// The kernel refused `path` as no executable format. As bash does, a
    /// file whose first line holds no NUL byte is a shell script without a
    /// `#!` line: a new shell runs it (`$0` is the path); anything else is a
    /// binary it cannot execute (126).
    fn run_as_script(
        &mut self,
        name: &[u8],
        path: &[u8],
        argv: &[Bytes],
        env: &[(Bytes, Bytes)],
    ) -> Option<i32> {
        let head = crate::fsx::read_head(path, 80).unwrap_or_default();
        let line = head.split(|&c| c == b'\n').next().unwrap_or(&[]);
        if line.contains(&0) {
            let mut m = name.to_vec();
            m.extend_from_slice(b": cannot execute binary file: Exec format error");
            self.err(&m);
            self.status = 126;
            return None;
        }
        let mut script_argv: Vec<Bytes> = vec![b"bash".to_vec(), path.to_vec()];
        script_argv.extend(argv.iter().skip(1).cloned());
        match self.spawn_external(b"/bin/bash", &script_argv, env) {
            Ok(pid) => Some(pid),
            Err(e) => {
                let mut m = name.to_vec();
                m.extend_from_slice(b": ");
                m.extend_from_slice(crate::sys::strerror(e).as_bytes());
                self.err(&m);
                self.status = 126;
                None
            }
        }
    }

    /// Why `path` (named `name`) cannot run, said bash's way; false if it looks runnable.
    fn path_not_runnable(&mut self, name: &[u8], path: &[u8]) -> bool {
        let (why, status): (&[u8], i32) = match crate::fsx::stat(path) {
            None => (b": No such file or directory", 127),
            Some(md) if md.is_dir() => (b": Is a directory", 126),
            Some(_) if !self.sys.executable(path) => (b": Permission denied", 126),
            Some(_) => return false,
        };
        let mut m = name.to_vec();
        m.extend_from_slice(why);
        self.err(&m);
        self.status = status;
        true
    }

    pub fn run_command(&mut self, cmd: &Command) -> R<()> {
        match cmd {
            Command::Simple(s) => {
                let r = self.run_simple(s);
                if !self.procsub_fds.is_empty() {
                    for fd in std::mem::take(&mut self.procsub_fds) {
                        self.sys.close(fd);
                        self.open_fds.remove(&fd);
                    }
                }
                r
            }
            Command::Compound(c, redirs, line) => {
                self.lineno = *line;
                self.run_compound(c, redirs)
            }
            Command::FuncDef(f) => {
                if self.is_readonly_func(&f.name) {
                    let mut m = f.name.clone();
                    m.extend_from_slice(b": readonly function");
                    self.err(&m);
                    self.status = 1;
                    return Ok(());
                }
                self.funcs.insert(f.name.clone(), f.clone());
                let file = self
                    .sources
                    .last()
                    .cloned()
                    .unwrap_or_else(|| b"environment".to_vec());
                self.func_files.insert(f.name.clone(), file);
                self.status = 0;
                Ok(())
            }
        }
    }

    fn is_readonly_func(&self, name: &[u8]) -> bool {
        self.func_attrs
            .get(name)
            .map_or(false, |a| a & A_READONLY != 0)
    }

    /// set -x: PS4 (expanded; its first character repeated once per level
    /// of command substitution), the text, a newline.
    pub fn trace_line(&mut self, body: &[u8]) {
        let ps4 = self.get_var(b"PS4").unwrap_or_else(|| b"+ ".to_vec());
        let was = std::mem::replace(&mut self.opts.xtrace, false);
        let ps4 = self.prompt_expand(&ps4);
        self.opts.xtrace = was;
        let mut line = Vec::new();
        if let Some(&c) = ps4.first() {
            line.extend(std::iter::repeat(c).take(self.trace_level as usize));
        }
        line.extend_from_slice(&ps4);
        line.extend_from_slice(body);
        line.push(b'\n');
        let fd = self
            .get_var(b"BASH_XTRACEFD")
            .and_then(|v| crate::bytes::parse_i64(&v))
            .filter(|fd| self.open_fds.contains(&(*fd as i32)))
            .unwrap_or(2);
        self.write_fd(fd as i32, &line);
    }

    /// The DEBUG trap before a compound command's own step (a loop's
    /// head, `case`, `[[`, `((`): `$BASH_COMMAND` is that step's text.
    fn debug_trap(&mut self, text: impl FnOnce() -> Bytes) -> R<()> {
        if self.in_trap {
            return Ok(());
        }
        if let Some(code) = self.traps.get(&-2).cloned() {
            self.bash_command = text();
            let st = self.status;
            self.run_trap(&code)?;
            self.status = st;
        }
        Ok(())
    }

    /// set -x for a loop or case head: `for i in 1 2`, `case x in`.
    fn trace_words(&mut self, head: &[u8], words: &[Bytes], tail: &[u8]) {
        if !self.opts.xtrace {
            return;
        }
        let mut body = head.to_vec();
        for w in words {
            body.push(b' ');
            body.extend_from_slice(&crate::builtins::quote_x(w));
        }
        body.extend_from_slice(tail);
        self.trace_line(&body);
    }

    /// set -x for `(( expr ))` and the parts of `for (( ; ; ))`.
    fn trace_arith(&mut self, a: &ArithSrc) {
        if self.opts.xtrace {
            let mut l = b"(( ".to_vec();
            l.extend_from_slice(&crate::printer::word_text(&a.word));
            l.extend_from_slice(b" ))");
            self.trace_line(&l);
        }
    }

    pub fn xtrace_argv(&mut self, argv: &[Bytes]) {
        self.xtrace(argv, &[]);
    }

    /// A traced command: its prefix assignments each on a line of their
    /// own (as bash 5.2), then the words.
    fn xtrace(&mut self, argv: &[Bytes], assigns: &[(Bytes, Bytes)]) {
        for (k, v) in assigns {
            self.trace_assign(k, b"=", v);
        }
        let decl = matches!(
            argv.first().map(|a| a.as_slice()),
            Some(b"declare" | b"typeset" | b"local" | b"readonly" | b"export")
        );
        let mut compound = false;
        let mut line = Vec::new();
        for (i, a) in argv.iter().enumerate() {
            if i > 0 {
                line.push(b' ');
            }
            match compound_name(a).filter(|_| decl && i > 0) {
                // `declare -a x=(..)` is traced as `declare -a x`, after the value
                Some(n) => {
                    compound = true;
                    line.extend_from_slice(n);
                }
                None => line.extend_from_slice(&crate::builtins::quote_x(a)),
            }
        }
        if compound {
            self.decl_trace = Some(line);
        } else {
            self.trace_line(&line);
        }
    }

    /// set -x for one scalar assignment: `name=value`.
    pub fn trace_assign(&mut self, target: &[u8], op: &[u8], v: &[u8]) {
        let mut t = target.to_vec();
        t.extend_from_slice(op);
        t.extend_from_slice(&crate::builtins::quote_x_value(v));
        self.trace_line(&t);
    }

    /// set -x for a declaration builtin's `name=(...)`: the elements as
    /// expanded, each single-quoted (`x=(['1']='a' 'b')`).
    fn trace_compound(&mut self, a: &Assign, elems: &[Bytes]) {
        let mut t = crate::printer::assign_target(a);
        t.extend_from_slice(if a.append { b"+=(" } else { b"=(" });
        t.extend_from_slice(&elems.join(&b' '));
        t.push(b')');
        self.trace_line(&t);
    }

    /// Perform one assignment (`name=v`, `name+=v`, `name[i]=v`, `name=(..)`).
    pub fn do_assign(&mut self, a: &Assign, local: bool) -> R<Bytes> {
        match &a.value {
            AssignValue::Scalar(w) => {
                let v = self.expand_single(w)?;
                if local {
                    self.vars.local(&a.name);
                }
                self.assign_scalar(&a.name, a.index.as_ref(), v.clone(), a.append)?;
                Ok(v)
            }
            AssignValue::Array(elems) => {
                if self.is_readonly(&a.name) {
                    self.readonly_err(&a.name);
                    return Err(Ctl::Abort(1));
                }
                let is_assoc = self
                    .vars
                    .get(&a.name)
                    .map(|v| v.attrs & A_ASSOC != 0 || matches!(v.value, Some(Value::Assoc(_))))
                    .unwrap_or(false);
                if is_assoc {
                    let mut m = if a.append {
                        match self.vars.get(&a.name).and_then(|v| v.value.clone()) {
                            Some(Value::Assoc(m)) => m,
                            _ => Default::default(),
                        }
                    } else {
                        AssocMap::new()
                    };
                    let mut pending_key: Option<Bytes> = None;
                    // `(k1 v1 k2 v2)` only when the list starts without a subscript
                    let pairs = matches!(elems.first(), Some((None, _)));
                    let mut traced = (self.declaring && self.opts.xtrace).then(Vec::new);
                    for (k, w) in elems {
                        match k {
                            Some(k) => {
                                let key = self.expand_single(k)?;
                                let v = self.expand_single(w)?;
                                if let Some(tr) = traced.as_mut() {
                                    tr.push(trace_elem(Some(&key), &v));
                                }
                                m.insert(key, v);
                            }
                            None if !pairs => {
                                let mut msg = a.name.clone();
                                let q: &[u8] = if self.declaring { b"'" } else { b"" };
                                msg.extend_from_slice(b": ");
                                msg.extend_from_slice(q);
                                msg.extend_from_slice(&crate::printer::word_text(w));
                                msg.extend_from_slice(q);
                                msg.extend_from_slice(
                                    b": must use subscript when assigning associative array",
                                );
                                self.err(&msg);
                            }
                            None => {
                                // `(k1 v1 k2 v2)` form
                                for v in self.expand_words(std::slice::from_ref(w))? {
                                    if let Some(tr) = traced.as_mut() {
                                        tr.push(trace_elem(None, &v));
                                    }
                                    match pending_key.take() {
                                        None => pending_key = Some(v),
                                        Some(k) => {
                                            m.insert(k, v);
                                        }
                                    }
                                }
                            }
                        }
                    }
                    if let Some(k) = pending_key {
                        m.insert(k, Vec::new());
                    }
                    if let Some(tr) = traced {
                        self.trace_compound(a, &tr);
                    }
                    let var = if local {
                        self.vars.local(&a.name)
                    } else {
                        self.vars.entry(&a.name)
                    };
                    var.value = Some(Value::Assoc(m));
                    var.attrs |= A_ASSOC;
                    return Ok(Vec::new());
                }
                let mut m = if a.append {
                    match self.vars.get(&a.name).and_then(|v| v.value.clone()) {
                        Some(Value::Arr(m)) => m,
                        Some(Value::Str(s)) => {
                            let mut m = std::collections::BTreeMap::new();
                            m.insert(0, s);
                            m
                        }
                        _ => Default::default(),
                    }
                } else {
                    std::collections::BTreeMap::new()
                };
                let mut next = m.keys().next_back().map(|k| k + 1).unwrap_or(0);
                // -i, -l, -u apply to each element
                let attrs = self.vars.get(&a.name).map_or(0, |v| v.attrs) & (A_INTEGER | A_CASE);
                // a declaration builtin's compound value is traced expanded
                let mut traced = (self.declaring && self.opts.xtrace).then(Vec::new);
                for (k, w) in elems {
                    match k {
                        Some(k) => {
                            let t = self.expand_single(k)?;
                            let i = self.eval_arith_text(&t)?;
                            let mut v = self.expand_single(w)?;
                            if let Some(tr) = traced.as_mut() {
                                tr.push(trace_elem(Some(&t), &v));
                            }
                            if attrs != 0 {
                                v = self.transform_value(attrs, &a.name, v, None)?;
                            }
                            m.insert(i, v);
                            next = i + 1;
                        }
                        None => {
                            for mut v in self.expand_words(std::slice::from_ref(w))? {
                                if let Some(tr) = traced.as_mut() {
                                    tr.push(trace_elem(None, &v));
                                }
                                if attrs != 0 {
                                    v = self.transform_value(attrs, &a.name, v, None)?;
                                }
                                m.insert(next, v);
                                next += 1;
                            }
                        }
                    }
                }
                if let Some(tr) = traced {
                    self.trace_compound(a, &tr);
                }
                let var = if local {
                    self.vars.local(&a.name)
                } else {
                    self.vars.entry(&a.name)
                };
                var.value = Some(Value::Arr(m));
                var.attrs |= A_ARRAY;
                Ok(Vec::new())
            }
        }
    }

    fn run_simple(&mut self, s: &Simple) -> R<()> {
        if self.in_trap {
            return self.run_simple_cmd(s);
        }
        // $BASH_COMMAND is printed from the syntax tree only when read
        let outer = std::mem::replace(&mut self.running_simple, s as *const Simple);
        let r = self.run_simple_cmd(s);
        self.running_simple = outer;
        r
    }

    fn run_simple_cmd(&mut self, s: &Simple) -> R<()> {
        self.lineno = s.line;
        if self.opts.keyword && s.words.iter().skip(1).any(|w| keyword_split(w).is_some()) {
            // set -k: `name=value` anywhere among the arguments goes to the
            // command's environment
            let mut k = s.clone();
            let mut words = vec![s.words[0].clone()];
            for w in &s.words[1..] {
                match keyword_split(w) {
                    Some(a) => k.assigns.push(a),
                    None => words.push(w.clone()),
                }
            }
            k.words = words;
            return self.run_simple_cmd(&k);
        }
        if self.opts.noexec {
            return Ok(());
        }
        if !self.traps.is_empty() && !self.in_trap {
            // a trap may run once this command is done: keep its text
            self.bash_command = crate::printer::simple_text(s);
            if let Some(code) = self.traps.get(&-2).cloned() {
                let st = self.status;
                self.run_trap(&code)?;
                self.status = st;
            }
        }
        self.subst_ran = false;
        let argv = self.expand_words(&s.words)?;
        if argv.is_empty() {
            // an assignment or redirection alone leaves `$_` empty
            self.last_arg.clear();
            for a in &s.assigns {
                if self.opts.xtrace {
                    if let AssignValue::Scalar(w) = &a.value {
                        // traced once expanded, before it takes effect (PS4=..)
                        let v = self.expand_single(w)?;
                        let t = crate::printer::assign_target(a);
                        self.trace_assign(&t, if a.append { b"+=" } else { b"=" }, &v);
                        self.assign_scalar(&a.name, a.index.as_ref(), v, a.append)?;
                        continue;
                    }
                    // an array literal is traced as written
                    self.trace_line(&crate::printer::assign_text(a));
                }
                self.do_assign(a, false)?;
            }
            let st = if self.subst_ran { self.status } else { 0 };
            if !s.redirs.is_empty() {
                match self.apply_redirs(&s.redirs, false) {
                    Ok(saved) => self.restore_all(saved),
                    Err(st) => {
                        self.status = st;
                        return Ok(());
                    }
                }
            }
            self.status = st;
            return Ok(());
        }
        // a function sees the previous command's `$_`; it is set once it returns
        let prev_last = match argv.last() {
            Some(last) => std::mem::replace(&mut self.last_arg, last.clone()),
            None => Vec::new(),
        };
        let name = argv[0].clone();
        // prefix assignments
        let mut env: Vec<(Bytes, Bytes)> = Vec::new();
        for a in &s.assigns {
            if let AssignValue::Scalar(w) = &a.value {
                if self.is_readonly(&a.name) {
                    // the command still runs, without this assignment
                    self.readonly_err(&a.name);
                    continue;
                }
                let mut v = self.expand_single(w)?;
                if a.append {
                    let mut o = self.get_var(&a.name).unwrap_or_default();
                    o.extend_from_slice(&v);
                    v = o;
                }
                env.push((a.name.clone(), v));
            }
        }
        if self.opts.xtrace {
            self.xtrace(&argv, &env);
        }
        let func = self.funcs.get(&name).cloned();
        if func.is_some() || self.builtin_on(&name) {
            // only in POSIX mode do a special builtin's assignments stay
            let special = crate::builtins::is_special(&name) && self.opts.posix;
            let pushed = !env.is_empty() && !special;
            // redirections are expanded before the prefix assignments take
            // effect: `IFS=: read v <<< "$*"` joins with the old IFS
            let saved = match self.apply_redirs(&s.redirs, false) {
                Ok(sv) => sv,
                Err(st) => {
                    self.status = st;
                    return Ok(());
                }
            };
            if pushed {
                self.vars.scopes.push(Default::default());
                for (k, v) in &env {
                    let top = self.vars.scopes.len() - 1;
                    self.vars.scopes[top].insert(
                        k.clone(),
                        Var {
                            value: Some(Value::Str(v.clone())),
                            attrs: A_EXPORT,
                        },
                    );
                }
            } else {
                for (k, v) in &env {
                    if let Err(e) = self.assign_scalar(k, None, v.clone(), false) {
                        self.restore_all(saved);
                        return Err(e);
                    }
                }
            }
            let r = match func {
                Some(f) => {
                    let last = std::mem::replace(&mut self.last_arg, prev_last);
                    let r = self.call_function(&f, &argv);
                    self.last_arg = last;
                    r
                }
                None => self.run_builtin(&argv),
            };
            if self.keep_redirs {
                self.keep_redirs = false;
                for (_, s) in saved {
                    if let Some(s) = s {
                        self.sys.close(s);
                    }
                }
            } else {
                self.restore_all(saved);
            }
            if pushed {
                let temp = self.vars.scopes.pop().unwrap_or_default();
                if matches!(name.as_slice(), b"export" | b"readonly") {
                    // `x=b export x`: the named temporary variable stays
                    let bit = if name == b"export" {
                        A_EXPORT
                    } else {
                        A_READONLY
                    };
                    for (k, _) in &env {
                        let named = argv[1..]
                            .iter()
                            .any(|a| a == k || (a.starts_with(k) && a.get(k.len()) == Some(&b'=')));
                        let val = temp
                            .get(k)
                            .and_then(|v| v.value.as_ref())
                            .map(|v| v.scalar());
                        if let (true, Some(v)) = (named, val) {
                            self.assign_scalar(k, None, v, false)?;
                            self.vars.entry(k).attrs |= bit;
                        }
                    }
                }
            }
            return r;
        }
        let saved = match self.apply_redirs(&s.redirs, false) {
            Ok(sv) => sv,
            Err(st) => {
                self.status = st;
                return Ok(());
            }
        };
        self.jc_job = true;
        if self.jc {
            self.jc_cmd = argv.join(&b' ');
        }
        if self.exec_now(s) {
            self.exec_last(&argv, &env)?;
        }
        let pid = self.start_external(&argv, &env);
        self.jc_job = false;
        self.restore_all(saved);
        if let Some(pid) = pid {
            self.status = self.wait_pid(pid);
            self.report_foreground_signal(pid, || crate::printer::simple_text(s));
            self.notify_dead_jobs();
            let job = self.jc_group != 0;
            self.end_job();
            if self.status == 130 && self.opts.interactive {
                self.write_fd(2, b"\n");
                if job {
                    // the job died of Ctrl-C: the rest of the command line is cancelled too
                    return Err(Ctl::Abort(130));
                }
            }
        }
        Ok(())
    }

    pub fn call_function(&mut self, f: &Rc<FuncDef>, argv: &[Bytes]) -> R<()> {
        // $FUNCNEST (a positive number) lowers the limit kept for the stack's sake
        let limit = match self.vars.get(b"FUNCNEST").and_then(|v| v.value.as_ref()) {
            Some(Value::Str(n)) => crate::bytes::parse_i64(n)
                .filter(|n| *n > 0)
                .map_or(super::MAX_FUNC_DEPTH, |n| {
                    (n as u64).min(super::MAX_FUNC_DEPTH as u64) as usize
                }),
            _ => super::MAX_FUNC_DEPTH,
        };
        if self.funcnames.len() >= limit {
            let mut m = f.name.clone();
            m.extend_from_slice(
                format!(": maximum function nesting level exceeded ({})", limit).as_bytes(),
            );
            self.err(&m);
            return Err(Ctl::Abort(1));
        }
        let saved_pos = std::mem::replace(&mut self.positional, argv[1..].to_vec());
        self.vars.scopes.push(Default::default());
        self.funcnames.push(f.name.clone());
        let src = self
            .func_files
            .get(&f.name)
            .cloned()
            .unwrap_or_else(|| b"environment".to_vec());
        self.frames.push((f.name.clone(), src, self.lineno));
        // without set -T the RETURN trap is not inherited either: it fires
        // only for a function that sets it (and stays set after it)
        let return_trap = if self.opts.functrace {
            None
        } else {
            self.traps.remove(&-3)
        };
        // Without set -E a function runs without the caller's ERR trap; one
        // it sets itself stays after it returns.
        let err_trap = if self.opts.errtrace {
            None
        } else {
            self.traps.remove(&-1)
        };
        // likewise the DEBUG trap without set -T
        let debug_trap = if self.opts.functrace {
            None
        } else {
            self.traps.remove(&-2)
        };
        self.local_opts.push(None);
        let mut r = Ok(());
        if self.opts.functrace && !self.in_trap {
            // under set -T the DEBUG trap runs once more as the function starts
            if let Some(code) = self.traps.get(&-2).cloned() {
                let st = self.status;
                r = self.run_trap(&code);
                self.status = st;
            }
        }
        if r.is_ok() {
            // the caller's loops are not the function's: `break` there is an error
            let loops = std::mem::replace(&mut self.loop_depth, 0);
            r = self.run_compound(&f.body, &f.redirs);
            self.loop_depth = loops;
        }
        if let Some(saved) = self.local_opts.pop().flatten() {
            for (n, on) in saved {
                if self.opts.get(n).map(|b| *b) != Some(on) {
                    self.set_option(n, on);
                }
            }
        }
        if let Some(code) = err_trap {
            self.traps.entry(-1).or_insert(code);
        }
        if let Some(code) = debug_trap {
            self.traps.entry(-2).or_insert(code);
        }
        // A RETURN trap fires for the function that set it (others inherit
        // it only under set -T), before the function's status is final.
        if let Some(code) = self.traps.get(&-3).cloned() {
            if !matches!(r, Err(Ctl::Exit(_))) {
                let st = self.status;
                let tr = self.run_trap(&code);
                self.status = st;
                if let Err(e) = tr {
                    r = Err(e);
                }
            }
        }
        if let Some(code) = return_trap {
            self.traps.entry(-3).or_insert(code);
        }
        self.frames.pop();
        self.funcnames.pop();
        let scope = self.vars.scopes.pop();
        if scope
            .map(|sc| {
                sc.contains_key(&b"LC_ALL"[..])
                    || sc.contains_key(&b"LC_CTYPE"[..])
                    || sc.contains_key(&b"LANG"[..])
            })
            .unwrap_or(false)
        {
            // A `local` locale variable went out of scope.
            self.sync_locale();
        }
        self.positional = saved_pos;
        match r {
            Err(Ctl::Return(n)) => {
                self.status = n;
                Ok(())
            }
            other => other,
        }
    }

    pub fn run_compound(&mut self, c: &Compound, redirs: &[Redir]) -> R<()> {
        let saved = if redirs.is_empty() {
            Vec::new()
        } else {
            match self.apply_redirs(redirs, false) {
                Ok(s) => s,
                Err(st) => {
                    self.status = st;
                    return Ok(());
                }
            }
        };
        let r = self.run_compound_inner(c);
        if !saved.is_empty() {
            self.restore_all(saved);
        }
        r
    }

    fn cond_program(&mut self, p: &Program) -> R<bool> {
        self.no_errexit += 1;
        let r = self.run_program(p);
        self.no_errexit -= 1;
        r?;
        Ok(self.status == 0)
    }

    /// A `for`/`select` variable must be a name: else the loop fails (1).
    fn loop_var_ok(&mut self, var: &[u8]) -> bool {
        if crate::parse::is_name(var) {
            return true;
        }
        let mut m = b"`".to_vec();
        m.extend_from_slice(var);
        m.extend_from_slice(b"': not a valid identifier");
        self.err(&m);
        self.status = 1;
        false
    }

    /// Handle break/continue inside a loop body; Some(true) = break out.
    fn loop_ctl(&mut self, r: R<()>) -> R<bool> {
        match r {
            Ok(()) => Ok(false),
            Err(Ctl::Break(n)) => {
                if n > 1 {
                    Err(Ctl::Break(n - 1))
                } else {
                    Ok(true)
                }
            }
            Err(Ctl::Continue(n)) => {
                if n > 1 {
                    Err(Ctl::Continue(n - 1))
                } else {
                    Ok(false)
                }
            }
            Err(e) => Err(e),
        }
    }

    fn run_compound_inner(&mut self, c: &Compound) -> R<()> {
        match c {
            Compound::Brace(p) => self.run_program(p),
            Compound::Subshell(p, _src) => self.run_subshell(p),
            Compound::Coproc(name, src) => self.run_coproc(name, src),
            Compound::If(arms, els) => {
                for (cond, body) in arms {
                    if self.cond_program(cond)? {
                        return self.run_program(body);
                    }
                }
                match els {
                    Some(e) => self.run_program(e),
                    None => {
                        self.status = 0;
                        Ok(())
                    }
                }
            }
            Compound::While(until, cond, body) => {
                let mut st = 0;
                self.loop_depth += 1;
                let r = (|| -> R<()> {
                    loop {
                        self.check_signals()?;
                        let ok = self.cond_program(cond)?;
                        if ok == *until {
                            break;
                        }
                        let r = self.run_program(body);
                        st = self.status;
                        if self.loop_ctl(r)? {
                            break;
                        }
                    }
                    Ok(())
                })();
                self.loop_depth -= 1;
                self.status = st;
                r
            }
            Compound::For(var, words, body) => {
                if !self.loop_var_ok(var) {
                    return Ok(());
                }
                let items = match words {
                    Some(w) => self.expand_words(w)?,
                    None => self.positional.clone(),
                };
                let mut st = 0;
                self.loop_depth += 1;
                // a nameref control variable is pointed at each word in turn
                let is_ref = self
                    .vars
                    .get_raw(var)
                    .map_or(false, |v| v.attrs & A_NAMEREF != 0);
                let r = (|| -> R<()> {
                    for it in items.clone() {
                        self.check_signals()?;
                        self.debug_trap(|| {
                            let mut t = b"for ".to_vec();
                            t.extend_from_slice(var);
                            if let Some(ws) = words {
                                t.extend_from_slice(b" in");
                                for w in ws {
                                    t.push(b' ');
                                    t.extend_from_slice(&crate::printer::word_text(w));
                                }
                            }
                            t
                        })?;
                        let mut head = b"for ".to_vec();
                        head.extend_from_slice(var);
                        head.extend_from_slice(b" in");
                        self.trace_words(&head, &items, b"");
                        if is_ref {
                            self.vars.entry_raw(var).value = Some(Value::Str(it));
                        } else if let Err(e) = self.assign_scalar(var, None, it, false) {
                            // a readonly control variable ends the loop, not the script
                            if let Ctl::Abort(_) = e {
                                st = 1;
                                break;
                            }
                            return Err(e);
                        }
                        let r = self.run_program(body);
                        st = self.status;
                        if self.loop_ctl(r)? {
                            break;
                        }
                    }
                    Ok(())
                })();
                self.loop_depth -= 1;
                self.status = st;
                r
            }
            Compound::ArithFor(init, cond, step, body) => {
                // bash: a bad expression of the loop's own ends the loop with
                // status 1, not the script (one in the body aborts as usual)
                let mut bad_expr = false;
                if let Some(i) = init {
                    self.debug_trap(|| arith_for_text(i))?;
                    self.trace_arith(i);
                    match self.eval_arith_src_in("((", i) {
                        Err(Ctl::Abort(_)) => {
                            self.status = 1;
                            return Ok(());
                        }
                        r => {
                            r?;
                        }
                    }
                }
                let mut st = 0;
                self.loop_depth += 1;
                let r = (|| -> R<()> {
                    loop {
                        self.check_signals()?;
                        if let Some(c) = cond {
                            self.debug_trap(|| arith_for_text(c))?;
                            self.trace_arith(c);
                            let v = self.eval_arith_src_in("((", c);
                            bad_expr = matches!(v, Err(Ctl::Abort(_)));
                            if v? == 0 {
                                break;
                            }
                        }
                        let r = self.run_program(body);
                        st = self.status;
                        if self.loop_ctl(r)? {
                            break;
                        }
                        if let Some(s) = step {
                            self.debug_trap(|| arith_for_text(s))?;
                            self.trace_arith(s);
                            let v = self.eval_arith_src_in("((", s);
                            bad_expr = matches!(v, Err(Ctl::Abort(_)));
                            v?;
                        }
                    }
                    Ok(())
                })();
                self.loop_depth -= 1;
                self.status = st;
                if bad_expr {
                    self.status = 1;
                    return Ok(());
                }
                r
            }
            Compound::Case(word, arms) => {
                self.debug_trap(|| {
                    let mut t = b"case ".to_vec();
                    t.extend_from_slice(&crate::printer::word_text(word));
                    t.extend_from_slice(b" in ");
                    t
                })?;
                let w = self.expand_single(word)?;
                self.trace_words(b"case", std::slice::from_ref(&w), b" in");
                let mode = self.match_mode();
                let mut i = 0;
                let mut fall = false;
                self.status = 0;
                while i < arms.len() {
                    let arm = &arms[i];
                    let mut hit = fall;
                    if !hit {
                        for p in &arm.pats {
                            let pat = self.expand_pattern(p)?;
                            if super::pattern::pat_match(&pat, &w, mode) {
                                hit = true;
                                break;
                            }
                        }
                    }
                    if hit {
                        self.run_program(&arm.body)?;
                        match arm.term {
                            CaseTerm::Break => return Ok(()),
                            CaseTerm::FallThrough => fall = true,
                            CaseTerm::Continue => fall = false,
                        }
                    }
                    i += 1;
                }
                Ok(())
            }
            Compound::Select(var, words, body) => {
                if !self.loop_var_ok(var) {
                    return Ok(());
                }
                let items = match words {
                    Some(w) => self.expand_words(w)?,
                    None => self.positional.clone(),
                };
                // nothing to choose from: no menu, no prompt
                if items.is_empty() {
                    self.status = 0;
                    return Ok(());
                }
                self.loop_depth += 1;
                let r = (|| -> R<()> {
                    loop {
                        let mut head = b"select ".to_vec();
                        head.extend_from_slice(var);
                        if let Some(ws) = words {
                            head.extend_from_slice(b" in");
                            for w in ws {
                                head.push(b' ');
                                head.extend_from_slice(&crate::printer::word_text(w));
                            }
                        }
                        self.debug_trap(|| head.clone())?;
                        if self.opts.xtrace {
                            // traced as written, unlike `for`
                            self.trace_line(&head);
                        }
                        let mut menu = Vec::new();
                        for (i, it) in items.iter().enumerate() {
                            menu.extend_from_slice(format!("{}) ", i + 1).as_bytes());
                            menu.extend_from_slice(it);
                            menu.push(b'\n');
                        }
                        self.write_fd(2, &menu);
                        let ps3 = self.get_var(b"PS3").unwrap_or_else(|| b"#? ".to_vec());
                        self.write_fd(2, &ps3);
                        let line = match self.read_line_fd(0) {
                            Some(l) => l,
                            None => {
                                self.status = 1;
                                return Ok(());
                            }
                        };
                        self.assign_scalar(b"REPLY", None, line.clone(), false)?;
                        let choice = crate::bytes::parse_i64(&line).unwrap_or(0);
                        let v = if choice >= 1 && (choice as usize) <= items.len() {
                            items[choice as usize - 1].clone()
                        } else {
                            Vec::new()
                        };
                        self.assign_scalar(var, None, v, false)?;
                        let r = self.run_program(body);
                        if self.loop_ctl(r)? {
                            break;
                        }
                    }
                    Ok(())
                })();
                self.loop_depth -= 1;
                r
            }
            Compound::Arith(a) => {
                self.debug_trap(|| {
                    let mut t = b"(( ".to_vec();
                    t.extend_from_slice(crate::printer::trim(&crate::printer::word_text(&a.word)));
                    t.extend_from_slice(b" ))");
                    t
                })?;
                self.trace_arith(a);
                let outer = self.arith_ctx.replace("((");
                let v = self.eval_arith_src(a).map_err(|e| match e {
                    Ctl::Abort(_) => Ctl::Abort(1),
                    e => e,
                });
                self.arith_ctx = outer;
                match v {
                    Ok(v) => self.status = (v == 0) as i32,
                    Err(Ctl::Abort(_)) => {
                        self.status = 1;
                    }
                    Err(e) => return Err(e),
                }
                Ok(())
            }
            Compound::Cond(e) => {
                self.debug_trap(|| crate::printer::cond_text(e))?;
                let r = self.eval_cond(e)?;
                self.status = r;
                Ok(())
            }
        }
    }

    /// Whether a subshell keeps a trap of its parent: ignored signals stay
    /// ignored, ERR carries over under set -E, DEBUG and RETURN under set -T.
    pub fn subshell_keeps_trap(&self, sig: i32, code: &[u8]) -> bool {
        match sig {
            -1 => self.opts.errtrace,
            -2 | -3 => self.opts.functrace,
            _ => code.is_empty() && sig > 0,
        }
    }

    /// `( .. )` runs in-process on a snapshot of the state: cheaper than a
    /// process and indistinguishable for the script (state, cwd and fds are
    /// restored afterwards; `exit` only leaves the subshell).
    fn run_subshell(&mut self, p: &Program) -> R<()> {
        if std::mem::take(&mut self.sole_subshell) {
            // this process is the subshell: its last command may replace it
            self.exec_target =
                super::exec_last::exec_candidate(p, super::exec_last::ExecRedirs::Sole);
            return self.run_program(p);
        }
        let snap_vars = self.vars.clone();
        let snap_funcs = self.funcs.clone();
        let snap_opts = self.opts.clone();
        let snap_pos = self.positional.clone();
        let snap_alias = self.aliases.clone();
        let snap_traps = std::mem::take(&mut self.traps);
        // Ignored signals stay ignored in the subshell; the rest are listed
        // by `trap -p` there until it sets its own.
        self.traps = snap_traps
            .iter()
            .filter(|(sig, code)| self.subshell_keeps_trap(**sig, code))
            .map(|(sig, code)| (*sig, code.clone()))
            .collect();
        let snap_parent_traps = self.parent_traps.clone();
        if self.parent_traps.is_none() {
            self.parent_traps = Some(snap_traps.clone());
        }
        let snap_dirs = self.dirstack.clone();
        let snap_limits = self.limits.clone();
        let snap_umask = self.sys.umask(-1);
        let snap_cwd = std::env::current_dir().ok();
        let snap_loop = self.loop_depth;
        let snap_fnames = self.funcnames.len();
        self.loop_depth = 0;
        let fds: Vec<i32> = self.open_fds.iter().copied().collect();
        let saved_fds: Vec<(i32, Option<i32>)> =
            fds.iter().map(|fd| (*fd, self.save_fd(*fd))).collect();
        let snap_open = self.open_fds.clone();
        self.subshells += 1;
        let r = self.run_program(p);
        self.subshells -= 1;
        let mut status = self.status;
        let mut ctl = None;
        match r {
            Ok(()) => {}
            Err(Ctl::Exit(n)) | Err(Ctl::Abort(n)) => status = n,
            Err(Ctl::Return(n)) => status = n,
            Err(e @ Ctl::Break(_)) | Err(e @ Ctl::Continue(_)) => {
                let _ = e;
            }
        }
        // EXIT trap set inside the subshell runs when it ends
        if let Some(code) = self.traps.get(&0).cloned() {
            self.status = status;
            let _ = self.run_trap(&code);
        }
        // close fds opened inside, restore the saved ones
        let now: Vec<i32> = self.open_fds.iter().copied().collect();
        for fd in now {
            if !snap_open.contains(&fd) {
                self.sys.close(fd);
            }
        }
        self.open_fds = snap_open;
        for (fd, s) in saved_fds {
            self.restore_fd(fd, s);
        }
        self.vars = snap_vars;
        self.funcs = snap_funcs;
        self.opts = snap_opts;
        self.positional = snap_pos;
        self.aliases = snap_alias;
        self.traps = snap_traps;
        self.parent_traps = snap_parent_traps;
        self.dirstack = snap_dirs;
        self.limits = snap_limits;
        self.sys.umask(snap_umask);
        self.loop_depth = snap_loop;
        self.funcnames.truncate(snap_fnames);
        if let Some(c) = snap_cwd {
            if std::env::current_dir().ok().as_ref() != Some(&c) {
                let _ = std::env::set_current_dir(&c);
                let b = crate::bytes::os_bytes(c.as_os_str());
                let _ = self.sys.chdir(&b);
            }
        }
        self.status = status;
        if let Some(c) = ctl.take() {
            return Err(c);
        }
        Ok(())
    }

    fn run_background(&mut self, item: &ListItem) -> R<()> {
        let src = item.src.clone().unwrap_or_default();
        // async commands read /dev/null when job control is off
        let saved = if !self.opts.interactive {
            match self.open_path(b"/dev/null", crate::sys::O_READ) {
                Ok(f) => {
                    let s = self.save_fd(0);
                    let _ = self.sys.dup2(f, 0);
                    self.sys.close(f);
                    Some(s)
                }
                Err(_) => None,
            }
        } else {
            None
        };
        let ao = &item.and_or;
        self.spawning_simple = ao.rest.is_empty()
            && !ao.first.bang
            && ao.first.cmds.len() == 1
            && self.forks_simple_at_top(&ao.first.cmds[0]);
        // without job control the job ignores SIGINT and SIGQUIT
        if !self.opts.monitor {
            self.spawning_bg = Some(self.async_kind_of(ao));
        }
        // a sole `( ... )` runs in the job's process itself
        self.spawning_stage = true;
        let r = self.spawn_shell(&src, if self.opts.monitor { 0 } else { -1 });
        self.spawning_stage = false;
        self.spawning_bg = None;
        self.spawning_simple = false;
        if let Some(s) = saved {
            self.restore_fd(0, s);
        }
        self.add_bg_job(r?, src.text.clone());
        Ok(())
    }

    /// `coproc NAME command`: the command runs in the background reading a
    /// pipe from this shell and writing one back; `NAME[0]` reads what it
    /// writes, `NAME[1]` writes to it, `NAME_PID` is its pid.
    fn run_coproc(&mut self, name: &[u8], src: &Src) -> R<()> {
        let pipes = self
            .sys
            .pipe()
            .and_then(|a| self.sys.pipe().map(|b| (a, b)));
        let ((to_r, to_w), (from_r, from_w)) = match pipes {
            Ok(p) => p,
            Err(e) => {
                let mut m = b"coproc: ".to_vec();
                m.extend_from_slice(crate::sys::strerror(e).as_bytes());
                self.err(&m);
                self.status = 1;
                return Ok(());
            }
        };
        let (s0, s1) = (self.save_fd(0), self.save_fd(1));
        let _ = self.sys.dup2(to_r, 0);
        let _ = self.sys.dup2(from_w, 1);
        // the shell's ends are not in open_fds yet: the child gets none of them
        let r = self.spawn_shell(src, -1);
        self.restore_fd(1, s1);
        self.restore_fd(0, s0);
        for fd in [to_r, from_w] {
            self.sys.close(fd);
        }
        // bash's numbers sit high, clear of the ones scripts pick
        let mut ends = Vec::new();
        for (fd, min) in [(from_r, 63), (to_w, 60)] {
            let high = self.sys.dup(fd, min).unwrap_or(fd);
            if high != fd {
                self.sys.close(fd);
            }
            self.open_fds.insert(high);
            ends.push(high.to_string().into_bytes());
        }
        let pid = r?;
        let fds = ends
            .iter()
            .filter_map(|e| crate::bytes::parse_i64(e).map(|n| n as i32))
            .collect();
        self.coprocs.push((pid, name.to_vec(), fds));
        self.set_array(name, ends);
        let mut pid_var = name.to_vec();
        pid_var.extend_from_slice(b"_PID");
        self.assign_scalar(&pid_var, None, pid.to_string().into_bytes(), false)?;
        let mut cmd = b"coproc ".to_vec();
        cmd.extend_from_slice(name);
        cmd.push(b' ');
        cmd.extend_from_slice(&src.text);
        self.add_bg_job(pid, cmd);
        Ok(())
    }

    /// Record a background child as `$!` and a job.
    fn add_bg_job(&mut self, pid: i32, cmd: Bytes) {
        self.last_bg = pid;
        self.bg_pids.push(pid);
        let id = self.new_job_id();
        self.jobs.push(Job {
            id,
            pids: vec![pid],
            pgid: pid,
            cmd,
            status: None,
            stopped: false,
            signal: 0,
        });
        if self.opts.interactive {
            let m = format!("[{}] {}\n", id, pid);
            self.write_fd(2, m.as_bytes());
        }
        self.status = 0;
    }

    /// A reaped coprocess: as bash, close the shell's ends and unset NAME
    /// and NAME_PID.
    pub(crate) fn coproc_reaped(&mut self, pid: i32) {
        if let Some(i) = self.coprocs.iter().position(|c| c.0 == pid) {
            let (_, name, fds) = self.coprocs.remove(i);
            for fd in fds {
                if self.open_fds.remove(&fd) {
                    self.sys.close(fd);
                }
            }
            let mut pid_var = name.clone();
            pid_var.extend_from_slice(b"_PID");
            self.vars.unset(&name);
            self.vars.unset(&pid_var);
        }
    }

    /// Wait for a background pid; reports its status.
    pub fn wait_job(&mut self, pid: i32) -> i32 {
        let st = self.wait_pid(pid);
        self.coproc_reaped(pid);
        self.bg_pids.retain(|p| *p != pid);
        let sig = self.wait_signal;
        for j in self.jobs.iter_mut() {
            if j.pids.contains(&pid) {
                j.status = Some(st);
                j.signal = sig;
            }
        }
        st
    }

    pub fn reap_nohang(&mut self) {
        let pids = self.bg_pids.clone();
        for pid in pids {
            if let Ok((p, st)) = self.sys.wait(pid, true) {
                if p == pid {
                    self.job_ended(pid, st);
                }
            }
        }
    }

    /// A background process has been reaped with raw wait status `raw`:
    /// its job records the status, which is returned.
    pub fn job_ended(&mut self, pid: i32, raw: i32) -> i32 {
        let s = decode_status(raw);
        self.coproc_reaped(pid);
        self.bg_pids.retain(|x| *x != pid);
        for j in self.jobs.iter_mut() {
            if j.pids.contains(&pid) {
                j.status = Some(s);
                j.signal = term_signal(raw);
            }
        }
        s
    }

    /// A job number as bash gives one: one more than the highest in use.
    pub fn new_job_id(&self) -> usize {
        self.jobs.iter().map(|j| j.id).max().unwrap_or(0) + 1
    }

    /// What a non-interactive bash does at its notification points (after
    /// a foreground command, after `wait`): background jobs that have ended
    /// leave the table, and one killed by a signal other than INT, TERM or
    /// PIPE (and not one the shell traps) is reported on stderr.
    pub fn notify_dead_jobs(&mut self) {
        if self.opts.interactive || self.jobs.is_empty() {
            return;
        }
        self.reap_nohang();
        if self.jobs.iter().all(|j| j.status.is_none()) {
            return;
        }
        let jobs = std::mem::take(&mut self.jobs);
        for j in jobs {
            let st = match j.status {
                Some(st) => st,
                None => {
                    self.jobs.push(j);
                    continue;
                }
            };
            let pid = j.pids.last().copied().unwrap_or(0);
            let trapped = self.traps.get(&j.signal).map_or(false, |c| !c.is_empty());
            if j.signal != 0 && !matches!(j.signal, 2 | 13 | 15) && !trapped {
                self.report_killed(pid, j.signal, &j.cmd);
            }
            if self.reaped.len() >= MAX_REAPED {
                self.reaped.remove(0);
            }
            self.reaped.retain(|(p, _)| *p != pid);
            self.reaped.push((pid, st));
        }
    }

    /// `bash: line N:   PID Killed                  cmd`
    fn report_killed(&mut self, pid: i32, sig: i32, cmd: &[u8]) {
        let mut m = format!(
            "{:5} {:<24}",
            pid,
            crate::builtins::flow::signal_description(sig)
        )
        .into_bytes();
        m.extend_from_slice(cmd);
        self.err(&m);
    }

    /// A foreground command ended by a signal, reported as bash does: INT
    /// and PIPE quietly, TERM (or a signal the shell traps) by its name
    /// alone, any other with the process and command.
    fn report_foreground_signal(&mut self, pid: i32, cmd: impl FnOnce() -> Bytes) {
        let sig = self.wait_signal;
        if sig == 0 || self.opts.interactive || matches!(sig, 2 | 13) {
            return;
        }
        let trapped = self.traps.get(&sig).map_or(false, |c| !c.is_empty());
        if sig == 15 || trapped {
            let mut m = crate::builtins::flow::signal_description(sig).into_bytes();
            m.push(b'\n');
            self.write_fd(2, &m);
        } else {
            self.report_killed(pid, sig, &cmd());
        }
    }

    /// Parse and run text (eval, source, traps): command by command.
    pub fn eval_string(&mut self, code: &[u8], line: u32) -> R<()> {
        self.eval_depth += 1;
        if self.eval_depth > super::MAX_EVAL_DEPTH {
            self.eval_depth -= 1;
            self.errs("maximum eval nesting level exceeded");
            return Err(Ctl::Abort(1));
        }
        let r = self.run_text(code, line, false);
        self.eval_depth -= 1;
        r
    }

    /// Report a syntax error bash's way.
    pub fn syntax_error(&mut self, e: &SyntaxError) {
        // bash: "name: input: line N: " where input (-c, eval, a file) is
        // left out when it is the name itself.
        let mut prefix = self.error_name();
        if self.opts.interactive && self.sources.is_empty() {
            prefix.extend_from_slice(b": ");
        } else {
            if prefix != self.input_name {
                prefix.extend_from_slice(b": ");
                prefix.extend_from_slice(&self.input_name);
            }
            prefix.extend_from_slice(format!(": line {}: ", e.line).as_bytes());
        }
        let mut m = Vec::new();
        for msg in std::iter::once(&e.msg).chain(e.also.iter()) {
            if !msg.is_empty() {
                m.extend_from_slice(&prefix);
                m.extend_from_slice(msg.as_bytes());
                m.push(b'\n');
            }
        }
        if let Some(ctx) = &e.context {
            if !self.opts.interactive {
                m.extend_from_slice(&prefix);
                m.push(b'`');
                m.extend_from_slice(ctx);
                m.extend_from_slice(b"'\n");
            }
        }
        self.write_fd(2, &m);
    }

    /// Run text under another input name (eval, source).
    pub fn run_named(&mut self, name: &[u8], code: &[u8], line: u32) -> R<()> {
        let saved = std::mem::replace(&mut self.input_name, name.to_vec());
        let r = self.eval_string(code, line);
        self.input_name = saved;
        match r {
            // an expansion error ends the eval'd or sourced text, not the shell
            Err(Ctl::Abort(st)) => {
                self.status = st;
                Ok(())
            }
            r => r,
        }
    }

    /// Run source text command by command. `top`: errors abort only the current
    /// command and syntax errors end the text with status 2.
    /// Whether `code` is exactly one `( ... )` with no redirections, `!`,
    /// `time`, `&`, `&&` or `||` around it (unparsable text: no).
    pub fn is_sole_subshell(&self, code: &[u8]) -> bool {
        // Most stages are simple commands: skip the second parse for them.
        if code.iter().find(|c| !c.is_ascii_whitespace()) != Some(&b'(') {
            return false;
        }
        let mut text = code.to_vec();
        text.push(b'\n');
        let mut p = Parser::new(text, 1);
        p.extglob = self.opts.extglob;
        let prog = match p.next_command() {
            Ok(Some(prog)) => prog,
            _ => return false,
        };
        if !matches!(p.next_command(), Ok(None)) {
            return false;
        }
        match prog.items.as_slice() {
            [item] if !item.background && item.and_or.rest.is_empty() => {
                let pl = &item.and_or.first;
                !pl.bang
                    && !pl.time
                    && matches!(pl.cmds.as_slice(), [Command::Compound(c, redirs, _)]
                        if redirs.is_empty() && matches!(**c, Compound::Subshell(..)))
            }
            _ => false,
        }
    }

    pub fn run_text(&mut self, code: &[u8], line: u32, top: bool) -> R<()> {
        // bash reads its input as lines: text without a final newline ends
        // with one (an unfinished `if` fails on the next line, `echo >`
        // meets the newline token).
        let mut text = code.to_vec();
        if text.last().map_or(false, |c| *c != b'\n') {
            // A backslash ending `-c`, eval or sourced text is a literal
            // character in bash (a script file or stdin drops it): escape
            // it so the newline added here does not continue the line.
            let keep = !top || self.c_mode;
            let trailing = text.iter().rev().take_while(|c| **c == b'\\').count();
            if keep && trailing % 2 == 1 {
                text.push(b'\\');
            }
            text.push(b'\n');
        }
        let mut p = Parser::new(text, line);
        let mut ran = false;
        loop {
            // extended patterns parse only once `shopt -s extglob` has run
            // (not on the line that sets it), as in bash
            p.extglob = self.opts.extglob;
            if self.opts.expand_aliases && !self.aliases.is_empty() {
                p.aliases = Some(self.aliases.clone());
            } else {
                p.aliases = None;
            }
            let start = p.pos;
            let cmd = p.next_command();
            self.flush_parse_warnings();
            if self.opts.verbose && cmd.is_ok() {
                // set -v: the input echoed as it is read
                let mut t = p.src[start.min(p.pos)..p.pos].to_vec();
                while t.first() == Some(&b'\n') {
                    t.remove(0);
                }
                if !t.is_empty() {
                    if t.last() != Some(&b'\n') {
                        t.push(b'\n');
                    }
                    self.write_fd(2, &t);
                }
            }
            match cmd {
                Ok(None) => {
                    if !ran && !top {
                        self.status = 0;
                    }
                    return Ok(());
                }
                Ok(Some(prog)) => {
                    ran = true;
                    // the text's last command, with nothing left to read
                    let last = top && self.oneshot && p.pos >= p.src.len();
                    if last {
                        let redirs = if self.subshell_level > 0 {
                            super::exec_last::ExecRedirs::Sole
                        } else {
                            super::exec_last::ExecRedirs::Never
                        };
                        self.exec_target = super::exec_last::exec_candidate(&prog, redirs);
                    }
                    let r = self.run_program(&prog);
                    if last {
                        self.exec_target = std::ptr::null();
                    }
                    match r {
                        Ok(()) => {}
                        Err(Ctl::Abort(st)) => {
                            self.status = st;
                            if !top {
                                return Err(Ctl::Abort(st));
                            }
                        }
                        Err(Ctl::Break(_)) | Err(Ctl::Continue(_)) if top => {}
                        Err(e) => return Err(e),
                    }
                }
                Err(e) => {
                    self.syntax_error(&e);
                    if top && !self.opts.interactive {
                        let st = if e.keep_status {
                            self.status
                        } else {
                            e.status.unwrap_or(2)
                        };
                        self.status = st;
                        return Err(Ctl::Exit(st));
                    }
                    self.status = e.status.unwrap_or(2);
                    return Ok(());
                }
            }
        }
    }

    pub fn flush_parse_warnings(&mut self) {
        let w: Vec<(u32, String)> =
            crate::parse::WARNINGS.with(|w| std::mem::take(&mut *w.borrow_mut()));
        for (line, msg) in w {
            let saved = self.lineno;
            self.lineno = line;
            self.errs(&msg);
            self.lineno = saved;
        }
    }

    /// Read one line from an fd byte by byte (select, read fallback).
    pub fn read_line_fd(&mut self, fd: i32) -> Option<Bytes> {
        let mut line = Vec::new();
        let mut b = [0u8; 1];
        loop {
            match self.sys.read(fd, &mut b) {
                Ok(0) => {
                    return if line.is_empty() { None } else { Some(line) };
                }
                Ok(_) => {
                    if b[0] == b'\n' {
                        return Some(line);
                    }
                    line.push(b[0]);
                }
                Err(crate::sys::EINTR) => return None,
                Err(_) => return None,
            }
        }
    }
}

/// A word written `name=value` as an assignment (for set -k).
fn keyword_split(w: &Word) -> Option<Assign> {
    let lit = match w.parts.first() {
        Some(WordPart::Lit(l)) => l,
        _ => return None,
    };
    let eq = lit.iter().position(|c| *c == b'=')?;
    if !crate::parse::is_name(&lit[..eq]) {
        return None;
    }
    let mut parts = vec![WordPart::Lit(lit[eq + 1..].to_vec())];
    parts.extend(w.parts[1..].iter().cloned());
    Some(Assign {
        name: lit[..eq].to_vec(),
        index: None,
        append: false,
        value: AssignValue::Scalar(Word { raw: None, parts }),
    })
}

pub fn is_keyword(s: &[u8]) -> bool {
    matches!(
        s,
        b"if"
            | b"then"
            | b"else"
            | b"elif"
            | b"fi"
            | b"case"
            | b"esac"
            | b"for"
            | b"select"
            | b"while"
            | b"until"
            | b"do"
            | b"done"
            | b"in"
            | b"function"
            | b"time"
            | b"{"
            | b"}"
            | b"!"
            | b"[["
            | b"]]"
            | b"coproc"
    )
}

/// One element of a traced compound assignment: `['key']='value'` or `'value'`.
fn trace_elem(key: Option<&[u8]>, v: &[u8]) -> Bytes {
    let mut o = Vec::new();
    if let Some(k) = key {
        o.push(b'[');
        o.extend_from_slice(&crate::builtins::single_quote(k));
        o.extend_from_slice(b"]=");
    }
    o.extend_from_slice(&crate::builtins::single_quote(v));
    o
}

/// The name in a declaration builtin's `name=(...)` or `name+=(...)` argument.
fn compound_name(a: &[u8]) -> Option<&[u8]> {
    let eq = a.iter().position(|c| *c == b'=')?;
    let name = a[..eq].strip_suffix(b"+").unwrap_or(&a[..eq]);
    let ok = !name.is_empty()
        && !name[0].is_ascii_digit()
        && name.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_');
    (ok && a[eq + 1..].first() == Some(&b'(') && a.last() == Some(&b')')).then(|| name)
}

/// `$BASH_COMMAND` for one part of `for (( ; ; ))`: `((i<2))`.
fn arith_for_text(a: &ArithSrc) -> Bytes {
    let mut t = b"((".to_vec();
    t.extend_from_slice(crate::printer::trim(&crate::printer::word_text(&a.word)));
    t.extend_from_slice(b"))");
    t
}

/// Reaped background statuses kept for `wait PID` (bash keeps a bounded list).
const MAX_REAPED: usize = 256;

/// The signal that ended a process, from its raw wait status (0: none).
fn term_signal(raw: i32) -> i32 {
    let sig = raw & 0x7f;
    if sig != 0 && sig != 0x7f {
        sig
    } else {
        0
    }
}
