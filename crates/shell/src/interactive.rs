//! Interactive mode (own line editor on the raw tty, OSC 133 prompt marks) and
//! API mode (`--sandglass-api`: one command per `session_next`).

use crate::eval::{Ctl, Shell};

const TTY_CANON: u32 = 1;
const TTY_ECHO: u32 = 2;
const TTY_ISIG: u32 = 4;
const SIGQUIT: u32 = 3;
const SIGTSTP: u32 = 20;

thread_local! {
    /// Set when a read at the prompt was interrupted to apply a state: the
    /// line being edited is dropped and the prompt drawn again, no `^C`.
    static RESTORED: std::cell::Cell<bool> = std::cell::Cell::new(false);
}

/// API mode: run each session request in the persistent shell state.
pub fn api_loop(sh: &mut Shell) -> i32 {
    // the sandbox interrupts a command that runs past its limits with SIGINT:
    // that ends the command, not the session
    let _ = sh.sys.sigaction(2, 2);
    // the kernel holds the state of a fresh shell from the start
    let mut ctl = match sh.end_step(0) {
        Ok(c) => {
            sh.session_shell = true;
            c
        }
        Err(_) => false,
    };
    loop {
        if std::mem::take(&mut ctl) {
            sh.take_control();
        }
        // a SIGINT that arrived between commands belongs to no command
        let _ = sh.sys.sigpending();
        sh.pending_signals = 0;
        let req = match sh.sys.session_next() {
            Ok(r) => r,
            Err(crate::sys::EINTR) => {
                // a signal, or the kernel asking for a restore
                ctl = true;
                continue;
            }
            Err(_) => return sh.status,
        };
        let sandglass_sys::format::SessionRequest {
            command: cmd,
            cwd,
            env,
            ..
        } = match sandglass_sys::format::SessionRequest::decode(&req) {
            Some(x) => x,
            None => {
                let _ = sh.sys.session_done(2);
                continue;
            }
        };
        if !cwd.is_empty() {
            if let Err(e) = sh.chdir(&cwd, false) {
                let mut m = b"cd: ".to_vec();
                m.extend_from_slice(&cwd);
                m.extend_from_slice(b": ");
                m.extend_from_slice(crate::sys::strerror(e).as_bytes());
                sh.err(&m);
                let _ = sh.sys.session_done(1);
                continue;
            }
        }
        // per-command environment: exported for this command only
        sh.vars.scopes.push(Default::default());
        for kv in &env {
            if let Some(p) = kv.iter().position(|c| *c == b'=') {
                let top = sh.vars.scopes.len() - 1;
                sh.vars.scopes[top].insert(
                    kv[..p].to_vec(),
                    crate::state::Var {
                        value: Some(crate::state::Value::Str(kv[p + 1..].to_vec())),
                        attrs: crate::state::A_EXPORT,
                    },
                );
            }
        }
        let depth = sh.vars.scopes.len();
        let r = sh.run_text(&cmd, 1, true);
        // keep assignments made by the command: merge the env scope down
        if sh.vars.scopes.len() == depth {
            if let Some(top) = sh.vars.scopes.pop() {
                for (k, v) in top {
                    if env
                        .iter()
                        .any(|e| e.starts_with(&k) && e.get(k.len()) == Some(&b'='))
                    {
                        continue;
                    }
                    sh.vars.scopes[0].insert(k, v);
                }
            }
        }
        let st = match r {
            Ok(()) => sh.status,
            Err(Ctl::Exit(n)) => {
                session_done(sh, n);
                return n;
            }
            Err(Ctl::Abort(n)) | Err(Ctl::Return(n)) => n,
            Err(_) => sh.status,
        };
        sh.status = st;
        ctl = session_done(sh, st);
    }
}

/// End an API command: with the state when the kernel takes it, else the
/// plain `session_done`. Returns whether a control request waits.
fn session_done(sh: &mut Shell, status: i32) -> bool {
    match sh.end_step(status) {
        Ok(pending) => pending,
        Err(_) => {
            let _ = sh.sys.session_done(status);
            false
        }
    }
}

