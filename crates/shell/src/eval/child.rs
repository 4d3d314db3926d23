//! Child shells. WebAssembly has no fork, so subshells, shell-code pipeline
//! stages, `$( )`, `<( )` and `&` jobs start `/bin/sh --sandglass-subshell FD`
//! and send it the state it needs through a pipe mapped to FD: a compact
//! length-prefixed record stream (variables, functions, options, positional
//! parameters, aliases, then the code and its line number).

use super::{Ctl, Shell, R};
use crate::ast::*;
use crate::state::*;
use std::rc::Rc;

/// fd number the state pipe gets in the child.
pub const STATE_FD: u32 = 199;

pub(crate) fn put(out: &mut Bytes, tag: u8, s: &[u8]) {
    out.push(tag);
    out.extend_from_slice(&(s.len() as u32).to_le_bytes());
    out.extend_from_slice(s);
}

/// Reader of `put` records.
pub(crate) struct Rd<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Rd<'a> {
    pub(crate) fn new(b: &'a [u8]) -> Rd<'a> {
        Rd { b, i: 0 }
    }

    /// Bytes not read (a partial record at the end is not read).
    pub(crate) fn remaining(&self) -> usize {
        self.b.len() - self.i
    }

    pub(crate) fn next(&mut self) -> Option<(u8, &'a [u8])> {
        if self.i + 5 > self.b.len() {
            return None;
        }
        let tag = self.b[self.i];
        let mut l = [0u8; 4];
        l.copy_from_slice(&self.b[self.i + 1..self.i + 5]);
        let len = u32::from_le_bytes(l) as usize;
        let s = self.i + 5;
        if s + len > self.b.len() {
            return None;
        }
        self.i = s + len;
        Some((tag, &self.b[s..s + len]))
    }
}

pub(crate) fn num(s: &[u8]) -> i64 {
    crate::bytes::parse_i64(s).unwrap_or(0)
}

/// A variable as one record: attributes, kind, name, value(s).
pub(crate) fn var_record(k: &[u8], v: &Var) -> Bytes {
    let mut rec = Vec::new();
    rec.extend_from_slice(&v.attrs.to_le_bytes());
    match &v.value {
        None => {
            rec.push(b'u');
            put(&mut rec, b'k', k);
        }
        Some(Value::Str(s)) => {
            rec.push(b's');
            put(&mut rec, b'k', k);
            put(&mut rec, b'v', s);
        }
        Some(Value::Arr(m)) => {
            rec.push(b'a');
            put(&mut rec, b'k', k);
            for (i, s) in m {
                put(&mut rec, b'i', i.to_string().as_bytes());
                put(&mut rec, b'v', s);
            }
        }
        Some(Value::Assoc(m)) => {
            rec.push(b'A');
            put(&mut rec, b'k', k);
            for (i, s) in m {
                put(&mut rec, b'i', i);
                put(&mut rec, b'v', s);
            }
        }
    }
    rec
}

/// The variable of a `var_record`.
pub(crate) fn parse_var_record(s: &[u8]) -> Option<(Bytes, Var)> {
    if s.len() < 3 {
        return None;
    }
    let attrs = u16::from_le_bytes([s[0], s[1]]);
    let kind = s[2];
    let mut rr = Rd::new(&s[3..]);
    let name = rr.next()?.1.to_vec();
    let value = match kind {
        b's' => rr.next().map(|(_, v)| Value::Str(v.to_vec())),
        b'a' => {
            let mut m = std::collections::BTreeMap::new();
            while let (Some((_, i)), Some((_, v))) = (rr.next(), rr.next()) {
                m.insert(num(i), v.to_vec());
            }
            Some(Value::Arr(m))
        }
        b'A' => {
            let mut m = AssocMap::new();
            while let (Some((_, i)), Some((_, v))) = (rr.next(), rr.next()) {
                m.insert(i.to_vec(), v.to_vec());
            }
            Some(Value::Assoc(m))
        }
        _ => None,
    };
    Some((name, Var { value, attrs }))
}

