//! `wget` in the sandbox (see the nettools crate).

// Its sbrk replaces libc's: the heap grows in big steps.
use wasm_heap as _;

sandglass_sys::export_abi_version!();

fn main() {
    nettools::run_main(nettools::wget::main)
}
