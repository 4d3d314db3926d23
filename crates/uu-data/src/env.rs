//! `env`: print the environment, or run a command in a modified one.

use crate::common::{bytes, os, run_command, usage_error};
use coreutils_core::args::{parse, HasArg, LongOpt};
use coreutils_core::process::Command;
use std::ffi::OsString;
use std::io::Write;

const LONG: &[LongOpt] = &[
    LongOpt {
        name: "ignore-environment",
        arg: HasArg::No,
        key: 'i',
    },
    LongOpt {
        name: "unset",
        arg: HasArg::Required,
        key: 'u',
    },
    LongOpt {
        name: "null",
        arg: HasArg::No,
        key: '0',
    },
    LongOpt {
        name: "chdir",
        arg: HasArg::Required,
        key: 'C',
    },
    LongOpt {
        name: "help",
        arg: HasArg::No,
        key: 'h',
    },
    LongOpt {
        name: "version",
        arg: HasArg::No,
        key: 'V',
    },
];

const HELP: &str = "Usage: env [OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]
Set each NAME to VALUE in the environment and run COMMAND.

  -i, --ignore-environment  start with an empty environment
  -0, --null           end each output line with NUL, not newline
  -u, --unset=NAME     remove variable from the environment
  -C, --chdir=DIR      change working directory to DIR
";

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let rest = args.get(1..).unwrap_or(&[]);
    // `+`: the first operand is the command; its options are its own.
    let mut p = match parse(rest, "+iu:0C:", LONG) {
        Ok(p) => p,
        Err(e) => return usage_error("env", &e.message, 125),
    };
    let mut env: Vec<(OsString, OsString)> = std::env::vars_os().collect();
    let mut nul = false;
    let mut dir: Option<OsString> = None;
    for o in &p.opts {
        match o.key {
            'i' => env.clear(),
            'u' => {
                let name = o.value.clone().unwrap_or_default();
                if name.is_empty() || bytes(&name).contains(&b'=') {
                    eprintln!(
                        "{}: cannot unset '{}': Invalid argument",
                        coreutils_core::prog("env"),
                        name.to_string_lossy()
                    );
                    return 125;
                }
                env.retain(|(k, _)| *k != name);
            }
            '0' => nul = true,
            'C' => dir = o.value.clone(),
            'h' => {
                print!("{}", HELP);
                return 0;
            }
            'V' => return crate::common::version("env"),
            _ => {}
        }
    }
    let mut ops = std::mem::take(&mut p.operands).into_iter().peekable();
    if ops.peek().map(|a| a == "-").unwrap_or(false) {
        env.clear();
        ops.next();
    }
    let mut cmd: Vec<OsString> = Vec::new();
    for a in ops.by_ref() {
        let b = bytes(&a);
        match b.iter().position(|&c| c == b'=') {
            Some(k) if cmd.is_empty() && k > 0 => {
                let name = os(b[..k].to_vec());
                let val = os(b[k + 1..].to_vec());
                match env.iter_mut().find(|(n, _)| *n == name) {
                    Some(slot) => slot.1 = val,
                    None => env.push((name, val)),
                }
            }
            _ => {
                cmd.push(a);
                break;
            }
        }
    }
    cmd.extend(ops);
    if cmd.is_empty() {
        if dir.is_some() {
            return usage_error("env", "must specify command with --chdir (-C)", 125);
        }
        if nul {
            // GNU refuses -0 only with a command; printing is fine.
        }
        let mut out = coreutils_core::io::stdout();
        for (k, v) in &env {
            let mut line = bytes(k).to_vec();
            line.push(b'=');
            line.extend_from_slice(bytes(v));
            line.push(if nul { 0 } else { b'\n' });
            coreutils_core::io::write_or_exit(&mut out, &line);
        }
        if let Err(e) = out.flush() {
            coreutils_core::io::exit_on_write_error(e);
        }
        return 0;
    }
    if nul {
        return usage_error("env", "cannot specify --null (-0) with command", 125);
    }
    let mut cwd = None;
    if let Some(d) = dir {
        if let Err(e) = std::env::set_current_dir(&d) {
            eprintln!(
                "{}: cannot change directory to '{}': {}",
                coreutils_core::prog("env"),
                d.to_string_lossy(),
                coreutils_core::error::strerror(&e)
            );
            return 125;
        }
        cwd = std::env::current_dir().ok();
        if let Some(c) = &cwd {
            if let Some(slot) = env.iter_mut().find(|(n, _)| n == "PWD") {
                slot.1 = c.clone().into_os_string();
            }
        }
    }
    let program = cmd.remove(0);
    // PATH lookup uses the new environment's PATH, like execvp after setenv.
    match env.iter().find(|(k, _)| k == "PATH") {
        Some((_, v)) => std::env::set_var("PATH", v),
        None => std::env::remove_var("PATH"),
    }
    let c = Command {
        program,
        args: cmd,
        env: Some(env),
        cwd,
        ..Default::default()
    };
    run_command("env", "", &c)
}