/// A function as one record: name, first line, source text.
pub(crate) fn func_record(name: &[u8], f: &FuncDef) -> Bytes {
    let mut rec = Vec::new();
    put(&mut rec, b'n', name);
    put(&mut rec, b'l', f.src.line.to_string().as_bytes());
    put(&mut rec, b't', &f.src.text);
    rec
}

/// The function of a `func_record`, parsed again from its source.
pub(crate) fn parse_func_record(s: &[u8]) -> Option<(Bytes, Rc<FuncDef>)> {
    let mut rr = Rd::new(s);
    let n = rr.next()?.1.to_vec();
    let l = num(rr.next()?.1) as u32;
    let t = rr.next()?.1;
    let prog = crate::parse::Parser::parse_all(t, l).ok()?;
    match prog.items.first()?.and_or.first.cmds.first()? {
        Command::FuncDef(fd) => Some((n, fd.clone())),
        _ => None,
    }
}

/// What a function record carries beyond its text: the file it came from
/// (`declare -F` under extdebug) and its attributes (`export -f`, `readonly -f`).
#[derive(Default)]
pub(crate) struct FuncExtras {
    pub file: Option<Bytes>,
    pub attrs: Option<u16>,
}

/// A `func_record` followed by its extras, parsed.
pub(crate) fn parse_func_record_with_extras(s: &[u8]) -> Option<(Bytes, Rc<FuncDef>, FuncExtras)> {
    let (n, fd) = parse_func_record(s)?;
    // After name, line and text come the extras.
    let mut rr = Rd::new(s);
    for _ in 0..3 {
        rr.next();
    }
    let mut x = FuncExtras::default();
    while let Some((tag, v)) = rr.next() {
        match tag {
            b's' => x.file = Some(v.to_vec()),
            b'x' => x.attrs = Some(num(v) as u16),
            _ => {}
        }
    }
    Some((n, fd, x))
}

impl Shell {
    /// A function's record with its file and attributes.
    pub(crate) fn func_record_with_extras(&self, name: &Bytes) -> Bytes {
        let mut rec = match self.funcs.get(name) {
            Some(f) => func_record(name, f),
            None => return Vec::new(),
        };
        if let Some(file) = self.func_files.get(name) {
            put(&mut rec, b's', file);
        }
        if let Some(a) = self.func_attrs.get(name) {
            put(&mut rec, b'x', a.to_string().as_bytes());
        }
        rec
    }

    /// Record a function's file and attributes as a record carried them.
    pub(crate) fn set_func_extras(&mut self, name: &[u8], x: FuncExtras) {
        if let Some(f) = x.file {
            self.func_files.insert(name.to_vec(), f);
        }
        if let Some(a) = x.attrs {
            self.func_attrs.insert(name.to_vec(), a);
        }
    }

