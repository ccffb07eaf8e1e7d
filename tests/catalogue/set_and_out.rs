//! `--set` overrides and output folders that cannot be written.

use super::Case;

pub fn cases() -> Vec<Case> {
    const STREAM: &str = "Scenario(name: \"t\", duration: \"100ms\", workload: Stream(()))";
    vec![
        Case::new(
            "set: reuse on a full run",
            &["run", "s.ron", "--set", "workload.render.reuse=Some((frames: 2, max_motion: 8.0))"],
            &["workload.render.reuse: Some((frames: 2, max_motion: 8)) is for Stream workloads with mode: TimingOnly"],
        )
        .file("s.ron", STREAM),
        Case::new(
            "set: reuse frames out of range",
            &[
                "run",
                "s.ron",
                "--set",
                "workload.mode=TimingOnly",
                "--set",
                "workload.render.feedback.writes=Location",
                "--set",
                "workload.render.reuse=Some((frames: 3, max_motion: 8.0))",
            ],
            &["workload.render.reuse.frames: 3 is out of range; expected 2 or 4"],
        )
        .file("s.ron", STREAM),
        Case::new(
            "set: unknown field",
            &["run", "s.ron", "--set", "workload.in_flite=1MiB"],
            &["--set workload.in_flite=1MiB: workload has no field \"in_flite\"; its fields are:"],
        )
        .file("s.ron", super::GOOD_SCENARIO),
        Case::new(
            "set: no equals",
            &["run", "s.ron", "--set", "duration"],
            &["invalid value 'duration' for '--set <PATH=VALUE>': \"duration\" is not of the"],
        )
        .file("s.ron", super::GOOD_SCENARIO),
        Case::new(
            "set: empty path segment",
            &["run", "s.ron", "--set", "hardware..nvme=1"],
            &["invalid value 'hardware..nvme=1' for '--set <PATH=VALUE>': \"hardware..nvme=1\":"],
        )
        .file("s.ron", super::GOOD_SCENARIO),
        Case::new(
            "set: wrong type",
            &["run", "s.ron", "--set", "seed=abc"],
            &["--set seed=abc: invalid type: string \"abc\", expected u64; seed holds 1 now"],
        )
        .file("s.ron", super::GOOD_SCENARIO),
        Case::new(
            "set: null into a size",
            &["run", "s.ron", "--set", "workload.in_flight=None"],
            &["--set workload.in_flight=None: size \"None\" is not a number followed by a unit"],
        )
        .file("s.ron", super::GOOD_SCENARIO),
        Case::new(
            "set: into a value",
            &["run", "s.ron", "--set", "seed.x=1"],
            &["--set seed.x=1: seed is a value, not a section; it has no field \"x\""],
        )
        .file("s.ron", super::GOOD_SCENARIO),
        Case::new(
            "set: out of range",
            &["run", "s.ron", "--set", "hardware.nvme.queue_depth=0"],
            &["--set hardware.nvme.queue_depth=0: hardware.nvme.queue_depth: 0 is out of"],
        )
        .file("s.ron", super::GOOD_SCENARIO),
        Case::new(
            "set: hostile name",
            &["run", "s.ron", "--set", "name=../../etc"],
            &["--set name=../../etc: name: \"../../etc\" is not a valid name: it names the"],
        )
        .file("s.ron", super::GOOD_SCENARIO),
        Case::new(
            "out: a file in the way",
            &["run", "s.ron", "--out", "blocker/run"],
            &["cannot write blocker/run: blocker is a file, not a folder"],
        )
        .file("s.ron", super::GOOD_SCENARIO)
        .file("blocker", r#"x"#),
        Case::new(
            "out: out is a file",
            &["run", "s.ron", "--out", "blocker"],
            &["cannot write blocker: it is a file, not a folder"],
        )
        .file("s.ron", super::GOOD_SCENARIO)
        .file("blocker", r#"x"#),
    ]
}
