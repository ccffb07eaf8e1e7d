//! The reader's and writer's tests: round trips, texconv's header fields, what other tools
//! write (legacy FourCCs, unknown dimension, trailing bytes, partial chains), every refusal.

use super::codes::*;
use super::layout::*;
use super::*;
use crate::texture::MAX_DIMENSION;
use proptest::prelude::*;

/// A deterministic, non-constant image of `format` with a full or partial mip chain.
fn image(format: BcFormat, width: u32, height: u32, mip_count: u32, srgb: bool) -> DdsImage {
    let mips = (0..mip_count)
        .map(|l| {
            let n = mip_bytes(format, width, height, l) as usize;
            (0..n).map(|i| (i * 31 + l as usize * 7) as u8).collect()
        })
        .collect();
    DdsImage { format, width, height, mip_count, srgb, mips }
}

fn u32_at(file: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(file[at..at + 4].try_into().unwrap())
}

fn set_u32(file: &mut [u8], at: usize, v: u32) {
    file[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// A legacy (no DX10 header) file as older tools write it: FourCC, LINEARSIZE, mips.
fn legacy(code: &[u8; 4], format: BcFormat, width: u32, height: u32, mip_count: u32) -> Vec<u8> {
    let dx10 = image(format, width, height, mip_count, false).write().unwrap();
    let mut file = dx10[..BASE_BYTES].to_vec();
    set_u32(&mut file, 84, fourcc(code));
    file.extend_from_slice(&dx10[BASE_BYTES + DX10_BYTES..]);
    file
}

#[test]
fn every_format_round_trips_with_mips() {
    for format in BcFormat::all() {
        for srgb in [false, true] {
            if srgb && to_dxgi(format, true).is_err() {
                continue;
            }
            for (w, h, mips) in [(1, 1, 1), (13, 7, 4), (64, 16, 7), (256, 256, 9), (5, 300, 3)] {
                let img = image(format, w, h, mips, srgb);
                let file = img.write().unwrap();
                assert_eq!(DdsImage::read(&file).unwrap().image, img, "{format:?} srgb {srgb} {w}x{h} {mips}");
            }
        }
    }
}

#[test]
fn header_fields_are_the_ones_texconv_writes() {
    let img = image(BcFormat::Bc1, 256, 128, 1, false);
    let file = img.write().unwrap();
    assert_eq!(&file[0..4], b"DDS ");
    assert_eq!(u32_at(&file, 4), 124);
    assert_eq!(u32_at(&file, 8), 0x000A_1007, "dwFlags");
    assert_eq!((u32_at(&file, 12), u32_at(&file, 16)), (128, 256), "dwHeight, dwWidth");
    assert_eq!(u32_at(&file, 20), 64 * 32 * 8, "dwPitchOrLinearSize = bytes of mip 0");
    assert_eq!((u32_at(&file, 24), u32_at(&file, 28)), (0, 1), "dwDepth, dwMipMapCount");
    assert!(file[32..76].iter().all(|&b| b == 0), "dwReserved1");
    assert_eq!((u32_at(&file, 76), u32_at(&file, 80)), (32, 0x4), "ddspf size, DDPF_FOURCC");
    assert_eq!(&file[84..88], b"DX10");
    assert!(file[88..108].iter().all(|&b| b == 0), "RGB bit count and masks");
    assert_eq!(u32_at(&file, 108), 0x1000, "dwCaps = DDSCAPS_TEXTURE");
    assert!(file[112..128].iter().all(|&b| b == 0), "dwCaps2..4, dwReserved2");
    let dx10: Vec<u32> = (0..5).map(|i| u32_at(&file, 128 + 4 * i)).collect();
    assert_eq!(dx10, vec![71, 3, 0, 1, 0], "BC1_UNORM, TEXTURE2D, misc 0, arraySize 1, alpha unknown");
    assert_eq!(file.len(), 148 + 64 * 32 * 8);

    let file = image(BcFormat::Bc7, 300, 200, 9, true).write().unwrap();
    assert_eq!(u32_at(&file, 20), 75 * 50 * 16);
    assert_eq!(u32_at(&file, 28), 9);
    assert_eq!(u32_at(&file, 108), 0x0040_1008, "TEXTURE | COMPLEX | MIPMAP");
    assert_eq!(u32_at(&file, 128), 99, "BC7_UNORM_SRGB");
    let dxgi: Vec<u32> =
        BcFormat::all().into_iter().map(|f| u32_at(&image(f, 4, 4, 1, false).write().unwrap(), 128)).collect();
    assert_eq!(dxgi, vec![71, 74, 77, 80, 83, 95, 98]);
}

#[test]
fn legacy_fourccs_read() {
    for (code, format) in [
        (b"DXT1", BcFormat::Bc1),
        (b"DXT3", BcFormat::Bc2),
        (b"DXT5", BcFormat::Bc3),
        (b"ATI1", BcFormat::Bc4),
        (b"BC4U", BcFormat::Bc4),
        (b"ATI2", BcFormat::Bc5),
        (b"BC5U", BcFormat::Bc5),
    ] {
        let want = image(format, 40, 24, 3, false);
        let file = legacy(code, format, 40, 24, 3);
        assert_eq!(DdsImage::read(&file).unwrap().image, want, "{}", String::from_utf8_lossy(code));
    }
    // Writers that leave dwMipMapCount 0 and the flags empty still mean one mip.
    let mut file = legacy(b"DXT1", BcFormat::Bc1, 8, 8, 1);
    set_u32(&mut file, 28, 0);
    set_u32(&mut file, 8, 0);
    assert_eq!(DdsImage::read(&file).unwrap().image.mip_count, 1);
}

#[test]
fn legacy_headers_write_the_fourcc_and_read_back() {
    for (format, code) in [
        (BcFormat::Bc1, b"DXT1"),
        (BcFormat::Bc2, b"DXT3"),
        (BcFormat::Bc3, b"DXT5"),
        (BcFormat::Bc4, b"ATI1"),
        (BcFormat::Bc5, b"ATI2"),
    ] {
        let img = image(format, 40, 24, 3, false);
        let file = img.write_legacy().unwrap();
        assert_eq!(&file[84..88], code);
        assert_eq!(file, legacy(code, format, 40, 24, 3));
        assert_eq!(DdsImage::read(&file).unwrap().image, img);
    }
    let srgb = image(BcFormat::Bc1, 8, 8, 1, true);
    assert!(!DdsImage::read(&srgb.write_legacy().unwrap()).unwrap().image.srgb, "a DX9 header cannot say sRGB");
    for format in [BcFormat::Bc6h, BcFormat::Bc7] {
        assert_eq!(image(format, 8, 8, 1, false).write_legacy(), Err(DdsError::NoFourcc { format }));
    }
}

#[test]
fn typeless_reads_as_unorm() {
    let mut file = image(BcFormat::Bc3, 8, 8, 1, false).write().unwrap();
    set_u32(&mut file, 128, 76);
    let img = DdsImage::read(&file).unwrap().image;
    assert_eq!((img.format, img.srgb), (BcFormat::Bc3, false));
}

#[test]
fn corrupt_and_unsupported_files_name_the_field() {
    let good = image(BcFormat::Bc1, 16, 16, 2, false).write().unwrap();
    let with = |at: usize, v: u32| {
        let mut f = good.clone();
        set_u32(&mut f, at, v);
        DdsImage::read(&f).unwrap_err()
    };
    assert_eq!(with(0, 0x1234).to_string(), "DDS magic is 0x1234 (4660); expected 0x20534444 (\"DDS \")");
    assert!(matches!(with(4, 128), DdsError::Field { field: "dwSize", found: 128, .. }));
    assert!(matches!(with(76, 0), DdsError::Field { field: "ddspf.dwSize", found: 0, .. }));
    assert!(matches!(with(132, 7), DdsError::Field { field: "resourceDimension", found: 7, .. }));
    assert!(with(132, 4).to_string().contains("volume texture (resourceDimension 4)"));
    assert!(with(132, 2).to_string().contains("1D texture (resourceDimension 2)"));
    assert!(with(140, 6).to_string().contains("texture array (arraySize 6)"));
    assert!(matches!(with(136, MISC_TEXTURECUBE), DdsError::Unsupported { .. }));
    assert!(matches!(with(112, DDSCAPS2_CUBEMAP), DdsError::Unsupported { .. }));
    assert!(matches!(with(112, DDSCAPS2_VOLUME), DdsError::Unsupported { .. }));
    assert!(matches!(with(80, 0x40), DdsError::Unsupported { .. }), "RGB pixel format");
    assert!(with(128, 28).to_string().contains("DXGI format (dxgiFormat) 28"));
    assert!(with(128, 81).to_string().contains("BC4_SNORM"));
    assert!(with(128, 84).to_string().contains("BC5_SNORM"));
    assert!(with(84, fourcc(b"BC4S")).to_string().contains("\"BC4S\""));
    let width = |value| DdsError::Dimension { axis: "width", field: "Width", value, max: MAX_DIMENSION };
    assert_eq!(with(16, 0), width(0));
    assert_eq!(with(16, u32::MAX), width(u32::MAX));
    assert_eq!(
        with(12, 20_000).to_string(),
        "DDS height (dwHeight) 20000 is out of range; expected 1..=16384 texels (sfsim's cap per side)"
    );
    assert_eq!(with(28, 6), DdsError::MipCount { value: 6, max: 5, width: 16, height: 16 });
}

#[test]
fn trailing_bytes_are_ignored_with_a_warning() {
    let img = image(BcFormat::Bc1, 16, 16, 2, false);
    let mut file = img.write().unwrap();
    file.extend_from_slice(&[0xAB; 123]);
    let read = DdsImage::read(&file).unwrap();
    assert_eq!(read.image, img);
    assert_eq!(read.warnings, vec![DdsWarning::TrailingBytes { bytes: 123, expected: 148 + 128 + 32, mips: 2 }]);
    assert!(read.warnings[0].to_string().starts_with("123 trailing bytes after the last mip ignored"));
    // A header that under-counts its mips leaves the rest as trailing bytes: mip 0 is read.
    set_u32(&mut file, 28, 1);
    let read = DdsImage::read(&file).unwrap();
    assert_eq!((read.image.mip_count, &read.image.mips[0]), (1, &img.mips[0]));
    assert_eq!(read.warnings, vec![DdsWarning::TrailingBytes { bytes: 32 + 123, expected: 148 + 128, mips: 1 }]);
    // A file written to the guide warns about nothing.
    assert!(DdsImage::read(&img.write().unwrap()).unwrap().warnings.is_empty());
}

#[test]
fn unknown_resource_dimension_reads_as_2d_when_the_header_says_so() {
    let img = image(BcFormat::Bc7, 64, 32, 3, true);
    let mut file = img.write().unwrap();
    set_u32(&mut file, 132, 0);
    let read = DdsImage::read(&file).unwrap();
    assert_eq!(read.image, img);
    assert_eq!(read.warnings, vec![DdsWarning::UnknownDimension { width: 64, height: 32, depth: 0 }]);
    set_u32(&mut file, 24, 1); // dwDepth 1 is still one slice
    assert_eq!(DdsImage::read(&file).unwrap().image, img);
    // With a depth it would be a volume: refused, naming both fields.
    set_u32(&mut file, 24, 4);
    let err = DdsImage::read(&file).unwrap_err().to_string();
    assert!(err.contains("resourceDimension 0 (unknown) with dwDepth 4"), "{err}");
    // A height-1 texture is the 1D case, laid out like a 2D one: read.
    let row = image(BcFormat::Bc4, 256, 1, 9, false);
    let mut file = row.write().unwrap();
    set_u32(&mut file, 132, 0);
    assert_eq!(DdsImage::read(&file).unwrap().image, row);
}

#[test]
fn array_size_0_reads_as_one_texture() {
    // As Pillow 13 writes every DX10 file: arraySize 0, single mip.
    let img = image(BcFormat::Bc5, 20, 12, 1, false);
    let mut file = img.write().unwrap();
    set_u32(&mut file, 140, 0);
    let read = DdsImage::read(&file).unwrap();
    assert_eq!((read.image, read.warnings), (img, vec![DdsWarning::ZeroArraySize]));
}

#[test]
fn partial_mip_chains_read_as_given() {
    // A BC7 DDS with mip 0 only, as many exporters write it by default.
    for mips in [1, 4, 9] {
        let img = image(BcFormat::Bc7, 256, 128, mips, true);
        let read = DdsImage::read(&img.write().unwrap()).unwrap();
        assert!(read.warnings.is_empty());
        assert_eq!(read.image, img);
        assert_eq!(read.image.full_chain(), 9);
    }
}

#[test]
fn a_header_larger_than_the_file_is_refused_before_allocating() {
    // 16384x16384 BC7 with a full chain claims ~358 MiB; the file has a few bytes.
    let mut file = image(BcFormat::Bc7, 4, 4, 1, false).write().unwrap();
    set_u32(&mut file, 12, 16_384);
    set_u32(&mut file, 16, 16_384);
    set_u32(&mut file, 28, 15);
    let err = DdsImage::read(&file).unwrap_err();
    let want = DdsError::Truncated {
        what: "15 mips of a 16384x16384 Bc7 texture (dwMipMapCount 15)".to_string(),
        expected: 148 + (0..15).map(|l| mip_bytes(BcFormat::Bc7, 16_384, 16_384, l)).sum::<u64>(),
        found: 164,
    };
    assert_eq!(err, want);
}

#[test]
fn every_truncation_is_an_error() {
    let file = image(BcFormat::Bc5, 12, 12, 3, false).write().unwrap();
    for len in 0..file.len() {
        let err = DdsImage::read(&file[..len]).unwrap_err();
        assert!(matches!(err, DdsError::Truncated { .. }), "{len}: {err}");
    }
    let err = DdsImage::read(&file[..150]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "DDS file is 150 B; expected at least 372 B to hold 3 mips of a 12x12 Bc5 texture (dwMipMapCount 3)"
    );
}

#[test]
fn writer_refuses_inconsistent_images() {
    let mut img = image(BcFormat::Bc4, 16, 8, 2, false);
    img.srgb = true;
    assert_eq!(img.write(), Err(DdsError::NoSrgb { format: BcFormat::Bc4 }));
    img.srgb = false;
    img.mip_count = 3;
    assert_eq!(img.write(), Err(DdsError::MipList { mip_count: 3, found: 2 }));
    img.mip_count = 6;
    assert!(matches!(img.write(), Err(DdsError::MipCount { value: 6, max: 5, .. })));
    img.mip_count = 2;
    img.mips[1].pop();
    assert_eq!(
        img.write(),
        Err(DdsError::MipLength { level: 1, width: 8, height: 4, format: BcFormat::Bc4, expected: 16, found: 15 })
    );
    img.width = 0;
    assert!(matches!(img.write(), Err(DdsError::Dimension { axis: "width", .. })));
}

proptest! {
    #[test]
    fn mutated_files_never_panic(
        fmt in 0usize..7, w in 1u32..70, h in 1u32..70, edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..8),
        cut in any::<usize>(),
    ) {
        let format = BcFormat::all()[fmt];
        let mips = max_mips(w, h);
        let mut file = image(format, w, h, mips, false).write().unwrap();
        // Mostly hit the header, where the decisions are.
        for (at, v) in edits {
            let at = if at % 4 == 0 { at % file.len() } else { at % 148.min(file.len()) };
            file[at] = v;
        }
        if cut % 3 == 0 {
            file.truncate(cut % (file.len() + 1));
        }
        if let Ok(DdsRead { image: img, .. }) = DdsImage::read(&file) {
            // Whatever was accepted is self-consistent and writes back.
            prop_assert_eq!(img.mips.len(), img.mip_count as usize);
            prop_assert_eq!(DdsImage::read(&img.write().unwrap()).unwrap().image, img);
        }
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400), dx10 in any::<bool>()) {
        let mut file = bytes;
        if file.len() >= 88 {
            file[0..4].copy_from_slice(b"DDS ");
            set_u32(&mut file, 4, 124);
            set_u32(&mut file, 76, 32);
            if dx10 {
                file[84..88].copy_from_slice(b"DX10");
            }
        }
        let _ = DdsImage::read(&file);
    }
}
