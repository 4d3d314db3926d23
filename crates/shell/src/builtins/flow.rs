//! Control-flow builtins: exit, return, break, continue, eval, source, exec, trap.

use crate::ast::Bytes;
use crate::eval::{Ctl, Shell, R};

pub const SIGNALS: &[&str] = &[
    "EXIT", "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV",
    "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU",
    "URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS",
];

/// A signal as strsignal(3) describes it (glibc's words, which bash prints
/// for a job a signal ended).
pub fn signal_description(sig: i32) -> String {
    const WORDS: &[&str] = &[
        "Hangup",
        "Interrupt",
        "Quit",
        "Illegal instruction",
        "Trace/breakpoint trap",
        "Aborted",
        "Bus error",
        "Floating point exception",
        "Killed",
        "User defined signal 1",
        "Segmentation fault",
        "User defined signal 2",
        "Broken pipe",
        "Alarm clock",
        "Terminated",
        "Stack fault",
        "Child exited",
        "Continued",
        "Stopped (signal)",
        "Stopped",
        "Stopped (tty input)",
        "Stopped (tty output)",
        "Urgent I/O condition",
        "CPU time limit exceeded",
        "File size limit exceeded",
        "Virtual timer expired",
        "Profiling timer expired",
        "Window changed",
        "I/O possible",
        "Power failure",
        "Bad system call",
    ];
    match sig {
        1..=31 => WORDS[sig as usize - 1].to_string(),
        34..=64 => format!("Real-time signal {}", sig - 34),
        _ => format!("Unknown signal {}", sig),
    }
}

/// Signal number from a name (`INT`, `SIGINT`, `2`); traps use -1 ERR, -2 DEBUG, -3 RETURN.
pub fn signal_number(s: &[u8]) -> Option<i32> {
    let t = String::from_utf8_lossy(s).to_uppercase();
    if let Ok(n) = t.parse::<i32>() {
        return if (0..=MAX_SIGNAL).contains(&n) {
            Some(n)
        } else {
            None
        };
    }
    let t = t.strip_prefix("SIG").unwrap_or(&t);
    match t {
        "ERR" => return Some(-1),
        "DEBUG" => return Some(-2),
        "RETURN" => return Some(-3),
        _ => {}
    }
    let rt = |base: &str, off: &str, sign: i32| -> Option<i32> {
        let k = if off.is_empty() {
            0
        } else {
            off.parse::<i32>().ok()?
        };
        let n = if base == "RTMIN" { 34 } else { 64 } + sign * k;
        (34..=64).contains(&n).then(|| n)
    };
    if let Some(off) = t.strip_prefix("RTMIN") {
        return rt("RTMIN", off.strip_prefix('+').unwrap_or(off), 1);
    }
    if let Some(off) = t.strip_prefix("RTMAX") {
        return rt("RTMAX", off.strip_prefix('-').unwrap_or(off), -1);
    }
    SIGNALS.iter().position(|n| *n == t).map(|p| p as i32)
}

/// The highest signal number (Linux's SIGRTMAX).
pub const MAX_SIGNAL: i32 = 64;

/// A signal's name without `SIG`, as bash numbers them on Linux: HUP..SYS,
/// then RTMIN, RTMIN+1..RTMIN+15, RTMAX-14..RTMAX-1, RTMAX. 0 is EXIT.
pub fn signal_short_name(n: i32) -> Option<String> {
    match n {
        0..=31 => SIGNALS.get(n as usize).map(|s| s.to_string()),
        34 => Some("RTMIN".into()),
        35..=49 => Some(format!("RTMIN+{}", n - 34)),
        50..=63 => Some(format!("RTMAX-{}", 64 - n)),
        64 => Some("RTMAX".into()),
        _ => None,
    }
}

pub fn signal_name(n: i32) -> String {
    match n {
        -1 => "ERR".into(),
        -2 => "DEBUG".into(),
        -3 => "RETURN".into(),
        0 => "EXIT".into(),
        n => format!(
            "SIG{}",
            signal_short_name(n).unwrap_or_else(|| n.to_string())
        ),
    }
}

