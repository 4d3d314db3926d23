//! `tee`: copy standard input to standard output and to files (`-a`).

use coreutils_core::fs::{File, OpenOptions};
use std::ffi::OsString;
use std::io::{Read, Write};

use crate::common::bytes::qf;
use crate::common::input::err_text;
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};

const USAGE: Usage = Usage::new(
    "tee",
    "[OPTION]... [FILE]...\nCopy standard input to each FILE, and also to standard output.\n",
    1,
);

const SPEC: &[OptSpec<&str>] = &[
    opt("a", Some('a'), Some("append"), HasArg::No),
    opt("i", Some('i'), Some("ignore-interrupts"), HasArg::No),
    opt("p", Some('p'), None, HasArg::No),
    opt("op", None, Some("output-error"), HasArg::Optional),
];

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let append = p.has("a");
    let mut status = 0;
    let mut sinks: Vec<(String, Option<File>)> = Vec::new();
    for f in &p.operands {
        let r = if append {
            OpenOptions::new().append(true).create(true).open(f)
        } else {
            coreutils_core::fs::create(f)
        };
        match r {
            Ok(h) => sinks.push((qf(f), Some(h))),
            Err(e) => {
                eprintln!(
                    "{}: {}: {}",
                    coreutils_core::prog("tee"),
                    qf(f),
                    err_text(&e)
                );
                status = 1;
            }
        }
    }
    let stdin = std::io::stdin();
    let mut inp = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = Some(stdout.lock());
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let k = match inp.read(&mut buf) {
            Ok(0) => break,
            Ok(k) => k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                eprintln!(
                    "{}: standard input: {}",
                    coreutils_core::prog("tee"),
                    err_text(&e)
                );
                status = 1;
                break;
            }
        };
        // tee copies as data arrives (no buffering across reads), so
        // interactive pipelines see output promptly.
        if let Some(o) = out.as_mut() {
            if let Err(e) = o.write_all(&buf[..k]).and_then(|_| o.flush()) {
                if e.kind() == std::io::ErrorKind::BrokenPipe && !p.has("p") && !p.has("op") {
                    return 141;
                }
                if e.kind() != std::io::ErrorKind::BrokenPipe {
                    eprintln!(
                        "{}: 'standard output': {}",
                        coreutils_core::prog("tee"),
                        err_text(&e)
                    );
                    status = 1;
                }
                out = None;
            }
        }
        for (name, h) in sinks.iter_mut() {
            if let Some(file) = h {
                if let Err(e) = file.write_all(&buf[..k]) {
                    eprintln!(
                        "{}: {}: {}",
                        coreutils_core::prog("tee"),
                        name,
                        err_text(&e)
                    );
                    status = 1;
                    *h = None;
                }
            }
        }
    }
    status
}
