//! The per-frame plots of a streaming run, gathered in one pass over frames.csv's rows
//! into [`BoundedSeries`] (every frame up to `EXACT_POINTS`, then mean, min and max per
//! bucket, which the legend and title say).

use super::series::BoundedSeries;
use crate::report::{HLine, LinePlot, Plot};
use crate::spill::SpillError;
use crate::workload::stream::{StreamOutcome, MIP_COLUMNS};
use std::collections::VecDeque;

/// Throughput per frame is noisy; a 15-frame moving mean reads better.
const SMOOTHING: usize = 15;

/// Everything the frame plots draw.
#[derive(Default)]
pub(super) struct FrameSeries {
    nvme: BoundedSeries,
    mdu_out: BoundedSeries,
    pool: BoundedSeries,
    in_flight: BoundedSeries,
    seen: BoundedSeries,
    deficit: BoundedSeries,
    blurry: BoundedSeries,
    loads: BoundedSeries,
    evictions: BoundedSeries,
    /// Per mip m: resident tiles of mip m and coarser.
    resident: [BoundedSeries; MIP_COLUMNS],
    resident_seen: [bool; MIP_COLUMNS],
    /// Some frame measured quality (not a timing-only run).
    pub quality: bool,
}

/// A moving mean over the last [`SMOOTHING`] values, summed oldest first.
#[derive(Default)]
struct Smoother(VecDeque<f64>);

impl Smoother {
    fn push(&mut self, v: f64) -> f64 {
        if self.0.len() == SMOOTHING {
            self.0.pop_front();
        }
        self.0.push_back(v);
        self.0.iter().sum::<f64>() / self.0.len() as f64
    }
}

impl FrameSeries {
    /// One pass over the run's rows.
    pub fn gather(o: &StreamOutcome) -> Result<FrameSeries, SpillError> {
        let secs = o.frame_period.as_secs_f64();
        let mut s = FrameSeries::default();
        let (mut nvme, mut mdu) = (Smoother::default(), Smoother::default());
        for r in o.frame_rows() {
            let r = r?;
            let x = r.time.as_secs_f64();
            s.nvme.push(x, nvme.push(r.nvme_bytes as f64 / 1e6 / secs));
            s.mdu_out.push(x, mdu.push(r.mdu_out as f64 / 1e6 / secs));
            s.pool.push(x, f64::from(r.pool_used));
            s.in_flight.push(x, r.tiles_in_flight as f64);
            s.seen.push(x, f64::from(r.engine.seen_list));
            s.deficit.push(x, r.sampler.mean_lod_deficit().unwrap_or(0.0));
            s.blurry.push(x, r.sampler.blurry_share().unwrap_or(0.0));
            s.loads.push(x, f64::from(r.engine.loads));
            s.evictions.push(x, f64::from(r.engine.evictions));
            for m in 0..MIP_COLUMNS {
                s.resident_seen[m] |= r.resident_by_mip[m] > 0;
                s.resident[m].push(x, r.resident_by_mip[m..].iter().sum::<u64>() as f64);
            }
            s.quality |= r.sampler.quality_samples != 0;
        }
        Ok(s)
    }

    /// The frame plots in the report's order, with the tile-latency CDF (not per frame)
    /// after the first.
    pub fn plots(self, guaranteed: HLine, pool_capacity: u32, latency_cdf: Plot) -> Vec<Plot> {
        let pool = || HLine { label: "pool capacity".into(), y: f64::from(pool_capacity) };
        let quality = self.quality;
        let mut plots = vec![
            line(
                "throughput",
                "Throughput (15-frame moving mean)",
                "MB/s",
                [(self.nvme, "NVMe read"), (self.mdu_out, "MDU out")],
            )
            .with(vec![guaranteed]),
            latency_cdf,
            line(
                "occupancy",
                "Tile pool, tiles in flight, Seen Tiles",
                "tiles",
                [(self.pool, "pool slots used"), (self.in_flight, "tiles in flight"), (self.seen, "seen list")],
            )
            .with(vec![pool()]),
        ];
        if quality {
            plots.push(line(
                "lod_deficit",
                "Visual quality: effective − desired LOD",
                "mips / fraction",
                [(self.deficit, "mean deficit (mips)"), (self.blurry, "share ≥ 1 mip blurry")],
            ));
        }
        plots.push(line(
            "loads",
            "Loads and evictions per frame",
            "tiles per frame",
            [(self.loads, "loads"), (self.evictions, "evictions")],
        ));
        // Stacked: each line is the total of its mip and every coarser one, so the gaps
        // between lines are the mips' shares and the top line is the pool in use.
        let resident = self
            .resident
            .into_iter()
            .enumerate()
            .filter(|&(m, _)| self.resident_seen[m])
            .rev()
            .map(|(m, series)| {
                let label = if m + 1 == MIP_COLUMNS { format!("mips ≥ {m}") } else { format!("mip {m} and coarser") };
                (series, label)
            })
            .collect::<Vec<_>>();
        plots.push(
            line("residency_by_mip", "Resident tiles by mip (stacked: coarse at the bottom)", "tiles", resident)
                .with(vec![pool()]),
        );
        plots
    }
}

/// A line plot of per-frame series against simulated time.
fn line<L: AsRef<str>>(
    stem: &str,
    title: &str,
    y_label: &str,
    series: impl IntoIterator<Item = (BoundedSeries, L)>,
) -> Plot {
    let mut title = title.to_string();
    let mut all = Vec::new();
    for (s, label) in series {
        let w = s.frames_per_point();
        if w > 1 && all.is_empty() {
            title.push_str(&format!(" — mean, min and max per {w} frames"));
        }
        all.extend(s.into_series(label.as_ref()));
    }
    Plot::Line(LinePlot {
        file_stem: stem.into(),
        title,
        x_label: "simulated time (s)".into(),
        y_label: y_label.into(),
        series: all,
        hlines: vec![],
        log_x: false,
    })
}

trait WithLines {
    fn with(self, hlines: Vec<HLine>) -> Plot;
}

impl WithLines for Plot {
    fn with(mut self, hlines: Vec<HLine>) -> Plot {
        if let Plot::Line(l) = &mut self {
            l.hlines = hlines;
        }
        self
    }
}
