//! frames.csv's rows in memory that stops growing: what a frame measured is final when the
//! frame ends, so each row goes to a spill file then (fixed-size, in frame order) and is
//! read back when the outputs are written. The two parts of a row that are only known
//! later — the engine's report of the frame (its feedback pass may outlast it) and its
//! bottleneck (attributed from every load at the end) — are joined on reading.

use super::attribution::Resource;
use super::stream::{StreamFrame, MIP_COLUMNS};
use crate::engine::FrameReport;
use crate::scene::FrameStats;
use crate::spill::{Decoder, Encoder, SpillError, SpillFile};
use sfsim_models::units::Time;
use std::path::PathBuf;

/// Bytes of one row in the spill file.
pub const FRAME_BYTES: usize = 8 * (2 + 9 + crate::scene::READ_MIPS + 6 + 2 * MIP_COLUMNS) + 4;

/// Rows held before they are written out together (about 450 KiB); a run this short never
/// creates a spill file.
const BUFFERED_ROWS: usize = 1024;

/// The rows of a run's frames.
#[derive(Debug, Default)]
pub struct FrameRows {
    spill: Option<SpillFile>,
    spill_dir: Option<PathBuf>,
    /// Rows after the spilled ones, encoded.
    buffer: Vec<u8>,
    spilled: u64,
    len: u64,
    bottlenecks: Vec<Resource>,
    error: Option<SpillError>,
}

fn encode(r: &StreamFrame, out: &mut Vec<u8>) {
    let mut e = Encoder(std::mem::take(out));
    e.u64(r.frame);
    e.u64(r.time.0);
    let s = &r.sampler;
    for v in [s.samples, s.hits, s.texture_samples, s.feedback_writes, s.quality_samples] {
        e.u64(v);
    }
    e.f64(s.lod_deficit_sum);
    for v in [s.blurry, s.nonresident_reads, s.nonresident_reads_point] {
        e.u64(v);
    }
    s.reads_by_mip.iter().for_each(|&v| e.u64(v));
    for v in [r.tiles_in_flight, r.staging_used, r.io_waiting, r.nvme_bytes, r.mdu_in, r.mdu_out] {
        e.u64(v);
    }
    e.u32(r.pool_used);
    r.resident_by_mip.iter().chain(&r.requested_by_mip).for_each(|&v| e.u64(v));
    *out = e.0;
}

/// A row back from its bytes, with the engine's report and the bottleneck.
fn decode(bytes: &[u8], engine: FrameReport, bottleneck: Resource) -> StreamFrame {
    let mut d = Decoder(bytes);
    let (frame, time) = (d.u64(), Time(d.u64()));
    let sampler = FrameStats {
        samples: d.u64(),
        hits: d.u64(),
        texture_samples: d.u64(),
        feedback_writes: d.u64(),
        quality_samples: d.u64(),
        lod_deficit_sum: d.f64(),
        blurry: d.u64(),
        nonresident_reads: d.u64(),
        nonresident_reads_point: d.u64(),
        reads_by_mip: std::array::from_fn(|_| d.u64()),
    };
    let [tiles_in_flight, staging_used, io_waiting, nvme_bytes, mdu_in, mdu_out] = std::array::from_fn(|_| d.u64());
    let pool_used = d.u32();
    let resident_by_mip = std::array::from_fn(|_| d.u64());
    let requested_by_mip = std::array::from_fn(|_| d.u64());
    StreamFrame {
        frame,
        time,
        sampler,
        engine,
        tiles_in_flight,
        pool_used,
        staging_used,
        io_waiting,
        nvme_bytes,
        mdu_in,
        mdu_out,
        resident_by_mip,
        requested_by_mip,
        bottleneck,
    }
}

impl FrameRows {
    /// Rows whose spill file goes to `dir` (the system's temporary folder when None).
    pub fn new(spill_dir: Option<PathBuf>) -> Self {
        FrameRows { spill_dir, ..FrameRows::default() }
    }

    /// Frames recorded.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// A finished frame's row (its `engine` and `bottleneck` are filled in on reading).
    pub fn push(&mut self, row: &StreamFrame) {
        encode(row, &mut self.buffer);
        self.len += 1;
        if self.buffer.len() >= BUFFERED_ROWS * FRAME_BYTES {
            self.flush();
        }
    }

    fn flush(&mut self) {
        if self.error.is_some() {
            self.buffer.clear();
            return;
        }
        let spill = match self.spill.take() {
            Some(s) => Ok(s),
            None => SpillFile::create(self.spill_dir.as_deref()),
        };
        let written = spill.and_then(|mut s| s.append(&self.buffer).map(|()| s));
        match written {
            Ok(s) => {
                self.spill = Some(s);
                self.spilled += (self.buffer.len() / FRAME_BYTES) as u64;
            }
            Err(e) => self.error = Some(e),
        }
        self.buffer.clear();
    }

