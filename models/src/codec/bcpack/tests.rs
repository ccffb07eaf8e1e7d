//! Round trips (random, structured, real fixtures), ratio regression, and hostile input.

use super::*;
use proptest::prelude::*;

/// Encodes with the modelled method forced (so the models run even on incompressible data),
/// and with the public choice; both must decode to the input.
fn round_trip_row(mode: BcpackMode, blocks: &[u8], row: u32) -> usize {
    let modelled = encode_impl(mode, blocks, row, Profile::Small, false).unwrap();
    assert_eq!(Header::read(&modelled).unwrap().method, Method::Modelled);
    assert_eq!(decode(&modelled, blocks.len()).unwrap(), blocks, "{mode:?} modelled round trip");
    if mode.fast_stream_count().is_some() {
        let fast = encode_impl(mode, blocks, row, Profile::Fast, false).unwrap();
        assert_eq!(Header::read(&fast).unwrap().method, Method::Fast);
        assert_eq!(decode(&fast, blocks.len()).unwrap(), blocks, "{mode:?} fast round trip");
        let public = encode_with(mode, blocks, row, Profile::Fast).unwrap();
        assert_eq!(decode(&public, blocks.len()).unwrap(), blocks, "{mode:?} fast round trip");
    }
    let packed = encode_with_row(mode, blocks, row).unwrap();
    assert!(packed.len() <= blocks.len() + Header::read(&packed).unwrap().len(), "{mode:?} grew past stored size");
    let mut out = vec![0xEE; blocks.len()];
    let header = decode_into(&packed, &mut out).unwrap();
    assert_eq!(header.mode, mode);
    assert_eq!(out, blocks, "{mode:?} round trip");
    packed.len()
}

fn round_trip(mode: BcpackMode, blocks: &[u8]) -> usize {
    round_trip_row(mode, blocks, mode.default_row_blocks())
}

fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed | 1;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

/// Sets a 16-byte block's first byte so that it is a BC7 block of `mode` (8 = reserved).
fn force_bc7_mode(block: &mut [u8], mode: u32) {
    block[0] = if mode >= 8 { 0 } else { block[0].checked_shl(mode + 1).unwrap_or(0) | (1 << mode) };
}

/// A unit built like real content: a few prototype blocks, repeated, copied from the
/// left/upper neighbour, or perturbed in one byte (a shared endpoint with new indices…).
fn structured(mode: BcpackMode, blocks: usize, row: usize, seed: u64, bc7_mode: Option<u32>) -> Vec<u8> {
    let bb = mode.block_bytes();
    let mut rng = xorshift(seed);
    let mut protos: Vec<Vec<u8>> = (0..4).map(|_| (0..bb).map(|_| rng() as u8).collect()).collect();
    if let Some(m) = bc7_mode {
        for (i, p) in protos.iter_mut().enumerate() {
            force_bc7_mode(p, if m == 9 { i as u32 * 2 } else { m });
        }
    }
    let mut out = Vec::with_capacity(blocks * bb);
    for i in 0..blocks {
        let r = rng();
        let block: Vec<u8> = match r % 5 {
            0 if i >= 1 => out[(i - 1) * bb..i * bb].to_vec(),
            1 if i >= row => out[(i - row) * bb..(i - row + 1) * bb].to_vec(),
            2 | 3 => {
                let mut b = protos[(r >> 8) as usize % protos.len()].clone();
                // Perturb a byte past the BC7 mode byte so the mode is kept.
                let at = 1 + (r >> 16) as usize % (bb - 1);
                b[at] ^= (r >> 32) as u8 | 1;
                b
            }
            _ => protos[(r >> 8) as usize % protos.len()].clone(),
        };
        out.extend_from_slice(&block);
    }
    out
}

