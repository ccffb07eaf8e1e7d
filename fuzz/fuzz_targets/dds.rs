//! The DDS reader (`sfsim_models::texture::DdsImage::read`); what it accepts must write
//! back and read again as the same image.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sfsim_models::texture::DdsImage;

fuzz_target!(|data: &[u8]| {
    let Ok(image) = DdsImage::read(data) else { return };
    for level in 0..image.mip_count + 1 {
        let _ = image.mip_size(level);
    }
    if let Ok(bytes) = image.write() {
        assert_eq!(DdsImage::read(&bytes).expect("re-reading a written DDS"), image);
    }
});
