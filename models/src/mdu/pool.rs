//! The unit pool: FIFO queue, first free unit; sfsim's [`MduModel`], self-timed like the
//! NVMe device.

use super::config::MduConfig;
use super::model::MduModel;
use crate::config::ConfigError;
use crate::nvme::RequestOptions;
use crate::time_per_byte::TimePerByte;
use crate::units::{Bytes, Time};
use std::collections::VecDeque;

/// Which stages a job runs (none = an uncompressed move).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stages {
    /// Inflate (the request's zlib option).
    pub zlib: bool,
    /// BCPack decode (a non-zero BCPack mode).
    pub bcpack: bool,
    /// Swizzle (a non-zero swizzle mode).
    pub swizzle: bool,
}

impl From<RequestOptions> for Stages {
    #[inline]
    fn from(o: RequestOptions) -> Self {
        Stages { zlib: o.zlib, bcpack: o.bcpack(), swizzle: o.swizzle() }
    }
}

/// One unit of MDU work: one IO's worth of a request (requests larger than `max_io` make
/// several jobs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Job {
    /// The submitter's id, reported back in [`JobDone::id`].
    pub id: u64,
    /// Bytes the unit reads (compressed, or the data itself for a move).
    pub input: Bytes,
    /// Bytes the unit writes to title memory.
    pub output: Bytes,
    /// The stages the job passes through (all off: an uncompressed move).
    pub stages: Stages,
    /// Perfectly compressible page: output at the fill rate instead of `output`.
    pub fill: bool,
}

/// A job whose output is in title memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JobDone {
    /// The job's [`Job::id`].
    pub id: u64,
    /// The unit that ran it (0-based).
    pub unit: u32,
    /// When the unit started it (after any wait in the queue).
    pub start: Time,
    /// When its output was in title memory.
    pub end: Time,
    /// Bytes it read.
    pub input: Bytes,
    /// Bytes it wrote.
    pub output: Bytes,
}

/// What one unit did so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct UnitStats {
    /// Jobs finished.
    pub jobs: u64,
    /// Time spent on finished jobs.
    pub busy: Time,
    /// Bytes finished jobs read.
    pub input: u64,
    /// Bytes finished jobs wrote.
    pub output: u64,
}

/// sfsim's MDU timing: `units` identical units fed from one FIFO, each job taking
/// set-up + max(input ÷ input rate, output ÷ output rate) of [`MduConfig`].
pub struct Mdu {
    cfg: MduConfig,
    queue: VecDeque<Job>,
    running: Vec<Option<(Job, Time, Time)>>,
    /// Bit u set while unit u is idle (at most 64 units): a busy pool, the usual case
    /// when jobs queue, is seen without looking at each unit.
    idle: u64,
    stats: Vec<UnitStats>,
    /// When the last unit stops taking jobs (`hardware.faults.mdu_unit_lost_at`).
    lost_at: Option<Time>,
    /// The earliest running job's end, kept as jobs start and end (asked several times
    /// per event by the owner).
    next_end: Option<Time>,
    /// `cfg.input`, `cfg.output` and the per-unit fill rate, for [`Self::service_time`].
    input: TimePerByte,
    output: TimePerByte,
    fill_output: TimePerByte,
}

impl Mdu {
    /// Idle units at time zero. Errors name the field of `cfg` that is out of range.
    pub fn new(cfg: &MduConfig) -> Result<Self, ConfigError> {
        cfg.validate()?;
        Ok(Mdu {
            cfg: *cfg,
            queue: VecDeque::new(),
            running: vec![None; cfg.units as usize],
            idle: first_units(cfg.units as usize),
            stats: vec![UnitStats::default(); cfg.units as usize],
            lost_at: None,
            next_end: None,
            input: TimePerByte::new(cfg.input),
            output: TimePerByte::new(cfg.output),
            fill_output: TimePerByte::new(cfg.fill_output_per_unit()),
        })
    }

    /// The parameters the MDU was built with.
    pub fn config(&self) -> &MduConfig {
        &self.cfg
    }

    /// Service time of a job on one unit.
    pub fn service_time(&self, job: &Job) -> Time {
        self.job_time(job.input, job.output, job.fill)
    }

    /// [`Self::service_time`] from the job's sizes by value: dispatch passes them in
    /// registers (reading them back from a just-copied job stalled in profiles).
    #[inline(always)]
    fn job_time(&self, input: Bytes, output: Bytes, fill: bool) -> Time {
        let out_rate = if fill { self.fill_output } else { self.output };
        self.cfg.setup + self.input.time_for(input).max(out_rate.time_for(output))
    }

    /// Jobs waiting for a unit.
    pub fn queued(&self) -> usize {
        self.queue.len()
    }

    /// Units working now.
    pub fn busy_units(&self) -> usize {
        self.running.iter().filter(|r| r.is_some()).count()
    }

    /// From `at` on the last unit takes no new jobs (a job it runs then still finishes):
    /// later jobs queue for the units left.
    pub fn lose_last_unit_at(&mut self, at: Time) {
        self.lost_at = Some(at);
    }

    /// Units that take jobs at `now`.
    fn working_units(&self, now: Time) -> usize {
        let lost = self.lost_at.is_some_and(|at| at <= now) && self.running.len() > 1;
        self.running.len() - usize::from(lost)
    }

