//! The DDS reader (`sfsim_models::texture::DdsImage::read`); what it accepts must write
//! back and read again as the same image.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sfsim_models::texture::DdsImage;

fuzz_target!(|data: &[u8]| {
    let Ok(read) = DdsImage::read(data) else { return };
    let image = read.image;
    for level in 0..image.mip_count + 1 {
        let _ = image.mip_size(level);
    }
    if let Ok(bytes) = image.write() {
        let again = DdsImage::read(&bytes).expect("re-reading a written DDS");
        assert!(again.warnings.is_empty(), "a written DDS reads without warnings: {:?}", again.warnings);
        assert_eq!(again.image, image);
    }
});
