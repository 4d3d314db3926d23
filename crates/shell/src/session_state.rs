//! The shell's session state as a versioned binary blob, handed to the
//! kernel at the end of every command line (docs/abi.md "Shell state") and
//! applied when the kernel asks (a timeline restore).
//!
//! Layout: magic `SGSS`, `u32` version (little-endian), then records in the
//! child-shell format (`eval::child::put`: tag byte, `u32` length, bytes).
//! Unknown tags are skipped, so a later version may add records; a
//! different version number means an incompatible layout and is refused.
//! Applying a blob replaces what it covers (cwd, variables with their
//! attributes, functions, aliases, options, positional parameters, traps,
//! directory stack, history, umask, `$?`); running jobs, the hash table
//! and open fds stay as they are, since they are not the shell's to forge.

use crate::ast::{Bytes, FuncDef};
use crate::eval::child::{
    num, parse_func_record_with_extras, parse_var_record, put, var_record, FuncExtras, Rd,
};
use crate::eval::Shell;
use crate::state::{Options, Var, Vars, SET_O, SHOPTS};
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

pub const MAGIC: &[u8; 4] = b"SGSS";
pub const VERSION: u32 = 1;

const SIGINT: i32 = 2;
const SIGQUIT: i32 = 3;
const SIGTSTP: i32 = 20;

/// Everything a blob holds, decoded before anything is changed, so a bad
/// blob leaves the shell as it was.
#[derive(Default)]
struct Decoded {
    cwd: Bytes,
    status: i32,
    umask: Option<i32>,
    opts_on: Vec<String>,
    shopt_other: Vec<(String, bool)>,
    positional: Vec<Bytes>,
    vars: HashMap<Bytes, Var>,
    funcs: HashMap<Bytes, Rc<FuncDef>>,
    func_extras: Vec<(Bytes, FuncExtras)>,
    aliases: HashMap<Bytes, Bytes>,
    traps: HashMap<i32, Bytes>,
    dirstack: Vec<Bytes>,
    history: Vec<Bytes>,
}

fn pair(s: &[u8]) -> Option<(&[u8], &[u8])> {
    let mut r = Rd::new(s);
    Some((r.next()?.1, r.next()?.1))
}

fn decode(b: &[u8]) -> Result<Decoded, String> {
    if b.len() < 8 || &b[..4] != MAGIC {
        return Err("not a shell state blob".into());
    }
    let version = u32::from_le_bytes([b[4], b[5], b[6], b[7]]);
    if version != VERSION {
        return Err(format!(
            "shell state version {} is not supported (this shell reads {})",
            version, VERSION
        ));
    }
    let mut d = Decoded::default();
    let mut r = Rd::new(&b[8..]);
    while let Some((tag, s)) = r.next() {
        match tag {
            b'd' => d.cwd = s.to_vec(),
            b'S' => d.status = num(s) as i32,
            b'm' => d.umask = Some(num(s) as i32 & 0o777),
            b'o' => d.opts_on.push(String::from_utf8_lossy(s).into_owned()),
            b'O' => {
                if let Some((n, v)) = pair(s) {
                    d.shopt_other
                        .push((String::from_utf8_lossy(n).into_owned(), v == b"1"));
                }
            }
            b'p' => d.positional.push(s.to_vec()),
            b'v' => {
                let (name, var) = parse_var_record(s).ok_or("bad variable record")?;
                d.vars.insert(name, var);
            }
            b'f' => {
                let (name, f, x) = parse_func_record_with_extras(s).ok_or("bad function record")?;
                d.func_extras.push((name.clone(), x));
                d.funcs.insert(name, f);
            }
            b'a' => {
                let (k, v) = pair(s).ok_or("bad alias record")?;
                d.aliases.insert(k.to_vec(), v.to_vec());
            }
            b't' => {
                let (sig, code) = pair(s).ok_or("bad trap record")?;
                d.traps.insert(num(sig) as i32, code.to_vec());
            }
            b'D' => d.dirstack.push(s.to_vec()),
            b'h' => d.history.push(s.to_vec()),
            _ => {}
        }
    }
    if r.remaining() != 0 {
        return Err("shell state blob is truncated".into());
    }
    Ok(d)
}

