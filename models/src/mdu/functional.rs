//! The MDU's functional side: a request's source bytes in, its destination bytes out,
//! through the stages its options name — zlib → BCPack → swizzle, each skipped when not
//! asked for — exactly as the timing side charges for them. [`pack`] is the inverse the
//! packer runs (swizzle⁻¹ → BCPack encode → Deflate).
//!
//! Sizes are the request's: `destination_size` is what lands in title memory (for SFS
//! tiles, 64 KiB) and `intermediate_size` what the zlib stage must produce when BCPack
//! follows it (DirectStorage's `IntermediateSize`). Every mismatch, truncation or
//! corruption is an [`MduError`] naming the stage and the values; nothing panics.
//!
//! ```
//! use sfsim_models::mdu::{decode, pack, Encoding, MduRequest};
//! use sfsim_models::nvme::RequestOptions;
//! let blocks = vec![0x3Cu8; 65_536]; // a 64 KiB tile of BC1 blocks
//! let options = RequestOptions { zlib: true, bcpack_mode: 1, swizzle_mode: 1 };
//! let packed = pack(options, 8, &blocks, Encoding::default()).unwrap();
//! let out = decode(&packed.request, &packed.bytes).unwrap();
//! assert_eq!(out, blocks);
//! ```

use super::error::MduError;
use crate::codec::bcpack::{self, BcpackMode};
use crate::codec::swizzle;
use crate::codec::zlib::{self, Encoder, ZlibError};
use crate::nvme::{RequestOptions, SwizzleMode, MAX_ZLIB_OUTPUT};

/// One request as the MDU sees it: which stages, and the sizes it declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MduRequest {
    /// The stages to run, as the DirectStorage request's option bits.
    pub options: RequestOptions,
    /// Bytes between zlib and BCPack (`IntermediateSize`); used only when both run.
    pub intermediate_size: u64,
    /// Bytes written to title memory.
    pub destination_size: u64,
    /// Bytes per BC block (8 or 16) for a swizzle whose mode does not imply it (the
    /// Morton layouts without BCPack). Ignored otherwise.
    pub block_bytes: u32,
}

/// How [`pack`] compresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Encoding {
    /// The Deflate encoder used when the options ask for zlib.
    pub deflate: Encoder,
}

impl Default for Encoding {
    fn default() -> Self {
        Encoding { deflate: Encoder::ZLIB_BEST }
    }
}

/// What [`pack`] produced: the source bytes and the request that decodes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Packed {
    /// The source bytes to store (what a request reads).
    pub bytes: Vec<u8>,
    /// The request that decodes `bytes` back to the packed data.
    pub request: MduRequest,
}

/// The stages a request's options select, checked.
#[derive(Debug, Clone, Copy)]
struct Plan {
    zlib: bool,
    bcpack: Option<BcpackMode>,
    swizzle: Option<(SwizzleMode, u32)>,
}

fn plan(options: RequestOptions, block_bytes: u32) -> Result<Plan, MduError> {
    let bcpack = match options.bcpack_mode {
        0 => None,
        raw => Some(BcpackMode::from_raw(raw).map_err(|_| MduError::BcpackMode(raw))?),
    };
    let swizzle = match SwizzleMode::from_raw(options.swizzle_mode) {
        None => return Err(MduError::SwizzleMode(options.swizzle_mode)),
        Some(SwizzleMode::None) => None,
        Some(mode) => {
            let implied = match mode {
                SwizzleMode::Bc1Shuffle | SwizzleMode::Bc4Shuffle => Some(8),
                SwizzleMode::Bc3Shuffle | SwizzleMode::Bc5Shuffle => Some(16),
                _ => bcpack.map(|m| m.block_bytes() as u32),
            };
            let bytes = implied.unwrap_or(block_bytes);
            if bytes != 8 && bytes != 16 {
                return Err(MduError::BlockBytes { mode, block_bytes });
            }
            Some((mode, bytes))
        }
    };
    Ok(Plan { zlib: options.zlib, bcpack, swizzle })
}

