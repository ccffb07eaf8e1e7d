//! The work a scenario implies, checked against documented caps before anything runs.
//!
//! Every field has its own range, but values each in range can multiply into something
//! absurd: 1-byte streams with 16 GiB in flight are 17 billion requests in memory at once,
//! a 16384² render with feedback at every pixel traces 268 million samples a frame, a stall
//! every picosecond never lets the clock move. [`check`] estimates each product from the
//! scenario alone and names the fields whose product is too large, the value and the cap.
//! The caps sit far above every shipped scenario (the largest use under 2 % of any).

use super::{Scenario, Workload};
use crate::scene::{ObjectGroup, SceneConfig};
use crate::workload::io::{IoWorkload, SourceKind};
use crate::workload::render::RenderWorkload;
use sfsim_models::nvme::StallProfile;
use sfsim_models::texture::TextureDesc;
use sfsim_models::units::{Bytes, Time};
use sfsim_models::ConfigError;

/// Requests outstanding at once in one title (each is held in memory until it completes).
pub const MAX_REQUESTS_IN_FLIGHT: u128 = 1 << 20;
/// Requests one title can complete over the run, at the drive's (or MDU's) top rate.
pub const MAX_REQUESTS_PER_RUN: u128 = 200_000_000;
/// Title wake-ups (duration ÷ cadence) over the run.
pub const MAX_TITLE_TICKS: u128 = 100_000_000;
/// Drive stalls over the run (duration ÷ the stall period).
pub const MAX_STALLS: u128 = 100_000_000;
/// Feedback samples traced in one frame (every pixel of a 4K frame is 8.3 million).
pub const MAX_SAMPLES_PER_FRAME: u128 = 1 << 23;
/// Feedback samples traced over the run.
pub const MAX_SAMPLES_PER_RUN: u128 = 10_000_000_000;
/// Objects in the scene, over every group.
pub const MAX_OBJECTS: u128 = 1_000_000;
/// 64 KiB tiles of every texture in the scene (the engine keeps state for each).
pub const MAX_SCENE_TILES: u128 = 1 << 24;
/// Feedback-map texels over every texture (one byte or bit each, per map in flight).
pub const MAX_FEEDBACK_TEXELS: u128 = 1 << 28;

/// Checks every product of fields against its cap; the error's field is the first of the
/// fields named, so that it points into the file.
pub fn check(scenario: &Scenario) -> Result<(), ConfigError> {
    let duration = scenario.duration;
    check_stalls(&scenario.hardware.nvme.stalls, duration)?;
    match &scenario.workload {
        Workload::Io(io) => check_title(io, scenario, "workload"),
        Workload::Pool(pool) => check_ticks(duration, pool.cadence, "workload.cadence"),
        Workload::Render(render) => check_render(render, duration, "workload"),
        Workload::Stream(stream) => {
            check_render(&stream.as_render(), duration, "workload")?;
            for (i, title) in stream.background.iter().enumerate() {
                check_title(title, scenario, &format!("workload.background[{i}]"))?;
            }
            Ok(())
        }
    }
}

fn too_large(field: String, product: &str, value: u128, cap: u128, why: &str) -> ConfigError {
    ConfigError::new(field, format!("{product} = {value}, above the cap of {cap} ({why})"))
}

fn check_stalls(stalls: &StallProfile, duration: Time) -> Result<(), ConfigError> {
    let period = match *stalls {
        StallProfile::None => return Ok(()),
        StallProfile::Periodic { every, .. } => every,
        StallProfile::Random { mean_gap, mean_length } => mean_gap + mean_length,
    };
    let stalls = u128::from(duration.0) / u128::from(period.0.max(1));
    if stalls > MAX_STALLS {
        return Err(too_large(
            "hardware.nvme.stalls".into(),
            &format!("duration {duration} ÷ stall period {period}"),
            stalls,
            MAX_STALLS,
            "stalls over the run; lengthen the period",
        ));
    }
    Ok(())
}

fn check_ticks(duration: Time, cadence: Time, field: &str) -> Result<(), ConfigError> {
    let ticks = u128::from(duration.0) / u128::from(cadence.0.max(1));
    if ticks > MAX_TITLE_TICKS {
        return Err(too_large(
            field.into(),
            &format!("duration {duration} ÷ {field} {cadence}"),
            ticks,
            MAX_TITLE_TICKS,
            "title wake-ups over the run; lengthen the cadence or shorten the run",
        ));
    }
    Ok(())
}

