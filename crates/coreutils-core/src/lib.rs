//! Shared core of the Sandglass coreutils (the role uucore plays in uutils).
//!
//! Every utility is an [`Applet`]: a name and an entry point taking the full
//! argv (argv[0] included) and returning the exit status. Group crates
//! (`uu-files`, `uu-text`, `uu-pattern`, `uu-data`) each export a table of
//! applets; the `coreutils` binary dispatches on argv[0].
//!
//! ```
//! use coreutils_core::{Applet, UResult, USimpleError};
//! fn run_true(_args: Vec<std::ffi::OsString>) -> i32 { 0 }
//! const APPLETS: &[Applet] = &[Applet { name: "true", main: run_true }];
//! assert_eq!((APPLETS[0].main)(vec![]), 0);
//! let e: UResult<()> = Err(USimpleError::new(2, "bad"));
//! assert_eq!(e.unwrap_err().code, 2);
//! ```
#![deny(missing_docs)]

pub mod args;
pub mod base64;
pub mod bytes;
pub mod calendar;
pub mod canon;
pub mod cpus;
pub mod duration;
pub mod error;
pub mod escapes;
pub mod float;
pub mod fnmatch;
pub mod fs;
pub mod io;
pub mod locale;
pub mod meta;
pub mod multicall;
pub mod process;
pub mod quote;
pub mod tty;
pub mod tz;
pub mod users;
pub mod version;

pub use error::{show_error, UResult, USimpleError};

use std::ffi::OsString;

thread_local! {
    /// argv[0] as the utility was invoked (`/bin/cat`, `cat`).
    static INVOKED: std::cell::RefCell<String> = std::cell::RefCell::new(String::new());
}

/// Record argv[0] for [`prog`] (the multicall dispatcher does it).
pub fn set_invoked(arg0: &str) {
    INVOKED.with(|i| *i.borrow_mut() = arg0.to_string());
}

/// The name a utility's messages start with: GNU prints argv[0] as invoked
/// (`/bin/cat: x: No such file or directory`), so when argv[0] names
/// `name` by a path, that path; otherwise `name`.
pub fn prog(name: &str) -> String {
    INVOKED.with(|i| {
        let i = i.borrow();
        if i.rsplit('/').next() == Some(name) {
            i.clone()
        } else {
            name.to_string()
        }
    })
}

/// Entry point of one utility: full argv in, exit status out.
pub type AppletMain = fn(Vec<OsString>) -> i32;

/// One utility of the multicall binary.
#[derive(Clone, Copy)]
pub struct Applet {
    /// Name the utility is invoked as (argv[0] basename).
    pub name: &'static str,
    /// Its entry point.
    pub main: AppletMain,
}

/// Process start-up shared by every program: WASI libc starts with cwd "/",
/// so adopt the process's cwd before any relative path is used: `$PWD`,
/// which the kernel sets to the cwd, or, when the parent passed an exact
/// environment without one (`env -i`), the kernel's own record of it.
pub fn adopt_pwd() {
    let cwd = std::env::var_os("PWD").or_else(kernel_cwd);
    if let Some(pwd) = cwd {
        let _ = std::env::set_current_dir(pwd);
    }
}

/// The kernel's record of our cwd (none off wasm, where `PWD` is the cwd).
fn kernel_cwd() -> Option<std::ffi::OsString> {
    sandglass_sys::process::getcwd()
        .ok()
        .map(bytes::os_from_vec)
}