    /// Serialize the state a child shell needs, followed by the code to run.
    pub fn encode_state(&mut self, code: &Src) -> Bytes {
        let mut o = Vec::with_capacity(4096);
        put(&mut o, b'P', self.pid.to_string().as_bytes());
        put(&mut o, b'Q', self.ppid.to_string().as_bytes());
        put(&mut o, b'_', &self.last_arg.clone());
        put(&mut o, b'S', self.status.to_string().as_bytes());
        put(&mut o, b'0', &self.arg0.clone());
        put(&mut o, b'N', &self.error_name());
        put(&mut o, b'I', &self.input_name.clone());
        let level = self.subshell_level as usize + self.subshells + 1;
        put(&mut o, b'B', level.to_string().as_bytes());
        let trace = self.trace_level + self.cmdsub_child as u32;
        put(&mut o, b'X', trace.to_string().as_bytes());
        put(&mut o, b'c', if self.c_mode { b"1" } else { b"0" });
        put(&mut o, b'!', self.last_bg.to_string().as_bytes());
        if self.spawning_stage {
            put(&mut o, b'V', b"1");
        }
        if self.spawning_simple {
            put(&mut o, b'K', b"1");
        }
        // a background job's kind, passed on to what its subshell starts
        let kind = self.spawning_bg.unwrap_or(self.async_kind);
        if kind != super::AsyncKind::None {
            put(&mut o, b'G', kind.code());
        }
        let mut opts = Vec::new();
        let drop_e = self.cmdsub_child && !self.opts.inherit_errexit;
        for n in SET_O.iter().chain(SHOPTS.iter()) {
            if drop_e && *n == "errexit" {
                continue;
            }
            if *self.opts.get(n).unwrap_or(&mut false) {
                opts.extend_from_slice(n.as_bytes());
                opts.push(b' ');
            }
        }
        put(&mut o, b'o', &opts);
        for (n, on) in &self.opts.other {
            let mut rec = n.as_bytes().to_vec();
            rec.push(if *on { b'1' } else { b'0' });
            put(&mut o, b'O', &rec);
        }
        for p in &self.positional {
            put(&mut o, b'p', p);
        }
        // variables: merge scopes (inner wins)
        let mut merged: std::collections::BTreeMap<Bytes, Var> = std::collections::BTreeMap::new();
        for s in &self.vars.scopes {
            for (k, v) in s {
                merged.insert(k.clone(), v.clone());
            }
        }
        for (k, v) in merged {
            put(&mut o, b'v', &var_record(&k, &v));
        }
        let mut fnames: Vec<&Bytes> = self.funcs.keys().collect();
        fnames.sort();
        for n in fnames {
            put(&mut o, b'f', &self.func_record_with_extras(n));
        }
        for (k, v) in &self.aliases {
            let mut rec = Vec::new();
            put(&mut rec, b'k', k);
            put(&mut rec, b'v', v);
            put(&mut o, b'a', &rec);
        }
        // completion specifications, so `complete -p | ...` lists them
        for (k, l) in &self.completions {
            let mut rec = Vec::new();
            put(&mut rec, b'k', k);
            put(&mut rec, b'v', l);
            put(&mut o, b'M', &rec);
        }
        for (sig, code) in &self.traps {
            if code.is_empty() && *sig > 0 {
                put(&mut o, b'T', sig.to_string().as_bytes());
            } else if *sig < 0 && self.subshell_keeps_trap(*sig, code) {
                let mut rec = Vec::new();
                put(&mut rec, b's', sig.to_string().as_bytes());
                put(&mut rec, b'c', code);
                put(&mut o, b'U', &rec);
            }
        }
        for (sig, code) in self.parent_traps.as_ref().unwrap_or(&self.traps) {
            let mut rec = Vec::new();
            put(&mut rec, b's', sig.to_string().as_bytes());
            put(&mut rec, b'c', code);
            put(&mut o, b'R', &rec);
        }
        for (name, path) in &self.hash {
            let mut rec = Vec::new();
            put(&mut rec, b'n', name);
            put(&mut rec, b'p', path);
            let hits = self.hash_hits.get(name).copied().unwrap_or(0);
            put(&mut rec, b'h', hits.to_string().as_bytes());
            put(&mut o, b'H', &rec);
        }
        for (i, f) in self.funcnames.iter().enumerate() {
            let _ = i;
            put(&mut o, b'F', f);
        }
        for d in &self.dirstack {
            put(&mut o, b'D', d);
        }
        for n in &self.disabled {
            put(&mut o, b'E', n);
        }
        // a subshell lists its parent's running jobs (`jobs | wc -l`)
        for j in self.jobs.iter().filter(|j| j.status.is_none()) {
            let mut rec = Vec::new();
            put(&mut rec, b'i', j.id.to_string().as_bytes());
            put(&mut rec, b'c', &j.cmd);
            for p in &j.pids {
                put(&mut rec, b'p', p.to_string().as_bytes());
            }
            put(&mut o, b'J', &rec);
        }
        put(&mut o, b'L', code.line.to_string().as_bytes());
        put(&mut o, b'C', &code.text);
        o
    }

