//! Redirections, applied to the shell's own fd table with the previous fds
//! saved (at fd >= 10) and restored after the command; `exec` keeps them.

use super::{Ctl, Shell};
use crate::ast::*;
use crate::sys::{strerror, O_APPEND, O_CREATE, O_READ, O_TRUNC, O_WRITE};

/// How to undo one redirection: the fd and its saved copy (None: it was closed).
pub type Saved = Vec<(i32, Option<i32>)>;

/// Here-doc contents up to this size go through a pipe; larger ones a temp file.
const PIPE_DOC_MAX: usize = 4096;

impl Shell {
    pub fn save_fd(&mut self, fd: i32) -> Option<i32> {
        if !self.open_fds.contains(&fd) && fd > 2 {
            return None;
        }
        self.sys.dup(fd, 10).ok()
    }

    pub fn restore_fd(&mut self, fd: i32, saved: Option<i32>) {
        match saved {
            Some(s) => {
                let _ = self.sys.dup2(s, fd);
                self.sys.close(s);
                self.open_fds.insert(fd);
            }
            None => {
                self.sys.close(fd);
                self.open_fds.remove(&fd);
            }
        }
    }

    pub fn restore_all(&mut self, saved: Saved) {
        for (fd, s) in saved.into_iter().rev() {
            self.restore_fd(fd, s);
        }
    }

    pub(crate) fn redir_error(&mut self, target: &[u8], e: i32) -> Ctl {
        let mut m = target.to_vec();
        m.extend_from_slice(b": ");
        m.extend_from_slice(strerror(e).as_bytes());
        self.err(&m);
        Ctl::Abort(1)
    }

    /// Apply redirections; on failure the ones already applied are undone.
    pub fn apply_redirs(&mut self, redirs: &[Redir], keep: bool) -> Result<Saved, i32> {
        let mut saved: Saved = Vec::new();
        for r in redirs {
            if let Err(st) = self.apply_one(r, &mut saved, keep) {
                self.restore_all(saved);
                return Err(st);
            }
        }
        Ok(saved)
    }

    fn place(&mut self, newfd: i32, target: i32, saved: &mut Saved, keep: bool) {
        if newfd == target {
            self.open_fds.insert(target);
            return;
        }
        if !keep && !saved.iter().any(|(f, _)| *f == target) {
            let s = self.save_fd(target);
            saved.push((target, s));
        }
        let _ = self.sys.dup2(newfd, target);
        self.sys.close(newfd);
        self.open_fds.insert(target);
    }

    fn target_word(&mut self, w: &Word) -> Result<Bytes, i32> {
        let v = match self.expand_words(std::slice::from_ref(w)) {
            Ok(v) => v,
            Err(Ctl::Abort(n)) | Err(Ctl::Exit(n)) => return Err(n.max(1)),
            Err(_) => return Err(1),
        };
        if v.len() != 1 {
            let raw = crate::printer::word_text(w);
            let mut m = raw;
            m.extend_from_slice(b": ambiguous redirect");
            self.err(&m);
            return Err(1);
        }
        Ok(v.into_iter().next().unwrap_or_default())
    }

