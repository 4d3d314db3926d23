//! Errors that carry their exit status, printed GNU-style as `prog: message`.

use std::fmt;

/// Result of a utility step; the error knows the exit status to use.
pub type UResult<T> = Result<T, USimpleError>;

/// An error with an exit status and a message (without the `prog: ` prefix).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct USimpleError {
    /// Exit status the utility should end with.
    pub code: i32,
    /// Message shown after `prog: `.
    pub message: String,
}

impl USimpleError {
    /// A new error with exit status `code`.
    pub fn new(code: i32, message: impl Into<String>) -> Self {
        USimpleError {
            code,
            message: message.into(),
        }
    }
}

impl fmt::Display for USimpleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Print `prog: message` to stderr.
pub fn show_error(prog: &str, message: &str) {
    eprintln!("{}: {}", crate::prog(prog), message);
}

/// The text GNU tools use for an I/O error (`No such file or directory`, ...),
/// without Rust's ` (os error N)` suffix.
pub fn strerror(e: &std::io::Error) -> String {
    use std::io::ErrorKind;
    // Raw codes are WASI numbers only on WASI; natively std's text is glibc's.
    #[cfg(target_os = "wasi")]
    if let Some(code) = e.raw_os_error() {
        if let Some(s) = errno_text(code) {
            return s.to_string();
        }
    }
    #[cfg(not(target_os = "wasi"))]
    if e.raw_os_error().is_some() {
        let s = e.to_string();
        return match s.find(" (os error") {
            Some(i) => s[..i].to_string(),
            None => s,
        };
    }
    match e.kind() {
        ErrorKind::NotFound => "No such file or directory".into(),
        ErrorKind::PermissionDenied => "Permission denied".into(),
        ErrorKind::AlreadyExists => "File exists".into(),
        ErrorKind::InvalidInput => "Invalid argument".into(),
        _ => {
            let s = e.to_string();
            match s.find(" (os error") {
                Some(i) => s[..i].to_string(),
                None => s,
            }
        }
    }
}

/// GNU/glibc message for a WASI errno value as seen through wasi-libc
/// (None outside WASI's numbers, where std's own text is used).
pub fn errno_text(code: i32) -> Option<&'static str> {
    if (1..=76).contains(&code) {
        Some(sandglass_sys::errno::strerror(code))
    } else {
        None
    }
}