    /// Load state sent by the parent; returns the code and its line.
    pub fn decode_state(&mut self, b: &[u8]) -> Src {
        let mut r = Rd { b, i: 0 };
        let mut code = Src::default();
        self.positional.clear();
        self.vars = Vars::new();
        while let Some((tag, s)) = r.next() {
            match tag {
                b'P' => self.pid = num(s) as i32,
                b'Q' => self.ppid = num(s) as i32,
                b'_' => self.last_arg = s.to_vec(),
                b'S' => self.status = num(s) as i32,
                b'0' => self.arg0 = s.to_vec(),
                b'N' => self.err_name = s.to_vec(),
                b'I' => self.input_name = s.to_vec(),
                b'B' => self.subshell_level = num(s) as u32,
                b'X' => self.trace_level = num(s) as u32,
                b'O' => {
                    if let Some((last, name)) = s.split_last() {
                        let name = String::from_utf8_lossy(name);
                        self.set_shopt(&name, *last == b'1');
                    }
                }
                b'c' => self.c_mode = s == b"1",
                b'!' => self.last_bg = num(s) as i32,
                b'V' => self.sole_subshell = s == b"1",
                b'K' => self.simple_fork = s == b"1",
                b'o' => {
                    // the list names every option that is on
                    for n in SET_O.iter().chain(SHOPTS.iter()) {
                        if let Some(f) = self.opts.get(n) {
                            *f = false;
                        }
                    }
                    for n in s.split(|c| *c == b' ') {
                        if let Ok(n) = std::str::from_utf8(n) {
                            if let Some(f) = self.opts.get(n) {
                                *f = true;
                            }
                        }
                    }
                }
                b'p' => self.positional.push(s.to_vec()),
                b'v' => {
                    if let Some((name, var)) = parse_var_record(s) {
                        self.vars.scopes[0].insert(name, var);
                    }
                }
                b'f' => {
                    if let Some((n, fd, extras)) = parse_func_record_with_extras(s) {
                        self.set_func_extras(&n, extras);
                        self.funcs.insert(n, fd);
                    }
                }
                b'a' => {
                    let mut rr = Rd { b: s, i: 0 };
                    if let (Some((_, k)), Some((_, v))) = (rr.next(), rr.next()) {
                        self.aliases.insert(k.to_vec(), v.to_vec());
                    }
                }
                b'M' => {
                    let mut rr = Rd { b: s, i: 0 };
                    if let (Some((_, k)), Some((_, l))) = (rr.next(), rr.next()) {
                        self.completions.push((k.to_vec(), l.to_vec()));
                    }
                }
                b'T' => {
                    let sig = num(s) as i32;
                    self.traps.insert(sig, Vec::new());
                    let _ = self.sys.sigaction(sig as u32, 1);
                }
                b'U' => {
                    let mut rr = Rd { b: s, i: 0 };
                    if let (Some((_, sig)), Some((_, code))) = (rr.next(), rr.next()) {
                        self.traps.insert(num(sig) as i32, code.to_vec());
                    }
                }
                b'R' => {
                    let mut rr = Rd { b: s, i: 0 };
                    if let (Some((_, sig)), Some((_, code))) = (rr.next(), rr.next()) {
                        self.parent_traps
                            .get_or_insert_with(Default::default)
                            .insert(num(sig) as i32, code.to_vec());
                    }
                }
                b'H' => {
                    let mut rr = Rd { b: s, i: 0 };
                    if let (Some((_, n)), Some((_, p)), Some((_, h))) =
                        (rr.next(), rr.next(), rr.next())
                    {
                        self.hash.insert(n.to_vec(), p.to_vec());
                        self.hash_hits.insert(n.to_vec(), num(h) as u32);
                    }
                }
                b'F' => self.funcnames.push(s.to_vec()),
                b'J' => {
                    let mut rr = Rd { b: s, i: 0 };
                    let mut job = Job {
                        id: 0,
                        pids: Vec::new(),
                        pgid: 0,
                        cmd: Vec::new(),
                        status: None,
                        stopped: false,
                        signal: 0,
                    };
                    while let Some((t, v)) = rr.next() {
                        match t {
                            b'i' => job.id = num(v) as usize,
                            b'c' => job.cmd = v.to_vec(),
                            _ => job.pids.push(num(v) as i32),
                        }
                    }
                    self.jobs.push(job);
                }
                b'D' => self.dirstack.push(s.to_vec()),
                b'E' => {
                    self.disabled.insert(s.to_vec());
                }
                b'G' => self.async_kind = super::AsyncKind::from_code(s),
                b'L' => code.line = num(s) as u32,
                b'C' => code.text = s.to_vec(),
                _ => {}
            }
        }
        self.enter_async();
        self.sync_locale();
        code
    }