#[test]
fn empty_and_single_block_units_round_trip() {
    for mode in BcpackMode::ALL {
        round_trip(mode, &[]);
        round_trip(mode, &vec![0xA5; mode.block_bytes()]);
        round_trip(mode, &vec![0x00; mode.block_bytes()]);
    }
}

#[test]
fn repeated_blocks_cost_a_fraction_of_a_bit_each() {
    for mode in BcpackMode::ALL {
        let bb = mode.block_bytes();
        let block: Vec<u8> = (0..bb as u8).map(|i| i.wrapping_mul(37) ^ 0x5C).collect();
        let unit: Vec<u8> = block.iter().copied().cycle().take(65_536).collect();
        let size = round_trip(mode, &unit);
        assert!(size < 400, "{mode:?}: 64 KiB of one repeated block packs to {size} B");
    }
}

#[test]
fn every_bc7_mode_and_reserved_blocks_round_trip() {
    for m in 0..=8 {
        let unit = structured(BcpackMode::Bc7, 700, 64, 11 + u64::from(m), Some(m));
        round_trip(BcpackMode::Bc7, &unit);
        let mut rng = xorshift(u64::from(m) + 99);
        let mut random: Vec<u8> = (0..16 * 300).map(|_| rng() as u8).collect();
        for b in random.chunks_mut(16) {
            force_bc7_mode(b, m);
        }
        round_trip(BcpackMode::Bc7, &random);
    }
}

#[test]
fn encode_rejects_partial_blocks_and_bad_rows() {
    let err = encode(BcpackMode::Bc7, &[0; 24]).unwrap_err();
    assert_eq!(err, BcpackError::NotWholeBlocks { len: 24, block_bytes: 16 });
    assert!(err.to_string().contains("24 B") && err.to_string().contains("16-byte"), "{err}");
    assert_eq!(encode_with_row(BcpackMode::Bc1, &[0; 8], 0), Err(BcpackError::BadRowWidth { row_blocks: 0 }));
    assert!(matches!(BcpackMode::from_raw(0), Err(BcpackError::BadMode { mode: 0 })));
    assert!(matches!(BcpackMode::from_raw(8), Err(BcpackError::BadMode { mode: 8 })));
}

#[test]
fn stored_payload_must_match_the_declared_blocks() {
    let mut rng = xorshift(5);
    let blocks: Vec<u8> = (0..32).map(|_| rng() as u8).collect();
    let mut packed = encode(BcpackMode::Bc1, &blocks).unwrap();
    assert_eq!(Header::read(&packed).unwrap().method, Method::Stored, "4 random blocks do not shrink");
    // Declare 3 blocks instead of 4: the payload no longer matches.
    packed[6] = 3;
    assert_eq!(decode(&packed, 24), Err(BcpackError::StoredLength { stored: 32, expected: 24 }));
    let err = decode(&packed, 32).unwrap_err();
    assert!(matches!(err, BcpackError::LengthMismatch { declared: 24, expected: 32, .. }), "{err}");
}

#[test]
fn modes_without_a_fast_model_pack_modelled_and_reject_method_3() {
    for mode in [BcpackMode::Bc2, BcpackMode::Bc6h] {
        let unit = structured(mode, 600, 64, 3, None);
        let packed = encode_with(mode, &unit, 64, Profile::Fast).unwrap();
        assert_eq!(Header::read(&packed).unwrap().method, Method::Modelled, "{mode:?}");
        let mut forged = packed.clone();
        forged[2] = Method::Fast as u8;
        assert_eq!(decode(&forged, unit.len()), Err(BcpackError::BadMethod { method: 3 }), "{mode:?}");
    }
}