    fn apply_one(&mut self, r: &Redir, saved: &mut Saved, keep: bool) -> Result<(), i32> {
        let default_fd = match r.op {
            RedirOp::In | RedirOp::InOut | RedirOp::DupIn | RedirOp::HereDoc | RedirOp::HereStr => {
                0
            }
            _ => 1,
        };
        // `{var}>file`: allocate a new fd >= 10 and store its number
        let mut fd = r.fd.unwrap_or(default_fd);
        if let Some(var) = &r.var {
            if matches!(r.op, RedirOp::DupOut | RedirOp::DupIn) {
                if let Some(t) = r.target.as_plain() {
                    if t == b"-" {
                        let v = self
                            .fd_var_value(var)?
                            .and_then(|v| crate::bytes::parse_i64(&v))
                            .unwrap_or(-1) as i32;
                        if v >= 0 {
                            self.sys.close(v);
                            self.open_fds.remove(&v);
                        }
                        return Ok(());
                    }
                }
            }
            fd = -1;
        }
        let open_flags = match r.op {
            RedirOp::In => Some(O_READ),
            RedirOp::Out | RedirOp::Clobber | RedirOp::AndOut => Some(O_WRITE | O_CREATE | O_TRUNC),
            RedirOp::Append | RedirOp::AndAppend => Some(O_WRITE | O_CREATE | O_APPEND),
            RedirOp::InOut => Some(O_READ | O_WRITE | O_CREATE),
            _ => None,
        };
        let newfd = if let Some(flags) = open_flags {
            let path = self.target_word(&r.target)?;
            if path.is_empty() {
                self.err(b": No such file or directory");
                return Err(1);
            }
            if self.opts.noclobber && matches!(r.op, RedirOp::Out | RedirOp::AndOut) {
                if let Some(m) = crate::fsx::stat(&path) {
                    if m.is_file() {
                        let mut msg = path.clone();
                        msg.extend_from_slice(b": cannot overwrite existing file");
                        self.err(&msg);
                        return Err(1);
                    }
                }
            }
            match self.open_path(&path, flags) {
                Ok(f) => f,
                Err(e) => {
                    let _ = self.redir_error(&path, e);
                    return Err(1);
                }
            }
        } else {
            match r.op {
                RedirOp::DupIn | RedirOp::DupOut => {
                    let t = self.target_word(&r.target)?;
                    if t == b"-" {
                        if !keep && !saved.iter().any(|(f, _)| *f == fd) {
                            let s = self.save_fd(fd);
                            saved.push((fd, s));
                        }
                        self.sys.close(fd);
                        self.open_fds.remove(&fd);
                        return Ok(());
                    }
                    let (num, close_src) = if let Some(stripped) = t.strip_suffix(b"-") {
                        (crate::bytes::parse_i64(stripped), true)
                    } else {
                        (crate::bytes::parse_i64(&t), false)
                    };
                    match num {
                        Some(n) if t.iter().all(|c| c.is_ascii_digit() || *c == b'-') => {
                            let n = n as i32;
                            if !self.open_fds.contains(&n)
                                || self.sys.dup(n, 10).map(|d| self.sys.close(d)).is_err()
                            {
                                // bash names the word as written (`$x`)
                                let mut m = match (&r.target.raw, r.fd) {
                                    (Some(raw), None) => raw.to_vec(),
                                    _ => t.clone(),
                                };
                                m.extend_from_slice(b": Bad file descriptor");
                                self.err(&m);
                                return Err(1);
                            }
                            if n == fd {
                                return Ok(());
                            }
                            let copy = match self.sys.dup(n, 10) {
                                Ok(c) => c,
                                Err(_) => return Err(1),
                            };
                            self.place(copy, fd, saved, keep);
                            if close_src {
                                self.sys.close(n);
                                self.open_fds.remove(&n);
                            }
                            return Ok(());
                        }
                        _ => {
                            if r.op == RedirOp::DupOut && r.fd.is_none() {
                                // `>&file` means `&>file`
                                let f = match self.open_path(&t, O_WRITE | O_CREATE | O_TRUNC) {
                                    Ok(f) => f,
                                    Err(e) => {
                                        let _ = self.redir_error(&t, e);
                                        return Err(1);
                                    }
                                };
                                let f2 = self.sys.dup(f, 10).unwrap_or(f);
                                self.place(f, 1, saved, keep);
                                self.place(f2, 2, saved, keep);
                                return Ok(());
                            }
                            let mut m = t.clone();
                            m.extend_from_slice(b": ambiguous redirect");
                            self.err(&m);
                            return Err(1);
                        }
                    }
                }
                RedirOp::HereDoc | RedirOp::HereStr => {
                    let content = if r.op == RedirOp::HereStr {
                        let mut v = match self.expand_single(&r.target) {
                            Ok(v) => v,
                            Err(_) => return Err(1),
                        };
                        v.push(b'\n');
                        v
                    } else {
                        let doc = match &r.heredoc {
                            Some(d) => d.clone(),
                            None => return Err(1),
                        };
                        let d = doc.borrow();
                        if d.quoted {
                            d.raw.clone()
                        } else {
                            let body = d.body.clone();
                            drop(d);
                            match self.expand_single(&body) {
                                Ok(v) => v,
                                Err(_) => return Err(1),
                            }
                        }
                    };
                    match self.content_fd(&content) {
                        Ok(f) => f,
                        Err(e) => {
                            let _ = self.redir_error(b"here-document", e);
                            return Err(1);
                        }
                    }
                }
                _ => return Err(1),
            }
        };
        if fd == -1 {
            // {var}: move to a fresh fd >= 10
            let n = self.sys.dup(newfd, 10).unwrap_or(newfd);
            if n != newfd {
                self.sys.close(newfd);
            }
            self.open_fds.insert(n);
            if let Some(var) = &r.var {
                if self.assign_ref(var, n.to_string().into_bytes()).is_err() {
                    return Err(1);
                }
            }
            return Ok(());
        }
        if matches!(r.op, RedirOp::AndOut | RedirOp::AndAppend) {
            let f2 = self.sys.dup(newfd, 10).unwrap_or(newfd);
            self.place(newfd, 1, saved, keep);
            self.place(f2, 2, saved, keep);
            return Ok(());
        }
        self.place(newfd, fd, saved, keep);
        if keep && fd > 2 {
            self.user_fds.push(fd);
        }
        Ok(())
    }

