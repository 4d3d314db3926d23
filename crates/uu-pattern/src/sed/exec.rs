//! The sed engine: reads lines (with one line of look-ahead so `$` is
//! known), runs the command list on the pattern space, and writes output.

use super::parse::{Addr, Kind, Re, Repl, Script, Subst};
use crate::rx::{Locs, Regex};
use coreutils_core::error::strerror;
use coreutils_core::fs::File;
use coreutils_core::io::exit_on_write_error;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::rc::Rc;

/// Options affecting execution.
pub struct ExecOpts {
    pub quiet: bool,
    pub separate: bool,
    pub eol: u8,
    pub line_wrap: usize,
    pub debug_posix: bool,
}

/// One input line: content and whether it ended with the terminator.
type Line = (Vec<u8>, bool);

/// The stream of input lines across files.
pub struct Input {
    files: Vec<Vec<u8>>,
    next_file: usize,
    cur: Option<Box<dyn BufRead>>,
    pub cur_name: Vec<u8>,
    ahead: Option<Line>,
    ahead_name: Vec<u8>,
    eol: u8,
    /// Exit status contribution (2 for unreadable files, 4 for read errors).
    pub status: i32,
    /// Stop at the end of the current file (-s, -i): `$` is per file.
    per_file: bool,
    /// A used line buffer to read the next line into (no allocation per line).
    spare: Vec<u8>,
}

impl Input {
    pub fn new(files: Vec<Vec<u8>>, eol: u8, per_file: bool) -> Input {
        Input {
            files,
            next_file: 0,
            cur: None,
            cur_name: Vec::new(),
            ahead: None,
            ahead_name: Vec::new(),
            eol,
            status: 0,
            per_file,
            spare: Vec::new(),
        }
    }

    /// Open the next readable file; false when none is left.
    fn open_next(&mut self) -> bool {
        while self.next_file < self.files.len() {
            let name = self.files[self.next_file].clone();
            self.next_file += 1;
            if name == b"-" {
                self.cur = Some(Box::new(BufReader::with_capacity(64 * 1024, io::stdin())));
                self.ahead_name = b"-".to_vec();
                return true;
            }
            let os = coreutils_core::bytes::os_str(&name);
            match coreutils_core::fs::open(os) {
                Ok(f) => {
                    if f.metadata().map(|m| m.is_dir()).unwrap_or(false) {
                        eprintln!(
                            "{}: read error on {}: Is a directory",
                            coreutils_core::prog("sed"),
                            String::from_utf8_lossy(&name)
                        );
                        self.status = 4;
                        continue;
                    }
                    self.cur = Some(Box::new(BufReader::with_capacity(64 * 1024, f)));
                    self.ahead_name = name;
                    return true;
                }
                Err(e) => {
                    eprintln!(
                        "{}: can't read {}: {}",
                        coreutils_core::prog("sed"),
                        String::from_utf8_lossy(&name),
                        strerror(&e)
                    );
                    self.status = 2;
                }
            }
        }
        false
    }

    fn read_raw(&mut self, may_open: bool) -> Option<Line> {
        loop {
            if self.cur.is_none() && (!may_open || !self.open_next()) {
                return None;
            }
            let r = self.cur.as_mut()?;
            let mut buf = std::mem::take(&mut self.spare);
            buf.clear();
            match crate::common::read_line::read_until(r, self.eol, &mut buf) {
                Ok(0) => {
                    self.cur = None;
                    if self.per_file {
                        return None;
                    }
                }
                Ok(_) => {
                    let nl = buf.last() == Some(&self.eol);
                    if nl {
                        buf.pop();
                    }
                    return Some((buf, nl));
                }
                Err(e) => {
                    eprintln!(
                        "{}: read error on {}: {}",
                        coreutils_core::prog("sed"),
                        String::from_utf8_lossy(&self.ahead_name),
                        strerror(&e)
                    );
                    self.status = 4;
                    self.cur = None;
                }
            }
        }
    }

