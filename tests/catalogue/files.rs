//! Images, packed containers and CSV tables given to the content tools and `sfsim plot`.

use super::Case;

pub fn cases() -> Vec<Case> {
    vec![
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
