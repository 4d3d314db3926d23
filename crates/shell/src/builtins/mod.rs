//! Builtin commands, grouped by theme: `io` (echo, printf, read, mapfile),
//! `vars` (declare, local, export, set, shopt, unset, shift, let), `flow`
//! (exit, return, break, eval, source, exec, trap), `dirs` (cd, pwd, pushd),
//! `jobs` (wait, kill, jobs), `misc` (type, command, hash, alias, getopts,
//! test, umask, ...). Each returns by setting `Shell::status`.

mod complete;
pub mod dirs;
pub mod flow;
mod help_topics;
pub mod io;
pub mod jobs;
pub mod misc;
mod options;
mod printf_num;
pub mod vars;

use crate::ast::Bytes;
use crate::eval::{Shell, R};

/// In bash's table order (`enable`, `compgen -b` list them so).
pub const BUILTINS: &[&str] = &[
    ".",
    ":",
    "[",
    "alias",
    "bg",
    "bind",
    "break",
    "builtin",
    "caller",
    "cd",
    "command",
    "compgen",
    "complete",
    "compopt",
    "continue",
    "declare",
    "dirs",
    "disown",
    "echo",
    "enable",
    "eval",
    "exec",
    "exit",
    "export",
    "false",
    "fc",
    "fg",
    "getopts",
    "hash",
    "help",
    "history",
    "jobs",
    "kill",
    "let",
    "local",
    "logout",
    "mapfile",
    "popd",
    "printf",
    "pushd",
    "pwd",
    "read",
    "readarray",
    "readonly",
    "return",
    "set",
    "shift",
    "shopt",
    "source",
    "suspend",
    "test",
    "times",
    "trap",
    "true",
    "type",
    "typeset",
    "ulimit",
    "umask",
    "unalias",
    "unset",
    "wait",
];

const SPECIAL: &[&str] = &[
    ":", ".", "break", "continue", "eval", "exec", "exit", "export", "readonly", "return", "set",
    "shift", "source", "trap", "unset",
];

pub fn is_builtin(name: &[u8]) -> bool {
    std::str::from_utf8(name)
        .map(|n| BUILTINS.contains(&n))
        .unwrap_or(false)
}

pub fn is_special(name: &[u8]) -> bool {
    std::str::from_utf8(name)
        .map(|n| SPECIAL.contains(&n))
        .unwrap_or(false)
}

/// Whether bash would write `s` as $'...': it holds a character that is not
/// printable in the locale (controls; any non-ASCII byte in the C locale;
/// bytes that are not UTF-8 otherwise).
pub fn needs_ansi_quote(s: &[u8]) -> bool {
    if s.iter().any(|c| *c < 32 || *c == 127) {
        return true;
    }
    !s.is_ascii() && (crate::eval::expand::byte_chars() || std::str::from_utf8(s).is_err())
}

/// `declare -p` value quoting: "..." or $'...'.
pub fn quote_dq(s: &[u8]) -> Bytes {
    if needs_ansi_quote(s) {
        return ansi_quote(s);
    }
    let mut o = vec![b'"'];
    for &c in s {
        if matches!(c, b'"' | b'\\' | b'$' | b'`') {
            o.push(b'\\');
        }
        o.push(c);
    }
    o.push(b'"');
    o
}

/// An associative array key as `declare -p` writes it: double-quoted when
/// it holds characters special to the shell (bash's sh_contains_shell_metas).
pub fn quote_key(k: &[u8]) -> Bytes {
    if k == b"@" || k == b"*" || has_shell_metas(k) || needs_ansi_quote(k) {
        quote_dq(k)
    } else {
        k.to_vec()
    }
}

/// bash's sh_contains_shell_metas: a character the shell would read as
/// syntax (blanks, quotes, operators, globs, expansions; `~` and `#` only
/// where they start a tilde expansion or a comment).
pub fn has_shell_metas(k: &[u8]) -> bool {
    k.iter().enumerate().any(|(i, &c)| match c {
        b' ' | b'\t' | b'\n' | b'\'' | b'"' | b'\\' | b'|' | b'&' | b';' | b'(' | b')' | b'<'
        | b'>' | b'!' | b'{' | b'}' | b'*' | b'[' | b'?' | b']' | b'^' | b'$' | b'`' => true,
        b'~' => i == 0 || matches!(k[i - 1], b'=' | b':'),
        b'#' => i == 0,
        _ => false,
    })
}

/// `'...'` with each `'` written `'\''` (bash's sh_single_quote).
pub fn single_quote(s: &[u8]) -> Bytes {
    let mut o = vec![b'\''];
    for &c in s {
        if c == b'\'' {
            o.extend_from_slice(b"'\\''");
        } else {
            o.push(c);
        }
    }
    o.push(b'\'');
    o
}

/// `${x@Q}` / `declare -p` quoting: '...' or $'...' for control characters.
pub fn quote_q(s: &[u8]) -> Bytes {
    if needs_ansi_quote(s) {
        return ansi_quote(s);
    }
    single_quote(s)
}

