//! Build script: link the C++ runtime for `intel_tex_2`.
//!
//! `intel_tex_2` ships prebuilt ISPC kernels plus a small C++ object (its ASTC helper) as
//! static libraries; on Linux that object needs libstdc++, which the crate does not ask the
//! linker for itself, so every binary that links `sfsim-models` would fail with undefined
//! `operator new`/`__cxa_*` symbols without this line.

fn main() {
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let target_env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    // MSVC links its C++ runtime implicitly; Apple platforms use libc++.
    if target_env != "msvc" {
        if target_os == "macos" || target_os == "ios" {
            println!("cargo:rustc-link-lib=c++");
        } else {
            println!("cargo:rustc-link-lib=stdc++");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
