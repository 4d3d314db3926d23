//! Reading whole inputs (files or standard input) into memory, and the
//! output sink every utility writes through.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Read, Write};

/// Read all of `name` (`-` is standard input). Directories give EISDIR.
pub fn read_all(name: &OsStr) -> io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    if name == "-" {
        io::stdin().lock().read_to_end(&mut buf)?;
    } else {
        let mut f = File::open(name)?;
        if let Ok(m) = f.metadata() {
            if m.is_dir() {
                return Err(is_dir_error());
            }
            buf.reserve(m.len() as usize + 1);
        }
        f.read_to_end(&mut buf)?;
    }
    Ok(buf)
}

/// Open `name` for streaming (`-` is standard input), rejecting directories.
pub fn open(name: &OsStr) -> io::Result<Box<dyn Read>> {
    if name == "-" {
        Ok(Box::new(io::stdin()))
    } else {
        let f = File::open(name)?;
        if f.metadata().map(|m| m.is_dir()).unwrap_or(false) {
            return Err(is_dir_error());
        }
        Ok(Box::new(f))
    }
}

/// The "Is a directory" error with the platform's errno.
pub fn is_dir_error() -> io::Error {
    #[cfg(target_os = "wasi")]
    {
        io::Error::from_raw_os_error(31)
    }
    #[cfg(not(target_os = "wasi"))]
    {
        io::Error::from_raw_os_error(21)
    }
}

/// GNU's text for an I/O error.
pub fn err_text(e: &io::Error) -> String {
    #[cfg(not(target_os = "wasi"))]
    {
        // Natively the raw codes are Linux errnos; map the common ones.
        if let Some(c) = e.raw_os_error() {
            let s = match c {
                1 => "Operation not permitted",
                2 => "No such file or directory",
                5 => "Input/output error",
                9 => "Bad file descriptor",
                13 => "Permission denied",
                17 => "File exists",
                20 => "Not a directory",
                21 => "Is a directory",
                22 => "Invalid argument",
                28 => "No space left on device",
                32 => "Broken pipe",
                36 => "File name too long",
                39 => "Directory not empty",
                40 => "Too many levels of symbolic links",
                _ => "",
            };
            if !s.is_empty() {
                return s.to_string();
            }
        }
    }
    coreutils_core::error::strerror(e)
}

/// The buffered standard output every utility writes through.
pub type Out = io::BufWriter<io::StdoutLock<'static>>;

/// A new buffered standard output.
pub fn stdout() -> Out {
    coreutils_core::io::stdout()
}

/// Write bytes, exiting quietly on a broken pipe.
pub fn put(out: &mut Out, data: &[u8]) {
    if let Err(e) = out.write_all(data) {
        coreutils_core::io::exit_on_write_error(e);
    }
}

/// Flush, reporting a write error the GNU way; returns the exit status to use.
pub fn finish(out: &mut Out, prog: &str, status: i32) -> i32 {
    match out.flush() {
        Ok(()) => status,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 141,
        Err(e) => {
            eprintln!("{}: write error: {}", prog, err_text(&e));
            1
        }
    }
}