struct Editor {
    buf: Vec<char>,
    cur: usize,
    hist_pos: usize,
    saved: Vec<char>,
}

enum Key {
    Char(char),
    Ctrl(u8),
    Up,
    Down,
    Left,
    Right,
    Home,
    End,
    Delete,
    Eof,
    Other,
}

impl Shell {
    fn read_byte(&mut self) -> Option<u8> {
        let mut b = [0u8; 1];
        match self.sys.read(0, &mut b) {
            Ok(1) => Some(b[0]),
            Ok(_) => None,
            Err(crate::sys::EINTR) => {
                // the kernel restoring a state, or Ctrl-C: both end the line
                let _ = self.sys.sigpending();
                if self.take_control() {
                    RESTORED.with(|r| r.set(true));
                }
                Some(3)
            }
            Err(_) => None,
        }
    }

    fn read_key(&mut self) -> Key {
        let b = match self.read_byte() {
            Some(b) => b,
            None => return Key::Eof,
        };
        match b {
            27 => {
                let b2 = self.read_byte();
                if b2 != Some(b'[') && b2 != Some(b'O') {
                    return Key::Other;
                }
                let mut seq = Vec::new();
                while let Some(c) = self.read_byte() {
                    seq.push(c);
                    if c.is_ascii_alphabetic() || c == b'~' {
                        break;
                    }
                }
                match seq.as_slice() {
                    b"A" => Key::Up,
                    b"B" => Key::Down,
                    b"C" => Key::Right,
                    b"D" => Key::Left,
                    b"H" | b"1~" | b"7~" => Key::Home,
                    b"F" | b"4~" | b"8~" => Key::End,
                    b"3~" => Key::Delete,
                    _ => Key::Other,
                }
            }
            127 | 8 => Key::Ctrl(b'h'),
            b'\r' | b'\n' => Key::Ctrl(b'm'),
            b'\t' => Key::Ctrl(b'i'),
            c if c < 32 => Key::Ctrl(c + b'a' - 1),
            c => {
                // UTF-8 sequence
                let n = if c >> 5 == 6 {
                    1
                } else if c >> 4 == 14 {
                    2
                } else if c >> 3 == 30 {
                    3
                } else {
                    0
                };
                let mut bytes = vec![c];
                for _ in 0..n {
                    if let Some(x) = self.read_byte() {
                        bytes.push(x);
                    }
                }
                String::from_utf8(bytes)
                    .ok()
                    .and_then(|s| s.chars().next())
                    .map(Key::Char)
                    .unwrap_or(Key::Other)
            }
        }
    }

    fn redraw(&mut self, prompt: &[u8], ed: &Editor) {
        let mut o = b"\r\x1b[K".to_vec();
        o.extend_from_slice(prompt);
        let s: String = ed.buf.iter().collect();
        o.extend_from_slice(s.as_bytes());
        let back = ed.buf.len() - ed.cur;
        if back > 0 {
            o.extend_from_slice(format!("\x1b[{}D", back).as_bytes());
        }
        self.write_fd(2, &o);
    }