    /// Start reading (per-file mode: the next file).
    pub fn start(&mut self) -> bool {
        self.ahead = None;
        if self.per_file && !self.open_next() {
            return false;
        }
        self.ahead = self.read_raw(!self.per_file);
        true
    }

    /// The next line, if any.
    pub fn next_line(&mut self) -> Option<Line> {
        let l = self.ahead.take()?;
        if self.cur_name != self.ahead_name {
            self.cur_name.clone_from(&self.ahead_name);
        }
        self.ahead = self.read_raw(!self.per_file);
        Some(l)
    }

    pub fn is_last(&self) -> bool {
        self.ahead.is_none()
    }

    /// Give back a line buffer that is no longer needed, for reuse.
    pub fn recycle(&mut self, buf: Vec<u8>) {
        if buf.capacity() > self.spare.capacity() {
            self.spare = buf;
        }
    }
}

/// Where output goes: stdout or the in-place temporary file.
pub struct Output {
    pub w: Box<dyn Write>,
    missing_newline: bool,
}

impl Output {
    pub fn new(w: Box<dyn Write>) -> Output {
        Output {
            w,
            missing_newline: false,
        }
    }

    fn put(&mut self, b: &[u8]) {
        if let Err(e) = self.w.write_all(b) {
            exit_on_write_error(e);
        }
    }

    /// Write a line; `nl` says whether to end it with the terminator.
    fn line(&mut self, b: &[u8], nl: bool, eol: u8) {
        if self.missing_newline {
            self.put(&[eol]);
            self.missing_newline = false;
        }
        self.put(b);
        if nl {
            self.put(&[eol]);
        } else {
            self.missing_newline = true;
        }
    }

    fn text(&mut self, b: &[u8], eol: u8) {
        if self.missing_newline {
            self.put(&[eol]);
            self.missing_newline = false;
        }
        self.put(b);
    }

    pub fn flush(&mut self) {
        if let Err(e) = self.w.flush() {
            exit_on_write_error(e);
        }
    }
}

enum Queued {
    Text(Vec<u8>),
    File(Vec<u8>),
    RLine(usize),
}

/// Why a cycle ended.
enum End {
    /// Normal end of script: autoprint.
    Cycle,
    /// `d`: no autoprint, next cycle.
    Delete,
    /// `D` with a newline: restart without reading.
    Restart,
    /// `q`: autoprint then exit.
    Quit(i32),
    /// `Q`: exit now.
    QuitSilent(i32),
}

/// Runtime state of a script.
pub struct Engine {
    pub script: Script,
    pub o: ExecOpts,
    hold: Vec<u8>,
    lineno: u64,
    last_re: Option<Rc<Regex>>,
    wouts: Vec<Option<Box<dyn Write>>>,
    rins: Vec<Option<BufReader<File>>>,
    queue: Vec<Queued>,
    locs: Locs,
    /// Reused output buffer of `s` (swapped with the pattern space).
    sub_out: Vec<u8>,
    pub exit_code: Option<i32>,
    pub status: i32,
}

impl Engine {
    pub fn new(script: Script, o: ExecOpts) -> Result<Engine, String> {
        let mut wouts: Vec<Option<Box<dyn Write>>> = Vec::new();
        for f in &script.wfiles {
            let w: Box<dyn Write> = match f.name.as_slice() {
                b"/dev/stdout" => Box::new(io::stdout()),
                b"/dev/stderr" => Box::new(io::stderr()),
                n => match coreutils_core::fs::create(coreutils_core::bytes::os_str(n)) {
                    Ok(f) => Box::new(io::BufWriter::new(f)),
                    Err(e) => {
                        return Err(format!(
                            "couldn't open file {}: {}",
                            String::from_utf8_lossy(n),
                            strerror(&e)
                        ))
                    }
                },
            };
            wouts.push(Some(w));
        }
        let rins = script
            .rfiles
            .iter()
            .map(|f| {
                coreutils_core::fs::open(coreutils_core::bytes::os_str(&f.name))
                    .ok()
                    .map(BufReader::new)
            })
            .collect();
        Ok(Engine {
            script,
            o,
            hold: Vec::new(),
            lineno: 0,
            last_re: None,
            wouts,
            rins,
            queue: Vec::new(),
            locs: Vec::new(),
            sub_out: Vec::new(),
            exit_code: None,
            status: 0,
        })
    }