/// The smallest compressed (source) size a title's stream can have.
fn smallest_source(io: &IoWorkload) -> u128 {
    let min_stream = match &io.stream {
        crate::workload::io::StreamSize::Fixed(b) => *b,
        crate::workload::io::StreamSize::Uniform { min, .. } => *min,
        crate::workload::io::StreamSize::Choice(list) => list.iter().copied().min().unwrap_or(Bytes(1)),
    };
    let top_ratio = io.ratio * (1.0 + io.ratio_spread);
    ((min_stream.0 as f64 / top_ratio).floor() as u128).max(1)
}

fn check_title(io: &IoWorkload, scenario: &Scenario, within: &str) -> Result<(), ConfigError> {
    check_ticks(scenario.duration, io.cadence, &format!("{within}.cadence"))?;
    let source = smallest_source(io);
    let in_flight = u128::from(io.in_flight.0) / source;
    if in_flight > MAX_REQUESTS_IN_FLIGHT {
        return Err(too_large(
            format!("{within}.in_flight"),
            &format!("{within}.in_flight {} ÷ the smallest compressed {within}.stream ({source} B)", io.in_flight),
            in_flight,
            MAX_REQUESTS_IN_FLIGHT,
            "requests in flight at once; raise the stream size or lower in_flight",
        ));
    }
    let hw = &scenario.hardware;
    let (rate, rate_field) = match io.source {
        SourceKind::File => (u128::from(hw.nvme.peak.get()), "hardware.nvme.peak"),
        SourceKind::Memory => (u128::from(hw.mdu.input.get()) * u128::from(hw.mdu.units), "hardware.mdu.input × units"),
    };
    let per_run = u128::from(scenario.duration.0) * rate / 1_000_000_000_000 / source;
    if per_run > MAX_REQUESTS_PER_RUN {
        return Err(too_large(
            format!("{within}.stream"),
            &format!("duration {} × {rate_field} ÷ the smallest compressed stream ({source} B)", scenario.duration),
            per_run,
            MAX_REQUESTS_PER_RUN,
            "requests over the run; raise the stream size or shorten the run",
        ));
    }
    Ok(())
}

fn check_render(render: &RenderWorkload, duration: Time, within: &str) -> Result<(), ConfigError> {
    let (w, h) = render.render.resolution;
    let one_in = u128::from(render.render.feedback.one_in.max(1));
    let per_frame = (u128::from(w) * u128::from(h)).div_ceil(one_in);
    if per_frame > MAX_SAMPLES_PER_FRAME {
        return Err(too_large(
            format!("{within}.render.resolution"),
            &format!("{within}.render.resolution ({w}, {h}) ÷ render.feedback.one_in {one_in}"),
            per_frame,
            MAX_SAMPLES_PER_FRAME,
            "feedback samples per frame; lower the resolution or raise one_in",
        ));
    }
    let frames = u128::from(render.frame_count(duration));
    if per_frame * frames > MAX_SAMPLES_PER_RUN {
        return Err(too_large(
            format!("{within}.render.resolution"),
            &format!("{per_frame} samples per frame × {frames} frames (duration {duration} × frame_rate)"),
            per_frame * frames,
            MAX_SAMPLES_PER_RUN,
            "feedback samples over the run; shorten the run, lower the frame rate or raise one_in",
        ));
    }
    check_scene(&render.scene, render.render.feedback.region, &format!("{within}.scene"))
}

