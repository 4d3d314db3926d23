//! Job builtins: wait, kill, jobs, and fg/bg/disown (real job control in an
//! interactive shell on a tty, plain waiting otherwise).

use super::flow::{signal_number, signal_short_name, MAX_SIGNAL};
use crate::ast::Bytes;
use crate::eval::{Shell, R};

const SIGCONT: u32 = 18;

impl Shell {
    /// The job a `%` spec names: its index in the job table.
    fn job_index(&self, spec: &[u8]) -> Option<usize> {
        let rest = spec.strip_prefix(b"%")?;
        let n = self.jobs.len();
        match rest {
            b"" | b"%" | b"+" => n.checked_sub(1),
            b"-" => n.checked_sub(2),
            r => match crate::bytes::parse_i64(r) {
                Some(id) => self.jobs.iter().position(|j| j.id as i64 == id),
                // %?text: the job whose command contains text
                None => match r.strip_prefix(b"?") {
                    Some(t) => self
                        .jobs
                        .iter()
                        .rposition(|j| j.cmd.windows(t.len().max(1)).any(|w| w == t)),
                    None => self.jobs.iter().position(|j| j.cmd.starts_with(r)),
                },
            },
        }
    }

    fn job_pid(&self, spec: &[u8]) -> Option<i32> {
        if spec.starts_with(b"%") {
            return self
                .job_index(spec)
                .and_then(|k| self.jobs[k].pids.last().copied());
        }
        crate::bytes::parse_i64(spec).map(|n| n as i32)
    }

    /// The first background job to end (one already ended first): its pid
    /// and status. None when there is none to wait for.
    fn wait_any_job(&mut self) -> Option<(i32, i32)> {
        loop {
            if self.bg_pids.is_empty() {
                return None;
            }
            for pid in self.bg_pids.clone() {
                if let Ok((p, raw)) = self.sys.wait(pid, true) {
                    if p == pid {
                        return Some((pid, self.job_ended(pid, raw)));
                    }
                }
            }
            match self.sys.wait(-1, false) {
                Ok((p, raw)) if self.bg_pids.contains(&p) => {
                    return Some((p, self.job_ended(p, raw)));
                }
                // another child (a process substitution's): not a job
                Ok((p, _)) if p > 0 => self.coproc_reaped(p),
                Err(crate::sys::EINTR) => self.pending_signals |= self.sys.sigpending(),
                _ => return None,
            }
        }
    }

    /// "name: %4: no such job" for a job spec that names none.
    fn no_such_job(&mut self, name: &str, spec: &[u8]) -> bool {
        if spec.starts_with(b"%") && self.job_index(spec).is_none() {
            let mut m = spec.to_vec();
            m.extend_from_slice(b": no such job");
            self.berr(name, &m);
            return true;
        }
        false
    }

    pub fn b_wait(&mut self, args: &[Bytes]) {
        self.b_wait_body(args);
        self.notify_dead_jobs();
    }

