//! The title model of an IO workload: every `cadence` it enqueues requests until
//! `in_flight` source bytes are outstanding (SPEC §1's "enqueue every 16.7 ms, keep 64 MiB
//! in flight"). The IO workload runs one alone; the streaming workload runs any number
//! beside the engine (`background`), sharing its drive, staging buffer and MDU.

use super::io::{IoWorkload, RunError, SourceKind};
use crate::iopath::{Completed, IoPath};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sfsim_models::nvme::{Request, Source, STREAM_ALIGNMENT};
use sfsim_models::units::{Bytes, Time};

/// One title's request stream and what it has outstanding.
pub struct Title<'a> {
    cfg: &'a IoWorkload,
    rng: ChaCha8Rng,
    next_offset: u64,
    pending: Request,
    in_flight: u64,
    enqueued: u64,
    /// Added to each request's index to make its IO-path tag.
    tag_base: u64,
}

impl<'a> Title<'a> {
    /// A title seeded with `seed`, its file streams laid out from `file_base` on, its tags
    /// `tag_base + index`.
    pub fn new(cfg: &'a IoWorkload, seed: u64, file_base: u64, tag_base: u64) -> Self {
        let mut title = Title {
            cfg,
            rng: ChaCha8Rng::seed_from_u64(seed),
            next_offset: file_base,
            pending: Request {
                source: Source::Memory,
                source_size: Bytes::ZERO,
                intermediate_size: Bytes::ZERO,
                destination_size: Bytes::ZERO,
                options: cfg.options,
                fill: cfg.fill,
            },
            in_flight: 0,
            enqueued: 0,
            tag_base,
        };
        title.pending = title.make();
        title
    }

    /// Requests enqueued so far.
    pub fn enqueued(&self) -> u64 {
        self.enqueued
    }

    /// Whether an IO-path tag is one of this title's.
    pub fn owns(&self, tag: u64) -> bool {
        (self.tag_base..self.tag_base + self.enqueued).contains(&tag)
    }

    /// The cadence's enqueue at `now`: requests until `in_flight` source bytes are out.
    pub fn tick(&mut self, now: Time, path: &mut IoPath) -> Result<(), RunError> {
        while self.in_flight == 0 || self.in_flight + self.pending.source_size.0 <= self.cfg.in_flight.0 {
            self.in_flight += self.pending.source_size.0;
            let index = self.enqueued;
            path.enqueue(now, self.pending, self.tag_base + index)
                .map_err(|source| RunError::Request { index, source })?;
            self.enqueued += 1;
            self.pending = self.make();
        }
        Ok(())
    }

    /// One of its requests completed.
    pub fn completed(&mut self, c: &Completed) {
        self.in_flight -= c.source_size.0;
    }

    /// The next request: size, ratio and file layout from the seeded RNG.
    fn make(&mut self) -> Request {
        let cfg = self.cfg;
        let uncompressed = cfg.stream.sample(&mut self.rng);
        let compressed = if cfg.options.decompresses() {
            let jitter = 1.0 + cfg.ratio_spread * (2.0 * self.rng.gen::<f64>() - 1.0);
            Bytes(((uncompressed.0 as f64 / (cfg.ratio * jitter)).floor() as u64).max(1))
        } else {
            uncompressed
        };
        let intermediate = if cfg.options.zlib && cfg.options.bcpack() {
            let mean = ((compressed.0 as f64) * (uncompressed.0 as f64)).sqrt() as u64;
            Bytes(mean.clamp(compressed.0 + 1, uncompressed.0.saturating_sub(1).max(compressed.0 + 1)))
        } else {
            Bytes::ZERO
        };
        let source = match cfg.source {
            SourceKind::File => {
                let offset = self.next_offset;
                self.next_offset = (offset + compressed.0).next_multiple_of(STREAM_ALIGNMENT);
                Source::File { offset }
            }
            SourceKind::Memory => Source::Memory,
        };
        Request {
            source,
            source_size: compressed,
            intermediate_size: intermediate,
            destination_size: uncompressed,
            options: cfg.options,
            fill: cfg.fill,
        }
    }
}
