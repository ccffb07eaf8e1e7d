//! Recorded camera CSV (`RecordedPath::from_text`), then poses at awkward times.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sfsim::camera::RecordedPath;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(path) = RecordedPath::from_text(text, std::path::Path::new("fuzz.csv")) {
        sfsim_fuzz::poses(&path);
    }
});