    /// Start a child shell running `code` with the current state; the child's
    /// fds are the shell's current user-visible fds.
    pub fn spawn_shell(&mut self, code: &Src, pgid: i32) -> R<i32> {
        let state = self.encode_state(code);
        let (rd, wr) = match self.sys.pipe() {
            Ok(p) => p,
            Err(e) => {
                self.errs(&format!(
                    "cannot make pipe for subshell: {}",
                    crate::sys::strerror(e)
                ));
                return Err(Ctl::Abort(1));
            }
        };
        let mut fds = self.child_fds();
        fds.push((STATE_FD, rd as u32));
        let argv = vec![
            self.arg0.clone(),
            b"--sandglass-subshell".to_vec(),
            STATE_FD.to_string().into_bytes(),
        ];
        let env = self.child_env(&[]);
        let exe = self.exe.clone();
        let (pgid, foreground) = self.job_pgid(pgid);
        let req = crate::sys::SpawnReq {
            path: &exe,
            argv: &argv,
            env: &env,
            fds: &fds,
            pgid,
            foreground,
            intquit: if self.spawning_bg.is_some() {
                crate::sys::IntQuit::Ignore
            } else {
                crate::sys::IntQuit::Inherit
            },
        };
        let r = self.sys.spawn(&req);
        self.sys.close(rd);
        match r {
            Ok(pid) => {
                self.job_spawned(pid);
                self.write_fd(wr, &state);
                self.sys.close(wr);
                Ok(pid)
            }
            Err(e) => {
                self.sys.close(wr);
                self.errs(&format!(
                    "cannot start subshell: {}",
                    crate::sys::strerror(e)
                ));
                Err(Ctl::Abort(1))
            }
        }
    }

    /// The fd table a child inherits: (child fd, parent fd).
    pub fn child_fds(&mut self) -> Vec<(u32, u32)> {
        let mut v: Vec<(u32, u32)> = Vec::new();
        for fd in self.open_fds.iter() {
            v.push((*fd as u32, *fd as u32));
        }
        v
    }

    /// (pgid, foreground) for a child being spawned: under job control the
    /// first process of a foreground job leads a new group that becomes the
    /// tty's foreground group, later pipeline stages join it.
    pub fn job_pgid(&self, default: i32) -> (i32, bool) {
        if !self.jc || !self.jc_job {
            (default, false)
        } else if self.jc_group == 0 {
            (0, true)
        } else {
            (self.jc_group, false)
        }
    }

    /// Record a spawned child's pid as the foreground job's group if it leads one.
    pub fn job_spawned(&mut self, pid: i32) {
        if self.jc && self.jc_job && self.jc_group == 0 {
            self.jc_group = pid;
        }
    }

    /// After a foreground job: take the terminal back and forget the job's group.
    /// The job had the terminal, so a Ctrl-C meant for it is not the shell's.
    pub fn end_job(&mut self) {
        if self.jc && self.jc_group != 0 {
            let _ = self.sys.tcsetpgrp(0, self.shell_pgid);
            let p = self.sys.sigpending();
            self.pending_signals |= p & !(1u64 << 2);
        }
        self.jc_group = 0;
        self.jc_job = false;
    }

