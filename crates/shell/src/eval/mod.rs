//! The interpreter: the `Shell` value and its helpers. Commands are run in
//! `exec.rs`, words expanded in `expand.rs`, arithmetic in `arith.rs`, `[[ ]]`
//! in `cond.rs`, patterns matched in `pattern.rs`, redirections in `redir.rs`,
//! child shells (subshells, pipeline stages, `$( )`, `&`) set up in `child.rs`.

pub mod arith;
pub mod child;
pub mod cond;
pub mod exec;
pub mod exec_last;
pub mod expand;
pub mod pattern;
mod pattern_scan;
pub mod redir;
mod specials;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
mod timeformat;

use crate::ast::*;
use crate::state::*;
use crate::sys::Sys;
pub use exec_last::AsyncKind;
use std::collections::HashMap;

/// Non-local control flow out of a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ctl {
    Break(usize),
    Continue(usize),
    Return(i32),
    Exit(i32),
    /// An expansion error: abandon the current top-level command.
    Abort(i32),
}

pub type R<T> = Result<T, Ctl>;

/// Deepest function call nesting (bash's FUNCNEST-like guard, keeps the stack safe).
pub const MAX_FUNC_DEPTH: usize = 1000;
/// Deepest nesting of in-process evaluation (eval, source, traps, substitutions).
pub const MAX_EVAL_DEPTH: usize = 200;

