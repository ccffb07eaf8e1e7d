//! Other IO beside the streaming engine (`background` in a Stream workload): titles that
//! read assets from files or decompress in memory, each at its own cadence and in-flight
//! bytes, through the same drive, staging buffer and MDU as the engine's tile loads.

use super::io::{IoWorkload, RunError};
use super::title::Title;
use crate::iopath::{Completed, IoPath};
use crate::stats::{Latencies, StatSet, LATENCY_POINTS};
use sfsim_models::units::Time;
use sfsim_models::ConfigError;

/// Tags of background requests start here (the engine's count up from 0).
const TAG_BASE: u64 = 1 << 62;
/// Each title's tags and file window are this far apart.
const TITLE_SPAN: u64 = 1 << 48;

/// Range checks of each background title (`background[i].…`).
pub fn validate(titles: &[IoWorkload]) -> Result<(), ConfigError> {
    if titles.len() > 16 {
        return Err(ConfigError::new(
            "background",
            format!("{} titles is out of range; expected at most 16", titles.len()),
        ));
    }
    for (i, t) in titles.iter().enumerate() {
        let within = |e: ConfigError| e.within(&format!("background[{i}]"));
        t.validate().map_err(within)?;
        if !t.set_staging.is_empty() {
            return Err(within(ConfigError::new(
                "set_staging",
                "is not used beside the engine (the engine owns the staging buffer); expected []",
            )));
        }
    }
    Ok(())
}

/// The background titles of a run and what each has completed.
pub struct Background<'a> {
    titles: Vec<Title<'a>>,
    latencies: Vec<Latencies>,
    destination_bytes: Vec<u64>,
    cadences: Vec<Time>,
}

impl<'a> Background<'a> {
    /// Titles seeded from `seed`, each reading its own file window (far from the engine's).
    pub fn new(titles: &'a [IoWorkload], seed: u64) -> Self {
        Background {
            titles: titles
                .iter()
                .enumerate()
                .map(|(i, cfg)| {
                    let base = TAG_BASE + TITLE_SPAN * i as u64;
                    Title::new(cfg, seed ^ 0xb6_0000 ^ i as u64, base, base)
                })
                .collect(),
            latencies: vec![Latencies::default(); titles.len()],
            destination_bytes: vec![0; titles.len()],
            cadences: titles.iter().map(|t| t.cadence).collect(),
        }
    }

    /// How many titles there are.
    pub fn len(&self) -> usize {
        self.titles.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.titles.is_empty()
    }

    /// Title `i`'s enqueue at `now`; returns when its next one is due.
    pub fn tick(&mut self, i: usize, now: Time, io: &mut IoPath) -> Result<Time, RunError> {
        self.titles[i].tick(now, io)?;
        Ok(now + self.cadences[i])
    }

    /// Takes the completion if it is a background request's (`false`: the engine's).
    pub fn claim(&mut self, c: &Completed) -> bool {
        let Some(i) = self.titles.iter().position(|t| t.owns(c.tag)) else { return false };
        self.titles[i].completed(c);
        // A failed request brought no data (the IO path counts it, request.failed.*).
        if c.status != sfsim_models::nvme::IoStatus::Ok {
            return true;
        }
        self.latencies[i].push(c.done - c.enqueued);
        self.destination_bytes[i] += c.destination_size.0;
        true
    }

    /// `background<i>.completed`, `.throughput` and `.latency.*` per title.
    pub fn push_stats(&mut self, s: &mut StatSet, duration: Time) {
        let secs = duration.as_secs_f64();
        for i in 0..self.titles.len() {
            let name = format!("background{i}");
            let lat = &mut self.latencies[i];
            s.push(
                &format!("{name}.completed"),
                Some(lat.len() as f64),
                "count",
                format!("background title {i}: requests whose data reached title memory"),
            );
            s.push(
                &format!("{name}.throughput"),
                Some(self.destination_bytes[i] as f64 / 1e6 / secs),
                "MB/s",
                format!("background title {i}: uncompressed bytes of completed requests per second"),
            );
            s.push_latency_percentiles_ms(&format!("{name}.latency"), lat, &LATENCY_POINTS, |n| {
                format!("background title {i}: request latency {n}, enqueue → data in title memory")
            });
        }
    }
}