    fn complete(&mut self, ed: &mut Editor, prompt: &[u8]) {
        let before: String = ed.buf[..ed.cur].iter().collect();
        let start = before
            .rfind([' ', '\t', ';', '|', '&', '('])
            .map(|p| p + 1)
            .unwrap_or(0);
        let word = before[start..].to_string();
        let first = before[..start].trim().is_empty()
            || before[..start].trim_end().ends_with([';', '|', '&']);
        let (cands, prefix_len) = if let Some(v) = word.strip_prefix('$') {
            (
                self.completions(b"variable", v.as_bytes())
                    .into_iter()
                    .map(|c| [b"$".to_vec(), c].concat())
                    .collect::<Vec<_>>(),
                word.len(),
            )
        } else if first && !word.contains('/') {
            (self.completions(b"command", word.as_bytes()), word.len())
        } else {
            let mut c = self.completions(b"file", word.as_bytes());
            for x in c.iter_mut() {
                if std::fs::metadata(crate::bytes::path(x))
                    .map(|m| m.is_dir())
                    .unwrap_or(false)
                {
                    x.push(b'/');
                }
            }
            (c, word.len())
        };
        if cands.is_empty() {
            self.write_fd(2, b"\x07");
            return;
        }
        // longest common prefix
        let mut lcp = cands[0].clone();
        for c in &cands[1..] {
            let n = lcp.iter().zip(c.iter()).take_while(|(a, b)| a == b).count();
            lcp.truncate(n);
        }
        if lcp.len() > prefix_len {
            let add = String::from_utf8_lossy(&lcp[prefix_len..]).into_owned();
            for ch in add.chars() {
                ed.buf.insert(ed.cur, ch);
                ed.cur += 1;
            }
            if cands.len() == 1 && !lcp.ends_with(b"/") {
                ed.buf.insert(ed.cur, ' ');
                ed.cur += 1;
            }
        } else if cands.len() > 1 {
            let mut o = b"\r\n".to_vec();
            for c in cands.iter().take(200) {
                o.extend_from_slice(c);
                o.extend_from_slice(b"  ");
            }
            o.extend_from_slice(b"\r\n");
            self.write_fd(2, &o);
        }
        self.redraw(prompt, ed);
    }

