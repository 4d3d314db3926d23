//! Helpers shared by the pattern utilities: option parsing and wildcards.

pub mod fnmatch;
pub mod getopt;
