//! The MDU's functional codecs: bytes in → exact bytes out, one module per stage.
//!
//! - [`zlib`]: RFC 1950 decode (the MDU's zlib stage) and encode (for packing).
//! - [`bc`]: BC1–BC7 block formats: decode, encode, PSNR/RMSE, 64 KiB tile cutting.
//! - [`bcpack`]: sfsim's open BCPack stand-in, a lossless BC-aware codec per BC format.
//! - [`swizzle`]: BC field shuffles and layout swizzles inside a 64 KiB unit.

pub mod bc;
pub mod bcpack;
pub mod swizzle;
pub mod zlib;