impl Shell {
    /// The session state as a blob (see the module comment).
    pub fn capture_state(&mut self) -> Bytes {
        let mut o = Vec::with_capacity(4096);
        o.extend_from_slice(MAGIC);
        o.extend_from_slice(&VERSION.to_le_bytes());
        put(&mut o, b'd', &self.cwd());
        put(&mut o, b'S', self.status.to_string().as_bytes());
        let mask = self.sys.umask(-1);
        put(&mut o, b'm', mask.to_string().as_bytes());
        for n in SET_O.iter().chain(SHOPTS.iter()) {
            if *self.opts.get(n).unwrap_or(&mut false) {
                put(&mut o, b'o', n.as_bytes());
            }
        }
        for (n, on) in &self.opts.other {
            let mut rec = Vec::new();
            put(&mut rec, b'n', n.as_bytes());
            put(&mut rec, b'v', if *on { b"1" } else { b"0" });
            put(&mut o, b'O', &rec);
        }
        for p in &self.positional {
            put(&mut o, b'p', p);
        }
        // At a prompt only the global scope exists; merge in case a caller
        // captures deeper (inner scopes win, as lookups see them).
        let mut merged: BTreeMap<&Bytes, &Var> = BTreeMap::new();
        for s in &self.vars.scopes {
            for (k, v) in s {
                merged.insert(k, v);
            }
        }
        for (k, v) in merged {
            put(&mut o, b'v', &var_record(k, v));
        }
        let mut names: Vec<&Bytes> = self.funcs.keys().collect();
        names.sort();
        for n in names {
            put(&mut o, b'f', &self.func_record_with_extras(n));
        }
        let mut aliases: Vec<(&Bytes, &Bytes)> = self.aliases.iter().collect();
        aliases.sort();
        for (k, v) in aliases {
            let mut rec = Vec::new();
            put(&mut rec, b'k', k);
            put(&mut rec, b'v', v);
            put(&mut o, b'a', &rec);
        }
        let mut traps: Vec<(&i32, &Bytes)> = self.traps.iter().collect();
        traps.sort();
        for (sig, code) in traps {
            let mut rec = Vec::new();
            put(&mut rec, b's', sig.to_string().as_bytes());
            put(&mut rec, b'c', code);
            put(&mut o, b't', &rec);
        }
        for d in &self.dirstack {
            put(&mut o, b'D', d);
        }
        for h in &self.history {
            put(&mut o, b'h', h);
        }
        o
    }

    /// Replace the session state with a blob's. On error nothing changed.
    pub fn apply_state(&mut self, blob: &[u8]) -> Result<(), String> {
        let d = decode(blob)?;
        let mut opts = Options {
            interactive: self.opts.interactive,
            ..Default::default()
        };
        for n in &d.opts_on {
            if let Some(f) = opts.get(n) {
                *f = true;
            }
        }
        self.opts = opts;
        for (n, on) in &d.shopt_other {
            self.set_shopt(n, *on);
        }
        self.vars = Vars::new();
        self.vars.scopes[0] = d.vars;
        self.funcs = d.funcs;
        self.func_files.clear();
        self.func_attrs.clear();
        for (n, x) in d.func_extras {
            self.set_func_extras(&n, x);
        }
        self.aliases = d.aliases;
        self.positional = d.positional;
        self.dirstack = d.dirstack;
        self.history = d.history;
        self.apply_traps(d.traps);
        if let Some(m) = d.umask {
            self.sys.umask(m);
        }
        self.apply_cwd(&d.cwd);
        self.sync_locale();
        self.status = d.status;
        Ok(())
    }

    /// Install `traps` in place of the current ones, with the matching
    /// signal dispositions. Signals the shell itself catches (INT always in
    /// these long-lived modes, QUIT and TSTP under job control) stay caught.
    fn apply_traps(&mut self, traps: HashMap<i32, Bytes>) {
        let own = |sh: &Shell, n: i32| n == SIGINT || (sh.jc && (n == SIGQUIT || n == SIGTSTP));
        let old: Vec<i32> = self.traps.keys().copied().collect();
        for n in old {
            if n > 0 && !traps.contains_key(&n) {
                let disp = if own(self, n) { 2 } else { 0 };
                let _ = self.sys.sigaction(n as u32, disp);
            }
        }
        for (n, code) in &traps {
            if *n > 0 {
                let disp = if code.is_empty() { 1 } else { 2 };
                let _ = self.sys.sigaction(*n as u32, disp);
            }
        }
        self.traps = traps;
        self.parent_traps = None;
    }

