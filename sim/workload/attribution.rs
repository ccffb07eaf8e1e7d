//! Which resource held tiles back in each frame (`engine.bottleneck.*`, frames.csv's
//! `bottleneck`).
//!
//! Every tile on its way to the pool spends each moment in one stage (tiles.csv's
//! lifecycle). Per frame, the time tiles spent in each stage during that frame is charged
//! to the resource that stage waits on, and the frame's bottleneck is the resource charged
//! most; a frame with no tile waiting on anything is `none` (or `feedback_budget` when
//! the budget left maps without feedback that frame). A stage a tile has not left when the
//! run ends lasts until the end. Shares over frames sum to 1.
//!
//! | stage (tiles.csv) | charged to |
//! |---|---|
//! | readback beyond `readback_frames` frames | `engine_cpu` (the feedback thread or GPU was late) |
//! | cpu_wait, in a frame whose pass stopped on staging | `drive` when the drive was busy ≥ 90 % of the frame (staging is full because the drive is), else `mdu` when every MDU unit was (staging is full of data waiting to decompress), else `staging` |
//! | cpu_wait, pass stopped on the pool / upload cap | `pool` / `upload_cap` |
//! | cpu_wait, pass submitted everything | `engine_cpu` (analysis, sort, earlier submissions) |
//! | io_queue, drive | `drive` (its queue and its channel) |
//! | mdu | `mdu` |
//! | mapping | `mapping` (UpdateTileMappings behind the GPU queue) |
//!
//! The readback frames themselves and the visibility stage are the pipeline's fixed shape,
//! not a resource that runs out, so they are not charged.

use crate::engine::{Bottleneck, FrameReport, TileRecord};
use sfsim_models::units::Time;

/// A resource a frame's tiles can wait on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resource {
    None,
    Staging,
    Pool,
    Drive,
    Mdu,
    Mapping,
    EngineCpu,
    FeedbackBudget,
    UploadCap,
}

impl Resource {
    /// Every resource, in stats order.
    pub const ALL: [Resource; 9] = [
        Resource::None,
        Resource::Staging,
        Resource::Pool,
        Resource::Drive,
        Resource::Mdu,
        Resource::Mapping,
        Resource::EngineCpu,
        Resource::FeedbackBudget,
        Resource::UploadCap,
    ];

    /// The name in stats and frames.csv.
    pub fn name(self) -> &'static str {
        match self {
            Resource::None => "none",
            Resource::Staging => "staging",
            Resource::Pool => "pool",
            Resource::Drive => "drive",
            Resource::Mdu => "mdu",
            Resource::Mapping => "mapping",
            Resource::EngineCpu => "engine_cpu",
            Resource::FeedbackBudget => "feedback_budget",
            Resource::UploadCap => "upload_cap",
        }
    }

    fn index(self) -> usize {
        Resource::ALL.iter().position(|&r| r == self).unwrap_or(0)
    }
}

/// A drive (or every MDU unit) busy at least this share of a frame is saturated: staging
/// that is full then is full because of it.
const SATURATED: f64 = 0.9;

/// What a frame's report tells the attribution: where its submission pass stopped, and
/// whether the feedback budget left maps without feedback.
#[derive(Debug, Clone, Copy, Default)]
pub struct FrameStop {
    pub bottleneck: Option<Bottleneck>,
    pub maps_skipped: bool,
}

impl From<&FrameReport> for FrameStop {
    fn from(r: &FrameReport) -> Self {
        FrameStop { bottleneck: r.bottleneck, maps_skipped: r.feedback_maps_skipped > 0 }
    }
}

/// What [`attribute`] needs about the run.
pub struct RunShape<'a> {
    /// Each frame's start (frame n begins at `starts[n]`), in order.
    pub starts: &'a [Time],
    /// What each frame's report says (same length as `starts`).
    pub stops: &'a [FrameStop],
    /// The drive's channel time moving bytes in each frame ([`BusyMeter`]).
    pub drive_busy: &'a [Time],
    /// The MDU's unit time decompressing in each frame, summed over units, and its unit
    /// count.
    pub mdu_busy: &'a [Time],
    pub mdu_units: u32,
    pub frame_period: Time,
    pub readback_frames: u32,
}