impl Shell {
    fn status_arg(&mut self, cmd: &str, args: &[Bytes]) -> Option<i32> {
        match args.first() {
            None => Some(self.status),
            Some(a) => match crate::bytes::parse_i64(a) {
                Some(n) => Some((n & 0xff) as i32),
                None => {
                    let mut m = a.clone();
                    m.extend_from_slice(b": numeric argument required");
                    self.berr(cmd, &m);
                    None
                }
            },
        }
    }

    pub fn b_exit(&mut self, args: &[Bytes]) -> R<()> {
        // bash checks the first argument before counting them; either error
        // still ends the shell (too many: status 1; not a number: 2)
        let numeric = args
            .first()
            .map_or(true, |a| crate::bytes::parse_i64(a).is_some());
        let st = if numeric && args.len() > 1 {
            self.berr("exit", b"too many arguments");
            1
        } else {
            self.status_arg("exit", args).unwrap_or(2)
        };
        if self.opts.interactive && self.funcnames.is_empty() && self.subshells == 0 {
            self.write_fd(2, b"exit\n");
        }
        Err(Ctl::Exit(st))
    }

    pub fn b_return(&mut self, args: &[Bytes]) -> R<()> {
        if self.funcnames.is_empty() && self.sources.len() <= 1 && !self.in_source {
            self.berr(
                "return",
                b"can only `return' from a function or sourced script",
            );
            self.status = 2;
            return Ok(());
        }
        let st = self.status_arg("return", args).unwrap_or(2);
        if args.len() > 1 && crate::bytes::parse_i64(&args[0]).is_some() {
            // bash abandons the whole top-level command here, as for an expansion error
            self.berr("return", b"too many arguments");
            return Err(Ctl::Abort(1));
        }
        Err(Ctl::Return(st))
    }

    /// A count (break, continue, shift) followed by more arguments: bash
    /// abandons the whole top-level command, as for `return 1 2`.
    pub(crate) fn one_count(&mut self, name: &str, args: &[Bytes]) -> R<()> {
        if args.len() > 1
            && args
                .first()
                .and_then(|a| crate::bytes::parse_i64(a))
                .is_some()
        {
            self.berr(name, b"too many arguments");
            return Err(Ctl::Abort(1));
        }
        Ok(())
    }

    pub fn b_break(&mut self, args: &[Bytes], brk: bool) -> R<()> {
        let name = if brk { "break" } else { "continue" };
        if self.loop_depth == 0 {
            self.berr(
                name,
                b"only meaningful in a `for', `while', or `until' loop",
            );
            self.status = 0;
            return Ok(());
        }
        self.one_count(name, args)?;
        let n = match args.first() {
            None => 1,
            Some(a) => match crate::bytes::parse_i64(a) {
                Some(n) if n >= 1 => n as usize,
                Some(_) => {
                    let mut m = a.clone();
                    m.extend_from_slice(b": loop count out of range");
                    self.berr(name, &m);
                    // bash then leaves every enclosing loop, with status 1
                    self.status = 1;
                    return Err(Ctl::Break(self.loop_depth));
                }
                None => {
                    // a bad count ends a script, as bash's special builtins do
                    let mut m = a.clone();
                    m.extend_from_slice(b": numeric argument required");
                    self.berr(name, &m);
                    self.status = 128;
                    if self.opts.interactive {
                        return Ok(());
                    }
                    return Err(Ctl::Exit(128));
                }
            },
        };
        if self.loop_depth == 0 {
            self.berr(
                name,
                b"only meaningful in a `for', `while', or `until' loop",
            );
            self.status = 0;
            return Ok(());
        }
        let n = n.min(self.loop_depth);
        self.status = 0;
        Err(if brk { Ctl::Break(n) } else { Ctl::Continue(n) })
    }

    pub fn b_eval(&mut self, args: &[Bytes]) -> R<()> {
        let args: Vec<Bytes> = if args.first().map(|a| a == b"--").unwrap_or(false) {
            args[1..].to_vec()
        } else {
            args.to_vec()
        };
        if args.is_empty() {
            self.status = 0;
            return Ok(());
        }
        let code = args.join(&b' ');
        let line = self.lineno;
        // set -x marks eval'd and sourced commands one level deeper
        self.trace_level += 1;
        let r = self.run_named(b"eval", &code, line);
        self.trace_level -= 1;
        self.lineno = line;
        r
    }