    /// The first spill-file error (the run stops on it).
    pub fn take_error(&mut self) -> Option<SpillError> {
        self.error.take()
    }

    /// Each frame's bottleneck, known once the run is over.
    pub fn set_bottlenecks(&mut self, b: Vec<Resource>) {
        self.bottlenecks = b;
    }

    /// The rows in frame order, each joined with its report (from `reports`, the engine's).
    pub fn read<'a>(&'a self, reports: &'a [FrameReport]) -> FrameReader<'a> {
        FrameReader { rows: self, reports, next: 0, chunk: Vec::new(), chunk_start: 0 }
    }
}

/// Rows per spill read.
const READ_CHUNK: u64 = 256;

/// frames.csv's rows in order.
pub struct FrameReader<'a> {
    rows: &'a FrameRows,
    reports: &'a [FrameReport],
    next: u64,
    chunk: Vec<u8>,
    chunk_start: u64,
}

impl Iterator for FrameReader<'_> {
    type Item = Result<StreamFrame, SpillError>;

    fn next(&mut self) -> Option<Self::Item> {
        let rows = self.rows;
        let i = self.next;
        if i >= rows.len {
            return None;
        }
        self.next += 1;
        let bytes = if i >= rows.spilled {
            let at = (i - rows.spilled) as usize * FRAME_BYTES;
            &rows.buffer[at..at + FRAME_BYTES]
        } else {
            let spill = rows.spill.as_ref()?;
            if self.chunk.is_empty() || i >= self.chunk_start + (self.chunk.len() / FRAME_BYTES) as u64 {
                let n = READ_CHUNK.min(rows.spilled - i) as usize;
                self.chunk.resize(n * FRAME_BYTES, 0);
                self.chunk_start = i;
                if let Err(e) = spill.read_at(i * FRAME_BYTES as u64, &mut self.chunk) {
                    self.next = rows.len;
                    return Some(Err(e));
                }
            }
            let at = (i - self.chunk_start) as usize * FRAME_BYTES;
            &self.chunk[at..at + FRAME_BYTES]
        };
        let report = self.reports.get(i as usize).cloned().unwrap_or_default();
        let bottleneck = rows.bottlenecks.get(i as usize).copied().unwrap_or(Resource::None);
        Some(Ok(decode(bytes, report, bottleneck)))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.rows.len - self.next) as usize;
        (left, Some(left))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn random_row(rng: &mut impl Rng, frame: u64) -> StreamFrame {
        let mut sampler = FrameStats {
            samples: rng.gen(),
            hits: rng.gen(),
            texture_samples: rng.gen(),
            feedback_writes: rng.gen(),
            quality_samples: rng.gen(),
            lod_deficit_sum: rng.gen::<f64>() * 1e6,
            blurry: rng.gen(),
            nonresident_reads: rng.gen(),
            nonresident_reads_point: rng.gen(),
            reads_by_mip: [0; crate::scene::READ_MIPS],
        };
        sampler.reads_by_mip.iter_mut().for_each(|v| *v = rng.gen());
        StreamFrame {
            frame,
            time: Time(rng.gen()),
            sampler,
            engine: FrameReport { loads: rng.gen(), texels_analysed: rng.gen(), ..FrameReport::default() },
            tiles_in_flight: rng.gen(),
            pool_used: rng.gen(),
            staging_used: rng.gen(),
            io_waiting: rng.gen(),
            nvme_bytes: rng.gen(),
            mdu_in: rng.gen(),
            mdu_out: rng.gen(),
            resident_by_mip: std::array::from_fn(|_| rng.gen()),
            requested_by_mip: std::array::from_fn(|_| rng.gen()),
            bottleneck: Resource::ALL[rng.gen_range(0..Resource::ALL.len())],
        }
    }

    #[test]
    fn rows_read_back_equal_what_was_pushed_across_spills() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let rows: Vec<StreamFrame> = (0..2 * BUFFERED_ROWS as u64 + 77).map(|f| random_row(&mut rng, f)).collect();
        let mut spilled = FrameRows::new(None);
        for r in &rows {
            spilled.push(r);
        }
        assert!(spilled.spill.is_some() && spilled.spilled > 0, "the test must spill");
        spilled.set_bottlenecks(rows.iter().map(|r| r.bottleneck).collect());
        let reports: Vec<FrameReport> = rows.iter().map(|r| r.engine.clone()).collect();
        let back: Vec<StreamFrame> = spilled.read(&reports).collect::<Result<_, _>>().expect("read back");
        assert_eq!(back.len(), rows.len());
        for (b, r) in back.iter().zip(&rows) {
            assert_eq!(b, r);
            assert_eq!(b.sampler.lod_deficit_sum.to_bits(), r.sampler.lod_deficit_sum.to_bits());
        }
    }
}