    fn b_wait_body(&mut self, args: &[Bytes]) {
        let mut next = false;
        // `-p VAR`: the pid (or job) waited for goes to VAR
        let mut pvar: Option<Bytes> = None;
        let mut rest: Vec<&Bytes> = Vec::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            match a.as_slice() {
                b"-n" => next = true,
                b"-f" => {}
                b"-p" => pvar = it.next().cloned(),
                b"--" if rest.is_empty() => {}
                b"-np" | b"-pn" => {
                    next = true;
                    pvar = it.next().cloned();
                }
                _ => rest.push(a),
            }
        }
        let args = rest;
        if args.is_empty() && next {
            // `wait -n`: whichever job ends first, and its status
            self.status = match self.wait_any_job() {
                Some((p, st)) => {
                    if let Some(v) = &pvar {
                        self.set_var(v, p.to_string().into_bytes());
                    }
                    st
                }
                None => 127,
            };
            return;
        }
        if args.is_empty() {
            let pids = self.bg_pids.clone();
            for p in pids {
                self.wait_job(p);
            }
            self.status = 0;
            return;
        }
        let mut st = 0;
        for a in args {
            if self.no_such_job("wait", a) {
                st = 127;
                continue;
            }
            match self.job_pid(a).filter(|p| *p >= 0) {
                Some(pid) => {
                    if let Some(v) = &pvar {
                        self.set_var(v, a.to_vec());
                    }
                    if self.bg_pids.contains(&pid) {
                        st = self.wait_job(pid);
                    } else if let Some(j) = self.jobs.iter().find(|j| j.pids.contains(&pid)) {
                        st = j.status.unwrap_or(127);
                    } else if let Some((_, s)) = self.reaped.iter().find(|(p, _)| *p == pid) {
                        st = *s;
                    } else {
                        let mut m = b"pid ".to_vec();
                        m.extend_from_slice(a);
                        m.extend_from_slice(b" is not a child of this shell");
                        self.berr("wait", &m);
                        st = 127;
                    }
                }
                None => {
                    let mut m = b"`".to_vec();
                    m.extend_from_slice(a);
                    m.extend_from_slice(b"': not a pid or valid job spec");
                    self.berr("wait", &m);
                    st = 1;
                }
            }
        }
        self.status = st;
    }

    pub fn b_kill(&mut self, args: &[Bytes]) {
        let mut sig = 15u32;
        let mut i = 0;
        if let Some(a) = args.first() {
            if a == b"-l" || a == b"-L" {
                if args.len() > 1 {
                    // numbers (or exit statuses 128+n) become names, names numbers
                    let mut st = 0;
                    for n in &args[1..] {
                        let line = match crate::bytes::parse_i64(n) {
                            Some(code) => {
                                let code = if code > 128 { code - 128 } else { code };
                                signal_short_name(code as i32)
                            }
                            None => signal_number(n).filter(|n| *n >= 0).map(|n| n.to_string()),
                        };
                        match line {
                            Some(l) => {
                                self.write_fd(1, format!("{}\n", l).as_bytes());
                            }
                            None => {
                                let mut m = n.clone();
                                m.extend_from_slice(b": invalid signal specification");
                                self.berr("kill", &m);
                                st = 1;
                            }
                        }
                    }
                    self.status = st;
                    return;
                }
                let out = signal_table();
                self.write_fd(1, out.as_bytes());
                return;
            }
            if (a == b"-s" || a == b"-n") && args.len() == 1 {
                let mut m = a.clone();
                m.extend_from_slice(b": option requires an argument");
                self.berr("kill", &m);
                self.status = 1;
                return;
            }
            if a == b"-s" || a == b"-n" {
                let spec = &args[1];
                match signal_number(spec) {
                    Some(n) if n >= 0 => sig = n as u32,
                    _ => {
                        let mut m = spec.clone();
                        m.extend_from_slice(b": invalid signal specification");
                        self.berr("kill", &m);
                        self.status = 1;
                        return;
                    }
                }
                i = 2;
            } else if a.len() > 1 && a[0] == b'-' && a != b"--" {
                match signal_number(&a[1..]) {
                    Some(n) => sig = n as u32,
                    None => {
                        let mut m = a[1..].to_vec();
                        m.extend_from_slice(b": invalid signal specification");
                        self.berr("kill", &m);
                        self.status = 1;
                        return;
                    }
                }
                i = 1;
            }
        }
        if args.get(i).map_or(false, |a| a == b"--") {
            i += 1;
        }
        if i >= args.len() {
            self.write_fd(2, b"kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n");
            self.status = 2;
            return;
        }
        let mut st = 0;
        for a in &args[i..] {
            if self.no_such_job("kill", a) {
                st = 1;
                continue;
            }
            // a job that has ended but not been reported takes the signal quietly
            if let Some(k) = self.job_index(a) {
                if self.jobs[k].status.is_some() {
                    continue;
                }
            }
            match self.job_pid(a) {
                Some(pid) => {
                    if self.sys.kill(pid, sig).is_err() {
                        let mut m = b"(".to_vec();
                        m.extend_from_slice(a);
                        m.extend_from_slice(b") - No such process");
                        self.berr("kill", &m);
                        st = 1;
                    }
                }
                None => {
                    let mut m = a.clone();
                    m.extend_from_slice(b": arguments must be process or job IDs");
                    self.berr("kill", &m);
                    st = 1;
                }
            }
        }
        self.status = st;
    }

    /// `jobs -x command [args]`: the command run with each job spec among
    /// its words replaced by that job's process group id (a spec naming no
    /// job stays as written).
    fn jobs_exec(&mut self, words: &[Bytes]) -> R<()> {
        let mut code = Vec::new();
        for w in words {
            let job = if w.starts_with(b"%") {
                self.job_index(w)
            } else {
                None
            };
            let w = match job {
                Some(k) => self.jobs[k]
                    .pids
                    .first()
                    .copied()
                    .unwrap_or(0)
                    .to_string()
                    .into_bytes(),
                None => w.clone(),
            };
            code.extend_from_slice(&super::quote_q(&w));
            code.push(b' ');
        }
        if code.is_empty() {
            self.status = 0;
            return Ok(());
        }
        self.eval_string(&code, self.lineno)
    }

    pub fn b_jobs(&mut self, args: &[Bytes]) -> R<()> {
        if args.first().map_or(false, |a| a == b"-x") {
            return self.jobs_exec(&args[1..]);
        }
        self.b_jobs_list(args);
        Ok(())
    }

    fn b_jobs_list(&mut self, args: &[Bytes]) {
        self.reap_nohang();
        let pids_only = args.iter().any(|a| a == b"-p");
        let long = args.iter().any(|a| a == b"-l");
        let running_only = args.iter().any(|a| a == b"-r");
        let stopped_only = args.iter().any(|a| a == b"-s");
        let specs: Vec<&Bytes> = args.iter().filter(|a| !a.starts_with(b"-")).collect();
        let mut st = 0;
        let mut chosen: Vec<usize> = Vec::new();
        for a in &specs {
            match self.job_index(a) {
                Some(k) => chosen.push(k),
                None => {
                    let mut m = a.to_vec();
                    m.extend_from_slice(b": no such job");
                    self.berr("jobs", &m);
                    st = 1;
                }
            }
        }
        let mut out = Vec::new();
        let n = self.jobs.len();
        for (k, j) in self.jobs.iter().enumerate() {
            if !specs.is_empty() && !chosen.contains(&k) {
                continue;
            }
            if (running_only && (j.status.is_some() || j.stopped)) || (stopped_only && !j.stopped) {
                continue;
            }
            if pids_only {
                out.extend_from_slice(
                    format!("{}\n", j.pids.last().copied().unwrap_or(0)).as_bytes(),
                );
                continue;
            }
            let mark = if k + 1 == n {
                '+'
            } else if k + 2 == n {
                '-'
            } else {
                ' '
            };
            let state = match j.status {
                None if j.stopped => "Stopped".to_string(),
                None => "Running".to_string(),
                Some(0) => "Done".to_string(),
                Some(s) => format!("Exit {}", s),
            };
            let pid = match long {
                true => format!(" {:5}", j.pids.last().copied().unwrap_or(0)),
                false => " ".to_string(),
            };
            out.extend_from_slice(format!("[{}]{}{} {:<24}", j.id, mark, pid, state).as_bytes());
            out.extend_from_slice(&j.cmd);
            if j.status.is_none() && !j.stopped {
                out.extend_from_slice(b" &");
            }
            out.push(b'\n');
        }
        for j in &self.jobs {
            if let (Some(st), Some(pid)) = (j.status, j.pids.last()) {
                self.reaped.push((*pid, st));
            }
        }
        self.jobs.retain(|j| j.status.is_none());
        self.write_fd(1, &out);
        self.status = st;
    }

    /// `fg`/`bg` under job control: continue a stopped job (SIGCONT to its
    /// group); `fg` gives it the terminal and waits for it.
    fn fg_bg(&mut self, fg: bool, args: &[Bytes]) {
        let name = if fg { "fg" } else { "bg" };
        self.reap_nohang();
        let k = match args.first() {
            Some(a) => {
                let pid = self.job_pid(a);
                self.jobs
                    .iter()
                    .position(|j| pid.map(|p| j.pids.contains(&p)).unwrap_or(false))
            }
            None => {
                if self.jobs.is_empty() {
                    None
                } else {
                    Some(self.jobs.len() - 1)
                }
            }
        };
        let k = match k {
            Some(k) => k,
            None => {
                let what = args.first().cloned().unwrap_or_else(|| b"current".to_vec());
                let mut m = what;
                m.extend_from_slice(b": no such job");
                self.berr(name, &m);
                self.status = 1;
                return;
            }
        };
        if self.jobs[k].status.is_some() {
            self.berr(name, b"job has terminated");
            self.jobs.remove(k);
            self.status = 1;
            return;
        }
        let (pgid, pids, cmd, stopped) = {
            let j = &mut self.jobs[k];
            let s = j.stopped;
            j.stopped = false;
            (j.pgid, j.pids.clone(), j.cmd.clone(), s)
        };
        if !fg {
            if stopped {
                let _ = self.sys.kill(-pgid, SIGCONT);
            }
            for p in &pids {
                if !self.bg_pids.contains(p) {
                    self.bg_pids.push(*p);
                }
            }
            let mut m = format!("[{}]+ ", self.jobs[k].id).into_bytes();
            m.extend_from_slice(&cmd);
            m.extend_from_slice(b" &\n");
            self.write_fd(2, &m);
            self.status = 0;
            return;
        }
        let mut c = cmd.clone();
        c.push(b'\n');
        self.write_fd(1, &c);
        let _ = self.sys.tcsetpgrp(0, pgid);
        self.jc_group = pgid;
        self.jc_cmd = cmd;
        if stopped {
            let _ = self.sys.kill(-pgid, SIGCONT);
        }
        let mut st = 0;
        for p in &pids {
            st = self.wait_pid(*p);
        }
        self.bg_pids.retain(|p| !pids.contains(p));
        self.end_job();
        if !self.jobs.iter().any(|j| j.pgid == pgid && j.stopped) {
            self.jobs.retain(|j| j.pgid != pgid);
        }
        if st == 130 {
            self.write_fd(2, b"\n");
        }
        self.status = st;
    }

    /// `disown [-ahr] [jobspec ...]`: forget jobs (`-h`: keep them listed).
    fn b_disown(&mut self, args: &[Bytes]) {
        let all = args.iter().any(|a| a == b"-a");
        let keep = args.iter().any(|a| a == b"-h");
        let specs: Vec<Bytes> = args
            .iter()
            .filter(|a| !a.starts_with(b"-"))
            .cloned()
            .collect();
        let mut st = 0;
        let mut chosen: Vec<usize> = Vec::new();
        if all {
            chosen = (0..self.jobs.len()).collect();
        } else if specs.is_empty() {
            chosen.extend(self.jobs.len().checked_sub(1));
        }
        for a in &specs {
            let k = if a.starts_with(b"%") {
                self.job_index(a)
            } else {
                crate::bytes::parse_i64(a)
                    .and_then(|p| self.jobs.iter().position(|j| j.pids.contains(&(p as i32))))
            };
            match k {
                Some(k) => chosen.push(k),
                None => {
                    let mut m = a.clone();
                    m.extend_from_slice(b": no such job");
                    self.berr("disown", &m);
                    st = 1;
                }
            }
        }
        if !keep {
            let mut k = 0;
            self.jobs.retain(|_| {
                k += 1;
                !chosen.contains(&(k - 1))
            });
        }
        self.status = st;
    }

    pub fn b_fg(&mut self, name: &str, args: &[Bytes]) {
        match name {
            "disown" => self.b_disown(args),
            "fg" | "bg" if self.jc => self.fg_bg(name == "fg", args),
            "suspend" => {
                self.berr(name, b"cannot suspend: no job control");
                self.status = 1;
            }
            "fg" if self.opts.interactive => {
                let pid = args
                    .first()
                    .and_then(|a| self.job_pid(a))
                    .or_else(|| self.jobs.last().and_then(|j| j.pids.last().copied()));
                match pid {
                    Some(p) => {
                        if let Some(j) = self.jobs.iter().find(|j| j.pids.contains(&p)) {
                            let mut c = j.cmd.clone();
                            c.push(b'\n');
                            self.write_fd(1, &c);
                        }
                        self.status = self.wait_job(p);
                    }
                    None => {
                        self.berr("fg", b"current: no such job");
                        self.status = 1;
                    }
                }
            }
            _ => {
                self.berr(name, b"no job control");
                self.status = 1;
            }
        }
    }
}

/// `kill -l`: bash's table of signal numbers and names, five to a line
/// (including the real-time range Linux reports).
pub fn signal_table() -> String {
    use std::fmt::Write;
    let entries: Vec<(i32, String)> = (1..=MAX_SIGNAL)
        .filter_map(|n| signal_short_name(n).map(|s| (n, format!("SIG{}", s))))
        .collect();
    let mut out = String::new();
    for (k, (n, name)) in entries.iter().enumerate() {
        let _ = write!(out, "{:2}) {}", n, name);
        out.push(if (k + 1) % 5 == 0 { '\n' } else { '\t' });
    }
    if entries.len() % 5 != 0 {
        out.push('\n');
    }
    out
}
