//! Sandglass coreutils: the files group of utilities (file management,
//! metadata, and the small system and shell-helper programs).

pub mod fs;
pub mod misc;
pub mod printf;

use coreutils_core::Applet;

/// The utilities this crate provides, in the order `--list` shows them.
pub const APPLETS: &[Applet] = &[
    Applet {
        name: "[",
        main: misc::test::main_bracket,
    },
    Applet {
        name: "basename",
        main: misc::basename::uumain,
    },
    Applet {
        name: "cat",
        main: fs::cat::uumain,
    },
    Applet {
        name: "chgrp",
        main: fs::chown::main_chgrp,
    },
    Applet {
        name: "chmod",
        main: fs::chmod::uumain,
    },
    Applet {
        name: "chown",
        main: fs::chown::main_chown,
    },
    Applet {
        name: "clear",
        main: misc::term::main_clear,
    },
    Applet {
        name: "cp",
        main: fs::cp::uumain,
    },
    Applet {
        name: "date",
        main: misc::date::uumain,
    },
    Applet {
        name: "df",
        main: fs::df::uumain,
    },
    Applet {
        name: "dirname",
        main: misc::dirname::uumain,
    },
    Applet {
        name: "du",
        main: fs::du::uumain,
    },
    Applet {
        name: "echo",
        main: misc::echo::uumain,
    },
    Applet {
        name: "false",
        main: misc::truefalse::main_false,
    },
    Applet {
        name: "file",
        main: fs::file::uumain,
    },
    Applet {
        name: "getconf",
        main: misc::getconf::uumain,
    },
    Applet {
        name: "groups",
        main: misc::ids::main_groups,
    },
    Applet {
        name: "hostname",
        main: misc::system::main_hostname,
    },
    Applet {
        name: "id",
        main: misc::ids::main_id,
    },
    Applet {
        name: "install",
        main: fs::install::uumain,
    },
    Applet {
        name: "link",
        main: fs::link::main_link,
    },
    Applet {
        name: "ln",
        main: fs::ln::uumain,
    },
    Applet {
        name: "locale",
        main: misc::locale::uumain,
    },
    Applet {
        name: "ls",
        main: fs::ls::uumain,
    },
    Applet {
        name: "mkdir",
        main: fs::mkdir::uumain,
    },
    Applet {
        name: "mkfifo",
        main: fs::mkfifo::uumain,
    },
    Applet {
        name: "mktemp",
        main: fs::mktemp::uumain,
    },
    Applet {
        name: "mv",
        main: fs::mv::uumain,
    },
    Applet {
        name: "nproc",
        main: misc::system::main_nproc,
    },
    Applet {
        name: "printenv",
        main: misc::env::main_printenv,
    },
    Applet {
        name: "printf",
        main: printf::uumain,
    },
    Applet {
        name: "pwd",
        main: misc::pwd::uumain,
    },
    Applet {
        name: "readlink",
        main: fs::readlink::main_readlink,
    },
    Applet {
        name: "realpath",
        main: fs::readlink::main_realpath,
    },
    Applet {
        name: "rm",
        main: fs::rm::uumain,
    },
    Applet {
        name: "rmdir",
        main: fs::rmdir::uumain,
    },
    Applet {
        name: "seq",
        main: misc::seq::uumain,
    },
    Applet {
        name: "sleep",
        main: misc::sleep::uumain,
    },
    Applet {
        name: "stat",
        main: fs::stat::uumain,
    },
    Applet {
        name: "test",
        main: misc::test::main_test,
    },
    Applet {
        name: "touch",
        main: fs::touch::uumain,
    },
    Applet {
        name: "tput",
        main: misc::term::main_tput,
    },
    Applet {
        name: "tree",
        main: fs::tree::uumain,
    },
    Applet {
        name: "true",
        main: misc::truefalse::main_true,
    },
    Applet {
        name: "truncate",
        main: fs::truncate::uumain,
    },
    Applet {
        name: "tty",
        main: misc::term::main_tty,
    },
    Applet {
        name: "uname",
        main: misc::system::main_uname,
    },
    Applet {
        name: "unlink",
        main: fs::link::main_unlink,
    },
    Applet {
        name: "uptime",
        main: misc::system::main_uptime,
    },
    Applet {
        name: "which",
        main: misc::env::main_which,
    },
    Applet {
        name: "whoami",
        main: misc::ids::main_whoami,
    },
    Applet {
        name: "yes",
        main: misc::yes::uumain,
    },
];