    pub fn b_source(&mut self, name: &str, args: &[Bytes]) -> R<()> {
        let args = match args.first() {
            Some(a) if a == b"--" => &args[1..],
            _ => args,
        };
        let file = match args.first() {
            Some(f) => f.clone(),
            None => {
                self.berr(name, b"filename argument required");
                let u = format!("{}: usage: {} filename [arguments]\n", name, name);
                self.write_fd(2, u.as_bytes());
                self.status = 2;
                return Ok(());
            }
        };
        let path = if file.contains(&b'/') || self.shopt_state("sourcepath") == Some(false) {
            file.clone()
        } else {
            let mut found = None;
            let pathvar = self.get_var(b"PATH").unwrap_or_default();
            for d in pathvar.split(|c| *c == b':') {
                let mut p = d.to_vec();
                p.push(b'/');
                p.extend_from_slice(&file);
                if std::fs::metadata(crate::bytes::path(&p))
                    .map(|m| m.is_file())
                    .unwrap_or(false)
                {
                    found = Some(p);
                    break;
                }
            }
            found.unwrap_or_else(|| file.clone())
        };
        if std::fs::metadata(crate::bytes::path(&path)).map_or(false, |m| m.is_dir()) {
            let mut m = file;
            m.extend_from_slice(b": is a directory");
            self.berr(name, &m);
            self.status = 1;
            return Ok(());
        }
        let code = match std::fs::read(crate::bytes::path(&path)) {
            Ok(c) => c,
            Err(e) => {
                let mut m = file;
                m.extend_from_slice(b": ");
                m.extend_from_slice(crate::sys::strerror(crate::sys::io_errno(&e)).as_bytes());
                self.err(&m);
                self.status = 1;
                return Ok(());
            }
        };
        let saved_pos = if args.len() > 1 {
            Some(std::mem::replace(&mut self.positional, args[1..].to_vec()))
        } else {
            None
        };
        self.frames
            .push((b"source".to_vec(), file.clone(), self.lineno));
        self.sources.push(file);
        let was = self.in_source;
        self.in_source = true;
        let saved_name = std::mem::replace(
            &mut self.err_name,
            self.sources.last().cloned().unwrap_or_default(),
        );
        let line = self.lineno;
        let input = self.sources.last().cloned().unwrap_or_default();
        self.trace_level += 1;
        let mut r = self.run_named(&input, &code, 1);
        self.trace_level -= 1;
        if let Some(trap) = self.traps.get(&-3).cloned() {
            if !matches!(r, Err(Ctl::Exit(_))) {
                let st = self.status;
                if let Err(e) = self.run_trap(&trap) {
                    r = Err(e);
                }
                self.status = st;
            }
        }
        self.err_name = saved_name;
        self.lineno = line;
        self.in_source = was;
        self.sources.pop();
        self.frames.pop();
        // arguments given to `source` end with it, unless the file set its own
        if let Some(p) = saved_pos {
            if self.positional[..] == args[1..] {
                self.positional = p;
            }
        }
        match r {
            Err(Ctl::Return(n)) => {
                self.status = n;
                Ok(())
            }
            other => other,
        }
    }

