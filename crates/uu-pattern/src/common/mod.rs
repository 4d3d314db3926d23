//! Helpers shared by the pattern utilities: option parsing, wildcards,
//! running shell commands and unbuffered-by-line standard output.

pub mod bytes;
pub mod command;
pub mod fnmatch;
pub mod getopt;
pub mod read_line;
pub mod stdout;
