//! Multicall dispatch of the utilities that run other programs (env,
//! timeout, nice, nohup, find, xargs). A separate binary because only it is
//! granted the `sandglass` process imports (docs/abi.md, role `proc`).

use coreutils_core::Applet;
use std::ffi::OsString;

// Its sbrk replaces libc's: the heap grows in big steps (see the crate).
use wasm_heap as _;

sandglass_sys::export_abi_version!();

fn find(name: &str) -> Option<&'static Applet> {
    uu_data::PROC_APPLETS
        .iter()
        .chain(uu_pattern::PROC_APPLETS)
        .find(|a| a.name == name)
}

fn basename(arg0: &OsString) -> String {
    let s = arg0.to_string_lossy();
    s.rsplit('/').next().unwrap_or("").to_string()
}

fn main() {
    coreutils_core::adopt_pwd();
    let mut args: Vec<OsString> = std::env::args_os().collect();
    let name = args.first().map(basename).unwrap_or_default();
    let code = if let Some(applet) = find(&name) {
        (applet.main)(args)
    } else {
        args.remove(0);
        match args.first().map(|a| a.to_string_lossy().into_owned()) {
            Some(ref flag) if flag == "--list" => {
                let mut names: Vec<&str> = uu_data::PROC_APPLETS
                    .iter()
                    .chain(uu_pattern::PROC_APPLETS)
                    .map(|a| a.name)
                    .collect();
                names.sort_unstable();
                for n in names {
                    println!("{}", n);
                }
                0
            }
            Some(ref util) => match find(util) {
                Some(applet) => (applet.main)(args),
                None => {
                    eprintln!("procutils: unknown program '{}'", util);
                    127
                }
            },
            None => {
                eprintln!("usage: procutils PROGRAM [ARGS]... | procutils --list");
                1
            }
        }
    };
    std::process::exit(code);
}