    /// Queued jobs to the idle working units, lowest unit first.
    fn dispatch(&mut self, now: Time) {
        let mut idle = self.idle & first_units(self.working_units(now));
        while idle != 0 {
            let Some(job) = self.queue.pop_front() else {
                return;
            };
            let unit = idle.trailing_zeros() as usize;
            idle &= idle - 1;
            self.idle &= !(1 << unit);
            let end = now + self.job_time(job.input, job.output, job.fill);
            self.running[unit] = Some((job, now, end));
            self.next_end = Some(self.next_end.map_or(end, |t| t.min(end)));
        }
    }

    fn earliest_end(&self) -> Option<Time> {
        self.running.iter().flatten().map(|&(_, _, end)| end).min()
    }
}

/// A mask of units 0..n (n ≤ 64).
fn first_units(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1 << n) - 1
    }
}

impl MduModel for Mdu {
    fn submit(&mut self, now: Time, job: Job) {
        self.queue.push_back(job);
        self.dispatch(now);
    }

    fn next_event(&self) -> Option<Time> {
        self.next_end
    }

    fn advance(&mut self, until: Time, done: &mut Vec<JobDone>) {
        while let Some(t) = self.next_end.filter(|&t| t <= until) {
            for unit in 0..self.running.len() {
                if let Some((job, start, end)) = self.running[unit] {
                    if end == t {
                        self.running[unit] = None;
                        self.idle |= 1 << unit;
                        let s = &mut self.stats[unit];
                        s.jobs += 1;
                        s.busy += end - start;
                        s.input += job.input.0;
                        s.output += job.output.0;
                        done.push(JobDone {
                            id: job.id,
                            unit: unit as u32,
                            start,
                            end,
                            input: job.input,
                            output: job.output,
                        });
                    }
                }
            }
            self.next_end = self.earliest_end();
            self.dispatch(t);
        }
    }

    fn unit_stats(&self) -> &[UnitStats] {
        &self.stats
    }

    fn units_lost(&self, at: Time) -> u32 {
        (self.running.len() - self.working_units(at)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(id: u64, input: u64, output: u64) -> Job {
        Job {
            id,
            input: Bytes(input),
            output: Bytes(output),
            stages: Stages { zlib: true, ..Default::default() },
            fill: false,
        }
    }

    #[test]
    fn service_time_is_setup_plus_slower_port() {
        let mdu = Mdu::new(&MduConfig::default()).unwrap();
        // 32 KiB in at 1.6 GB/s = 20.48 µs; 64 KiB out at 4 GB/s = 16.384 µs.
        assert_eq!(mdu.service_time(&job(0, 32_768, 65_536)), Time(10_000_000 + 20_480_000));
        // 16 KiB in → 128 KiB out: output bound, 32.768 µs.
        assert_eq!(mdu.service_time(&job(0, 16_384, 131_072)), Time(10_000_000 + 32_768_000));
    }

    #[test]
    fn fifo_to_first_free_unit() {
        let mut mdu = Mdu::new(&MduConfig::default()).unwrap();
        for id in 0..3 {
            mdu.submit(Time::ZERO, job(id, 16_000, 32_000));
        }
        assert_eq!(mdu.busy_units(), 2);
        assert_eq!(mdu.queued(), 1);
        let mut done = Vec::new();
        mdu.advance(Time::from_ms(1), &mut done);
        let order: Vec<(u64, u32)> = done.iter().map(|d| (d.id, d.unit)).collect();
        assert_eq!(order, vec![(0, 0), (1, 1), (2, 0)]);
        assert_eq!(done[2].start, done[0].end);
    }

    /// The idle mask at its widest: 64 units (the most allowed), the last one lost later.
    #[test]
    fn sixty_four_units_fill_lowest_first() {
        let cfg = MduConfig { units: 64, ..MduConfig::default() };
        let mut mdu = Mdu::new(&cfg).unwrap();
        mdu.lose_last_unit_at(Time::from_us(1));
        for id in 0..70 {
            mdu.submit(Time::ZERO, job(id, 16_000, 32_000));
        }
        assert_eq!((mdu.busy_units(), mdu.queued()), (64, 6));
        let mut done = Vec::new();
        mdu.advance(Time::from_ms(1), &mut done);
        let first: Vec<u32> = done.iter().take(64).map(|d| d.unit).collect();
        assert_eq!(first, (0..64).collect::<Vec<u32>>());
        // The six queued jobs went to units 0..6 as they freed; unit 63 (lost) took none.
        let later: Vec<(u64, u32)> = done[64..].iter().map(|d| (d.id, d.unit)).collect();
        assert_eq!(later, (64..70).map(|id| (id, id as u32 - 64)).collect::<Vec<_>>());
    }

    #[test]
    fn a_lost_unit_takes_no_new_jobs() {
        let mut mdu = Mdu::new(&MduConfig::default()).unwrap();
        mdu.lose_last_unit_at(Time::ZERO);
        for id in 0..3 {
            mdu.submit(Time::ZERO, job(id, 16_000, 32_000));
        }
        assert_eq!((mdu.busy_units(), mdu.units_lost(Time::ZERO)), (1, 1));
        let mut done = Vec::new();
        mdu.advance(Time::from_ms(1), &mut done);
        assert!(done.iter().all(|d| d.unit == 0), "{done:?}");
        assert_eq!(done[2].start, done[1].end);
    }
}