#[test]
fn modes_match_formats() {
    for (mode, format) in BcpackMode::ALL.iter().zip(BcFormat::all()) {
        assert_eq!(mode.format(), format);
        assert_eq!(BcpackMode::from_format(format), *mode);
        assert_eq!(*mode as u32, format.bcpack_mode());
        assert_eq!(mode.block_bytes(), format.block_bytes() as usize);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn random_blocks_round_trip(mode in 1u32..=7, blocks in 0usize..400, row in 1u32..150, seed in any::<u64>()) {
        let mode = BcpackMode::from_raw(mode).unwrap();
        let mut rng = xorshift(seed);
        let data: Vec<u8> = (0..blocks * mode.block_bytes()).map(|_| rng() as u8).collect();
        round_trip_row(mode, &data, row);
    }

    /// Blocks drawn from a few prototypes, so copies of the left and upper block (and the
    /// fast decoders' cached row above / left block) cross row starts and ends at any width.
    #[test]
    fn repeated_prototypes_round_trip_at_any_row_width(mode in 1u32..=7, blocks in 1usize..600, row in 1u32..40, protos in 1usize..4, seed in any::<u64>()) {
        let mode = BcpackMode::from_raw(mode).unwrap();
        let mut rng = xorshift(seed);
        let bb = mode.block_bytes();
        let pool: Vec<u8> = (0..protos * bb).map(|_| rng() as u8).collect();
        let data: Vec<u8> = (0..blocks).flat_map(|_| {
            let p = rng() as usize % protos;
            pool[p * bb..(p + 1) * bb].to_vec()
        }).collect();
        round_trip_row(mode, &data, row);
    }

    #[test]
    fn structured_blocks_round_trip_and_shrink(mode in 1u32..=7, blocks in 500usize..1500, seed in any::<u64>(), bc7_mode in 0u32..10) {
        let mode = BcpackMode::from_raw(mode).unwrap();
        let row = mode.default_row_blocks() as usize;
        let data = structured(mode, blocks, row, seed, (mode == BcpackMode::Bc7).then_some(bc7_mode));
        let size = round_trip(mode, &data);
        // Four prototypes, their repeats and one-byte variants carry little information.
        prop_assert!(size < data.len() * 3 / 4, "{:?}: {} -> {}", mode, data.len(), size);
    }

    #[test]
    fn random_bytes_never_panic_the_decoder(bytes in proptest::collection::vec(any::<u8>(), 0..600), len in 0usize..2000) {
        let _ = decode(&bytes, len);
    }

    /// Random payloads behind a well-formed header reach deep into every model; they must
    /// end in an error (bad symbol, overrun or checksum), never a panic.
    #[test]
    fn garbage_streams_behind_a_valid_header_are_rejected(mode in 1u32..=7, fast in any::<bool>(), blocks in 1usize..300, seed in any::<u64>()) {
        let mode = BcpackMode::from_raw(mode).unwrap();
        let mut rng = xorshift(seed);
        let (method, n) = match mode.fast_stream_count() {
            Some(n) if fast => (Method::Fast, n),
            _ => (Method::Modelled, mode.stream_count()),
        };
        let mut out = vec![header::FORMAT_VERSION, mode as u8, method as u8, n as u8];
        out.extend_from_slice(&(mode.default_row_blocks() as u16).to_le_bytes());
        out.extend_from_slice(&(blocks as u32).to_le_bytes());
        out.extend_from_slice(&(rng() as u32).to_le_bytes());
        let lens: Vec<usize> = (0..n).map(|_| 1 + rng() as usize % 700).collect();
        for &l in &lens {
            out.extend_from_slice(&(l as u32).to_le_bytes());
        }
        for &l in &lens {
            // The range coder's streams start with a zero byte; rANS streams have no marker.
            out.push(if method == Method::Fast { rng() as u8 } else { 0 });
            out.extend((1..l).map(|_| rng() as u8));
        }
        prop_assert!(decode(&out, blocks * mode.block_bytes()).is_err());
    }

    /// Flipped, truncated or extended valid streams: an error, or (when the change hit
    /// bytes the decoder never reads) exactly the original blocks.
    #[test]
    fn mutated_streams_error_or_decode_exactly(mode in 1u32..=7, fast in any::<bool>(), seed in any::<u64>(), at in any::<usize>(), xor in 1u8..=255, cut in 0usize..64) {
        let mode = BcpackMode::from_raw(mode).unwrap();
        let data = structured(mode, 500, mode.default_row_blocks() as usize, seed, (mode == BcpackMode::Bc7).then_some(9));
        let profile = if fast { Profile::Fast } else { Profile::Small };
        let packed = encode_with(mode, &data, mode.default_row_blocks(), profile).unwrap();
        let mut flipped = packed.clone();
        let i = at % flipped.len();
        flipped[i] ^= xor;
        if let Ok(out) = decode(&flipped, data.len()) {
            prop_assert_eq!(out, data.clone(), "byte {} flipped yet decoded to different blocks", i);
        }
        let truncated = &packed[..packed.len().saturating_sub(cut + 1)];
        prop_assert!(decode(truncated, data.len()).is_err());
        let mut extended = packed.clone();
        extended.push(0);
        prop_assert!(decode(&extended, data.len()).is_err());
        let mismatch = matches!(decode(&packed, data.len() + mode.block_bytes()), Err(BcpackError::LengthMismatch { .. }));
        prop_assert!(mismatch);
    }
}

/// Real 64 KiB tiles (khronos MIT textures, see tests-data/bcpack/README.md): exact round
/// trip, and packed size at most the measured size plus 1 %, so a modelling regression
/// fails here. The Deflate-only sizes are in the README for comparison.
#[test]
fn fixtures_round_trip_and_keep_their_ratio() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests-data/bcpack");
    // (file, mode, [packed size fast, small (the default)], measured when the models were
    // last tuned)
    let cases = [
        ("bc1-diffuse.bin", BcpackMode::Bc1, FIXTURE_BC1),
        ("bc5-normal.bin", BcpackMode::Bc5, FIXTURE_BC5),
        ("bc7-diffuse.bin", BcpackMode::Bc7, FIXTURE_BC7),
        ("bc7m7-diffuse.bin", BcpackMode::Bc7, FIXTURE_BC7M7),
    ];
    for (file, mode, [fast, small]) in cases {
        let data = std::fs::read(format!("{dir}/{file}")).unwrap();
        assert_eq!(data.len(), 65_536, "{file}");
        let small_size = round_trip(mode, &data);
        assert_eq!(
            Header::read(&encode(mode, &data).unwrap()).unwrap().method,
            Method::Modelled,
            "{file}: the default"
        );
        let fast_packed = encode_with(mode, &data, mode.default_row_blocks(), Profile::Fast).unwrap();
        assert_eq!(Header::read(&fast_packed).unwrap().method, Method::Fast, "{file}");
        assert_eq!(decode(&fast_packed, data.len()).unwrap(), data, "{file} fast");
        let size = fast_packed.len();
        let pc = |n: usize| 100.0 * n as f64 / data.len() as f64;
        eprintln!("{file}: fast {size} B ({:.2} %), small {small_size} B ({:.2} %)", pc(size), pc(small_size));
        assert!(size <= fast + fast / 100, "{file}: fast {size} B, was {fast} B");
        assert!(small_size <= small + small / 100, "{file}: small {small_size} B, was {small} B");
    }
}