    pub fn reset_lines(&mut self) {
        self.lineno = 0;
        for c in &mut self.script.cmds {
            c.active = false;
            c.end_line = 0;
        }
    }

    pub fn flush_files(&mut self) {
        for w in self.wouts.iter_mut().flatten() {
            let _ = w.flush();
        }
    }

    fn re_or_last(&mut self, re: &Re) -> Result<Rc<Regex>, String> {
        match re {
            Some(r) => {
                self.last_re = Some(r.clone());
                Ok(r.clone())
            }
            None => self
                .last_re
                .clone()
                .ok_or_else(|| "no previous regular expression".to_string()),
        }
    }

    fn match_addr(&mut self, a: &Addr, ps: &[u8], last: bool) -> Result<bool, String> {
        Ok(match a {
            Addr::Line(n) => self.lineno == *n,
            Addr::Last => last,
            Addr::Re(re) => {
                let r = self.re_or_last(re)?;
                r.is_match(ps)
            }
            Addr::Step(first, step) => {
                if *step == 0 {
                    self.lineno == *first
                } else {
                    self.lineno >= *first && (self.lineno - first) % step == 0
                }
            }
            Addr::Plus(_) | Addr::Mult(_) => false,
        })
    }

    /// Whether command `i` applies to the current line.
    fn selected(&mut self, i: usize, ps: &[u8], last: bool) -> Result<bool, String> {
        // Take the addresses out while matching (the match updates state).
        let a1 = self.script.cmds[i].a1.take();
        let a2 = self.script.cmds[i].a2.take();
        let r = self.selected_inner(i, &a1, &a2, ps, last);
        self.script.cmds[i].a1 = a1;
        self.script.cmds[i].a2 = a2;
        let hit = r?;
        Ok(hit != self.script.cmds[i].negate)
    }

    fn selected_inner(
        &mut self,
        i: usize,
        a1: &Option<Addr>,
        a2: &Option<Addr>,
        ps: &[u8],
        last: bool,
    ) -> Result<bool, String> {
        let a1 = match a1 {
            None => return Ok(true),
            Some(a) => a,
        };
        let a2 = match a2 {
            None => return self.match_addr(a1, ps, last),
            Some(a) => a,
        };
        let ln = self.lineno;
        if self.script.cmds[i].active {
            let end = match a2 {
                Addr::Line(n) => ln >= *n,
                Addr::Plus(_) | Addr::Mult(_) => ln >= self.script.cmds[i].end_line,
                Addr::Last => last,
                other => self.match_addr(other, ps, last)?,
            };
            if end {
                self.script.cmds[i].active = false;
            }
            return Ok(true);
        }
        let start = match a1 {
            Addr::Line(0) => {
                // `0,/re/`: the range is open from before line 1.
                if ln == 1 {
                    self.script.cmds[i].active = true;
                    self.script.cmds[i].end_line = 1;
                    if self.match_addr(a2, ps, last)? {
                        self.script.cmds[i].active = false;
                    }
                    return Ok(true);
                }
                false
            }
            other => self.match_addr(other, ps, last)?,
        };
        if !start {
            return Ok(false);
        }
        let c = &mut self.script.cmds[i];
        match a2 {
            Addr::Line(n) => {
                if *n > ln {
                    c.active = true;
                }
            }
            Addr::Plus(n) => {
                if *n > 0 {
                    c.end_line = ln + n;
                    c.active = true;
                }
            }
            Addr::Mult(n) => {
                if *n > 0 && ln % n != 0 {
                    c.end_line = (ln / n + 1) * n;
                    c.active = true;
                }
            }
            Addr::Last => {
                if !last {
                    c.active = true;
                }
            }
            _ => c.active = true,
        }
        Ok(true)
    }

