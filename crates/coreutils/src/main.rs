//! Multicall dispatch: the utility is argv[0]'s basename, or the first
//! argument when invoked as `coreutils`.

use coreutils_core::multicall::Multicall;

// Its sbrk replaces libc's: the heap grows in big steps (see the crate).
use wasm_heap as _;

sandglass_sys::export_abi_version!();

fn main() {
    coreutils_core::adopt_pwd();
    let m = Multicall {
        name: "coreutils",
        tables: &[
            uu_files::APPLETS,
            uu_text::APPLETS,
            uu_pattern::APPLETS,
            uu_data::APPLETS,
        ],
        any_name_is_self: false,
    };
    std::process::exit(m.run(std::env::args_os().collect()));
}
