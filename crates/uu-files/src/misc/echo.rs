//! `echo [-neE] [STRING]...`: GNU echo (options only when every letter is
//! one of n, e, E).

use coreutils_core::bytes::os_bytes;
use coreutils_core::escapes::{expand, Style};
use coreutils_core::io::{exit_on_write_error, stdout};
use coreutils_core::locale::utf8_locale;
use std::ffi::OsString;
use std::io::Write;

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let mut newline = true;
    let mut escapes = false;
    let mut i = 1;
    if args.len() == 2 {
        match os_bytes(&args[1]) {
            b"--help" => {
                print!("Usage: echo [SHORT-OPTION]... [STRING]...\nEcho the STRING(s) to standard output.\n\n  -n  do not output the trailing newline\n  -e  enable interpretation of backslash escapes\n  -E  disable interpretation of backslash escapes (default)\n");
                return 0;
            }
            b"--version" => {
                println!("echo (Sandglass coreutils) {}", env!("CARGO_PKG_VERSION"));
                return 0;
            }
            _ => {}
        }
    }
    while i < args.len() {
        let a = os_bytes(&args[i]);
        if a.len() < 2 || a[0] != b'-' || !a[1..].iter().all(|c| b"neE".contains(c)) {
            break;
        }
        for c in &a[1..] {
            match c {
                b'n' => newline = false,
                b'e' => escapes = true,
                _ => escapes = false,
            }
        }
        i += 1;
    }
    let mut buf = Vec::new();
    for (k, a) in args[i..].iter().enumerate() {
        if k > 0 {
            buf.push(b' ');
        }
        if escapes {
            let (e, stop) = expand(os_bytes(a), Style::Echo, utf8_locale());
            buf.extend_from_slice(&e);
            if stop {
                newline = false;
                break;
            }
        } else {
            buf.extend_from_slice(os_bytes(a));
        }
    }
    if newline {
        buf.push(b'\n');
    }
    let mut out = stdout();
    if let Err(e) = out.write_all(&buf).and_then(|_| out.flush()) {
        exit_on_write_error(e);
    }
    0
}
