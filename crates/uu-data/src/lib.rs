//! Sandglass coreutils: the data group of utilities (jq, expr, bc, tar,
//! gzip, zip) and the process utilities (find, xargs, env, timeout, nice,
//! nohup) that live in the separate `procutils` binary.

pub mod bc;
pub mod common;
pub mod dd;
pub mod env;
pub mod expr;
pub mod factor;
pub mod find;
pub mod gzip;
pub mod jq;
pub mod nice;
pub mod nohup;
pub mod tar;
pub mod timeout;
pub mod xargs;
pub mod zip;

use coreutils_core::Applet;

/// The utilities of the plain `coreutils` binary, in `--list` order.
pub const APPLETS: &[Applet] = &[
    Applet {
        name: "bc",
        main: bc::uumain,
    },
    Applet {
        name: "dd",
        main: dd::uumain,
    },
    Applet {
        name: "expr",
        main: expr::uumain,
    },
    Applet {
        name: "factor",
        main: factor::uumain,
    },
    Applet {
        name: "gunzip",
        main: gzip::uumain,
    },
    Applet {
        name: "gzip",
        main: gzip::uumain,
    },
    Applet {
        name: "jq",
        main: jq::uumain,
    },
    Applet {
        name: "tar",
        main: tar::uumain,
    },
    Applet {
        name: "unzip",
        main: zip::unzip_main,
    },
    Applet {
        name: "zcat",
        main: gzip::uumain,
    },
    Applet {
        name: "zip",
        main: zip::zip_main,
    },
];

/// The utilities of the `procutils` binary (they spawn processes).
pub const PROC_APPLETS: &[Applet] = &[
    Applet {
        name: "env",
        main: env::uumain,
    },
    Applet {
        name: "find",
        main: find::uumain,
    },
    Applet {
        name: "nice",
        main: nice::uumain,
    },
    Applet {
        name: "nohup",
        main: nohup::uumain,
    },
    Applet {
        name: "timeout",
        main: timeout::uumain,
    },
    Applet {
        name: "xargs",
        main: xargs::uumain,
    },
];
