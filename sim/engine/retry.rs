//! Failed loads (`hardware.faults`): a tile whose request failed — read error, timeout or
//! a corrupt payload the MDU decode or tile hash rejected — is never mapped visible. Its
//! slot goes back to the pool, it waits in Seen Tiles for an exponential back-off and is
//! submitted again, up to `max_retries` times; then the engine gives up (the tile is
//! Absent again and a later feedback pass may ask for it anew). A packed tail is needed
//! for the texture to render at all, so it is retried, with the same back-off, until it
//! loads.
//!
//! Every failure is accounted for: `engine.load_failures` = `engine.retries` +
//! `engine.retry_give_ups` + `engine.retries_pending`.

use super::loads::InFlight;
use super::tiles::{Status, TileId};
use super::Engine;
use crate::iopath::{Completed, IoPath};
use crate::stats::StatSet;
use serde::{Deserialize, Serialize};
use sfsim_models::nvme::IoStatus;
use sfsim_models::units::Time;
use sfsim_models::ConfigError;
use std::collections::VecDeque;

/// How the engine retries failed loads (`workload.engine.retry`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RetryConfig {
    /// Resubmissions of a failed tile before the engine gives up on it (3).
    pub max_retries: u32,
    /// Wait before the first resubmission; each further failure doubles it (2 ms).
    pub backoff: Time,
    /// The longest wait, however many failures (250 ms).
    pub backoff_max: Time,
}

impl Default for RetryConfig {
    fn default() -> Self {
        RetryConfig { max_retries: 3, backoff: Time::from_ms(2), backoff_max: Time::from_ms(250) }
    }
}

impl RetryConfig {
    /// The wait after a load's `failures`-th consecutive failure (≥ 1).
    pub fn backoff_after(&self, failures: u32) -> Time {
        let doublings = failures.saturating_sub(1).min(40);
        Time(self.backoff.0.saturating_mul(1u64 << doublings)).min(self.backoff_max)
    }

    /// Range checks; fields are relative to `retry`.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.max_retries > 64 {
            return Err(ConfigError::new(
                "max_retries",
                format!("{} is out of range; expected 0..=64", self.max_retries),
            ));
        }
        if self.backoff == Time::ZERO || self.backoff > Time::from_secs(1) {
            return Err(ConfigError::new("backoff", format!("{} is out of range; expected (0s, 1s]", self.backoff)));
        }
        if self.backoff_max < self.backoff || self.backoff_max > Time::from_secs(10) {
            return Err(ConfigError::new(
                "backoff_max",
                format!("{} is out of range; expected backoff ({})..=10s", self.backoff_max, self.backoff),
            ));
        }
        Ok(())
    }
}

/// The engine's failure bookkeeping.
#[derive(Debug, Default)]
pub(super) struct Retries {
    /// Whether the run injects faults: only then are the retry stats reported.
    pub report: bool,
    pub failures: u64,
    pub failures_by: [u64; 4],
    pub retries: u64,
    pub give_ups: u64,
    /// Packed tails to read again: when, the texture, its consecutive failures.
    pub tails: VecDeque<(Time, u32, u32)>,
}

impl Engine {
    /// Reports the retry stats (`engine.load_failures`, …) even when no failure happened;
    /// the stream run turns this on when the scenario injects faults.
    pub fn set_report_retries(&mut self, on: bool) {
        self.retry.report = on;
    }

    /// A request of the engine's came back failed.
    pub(super) fn load_failed(&mut self, c: &Completed, what: InFlight) {
        self.retry.failures += 1;
        self.retry.failures_by[c.status as usize] += 1;
        match what {
            InFlight::Tail { texture, failures } => {
                let failures = failures + 1;
                let at = c.done + self.cfg.retry.backoff_after(failures);
                self.retry.tails.push_back((at, texture, failures));
            }
            InFlight::Tile { tile, .. } => {
                if let Some(r) = self.db.state(tile).record {
                    self.db.records_mut().mark_failed(r);
                }
                if let Some(r) = self.db.record_mut(tile) {
                    r.issued = Some(c.issued);
                    r.read = Some(c.read);
                }
                self.db.state_mut(tile).failed = true;
                // Its UpdateTileMappings may still be on the queue: the slot is given back
                // once that call is done with it.
                if self.db.state(tile).mapped {
                    self.release_failed(tile, c.done);
                }
            }
        }
    }