pub fn ansi_quote(s: &[u8]) -> Bytes {
    // non-ASCII text stays as it is only when it is valid in a UTF-8 locale
    let printable_high = !crate::eval::expand::byte_chars() && std::str::from_utf8(s).is_ok();
    let mut o = b"$'".to_vec();
    for &c in s {
        match c {
            b'\n' => o.extend_from_slice(b"\\n"),
            b'\t' => o.extend_from_slice(b"\\t"),
            b'\r' => o.extend_from_slice(b"\\r"),
            27 => o.extend_from_slice(b"\\E"),
            7 => o.extend_from_slice(b"\\a"),
            8 => o.extend_from_slice(b"\\b"),
            12 => o.extend_from_slice(b"\\f"),
            11 => o.extend_from_slice(b"\\v"),
            b'\'' => o.extend_from_slice(b"\\'"),
            b'\\' => o.extend_from_slice(b"\\\\"),
            c if c < 32 || c == 127 || (c >= 0x80 && !printable_high) => {
                o.extend_from_slice(format!("\\{:03o}", c).as_bytes())
            }
            c => o.push(c),
        }
    }
    o.push(b'\'');
    o
}

/// A traced word as set -x writes it (bash's xtrace_print_word_list):
/// `''` when empty, single-quoted when it holds shell syntax, $'...' when
/// it holds unprintable characters, else as it is.
pub fn quote_x(s: &[u8]) -> Bytes {
    if s.is_empty() {
        return b"''".to_vec();
    }
    quote_x_value(s)
}

/// A traced assignment's value: as a word, but empty stays empty.
pub fn quote_x_value(s: &[u8]) -> Bytes {
    if has_shell_metas(s) {
        single_quote(s)
    } else if needs_ansi_quote(s) {
        ansi_quote(s)
    } else {
        s.to_vec()
    }
}

/// A scalar's value as `set` lists it (bash's print_var_value): $'...'
/// first, then single quotes for shell syntax.
pub fn quote_set(s: &[u8]) -> Bytes {
    if needs_ansi_quote(s) {
        ansi_quote(s)
    } else if has_shell_metas(s) {
        single_quote(s)
    } else {
        s.to_vec()
    }
}

/// `printf %q` quoting: backslashes, or $'..' for control characters.
pub fn quote_printf(s: &[u8]) -> Bytes {
    if s.is_empty() {
        return b"''".to_vec();
    }
    if needs_ansi_quote(s) {
        return ansi_quote(s);
    }
    // bash's sh_backslash_quote: only these characters are escaped
    let mut o = Vec::new();
    for (i, &c) in s.iter().enumerate() {
        let special = match c {
            b' ' | b'\t' | b'\n' | b'\'' | b'"' | b'\\' | b'|' | b'&' | b';' | b'(' | b')'
            | b'<' | b'>' | b'!' | b'{' | b'}' | b'*' | b'[' | b'?' | b']' | b'^' | b'$' | b'`'
            | b',' => true,
            b'~' => i == 0 || matches!(s[i - 1], b'=' | b':'),
            b'#' => i == 0,
            _ => false,
        };
        if special {
            o.push(b'\\');
        }
        o.push(c);
    }
    o
}

impl Shell {
    pub fn run_builtin(&mut self, argv: &[Bytes]) -> R<()> {
        let r = self.run_builtin_body(argv);
        if let Some(l) = self.decl_trace.take() {
            self.trace_line(&l);
        }
        r
    }

