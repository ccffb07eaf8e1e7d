//! CLI flags out of range or unknown, and MDU requests (`sfsim mdu`) whose options or bytes are wrong.

use super::Case;

pub fn cases() -> Vec<Case> {
    vec![
        Case::new(
            "mdu: zlib on garbage",
            &["mdu", "in.bin", "out.bin", "--zlib"],
            &["in.bin: not a stream the MDU decodes with these options: zlib stage: zlib"],
        )
        .file("in.bin", r#"not zlib at all"#),
        Case::new(
            "mdu: bcpack on garbage",
            &["mdu", "in.bin", "out.bin", "--bcpack", "bc1"],
            &["in.bin: not a stream the MDU decodes with these options: BCPack stage: BCPack"],
        )
        .file("in.bin", r#"xxxxxxxxxxxxxxxx"#),
        Case::new(
            "mdu: bad swizzle",
            &["mdu", "in.bin", "out.bin", "--swizzle", "sideways"],
            &["invalid value 'sideways' for '--swizzle <MODE>': `sideways` is not a swizzle"],
        )
        .file("in.bin", r#"x"#),
        Case::new(
            "mdu: bad encoder",
            &["mdu", "in.bin", "out.bin", "--pack", "--zlib", "--encoder", "zlib-99"],
            &["invalid value 'zlib-99' for '--encoder <ENCODER>': zlib level 99 is out of"],
        )
        .file("in.bin", r#"x"#),
        Case::new(
            "mdu: layout swizzle without format",
            &["mdu", "in.bin", "out.bin", "--swizzle", "linear-to-morton"],
            &["in.bin: not a stream the MDU decodes with these options: swizzle mode"],
        )
        .file("in.bin", r#"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"#),
        Case::new(
            "mdu: /dev/zero input",
            &["mdu", "/dev/zero", "out.bin", "--zlib"],
            &["cannot read /dev/zero: the file is over the 64 MiB limit for MDU streams"],
        ),
        Case::new(
            "pack: output is a folder",
            &["pack", "{repo}/scenarios/content/textures/ldr-rgb-diffuse.png", "-o", "d", "--format", "bc1"],
            &["cannot write d: it is a folder; name a file"],
        )
        .file("d/x", r#"x"#),
        Case::new(
            "pack: bad format",
            &["pack", "i.png", "-o", "o.sfstex", "--format", "bc9"],
            &["invalid value 'bc9' for '--format <bc1|bc2|bc3|bc4|bc5|bc7>': `bc9` is not a format"],
        )
        .file("i.png", r#"x"#),
        Case::new(
            "pack: rdo lambda negative",
            &[
                "pack",
                "{repo}/scenarios/content/textures/ldr-rgb-diffuse.png",
                "-o",
                "o.sfstex",
                "--format",
                "bc1",
                "--rdo-lambda",
                "-5",
            ],
            &["--rdo-lambda -5 is out of range; expected a finite λ ≥ 0"],
        )
        .file("i.png", r#"x"#),
        Case::new(
            "pack: mipstreams zero",
            &[
                "pack",
                "{repo}/scenarios/content/textures/ldr-rgb-diffuse.png",
                "-o",
                "o.sfstex",
                "--format",
                "bc1",
                "--mipstreams",
                "99",
            ],
            &["{repo}/scenarios/content/textures/ldr-rgb-diffuse.png: --mipstreams: mip"],
        )
        .file("i.png", r#"x"#),
        Case::new(
            "cli: frame on IO scenario",
            &["frame", "s.ron"],
            &["s.ron: sfsim frame needs a Render workload (this scenario's workload is not one)"],
        )
        .file("s.ron", super::GOOD_SCENARIO),
        Case::new(
            "cli: frame textures zero",
            &["frame", "s.ron", "--textures", "0"],
            &["invalid value '0' for '--textures <TEXTURES>': 0 is not in 1..=256"],
        )
        .file("s.ron", super::GOOD_SCENARIO),
        Case::new(
            "cli: regress missing folder",
            &["regress", "--baselines", "nope"],
            &["nope: cannot read: No such file or directory (os error 2)"],
        ),
        Case::new(
            "cli: regress only unknown",
            &["regress", "--baselines", "{repo}/reports/baselines", "--only", "nope"],
            &["--only nope: no baseline nope.json in {repo}/reports/baselines; there are:"],
        ),
        Case::new("cli: unknown flag", &["run", "--frobnicate"], &["unexpected argument '--frobnicate' found"]),
    ]
}
