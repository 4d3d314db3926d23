//! `wget`: GNU Wget 1.21's command line, log lines, file naming and exit
//! codes over the gateway (docs/nettools.md lists what differs).

mod accept;
pub mod args;
mod links;
mod log;
mod recursive;
mod robots;
mod run;

pub use run::main;

/// The Wget version we follow in output formats and the User-Agent.
pub const VERSION: &str = "1.21.3";