    pub fn b_exec(&mut self, args: &[Bytes]) -> R<()> {
        let mut i = 0;
        let mut argv0: Option<Bytes> = None;
        while i < args.len() && args[i].first() == Some(&b'-') {
            match args[i].as_slice() {
                b"--" => {
                    i += 1;
                    break;
                }
                b"-c" | b"-l" => {}
                b"-a" => {
                    i += 1;
                    argv0 = args.get(i).cloned();
                }
                _ => break,
            }
            i += 1;
        }
        let rest = &args[i..];
        if rest.is_empty() {
            // redirections were applied by the caller; keep them
            self.keep_redirs = true;
            self.status = 0;
            return Ok(());
        }
        let mut argv = rest.to_vec();
        if let Some(a0) = argv0 {
            argv[0] = a0;
        }
        let path = match self.find_command(&rest[0]) {
            Some(p) => p,
            None => {
                let mut m = rest[0].clone();
                m.extend_from_slice(b": not found");
                self.berr("exec", &m);
                return Err(Ctl::Exit(127));
            }
        };
        if self.session_shell && crate::is_shell_program(&path) {
            // The kernel knows the session by its process: a new process
            // could not report command lines, so the new shell runs here.
            self.traps.remove(&0);
            let env = self.child_env(&[]);
            return Err(Ctl::Exit(crate::reexec(argv, env)));
        }
        // A real exec where this process is the shell (not an in-process
        // subshell, not a session's shell); else the program runs as a
        // child whose status ends the shell.
        let started = if self.subshells == 0 && !self.session_shell {
            match self.exec_program(&path, &argv, &[]) {
                crate::sys::ENOSYS | crate::sys::ENOTSUP => self.spawn_external(&path, &argv, &[]),
                e => Err(e),
            }
        } else {
            self.spawn_external(&path, &argv, &[])
        };
        match started {
            Ok(pid) => {
                let st = self.wait_pid(pid);
                // the program replaced the shell: no EXIT trap runs
                self.traps.remove(&0);
                Err(Ctl::Exit(st))
            }
            Err(e) => {
                let mut m = rest[0].clone();
                m.extend_from_slice(b": ");
                m.extend_from_slice(crate::sys::strerror(e).as_bytes());
                self.err(&m);
                let st = if e == crate::sys::ENOENT { 127 } else { 126 };
                if self.shopt_state("execfail") == Some(true) {
                    // shopt -s execfail: a failed exec does not end the shell
                    self.status = st;
                    return Ok(());
                }
                Err(Ctl::Exit(st))
            }
        }
    }

    pub fn b_trap(&mut self, args: &[Bytes]) {
        let mut args = args;
        if args.first().map(|a| a == b"--").unwrap_or(false) {
            args = &args[1..];
        }
        if args.is_empty() || args[0] == b"-p" {
            let traps = self.parent_traps.as_ref().unwrap_or(&self.traps).clone();
            // named signals in the order given; otherwise every trap
            let mut keys: Vec<i32> = Vec::new();
            let mut st = 0;
            for a in args.iter().skip(1) {
                match signal_number(a) {
                    Some(k) => keys.push(k),
                    None => {
                        let mut m = a.clone();
                        m.extend_from_slice(b": invalid signal specification");
                        self.berr("trap", &m);
                        st = 1;
                    }
                }
            }
            if args.len() < 2 {
                keys = traps.keys().copied().collect();
                // signals by number, then DEBUG, ERR, RETURN (bash's order)
                keys.sort_by_key(|k| match *k {
                    -2 => 101,
                    -1 => 102,
                    -3 => 103,
                    k => k,
                });
            }
            let mut out = Vec::new();
            for k in keys {
                let code = match traps.get(&k) {
                    Some(c) => c.clone(),
                    None => continue,
                };
                out.extend_from_slice(b"trap -- ");
                out.extend_from_slice(&super::quote_q(&code));
                out.push(b' ');
                out.extend_from_slice(signal_name(k).as_bytes());
                out.push(b'\n');
            }
            self.write_fd(1, &out);
            self.status = st;
            return;
        }
        if args[0] == b"-l" {
            let out = super::jobs::signal_table();
            self.write_fd(1, out.as_bytes());
            return;
        }
        let (action, sigs): (Option<Bytes>, &[Bytes]) = if args.len() == 1
            || (signal_number(&args[0]).is_some() && args[0].iter().all(|c| c.is_ascii_digit()))
        {
            (None, args)
        } else if args[0] == b"-" {
            (None, &args[1..])
        } else {
            (Some(args[0].clone()), &args[1..])
        };
        // From here the subshell's own traps are the ones listed.
        self.parent_traps = None;
        let mut st = 0;
        for s in sigs {
            match signal_number(s) {
                Some(n) => match &action {
                    None => {
                        self.traps.remove(&n);
                        if n > 0 {
                            let _ = self.sys.sigaction(
                                n as u32,
                                if n == 2 && self.opts.interactive {
                                    2
                                } else {
                                    0
                                },
                            );
                        }
                    }
                    Some(code) => {
                        self.traps.insert(n, code.clone());
                        if n > 0 {
                            let _ = self
                                .sys
                                .sigaction(n as u32, if code.is_empty() { 1 } else { 2 });
                        }
                    }
                },
                None => {
                    let mut m = s.clone();
                    m.extend_from_slice(b": invalid signal specification");
                    self.berr("trap", &m);
                    st = 1;
                }
            }
        }
        self.status = st;
    }
}
