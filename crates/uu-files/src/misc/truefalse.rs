//! `true` and `false`: exit 0 and 1 (ignoring arguments except a lone
//! `--help`/`--version`, as GNU does).

use std::ffi::OsString;

fn run(args: &[OsString], name: &str, code: i32) -> i32 {
    if args.len() == 2 {
        if args[1] == "--help" {
            println!("Usage: {} [ignored command line arguments]\n  or:  {} OPTION\nExit with a status code indicating {}.", name, name, if code == 0 { "success" } else { "failure" });
            return code;
        }
        if args[1] == "--version" {
            println!(
                "{} (Sandglass coreutils) {}",
                name,
                env!("CARGO_PKG_VERSION")
            );
            return code;
        }
    }
    code
}

/// `true`.
pub fn main_true(args: Vec<OsString>) -> i32 {
    run(&args, "true", 0)
}

/// `false`.
pub fn main_false(args: Vec<OsString>) -> i32 {
    run(&args, "false", 1)
}
