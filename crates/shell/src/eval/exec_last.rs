//! The last command replaces the shell, as bash's fork optimisations do.
//!
//! bash does not fork for the last simple command of a `bash -c` string, of
//! a `( ... )` subshell's process, of a background job or of a `$( )`
//! child: it execs it, so no wrapper process remains and `$!`, `kill` and
//! `wait` reach the command itself. It keeps the shell when something could
//! still run afterwards: a trap on EXIT, ERR or a signal, `!` or `time`
//! around the command, or (outside a subshell's sole command) redirections.
//!
//! Background jobs of a shell without job control ignore SIGINT and SIGQUIT.
//! A simple command (or a pipeline's) keeps them ignored; a compound job
//! (`( )`, `{ }`, `if`, a list) ignores them in its subshell, lists
//! `trap -- '' SIGINT` there (a trap may still be set on it), and runs its
//! programs with both at their default action, as bash 5.2 does.

use super::{Shell, R};
use crate::ast::*;
use crate::sys::{IntQuit, SpawnReq};

/// The background job a child shell runs, for SIGINT and SIGQUIT.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AsyncKind {
    /// Not a background job's subshell (or a simple command's: the kernel
    /// started it with both signals ignored, and its programs keep that).
    None,
    /// A compound job's subshell: SIGINT shows as `trap -- '' SIGINT`;
    /// programs it runs get the default actions.
    Subshell,
    /// A function run in the background: programs get the default actions.
    Function,
}

impl AsyncKind {
    pub fn code(self) -> &'static [u8] {
        match self {
            AsyncKind::None => b"0",
            AsyncKind::Subshell => b"1",
            AsyncKind::Function => b"2",
        }
    }

    pub fn from_code(s: &[u8]) -> AsyncKind {
        match s {
            b"1" => AsyncKind::Subshell,
            b"2" => AsyncKind::Function,
            _ => AsyncKind::None,
        }
    }
}

/// Where redirections on the last command still let it exec.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ExecRedirs {
    /// Never (`bash -c`: the shell keeps them).
    Never,
    /// When the command is the text's only one (a subshell's `( cmd >f )`,
    /// a background `cmd >f &`), not as the last of a list.
    Sole,
}

/// The simple command of `prog` that may exec in place of the shell when
/// `prog` is all that is left to run (null: none). bash looks at the
/// last connection of the list: `a; b`, `a && b`, `a || b` with a simple
/// `b`; `a & b` and `a; b && c` keep the shell.
pub fn exec_candidate(prog: &Program, redirs: ExecRedirs) -> *const Simple {
    let none = std::ptr::null();
    let items = &prog.items;
    let last = match items.last() {
        Some(l) if !l.background => l,
        _ => return none,
    };
    if items.len() >= 2 && (items[items.len() - 2].background || !last.and_or.rest.is_empty()) {
        return none;
    }
    let sole = items.len() == 1 && last.and_or.rest.is_empty();
    let pl = last
        .and_or
        .rest
        .last()
        .map(|(_, pl)| pl)
        .unwrap_or(&last.and_or.first);
    if pl.bang || pl.time || pl.cmds.len() != 1 {
        return none;
    }
    match &pl.cmds[0] {
        Command::Simple(s) => {
            let redirs_ok = match redirs {
                ExecRedirs::Never => false,
                ExecRedirs::Sole => sole,
            };
            if s.redirs.is_empty() || redirs_ok {
                s as *const Simple
            } else {
                none
            }
        }
        _ => none,
    }
}

impl Shell {
    /// No trap could run after the command: none on EXIT, ERR or a signal
    /// (an ignored signal, DEBUG and RETURN do not count, as in bash).
    fn no_trap_after(&self) -> bool {
        self.traps
            .iter()
            .all(|(sig, code)| code.is_empty() || *sig == -2 || *sig == -3)
    }

    /// Whether `s` is the command that may replace this shell now.
    pub fn exec_now(&self, s: &Simple) -> bool {
        std::ptr::eq(self.exec_target, s)
            && self.subshells == 0
            && !self.session_shell
            && !self.opts.interactive
            && self.no_trap_after()
    }

    /// SIGINT and SIGQUIT for a program this shell starts.
    pub fn program_intquit(&self) -> IntQuit {
        match self.async_kind {
            AsyncKind::None => IntQuit::Inherit,
            AsyncKind::Subshell | AsyncKind::Function => IntQuit::Default,
        }
    }

    /// Replace this shell with the program at `path`; returns the errno
    /// when the kernel refused (the caller then starts it as a child).
    pub fn exec_program(&mut self, path: &[u8], argv: &[Bytes], env: &[(Bytes, Bytes)]) -> i32 {
        let env = self.child_env(env);
        let fds = self.child_fds();
        let req = SpawnReq {
            path,
            argv,
            env: &env,
            fds: &fds,
            pgid: -1,
            foreground: false,
            intquit: self.program_intquit(),
        };
        self.sys.exec(&req)
    }

    /// The last command, external and found: exec it. Returns normally when
    /// it cannot (the command then runs as a child, which reports errors).
    pub fn exec_last(&mut self, argv: &[Bytes], env: &[(Bytes, Bytes)]) -> R<()> {
        let path = match self.command_path(&argv[0], env) {
            Some(p) => p,
            None => return Ok(()),
        };
        let _ = self.exec_program(&path, argv, env);
        Ok(())
    }

    /// How bash treats SIGINT and SIGQUIT in the background job `ao`.
    pub fn async_kind_of(&self, ao: &AndOr) -> AsyncKind {
        if !ao.rest.is_empty() {
            return AsyncKind::Subshell;
        }
        match ao.first.cmds.as_slice() {
            [Command::Simple(s)] => match s.words.first().and_then(|w| w.as_plain()) {
                Some(name) if self.funcs.contains_key(name) => AsyncKind::Function,
                _ => AsyncKind::None,
            },
            [_] => AsyncKind::Subshell,
            _ => AsyncKind::None,
        }
    }

    /// A compound background job's subshell: SIGINT is listed as ignored,
    /// in place of the parent's trap on it.
    pub fn enter_async(&mut self) {
        if self.async_kind == AsyncKind::Subshell {
            self.traps.insert(2, Vec::new());
            if let Some(parent) = self.parent_traps.as_mut() {
                parent.insert(2, Vec::new());
            }
        }
    }
}
