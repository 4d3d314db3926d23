//! Multicall dispatch: the utility is argv[0]'s basename (longest known
//! suffix), or the first argument when invoked as `coreutils`.

use coreutils_core::Applet;
use std::ffi::OsString;

// Its sbrk replaces libc's: the heap grows in big steps (see the crate).
use wasm_heap as _;

fn all_applets() -> impl Iterator<Item = &'static Applet> {
    uu_files::APPLETS
        .iter()
        .chain(uu_text::APPLETS.iter())
        .chain(uu_pattern::APPLETS.iter())
        .chain(uu_data::APPLETS.iter())
}

fn find(name: &str) -> Option<&'static Applet> {
    all_applets().find(|a| a.name == name)
}

fn basename(arg0: &OsString) -> String {
    let s = arg0.to_string_lossy();
    s.rsplit('/').next().unwrap_or("").to_string()
}

sandglass_sys::export_abi_version!();

fn main() {
    coreutils_core::adopt_pwd();
    let mut args: Vec<OsString> = std::env::args_os().collect();
    let name = args.first().map(basename).unwrap_or_default();
    let code = if let Some(applet) = find(&name) {
        (applet.main)(args)
    } else if name != "coreutils" {
        eprintln!("coreutils: unknown program '{}'", name);
        127
    } else {
        args.remove(0);
        match args.first().map(|a| a.to_string_lossy().into_owned()) {
            Some(ref flag) if flag == "--list" => {
                let mut names: Vec<&str> = all_applets().map(|a| a.name).collect();
                names.sort_unstable();
                for n in names {
                    println!("{}", n);
                }
                0
            }
            Some(ref util) => match find(util) {
                Some(applet) => (applet.main)(args),
                None => {
                    eprintln!("coreutils: unknown program '{}'", util);
                    127
                }
            },
            None => {
                eprintln!("usage: coreutils PROGRAM [ARGS]... | coreutils --list");
                1
            }
        }
    };
    std::process::exit(code);
}
