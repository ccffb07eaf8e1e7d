//! Real content: how real textures compress through the MDU's codecs (`sfsim
//! codec-report`).

pub mod codec_report;
pub mod mipgen;
pub mod pack;