    /// A foreground job's process stopped: keep the job in the table and say so.
    fn job_stopped(&mut self, pid: i32) {
        let pgid = self.jc_group;
        let id = match self.jobs.iter_mut().find(|j| j.pgid == pgid) {
            Some(j) => {
                if !j.pids.contains(&pid) {
                    j.pids.push(pid);
                }
                if j.stopped {
                    // another process of the same (already reported) job
                    return;
                }
                j.stopped = true;
                j.status = None;
                j.id
            }
            None => {
                let id = self.new_job_id();
                self.jobs.push(crate::state::Job {
                    id,
                    pids: vec![pid],
                    pgid,
                    cmd: self.jc_cmd.clone(),
                    status: None,
                    stopped: true,
                    signal: 0,
                });
                id
            }
        };
        let mut m = format!("\n[{}]+  Stopped                 ", id).into_bytes();
        m.extend_from_slice(&self.jc_cmd);
        m.push(b'\n');
        self.write_fd(2, &m);
    }

    /// Wait for a child, returning its shell status (128+n when killed).
    pub fn wait_pid(&mut self, pid: i32) -> i32 {
        // a foreground job may be stopped with Ctrl-Z: do not wait for it forever
        let untraced = self.jc && self.jc_group != 0;
        loop {
            let r = if untraced {
                self.sys.wait_untraced(pid)
            } else {
                self.sys.wait(pid, false)
            };
            match r {
                Ok((_, st)) => {
                    if untraced && st & 0xff == 0x7f {
                        self.job_stopped(pid);
                    }
                    self.wait_signal = if st & 0x7f != 0x7f { st & 0x7f } else { 0 };
                    return decode_status(st);
                }
                Err(crate::sys::EINTR) => {
                    // a caught signal: let traps run, keep waiting
                    self.pending_signals |= self.sys.sigpending();
                    continue;
                }
                Err(_) => return 127,
            }
        }
    }

    /// `$(..)`: run in a child (or in-process for plain builtins) and capture stdout.
    pub fn command_subst_src(&mut self, prog: &Rc<Program>, src: &Src) -> R<Bytes> {
        self.subst_ran = true;
        if prog.items.is_empty() {
            self.status = 0;
            return Ok(Vec::new());
        }
        if let Some(s) = single_simple(prog) {
            if s.words.is_empty() && s.assigns.is_empty() && s.redirs.len() == 1 {
                let r = &s.redirs[0];
                if matches!(r.op, RedirOp::In) && r.fd.map_or(true, |f| f == 0) && r.var.is_none() {
                    return self.file_subst(&r.target);
                }
            }
        }
        if let Some(out) = self.try_inprocess_subst(prog)? {
            return Ok(out);
        }
        let (rd, wr) = match self.sys.pipe() {
            Ok(p) => p,
            Err(_) => return Err(Ctl::Abort(1)),
        };
        let saved = self.save_fd(1);
        let _ = self.sys.dup2(wr, 1);
        self.sys.close(wr);
        let pid = self.spawn_subst_child(prog, src);
        self.restore_fd(1, saved);
        let pid = match pid {
            Ok(p) => p,
            Err(e) => {
                self.sys.close(rd);
                return Err(e);
            }
        };
        let mut out = Vec::new();
        let mut buf = vec![0u8; 65536];
        loop {
            match self.sys.read(rd, &mut buf) {
                Ok(0) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(crate::sys::EINTR) => continue,
                Err(_) => break,
            }
        }
        self.sys.close(rd);
        if pid > 0 {
            self.status = self.wait_pid(pid);
        }
        self.subst_result(&mut out);
        Ok(out)
    }

