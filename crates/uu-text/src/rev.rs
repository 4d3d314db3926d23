//! `rev`: reverse the bytes of each line (C locale).

use std::ffi::OsString;

use crate::common::bytes::{memchr, qf};
use crate::common::input::{err_text, finish, put, read_all, stdout};

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let mut files: Vec<OsString> = Vec::new();
    let mut dashdash = false;
    for a in args.iter().skip(1) {
        let s = a.to_string_lossy();
        if !dashdash && s == "--" {
            dashdash = true;
        } else if !dashdash && s == "--help" {
            println!("Usage: rev [options] [file ...]\nReverse lines characterwise.");
            return 0;
        } else if !dashdash && s == "--version" {
            println!("rev (Sandglass coreutils) {}", env!("CARGO_PKG_VERSION"));
            return 0;
        } else if !dashdash && s.starts_with('-') && s.len() > 1 {
            eprintln!(
                "{}: invalid option -- '{}'",
                coreutils_core::prog("rev"),
                s.chars().nth(1).unwrap_or('-')
            );
            eprintln!(
                "Try '{} --help' for more information.",
                coreutils_core::prog("rev")
            );
            return 1;
        } else {
            files.push(a.clone());
        }
    }
    if files.is_empty() {
        files.push(OsString::from("-"));
    }
    let mut out = stdout();
    let mut status = 0;
    for f in &files {
        let data = match read_all(f) {
            Ok(d) => d,
            Err(e) => {
                eprintln!(
                    "{}: cannot open {}: {}",
                    coreutils_core::prog("rev"),
                    qf(f),
                    err_text(&e)
                );
                status = 1;
                continue;
            }
        };
        let mut rest = &data[..];
        let mut line = Vec::new();
        while !rest.is_empty() {
            let (body, nl) = match memchr(b'\n', rest) {
                Some(i) => (&rest[..i], true),
                None => (rest, false),
            };
            line.clear();
            line.extend(body.iter().rev());
            if nl {
                line.push(b'\n');
            }
            put(&mut out, &line);
            rest = &rest[body.len() + usize::from(nl)..];
        }
    }
    finish(&mut out, "rev", status)
}