    /// Go to the state's directory (the kernel's cwd too). PWD and OLDPWD
    /// keep the state's values; if the directory is gone, the shell stays
    /// where it is and PWD says where that is.
    fn apply_cwd(&mut self, cwd: &[u8]) {
        let here = std::env::current_dir()
            .map(|c| crate::bytes::os_bytes(c.as_os_str()))
            .unwrap_or_default();
        let old = self.get_var(b"OLDPWD");
        if !cwd.is_empty() && cwd != here.as_slice() && self.chdir(cwd, false).is_err() {
            self.set_var(b"PWD", here);
        }
        match old {
            Some(o) => {
                self.set_var(b"OLDPWD", o);
            }
            None => {
                self.vars.scopes[0].remove(b"OLDPWD".as_slice());
            }
        }
    }
}

/// Step boundaries and control requests (docs/abi.md "Sessions"): how the
/// interactive and API loops talk to the kernel about command lines.
impl Shell {
    /// A command line starts. Outside a kernel session (a nested `sh -i`,
    /// native builds) the kernel refuses and nothing happens.
    pub fn begin_step(&mut self, text: &[u8]) {
        let _ = self.sys.step_begin(text);
    }

    /// The command line ended with `status` (or, with none open, just a
    /// state report): hand the kernel the state. Returns whether a control
    /// request waits.
    pub fn end_step(&mut self, status: i32) -> Result<bool, crate::sys::Errno> {
        let blob = self.capture_state();
        self.sys.step_end(status, &blob)
    }