    fn flush_queue(&mut self, out: &mut Output) {
        let q = std::mem::take(&mut self.queue);
        let eol = self.o.eol;
        for item in q {
            match item {
                Queued::Text(t) => out.text(&t, eol),
                Queued::File(name) => {
                    let data = if name == b"/dev/stdin" {
                        let mut d = Vec::new();
                        let _ = io::stdin().read_to_end(&mut d);
                        Some(d)
                    } else {
                        coreutils_core::fs::read(coreutils_core::bytes::os_str(&name)).ok()
                    };
                    if let Some(d) = data {
                        if !d.is_empty() {
                            out.text(&d, eol);
                        }
                    }
                }
                Queued::RLine(n) => {
                    let mut line = Vec::new();
                    if let Some(Some(r)) = self.rins.get_mut(n) {
                        let _ = r.read_until(b'\n', &mut line);
                    }
                    if !line.is_empty() {
                        let nl = line.last() == Some(&b'\n');
                        if nl {
                            line.pop();
                        }
                        out.line(&line, true, eol);
                    }
                }
            }
        }
    }

    fn write_file(&mut self, n: usize, data: &[u8], out: &mut Output) {
        let eol = self.o.eol;
        if self.script.wfiles[n].name == b"/dev/stdout" {
            // the same stream as the regular output, as GNU's stdout FILE
            out.line(data, true, eol);
            return;
        }
        if let Some(Some(w)) = self.wouts.get_mut(n) {
            let _ = w.write_all(data);
            let _ = w.write_all(&[eol]);
            if self.script.wfiles[n].name.starts_with(b"/dev/") {
                let _ = w.flush();
            }
        }
    }

    /// Run the whole input through the script. Returns Err on runtime errors.
    pub fn run(&mut self, input: &mut Input, out: &mut Output) -> Result<(), String> {
        let eol = self.o.eol;
        let mut ps: Vec<u8> = Vec::new();
        let mut nl = true;
        let mut restart = false;
        let mut sub_flag = false;
        loop {
            if !restart {
                match input.next_line() {
                    Some((l, n)) => {
                        let old = std::mem::replace(&mut ps, l);
                        input.recycle(old);
                        nl = n;
                        self.lineno += 1;
                        sub_flag = false;
                    }
                    None => return Ok(()),
                }
            }
            restart = false;
            let end = self.cycle(input, out, &mut ps, &mut nl, &mut sub_flag)?;
            if crate::rx::limit_hit() {
                // A back-reference pattern gave up on this line: its result
                // would be wrong, so stop before printing it.
                return Err(format!(
                    "line {}: regex backtracking limit exceeded (pattern too costly for this input)",
                    self.lineno
                ));
            }
            match end {
                End::Cycle | End::Quit(_) => {
                    if !self.o.quiet {
                        out.line(&ps, nl, eol);
                    }
                }
                End::Restart => {}
                End::Delete | End::QuitSilent(_) => {}
            }
            self.flush_queue(out);
            match end {
                End::Quit(c) | End::QuitSilent(c) => {
                    self.exit_code = Some(c);
                    return Ok(());
                }
                End::Restart => restart = true,
                _ => {}
            }
        }
    }