    /// A failed tile's mapping is done: unmap it, free its slot, and queue it for a retry
    /// after its back-off, or give up.
    pub(super) fn release_failed(&mut self, id: TileId, now: Time) {
        let state = *self.db.state(id);
        if let Some(slot) = state.slot {
            // The slot was taken for this tile; giving it back cannot fail.
            let _ = self.pool.give_back(slot, id);
        }
        self.mapping.unmap(1);
        if let Some(r) = self.db.record_mut(id) {
            r.evicted = Some(now);
        }
        let failures = u32::from(state.failures) + 1;
        if failures > self.cfg.retry.max_retries {
            self.retry.give_ups += 1;
            self.db.forget(id);
            return;
        }
        let s = self.db.state_mut(id);
        s.status = Status::Seen;
        s.slot = None;
        s.io_done = false;
        s.mapped = false;
        s.failed = false;
        s.failures = failures.min(u32::from(u8::MAX)) as u8;
        s.retry_after = now + self.cfg.retry.backoff_after(failures);
        self.db.unlink_record(id);
        self.lists.backing_off.push(id);
    }

    /// A Seen tile waiting out its back-off left Seen Tiles unrequested: no more retries.
    pub(super) fn abandoned(&mut self, id: TileId) {
        if self.db.state(id).failures > 0 {
            self.retry.give_ups += 1;
        }
    }

    /// When the next packed tail is due to be read again.
    pub(super) fn next_tail_retry(&self) -> Option<Time> {
        self.retry.tails.iter().map(|t| t.0).min()
    }

    /// Reads again the packed tails whose back-off ended by `now`.
    pub(super) fn retry_tails(&mut self, now: Time, io: &mut IoPath) -> Result<bool, super::EngineError> {
        let mut progressed = false;
        while let Some(i) = self.retry.tails.iter().position(|t| t.0 <= now) {
            let (_, texture, failures) = self.retry.tails.remove(i).expect("found");
            self.retry.retries += 1;
            self.enqueue_tail(now, texture, failures, io)?;
            progressed = true;
        }
        Ok(progressed)
    }

    /// Failed loads still waiting for their retry (or their mapping call) at the end.
    pub fn retries_pending(&self) -> u64 {
        let mut pending = self.retry.tails.len() as u64;
        for t in 0..self.db.texture_count() {
            for index in 0..self.db.desc(t).standard_tile_count() {
                let s = self.db.state(TileId { texture: t, index });
                if (s.status == Status::Seen && s.failures > 0) || s.failed {
                    pending += 1;
                }
            }
        }
        pending
    }

    /// `engine.load_failures` (and per status), `engine.retries`, `engine.retry_give_ups`,
    /// `engine.retries_pending` — only when the run injects faults.
    pub(super) fn push_retry_stats(&self, s: &mut StatSet) {
        if !self.retry.report {
            return;
        }
        let r = &self.retry;
        s.push(
            "engine.load_failures",
            Some(r.failures as f64),
            "count",
            "engine requests (tiles and packed tails) that failed",
        );
        for status in [IoStatus::IoError, IoStatus::Timeout, IoStatus::Corrupt] {
            s.push(
                &format!("engine.load_failures.{}", status.name()),
                Some(r.failures_by[status as usize] as f64),
                "count",
                format!("engine requests that failed with status {}", status.name()),
            );
        }
        s.push("engine.retries", Some(r.retries as f64), "count", "failed loads submitted again after their back-off");
        s.push(
            "engine.retry_give_ups",
            Some(r.give_ups as f64),
            "count",
            "failed tiles the engine stopped retrying (max_retries reached, or no longer requested)",
        );
        s.push(
            "engine.retries_pending",
            Some(self.retries_pending() as f64),
            "count",
            "failed loads still waiting for their retry at the end (failures = retries + give-ups + pending)",
        );
    }
}