    /// `$(<file)`: the file's contents (bash reads it itself, no command runs).
    fn file_subst(&mut self, target: &Word) -> R<Bytes> {
        let path = self.expand_single(target)?;
        let fd = match self.open_path(&path, crate::sys::O_READ) {
            Ok(fd) => fd,
            Err(e) => {
                let _ = self.redir_error(&path, e);
                self.status = 1;
                return Ok(Vec::new());
            }
        };
        let mut out = Vec::new();
        let mut buf = vec![0u8; 65536];
        loop {
            match self.sys.read(fd, &mut buf) {
                Ok(0) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(crate::sys::EINTR) => continue,
                Err(_) => break,
            }
        }
        self.sys.close(fd);
        self.status = 0;
        self.subst_result(&mut out);
        Ok(out)
    }

    /// Spawn the child for `$(..)`: a lone external command is started directly.
    fn spawn_subst_child(&mut self, prog: &Rc<Program>, src: &Src) -> R<i32> {
        if let Some(s) = single_simple(prog) {
            if s.assigns.is_empty() && s.redirs.is_empty() && !s.words.is_empty() {
                if let Some(name) = s.words[0].as_plain() {
                    if !self.funcs.contains_key(name)
                        && !self.builtin_on(name)
                        && !name.contains(&b'=')
                    {
                        let argv = self.expand_words(&s.words)?;
                        if let Some(path) = self.find_command(&argv[0]) {
                            if let Ok(pid) = self.spawn_external(&path, &argv, &[]) {
                                return Ok(pid);
                            }
                            // Refused (a script without `#!`, a binary, no
                            // permission): a child shell runs the command and
                            // says why as bash does, instead of this shell
                            // ending silently.
                        }
                    }
                }
            }
        }
        self.cmdsub_child = true;
        let r = self.spawn_shell(src, -1);
        self.cmdsub_child = false;
        r
    }

    /// Run `$(echo ..)`/`$(printf ..)`-style substitutions in-process when that
    /// cannot change bash-visible state.
    fn try_inprocess_subst(&mut self, prog: &Rc<Program>) -> R<Option<Bytes>> {
        let s = match single_simple(prog) {
            Some(s) => s,
            None => return Ok(None),
        };
        if !s.assigns.is_empty() || !s.redirs.is_empty() || s.words.is_empty() {
            return Ok(None);
        }
        let name = match s.words[0].as_plain() {
            Some(n) => n,
            None => return Ok(None),
        };
        if !matches!(name, b"echo" | b"printf" | b"pwd" | b"true" | b":")
            || self.funcs.contains_key(name)
        {
            return Ok(None);
        }
        if !s.words.iter().all(word_is_pure) {
            return Ok(None);
        }
        // the words expand as in the substitution's subshell ($BASH_SUBSHELL)
        self.subshells += 1;
        let argv = self.expand_words(&s.words);
        self.subshells -= 1;
        let argv = match argv {
            Ok(a) => a,
            // a fatal expansion error ends only the substitution's subshell
            Err(Ctl::Exit(st)) | Err(Ctl::Abort(st)) => {
                self.status = st;
                return Ok(Some(Vec::new()));
            }
            Err(e) => return Err(e),
        };
        if name == b"printf" && argv.get(1).map(|a| a == b"-v").unwrap_or(false) {
            return Ok(None);
        }
        let prev = self.capture.replace(Vec::new());
        self.trace_level += 1;
        if self.opts.xtrace {
            self.xtrace_argv(&argv);
        }
        let r = self.run_builtin(&argv);
        self.trace_level -= 1;
        let mut out = std::mem::replace(&mut self.capture, prev).unwrap_or_default();
        r?;
        self.subst_result(&mut out);
        Ok(Some(out))
    }

    /// The value of a `$(..)` from its output: trailing newlines removed and
    /// NULs dropped, with one warning per substitution, as bash does.
    fn subst_result(&mut self, out: &mut Bytes) {
        if out.contains(&0) {
            out.retain(|&c| c != 0);
            self.err(b"warning: command substitution: ignored null byte in input");
        }
        while out.last() == Some(&b'\n') {
            out.pop();
        }
    }

