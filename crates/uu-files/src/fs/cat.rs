//! `cat [-AbeEnstTuv] [FILE]...`: concatenate, raw copy in big chunks when
//! no option changes the bytes.

use coreutils_core::args::{long, parse_or_usage, std_opts, HasArg, LongOpt, HELP, VERSION};
use coreutils_core::error::strerror;
use coreutils_core::io::{exit_on_write_error, OUT_BUF};
use coreutils_core::quote::quotef;
use std::ffi::OsString;
use std::io::{self, Read, Write};

const LONGS: &[LongOpt] = &[
    long("show-all", HasArg::No, 'A'),
    long("number-nonblank", HasArg::No, 'b'),
    long("show-ends", HasArg::No, 'E'),
    long("number", HasArg::No, 'n'),
    long("squeeze-blank", HasArg::No, 's'),
    long("show-tabs", HasArg::No, 'T'),
    long("show-nonprinting", HasArg::No, 'v'),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

#[derive(Default)]
struct Opts {
    number: bool,
    nonblank: bool,
    ends: bool,
    squeeze: bool,
    tabs: bool,
    nonprint: bool,
}

/// Line state carried across files, as GNU does.
#[derive(Default)]
struct State {
    line_no: u64,
    at_line_start: bool,
    blank_run: u32,
    pending_cr: bool,
}

fn visible(out: &mut Vec<u8>, c: u8, o: &Opts) {
    if c == b'\t' {
        if o.tabs {
            out.extend_from_slice(b"^I");
        } else {
            out.push(c);
        }
        return;
    }
    if !o.nonprint {
        out.push(c);
        return;
    }
    let mut c = c;
    if c >= 128 {
        out.extend_from_slice(b"M-");
        c -= 128;
    }
    if c < 32 {
        out.push(b'^');
        out.push(c + 64);
    } else if c == 127 {
        out.extend_from_slice(b"^?");
    } else {
        out.push(c);
    }
}

fn cooked(data: &[u8], o: &Opts, st: &mut State, out: &mut Vec<u8>) {
    for &c in data {
        // GNU -E shows a CR before the newline as ^M.
        if st.pending_cr {
            st.pending_cr = false;
            if c == b'\n' {
                out.extend_from_slice(b"^M$\n");
                st.at_line_start = true;
                continue;
            }
            out.push(b'\r');
        }
        if st.at_line_start {
            if c == b'\n' {
                st.blank_run += 1;
                if o.squeeze && st.blank_run > 1 {
                    continue;
                }
                if o.number && !o.nonblank {
                    st.line_no += 1;
                    out.extend_from_slice(format!("{:>6}\t", st.line_no).as_bytes());
                }
                if o.ends {
                    out.push(b'$');
                }
                out.push(b'\n');
                continue;
            }
            st.blank_run = 0;
            if o.number {
                st.line_no += 1;
                out.extend_from_slice(format!("{:>6}\t", st.line_no).as_bytes());
            }
            st.at_line_start = false;
        }
        if c == b'\r' && o.ends && !o.nonprint {
            st.pending_cr = true;
            continue;
        }
        if c == b'\n' {
            if o.ends {
                out.push(b'$');
            }
            out.push(b'\n');
            st.at_line_start = true;
        } else {
            visible(out, c, o);
        }
    }
}

/// GNU's check: a regular input with data left to read that is the very
/// file standard output writes to.
fn is_output(
    name: &OsString,
    m: Option<&std::fs::Metadata>,
    out: Option<coreutils_core::meta::RawStat>,
) -> bool {
    let (m, out) = match (m, out) {
        (Some(m), Some(out)) => (m, out),
        _ => return false,
    };
    if !m.is_file() || m.len() == 0 {
        return false;
    }
    match coreutils_core::meta::raw_stat(std::path::Path::new(name), true) {
        Ok(r) => r.dev == out.dev && r.ino == out.ino,
        Err(_) => false,
    }
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("cat", &args, "AbeEnstTuv", LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("cat", &p, "Usage: cat [OPTION]... [FILE]...\nConcatenate FILE(s) to standard output.\n\n  -A, --show-all           equivalent to -vET\n  -b, --number-nonblank    number nonempty output lines, overrides -n\n  -e                       equivalent to -vE\n  -E, --show-ends          display $ at end of each line\n  -n, --number             number all output lines\n  -s, --squeeze-blank      suppress repeated empty output lines\n  -t                       equivalent to -vT\n  -T, --show-tabs          display TAB characters as ^I\n  -v, --show-nonprinting   use ^ and M- notation, except for LFD and TAB\n") {
        return c;
    }
    let mut o = Opts::default();
    for opt in &p.opts {
        match opt.key {
            'A' => {
                o.nonprint = true;
                o.ends = true;
                o.tabs = true;
            }
            'b' => {
                o.number = true;
                o.nonblank = true;
            }
            'e' => {
                o.nonprint = true;
                o.ends = true;
            }
            'E' => o.ends = true,
            'n' => o.number = true,
            's' => o.squeeze = true,
            't' => {
                o.nonprint = true;
                o.tabs = true;
            }
            'T' => o.tabs = true,
            'v' => o.nonprint = true,
            _ => {}
        }
    }
    let raw = !(o.number || o.ends || o.squeeze || o.tabs || o.nonprint);
    let files = if p.operands.is_empty() {
        vec![OsString::from("-")]
    } else {
        p.operands
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut buf = vec![0u8; OUT_BUF * 2];
    let mut cooked_buf: Vec<u8> = Vec::with_capacity(OUT_BUF * 4);
    let mut st = State {
        at_line_start: true,
        ..State::default()
    };
    let mut status = 0;
    // Reading a file that is also the output would never end (`cat f >> f`).
    let out_id = coreutils_core::meta::fd_raw_stat(1).ok();
    for f in &files {
        let mut input: Box<dyn Read> = if f == "-" {
            Box::new(io::stdin())
        } else {
            match coreutils_core::fs::open(f) {
                Ok(h) => {
                    let m = h.metadata().ok();
                    if m.as_ref().map_or(false, |m| m.is_dir()) {
                        eprintln!(
                            "{}: {}: Is a directory",
                            coreutils_core::prog("cat"),
                            quotef(f)
                        );
                        status = 1;
                        continue;
                    }
                    if is_output(f, m.as_ref(), out_id) {
                        eprintln!(
                            "{}: {}: input file is output file",
                            coreutils_core::prog("cat"),
                            quotef(f)
                        );
                        status = 1;
                        continue;
                    }
                    Box::new(h)
                }
                Err(e) => {
                    eprintln!(
                        "{}: {}: {}",
                        coreutils_core::prog("cat"),
                        quotef(f),
                        strerror(&e)
                    );
                    status = 1;
                    continue;
                }
            }
        };
        loop {
            let n = match input.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    eprintln!(
                        "{}: {}: {}",
                        coreutils_core::prog("cat"),
                        quotef(f),
                        strerror(&e)
                    );
                    status = 1;
                    break;
                }
            };
            let r = if raw {
                out.write_all(&buf[..n])
            } else {
                cooked_buf.clear();
                cooked(&buf[..n], &o, &mut st, &mut cooked_buf);
                out.write_all(&cooked_buf)
            };
            if let Err(e) = r {
                exit_on_write_error(e);
            }
        }
    }
    if st.pending_cr {
        let _ = out.write_all(b"\r");
    }
    if let Err(e) = out.flush() {
        exit_on_write_error(e);
    }
    status
}