    /// Read one line with editing. None on EOF (Ctrl-D on an empty line).
    fn edit_line(&mut self, prompt: &[u8]) -> Option<Result<String, ()>> {
        let mut ed = Editor {
            buf: Vec::new(),
            cur: 0,
            hist_pos: self.history.len(),
            saved: Vec::new(),
        };
        self.write_fd(2, prompt);
        loop {
            match self.read_key() {
                Key::Eof => return None,
                Key::Char(c) => {
                    ed.buf.insert(ed.cur, c);
                    ed.cur += 1;
                    if ed.cur == ed.buf.len() {
                        let mut b = [0u8; 4];
                        let s = c.encode_utf8(&mut b);
                        let s = s.as_bytes().to_vec();
                        self.write_fd(2, &s);
                    } else {
                        self.redraw(prompt, &ed);
                    }
                }
                Key::Ctrl(b'm') => {
                    self.write_fd(2, b"\r\n");
                    return Some(Ok(ed.buf.iter().collect()));
                }
                Key::Ctrl(b'c') => {
                    let restored = RESTORED.with(|r| r.get());
                    self.write_fd(2, if restored { b"\r\n" } else { b"^C\r\n" });
                    return Some(Err(()));
                }
                Key::Ctrl(b'd') => {
                    if ed.buf.is_empty() {
                        return None;
                    }
                    if ed.cur < ed.buf.len() {
                        ed.buf.remove(ed.cur);
                        self.redraw(prompt, &ed);
                    }
                }
                Key::Delete if ed.cur < ed.buf.len() => {
                    ed.buf.remove(ed.cur);
                    self.redraw(prompt, &ed);
                }
                Key::Ctrl(b'h') if ed.cur > 0 => {
                    ed.cur -= 1;
                    ed.buf.remove(ed.cur);
                    self.redraw(prompt, &ed);
                }
                Key::Ctrl(b'a') | Key::Home => {
                    ed.cur = 0;
                    self.redraw(prompt, &ed);
                }
                Key::Ctrl(b'e') | Key::End => {
                    ed.cur = ed.buf.len();
                    self.redraw(prompt, &ed);
                }
                Key::Ctrl(b'b') | Key::Left if ed.cur > 0 => {
                    ed.cur -= 1;
                    self.redraw(prompt, &ed);
                }
                Key::Ctrl(b'f') | Key::Right if ed.cur < ed.buf.len() => {
                    ed.cur += 1;
                    self.redraw(prompt, &ed);
                }
                Key::Ctrl(b'k') => {
                    ed.buf.truncate(ed.cur);
                    self.redraw(prompt, &ed);
                }
                Key::Ctrl(b'u') => {
                    ed.buf.drain(..ed.cur);
                    ed.cur = 0;
                    self.redraw(prompt, &ed);
                }
                Key::Ctrl(b'w') => {
                    let mut s = ed.cur;
                    while s > 0 && ed.buf[s - 1] == ' ' {
                        s -= 1;
                    }
                    while s > 0 && ed.buf[s - 1] != ' ' {
                        s -= 1;
                    }
                    ed.buf.drain(s..ed.cur);
                    ed.cur = s;
                    self.redraw(prompt, &ed);
                }
                Key::Ctrl(b'l') => {
                    self.write_fd(2, b"\x1b[H\x1b[2J");
                    self.redraw(prompt, &ed);
                }
                Key::Ctrl(b'p') | Key::Up if ed.hist_pos > 0 => {
                    if ed.hist_pos == self.history.len() {
                        ed.saved = ed.buf.clone();
                    }
                    ed.hist_pos -= 1;
                    ed.buf = String::from_utf8_lossy(&self.history[ed.hist_pos])
                        .chars()
                        .collect();
                    ed.cur = ed.buf.len();
                    self.redraw(prompt, &ed);
                }
                Key::Ctrl(b'n') | Key::Down if ed.hist_pos < self.history.len() => {
                    ed.hist_pos += 1;
                    ed.buf = if ed.hist_pos == self.history.len() {
                        ed.saved.clone()
                    } else {
                        String::from_utf8_lossy(&self.history[ed.hist_pos])
                            .chars()
                            .collect()
                    };
                    ed.cur = ed.buf.len();
                    self.redraw(prompt, &ed);
                }
                Key::Ctrl(b'r') => {
                    // incremental reverse search
                    let mut q = String::new();
                    let mut found: Option<usize> = None;
                    let mut accept = false;
                    loop {
                        let shown = found
                            .map(|i| String::from_utf8_lossy(&self.history[i]).into_owned())
                            .unwrap_or_default();
                        let line = format!("\r\x1b[K(reverse-i-search)`{}': {}", q, shown);
                        self.write_fd(2, line.as_bytes());
                        match self.read_key() {
                            Key::Char(c) => {
                                q.push(c);
                                found = self
                                    .history
                                    .iter()
                                    .rposition(|h| String::from_utf8_lossy(h).contains(&q));
                            }
                            Key::Ctrl(b'h') => {
                                q.pop();
                                found = self
                                    .history
                                    .iter()
                                    .rposition(|h| String::from_utf8_lossy(h).contains(&q));
                            }
                            Key::Ctrl(b'r') => {
                                let end = found.unwrap_or(self.history.len());
                                found = self.history[..end]
                                    .iter()
                                    .rposition(|h| String::from_utf8_lossy(h).contains(&q))
                                    .or(found);
                            }
                            Key::Ctrl(b'g') | Key::Ctrl(b'c') => break,
                            k => {
                                if let Some(i) = found {
                                    ed.buf =
                                        String::from_utf8_lossy(&self.history[i]).chars().collect();
                                    ed.cur = ed.buf.len();
                                }
                                accept = matches!(k, Key::Ctrl(b'm'));
                                break;
                            }
                        }
                    }
                    self.redraw(prompt, &ed);
                    if accept {
                        // Enter in a search runs the found line, as in bash
                        self.write_fd(2, b"\r\n");
                        return Some(Ok(ed.buf.iter().collect()));
                    }
                }
                Key::Ctrl(b'i') => self.complete(&mut ed, prompt),
                _ => {}
            }
        }
    }
}

/// Interactive read-eval loop.
/// `exit` or `exit N` alone on a line.
fn is_bare_exit(line: &str) -> bool {
    let mut words = line.split_whitespace();
    words.next() == Some("exit")
        && words.all(|w| !w.is_empty() && w.bytes().all(|c| c.is_ascii_digit() || c == b'-'))
        && line.split_whitespace().count() <= 2
}

