//! Build script: gives shell.wasm a larger stack than the 1 MiB default, so deep
//! (but legal) nesting hits the shell's own depth limits before the stack ends.
fn main() {
    let target = std::env::var("TARGET").unwrap_or_default();
    if target.starts_with("wasm32") {
        println!("cargo:rustc-link-arg=-zstack-size=8388608");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
