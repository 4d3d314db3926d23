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
pub mod io;
pub mod locale;
pub mod meta;
pub mod multicall;
pub mod process;
pub mod quote;
pub mod tty;
pub mod users;

pub use error::{show_error, UResult, USimpleError};

use std::ffi::OsString;

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

#[cfg(target_arch = "wasm32")]
fn kernel_cwd() -> Option<std::ffi::OsString> {
    use std::os::wasi::ffi::OsStringExt;
    #[link(wasm_import_module = "sandglass")]
    extern "C" {
        fn getcwd(handle_out: *mut u32, len_out: *mut u32) -> i32;
        fn handle_read(handle: u32, buf: *mut u8, len: u32) -> i32;
    }
    let (mut handle, mut len) = (0u32, 0u32);
    // SAFETY: both out-pointers are live locals; the buffer holds `len` bytes.
    if unsafe { getcwd(&mut handle, &mut len) } != 0 {
        return None;
    }
    let mut buf = vec![0u8; len as usize];
    if unsafe { handle_read(handle, buf.as_mut_ptr(), len) } != 0 {
        return None;
    }
    Some(std::ffi::OsString::from_vec(buf))
}

#[cfg(not(target_arch = "wasm32"))]
fn kernel_cwd() -> Option<std::ffi::OsString> {
    None
}