const FIXTURE_BC1: [usize; 2] = [24_568, 24_125];
const FIXTURE_BC5: [usize; 2] = [49_101, 44_511];
const FIXTURE_BC7: [usize; 2] = [34_948, 34_785];
const FIXTURE_BC7M7: [usize; 2] = [19_423, 17_423];

/// The exact bytes the encoder writes for each fixture, pinned by length and FNV-1a digest
/// (small, then fast). Decoder speed work must not move them: a change here is a bitstream
/// change, which needs a new `FORMAT_VERSION` (docs/bcpack.md).
#[test]
fn fixture_bitstreams_are_pinned() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests-data/bcpack");
    let fnv =
        |b: &[u8]| b.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &x| (h ^ u64::from(x)).wrapping_mul(0x100_0000_01b3));
    let cases = [
        ("bc1-diffuse.bin", BcpackMode::Bc1, [(24_125, 0x9099_146c_9da1_2e76), (24_568, 0x0106_ae74_b76f_d1cd)]),
        ("bc5-normal.bin", BcpackMode::Bc5, [(44_511, 0x9dd4_4cd5_6bb1_7333), (49_101, 0x3bc9_1c30_e1f2_cd4d)]),
        ("bc7-diffuse.bin", BcpackMode::Bc7, [(34_785, 0x6da2_f8a2_cbc6_4f2a), (34_946, 0x3e3f_1dd3_8375_ed76)]),
        ("bc7m7-diffuse.bin", BcpackMode::Bc7, [(17_423, 0x60c4_e5ea_3071_a38a), (19_425, 0xd486_f77b_acc9_1632)]),
    ];
    for (file, mode, pins) in cases {
        let data = std::fs::read(format!("{dir}/{file}")).unwrap();
        for (profile, (len, digest)) in [Profile::Small, Profile::Fast].into_iter().zip(pins) {
            let packed = encode_with(mode, &data, mode.default_row_blocks(), profile).unwrap();
            assert_eq!((packed.len(), fnv(&packed)), (len, digest), "{file} {profile:?}");
            assert_eq!(decode(&packed, data.len()).unwrap(), data, "{file} {profile:?}");
        }
    }
}

