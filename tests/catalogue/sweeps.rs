//! Sweep files, their flags and `sfsim merge`.

use super::Case;

pub fn cases() -> Vec<Case> {
    vec![
        Case::new("sweep: empty file", &["sweep", "w.ron"], &["w.ron:1:1: Expected opening `(` for struct `Sweep`"])
            .file("w.ron", r#""#),
        Case::new("sweep: no axes", &["sweep", "w.ron"], &["w.ron:1:61: axes: 0 axes; expected 1..=8"])
            .file("w.ron", r#"Sweep(name: "w", base: "{repo}/scenarios/io/quick.ron", axes: [])"#),
        Case::new("sweep: unknown path", &["sweep", "w.ron"], &["w.ron:1:75: axes[0]: workload.nope=1: workload has no field \"nope\"; its fields"])
            .file("w.ron", r#"Sweep(name: "w", base: "{repo}/scenarios/io/quick.ron", axes: [(path: "workload.nope", values: ["1"])])"#),
        Case::new("sweep: base missing", &["sweep", "w.ron"], &["w.ron:1:24: base: cannot read nope.ron: No such file or directory (os error 2)"])
            .file("w.ron", r#"Sweep(name: "w", base: "nope.ron", axes: [(path: "seed", values: ["1"])])"#),
        Case::new("sweep: values and range", &["sweep", "w.ron"], &["w.ron:1:75: axes[0]: axis \"seed\": give exactly one of `values: [...]` or"])
            .file("w.ron", r#"Sweep(name: "w", base: "{repo}/scenarios/io/quick.ron", axes: [(path: "seed", values: ["1"], range: (from: "1", to: "2", steps: 2))])"#),
        Case::new("sweep: range steps zero", &["sweep", "w.ron"], &["w.ron:1:75: axes[0].range.steps: axis \"workload.in_flight\": steps 0 is out of"])
            .file("w.ron", r#"Sweep(name: "w", base: "{repo}/scenarios/io/quick.ron", axes: [(path: "workload.in_flight", range: (from: "1MiB", to: "2MiB", steps: 0))])"#),
        Case::new("sweep: log range from zero", &["sweep", "w.ron"], &["w.ron:1:75: axes[0].range: axis \"workload.in_flight\": a Log range needs both"])
            .file("w.ron", r#"Sweep(name: "w", base: "{repo}/scenarios/io/quick.ron", axes: [(path: "workload.in_flight", range: (from: "0B", to: "2MiB", steps: 3, scale: Log))])"#),
        Case::new("sweep: value out of range", &["sweep", "w.ron"], &["w.ron:1:75: axes[0]: hardware.nvme.queue_depth=0: hardware.nvme.queue_depth: 0"])
            .file("w.ron", r#"Sweep(name: "w", base: "{repo}/scenarios/io/quick.ron", axes: [(path: "hardware.nvme.queue_depth", values: ["0", "8"])])"#),
        Case::new("sweep: hostile name", &["sweep", "w.ron"], &["w.ron:1:7: name: \"..\" is not a valid name: it names the output folder, so it"])
            .file("w.ron", r#"Sweep(name: "..", base: "{repo}/scenarios/io/quick.ron", axes: [(path: "seed", values: ["1"])])"#),
        Case::new("sweep: bad pack option", &["sweep", "w.ron"], &["w.ron:1:75: axes[0].path: axis \"pack.format\" sets a packing option, but the"])
            .file("w.ron", r#"Sweep(name: "w", base: "{repo}/scenarios/io/quick.ron", axes: [(path: "pack.format", values: ["bc9"])])"#),
        Case::new("sweep: jobs zero", &["sweep", "{repo}/scenarios/sweeps/ci-small.ron", "--jobs", "0"], &["--jobs 0 is out of range; expected 1..=1024"]),
        Case::new("sweep: shard 5 of 4", &["sweep", "{repo}/scenarios/sweeps/ci-small.ron", "--shard", "5/4"], &["invalid value '5/4' for '--shard <K/N>': `5/4` is not a shard; expected K/N"]),
        Case::new("sweep: shard zero", &["sweep", "{repo}/scenarios/sweeps/ci-small.ron", "--shard", "0/4"], &["invalid value '0/4' for '--shard <K/N>': `0/4` is not a shard; expected K/N"]),
        Case::new("sweep: vary without values", &["sweep", "{repo}/scenarios/io/quick.ron", "--vary", "seed="], &["--vary seed= lists no values"]),
        Case::new("merge: not shard folders", &["merge", "a", "--out", "m"], &["cannot read a/shard.json (is a a shard's --out?): No such file or directory (os"])
            .file("a/x", r#"1"#),
    ]
}
