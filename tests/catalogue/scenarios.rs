//! Scenario files: syntax, types, units, ranges, products of fields over their caps, hostile names, unreadable files.

use super::Case;

pub fn cases() -> Vec<Case> {
    vec![
        Case::new("scenario: empty file", &["run", "s.ron"], &["s.ron:1:1: Expected opening `(` for struct `Scenario`"])
            .file("s.ron", r#""#),
        Case::new("scenario: not RON", &["run", "s.ron"], &["s.ron:1:1: Expected opening `(` for struct `Scenario`"])
            .file("s.ron", r#"{"name": 1}"#),
        Case::new("scenario: binary bytes", &["run", "s.ron"], &["s.ron: cannot read: not UTF-8 text (byte 0 is not valid UTF-8)"])
            .file("s.ron", vec![255,254,0,1]),
        Case::new("scenario: missing workload", &["run", "s.ron"], &["s.ron:1:19: Unexpected missing field `workload` in `Scenario`"])
            .file("s.ron", r#"Scenario(name: "t")"#),
        Case::new("scenario: unknown workload", &["run", "s.ron"], &["s.ron:4:17: Unexpected variant named `Disk`in enum `Workload`, expected one of"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Disk(()),
)
"#),
        Case::new("scenario: name dot-dot", &["run", "s.ron"], &["s.ron:2:3: name: \"..\" is not a valid name: it names the output folder, so it"])
            .file("s.ron", r#"Scenario(
  name: "..",
  duration: "100ms",
  workload: Io(()),
)
"#),
        Case::new("scenario: name with slash", &["run", "s.ron"], &["s.ron:2:3: name: \"a/b\" is not a valid name: it names the output folder, so it"])
            .file("s.ron", r#"Scenario(
  name: "a/b",
  duration: "100ms",
  workload: Io(()),
)
"#),
        Case::new("scenario: name hidden", &["run", "s.ron"], &["s.ron:2:3: name: \".git\" is not a valid name: it names the output folder, so it"])
            .file("s.ron", r#"Scenario(
  name: ".git",
  duration: "100ms",
  workload: Io(()),
)
"#),
        Case::new("scenario: name too long", &["run", "s.ron"], &["s.ron:2:3: name:"])
            .file("s.ron", r#"Scenario(
  name: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
  duration: "100ms",
  workload: Io(()),
)
"#),
        Case::new("scenario: empty name", &["run", "s.ron"], &["s.ron:2:3: name: \"\" is not a valid name: it names the output folder, so it must"])
            .file("s.ron", r#"Scenario(
  name: "",
  duration: "100ms",
  workload: Io(()),
)
"#),
        Case::new("scenario: duration zero", &["run", "s.ron"], &["s.ron:3:3: duration: 0s is out of range; expected 1ms..=1h"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "0s",
  workload: Io(()),
)
"#),
        Case::new("scenario: duration 2h", &["run", "s.ron"], &["s.ron:3:3: duration: 7200s is out of range; expected 1ms..=1h"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "2h",
  workload: Io(()),
)
"#),
        Case::new("scenario: negative duration", &["run", "s.ron"], &["s.ron:3:18: duration \"-1s\" is not a number followed by a unit (e.g. \"250ms\")"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "-1s",
  workload: Io(()),
)
"#),
        Case::new("scenario: duration huge number", &["run", "s.ron"], &["s.ron:3:36: duration \"99999999999999999999s\" is too large (maximum"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "99999999999999999999s",
  workload: Io(()),
)
"#),
        Case::new("scenario: seed negative", &["run", "s.ron"], &["s.ron:3:9: Expected integer"])
            .file("s.ron", r#"Scenario(
  name: "t",
  seed: -1,
  duration: "100ms",
  workload: Io(()),
)
"#),
        Case::new("scenario: queue depth zero", &["run", "s.ron"], &["s.ron:4:21: hardware.nvme.queue_depth: 0 is out of range; expected 1..=65536"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  hardware: (nvme: (queue_depth: 0)),
  workload: Io(()),
)
"#),
        Case::new("scenario: peak below guarantee", &["run", "s.ron"], &["s.ron:4:21: hardware.nvme.peak: 1GB/s is below guaranteed 2GB/s; expected peak"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  hardware: (nvme: (peak: "1000MB/s")),
  workload: Io(()),
)
"#),
        Case::new("scenario: zero MDU units", &["run", "s.ron"], &["s.ron:4:20: hardware.mdu.units: 0 is out of range; expected 1..=64"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  hardware: (mdu: (units: 0)),
  workload: Io(()),
)
"#),
        Case::new("scenario: staging zero", &["run", "s.ron"], &["s.ron:4:14: hardware.staging: 0B is smaller than one IO (hardware.nvme.max_io ="])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  hardware: (staging: "0B"),
  workload: Io(()),
)
"#),
        Case::new("scenario: rate without unit", &["run", "s.ron"], &["s.ron:4:33: rate \"2400\" has no unit; write it with one of B/s, KB/s, MB/s,"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  hardware: (nvme: (peak: "2400")),
  workload: Io(()),
)
"#),
        Case::new("scenario: stall every picosecond", &["run", "s.ron"], &["s.ron:4:21: hardware.nvme.stalls: duration 100ms ÷ stall period 1ps ="])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  hardware: (nvme: (stalls: Periodic(every: "1ps", length: "0ps"))),
  workload: Io(()),
)
"#),
        Case::new("scenario: stall longer than period", &["run", "s.ron"], &["s.ron:4:21: hardware.nvme.stalls: Periodic every 1ms length 2ms: expected every"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  hardware: (nvme: (stalls: Periodic(every: "1ms", length: "2ms"))),
  workload: Io(()),
)
"#),
        Case::new("scenario: billions of tiny requests", &["run", "s.ron"], &["s.ron:4:74: workload.in_flight: workload.in_flight 16GiB ÷ the smallest"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Io((stream: Fixed("2B"), ratio: 1.0, options: (zlib: false), in_flight: "16GiB", cadence: "1us")),
)
"#),
        Case::new("scenario: an hour of 1us cadence", &["run", "s.ron"], &["s.ron:4:17: workload.cadence: duration 3600s ÷ workload.cadence 1us ="])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "1h",
  workload: Io((cadence: "1us")),
)
"#),
        Case::new("scenario: in flight zero", &["run", "s.ron"], &["s.ron:4:17: workload.in_flight: 0B is out of range; expected 1B..=16GiB"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Io((in_flight: "0B")),
)
"#),
        Case::new("scenario: stream 1GiB", &["run", "s.ron"], &["s.ron:4:17: workload.stream: sizes 1GiB..=1GiB are out of range; expected"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Io((stream: Fixed("1GiB"))),
)
"#),
        Case::new("scenario: ratio NaN", &["run", "s.ron"], &["s.ron:4:17: workload.ratio: NaN is out of range; expected > 1 and ≤ 10000 when"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Io((ratio: NaN)),
)
"#),
        Case::new("scenario: empty Choice", &["run", "s.ron"], &["s.ron:4:17: workload.stream: Choice needs at least one size"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Io((stream: Choice([]))),
)
"#),
        Case::new("scenario: bcpack mode 9", &["run", "s.ron"], &["s.ron:4:39: workload.options.bcpack_mode: 9 is out of range; expected 0..=7"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Io((options: (zlib: true, bcpack_mode: 9, swizzle_mode: 0))),
)
"#),
        Case::new("scenario: swizzle mode 99", &["run", "s.ron"], &["s.ron:4:55: workload.options.swizzle_mode: 99 is out of range; expected 0..=6"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Io((options: (zlib: true, bcpack_mode: 0, swizzle_mode: 99))),
)
"#),
        Case::new("scenario: 16k render every pixel", &["run", "s.ron"], &["s.ron:4:124: workload.render.resolution: workload.render.resolution (16384,"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Render((camera: Generator(Orbit(center: (0.0, 0.0, 0.0), radius: 30.0, height: 8.0, period_s: 20.0)), render: (resolution: (16384, 16384), feedback: (one_in: 1)))),
)
"#),
        Case::new("scenario: resolution zero", &["run", "s.ron"], &["s.ron:4:124: workload.render.resolution: (0, 1080) is out of range; expected"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Render((camera: Generator(Orbit(center: (0.0, 0.0, 0.0), radius: 30.0, height: 8.0, period_s: 20.0)), render: (resolution: (0, 1080)))),
)
"#),
        Case::new("scenario: one_in not a power of two", &["run", "s.ron"], &["s.ron:4:135: workload.render.feedback.one_in: 3 must be a power of two in"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Render((camera: Generator(Orbit(center: (0.0, 0.0, 0.0), radius: 30.0, height: 8.0, period_s: 20.0)), render: (feedback: (one_in: 3)))),
)
"#),
        Case::new("scenario: frame rate zero", &["run", "s.ron"], &["s.ron:4:115: workload.frame_rate: 0 is out of range; expected 1..=1000 frames"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Render((camera: Generator(Orbit(center: (0.0, 0.0, 0.0), radius: 30.0, height: 8.0, period_s: 20.0)), frame_rate: 0)),
)
"#),
        Case::new("scenario: texture size not power of two", &["run", "s.ron"], &["s.ron:4:204: workload.scene.texture_sets.size: 1000 is out of range; expected a"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Render((camera: Generator(Orbit(center: (0.0, 0.0, 0.0), radius: 30.0, height: 8.0, period_s: 20.0)), scene: (objects: [CubeGrid(count: 1, spacing: 1.0, size: 1.0)], texture_sets: (count: 1, size: 1000, diffuse: Bc1, normal: Bc5, specular: Bc1)))),
)
"#),
        Case::new("scenario: too many tiles", &["run", "s.ron"], &["s.ron:4:194: workload.scene.texture_sets.count:"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Render((camera: Generator(Orbit(center: (0.0, 0.0, 0.0), radius: 30.0, height: 8.0, period_s: 20.0)), scene: (objects: [CubeGrid(count: 1, spacing: 1.0, size: 1.0)], texture_sets: (count: 4096, size: 16384, diffuse: Bc7, normal: Bc7, specular: Bc7)))),
)
"#),
        Case::new("scenario: no objects", &["run", "s.ron"], &["s.ron:4:123: workload.scene.objects: the scene needs at least one object group"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Render((camera: Generator(Orbit(center: (0.0, 0.0, 0.0), radius: 30.0, height: 8.0, period_s: 20.0)), scene: (objects: []))),
)
"#),
        Case::new("scenario: negative sphere radius", &["run", "s.ron"], &["s.ron:4:151: workload.scene.objects[0].radius: -1 is out of range; expected > 0"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Render((camera: Generator(Orbit(center: (0.0, 0.0, 0.0), radius: 30.0, height: 8.0, period_s: 20.0)), scene: (objects: [Spheres(count: 3, radius: -1.0, spread: 5.0, seed: 1)]))),
)
"#),
        Case::new("scenario: camera file missing", &["run", "s.ron"], &["s.ron: run failed: camera: nope.csv: cannot read: No such file or directory (os"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Render((camera: Recorded("nope.csv"))),
)
"#),
        Case::new("scenario: engine pool 1KiB", &["run", "s.ron"], &["s.ron:4:124: workload.engine.pool: 1KiB is out of range; expected 64KiB..=64GiB"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Stream((camera: Generator(Orbit(center: (0.0, 0.0, 0.0), radius: 30.0, height: 8.0, period_s: 20.0)), engine: (pool: "1KiB"))),
)
"#),
        Case::new("scenario: engine cpu cost an hour", &["run", "s.ron"], &["s.ron:4:130: workload.engine.cpu.analysis_per_texel: 3600s is out of range;"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Stream((camera: Generator(Orbit(center: (0.0, 0.0, 0.0), radius: 30.0, height: 8.0, period_s: 20.0)), engine: (cpu: (analysis_per_texel: "60min")))),
)
"#),
        Case::new("scenario: readback frames 99", &["run", "s.ron"], &["s.ron:4:124: workload.engine.readback_frames: 99 is out of range; expected"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Stream((camera: Generator(Orbit(center: (0.0, 0.0, 0.0), radius: 30.0, height: 8.0, period_s: 20.0)), engine: (readback_frames: 99))),
)
"#),
        Case::new("scenario: upload cap zero", &["run", "s.ron"], &["s.ron:4:124: workload.engine.upload_cap: 0 would never load a tile; expected ≥"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Stream((camera: Generator(Orbit(center: (0.0, 0.0, 0.0), radius: 30.0, height: 8.0, period_s: 20.0)), engine: (upload_cap: Some(0)))),
)
"#),
        Case::new("scenario: 17 background titles", &["run", "s.ron"], &["s.ron:4:115: workload.background: 17 titles is out of range; expected at most 16"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Stream((camera: Generator(Orbit(center: (0.0, 0.0, 0.0), radius: 30.0, height: 8.0, period_s: 20.0)), background: [(),(),(),(),(),(),(),(),(),(),(),(),(),(),(),(),(),])),
)
"#),
        Case::new("scenario: pool with no containers", &["run", "s.ron"], &["s.ron: workload.containers: has 0 entries; expected 1..=4096 container files"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Pool(()),
)
"#),
        Case::new("scenario: pool container missing", &["run", "s.ron"], &["s.ron: run failed: workload.containers[0]: none.sfstex: cannot read: No such"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Pool((containers: ["none.sfstex"])),
)
"#),
        Case::new("scenario: pool passes zero", &["run", "s.ron"], &["s.ron:4:48: workload.passes: 0 is out of range; expected 1..=1000"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Pool((containers: ["none.sfstex"], passes: 0)),
)
"#),
        Case::new("scenario: set staging below max io", &["run", "s.ron"], &["s.ron:4:17: workload.set_staging: (1ms, 1KiB): expected size ≥"])
            .file("s.ron", r#"Scenario(
  name: "t",
  duration: "100ms",
  workload: Io((set_staging: [(at: "1ms", size: "1KiB")])),
)
"#),
        Case::new("scenario: deeply nested", &["run", "s.ron"], &["s.ron:1:35: Expected identifier"])
            .file("s.ron", r#"Scenario(name: "t", workload: Io((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((())))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))"#),
        Case::new("scenario: /dev/zero", &["run", "/dev/zero"], &["/dev/zero: cannot read: the file is over the 4 MiB limit for scenario files"]),
        Case::new("scenario: a folder", &["run", "d"], &["d: cannot read: is a folder, not a file"])
            .file("d/x", r#"x"#),
    ]
}