    /// `<(..)` / `>(..)`: a child connected by a pipe kept open as /dev/fd/N.
    pub fn process_subst(&mut self, write: bool, src: &Src) -> R<Bytes> {
        let (rd, wr) = match self.sys.pipe() {
            Ok(p) => p,
            Err(_) => return Err(Ctl::Abort(1)),
        };
        let (child_end, keep) = if write { (rd, wr) } else { (wr, rd) };
        let target = if write { 0 } else { 1 };
        let saved = self.save_fd(target);
        let _ = self.sys.dup2(child_end, target);
        self.sys.close(child_end);
        let pid = self.spawn_shell(src, -1);
        self.restore_fd(target, saved);
        let pid = pid?;
        let fd = self.sys.dup(keep, 60).unwrap_or(keep);
        if fd != keep {
            self.sys.close(keep);
        }
        self.open_fds.insert(fd);
        self.procsub_fds.push(fd);
        self.last_bg = pid;
        self.bg_pids.push(pid);
        Ok(format!("/dev/fd/{}", fd).into_bytes())
    }
}

pub fn decode_status(st: i32) -> i32 {
    if st & 0x7f == 0 {
        (st >> 8) & 0xff
    } else if st & 0xff == 0x7f {
        128 + ((st >> 8) & 0x7f)
    } else {
        128 + (st & 0x7f)
    }
}

fn single_simple(prog: &Program) -> Option<&Simple> {
    if prog.items.len() != 1 || prog.items[0].background {
        return None;
    }
    let ao = &prog.items[0].and_or;
    if !ao.rest.is_empty() || ao.first.cmds.len() != 1 || ao.first.bang {
        return None;
    }
    match &ao.first.cmds[0] {
        Command::Simple(s) => Some(s),
        _ => None,
    }
}

/// A word whose expansion has no side effects.
fn word_is_pure(w: &Word) -> bool {
    fn part(p: &WordPart) -> bool {
        match p {
            WordPart::Lit(_) | WordPart::Quoted(_) | WordPart::Tilde(_) => true,
            WordPart::Double(ps) => ps.iter().all(part),
            WordPart::Param(p) => match &p.op {
                ParamOp::None => {
                    p.index
                        .as_ref()
                        .map(|w| w.as_plain().is_some())
                        .unwrap_or(true)
                        && !matches!(&p.name, ParamName::Var(n) if n == b"RANDOM")
                }
                ParamOp::Default { kind, word, .. } => {
                    *kind != b'=' && *kind != b'?' && word_is_pure(word)
                }
                ParamOp::Remove { pat, .. } => word_is_pure(pat),
                ParamOp::Replace { pat, rep, .. } => word_is_pure(pat) && word_is_pure(rep),
                ParamOp::Case { pat, .. } => word_is_pure(pat),
                ParamOp::Transform(t) => *t != 0,
                ParamOp::Names(_) | ParamOp::Keys(_) => true,
                ParamOp::Substr { .. } => false,
            },
            _ => false,
        }
    }
    w.parts.iter().all(part)
}

/// Whether expanding `w` may change the shell's state (`${x:=..}`,
/// arithmetic, an array subscript): such words must expand in the child
/// that runs the command, not in this shell.
pub(crate) fn may_assign(w: &Word) -> bool {
    fn part(p: &WordPart) -> bool {
        match p {
            WordPart::Double(ps) => ps.iter().any(part),
            WordPart::Arith(_) => true,
            WordPart::Param(p) => {
                p.index.is_some()
                    || match &p.op {
                        ParamOp::Default { kind, word, .. } => *kind == b'=' || may_assign(word),
                        ParamOp::Remove { pat, .. } | ParamOp::Case { pat, .. } => may_assign(pat),
                        ParamOp::Replace { pat, rep, .. } => may_assign(pat) || may_assign(rep),
                        ParamOp::Substr { .. } => true,
                        _ => false,
                    }
            }
            _ => false,
        }
    }
    w.parts.iter().any(part)
}
