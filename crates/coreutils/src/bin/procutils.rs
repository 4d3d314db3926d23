//! Multicall dispatch of the utilities that run other programs (env,
//! timeout, nice, nohup, find, xargs). A separate binary because only it is
//! granted the `sandglass` process imports (docs/abi.md, role `proc`).

use coreutils_core::multicall::Multicall;

// Its sbrk replaces libc's: the heap grows in big steps (see the crate).
use wasm_heap as _;

sandglass_sys::export_abi_version!();

fn main() {
    coreutils_core::adopt_pwd();
    let m = Multicall {
        name: "procutils",
        tables: &[uu_data::PROC_APPLETS, uu_pattern::PROC_APPLETS],
        // Any other name (a link the kernel resolved) dispatches on argv[1].
        any_name_is_self: true,
    };
    std::process::exit(m.run(std::env::args_os().collect()));
}
