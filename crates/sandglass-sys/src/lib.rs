//! The one place Rust programs meet the Sandglass syscall ABI
//! (docs/abi.md): every `sandglass` wasm import, a safe thin wrapper for
//! each, the binary request formats, and the ABI version a program exports.
//!
//! Layout, one family of calls per module, as docs/abi.md groups them:
//! [`process`], [`meta`] (file metadata), [`fd`], [`tty`], [`session`],
//! [`net`] (HTTP through the sandbox's gateway), and [`handle`] for
//! variable-length results. A new family is a new module plus its rows in
//! `raw.rs`'s import list.
//! [`format`] encodes and decodes the binary formats and runs anywhere.
//!
//! Only the imports a program actually calls end up in its wasm import
//! section (the linker drops the rest), so depending on this crate grants
//! nothing by itself: a program's role still decides what it may import.
//!
//! Off wasm (host `cargo test`, clippy) every call compiles and fails with
//! [`ENOSYS`]; host builds keep their own native paths (libc) and never
//! rely on these.
#![deny(missing_docs)]

pub mod errno;
pub mod fd;
pub mod format;
pub mod handle;
pub mod meta;
pub mod net;
pub mod process;
mod raw;
pub mod session;
pub mod tty;

/// The ABI version programs are built against; the host refuses to start a
/// module whose `sandglass_abi_version()` export returns another number.
pub const ABI_VERSION: i32 = 1;

/// A WASI errno as the host returns it (0 never appears in an `Err`).
pub type Errno = i32;

/// "Function not implemented": what every call answers off wasm.
pub const ENOSYS: Errno = 52;

/// "I/O error": a reply the crate could not decode.
pub const EIO: Errno = 29;

/// Turn a host return value into a `Result`.
pub(crate) fn check(e: i32) -> Result<(), Errno> {
    if e == 0 {
        Ok(())
    } else {
        Err(e)
    }
}

/// Define the `sandglass_abi_version` export the host checks before
/// `_start`. Invoke once in the binary crate of every program that imports
/// `sandglass`.
#[macro_export]
macro_rules! export_abi_version {
    () => {
        /// The ABI version this program was built against (docs/abi.md).
        #[no_mangle]
        pub extern "C" fn sandglass_abi_version() -> i32 {
            $crate::ABI_VERSION
        }
    };
}
