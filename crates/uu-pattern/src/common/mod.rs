//! Helpers shared by the pattern utilities: wildcards,
//! running shell commands and unbuffered-by-line standard output.

pub mod bytes;
pub mod command;
pub mod fnmatch;
pub mod read_line;
pub mod stdout;
