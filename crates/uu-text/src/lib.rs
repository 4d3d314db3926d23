//! Sandglass coreutils: the text group of utilities (head, tail, wc, sort,
//! uniq, cut, tr, diff, checksums, dumps, ...). Each utility is a module
//! with `uumain(argv) -> status`; `common` holds their shared pieces.

use coreutils_core::Applet;

pub mod base32;
pub mod base64;
pub mod blake2b;
pub mod cksum;
pub mod cmp;
pub mod column;
pub mod comm;
pub mod common;
pub mod cut;
pub mod diff;
pub mod expand;
pub mod fmt;
pub mod fold;
pub mod hashsum;
pub mod head;
pub mod hexdump;
pub mod join;
pub mod nl;
pub mod numfmt;
pub mod od;
pub mod paste;
pub mod patch;
pub mod rev;
pub mod shuf;
pub mod sort;
pub mod split;
pub mod strings;
pub mod sum;
pub mod tac;
pub mod tail;
pub mod tee;
pub mod tr;
pub mod tsort;
pub mod uniq;
pub mod wc;
pub mod xxd;

/// The utilities this crate provides, in the order `--list` shows them.
pub const APPLETS: &[Applet] = &[
    Applet {
        name: "head",
        main: head::uumain,
    },
    Applet {
        name: "sort",
        main: sort::uumain,
    },
    Applet {
        name: "tail",
        main: tail::uumain,
    },
    Applet {
        name: "wc",
        main: wc::uumain,
    },
    Applet {
        name: "cut",
        main: cut::uumain,
    },
    Applet {
        name: "paste",
        main: paste::uumain,
    },
    Applet {
        name: "rev",
        main: rev::uumain,
    },
    Applet {
        name: "tac",
        main: tac::uumain,
    },
    Applet {
        name: "tee",
        main: tee::uumain,
    },
    Applet {
        name: "tr",
        main: tr::uumain,
    },
    Applet {
        name: "uniq",
        main: uniq::uumain,
    },
    Applet {
        name: "comm",
        main: comm::uumain,
    },
    Applet {
        name: "fold",
        main: fold::uumain,
    },
    Applet {
        name: "join",
        main: join::uumain,
    },
    Applet {
        name: "nl",
        main: nl::uumain,
    },
    Applet {
        name: "expand",
        main: expand::expand_main,
    },
    Applet {
        name: "unexpand",
        main: expand::unexpand_main,
    },
    Applet {
        name: "base64",
        main: base64::uumain,
    },
    Applet {
        name: "base32",
        main: base32::uumain,
    },
    Applet {
        name: "cmp",
        main: cmp::uumain,
    },
    Applet {
        name: "cksum",
        main: cksum::uumain,
    },
    Applet {
        name: "md5sum",
        main: hashsum::md5_main,
    },
    Applet {
        name: "sha1sum",
        main: hashsum::sha1_main,
    },
    Applet {
        name: "sha224sum",
        main: hashsum::sha224_main,
    },
    Applet {
        name: "sha256sum",
        main: hashsum::sha256_main,
    },
    Applet {
        name: "sha384sum",
        main: hashsum::sha384_main,
    },
    Applet {
        name: "sha512sum",
        main: hashsum::sha512_main,
    },
    Applet {
        name: "b2sum",
        main: hashsum::b2_main,
    },
    Applet {
        name: "od",
        main: od::uumain,
    },
    Applet {
        name: "xxd",
        main: xxd::uumain,
    },
    Applet {
        name: "hexdump",
        main: hexdump::uumain,
    },
    Applet {
        name: "strings",
        main: strings::uumain,
    },
    Applet {
        name: "diff",
        main: diff::uumain,
    },
    Applet {
        name: "patch",
        main: patch::uumain,
    },
    Applet {
        name: "split",
        main: split::uumain,
    },
    Applet {
        name: "shuf",
        main: shuf::uumain,
    },
    Applet {
        name: "numfmt",
        main: numfmt::uumain,
    },
    Applet {
        name: "column",
        main: column::uumain,
    },
    Applet {
        name: "fmt",
        main: fmt::uumain,
    },
    Applet {
        name: "sum",
        main: sum::uumain,
    },
    Applet {
        name: "tsort",
        main: tsort::uumain,
    },
];
