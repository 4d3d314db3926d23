//! Buffered standard streams and input opening shared by the utilities.
//!
//! Every write to a stream is a syscall through the kernel channel, so
//! utilities must write through [`stdout`] (a large `BufWriter`), never
//! through `println!` in loops.

use std::io::{self, BufReader, BufWriter, Read, Write};

/// Buffer size for standard output: big enough that a syscall per write is
/// amortised over many lines.
pub const OUT_BUF: usize = 64 * 1024;

/// A buffered, locked standard output.
pub fn stdout() -> BufWriter<io::StdoutLock<'static>> {
    BufWriter::with_capacity(OUT_BUF, Box::leak(Box::new(io::stdout())).lock())
}

/// Open an input operand: `-` is standard input.
pub fn open_input(name: &std::ffi::OsStr) -> io::Result<Box<dyn Read>> {
    if name == "-" {
        Ok(Box::new(io::stdin()))
    } else {
        let f = crate::fs::open(name)?;
        if f.metadata().map(|m| m.is_dir()).unwrap_or(false) {
            return Err(io::Error::from_raw_os_error(31));
        }
        Ok(Box::new(BufReader::with_capacity(OUT_BUF, f)))
    }
}

/// Write all bytes, turning a broken pipe into a quiet exit like SIGPIPE
/// would (status 141) so producers stop when their reader does.
pub fn write_or_exit<W: Write>(w: &mut W, data: &[u8]) {
    if let Err(e) = w.write_all(data) {
        exit_on_write_error(e);
    }
}

/// End the process after a failed write: silently for EPIPE, with a
/// message otherwise.
pub fn exit_on_write_error(e: io::Error) -> ! {
    if e.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(141);
    }
    eprintln!("write error: {}", crate::error::strerror(&e));
    std::process::exit(1);
}