    fn run_builtin_body(&mut self, argv: &[Bytes]) -> R<()> {
        let name = String::from_utf8_lossy(&argv[0]).into_owned();
        let args = &argv[1..];
        // eval'd and sourced text sees the status from before (`false; eval 'echo $?'`)
        if !matches!(
            name.as_str(),
            "return" | "exit" | "logout" | "eval" | "source" | "."
        ) {
            self.status = 0;
        }
        if !self.builtin_options_ok(&name, args) {
            return Ok(());
        }
        match name.as_str() {
            ":" | "true" => {}
            "false" => self.status = 1,
            "echo" => self.b_echo(args),
            "printf" => self.b_printf(args)?,
            "read" => self.b_read(args)?,
            "mapfile" | "readarray" => self.b_mapfile(args)?,
            "declare" => self.b_declare(args, "declare")?,
            "typeset" => self.b_declare(args, "typeset")?,
            "local" => {
                if self.funcnames.is_empty() {
                    self.errs("local: can only be used in a function");
                    self.status = 1;
                } else if args.len() == 1 && args[0] == b"-" {
                    // `local -`: the function's `set` options end with it
                    let saved: Vec<(&'static str, bool)> = crate::state::SET_O
                        .iter()
                        .map(|n| (*n, self.opts.get(n).map_or(false, |b| *b)))
                        .collect();
                    if let Some(slot) = self.local_opts.last_mut() {
                        slot.get_or_insert(saved);
                    }
                    self.status = 0;
                } else {
                    self.b_declare(args, "local")?
                }
            }
            "export" => self.b_export(args, false)?,
            "readonly" => self.b_export(args, true)?,
            "unset" => self.b_unset(args)?,
            "set" => self.b_set(args)?,
            "shopt" => self.b_shopt(args),
            "shift" => self.b_shift(args)?,
            "let" => self.b_let(args)?,
            "logout" if !self.login => {
                self.berr("logout", b"not login shell: use `exit'");
                self.status = 1;
            }
            "exit" | "logout" => return self.b_exit(args),
            "return" => return self.b_return(args),
            "break" | "continue" => return self.b_break(args, name == "break"),
            "eval" => return self.b_eval(args),
            "source" | "." => return self.b_source(&name, args),
            "exec" => return self.b_exec(args),
            "trap" => self.b_trap(args),
            "cd" => self.b_cd(args),
            "pwd" => self.b_pwd(args),
            "pushd" => self.b_pushd(args),
            "popd" => self.b_popd(args),
            "dirs" => self.b_dirs(args),
            "wait" => self.b_wait(args),
            "kill" => self.b_kill(args),
            "jobs" => self.b_jobs(args)?,
            "bg" | "fg" | "disown" | "suspend" => self.b_fg(&name, args),
            "type" => self.b_type(args),
            "command" => return self.b_command(args),
            "builtin" => return self.b_builtin(args),
            "hash" => self.b_hash(args),
            "alias" => self.b_alias(args),
            "unalias" => self.b_unalias(args),
            "getopts" => self.b_getopts(args)?,
            "test" => self.b_test(args, false),
            "[" => self.b_test(args, true),
            "umask" => self.b_umask(args),
            "ulimit" => self.b_ulimit(args),
            "times" => {
                self.write_fd(1, b"0m0.000s 0m0.000s\n0m0.000s 0m0.000s\n");
            }
            "help" => self.b_help(args),
            "enable" => self.b_enable(args),
            "history" | "fc" => self.b_history(&name, args),
            "compgen" => self.b_compgen(args)?,
            "complete" => self.b_complete(args),
            "compopt" => {
                self.berr("compopt", b"not currently executing completion function");
                self.status = 1;
            }
            "bind" => {
                // no readline here: bash says the same without a terminal
                self.berr("bind", b"warning: line editing not enabled");
                if args.last().map_or(false, |a| a == b"-x") {
                    self.berr("bind", b"-x: option requires an argument");
                    self.write_fd(2, b"bind: usage: bind [-lpsvPSVX] [-m keymap] [-f filename] [-q name] [-u name] [-r keyseq] [-x keyseq:shell-command] [keyseq:readline-function or readline-command]\n");
                    self.status = 2;
                }
            }
            "caller" => self.b_caller(args),
            _ => self.status = 127,
        }
        if matches!(
            name.as_ref(),
            "set" | "shopt" | "cd" | "pushd" | "popd" | "dirs" | "alias" | "unalias" | "hash"
        ) {
            // $SHELLOPTS, $BASHOPTS, $DIRSTACK, $BASH_ALIASES, $BASH_CMDS
            self.sync_specials();
        }
        Ok(())
    }

    /// "name: msg" error for a builtin.
    pub fn berr(&mut self, name: &str, msg: &[u8]) {
        let mut m = name.as_bytes().to_vec();
        m.extend_from_slice(b": ");
        m.extend_from_slice(msg);
        self.err(&m);
    }

    /// `NAME: -c: invalid option`, the builtin's usage line, status 2.
    pub fn invalid_option(&mut self, name: &str, opt: u8, usage: &[u8]) {
        self.berr(name, format!("-{}: invalid option", opt as char).as_bytes());
        self.write_fd(2, usage);
        self.status = 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting() {
        assert_eq!(quote_q(b"a b"), b"'a b'");
        assert_eq!(quote_q(b"it's"), b"'it'\\''s'");
        assert_eq!(quote_q(b"a\nb"), b"$'a\\nb'");
        assert_eq!(quote_printf(b"a b"), b"a\\ b");
        assert_eq!(quote_printf(b""), b"''");
        assert_eq!(quote_x(b"plain"), b"plain");
        assert_eq!(quote_x(b""), b"''");
        assert_eq!(quote_x(b"a#"), b"a#");
        assert_eq!(quote_x(b"#a"), b"'#a'");
        assert_eq!(quote_x(b"a\tb"), b"'a\tb'");
        assert_eq!(quote_x(b"a\x1bb"), b"$'a\\Eb'");
        assert_eq!(quote_set(b"a\tb"), b"$'a\\tb'");
        assert_eq!(quote_set(b""), b"");
    }

    #[test]
    fn builtin_table() {
        assert!(is_builtin(b"echo"));
        assert!(is_special(b"export"));
        assert!(!is_builtin(b"ls"));
    }
}
