//! TUM trajectory text (`TumPath::from_text`, fov 60°), then poses at awkward times.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sfsim::camera::TumPath;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(path) = TumPath::from_text(text, std::path::Path::new("fuzz.tum"), 60.0) {
        sfsim_fuzz::poses(&path);
    }
});
