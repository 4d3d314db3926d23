//! Small utilities that do not manage files: text output, paths, system
//! information and shell helpers.

pub mod basename;
pub mod date;
pub mod datetime;
pub mod dirname;
pub mod echo;
pub mod env;
pub mod getconf;
pub mod ids;
pub mod locale;
pub mod pwd;
pub mod seq;
pub mod sleep;
pub mod system;
pub mod term;
pub mod test;
pub mod truefalse;
pub mod yes;