fn check_scene(scene: &SceneConfig, region: Option<(u32, u32)>, within: &str) -> Result<(), ConfigError> {
    let objects: u128 = scene
        .objects
        .iter()
        .map(|g| match *g {
            ObjectGroup::CubeGrid { count, .. } | ObjectGroup::Spheres { count, .. } => u128::from(count),
            _ => 1,
        })
        .sum();
    if objects > MAX_OBJECTS {
        return Err(too_large(
            format!("{within}.objects"),
            "the sum of every object group's count",
            objects,
            MAX_OBJECTS,
            "objects in the scene",
        ));
    }
    let sets = &scene.texture_sets;
    let mut tiles = 0u128;
    for format in [sets.diffuse, sets.normal, sets.specular] {
        // Validation has checked the size; a texture that cannot be described is refused there.
        if let Ok(desc) = TextureDesc::new(sets.size, sets.size, format, None) {
            tiles += u128::from(desc.total_tiles());
        }
    }
    let tiles = tiles * u128::from(sets.count);
    if tiles > MAX_SCENE_TILES {
        return Err(too_large(
            format!("{within}.texture_sets.count"),
            &format!("{within}.texture_sets.count {} × the 64 KiB tiles of one set at size {}", sets.count, sets.size),
            tiles,
            MAX_SCENE_TILES,
            "tiles the engine tracks; fewer or smaller texture sets",
        ));
    }
    if let Some((rw, rh)) = region {
        let side = u128::from(sets.size);
        let texels = side.div_ceil(u128::from(rw.max(1))) * side.div_ceil(u128::from(rh.max(1)));
        let total = texels * 3 * u128::from(sets.count);
        if total > MAX_FEEDBACK_TEXELS {
            return Err(too_large(
                format!("{within}.texture_sets.count"),
                &format!(
                    "3 × {within}.texture_sets.count {} × (size {} ÷ render.feedback.region ({rw}, {rh}))²",
                    sets.count, sets.size
                ),
                total,
                MAX_FEEDBACK_TEXELS,
                "feedback-map texels; a coarser region or fewer sets",
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn load(text: &str) -> Result<Scenario, String> {
        Scenario::from_text(text, Path::new("t.ron"), &[]).map_err(|e| e.to_string())
    }

    /// The caps must leave every shipped scenario, at its own duration, room to spare.
    #[test]
    fn every_shipped_scenario_is_within_budget() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
        let mut checked = 0;
        for dir in ["", "io", "render", "stream"] {
            for entry in std::fs::read_dir(root.join(dir)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "ron") {
                    Scenario::load(&path, &[]).unwrap_or_else(|e| panic!("{e}"));
                    checked += 1;
                }
            }
        }
        assert!(checked >= 15, "{checked}");
    }

    #[test]
    fn tiny_streams_with_huge_in_flight_are_refused_with_both_fields() {
        let err = load(r#"Scenario(name: "t", workload: Io((stream: Fixed("2B"), ratio: 1.0, options: (zlib: false), in_flight: "16GiB")))"#)
            .unwrap_err();
        assert!(
            err.contains("workload.in_flight") && err.contains("workload.stream") && err.contains("1048576"),
            "{err}"
        );
    }

    #[test]
    fn a_stall_every_picosecond_is_refused() {
        let err = load(r#"Scenario(name: "t", hardware: (nvme: (stalls: Periodic(every: "1ps", length: "0ps"))), workload: Io(()))"#)
            .unwrap_err();
        assert!(err.contains("hardware.nvme.stalls") && err.contains("100000000"), "{err}");
    }

    #[test]
    fn a_cadence_of_one_microsecond_for_an_hour_is_refused() {
        let err = load(r#"Scenario(name: "t", duration: "1h", workload: Io((cadence: "1us")))"#).unwrap_err();
        assert!(err.contains("workload.cadence") && err.contains("wake-ups"), "{err}");
        assert!(load(r#"Scenario(name: "t", duration: "10s", workload: Io((cadence: "1us")))"#).is_ok());
    }

    #[test]
    fn every_pixel_of_a_16k_frame_is_refused_but_of_a_4k_frame_accepted() {
        let render = |res: &str| {
            format!(
                r#"Scenario(name: "t", duration: "100ms", workload: Render((camera: Generator(Orbit(center: (0.0, 0.0, 0.0), radius: 30.0, height: 8.0, period_s: 20.0)), render: (resolution: {res}, feedback: (one_in: 1)))))"#
            )
        };
        let err = load(&render("(16384, 16384)")).unwrap_err();
        assert!(err.contains("workload.render.resolution") && err.contains("one_in"), "{err}");
        load(&render("(3840, 2160)")).unwrap();
    }

    #[test]
    fn the_largest_scene_is_refused_by_its_tile_count() {
        let err = load(
            r#"Scenario(name: "t", duration: "100ms", workload: Render((camera: Generator(Orbit(center: (0.0, 0.0, 0.0), radius: 30.0, height: 8.0, period_s: 20.0)), scene: (objects: [CubeGrid(count: 1, spacing: 1.0, size: 1.0)], texture_sets: (count: 4096, size: 16384, diffuse: Bc7, normal: Bc7, specular: Bc7)))))"#,
        )
        .unwrap_err();
        assert!(err.contains("texture_sets.count") && err.contains("16777216"), "{err}");
    }
}