    fn cycle(
        &mut self,
        input: &mut Input,
        out: &mut Output,
        ps: &mut Vec<u8>,
        nl: &mut bool,
        sub_flag: &mut bool,
    ) -> Result<End, String> {
        let eol = self.o.eol;
        let mut pc = 0;
        let n = self.script.cmds.len();
        while pc < n {
            let last = input.is_last();
            if !self.selected(pc, ps, last)? {
                if let Kind::Block(end) = self.script.cmds[pc].kind {
                    pc = end;
                } else {
                    pc += 1;
                }
                continue;
            }
            let mut next = pc + 1;
            match &self.script.cmds[pc].kind {
                Kind::Block(_) | Kind::EndBlock | Kind::Label | Kind::Comment => {}
                Kind::Eq => {
                    let s = format!("{}\n", self.lineno);
                    out.text(s.as_bytes(), eol);
                }
                Kind::Append(t) => self.queue.push(Queued::Text(t.clone())),
                Kind::Insert(t) => {
                    let t = t.clone();
                    out.text(&t, eol);
                }
                Kind::Change(t) => {
                    let c = &self.script.cmds[pc];
                    let in_range = c.a2.is_some() && c.active && !c.negate;
                    if !in_range {
                        let t = t.clone();
                        out.text(&t, eol);
                    }
                    return Ok(End::Delete);
                }
                Kind::Branch(t) => next = *t,
                Kind::BranchIfSub(t) => {
                    if *sub_flag {
                        *sub_flag = false;
                        next = *t;
                    }
                }
                Kind::BranchIfNotSub(t) => {
                    if !*sub_flag {
                        next = *t;
                    } else {
                        *sub_flag = false;
                    }
                }
                Kind::Delete => return Ok(End::Delete),
                Kind::DeleteFirst => match memchr::memchr(b'\n', ps) {
                    Some(i) => {
                        ps.drain(..=i);
                        return Ok(End::Restart);
                    }
                    None => return Ok(End::Delete),
                },
                Kind::GetHold => *ps = self.hold.clone(),
                Kind::GetHoldAppend => {
                    ps.push(b'\n');
                    ps.extend_from_slice(&self.hold);
                }
                Kind::Hold => self.hold = ps.clone(),
                Kind::HoldAppend => {
                    self.hold.push(b'\n');
                    self.hold.extend_from_slice(ps);
                }
                Kind::Exchange => std::mem::swap(ps, &mut self.hold),
                Kind::List(w) => {
                    let w = w.unwrap_or(self.o.line_wrap);
                    let s = list_line(ps, w);
                    out.text(&s, eol);
                }
                Kind::Next => {
                    if input.is_last() {
                        if self.o.debug_posix {
                            return Ok(End::Delete);
                        }
                        return Ok(End::Quit(0));
                    }
                    if !self.o.quiet {
                        out.line(ps, *nl, eol);
                    }
                    self.flush_queue(out);
                    if let Some((l, n2)) = input.next_line() {
                        let old = std::mem::replace(ps, l);
                        input.recycle(old);
                        *nl = n2;
                        self.lineno += 1;
                    }
                }
                Kind::NextAppend => {
                    if input.is_last() {
                        return Ok(End::Quit(0));
                    }
                    self.flush_queue(out);
                    if let Some((l, n2)) = input.next_line() {
                        ps.push(b'\n');
                        ps.extend_from_slice(&l);
                        input.recycle(l);
                        *nl = n2;
                        self.lineno += 1;
                    }
                }
                Kind::Print => out.line(ps, *nl, eol),
                Kind::PrintFirst => {
                    let end = memchr::memchr(b'\n', ps).unwrap_or(ps.len());
                    out.line(&ps[..end], true, eol);
                }
                Kind::Quit(c) => return Ok(End::Quit(*c)),
                Kind::QuitSilent(c) => return Ok(End::QuitSilent(*c)),
                Kind::ReadFile(f) => self.queue.push(Queued::File(f.clone())),
                Kind::ReadLine(i) => self.queue.push(Queued::RLine(*i)),
                Kind::Write(i) => {
                    let i = *i;
                    let data = ps.clone();
                    self.write_file(i, &data, out);
                }
                Kind::WriteFirst(i) => {
                    let i = *i;
                    let end = memchr::memchr(b'\n', ps).unwrap_or(ps.len());
                    let data = ps[..end].to_vec();
                    self.write_file(i, &data, out);
                }
                Kind::Subst(_) => {
                    let cmd = std::mem::replace(&mut self.script.cmds[pc].kind, Kind::Comment);
                    let r = if let Kind::Subst(s) = &cmd {
                        self.substitute(s, ps)
                    } else {
                        Ok(false)
                    };
                    let wfile = if let Kind::Subst(s) = &cmd {
                        (s.print, s.wfile, s.eval)
                    } else {
                        (0, None, false)
                    };
                    self.script.cmds[pc].kind = cmd;
                    if r? {
                        *sub_flag = true;
                        if wfile.2 {
                            // GNU runs the substituted pattern space and
                            // replaces it with the output, before `p`/`w`.
                            let mut got = run_capture(ps)?;
                            chomp(&mut got, eol);
                            *ps = got;
                        }
                        for _ in 0..wfile.0 {
                            out.line(ps, true, eol);
                        }
                        if let Some(w) = wfile.1 {
                            let data = ps.clone();
                            self.write_file(w, &data, out);
                        }
                    }
                }
                Kind::Translate(map) => {
                    for b in ps.iter_mut() {
                        *b = map[*b as usize];
                    }
                }
                Kind::Zap => ps.clear(),
                Kind::FileName => {
                    let mut n = input.cur_name.clone();
                    n.push(b'\n');
                    out.text(&n, eol);
                }
                Kind::Exec(cmd) if cmd.is_empty() => {
                    let mut got = run_capture(ps)?;
                    chomp(&mut got, eol);
                    *ps = got;
                }
                Kind::Exec(cmd) => {
                    let got = run_capture(cmd)?;
                    out.text(&got, eol);
                }
            }
            pc = next;
        }
        Ok(End::Cycle)
    }

