//! Reading whole inputs (files or standard input) into memory, and the
//! output sink every utility writes through.

use coreutils_core::fs::File;
use std::ffi::OsStr;
use std::io::{self, Read, Write};

/// Read all of `name` (`-` is standard input). Directories give EISDIR.
/// Running out of memory is an error of kind `OutOfMemory` (the process
/// memory limit in a sandbox), never an abort.
pub fn read_all(name: &OsStr) -> io::Result<Vec<u8>> {
    read_at_most(name, u64::MAX)
}

/// Read at most `max` bytes of `name` (`-` is standard input): what `od -N`
/// and `head -c` need from endless inputs like `/dev/urandom`.
pub fn read_at_most(name: &OsStr, max: u64) -> io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    if name == "-" {
        read_to_end_fallible(&mut io::stdin().lock().take(max), &mut buf)?;
    } else {
        let f = coreutils_core::fs::open(name)?;
        if let Ok(m) = f.metadata() {
            if m.is_dir() {
                return Err(is_dir_error());
            }
            // One allocation of the right size when the size is known.
            let want = usize::try_from(m.len().min(max))
                .unwrap_or(usize::MAX)
                .saturating_add(1);
            buf.try_reserve_exact(want).map_err(|_| out_of_memory())?;
        }
        read_to_end_fallible(&mut f.take(max), &mut buf)?;
    }
    Ok(buf)
}

/// The error for an allocation the memory limit refused.
pub fn out_of_memory() -> io::Error {
    io::Error::new(io::ErrorKind::OutOfMemory, "memory exhausted")
}

/// `read_to_end` that grows `buf` with `try_reserve`, so hitting the memory
/// limit is an error rather than an abort.
fn read_to_end_fallible(r: &mut dyn Read, buf: &mut Vec<u8>) -> io::Result<()> {
    const MIN_GROW: usize = 256 * 1024;
    let mut filled = buf.len();
    buf.resize(buf.capacity(), 0);
    loop {
        if filled == buf.len() {
            let grow = buf.len().max(MIN_GROW);
            if buf.try_reserve(grow).is_err() && buf.try_reserve(MIN_GROW).is_err() {
                buf.truncate(filled);
                return Err(out_of_memory());
            }
            // Zero the new room once per growth (amortised linear).
            buf.resize(buf.capacity(), 0);
        }
        match r.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                buf.truncate(filled);
                return Err(e);
            }
        }
    }
    buf.truncate(filled);
    Ok(())
}

/// Open `name` for streaming (`-` is standard input), rejecting directories.
pub fn open(name: &OsStr) -> io::Result<Box<dyn Read>> {
    if name == "-" {
        Ok(Box::new(io::stdin()))
    } else {
        let f = coreutils_core::fs::open(name)?;
        if f.metadata().map(|m| m.is_dir()).unwrap_or(false) {
            return Err(is_dir_error());
        }
        Ok(Box::new(f))
    }
}

/// Gives back `n` bytes read from standard input past what was used, when
/// it is seekable, so the next reader of a shared descriptor continues right
/// after our output, as with GNU (`{ head -n1; cat; } < file`). A pipe
/// cannot seek; that is not an error.
pub fn unread_stdin(n: u64) {
    use std::io::{Seek, SeekFrom};
    if let Ok(back) = i64::try_from(n) {
        let _ = stdin_file().seek(SeekFrom::Current(-back));
    }
}

/// Standard input read straight from fd 0, without std's 8 KiB buffer, so
/// the descriptor's offset is exactly what the caller consumed. Only for
/// callers that read in big blocks.
pub struct RawStdin;

impl Read for RawStdin {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        stdin_file().read(buf)
    }
}

fn stdin_file() -> std::mem::ManuallyDrop<File> {
    #[cfg(not(target_os = "wasi"))]
    use std::os::unix::io::FromRawFd;
    #[cfg(target_os = "wasi")]
    use std::os::wasi::io::FromRawFd;
    // SAFETY: fd 0 belongs to the process; ManuallyDrop keeps it open.
    std::mem::ManuallyDrop::new(unsafe { File::from_raw_fd(0) })
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
            eprintln!(
                "{}: write error: {}",
                coreutils_core::prog(prog),
                err_text(&e)
            );
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::read_to_end_fallible;
    use std::io::{self, Read};

    /// Hands out bytes in small, uneven reads, with an interruption.
    struct Trickle {
        left: usize,
        step: usize,
        interrupted: bool,
    }

    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if !self.interrupted {
                self.interrupted = true;
                return Err(io::Error::from(io::ErrorKind::Interrupted));
            }
            let n = self.left.min(self.step).min(buf.len());
            for (i, b) in buf[..n].iter_mut().enumerate() {
                *b = ((self.left - i) % 251) as u8;
            }
            self.left -= n;
            self.step = self.step % 7919 + 4099;
            Ok(n)
        }
    }

    #[test]
    fn fallible_read_gets_every_byte_across_growths() {
        let total = 1_300_000;
        let mut buf = b"head".to_vec();
        let mut r = Trickle {
            left: total,
            step: 1,
            interrupted: false,
        };
        read_to_end_fallible(&mut r, &mut buf).unwrap();
        assert_eq!(buf.len(), 4 + total);
        assert_eq!(&buf[..4], b"head");
        assert!(buf[4..]
            .iter()
            .enumerate()
            .all(|(i, &b)| b == ((total - i) % 251) as u8));
    }
}
