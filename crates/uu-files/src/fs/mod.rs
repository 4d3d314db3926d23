//! Utilities that manage files and directories.

pub mod attrs;
pub mod cat;
pub mod chmod;
pub mod chown;
pub mod cp;
pub mod df;
pub mod du;
pub mod file;
pub mod install;
pub mod link;
pub mod ln;
pub mod ls;
pub mod mkdir;
pub mod mkfifo;
pub mod mktemp;
pub mod mode;
pub mod mv;
pub mod readlink;
pub mod rm;
pub mod rmdir;
pub mod stat;
pub mod target;
pub mod touch;
pub mod tree;
pub mod truncate;