fn usize_of(what: &'static str, value: u64) -> Result<usize, MduError> {
    // Nothing the MDU writes for one request exceeds 1 GiB, so this only rejects nonsense.
    const MAX: u64 = 1 << 30;
    if value > MAX {
        return Err(MduError::TooLarge { what, value, max: MAX });
    }
    Ok(value as usize)
}

/// Runs `src` through the stages `request` names and returns the destination bytes.
pub fn decode(request: &MduRequest, src: &[u8]) -> Result<Vec<u8>, MduError> {
    let mut out = vec![0u8; usize_of("destination size", request.destination_size)?];
    decode_into(request, src, &mut out)?;
    Ok(out)
}

/// As [`decode`], into `dst` (its length must be the destination size).
pub fn decode_into(request: &MduRequest, src: &[u8], dst: &mut [u8]) -> Result<(), MduError> {
    let plan = plan(request.options, request.block_bytes)?;
    if dst.len() as u64 != request.destination_size {
        return Err(MduError::SizeMismatch {
            stage: "destination buffer",
            expected: request.destination_size,
            found: dst.len() as u64,
        });
    }
    // Before the swizzle the data is unswizzled; the swizzle writes the destination.
    let mut staged = match plan.swizzle {
        Some(_) => vec![0u8; dst.len()],
        None => Vec::new(),
    };
    let target: &mut [u8] = if plan.swizzle.is_some() { &mut staged } else { &mut *dst };
    match (plan.zlib, plan.bcpack) {
        (false, None) => {
            if src.len() != target.len() {
                return Err(MduError::SizeMismatch {
                    stage: "uncompressed move",
                    expected: target.len() as u64,
                    found: src.len() as u64,
                });
            }
            target.copy_from_slice(src);
        }
        (true, None) => zlib::inflate_into(src, target)?,
        (false, Some(mode)) => bcpack_into(request, mode, src, target)?,
        (true, Some(mode)) => {
            let intermediate = usize_of("intermediate size", request.intermediate_size)?;
            if request.intermediate_size > MAX_ZLIB_OUTPUT.0 {
                return Err(MduError::TooLarge {
                    what: "intermediate size",
                    value: request.intermediate_size,
                    max: MAX_ZLIB_OUTPUT.0,
                });
            }
            let inflated = zlib::inflate(src, intermediate)?;
            bcpack_into(request, mode, &inflated, target)?;
        }
    }
    if let Some((mode, block_bytes)) = plan.swizzle {
        swizzle::apply_into(mode, block_bytes, &staged, dst)?;
    }
    Ok(())
}

fn bcpack_into(request: &MduRequest, mode: BcpackMode, src: &[u8], dst: &mut [u8]) -> Result<(), MduError> {
    let header = bcpack::Header::read(src)?;
    if header.mode != mode {
        return Err(MduError::BcpackModeMismatch { requested: request.options.bcpack_mode, found: header.mode as u8 });
    }
    bcpack::decode_into(src, dst)?;
    Ok(())
}

/// The request that decodes `src` with `options`, its sizes read from the data itself:
/// the zlib stage's output length (by inflating once against the 32 MiB limit) and the
/// BCPack header's block count. For tools that get a bare stream (`sfsim mdu`); the
/// engine's requests carry their sizes from the container instead.
pub fn infer_request(options: RequestOptions, block_bytes: u32, src: &[u8]) -> Result<MduRequest, MduError> {
    let plan = plan(options, block_bytes)?;
    let mut intermediate = src.len() as u64;
    let inflated;
    let mut after_zlib = src;
    if plan.zlib {
        let limit = MAX_ZLIB_OUTPUT.0 as usize;
        intermediate = match zlib::inflate(src, limit) {
            Ok(all) => all.len() as u64,
            Err(ZlibError::OutputTooShort { actual, .. }) => actual,
            Err(e) => return Err(e.into()),
        };
        inflated = zlib::inflate(src, intermediate as usize)?;
        after_zlib = &inflated;
    }
    let destination_size = match plan.bcpack {
        Some(_) => bcpack::Header::read(after_zlib)?.output_bytes(),
        None => intermediate,
    };
    Ok(MduRequest { options, intermediate_size: intermediate, destination_size, block_bytes })
}

