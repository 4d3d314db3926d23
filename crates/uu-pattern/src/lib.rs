//! Sandglass coreutils: the pattern group of utilities — `grep` (with
//! `egrep`/`fgrep`), `sed` and `awk`.
//!
//! The three share [`rx`], which translates POSIX basic and extended
//! regular expressions into the `regex` crate's byte syntax (or
//! fancy-regex's when back-references are used), and [`common`], a GNU
//! `getopt_long` work-alike and a wildcard matcher.

pub mod awk;
pub mod common;
pub mod grep;
pub mod rx;
pub mod sed;

use coreutils_core::Applet;

/// The utilities that run other programs (awk's pipes and `system`,
/// sed's `e` and `s///e`): dispatched by the `procutils` binary, the one
/// granted the process imports (docs/abi.md, role `proc`).
pub const PROC_APPLETS: &[Applet] = &[
    Applet {
        name: "awk",
        main: awk::uumain,
    },
    Applet {
        name: "sed",
        main: sed::uumain,
    },
];

/// The utilities this crate provides, in the order `--list` shows them.
pub const APPLETS: &[Applet] = &[
    Applet {
        name: "grep",
        main: grep::uumain,
    },
    Applet {
        name: "egrep",
        main: grep::uumain,
    },
    Applet {
        name: "fgrep",
        main: grep::uumain,
    },
];