    fn substitute(&mut self, s: &Subst, ps: &mut Vec<u8>) -> Result<bool, String> {
        let re = self.re_or_last(&s.re)?;
        let needs_groups = s.repl.iter().any(|r| matches!(r, Repl::Group(n) if *n > 0));
        let mut out = std::mem::take(&mut self.sub_out);
        out.clear();
        let mut pos = 0usize;
        let mut copied = 0usize;
        let mut count = 0usize;
        let mut did = false;
        let mut prev_end: Option<usize> = None;
        let mut locs = std::mem::take(&mut self.locs);
        while pos <= ps.len() {
            let found = if needs_groups {
                if re.captures_at(ps, pos, &mut locs) {
                    locs[0]
                } else {
                    None
                }
            } else {
                let m = re.find_at(ps, pos);
                if let Some(m) = m {
                    locs.clear();
                    locs.push(Some(m));
                }
                m
            };
            let (ms, me) = match found {
                Some(m) => m,
                None => break,
            };
            if ms == me && prev_end == Some(ms) {
                // An empty match right after the previous match: skip a byte.
                if ms >= ps.len() {
                    break;
                }
                pos = ms + 1;
                continue;
            }
            count += 1;
            if count >= s.nth {
                if !did {
                    out.reserve(ps.len() + 16);
                }
                did = true;
                out.extend_from_slice(&ps[copied..ms]);
                expand(&s.repl, ps, &locs, &mut out);
                copied = me;
                if !s.global {
                    break;
                }
            }
            prev_end = Some(me);
            pos = if me > ms { me } else { me + 1 };
        }
        self.locs = locs;
        if did {
            out.extend_from_slice(&ps[copied..]);
            std::mem::swap(ps, &mut out);
        }
        self.sub_out = out;
        Ok(did)
    }
}

fn expand(repl: &[Repl], ps: &[u8], locs: &Locs, out: &mut Vec<u8>) {
    let mut mode = 0u8; // b'U', b'L' or 0
    let mut one = 0u8; // b'u', b'l' or 0
    let simple = !repl.iter().any(|r| matches!(r, Repl::Case(_)));
    for r in repl {
        let piece: &[u8] = match r {
            Repl::Lit(l) => l,
            Repl::Group(n) => match locs.get(*n).copied().flatten() {
                Some((a, b)) => &ps[a..b],
                None => b"",
            },
            Repl::Case(c) => {
                match c {
                    b'U' | b'L' => {
                        mode = *c;
                        one = 0;
                    }
                    b'E' => {
                        mode = 0;
                        one = 0;
                    }
                    _ => one = *c,
                }
                continue;
            }
        };
        if simple {
            out.extend_from_slice(piece);
            continue;
        }
        for &b in piece {
            let mut c = match mode {
                b'U' => b.to_ascii_uppercase(),
                b'L' => b.to_ascii_lowercase(),
                _ => b,
            };
            if one != 0 {
                c = if one == b'u' {
                    c.to_ascii_uppercase()
                } else {
                    c.to_ascii_lowercase()
                };
                one = 0;
            }
            out.push(c);
        }
    }
}