/// The packer's side: turns destination bytes (`data`, BC blocks of `block_bytes`) into the
/// source bytes and request that [`decode`] turns back into exactly `data`. Stages run in
/// reverse: swizzle⁻¹, BCPack encode, Deflate. Unlike XBTC it does not fall back to raw
/// when a stage does not shrink the data: the options are what the caller asked for (a
/// zlib stream that does not shrink is an error, as the MDU would refuse it).
pub fn pack(options: RequestOptions, block_bytes: u32, data: &[u8], encoding: Encoding) -> Result<Packed, MduError> {
    let plan = plan(options, block_bytes)?;
    let mut bytes = match plan.swizzle {
        Some((mode, block_bytes)) => swizzle::unapply(mode, block_bytes, data)?,
        None => data.to_vec(),
    };
    if let Some(mode) = plan.bcpack {
        bytes = bcpack::encode(mode, &bytes)?;
    }
    let intermediate_size = bytes.len() as u64;
    if plan.zlib {
        let stream = zlib::deflate(&bytes, encoding.deflate);
        // The MDU's rule: compressed < uncompressed.
        zlib::inflate(&stream, bytes.len())?;
        bytes = stream;
    }
    let request = MduRequest { options, intermediate_size, destination_size: data.len() as u64, block_bytes };
    Ok(Packed { bytes, request })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// BC1-like blocks: a few endpoint pairs and varied selectors, so every stage shrinks.
    fn bc1_tile(seed: u8, blocks: usize) -> Vec<u8> {
        (0..blocks)
            .flat_map(|i| {
                let e = ((i / 7) as u8).wrapping_mul(seed | 1);
                [e, 0x84, e.wrapping_add(9), 0x10, (i as u8) & 0x55, 0xAA, seed, (i >> 3) as u8]
            })
            .collect()
    }

    fn every_option() -> Vec<RequestOptions> {
        let mut all = Vec::new();
        for zlib in [false, true] {
            for bcpack_mode in [0, 1] {
                for swizzle_mode in 0..=SwizzleMode::MAX as u32 {
                    all.push(RequestOptions { zlib, bcpack_mode, swizzle_mode });
                }
            }
        }
        all
    }

    #[test]
    fn every_stage_combination_round_trips_a_tile() {
        let tile = bc1_tile(3, 8192);
        let mut decoded = 0;
        for options in every_option() {
            if options.swizzle_mode == SwizzleMode::Bc3Shuffle as u32
                || options.swizzle_mode == SwizzleMode::Bc5Shuffle as u32
            {
                continue; // 16-byte shuffles of BC1 data: covered by the BC3 case below
            }
            let packed = match pack(options, 8, &tile, Encoding::default()) {
                Ok(p) => p,
                // BCPack's entropy-coded output rarely shrinks under Deflate: the MDU refuses
                // such a stream, so pack does too (the packer then keeps BCPack alone).
                Err(MduError::Zlib(ZlibError::NotSmaller { .. })) if options.bcpack() => continue,
                Err(e) => panic!("{options:?}: {e}"),
            };
            assert_eq!(decode(&packed.request, &packed.bytes).unwrap(), tile, "{options:?}");
            decoded += 1;
        }
        // Every combination without both zlib and BCPack (15) must decode.
        assert!(decoded >= 15, "only {decoded} combinations decoded");
        let bc3: Vec<u8> = bc1_tile(5, 8192).chunks(8).flat_map(|b| [b, b].concat()).collect();
        for swizzle_mode in [2, 4, 5, 6] {
            let options = RequestOptions { zlib: false, bcpack_mode: 3, swizzle_mode };
            let packed = pack(options, 16, &bc3, Encoding::default()).unwrap();
            assert_eq!(decode(&packed.request, &packed.bytes).unwrap(), bc3, "{options:?}");
        }
    }

    #[test]
    fn inferred_requests_match_the_packed_ones() {
        let tile = bc1_tile(9, 8192);
        for options in [
            RequestOptions { zlib: true, bcpack_mode: 0, swizzle_mode: 1 },
            RequestOptions { zlib: false, bcpack_mode: 1, swizzle_mode: 5 },
            RequestOptions { zlib: false, bcpack_mode: 0, swizzle_mode: 0 },
        ] {
            let packed = pack(options, 8, &tile, Encoding::default()).unwrap();
            let inferred = infer_request(options, 8, &packed.bytes).unwrap();
            assert_eq!(inferred.destination_size, packed.request.destination_size, "{options:?}");
            assert_eq!(decode(&inferred, &packed.bytes).unwrap(), tile);
        }
    }

    #[test]
    fn sizes_and_modes_must_match_the_request() {
        let tile = bc1_tile(1, 8192);
        let options = RequestOptions { zlib: false, bcpack_mode: 1, swizzle_mode: 0 };
        let packed = pack(options, 8, &tile, Encoding::default()).unwrap();
        let mut wrong = packed.request;
        wrong.destination_size -= 8;
        assert!(matches!(decode(&wrong, &packed.bytes), Err(MduError::Bcpack(_))));
        let zlib_only = RequestOptions { zlib: true, bcpack_mode: 0, swizzle_mode: 0 };
        let deflated = pack(zlib_only, 8, &tile, Encoding::default()).unwrap();
        let mut wrong = deflated.request;
        wrong.destination_size += 1;
        assert!(matches!(decode(&wrong, &deflated.bytes), Err(MduError::Zlib(_))));
        let mut wrong = packed.request;
        wrong.options.bcpack_mode = 4;
        let e = decode(&wrong, &packed.bytes).unwrap_err();
        assert!(matches!(e, MduError::BcpackModeMismatch { requested: 4, found: 1 }), "{e}");
        let mut wrong = packed.request;
        wrong.options.swizzle_mode = 99;
        assert_eq!(decode(&wrong, &packed.bytes).unwrap_err(), MduError::SwizzleMode(99));
        let raw = MduRequest {
            options: RequestOptions::default(),
            intermediate_size: 0,
            destination_size: 10,
            block_bytes: 8,
        };
        let e = decode(&raw, &[0; 9]).unwrap_err();
        assert!(e.to_string().contains("9 B in") && e.to_string().contains("10 B out"), "{e}");
        let layout = MduRequest {
            options: RequestOptions { zlib: false, bcpack_mode: 0, swizzle_mode: 5 },
            intermediate_size: 0,
            destination_size: 65_536,
            block_bytes: 4,
        };
        assert!(matches!(decode(&layout, &tile), Err(MduError::BlockBytes { .. })));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Random and mutated sources never panic the pipeline, whatever the options.
        #[test]
        fn hostile_sources_never_panic(
            seed in any::<u8>(),
            option in 0usize..28,
            flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 0..6),
            cut in any::<usize>(),
        ) {
            let options = every_option()[option];
            let tile = bc1_tile(seed, 1024);
            let block_bytes = if matches!(options.swizzle_mode, 2 | 4) { 16 } else { 8 };
            if let Ok(packed) = pack(options, block_bytes, &tile, Encoding::default()) {
                let mut bytes = packed.bytes.clone();
                for (at, x) in flips {
                    if !bytes.is_empty() {
                        let i = at % bytes.len();
                        bytes[i] ^= x;
                    }
                }
                bytes.truncate(cut % (bytes.len() + 1));
                let _ = decode(&packed.request, &bytes);
            }
        }
    }
}