/// Each frame's bottleneck, from every load's record (in any order: the charges are sums).
pub fn attribute(run: &RunShape, records: impl IntoIterator<Item = TileRecord>) -> Vec<Resource> {
    let n = run.starts.len();
    if n == 0 {
        return Vec::new();
    }
    let period = run.frame_period.as_secs_f64();
    let drive_saturated: Vec<bool> = run.drive_busy.iter().map(|b| b.as_secs_f64() >= SATURATED * period).collect();
    let mdu_capacity = SATURATED * period * f64::from(run.mdu_units.max(1));
    let mdu_saturated: Vec<bool> = run.mdu_busy.iter().map(|b| b.as_secs_f64() >= mdu_capacity).collect();
    let mut charged = vec![[0u64; 9]; n];
    let nominal_readback = Time(run.frame_period.0 * u64::from(run.readback_frames));
    // A stage not left by the end of the run lasts until then.
    let end = run.starts[n - 1] + run.frame_period;
    for r in records {
        let late_from = r.requested + nominal_readback;
        spread(run.starts, late_from, r.analysed.unwrap_or(end), |f, t| charged[f][Resource::EngineCpu.index()] += t);
        if let Some(a) = r.analysed {
            spread(run.starts, a, r.submitted.unwrap_or(end), |f, t| {
                let to = match run.stops[f].bottleneck {
                    Some(Bottleneck::Staging) if drive_saturated[f] => Resource::Drive,
                    Some(Bottleneck::Staging) if mdu_saturated[f] => Resource::Mdu,
                    Some(Bottleneck::Staging) => Resource::Staging,
                    Some(Bottleneck::Pool) => Resource::Pool,
                    Some(Bottleneck::UploadCap) => Resource::UploadCap,
                    Some(Bottleneck::Nothing) | None => Resource::EngineCpu,
                };
                charged[f][to.index()] += t;
            });
        }
        let stages = [
            (r.submitted, r.read, Resource::Drive),
            (r.read, r.decompressed, Resource::Mdu),
            (r.decompressed, r.mapped, Resource::Mapping),
        ];
        for (from, to, resource) in stages {
            if let Some(from) = from {
                spread(run.starts, from, to.unwrap_or(end), |f, t| charged[f][resource.index()] += t);
            }
        }
    }
    charged
        .iter()
        .zip(run.stops)
        .map(|(c, stop)| {
            let (best, &most) =
                c.iter().enumerate().max_by_key(|&(i, v)| (*v, std::cmp::Reverse(i))).unwrap_or((0, &0));
            if most > 0 {
                Resource::ALL[best]
            } else if stop.maps_skipped {
                Resource::FeedbackBudget
            } else {
                Resource::None
            }
        })
        .collect()
}

/// Calls `add(frame, overlap)` for each frame that `[from, to)` overlaps (the last frame
/// runs on to `to`).
fn spread(starts: &[Time], from: Time, to: Time, mut add: impl FnMut(usize, u64)) {
    if to <= from {
        return;
    }
    let mut f = starts.partition_point(|&s| s <= from).saturating_sub(1);
    while f < starts.len() {
        let begin = starts[f].max(from);
        let end = starts.get(f + 1).map_or(to, |&next| next.min(to));
        if end > begin {
            add(f, (end - begin).0);
        }
        if starts.get(f + 1).is_none_or(|&next| next >= to) {
            break;
        }
        f += 1;
    }
}

/// Busy time in each frame of `[start, end)` spans (summed over parallel units), added
/// span by span as the run goes so that no span has to be kept; the last frame runs on to
/// a span's end.
#[derive(Debug, Clone)]
pub struct BusyMeter {
    busy: Vec<Time>,
}

impl BusyMeter {
    /// A meter for `frames` frames, all idle.
    pub fn new(frames: usize) -> Self {
        BusyMeter { busy: vec![Time::ZERO; frames] }
    }

    /// Adds `[start, end)` to the frames (starting at `starts`) it overlaps.
    pub fn add(&mut self, starts: &[Time], start: Time, end: Time) {
        spread(starts, start, end, |f, d| self.busy[f] += Time(d));
    }

    /// Each frame's busy time.
    pub fn per_frame(&self) -> &[Time] {
        &self.busy
    }
}

