//! Whether a standard stream is a terminal, and its width.
//!
//! Rust 1.63 has no `IsTerminal`; WASI reports a tty as a character
//! device in `fd_fdstat_get`, natively the C library's `isatty` answers.

#[cfg(target_os = "wasi")]
mod sys {
    #[link(wasm_import_module = "wasi_snapshot_preview1")]
    extern "C" {
        fn fd_fdstat_get(fd: u32, out: *mut u8) -> i32;
    }
    pub fn isatty(fd: u32) -> bool {
        // fdstat: filetype u8, pad, flags u16, pad, rights u64 x2 = 24 bytes.
        let mut buf = [0u8; 24];
        // SAFETY: buf is large enough for a WASI fdstat.
        let r = unsafe { fd_fdstat_get(fd, buf.as_mut_ptr()) };
        r == 0 && buf[0] == 2
    }
}

#[cfg(not(target_os = "wasi"))]
mod sys {
    extern "C" {
        #[link_name = "isatty"]
        fn c_isatty(fd: i32) -> i32;
    }
    pub fn isatty(fd: u32) -> bool {
        // SAFETY: isatty only inspects the descriptor.
        unsafe { c_isatty(fd as i32) == 1 }
    }
}

/// Whether file descriptor `fd` (0, 1, 2) is a terminal.
pub fn isatty(fd: u32) -> bool {
    sys::isatty(fd)
}

/// Terminal width from `$COLUMNS`, else 80.
pub fn columns() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|&c| c > 0)
        .unwrap_or(80)
}
