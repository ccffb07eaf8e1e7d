//! Images, packed containers and CSV tables given to the content tools and `sfsim plot`.

use super::Case;

/// A real 64×64 BC1 container, packed by the library, to corrupt one field at a time.
fn container() -> Vec<u8> {
    use sfsim::content::pack::{pack, PackOptions};
    let rgba: Vec<u8> = (0..64 * 64).flat_map(|i: u32| [(i % 64 * 4) as u8, (i / 64 * 4) as u8, 128, 255]).collect();
    let image = sfsim::content::mipgen::Image { width: 64, height: 64, rgba };
    pack(&image, &PackOptions::new(sfsim_models::texture::BcFormat::Bc1), &|| {}).expect("packs").container
}

fn corrupt(at: usize, bytes: &[u8]) -> Vec<u8> {
    let mut c = container();
    c[at..at + bytes.len()].copy_from_slice(bytes);
    c
}

pub fn cases() -> Vec<Case> {
    use sfsim::content::pack::HEADER_BYTES;
    let whole = container();
    vec![
        Case::new("container: cut in half", &["inspect", "c.sfstex"], &["c.sfstex"])
            .file("c.sfstex", whole[..whole.len() / 2].to_vec()),
        Case::new("container: unknown version", &["inspect", "c.sfstex"], &["c.sfstex", "version"])
            .file("c.sfstex", corrupt(8, &[99, 0])),
        Case::new(
            "container: stream offset past the end",
            &["inspect", "c.sfstex"],
            &["c.sfstex", "stream 0 RelativeOffset", "below"],
        )
        .file("c.sfstex", corrupt(HEADER_BYTES, &(1u64 << 40).to_le_bytes())),
        Case::new("container: table hash wrong", &["inspect", "c.sfstex"], &["c.sfstex"])
            .file("c.sfstex", corrupt(HEADER_BYTES + 32, &[0xAA; 8])),
        Case::new(
            "container: pool run over a corrupt file",
            &["run", "s.ron"],
            &["workload.containers[0]", "c.sfstex"],
        )
        .file("c.sfstex", corrupt(8, &[99, 0]))
        .file("s.ron", r#"Scenario(name: "t", duration: "100ms", workload: Pool((containers: ["c.sfstex"])))"#),
        Case::new(
            "image: not an image",
            &["pack", "i.png", "-o", "o.sfstex"],
            &["i.png: not a readable PNG, JPEG or TGA image: the file's bytes match no"],
        )
        .file("i.png", r#"hello"#),
        Case::new(
            "image: truncated png",
            &["pack", "i.png", "-o", "o.sfstex"],
            &["i.png: not a readable PNG, JPEG or TGA image: unexpected end of file"],
        )
        .file("i.png", vec![137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 1, 0]),
        Case::new(
            "image: png declaring 100000 wide",
            &["pack", "i.png", "-o", "o.sfstex", "--format", "bc1"],
            &["i.png: not a readable PNG, JPEG or TGA image: the image is larger than sfsim"],
        )
        .file(
            "i.png",
            vec![
                137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 1, 134, 160, 0, 1, 134, 160, 8, 6, 0,
                0, 0, 168, 82, 11, 200, 0, 0, 0, 11, 73, 68, 65, 84, 120, 156, 99, 96, 64, 5, 0, 0, 16, 0, 1, 57, 189,
                143, 101, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
            ],
        ),
        Case::new(
            "image: missing",
            &["pack", "none.png", "-o", "o.sfstex"],
            &["cannot read none.png: No such file or directory (os error 2)"],
        ),
        Case::new(
            "image: compare missing",
            &["compare", "a.png", "b.png"],
            &["cannot read a.png: No such file or directory (os error 2)"],
        ),
        Case::new(
            "container: not a container",
            &["inspect", "c.sfstex"],
            &["cannot inspect: c.sfstex: magic is 0x68656c6c6f20776f; expected \"SFSIMTEX\" (an"],
        )
        .file("c.sfstex", r#"hello world, not a container at all"#),
        Case::new(
            "container: empty",
            &["inspect", "c.sfstex"],
            &["cannot inspect: c.sfstex: magic is 0x; expected \"SFSIMTEX\" (an sfsim packed"],
        )
        .file("c.sfstex", r#""#),
        Case::new(
            "container: magic only",
            &["inspect", "c.sfstex"],
            &["cannot inspect: c.sfstex: truncated: the header needs 64 B but the file has 8 B"],
        )
        .file("c.sfstex", r#"SFSIMTEX"#),
        Case::new(
            "container: view missing",
            &["view", "none.sfstex", "-o", "v.png"],
            &["cannot read none.sfstex: No such file or directory (os error 2)"],
        ),
        Case::new(
            "container: export bad mip",
            &["export", "none.sfstex", "-o", "v.png", "--mip", "99"],
            &["cannot read none.sfstex: No such file or directory (os error 2)"],
        ),
        Case::new(
            "plot: empty csv",
            &["plot", "p.csv", "--x", "a", "--y", "b"],
            &["p.csv: the CSV is empty (no header line)"],
        )
        .file("p.csv", r#""#),
        Case::new(
            "plot: unknown column",
            &["plot", "p.csv", "--x", "a", "--y", "zz"],
            &["p.csv: no column \"zz\"; the columns are: a, b"],
        )
        .file(
            "p.csv",
            r#"a,b
1,2
"#,
        ),
    ]
}