pub fn repl(sh: &mut Shell) -> i32 {
    let _ = sh.sys.sigaction(2, 2);
    let raw = sh.sys.tty_get(0).is_ok();
    if raw {
        // job control: lead our own group and own the terminal; caught (not
        // ignored) so children still get the default actions
        let (pid, _) = sh.sys.getpid();
        if sh.sys.setpgid(0, 0).is_ok() && sh.sys.tcsetpgrp(0, pid).is_ok() {
            sh.jc = true;
            sh.shell_pgid = pid;
            let _ = sh.sys.sigaction(SIGQUIT, 2);
            let _ = sh.sys.sigaction(SIGTSTP, 2);
        }
    }
    // the kernel holds the state of a fresh shell from the start
    let mut ctl = match sh.end_step(0) {
        Ok(c) => {
            sh.session_shell = true;
            c
        }
        Err(_) => false,
    };
    loop {
        sh.reap_nohang();
        let _ = sh.sys.sigpending();
        if std::mem::take(&mut ctl) {
            sh.take_control();
        }
        RESTORED.with(|r| r.set(false));
        let ps1 = sh.get_var(b"PS1").unwrap_or_else(|| b"$ ".to_vec());
        let mut prompt = b"\x1b]133;A\x07".to_vec();
        prompt.extend_from_slice(&sh.prompt_expand(&ps1));
        prompt.extend_from_slice(b"\x1b]133;B\x07");
        let mut text = String::new();
        let mut first = true;
        let mut cancelled = false;
        let program = loop {
            let p = if first {
                prompt.clone()
            } else {
                sh.prompt_expand(&sh.get_var(b"PS2").unwrap_or_else(|| b"> ".to_vec()))
            };
            let line = if raw {
                let saved = sh.sys.tty_get(0).unwrap_or(TTY_CANON | TTY_ECHO | TTY_ISIG);
                let _ = sh.sys.tty_set(0, 0);
                let l = sh.edit_line(&p);
                let _ = sh.sys.tty_set(0, saved);
                l
            } else {
                sh.write_fd(2, &p);
                sh.read_line_fd(0)
                    .map(|l| Ok(String::from_utf8_lossy(&l).into_owned()))
            };
            match line {
                None => {
                    if first {
                        sh.write_fd(2, b"exit\n");
                        let st = sh.status;
                        return crate::finish_pub(sh, Ok(()), st);
                    }
                    break None;
                }
                Some(Err(())) => {
                    cancelled = true;
                    break None;
                }
                Some(Ok(l)) => {
                    text.push_str(&l);
                    text.push('\n');
                    first = false;
                    // complete? try parsing
                    let mut p = crate::parse::Parser::new(text.clone().into_bytes(), 1);
                    let mut ok = true;
                    let mut need_more = false;
                    loop {
                        match p.next_command() {
                            Ok(Some(_)) => {}
                            Ok(None) => break,
                            Err(e) => {
                                if e.eof {
                                    need_more = true;
                                }
                                ok = false;
                                break;
                            }
                        }
                    }
                    crate::parse::WARNINGS.with(|w| w.borrow_mut().clear());
                    if ok || !need_more {
                        break Some(text.clone());
                    }
                }
            }
        };
        if cancelled {
            if !RESTORED.with(|r| r.get()) {
                sh.status = 130;
            }
            continue;
        }
        let code = match program {
            Some(c) => c,
            None => continue,
        };
        let trimmed = code.trim_end().to_string();
        // A bare `exit` ends the session and does no work: not a step.
        let step = !trimmed.trim().is_empty() && !is_bare_exit(&trimmed);
        if step {
            // the kernel learns where command lines start and end from these
            // calls; the OSC 133 marks are only decoration for the terminal
            sh.begin_step(trimmed.as_bytes());
            sh.history.push(trimmed.into_bytes());
        }
        sh.write_fd(2, b"\x1b]133;C\x07");
        let r = sh.run_text(code.as_bytes(), 1, true);
        if let Err(Ctl::Exit(n)) = r {
            // A line that did work and then exited is a step like any other,
            // ending with the shell's status and its state after the EXIT trap.
            let st = crate::finish_pub(sh, Err(Ctl::Exit(n)), n);
            if step {
                let _ = sh.end_step(st);
            }
            return st;
        }
        if step {
            let st = sh.status;
            ctl = sh.end_step(st).unwrap_or(false);
        }
        let m = format!("\x1b]133;D;{}\x07", sh.status);
        sh.write_fd(2, m.as_bytes());
    }
}
