//! Small helpers shared by the data utilities: byte views of OS strings
//! and GNU-style usage errors.

use std::ffi::{OsStr, OsString};

#[cfg(unix)]
use std::os::unix::ffi::{OsStrExt, OsStringExt};
#[cfg(target_os = "wasi")]
use std::os::wasi::ffi::{OsStrExt, OsStringExt};

/// The raw bytes of an OS string.
pub fn bytes(s: &OsStr) -> &[u8] {
    s.as_bytes()
}

/// An OS string from raw bytes.
pub fn os(b: Vec<u8>) -> OsString {
    OsString::from_vec(b)
}

/// An `OsStr` view of raw bytes.
pub fn os_ref(b: &[u8]) -> &OsStr {
    OsStr::from_bytes(b)
}

/// Print `prog: msg` and GNU's `Try 'prog --help'` line; returns `code`.
pub fn usage_error(prog: &str, msg: &str, code: i32) -> i32 {
    let prog = coreutils_core::prog(prog);
    eprintln!("{}: {}", prog, msg);
    eprintln!("Try '{} --help' for more information.", prog);
    code
}

/// Print the minimal `--version` text.
pub fn version(prog: &str) -> i32 {
    println!(
        "{} (Sandglass coreutils) {}",
        prog,
        env!("CARGO_PKG_VERSION")
    );
    0
}

/// The GNU quoting used in `invalid option -- 'x'` style messages for a
/// whole argument: `'arg'` / `‘arg’` is locale-specific; C locale uses '.
pub fn squote(s: &str) -> String {
    format!("'{}'", s)
}

/// Run a command to completion for env/nice/nohup/timeout: the exit status
/// to return, with 126/127 and GNU's message (`{prefix}'cmd': reason`)
/// when it cannot be started.
pub fn run_command(prog: &str, prefix: &str, cmd: &coreutils_core::process::Command) -> i32 {
    use coreutils_core::process;
    match process::spawn(cmd) {
        Ok(mut child) => match process::wait(&mut child) {
            Ok(st) => st.code(),
            Err(e) => {
                eprintln!("{}: {}", prog, coreutils_core::error::strerror(&e));
                125
            }
        },
        Err(e) => {
            eprintln!(
                "{}: {}'{}': {}",
                prog,
                prefix,
                cmd.program.to_string_lossy(),
                coreutils_core::error::strerror(&e)
            );
            if e.kind() == std::io::ErrorKind::NotFound {
                127
            } else {
                126
            }
        }
    }
}
