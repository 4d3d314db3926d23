//! Standard output as a plain descriptor behind one large buffer.
//!
//! Rust's `Stdout` is line-buffered: a `BufWriter` over it turns every
//! flush into two writes (up to the last newline, then the rest). In a
//! sandbox each write is a round trip to the kernel, so grep and sed write
//! to descriptor 1 directly and flush only full buffers.

use coreutils_core::fs::File;
use std::io::{self, BufWriter, Write};
use std::mem::ManuallyDrop;

/// Descriptor 1, borrowed: never closed by us.
pub struct RawStdout(ManuallyDrop<File>);

impl Write for RawStdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Size of the output buffer: one kernel write per 64 KiB.
const BUF: usize = 64 * 1024;

/// A buffered writer on descriptor 1.
pub fn stdout() -> BufWriter<RawStdout> {
    #[cfg(unix)]
    use std::os::unix::io::FromRawFd;
    #[cfg(target_os = "wasi")]
    use std::os::wasi::io::FromRawFd;
    // SAFETY: descriptor 1 is open for the whole process and is never
    // closed through this handle (ManuallyDrop).
    let f = unsafe { File::from_raw_fd(1) };
    BufWriter::with_capacity(BUF, RawStdout(ManuallyDrop::new(f)))
}

#[cfg(test)]
mod tests {
    #[test]
    fn flushing_an_empty_writer_is_harmless() {
        let mut w = super::stdout();
        assert!(std::io::Write::flush(&mut w).is_ok());
    }
}