    /// Take and apply pending control requests (a state to restore), then
    /// report the new state. Returns whether a state was applied.
    pub fn take_control(&mut self) -> bool {
        let mut applied = false;
        loop {
            let blob = match self.sys.ctl_take() {
                Ok(b) if !b.is_empty() => b,
                _ => return applied,
            };
            if let Err(e) = self.apply_state(&blob) {
                self.errs(&format!("cannot restore the session state: {}", e));
            }
            applied = true;
            let status = self.status;
            if !self.end_step(status).unwrap_or(false) {
                return applied;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sys::mock::MockSys;
    use std::cell::RefCell;

    struct T {
        sh: Shell,
        out: Rc<RefCell<Bytes>>,
    }

    fn shell() -> T {
        let (sys, out, _err) = MockSys::new(b"");
        let mut sh = Shell::new(Box::new(sys));
        let here = std::env::current_dir().expect("cwd");
        sh.set_var(b"PWD", crate::bytes::os_bytes(here.as_os_str()));
        T { sh, out }
    }

    impl T {
        fn run(&mut self, code: &str) -> String {
            self.out.borrow_mut().clear();
            let _ = self.sh.run_text(code.as_bytes(), 1, true);
            String::from_utf8_lossy(&self.out.borrow()).into_owned()
        }
    }

    /// Everything observable the state covers, as text.
    const REPORT: &str =
        "declare -p; declare -f; declare -F; alias; set -o; shopt; trap -p; dirs -p; \
                          echo \"pos=$# $*\"";

    fn build(t: &mut T) {
        t.run(
            "x=1; f(){ echo f$x; }\n\
             g() {\n  while IFS= read -r l; do echo \"$l\"; done <<EOF\nhere $x\n  doc\tline\nEOF\n  echo after\n}\n\
             arr=('a b' $'two\\nlines' '' 'tab\there'); arr[10]=ten\n\
             declare -A m=([k 1]='v 1' [$'nl\\nkey']=z)\n\
             declare -r RO=fixed; declare -i n=6*7; export EX=exported; declare -l low=ABC\n\
             declare -x -r both=1\n\
             alias ll='ls -l' q='echo \"quoted\"'\n\
             set -o noglob -o pipefail; shopt -s extglob nullglob\n\
             trap 'echo bye' EXIT; trap '' TERM; trap 'echo usr' USR1\n\
             set -- p1 'p 2'; export -f f; readonly -f g\n",
        );
        t.sh.dirstack = vec![b"/tmp".to_vec(), b"/usr".to_vec()];
        t.sh.history = vec![b"echo one".to_vec(), b"for i in 1\ndo :\ndone".to_vec()];
        t.run("false");
    }

    #[test]
    fn round_trip_restores_everything_the_state_covers() {
        let mut a = shell();
        build(&mut a);
        let blob = a.sh.capture_state();
        let want = a.run(REPORT);
        assert!(want.contains("declare -r RO=\"fixed\""), "{}", want);
        assert!(want.contains("declare -fx f\ndeclare -fr g\n"), "{}", want);

        let mut b = shell();
        b.sh.apply_state(&blob).expect("apply");
        // captured again at once, the state is the same blob
        assert!(
            b.sh.capture_state() == blob,
            "state changed by a round trip"
        );
        assert_eq!(b.sh.status, 1, "$? comes back");
        assert_eq!(b.run(REPORT), want);
        assert_eq!(b.sh.history, a.sh.history);
        assert_eq!(b.sh.dirstack, a.sh.dirstack);
        assert_eq!(b.run("f; g"), "f1\nhere 1\n  doc\tline\nafter\n");
        assert_eq!(
            b.run("echo ${#arr[@]} \"${arr[1]}\" \"${m[k 1]}\" \"${m[$'nl\\nkey']}\""),
            "5 two\nlines v 1 z\n"
        );
    }

    #[test]
    fn applying_replaces_what_came_after_even_readonly_variables() {
        let mut a = shell();
        a.run("x=1; f(){ echo old; }");
        let blob = a.sh.capture_state();
        a.run(
            "x=2; declare -r late=1; f(){ echo new; }; h(){ :; }; alias z=y; set -o errexit; \
             trap 'echo t' EXIT",
        );
        a.sh.apply_state(&blob).expect("apply");
        assert_eq!(
            a.run("echo $x ${late-unset}; f; alias; trap -p"),
            "1 unset\nold\n"
        );
        assert!(!a.sh.opts.errexit);
        assert!(!a.sh.funcs.contains_key(b"h".as_slice()));
        // readonly is gone with the variable: assigning works again
        assert_eq!(a.run("late=3; echo $late"), "3\n");
    }

    #[test]
    fn bad_blobs_are_refused_and_change_nothing() {
        let mut a = shell();
        a.run("x=keep");
        let mut blob = a.sh.capture_state();
        assert!(a.sh.apply_state(b"nope").is_err());
        let mut wrong = blob.clone();
        wrong[4] = 9;
        let e = a.sh.apply_state(&wrong).expect_err("version");
        assert!(e.contains("version 9"), "{}", e);
        blob.truncate(blob.len() - 3);
        assert!(a.sh.apply_state(&blob).is_err());
        assert_eq!(a.run("echo $x"), "keep\n");
    }

    #[test]
    fn capture_of_a_big_session_is_small_and_fast() {
        let mut a = shell();
        let code: String = (0..200)
            .map(|i| {
                format!(
                    "fn{i}() {{\n  local a=$1\n  echo \"fn{i} $a\" | tr a-z A-Z\n  return {r}\n}}\n",
                    i = i,
                    r = i % 3
                )
            })
            .collect();
        a.run(&code);
        a.sh.history = (0..1000)
            .map(|i| format!("echo history line {} with some words", i).into_bytes())
            .collect();
        let t0 = std::time::Instant::now();
        let blob = a.sh.capture_state();
        let took = t0.elapsed();
        eprintln!(
            "state of 200 functions + 1000 history lines: {} bytes in {:?}",
            blob.len(),
            took
        );
        assert!(blob.len() < 200 * 1024, "{} bytes", blob.len());
        let mut b = shell();
        b.sh.apply_state(&blob).expect("apply");
        assert_eq!(b.sh.funcs.len(), 200);
        let f7 = b.run("declare -f fn7");
        // bash's layout for a body of plain commands
        assert!(f7.starts_with("fn7 () \n{ \n    local a=$1;\n"), "{}", f7);
    }
}
