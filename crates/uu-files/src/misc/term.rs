//! `tty`, `clear` and a minimal `tput`: the xterm capabilities agents use
//! (clear, cols, lines, colors, sgr0, bold, setaf, setab, ...).

use coreutils_core::args::{long, parse_or_usage, std_opts, HasArg, LongOpt, HELP, VERSION};
use coreutils_core::tty::isatty;
use std::ffi::OsString;
use std::io::Write;

const TTY_LONGS: &[LongOpt] = &[
    long("silent", HasArg::No, 's'),
    long("quiet", HasArg::No, 's'),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

/// `tty [-s]`.
pub fn main_tty(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("tty", &args, "s", TTY_LONGS, 2) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("tty", &p, "Usage: tty [OPTION]...\nPrint the file name of the terminal connected to standard input.\n") {
        return c;
    }
    if let Some(op) = p.operands.first() {
        return coreutils_core::args::extra_operand("tty", op, 2);
    }
    let t = isatty(0);
    if !p.has('s') {
        if t {
            // The sandbox has one terminal device.
            let name = coreutils_core::fs::read_link("/proc/self/fd/0")
                .ok()
                .filter(|p| p.starts_with("/dev"))
                .map(|p| p.to_string_lossy().into_owned());
            println!("{}", name.unwrap_or_else(|| "/dev/tty".into()));
        } else {
            println!("not a tty");
        }
    }
    if t {
        0
    } else {
        1
    }
}

fn term() -> Option<String> {
    std::env::var("TERM").ok().filter(|t| !t.is_empty())
}

/// `clear`: home the cursor and erase the screen and scrollback.
pub fn main_clear(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("clear", &args, "xT:V", &[], 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let t = p
        .last('T')
        .map(|s| s.to_string_lossy().into_owned())
        .or_else(term);
    match t.as_deref() {
        None => {
            eprintln!("TERM environment variable not set.");
            return 1;
        }
        // A dumb terminal cannot clear.
        Some("dumb") => return 1,
        _ => {}
    }
    let seq: &[u8] = if p.has('x') {
        b"\x1b[H\x1b[2J"
    } else {
        b"\x1b[H\x1b[2J\x1b[3J"
    };
    let mut out = std::io::stdout();
    let _ = out.write_all(seq).and_then(|_| out.flush());
    0
}

fn winsize(lines: bool) -> usize {
    let var = if lines { "LINES" } else { "COLUMNS" };
    std::env::var(var)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|&n: &usize| n > 0)
        .unwrap_or(if lines { 24 } else { 80 })
}

/// The string or number for capability `cap` with parameters.
fn capability(cap: &str, params: &[String], term: &str) -> Result<String, ()> {
    let colors = if term.contains("256color") { 256 } else { 8 };
    let n = |i: usize| {
        params
            .get(i)
            .and_then(|s| s.parse::<i64>().ok())
            .unwrap_or(0)
    };
    Ok(match cap {
        "clear" => "\x1b[H\x1b[2J\x1b[3J".into(),
        "cols" => format!("{}\n", winsize(false)),
        "lines" => format!("{}\n", winsize(true)),
        "colors" => format!("{}\n", colors),
        "sgr0" => "\x1b(B\x1b[m".into(),
        "bold" => "\x1b[1m".into(),
        "dim" => "\x1b[2m".into(),
        "sitm" => "\x1b[3m".into(),
        "smul" => "\x1b[4m".into(),
        "rmul" => "\x1b[24m".into(),
        "blink" => "\x1b[5m".into(),
        "rev" => "\x1b[7m".into(),
        "smso" => "\x1b[7m".into(),
        "rmso" => "\x1b[27m".into(),
        "civis" => "\x1b[?25l".into(),
        "cnorm" => "\x1b[?12l\x1b[?25h".into(),
        "el" => "\x1b[K".into(),
        "ed" => "\x1b[J".into(),
        "home" => "\x1b[H".into(),
        "smcup" => "\x1b[?1049h\x1b[22;0;0t".into(),
        "rmcup" => "\x1b[?1049l\x1b[23;0;0t".into(),
        "cup" => format!("\x1b[{};{}H", n(0) + 1, n(1) + 1),
        "setaf" | "setab" => {
            let base = if cap == "setaf" { 3 } else { 4 };
            let c = n(0);
            if c < 8 {
                format!("\x1b[{}{}m", base, c)
            } else if c < 16 && colors > 8 {
                format!("\x1b[{}{}m", if base == 3 { 9 } else { 10 }, c - 8)
            } else {
                format!("\x1b[{}8;5;{}m", base, c)
            }
        }
        "longname" => format!("{} terminal emulator", term),
        "init" | "reset" => "\x1b[!p\x1b[?3;4l\x1b[4l\x1b>".into(),
        _ => return Err(()),
    })
}

/// `tput [-T TERM] CAPNAME [PARAM]...` (and `-S` is not supported).
pub fn main_tput(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("tput", &args, "+T:x", &[], 2) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let t = match p
        .last('T')
        .map(|s| s.to_string_lossy().into_owned())
        .or_else(term)
    {
        Some(t) => t,
        None => {
            eprintln!(
                "{}: No value for $TERM and no -T specified",
                coreutils_core::prog("tput")
            );
            return 2;
        }
    };
    let ops: Vec<String> = p
        .operands
        .iter()
        .map(|o| o.to_string_lossy().into_owned())
        .collect();
    let cap = match ops.first() {
        Some(c) => c.clone(),
        None => {
            eprintln!("usage: tput [-V] [-S] [-T term] [-x] capname");
            return 2;
        }
    };
    match capability(&cap, &ops[1..], &t) {
        Ok(s) => {
            let mut out = std::io::stdout();
            let _ = out.write_all(s.as_bytes()).and_then(|_| out.flush());
            0
        }
        Err(()) => {
            eprintln!(
                "{}: unknown terminfo capability '{}'",
                coreutils_core::prog("tput"),
                cap
            );
            4
        }
    }
}
