//! DDS inputs to `sfsim pack`: broken headers, formats and sizes sfsim does not take, headers
//! that claim more data than the file has, and pack options a DDS (or BC2) cannot take.

use super::Case;
use sfsim_models::texture::{BcFormat, DdsImage};

/// A valid DX10 DDS of `format`, `width` x `height`, with `mips` mips of patterned blocks.
fn good(format: BcFormat, width: u32, height: u32, mips: u32) -> Vec<u8> {
    let image = DdsImage {
        format,
        width,
        height,
        mip_count: mips,
        srgb: false,
        mips: (0..mips)
            .map(|l| {
                let (w, h) = ((width >> l).max(1), (height >> l).max(1));
                (0..format.surface_bytes(w, h)).map(|i| (i * 37) as u8).collect()
            })
            .collect(),
    };
    image.write().expect("a valid image writes")
}

/// A 16x16 BC1 DDS with a full chain, header field at byte `at` set to `value`.
fn bc1_with(at: usize, value: u32) -> Vec<u8> {
    let mut file = good(BcFormat::Bc1, 16, 16, 5);
    file[at..at + 4].copy_from_slice(&value.to_le_bytes());
    file
}

/// `sfsim pack in.dds -o out.sfstex` on `file`, expecting `expect` on stderr.
fn pack(name: &'static str, file: Vec<u8>, expect: &[&'static str]) -> Case {
    Case::new(name, &["pack", "in.dds", "-o", "out.sfstex"], expect).file("in.dds", file)
}

// Header offsets (DDS_HEADER after the 4-byte magic; DDS_HEADER_DXT10 at 128).
const FLAGS: usize = 8;
const HEIGHT: usize = 12;
const WIDTH: usize = 16;
const DEPTH: usize = 24;
const MIP_COUNT: usize = 28;
const PF_FLAGS: usize = 80;
const FOURCC: usize = 84;
const CAPS2: usize = 112;
const DXGI: usize = 128;
const DIMENSION: usize = 132;
const MISC: usize = 136;
const ARRAY_SIZE: usize = 140;

pub fn cases() -> Vec<Case> {
    let full = good(BcFormat::Bc1, 16, 16, 5);
    vec![
        pack(
            "dds truncated header",
            b"DDS |\0\0\0".to_vec(),
            &["in.dds", "DDS file is 8 B", "expected at least 128 B", "124-byte DDS_HEADER"],
        ),
        pack("dds bad magic", bc1_with(0, 0x2053_4443), &["in.dds", "DDS magic is", "expected 0x20534444"]),
        pack("dds bad dwSize", bc1_with(4, 100), &["in.dds", "dwSize is 0x64 (100)", "expected 124"]),
        pack("dds bad FourCC", bc1_with(FOURCC, u32::from_le_bytes(*b"ABCD")), &["FourCC", "\"ABCD\"", "DXT1"]),
        pack("dds bad DXGI format", bc1_with(DXGI, 28), &["in.dds", "DXGI format (dxgiFormat) 28", "70-78"]),
        pack("dds signed BC5", bc1_with(DXGI, 84), &["BC5_SNORM", "signed", "82-83"]),
        pack("dds zero width", bc1_with(WIDTH, 0), &["width (dwWidth) 0 is out of range", "1..=16384"]),
        pack(
            "dds huge width",
            bc1_with(WIDTH, 100_000),
            &["width (dwWidth) 100000 is out of range", "1..=16384", "cap"],
        ),
        pack("dds too many mips", bc1_with(MIP_COUNT, 9), &["dwMipMapCount", "9 is out of range", "1..=5", "16x16"]),
        pack(
            "dds data shorter than the chain",
            full[..full.len() - 10].to_vec(),
            &["in.dds", "expected at least 332 B", "5 mips of a 16x16 Bc1 texture"],
        ),
        pack(
            "dds header claims 16384x16384",
            {
                let mut f = bc1_with(WIDTH, 16_384);
                f[HEIGHT..HEIGHT + 4].copy_from_slice(&16_384u32.to_le_bytes());
                f[MIP_COUNT..MIP_COUNT + 4].copy_from_slice(&15u32.to_le_bytes());
                f
            },
            &["expected at least", "15 mips of a 16384x16384 Bc1 texture"],
        ),
        pack("dds texture array", bc1_with(ARRAY_SIZE, 6), &["texture array (arraySize 6)", "not supported"]),
        pack("dds cube map caps", bc1_with(CAPS2, 0xFE00), &["cube map (dwCaps2", "a 2D texture"]),
        pack("dds cube map misc flag", bc1_with(MISC, 0x4), &["cube map (miscFlag", "a 2D texture"]),
        pack("dds volume caps", bc1_with(CAPS2, 0x20_0000), &["volume texture", "a 2D texture"]),
        pack("dds 3D dimension", bc1_with(DIMENSION, 4), &["volume texture (resourceDimension 4)"]),
        pack("dds 1D dimension", bc1_with(DIMENSION, 2), &["1D texture (resourceDimension 2)"]),
        pack(
            "dds unknown dimension with depth",
            {
                let mut f = bc1_with(DIMENSION, 0);
                f[DEPTH..DEPTH + 4].copy_from_slice(&8u32.to_le_bytes());
                f
            },
            &["resourceDimension 0 (unknown) with dwDepth 8"],
        ),
        pack("dds bad dimension", bc1_with(DIMENSION, 9), &["resourceDimension is 0x9 (9)", "3 (TEXTURE2D)"]),
        pack("dds uncompressed", bc1_with(PF_FLAGS, 0x40), &["uncompressed pixel format", "DDPF_FOURCC"]),
        pack("dds DX10 header cut", full[..140].to_vec(), &["DDS file is 140 B", "DDS_HEADER_DXT10"]),
        pack(
            "dds legacy volume flag",
            {
                let mut f = bc1_with(DEPTH, 4);
                f[FLAGS..FLAGS + 4].copy_from_slice(&0x80_1007u32.to_le_bytes());
                f
            },
            &["volume texture (dwCaps2 0x0, dwDepth 4)"],
        ),
        pack("dds BC6H", good(BcFormat::Bc6h, 8, 8, 4), &["Bc6h", "expected BC1, BC2, BC3, BC4, BC5 or BC7"]),
        Case::new(
            "dds --format disagrees",
            &["pack", "in.dds", "--format", "bc1", "-o", "out.sfstex"],
            &["--format is bc1 but the DDS holds bc7"],
        )
        .file("in.dds", good(BcFormat::Bc7, 8, 8, 4)),
        Case::new(
            "dds bc2 with --rdo-lambda",
            &["pack", "in.dds", "--rdo-lambda", "40", "-o", "out.sfstex"],
            &["--rdo-lambda applies to bc1, bc3, bc4 and bc5", "bc2"],
        )
        .file("in.dds", good(BcFormat::Bc2, 8, 8, 4)),
        Case::new(
            "dds bc2 with --shuffle on",
            &["pack", "in.dds", "--shuffle", "on", "-o", "out.sfstex"],
            &["--shuffle on applies to bc1, bc3, bc4 and bc5", "bc2"],
        )
        .file("in.dds", good(BcFormat::Bc2, 8, 8, 4)),
        Case::new(
            "pack --format bc6h",
            &["pack", "in.png", "--format", "bc6h", "-o", "out.sfstex"],
            &["bc6h", "expected bc1, bc2, bc3, bc4, bc5 or bc7"],
        ),
    ]
}
