//! `curl`: curl 7.88's command line, output and exit codes over the
//! gateway (docs/nettools.md lists what differs).

pub mod args;
mod body;
mod glob;
mod progress;
mod route;
mod run;
pub mod writeout;

pub use run::main;

/// The curl version we follow in output formats and the User-Agent.
pub const VERSION: &str = "7.88.1";