/// Share of frames each resource was the bottleneck of, in [`Resource::ALL`] order.
pub fn shares(per_frame: &[Resource]) -> [Option<f64>; 9] {
    let mut out = [None; 9];
    if per_frame.is_empty() {
        return out;
    }
    for (i, r) in Resource::ALL.iter().enumerate() {
        out[i] = Some(per_frame.iter().filter(|f| *f == r).count() as f64 / per_frame.len() as f64);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::TileId;
    use sfsim_models::mdu::JobDone;
    use sfsim_models::nvme::Transfer;

    fn record(times: [u64; 6]) -> TileRecord {
        let ms = |v: u64| Some(Time::from_ms(v));
        TileRecord {
            requested: Time::from_ms(times[0]),
            analysed: ms(times[1]),
            submitted: ms(times[2]),
            issued: ms(times[2]),
            read: ms(times[3]),
            decompressed: ms(times[4]),
            mapped: ms(times[5]),
            ..TileRecord::new(TileId { texture: 0, index: 0 }, Time::ZERO)
        }
    }

    fn run(records: &[TileRecord], stops: &[Option<Bottleneck>], transfers: &[Transfer]) -> Vec<Resource> {
        run_with_jobs(records, stops, transfers, &[])
    }

    fn run_with_jobs(
        records: &[TileRecord],
        stops: &[Option<Bottleneck>],
        transfers: &[Transfer],
        jobs: &[JobDone],
    ) -> Vec<Resource> {
        let starts: Vec<Time> = (0..stops.len() as u64).map(|f| Time::from_ms(10 * f)).collect();
        let stops: Vec<FrameStop> = stops.iter().map(|&b| FrameStop { bottleneck: b, maps_skipped: false }).collect();
        let (mut drive, mut mdu) = (BusyMeter::new(starts.len()), BusyMeter::new(starts.len()));
        transfers.iter().for_each(|t| drive.add(&starts, t.start, t.end));
        jobs.iter().for_each(|j| mdu.add(&starts, j.start, j.end));
        let shape = RunShape {
            starts: &starts,
            stops: &stops,
            drive_busy: drive.per_frame(),
            mdu_busy: mdu.per_frame(),
            mdu_units: 2,
            frame_period: Time::from_ms(10),
            readback_frames: 2,
        };
        attribute(&shape, records.iter().cloned())
    }

    #[test]
    fn each_frame_names_the_stage_its_tiles_spent_most_time_in() {
        // Requested at 0, analysed at 20 (on time), submitted 21, read 45, in the pool 52,
        // mapped 53: frame 2 is mostly CPU wait (1 ms) and drive (9 ms): drive.
        let r = record([0, 20, 21, 45, 52, 53]);
        let nothing = Some(Bottleneck::Nothing);
        let frames = run(&[r], &[nothing; 7], &[]);
        use Resource::*;
        assert_eq!(frames, [None, None, Drive, Drive, Drive, Mdu, None]);
        assert_eq!(shares(&frames)[Drive.index()], Some(3.0 / 7.0));
        let total: f64 = shares(&frames).iter().flatten().sum();
        assert!((total - 1.0).abs() < 1e-12);
    }

    #[test]
    fn waiting_for_staging_is_the_drives_or_the_mdus_fault_only_when_it_is_saturated() {
        // Analysed at 20, waits in Seen Tiles until 40 behind full staging.
        let r = record([0, 20, 40, 41, 42, 42]);
        let staging = Some(Bottleneck::Staging);
        assert_eq!(run(std::slice::from_ref(&r), &[staging; 4], &[])[2], Resource::Staging);
        let busy = Transfer { id: 0, start: Time::from_ms(20), end: Time::from_ms(30), bytes: 1 };
        assert_eq!(run(std::slice::from_ref(&r), &[staging; 4], &[busy])[2], Resource::Drive);
        // Both MDU units busy all frame (the drive idle): staging is full of data waiting
        // to decompress. One unit busy is not saturation.
        let job = |unit| JobDone {
            id: 0,
            unit,
            start: Time::from_ms(20),
            end: Time::from_ms(30),
            input: sfsim_models::units::Bytes(1),
            output: sfsim_models::units::Bytes(1),
        };
        assert_eq!(run_with_jobs(std::slice::from_ref(&r), &[staging; 4], &[], &[job(0), job(1)])[2], Resource::Mdu);
        assert_eq!(run_with_jobs(&[r], &[staging; 4], &[], &[job(0)])[2], Resource::Staging);
    }

    #[test]
    fn late_feedback_is_engine_cpu_and_pool_waits_are_the_pool() {
        let late = record([0, 35, 36, 37, 38, 38]);
        let pool = Some(Bottleneck::Pool);
        let frames = run(&[late], &[pool; 4], &[]);
        assert_eq!(frames[2], Resource::EngineCpu, "analysed 15 ms after its 20 ms readback");
        let waits = record([0, 20, 38, 39, 39, 39]);
        assert_eq!(run(&[waits], &[pool; 4], &[])[2], Resource::Pool);
    }

    #[test]
    fn spread_clips_to_frames() {
        let starts = [Time::ZERO, Time::from_ms(10), Time::from_ms(20)];
        let mut got = Vec::new();
        spread(&starts, Time::from_ms(5), Time::from_ms(25), |f, t| got.push((f, t)));
        assert_eq!(got, [(0, Time::from_ms(5).0), (1, Time::from_ms(10).0), (2, Time::from_ms(5).0)]);
    }
}