    /// The value `{var}>&-` closes: a variable or an array element.
    fn fd_var_value(&mut self, var: &[u8]) -> Result<Option<Bytes>, i32> {
        let open = match var.iter().position(|&c| c == b'[') {
            Some(o) => o,
            None => return Ok(self.get_var(var)),
        };
        let sub = &var[open + 1..var.len() - 1];
        let i = self.eval_arith_text(sub).map_err(|_| 1)?;
        Ok(self.array_get(&var[..open], i))
    }

    pub fn open_path(&mut self, path: &[u8], flags: u32) -> Result<i32, i32> {
        if flags & O_WRITE != 0 && crate::fsx::stat(path).map(|m| m.is_dir()).unwrap_or(false) {
            return Err(31);
        }
        if path == b"/dev/null"
            || path.starts_with(b"/dev/fd/")
            || path == b"/dev/stdout"
            || path == b"/dev/stderr"
            || path == b"/dev/stdin"
        {
            let n = match path {
                b"/dev/stdin" => Some(0),
                b"/dev/stdout" => Some(1),
                b"/dev/stderr" => Some(2),
                _ => path
                    .strip_prefix(b"/dev/fd/")
                    .and_then(crate::bytes::parse_i64)
                    .map(|n| n as i32),
            };
            if let Some(n) = n {
                return self.sys.dup(n, 10).map_err(|_| 8);
            }
        }
        let f = self.sys.open(path, flags)?;
        // keep redirect fds out of the low numbers users pick
        if f < 10 {
            if let Ok(n) = self.sys.dup(f, 10) {
                self.sys.close(f);
                return Ok(n);
            }
        }
        Ok(f)
    }

    /// An fd reading the given bytes (here-docs and here-strings).
    fn content_fd(&mut self, content: &[u8]) -> Result<i32, i32> {
        if content.len() <= PIPE_DOC_MAX {
            let (rd, wr) = self.sys.pipe()?;
            self.write_fd(wr, content);
            self.sys.close(wr);
            return Ok(rd);
        }
        let dir = std::env::var_os("TMPDIR")
            .map(|d| crate::bytes::os_bytes(&d))
            .unwrap_or_else(|| b"/tmp".to_vec());
        let mut path = dir;
        let r = self.next_random();
        path.extend_from_slice(format!("/sh-thd.{}.{}", self.bashpid, r).as_bytes());
        let f = self.sys.open(&path, O_WRITE | O_CREATE | O_TRUNC)?;
        self.write_fd(f, content);
        self.sys.close(f);
        let r = self.sys.open(&path, O_READ);
        let _ = std::fs::remove_file(crate::bytes::path(&path));
        r
    }
}