pub struct Shell {
    pub sys: Box<dyn Sys>,
    pub vars: Vars,
    pub funcs: Functions,
    pub opts: Options,
    pub positional: Vec<Bytes>,
    pub arg0: Bytes,
    /// Name used in error messages ("bash" for -c, the script path otherwise).
    pub err_name: Bytes,
    /// What bash calls the text being parsed in syntax errors: `-c`, `eval`,
    /// a script's or sourced file's path.
    pub input_name: Bytes,
    /// The file each function was defined in (`environment` outside any
    /// file, as bash says): BASH_SOURCE inside it and its errors' prefix.
    pub func_files: HashMap<Bytes, Bytes>,
    pub c_mode: bool,
    pub status: i32,
    pub pipestatus: Vec<i32>,
    pub lineno: u32,
    pub pid: i32,
    /// This process's own pid ($BASHPID; `pid`, $$, is the main shell's).
    pub bashpid: i32,
    pub ppid: i32,
    pub last_bg: i32,
    /// Trap actions: key 0 EXIT, signal numbers, -1 ERR, -2 DEBUG, -3 RETURN.
    pub traps: HashMap<i32, Bytes>,
    /// In a subshell, the parent's traps: `trap -p` lists them until the
    /// subshell sets a trap of its own (bash does the same).
    pub parent_traps: Option<HashMap<i32, Bytes>>,
    /// The command evaluating arithmetic (`((` or `let`), named in its errors.
    pub arith_ctx: Option<&'static str>,
    /// Call frames for `caller`, innermost last: (FUNCNAME, BASH_SOURCE, BASH_LINENO).
    pub frames: Vec<(Bytes, Bytes, u32)>,
    pub aliases: HashMap<Bytes, Bytes>,
    pub funcnames: Vec<Bytes>,
    pub sources: Vec<Bytes>,
    pub loop_depth: usize,
    pub eval_depth: usize,
    pub jobs: Vec<Job>,
    /// Background processes reaped and gone from the job table, with their
    /// statuses: `wait PID` still answers for them.
    pub reaped: Vec<(i32, i32)>,
    /// The signal that ended the last process waited for (0: it exited).
    pub wait_signal: i32,
    /// >0 while running a condition (if/while/&&/||/!): errexit is ignored.
    pub no_errexit: usize,
    pub start_secs: u64,
    /// Diagnostics held back while printf runs one pass of its format:
    /// bash writes each pass's output after that pass's complaints.
    pub held_errs: Option<Bytes>,
    pub random: u32,
    /// The last $RANDOM handed out (bash never repeats it at once).
    pub last_random: i64,
    pub hash: HashMap<Bytes, Bytes>,
    /// Times each hashed command was found through the table (`hash` lists them).
    pub hash_hits: HashMap<Bytes, u32>,
    /// Builtins turned off with `enable -n` (then looked up as commands).
    pub disabled: std::collections::BTreeSet<Bytes>,
    /// Running coprocesses: pid, array name, the shell's fds to them.
    pub coprocs: Vec<(i32, Bytes, Vec<i32>)>,
    /// An array literal given to declare/local (bash quotes words in its
    /// messages then).
    pub declaring: bool,
    pub dirstack: Vec<Bytes>,
    /// Fds the user opened with `exec n>file` (children inherit them).
    pub user_fds: Vec<i32>,
    /// Path of the shell executable, for child shells.
    pub exe: Bytes,
    pub in_trap: bool,
    pub pending_signals: u64,
    pub last_arg: Bytes,
    /// The directory `cd` last went to, as bash keeps it apart from `$PWD`
    /// (assigning PWD does not move the shell); empty before the first cd.
    pub logical_pwd: Bytes,
    /// `$BASH_COMMAND` while a trap is set: the text of the last simple
    /// command started outside a trap (the one a trap interrupted).
    pub bash_command: Bytes,
    /// The innermost simple command running outside a trap, or null.
    /// `run_simple` sets it for the length of its call and puts the outer
    /// one back on the way out, so it never outlives the node it points to.
    pub running_simple: *const crate::ast::Simple,
    pub getopts_sub: usize,
    /// User-visible open fds (inherited by children).
    pub open_fds: std::collections::BTreeSet<i32>,
    /// fds held open for `<( )` until the current command ends.
    pub procsub_fds: Vec<i32>,
    pub bg_pids: Vec<i32>,
    /// When set, fd 1 output of in-process builtins goes here (`$(echo ..)`).
    pub capture: Option<Bytes>,
    pub in_source: bool,
    pub history: Vec<Bytes>,
    /// A command substitution ran during the current simple command.
    pub subst_ran: bool,
    /// Encoding state for a `$( )` child (errexit is not inherited there).
    pub cmdsub_child: bool,
    pub last_optind: usize,
    /// Set by `exec` without a command: keep the redirections just applied.
    pub keep_redirs: bool,
    /// This shell reports command lines to a kernel session (a terminal's
    /// shell): `exec bash` then runs the new shell in this process, so the
    /// session keeps its reporter.
    pub session_shell: bool,
    /// Per function call: the `set` options `local -` saved, restored on return.
    pub local_opts: Vec<Option<Vec<(&'static str, bool)>>>,
    /// Job control (interactive shell owning a tty): foreground jobs run in
    /// their own process group, which the kernel makes the tty's foreground.
    pub jc: bool,
    /// The shell's own process group, given the terminal back after each job.
    pub shell_pgid: i32,
    /// Set while spawning a foreground job's process(es).
    pub jc_job: bool,
    /// Process group of the foreground job being started (0: none yet).
    pub jc_group: i32,
    /// Depth of `( )` subshells run in-process.
    pub subshells: usize,
    /// $BASH_SUBSHELL of this process (children get one more).
    pub subshell_level: u32,
    /// This child shell's whole command is one `( ... )`: the process already
    /// is that subshell, so it runs in place (no saved copies of its fds that
    /// would keep a pipe's end open, no extra $BASH_SUBSHELL level), as bash.
    pub sole_subshell: bool,
    /// Set while a pipeline stage's child shell is started (tells the child
    /// it may run a sole `( ... )` in place; `$( (...) )` may not, as bash).
    pub spawning_stage: bool,
    /// Set while a lone simple command is forked from the top level of a
    /// `bash -c` shell (a pipeline stage or `cmd &`); in that child a fatal
    /// expansion error ends it with 127, as the -c shell itself would end
    /// (bash's `( )`, `{ }` and `$( )` children end with 1).
    pub simple_fork: bool,
    /// Set while such a child is started (what it is told as `simple_fork`).
    pub spawning_simple: bool,
    /// This process ends when the text it runs ends (`bash -c`, a child
    /// shell): its last simple command may replace it (see `exec_last.rs`).
    pub oneshot: bool,
    /// The simple command that may exec in place of this shell (null: none).
    pub exec_target: *const Simple,
    /// Set while a background job's child is started (it gets SIGINT and
    /// SIGQUIT ignored when job control is off).
    pub spawning_bg: Option<AsyncKind>,
    /// What kind of background job this child shell runs, as bash treats
    /// SIGINT and SIGQUIT in it (see `exec_last.rs`).
    pub async_kind: AsyncKind,
    pub uid: u32,
    pub euid: u32,
    /// State of the $SRANDOM stirrer.
    pub srandom: std::cell::Cell<u64>,
    /// Limits set with `ulimit` (by option letter; None: unlimited).
    pub limits: HashMap<u8, Option<u64>>,
    /// `complete` specifications: (name, the line `complete -p` prints).
    pub completions: Vec<(Bytes, Bytes)>,
    /// Started as a login shell (`-l`, `--login`, argv[0] `-bash`).
    pub login: bool,
    /// Functions marked `export -f` (A_EXPORT) or `readonly -f` (A_READONLY).
    pub func_attrs: HashMap<Bytes, u16>,
    /// Levels of command substitution under the top shell: set -x repeats
    /// PS4's first character once per level.
    pub trace_level: u32,
    /// set -x line of a declaration builtin with a `name=(...)` argument:
    /// written after the traced compound value, as bash does.
    pub decl_trace: Option<Bytes>,
    /// Command text of the foreground job (for "Stopped" reports).
    pub jc_cmd: Bytes,
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

impl Shell {
    pub fn new(sys: Box<dyn Sys>) -> Shell {
        let mut sys = sys;
        let (pid, ppid) = sys.getpid();
        let mut sh = Shell {
            sys,
            vars: Vars::new(),
            funcs: HashMap::new(),
            opts: Options {
                hashall: true,
                braceexpand: true,
                interactive_comments: true,
                ..Default::default()
            },
            positional: Vec::new(),
            arg0: b"bash".to_vec(),
            err_name: b"bash".to_vec(),
            input_name: b"bash".to_vec(),
            func_files: HashMap::new(),
            c_mode: true,
            status: 0,
            pipestatus: Vec::new(),
            lineno: 0,
            pid,
            bashpid: pid,
            ppid,
            last_bg: 0,
            traps: HashMap::new(),
            parent_traps: None,
            arith_ctx: None,
            frames: Vec::new(),
            aliases: HashMap::new(),
            funcnames: Vec::new(),
            sources: Vec::new(),
            loop_depth: 0,
            eval_depth: 0,
            jobs: Vec::new(),
            no_errexit: 0,
            start_secs: now_secs(),
            held_errs: None,
            random: (pid as u32).wrapping_mul(2654435761) ^ (now_secs() as u32),
            last_random: -1,
            hash: HashMap::new(),
            hash_hits: HashMap::new(),
            disabled: Default::default(),
            coprocs: Vec::new(),
            declaring: false,
            dirstack: Vec::new(),
            user_fds: Vec::new(),
            exe: b"/bin/sh".to_vec(),
            in_trap: false,
            pending_signals: 0,
            last_arg: Vec::new(),
            logical_pwd: Vec::new(),
            bash_command: Vec::new(),
            running_simple: std::ptr::null(),
            getopts_sub: 0,
            reaped: Vec::new(),
            wait_signal: 0,
            open_fds: [0, 1, 2].into_iter().collect(),
            procsub_fds: Vec::new(),
            bg_pids: Vec::new(),
            capture: None,
            in_source: false,
            history: Vec::new(),
            subst_ran: false,
            cmdsub_child: false,
            last_optind: 1,
            keep_redirs: false,
            jc: false,
            shell_pgid: 0,
            jc_job: false,
            jc_group: 0,
            subshells: 0,
            subshell_level: 0,
            sole_subshell: false,
            spawning_stage: false,
            simple_fork: false,
            spawning_simple: false,
            oneshot: false,
            exec_target: std::ptr::null(),
            spawning_bg: None,
            async_kind: AsyncKind::None,
            uid: 0,
            euid: 0,
            srandom: std::cell::Cell::new(pid as u64),
            limits: HashMap::new(),
            completions: Vec::new(),
            login: false,
            func_attrs: HashMap::new(),
            trace_level: 0,
            decl_trace: None,
            jc_cmd: Vec::new(),
            session_shell: false,
            local_opts: Vec::new(),
        };
        let ids = sh.sys.ids();
        sh.uid = ids.0;
        sh.euid = ids.2;
        for (k, v) in std::env::vars_os() {
            use crate::bytes::os_bytes;
            let k = os_bytes(&k);
            if let Some(name) = k
                .strip_prefix(b"BASH_FUNC_")
                .and_then(|n| n.strip_suffix(b"%%"))
            {
                sh.import_function(name, &os_bytes(&v));
                continue;
            }
            if crate::parse::is_name(&k) {
                sh.vars.scopes[0].insert(
                    k,
                    Var {
                        value: Some(Value::Str(os_bytes(&v))),
                        attrs: A_EXPORT,
                    },
                );
            }
        }
        // `$_` starts as the caller passed it, else as the shell's path
        sh.last_arg = match sh.vars.scopes[0].remove(&b"_"[..]) {
            Some(Var {
                value: Some(Value::Str(v)),
                ..
            }) => v,
            _ => b"/usr/bin/bash".to_vec(),
        };
        let defaults: &[(&[u8], &[u8])] = &[(b"IFS", b" \t\n"), (b"PS4", b"+ "), (b"OPTIND", b"1")];
        for (k, v) in defaults {
            sh.vars.scopes[0].insert(
                k.to_vec(),
                Var {
                    value: Some(Value::Str(v.to_vec())),
                    attrs: 0,
                },
            );
        }
        if sh.vars.get(b"PATH").is_none() {
            sh.set_var(b"PATH", b"/usr/local/bin:/usr/bin:/bin".to_vec());
        }
        let ver = b"5.2.15(1)-release".to_vec();
        sh.set_var(b"BASH_VERSION", ver);
        sh.set_var(b"BASH", b"/bin/bash".to_vec());
        let mach = sh
            .get_var(b"MACHTYPE")
            .unwrap_or_else(|| b"wasm32-sandglass-wasi".to_vec());
        let info: Vec<Bytes> = [&b"5"[..], b"2", b"15", b"1", b"release", &mach]
            .iter()
            .map(|s| s.to_vec())
            .collect();
        sh.set_array(b"BASH_VERSINFO", info);
        sh.vars.entry_raw(b"BASH_VERSINFO").attrs |= A_READONLY;
        sh.set_var(b"SHLVL", b"1".to_vec());
        let host = std::fs::read("/etc/hostname").unwrap_or_else(|_| b"sandbox".to_vec());
        let host: Vec<u8> = host.into_iter().filter(|c| *c != b'\n').collect();
        sh.set_var(b"HOSTNAME", host);
        sh.init_specials();
        sh.sync_locale();
        sh
    }

    // ----- errors -----

    /// The name bash puts before its errors: BASH_SOURCE[0] (the file of
    /// the running function or sourced file) when set, else $0.
    pub fn error_name(&self) -> Bytes {
        match self.frames.last() {
            Some(f) if !f.1.is_empty() => f.1.clone(),
            _ => self.err_name.clone(),
        }
    }

    /// "name: line N: " (or "name: " when interactive).
    pub fn prefix(&self) -> Vec<u8> {
        let mut p = self.error_name();
        if self.opts.interactive && self.sources.is_empty() {
            p.extend_from_slice(b": ");
        } else {
            p.extend_from_slice(format!(": line {}: ", self.lineno).as_bytes());
        }
        p
    }

    /// An unset variable under `set -u` or `${x?}`: a shell that is not
    /// interactive exits, even inside eval: with 127 (bash 5.2), or 1 from
    /// a subshell.
    pub fn expansion_fatal(&self) -> Ctl {
        if self.opts.interactive {
            Ctl::Abort(1)
        } else if self.simple_fork && self.subshells == 0 {
            Ctl::Exit(127)
        } else if self.subshells > 0 || self.subshell_level > 0 || !self.c_mode {
            // a script file (or stdin) ends with 1; only `bash -c` with 127
            Ctl::Exit(1)
        } else {
            Ctl::Exit(127)
        }
    }

    /// Whether a lone simple command forked from here gets `simple_fork`.
    pub fn forks_simple_at_top(&self, cmd: &Command) -> bool {
        if !self.c_mode || self.opts.interactive || self.subshells > 0 || self.subshell_level > 0 {
            return false;
        }
        match cmd {
            // eval and source catch the error themselves in bash's child
            Command::Simple(s) => !matches!(
                s.words.first().and_then(|w| w.as_plain()),
                Some(b"eval" | b"source" | b".")
            ),
            _ => false,
        }
    }

    pub fn err(&mut self, msg: &[u8]) {
        let mut m = self.prefix();
        m.extend_from_slice(msg);
        m.push(b'\n');
        match self.held_errs.as_mut() {
            Some(h) => h.extend_from_slice(&m),
            None => {
                self.write_fd(2, &m);
            }
        }
    }

    pub fn errs(&mut self, msg: &str) {
        self.err(msg.as_bytes());
    }

    pub fn write_fd(&mut self, fd: i32, mut b: &[u8]) -> bool {
        if fd == 1 {
            if let Some(c) = self.capture.as_mut() {
                c.extend_from_slice(b);
                return true;
            }
        }
        while !b.is_empty() {
            match self.sys.write(fd, b) {
                Ok(0) => return false,
                Ok(n) => b = &b[n..],
                Err(crate::sys::EINTR) => continue,
                Err(_) => return false,
            }
        }
        true
    }

    // ----- variables -----

    pub fn get_var(&self, name: &[u8]) -> Option<Bytes> {
        if name == b"_" {
            return Some(self.last_arg.clone());
        }
        if self.is_dynamic(name) {
            if let Some(v) = self.dynamic_scalar(name) {
                return Some(v);
            }
            if let Some(list) = self.shell_array(name) {
                return list.into_iter().next();
            }
        }
        match self.vars.get(name) {
            Some(v) => v.value.as_ref().and_then(|v| v.scalar_opt()),
            None => match self.vars.resolve(name) {
                Resolved::Element(t) => {
                    let open = t.iter().position(|c| *c == b'[')?;
                    let key = &t[open + 1..t.len().saturating_sub(1)];
                    match self.vars.get(&t[..open])?.value.as_ref()? {
                        Value::Assoc(m) => m.get(key).cloned(),
                        _ => self.array_get(&t[..open], crate::bytes::parse_i64(key)?),
                    }
                }
                _ => None,
            },
        }
    }

    /// bash 5.2's $RANDOM: the "minimal standard" generator (16807 x mod
    /// 2^31-1), both halves folded into 15 bits, never the same value twice
    /// in a row; `RANDOM=n` seeds it, so seeded sequences match bash's.
    pub fn next_random(&mut self) -> i64 {
        loop {
            let last = if self.random == 0 {
                123_459_876
            } else {
                self.random as i64
            };
            let (h, l) = (last / 127_773, last % 127_773);
            let mut t = 16_807 * l - 2_836 * h;
            if t < 0 {
                t += 0x7fff_ffff;
            }
            self.random = t as u32;
            let v = ((t >> 16) ^ (t & 0xffff)) & 0x7fff;
            if v != self.last_random {
                self.last_random = v;
                return v;
            }
        }
    }

    pub fn var_is_set(&self, name: &[u8]) -> bool {
        self.vars
            .get(name)
            .map(|v| v.value.is_some())
            .unwrap_or(false)
    }

    /// Assign a scalar (respecting attributes). Returns false (after an error
    /// message) for readonly variables.
    /// Follow the locale variables: a locale that is not UTF-8 (C, POSIX, or
    /// none set) makes characters single bytes.
    pub fn sync_locale(&mut self) {
        let v = [&b"LC_ALL"[..], b"LC_CTYPE", b"LANG"]
            .iter()
            .filter_map(|n| self.get_var(n))
            .find(|v| !v.is_empty());
        let utf8 = v
            .map(|v| {
                let l = v.to_ascii_lowercase();
                l.windows(5).any(|w| w == b"utf-8") || l.windows(4).any(|w| w == b"utf8")
            })
            .unwrap_or(false);
        expand::set_byte_chars(!utf8);
    }

    /// Assign to a variable named at run time, which may be an array element
    /// (`printf -v 'a[2]'`, `read 'm[k]'`).
    pub fn assign_ref(&mut self, target: &[u8], val: Bytes) -> R<()> {
        self.assign_ref_append(target, val, false)
    }

    fn assign_ref_append(&mut self, target: &[u8], val: Bytes, append: bool) -> R<()> {
        if let Some(open) = target.iter().position(|&c| c == b'[') {
            if target.last() == Some(&b']') && crate::parse::is_name(&target[..open]) {
                let idx = Word::lit(&target[open + 1..target.len() - 1]);
                return self.assign_scalar(&target[..open], Some(&idx), val, append);
            }
        }
        self.assign_scalar(target, None, val, append)
    }

    /// "warning: NAME: circular name reference"
    pub fn circular_ref_warning(&mut self, name: &[u8]) {
        let mut m = b"warning: ".to_vec();
        m.extend_from_slice(name);
        m.extend_from_slice(b": circular name reference");
        self.err(&m);
    }

    /// A builtin that is not disabled (`enable -n`).
    pub fn builtin_on(&self, name: &[u8]) -> bool {
        crate::builtins::is_builtin(name) && !self.disabled.contains(name)
    }

    pub fn set_var(&mut self, name: &[u8], val: Bytes) -> bool {
        self.assign_scalar(name, None, val, false).is_ok()
    }

    pub fn readonly_err(&mut self, name: &[u8]) {
        let mut m = name.to_vec();
        m.extend_from_slice(b": readonly variable");
        self.err(&m);
    }

    /// Apply integer/case attributes to a value about to be stored.
    pub(crate) fn transform_value(
        &mut self,
        attrs: u16,
        name: &[u8],
        val: Bytes,
        append_to: Option<&[u8]>,
    ) -> R<Bytes> {
        if attrs & A_INTEGER != 0 {
            let mut n = self.eval_arith_text(&val)?;
            if let Some(old) = append_to {
                n = n.wrapping_add(self.eval_arith_text(old)?);
            }
            let _ = name;
            return Ok(n.to_string().into_bytes());
        }
        let mut v = match append_to {
            Some(old) => {
                let mut o = old.to_vec();
                o.extend_from_slice(&val);
                o
            }
            None => val,
        };
        if attrs & A_LOWER != 0 {
            v = String::from_utf8_lossy(&v).to_lowercase().into_bytes();
        } else if attrs & A_UPPER != 0 {
            v = String::from_utf8_lossy(&v).to_uppercase().into_bytes();
        } else if attrs & A_CAPITAL != 0 {
            let t = String::from_utf8_lossy(&v).to_lowercase();
            let mut c = t.chars();
            v = match c.next() {
                Some(f) => f.to_uppercase().chain(c).collect::<String>().into_bytes(),
                None => Vec::new(),
            };
        }
        Ok(v)
    }

    /// `name=val`, `name+=val`, `name[idx]=val`.
    pub fn assign_scalar(
        &mut self,
        name: &[u8],
        idx: Option<&Word>,
        val: Bytes,
        append: bool,
    ) -> R<()> {
        if self
            .vars
            .get_raw(name)
            .map_or(false, |v| v.attrs & A_NAMEREF != 0)
        {
            match self.vars.resolve(name) {
                Resolved::Name(t) if t != name => return self.assign_scalar(&t, idx, val, append),
                Resolved::Name(_) => {}
                Resolved::Element(t) if idx.is_none() => {
                    return self.assign_ref_append(&t, val, append)
                }
                Resolved::Element(_) => {}
                Resolved::Circular => {
                    self.circular_ref_warning(name);
                    return Err(Ctl::Abort(1));
                }
            }
        }
        if name == b"PATH" {
            // A new search path invalidates every remembered lookup.
            self.hash.clear();
            self.hash_hits.clear();
        }
        if idx.is_none() && name == b"BASH_ARGV0" && self.is_dynamic(name) {
            self.arg0 = val;
            return Ok(());
        }
        if idx.is_none() && matches!(name, b"RANDOM" | b"SECONDS") && self.is_dynamic(name) {
            // assigning seeds the generator / restarts the count from the value
            let n = self.eval_arith_text(&val).unwrap_or(0);
            if name == b"RANDOM" {
                self.random = n as u32;
                self.last_random = -1;
            } else {
                self.start_secs = now_secs().wrapping_sub(n as u64);
            }
            return Ok(());
        }
        if matches!(name, b"LC_ALL" | b"LC_CTYPE" | b"LANG") {
            let r = self.assign_scalar_inner(name, idx, val, append);
            self.sync_locale();
            return r;
        }
        if name == b"GLOBIGNORE" && idx.is_none() {
            // bash: a non-empty GLOBIGNORE turns dotglob on (an empty one
            // leaves it as it was)
            let r = self.assign_scalar_inner(name, idx, val, append);
            if self.get_var(b"GLOBIGNORE").map_or(false, |v| !v.is_empty()) {
                self.opts.dotglob = true;
                self.sync_specials();
            }
            return r;
        }
        if name == b"POSIXLY_CORRECT" {
            // as in bash, setting it turns POSIX mode on (unsetting, off)
            let r = self.assign_scalar_inner(name, idx, val, append);
            self.opts.posix = true;
            self.sync_specials();
            return r;
        }
        self.assign_scalar_inner(name, idx, val, append)
    }

    fn assign_scalar_inner(
        &mut self,
        name: &[u8],
        idx: Option<&Word>,
        val: Bytes,
        append: bool,
    ) -> R<()> {
        let (attrs, is_assoc, is_arr) = match self.vars.get(name) {
            Some(v) => (
                v.attrs,
                matches!(v.value, Some(Value::Assoc(_))) || v.attrs & A_ASSOC != 0,
                matches!(v.value, Some(Value::Arr(_))),
            ),
            None => (0, false, false),
        };
        if attrs & A_READONLY != 0 {
            self.readonly_err(name);
            return Err(Ctl::Abort(1));
        }
        let attrs = if self.opts.allexport {
            attrs | A_EXPORT
        } else {
            attrs
        };
        match idx {
            None => {
                let old = if append {
                    self.vars
                        .get(name)
                        .and_then(|v| v.value.as_ref())
                        .map(|v| match v {
                            Value::Arr(m) => m.get(&0).cloned().unwrap_or_default(),
                            v => v.scalar(),
                        })
                } else {
                    None
                };
                let v = self.transform_value(attrs, name, val, old.as_deref())?;
                let var = self.vars.entry(name);
                var.attrs = attrs;
                match &mut var.value {
                    Some(Value::Arr(m)) => {
                        m.insert(0, v);
                    }
                    Some(Value::Assoc(m)) => {
                        m.insert(b"0".to_vec(), v);
                    }
                    // declared -a / -A but still unset: element 0
                    slot if attrs & A_ASSOC != 0 => {
                        let mut m = AssocMap::new();
                        m.insert(b"0".to_vec(), v);
                        *slot = Some(Value::Assoc(m));
                    }
                    slot if attrs & A_ARRAY != 0 => {
                        *slot = Some(Value::Arr([(0, v)].into_iter().collect()));
                    }
                    slot => *slot = Some(Value::Str(v)),
                }
                Ok(())
            }
            Some(w) => {
                if is_assoc {
                    let key = self.expand_single(w)?;
                    if key.is_empty() {
                        // bash shows the subscript as written
                        let mut m = name.to_vec();
                        m.push(b'[');
                        m.extend_from_slice(&w.raw.as_deref().map_or(Vec::new(), |r| r.to_vec()));
                        m.extend_from_slice(b"]: bad array subscript");
                        self.err(&m);
                        return Err(Ctl::Abort(1));
                    }
                    let old = if append {
                        self.vars.get(name).and_then(|v| match &v.value {
                            Some(Value::Assoc(m)) => m.get(&key).cloned(),
                            _ => None,
                        })
                    } else {
                        None
                    };
                    let v = self.transform_value(attrs, name, val, old.as_deref())?;
                    let var = self.vars.entry(name);
                    match &mut var.value {
                        Some(Value::Assoc(m)) => {
                            m.insert(key, v);
                        }
                        slot => {
                            let mut m = AssocMap::new();
                            m.insert(key, v);
                            *slot = Some(Value::Assoc(m));
                        }
                    }
                    Ok(())
                } else {
                    let text = self.expand_single(w)?;
                    let mut i = self.eval_arith_text(&text)?;
                    if i < 0 {
                        let len = match self.vars.get(name).and_then(|v| v.value.as_ref()) {
                            Some(Value::Arr(m)) => m.keys().next_back().map(|k| k + 1).unwrap_or(0),
                            Some(_) => 1,
                            None => 0,
                        };
                        i += len;
                        if i < 0 {
                            let mut m = name.to_vec();
                            m.extend_from_slice(
                                format!(
                                    "[{}]: bad array subscript",
                                    String::from_utf8_lossy(&text)
                                )
                                .as_bytes(),
                            );
                            self.err(&m);
                            return Err(Ctl::Abort(1));
                        }
                    }
                    let _ = is_arr;
                    let old = if append {
                        self.array_get(name, i)
                    } else {
                        None
                    };
                    let v = self.transform_value(attrs, name, val, old.as_deref())?;
                    let var = self.vars.entry(name);
                    match &mut var.value {
                        Some(Value::Arr(m)) => {
                            m.insert(i, v);
                        }
                        slot => {
                            let mut m = std::collections::BTreeMap::new();
                            if let Some(Value::Str(s)) = slot.take() {
                                m.insert(0, s);
                            }
                            m.insert(i, v);
                            *slot = Some(Value::Arr(m));
                        }
                    }
                    Ok(())
                }
            }
        }
    }

    pub fn array_get(&self, name: &[u8], i: i64) -> Option<Bytes> {
        match self.vars.get(name)?.value.as_ref()? {
            Value::Arr(m) => m.get(&i).cloned(),
            Value::Str(s) if i == 0 => Some(s.clone()),
            _ => None,
        }
    }

    pub fn set_array(&mut self, name: &[u8], vals: Vec<Bytes>) {
        let m = vals
            .into_iter()
            .enumerate()
            .map(|(i, v)| (i as i64, v))
            .collect();
        let var = self.vars.entry(name);
        var.value = Some(Value::Arr(m));
    }

    /// A function from the environment (`export -f` in a parent shell).
    fn import_function(&mut self, name: &[u8], value: &[u8]) {
        if !crate::parse::is_name(name) || !value.starts_with(b"()") {
            return;
        }
        let mut text = name.to_vec();
        text.push(b' ');
        text.extend_from_slice(value);
        if let Ok(prog) = crate::parse::Parser::parse_all(&text, 1) {
            if let Some(Command::FuncDef(fd)) =
                prog.items.first().and_then(|i| i.and_or.first.cmds.first())
            {
                self.funcs.insert(name.to_vec(), fd.clone());
                self.func_attrs.insert(name.to_vec(), A_EXPORT);
            }
        }
    }

    pub fn is_readonly(&self, name: &[u8]) -> bool {
        self.vars
            .get(name)
            .map(|v| v.attrs & A_READONLY != 0)
            .unwrap_or(false)
    }

    /// Environment for a child: exported variables plus per-command assignments.
    pub fn child_env(&self, extra: &[(Bytes, Bytes)]) -> Vec<Bytes> {
        let mut map: std::collections::BTreeMap<Bytes, Bytes> = std::collections::BTreeMap::new();
        for s in &self.vars.scopes {
            for (k, v) in s {
                if v.attrs & A_EXPORT != 0 {
                    if let Some(Value::Str(val)) = &v.value {
                        map.insert(k.clone(), val.clone());
                    } else {
                        map.remove(k);
                    }
                } else {
                    map.remove(k);
                }
            }
        }
        for (k, v) in extra {
            map.insert(k.clone(), v.clone());
        }
        // exported functions travel as bash's BASH_FUNC_name%%=() { body }
        for (name, attrs) in &self.func_attrs {
            if attrs & A_EXPORT == 0 {
                continue;
            }
            if let Some(f) = self.funcs.get(name) {
                let mut k = b"BASH_FUNC_".to_vec();
                k.extend_from_slice(name);
                k.extend_from_slice(b"%%");
                map.insert(k, function_env_value(&f.src.text, name));
            }
        }
        map.into_iter()
            .map(|(mut k, v)| {
                k.push(b'=');
                k.extend_from_slice(&v);
                k
            })
            .collect()
    }

    pub fn home(&self) -> Bytes {
        self.get_var(b"HOME").unwrap_or_else(|| b"/".to_vec())
    }

    pub fn cwd(&self) -> Bytes {
        if !self.logical_pwd.is_empty() {
            return self.logical_pwd.clone();
        }
        self.get_var(b"PWD")
            .or_else(|| {
                std::env::current_dir()
                    .ok()
                    .map(|p| crate::bytes::os_bytes(p.as_os_str()))
            })
            .unwrap_or_else(|| b"/".to_vec())
    }

    /// Poll caught signals (cheap: answered inside the worker) and run traps.
    pub fn check_signals(&mut self) -> R<()> {
        let p = self.sys.sigpending() | self.pending_signals;
        self.pending_signals = 0;
        if p == 0 {
            return Ok(());
        }
        for sig in 1..64 {
            if p & (1u64 << sig) != 0 {
                if let Some(code) = self.traps.get(&sig).cloned() {
                    if !code.is_empty() {
                        let st = self.status;
                        self.run_trap(&code)?;
                        self.status = st;
                    }
                } else if sig == 2 {
                    // interactive: SIGINT interrupts the current command line
                    return Err(Ctl::Abort(130));
                } else if self.jc && (sig == 3 || sig == 20) {
                    // an interactive shell ignores Ctrl-\ and Ctrl-Z meant for itself
                } else {
                    return Err(Ctl::Exit(128 + sig));
                }
            }
        }
        Ok(())
    }

    /// `$BASH_COMMAND`: inside a trap (or once a trap is set) the command
    /// it interrupted, else the simple command running now.
    pub fn bash_command_text(&self) -> Bytes {
        if self.in_trap || !self.traps.is_empty() || self.running_simple.is_null() {
            return self.bash_command.clone();
        }
        // SAFETY: non-null only during the `run_simple` call that borrows
        // the node (see `running_simple`).
        crate::printer::simple_text(unsafe { &*self.running_simple })
    }

    pub fn run_trap(&mut self, code: &[u8]) -> R<()> {
        let was = self.in_trap;
        self.in_trap = true;
        let r = self.eval_string(code, self.lineno);
        self.in_trap = was;
        match r {
            Err(Ctl::Exit(n)) => Err(Ctl::Exit(n)),
            _ => Ok(()),
        }
    }
}

/// `() { body }` from a function's definition text (`f() {..}`,
/// `function f {..}`), as bash exports it.
fn function_env_value(text: &[u8], name: &[u8]) -> Bytes {
    let mut t = text;
    if let Some(r) = t.strip_prefix(b"function") {
        t = r;
    }
    let trim = |t: &[u8]| -> usize { t.iter().take_while(|c| c.is_ascii_whitespace()).count() };
    t = &t[trim(t)..];
    if let Some(r) = t.strip_prefix(name) {
        t = r;
    }
    t = &t[trim(t)..];
    if let Some(r) = t.strip_prefix(b"()") {
        t = r;
    }
    t = &t[trim(t)..];
    let mut v = b"() ".to_vec();
    v.extend_from_slice(t);
    v
}
