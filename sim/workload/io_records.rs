//! What a streaming run keeps about its IO as it goes, in memory that stops growing:
//! per-frame drive and MDU busy time (for the bottleneck attribution), request latencies
//! ([`Latencies`]: exact up to a cap, then binned), and the drive transfers and MDU jobs
//! that trace.json draws, up to trace.json's own event limit.
//!
//! trace.json keeps at most [`trace::DEFAULT_LIMIT`] events, in the order transfers, then
//! jobs, then frames; so transfers and jobs past that many each could never appear in it.
//! They are counted instead, and the trace counts them among its dropped events, which
//! keeps trace.json byte-identical to a run that kept every span.

use crate::output::trace;
use crate::stats::Latencies;
use crate::workload::attribution::BusyMeter;
use sfsim_models::mdu::JobDone;
use sfsim_models::nvme::Transfer;
use sfsim_models::units::Time;

/// Drive transfers and MDU jobs each kept for trace.json.
pub const TRACE_SPANS: usize = trace::DEFAULT_LIMIT;

/// The spans trace.json draws: the first [`TRACE_SPANS`] transfers and jobs, and how many
/// of each were left out.
#[derive(Debug, Clone, Default)]
pub struct TraceSpans {
    pub transfers: Vec<Transfer>,
    pub jobs: Vec<JobDone>,
    pub transfers_left_out: u64,
    pub jobs_left_out: u64,
    /// MDU units that ran at least one job (kept or not).
    pub mdu_units: u32,
}

/// The IO records of one streaming run.
#[derive(Debug, Clone)]
pub struct IoRecords {
    /// Each frame's start (the frame timeline is fixed before the run).
    starts: Vec<Time>,
    drive_busy: BusyMeter,
    mdu_busy: BusyMeter,
    /// Engine requests' latency, enqueue → data in the pool.
    pub request_latencies: Latencies,
    pub trace: TraceSpans,
    span_cap: usize,
}

impl IoRecords {
    /// Records for frames starting at `starts`.
    pub fn new(starts: Vec<Time>) -> Self {
        Self::with_span_cap(starts, TRACE_SPANS)
    }

    /// As [`IoRecords::new`], keeping at most `span_cap` transfers and jobs (tests).
    pub fn with_span_cap(starts: Vec<Time>, span_cap: usize) -> Self {
        let frames = starts.len();
        IoRecords {
            starts,
            drive_busy: BusyMeter::new(frames),
            mdu_busy: BusyMeter::new(frames),
            request_latencies: Latencies::default(),
            trace: TraceSpans::default(),
            span_cap,
        }
    }

    pub fn transfer(&mut self, t: Transfer) {
        self.drive_busy.add(&self.starts, t.start, t.end);
        if self.trace.transfers.len() < self.span_cap {
            self.trace.transfers.push(t);
        } else {
            self.trace.transfers_left_out += 1;
        }
    }

    pub fn job(&mut self, j: JobDone) {
        self.mdu_busy.add(&self.starts, j.start, j.end);
        self.trace.mdu_units = self.trace.mdu_units.max(j.unit + 1);
        if self.trace.jobs.len() < self.span_cap {
            self.trace.jobs.push(j);
        } else {
            self.trace.jobs_left_out += 1;
        }
    }

    pub fn starts(&self) -> &[Time] {
        &self.starts
    }

    /// The drive's channel time moving bytes in each frame.
    pub fn drive_busy(&self) -> &[Time] {
        self.drive_busy.per_frame()
    }

    /// The MDU units' decompression time in each frame, summed over units.
    pub fn mdu_busy(&self) -> &[Time] {
        self.mdu_busy.per_frame()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sfsim_models::units::Bytes;

    #[test]
    fn busy_time_is_whole_and_spans_stop_at_the_cap() {
        let starts = vec![Time::ZERO, Time::from_ms(10), Time::from_ms(20)];
        let mut r = IoRecords::with_span_cap(starts, 2);
        for i in 0..5u64 {
            let (start, end) = (Time::from_ms(4 * i), Time::from_ms(4 * i + 6));
            r.transfer(Transfer { id: i, start, end, bytes: 1 });
            r.job(JobDone { id: i, unit: (i % 2) as u32, start, end, input: Bytes(1), output: Bytes(1) });
        }
        // Spans [0,6) [4,10) [8,14) [12,18) [16,22): 30 ms, 28 of them before frame 2.
        let ms = |v: u64| Time::from_ms(v);
        assert_eq!(r.drive_busy(), [ms(14), ms(14), ms(2)]);
        assert_eq!(r.mdu_busy(), r.drive_busy());
        assert_eq!((r.trace.transfers.len(), r.trace.transfers_left_out), (2, 3));
        assert_eq!((r.trace.jobs.len(), r.trace.jobs_left_out, r.trace.mdu_units), (2, 3, 2));
    }
}
