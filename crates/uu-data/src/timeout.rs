//! `timeout`: run a command with a time limit, signalling it (and its
//! process group) when the limit passes; status 124 on timeout.

use crate::common::usage_error;
use coreutils_core::args::{long, parse, HasArg, LongOpt};
use coreutils_core::process::{self, sig, Command, Status};
use std::ffi::OsString;
use std::time::{Duration, Instant};

const LONG: &[LongOpt] = &[
    long("signal", HasArg::Required, 's'),
    long("kill-after", HasArg::Required, 'k'),
    long("preserve-status", HasArg::No, 'p'),
    long("foreground", HasArg::No, 'f'),
    long("verbose", HasArg::No, 'v'),
    long("help", HasArg::No, 'h'),
    long("version", HasArg::No, 'V'),
];

/// A GNU duration (see `coreutils_core::duration`), capped at 10^9 seconds.
pub fn parse_duration(s: &str) -> Option<Duration> {
    let secs = coreutils_core::duration::parse_secs(s)?;
    Some(Duration::from_secs_f64(secs.min(1e9)))
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let rest = args.get(1..).unwrap_or(&[]);
    // `+`: options end at the duration; the command's own follow.
    let p = match parse(rest, "+s:k:v", LONG) {
        Ok(p) => p,
        Err(e) => return usage_error("timeout", &e.message, 125),
    };
    let mut signal = sig::TERM;
    let mut kill_after: Option<Duration> = None;
    let mut preserve = false;
    let mut verbose = false;
    for o in &p.opts {
        let v = o
            .value
            .as_ref()
            .map(|a| a.to_string_lossy().into_owned())
            .unwrap_or_default();
        match o.key {
            's' => match sig::parse(&v) {
                Some(n) => signal = n,
                None => {
                    eprintln!("{}: {}: invalid signal", coreutils_core::prog("timeout"), v);
                    eprintln!(
                        "Try '{} --help' for more information.",
                        coreutils_core::prog("timeout")
                    );
                    return 125;
                }
            },
            'k' => match parse_duration(&v) {
                Some(d) => kill_after = Some(d),
                None => {
                    return usage_error("timeout", &format!("invalid time interval '{}'", v), 125)
                }
            },
            'p' => preserve = true,
            'v' => verbose = true,
            'h' => {
                println!("Usage: timeout [OPTION] DURATION COMMAND [ARG]...\nStart COMMAND, and kill it if still running after DURATION.\n\n  -k, --kill-after=DURATION\n  -s, --signal=SIGNAL\n      --preserve-status\n  -v, --verbose");
                return 0;
            }
            'V' => return crate::common::version("timeout"),
            _ => {}
        }
    }
    let mut ops = p.operands;
    if ops.is_empty() {
        return usage_error("timeout", "missing operand", 125);
    }
    let dur_s = ops.remove(0).to_string_lossy().into_owned();
    let dur = match parse_duration(&dur_s) {
        Some(d) => d,
        None => {
            return usage_error(
                "timeout",
                &format!("invalid time interval '{}'", dur_s),
                125,
            )
        }
    };
    if ops.is_empty() {
        return usage_error(
            "timeout",
            &format!("missing operand after '{}'", dur_s),
            125,
        );
    }
    let program = ops.remove(0);
    let cmd = Command {
        program: program.clone(),
        args: ops,
        new_group: true,
        ..Default::default()
    };
    let mut child = match process::spawn(&cmd) {
        Ok(c) => c,
        Err(e) => {
            eprintln!(
                "{}: failed to run command '{}': {}",
                coreutils_core::prog("timeout"),
                program.to_string_lossy(),
                coreutils_core::error::strerror(&e)
            );
            return if e.kind() == std::io::ErrorKind::NotFound {
                127
            } else {
                126
            };
        }
    };
    let no_limit = dur.is_zero();
    let start = Instant::now();
    let mut timed_out = false;
    let mut deadline = start + dur;
    let mut killed_hard = false;
    loop {
        match process::try_wait(&mut child) {
            Ok(Some(st)) => return finish(st, timed_out, preserve, signal, killed_hard),
            Ok(None) => {}
            Err(e) => {
                eprintln!(
                    "{}: {}",
                    coreutils_core::prog("timeout"),
                    coreutils_core::error::strerror(&e)
                );
                return 125;
            }
        }
        let now = Instant::now();
        if !no_limit && now >= deadline {
            if !timed_out {
                timed_out = true;
                if verbose {
                    eprintln!(
                        "{}: sending signal {} to command '{}'",
                        coreutils_core::prog("timeout"),
                        sig_name(signal),
                        program.to_string_lossy()
                    );
                }
                send(child.pid, signal);
                match kill_after {
                    Some(k) => deadline = now + k,
                    None => deadline = now + Duration::from_secs(1_000_000_000),
                }
            } else if !killed_hard {
                killed_hard = true;
                if verbose {
                    eprintln!(
                        "{}: sending signal KILL to command '{}'",
                        coreutils_core::prog("timeout"),
                        program.to_string_lossy()
                    );
                }
                send(child.pid, sig::KILL);
                deadline = now + Duration::from_secs(1_000_000_000);
            }
        }
        let left = deadline.saturating_duration_since(Instant::now());
        std::thread::sleep(left.min(Duration::from_millis(5)));
    }
}

fn send(pid: i32, signal: i32) {
    // The child leads its own group: signal the whole group like GNU does,
    // falling back to the child alone.
    if process::kill(-pid, signal).is_err() {
        let _ = process::kill(pid, signal);
    }
    if signal != sig::KILL && signal != sig::CONT {
        let _ = process::kill(-pid, sig::CONT);
    }
}

fn sig_name(n: i32) -> String {
    sig::NAMES
        .iter()
        .find(|(_, v)| *v == n)
        .map(|(s, _)| s.to_string())
        .unwrap_or_else(|| n.to_string())
}

fn finish(st: Status, timed_out: bool, preserve: bool, signal: i32, hard: bool) -> i32 {
    if timed_out && !preserve {
        // GNU's timeout signals its own group too, so KILL ends it as well.
        if signal == sig::KILL || hard {
            return 128 + sig::KILL;
        }
        return 124;
    }
    st.code()
}

#[cfg(test)]
mod tests {
    use super::parse_duration;
    use std::time::Duration;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("2"), Some(Duration::from_secs(2)));
        assert_eq!(parse_duration("1.5m"), Some(Duration::from_secs(90)));
        assert_eq!(parse_duration("0.1s"), Some(Duration::from_millis(100)));
        assert_eq!(parse_duration("x"), None);
        assert_eq!(parse_duration("-1"), None);
    }
}