/// A version-1 container (what the previous encoder wrote, whatever its method) is refused
/// with an error naming the version found and the one expected, before any payload is read.
#[test]
fn old_version_containers_are_refused_by_name() {
    let data = structured(BcpackMode::Bc1, 600, 128, 7, None);
    for profile in [Profile::Small, Profile::Fast] {
        let mut packed = encode_with(BcpackMode::Bc1, &data, 128, profile).unwrap();
        assert_eq!(packed[0], FORMAT_VERSION);
        packed[0] = 1;
        let err = decode(&packed, data.len()).unwrap_err();
        assert_eq!(err, BcpackError::UnsupportedVersion { found: 1, expected: 2 });
        let msg = err.to_string();
        assert!(msg.contains("version 1") && msg.contains("version 2"), "{msg}");
    }
    // Version 1's fast method (2) does not exist in version 2.
    let mut packed =
        encode_with(BcpackMode::Bc7, &structured(BcpackMode::Bc7, 300, 64, 3, Some(9)), 64, Profile::Fast).unwrap();
    packed[2] = 2;
    assert_eq!(Header::read(&packed), Err(BcpackError::BadMethod { method: 2 }));
}

/// One container of every method each mode has (modelled, stored, fast) decodes exactly.
#[test]
fn a_container_of_each_method_decodes() {
    for mode in BcpackMode::ALL {
        let data =
            structured(mode, 700, mode.default_row_blocks() as usize, 21, (mode == BcpackMode::Bc7).then_some(9));
        let mut rng = xorshift(4);
        let noise: Vec<u8> = (0..mode.block_bytes() * 40).map(|_| rng() as u8).collect();
        let mut cases = vec![
            (Method::Modelled, encode_with(mode, &data, mode.default_row_blocks(), Profile::Small).unwrap(), &data),
            (Method::Stored, encode(mode, &noise).unwrap(), &noise),
        ];
        if mode.fast_stream_count().is_some() {
            cases.push((
                Method::Fast,
                encode_with(mode, &data, mode.default_row_blocks(), Profile::Fast).unwrap(),
                &data,
            ));
        }
        for (method, packed, want) in cases {
            assert_eq!(Header::read(&packed).unwrap().method, method, "{mode:?}");
            assert_eq!(&decode(&packed, want.len()).unwrap(), want, "{mode:?} {method:?}");
        }
    }
}
