//! [`FaultyDrive`]: any drive model with per-IO faults on top — read errors, hung IOs
//! failed after a timeout, latency spikes and corrupt payloads — decided as each IO leaves
//! the drive beneath.

use super::config::FaultConfig;
use super::generator::FaultGenerator;
use crate::nvme::{DeviceStats, IoDone, IoStatus, NvmeModel, Transfer};
use crate::units::{Bytes, Time};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// A drive model decorated with the per-IO faults of a [`FaultConfig`]. The drive beneath
/// moves every IO's bytes as usual (a failed read still took channel time); the decorator
/// changes when and how each IO is reported. A hung IO frees its drive queue slot when the
/// drive finishes it, but its owner hears of it only at issue + `timeout`.
pub struct FaultyDrive {
    inner: Box<dyn NvmeModel>,
    faults: FaultConfig,
    generator: FaultGenerator,
    issued: HashMap<u64, Time>,
    /// IOs reported later than the drive finished them, earliest first (ties by order).
    delayed: BinaryHeap<Reverse<(Time, u64, u64, IoStatus)>>,
    sequence: u64,
    buffer: Vec<IoDone>,
}

impl FaultyDrive {
    /// `inner` with the per-IO faults of `faults`, drawn from a generator seeded by `seed`.
    pub fn new(inner: Box<dyn NvmeModel>, faults: &FaultConfig, seed: u64) -> Self {
        FaultyDrive {
            inner,
            faults: *faults,
            generator: FaultGenerator::new(faults, seed),
            issued: HashMap::new(),
            delayed: BinaryHeap::new(),
            sequence: 0,
            buffer: Vec::new(),
        }
    }

    fn next_delayed(&self) -> Option<Time> {
        self.delayed.peek().map(|Reverse((t, ..))| *t)
    }
}

impl NvmeModel for FaultyDrive {
    fn can_accept(&self) -> bool {
        self.inner.can_accept()
    }

    fn submit(&mut self, now: Time, id: u64, bytes: Bytes) {
        self.issued.insert(id, now);
        self.inner.submit(now, id, bytes);
    }

    fn set_backlog(&mut self, now: Time, waiting: bool) {
        self.inner.set_backlog(now, waiting);
    }

    fn next_event(&self) -> Option<Time> {
        [self.inner.next_event(), self.next_delayed()].into_iter().flatten().min()
    }

    fn advance(&mut self, until: Time, done: &mut Vec<IoDone>) {
        // Step event by event so reports leave in time order: the owner hands them to the
        // MDU at their times, and the MDU's clock never goes back.
        while let Some(t) = self.next_event().filter(|&t| t <= until) {
            if self.next_delayed() == Some(t) {
                let Reverse((time, _, id, status)) = self.delayed.pop().expect("peeked");
                done.push(IoDone { id, time, status });
                continue;
            }
            let mut buffer = std::mem::take(&mut self.buffer);
            self.inner.advance(t, &mut buffer);
            for io in buffer.drain(..) {
                let fate = self.generator.draw();
                let issued = self.issued.remove(&io.id).unwrap_or(io.time);
                let time = match fate.status {
                    IoStatus::Timeout => (issued + self.faults.timeout).max(io.time),
                    _ => io.time,
                } + fate.extra;
                if time == io.time {
                    done.push(IoDone { status: fate.status, ..io });
                } else {
                    self.delayed.push(Reverse((time, self.sequence, io.id, fate.status)));
                    self.sequence += 1;
                }
            }
            self.buffer = buffer;
        }
        // Nothing of the drive's is due by `until` any more: this only moves its clock.
        let mut rest = std::mem::take(&mut self.buffer);
        self.inner.advance(until, &mut rest);
        debug_assert!(rest.is_empty(), "the drive reported an IO the loop did not see");
        self.buffer = rest;
    }

    fn finish(&mut self, end: Time) {
        self.inner.finish(end);
    }

    fn stats(&self) -> DeviceStats {
        DeviceStats { faults: self.generator.counts(), ..self.inner.stats() }
    }

    fn window(&self) -> Time {
        self.inner.window()
    }

    fn drain_transfers(&mut self) -> std::vec::Drain<'_, Transfer> {
        self.inner.drain_transfers()
    }
}