/// The `l` command's escaped form of the pattern space, wrapped at `width`.
pub fn list_line(ps: &[u8], width: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut col = 0usize;
    for &b in ps {
        let esc: Vec<u8> = match b {
            b'\\' => b"\\\\".to_vec(),
            0x07 => b"\\a".to_vec(),
            0x08 => b"\\b".to_vec(),
            0x0c => b"\\f".to_vec(),
            b'\n' => b"\\n".to_vec(),
            b'\r' => b"\\r".to_vec(),
            b'\t' => b"\\t".to_vec(),
            0x0b => b"\\v".to_vec(),
            32..=126 => vec![b],
            _ => format!("\\{:03o}", b).into_bytes(),
        };
        if width > 1 && col + esc.len() > width - 1 {
            out.extend_from_slice(b"\\\n");
            col = 0;
        }
        col += esc.len();
        out.extend_from_slice(&esc);
    }
    out.extend_from_slice(b"$\n");
    out
}

/// Run `cmd` (up to its first NUL, as GNU's popen sees it) with `sh -c`
/// and collect its standard output; its stderr and stdin are ours.
fn run_capture(cmd: &[u8]) -> Result<Vec<u8>, String> {
    let cmd = match memchr::memchr(0, cmd) {
        Some(i) => &cmd[..i],
        None => cmd,
    };
    let (child, mut r) = crate::common::command::open_read(cmd)
        .map_err(|e| format!("error in subprocess: {}", strerror(&e)))?;
    let mut got = Vec::new();
    let read = r.read_to_end(&mut got);
    drop(r);
    // GNU ignores the command's status: only its output matters.
    let _ = child.wait();
    read.map_err(|e| format!("error in subprocess: {}", strerror(&e)))?;
    Ok(got)
}

/// Drop one trailing line terminator (what `e` and `s///e` do to output).
fn chomp(b: &mut Vec<u8>, eol: u8) {
    if b.last() == Some(&eol) {
        b.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::{chomp, list_line, run_capture};
    use crate::sed::parse::{parse, Chunk, Kind};

    fn script(text: &str, sandbox: bool) -> Result<Vec<Kind>, String> {
        let chunks = [Chunk {
            text: text.as_bytes().to_vec(),
            file: None,
        }];
        parse(&chunks, false, sandbox).map(|s| s.cmds.into_iter().map(|c| c.kind).collect())
    }

    #[test]
    fn e_keeps_its_command_text() {
        match script("2e  echo hi; echo there", false).unwrap().first() {
            Some(Kind::Exec(c)) => assert_eq!(c, b"echo hi; echo there"),
            _ => panic!("not an e command"),
        }
        match script("e", false).unwrap().first() {
            Some(Kind::Exec(c)) => assert!(c.is_empty()),
            _ => panic!("not an e command"),
        }
    }

    #[test]
    fn sandbox_refuses_e_r_w() {
        for s in [
            "e echo x",
            "r f",
            "R f",
            "w f",
            "W f",
            "s/a/b/w f",
            "s/a/b/e",
        ] {
            let err = script(s, true).err().unwrap_or_default();
            assert!(
                err.ends_with("e/r/w commands disabled in sandbox mode"),
                "{}: {}",
                s,
                err
            );
            assert!(script(s, false).is_ok(), "{}", s);
        }
    }

    #[test]
    fn runs_a_command_and_chomps_one_terminator() {
        let mut got = run_capture(b"printf 'a\\n\\n'").unwrap();
        assert_eq!(got, b"a\n\n");
        chomp(&mut got, b'\n');
        assert_eq!(got, b"a\n");
        // GNU's popen stops at the first NUL of the pattern space.
        assert_eq!(run_capture(b"echo x\0echo y").unwrap(), b"x\n");
    }
    #[test]
    fn list_escapes_and_wraps() {
        assert_eq!(list_line(b"a\tb\x01", 70), b"a\\tb\\001$\n".to_vec());
        assert_eq!(list_line(b"abc", 2), b"a\\\nb\\\nc$\n".to_vec());
    }
}
