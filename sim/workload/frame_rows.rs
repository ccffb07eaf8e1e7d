//! frames.csv's rows in memory that stops growing: what a frame measured is final when the
//! frame ends, so each row goes to a spill file then (fixed-size, in frame order) and is
//! read back when the outputs are written. The two parts of a row that are only known
//! later — the engine's report of the frame (its feedback pass may outlast it) and its
//! bottleneck (attributed from every load at the end) — are joined on reading.

use super::attribution::{FrameStop, Resource};
use super::stream::{StreamFrame, MIP_COLUMNS};
use crate::engine::{decode_report, encode_report, FrameReport, REPORT_BYTES};
use crate::scene::FrameStats;
use crate::spill::{Decoder, Encoder, SpillError, SpillFile};
use sfsim_models::units::Time;
use std::path::{Path, PathBuf};

/// Bytes of one row in the spill file.
pub const FRAME_BYTES: usize = 8 * (2 + 10 + crate::scene::READ_MIPS + 6 + 2 * MIP_COLUMNS) + 4;

/// Rows held before they are written out together; a run this short never creates a
/// spill file.
const BUFFERED_ROWS: usize = 1024;

/// Rows per spill read.
const READ_CHUNK: usize = 256;

/// Fixed-size rows appended in order: the latest in memory, the rest in a spill file.
#[derive(Debug)]
struct SpilledRows {
    row_bytes: usize,
    spill: Option<SpillFile>,
    /// Rows after the spilled ones, encoded.
    buffer: Vec<u8>,
    spilled: u64,
    len: u64,
}

impl SpilledRows {
    fn new(row_bytes: usize) -> Self {
        SpilledRows { row_bytes, spill: None, buffer: Vec::new(), spilled: 0, len: 0 }
    }

    /// Adds a row encoded by `encode`; a full buffer goes to the spill file.
    fn push(&mut self, dir: Option<&Path>, encode: impl FnOnce(&mut Vec<u8>)) -> Result<(), SpillError> {
        encode(&mut self.buffer);
        self.len += 1;
        if self.buffer.len() < BUFFERED_ROWS * self.row_bytes {
            return Ok(());
        }
        let spill = match self.spill.as_mut() {
            Some(s) => s,
            None => self.spill.insert(SpillFile::create(dir)?),
        };
        spill.append(&self.buffer)?;
        self.spilled += (self.buffer.len() / self.row_bytes) as u64;
        self.buffer.clear();
        Ok(())
    }

    /// Row `i`'s bytes, through `chunk` (rows read ahead from the spill file).
    fn get<'a>(&'a self, i: u64, chunk: &'a mut Chunk) -> Result<&'a [u8], SpillError> {
        let n = self.row_bytes;
        if i >= self.spilled {
            let at = (i - self.spilled) as usize * n;
            return Ok(&self.buffer[at..at + n]);
        }
        let Some(spill) = &self.spill else { return Ok(&[]) };
        let cached = i >= chunk.start && i < chunk.start + (chunk.bytes.len() / n) as u64;
        if !cached {
            let rows = (READ_CHUNK as u64).min(self.spilled - i) as usize;
            chunk.bytes.resize(rows * n, 0);
            chunk.start = i;
            spill.read_at(i * n as u64, &mut chunk.bytes)?;
        }
        let at = (i - chunk.start) as usize * n;
        Ok(&chunk.bytes[at..at + n])
    }
}

/// Spilled rows read ahead.
#[derive(Default)]
struct Chunk {
    bytes: Vec<u8>,
    start: u64,
}

/// The rows of a run's frames and the engine's final reports of them.
#[derive(Debug)]
pub struct FrameRows {
    spill_dir: Option<PathBuf>,
    rows: SpilledRows,
    reports: SpilledRows,
    /// What the attribution needs of each report.
    stops: Vec<FrameStop>,
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
    for v in [s.blurry, s.nonresident_reads, s.nonresident_reads_point, s.reused_samples] {
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
        reused_samples: d.u64(),
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
    /// Rows whose spill files go to `dir` (the system's temporary folder when None).
    pub fn new(spill_dir: Option<PathBuf>) -> Self {
        FrameRows {
            spill_dir,
            rows: SpilledRows::new(FRAME_BYTES),
            reports: SpilledRows::new(REPORT_BYTES),
            stops: Vec::new(),
            bottlenecks: Vec::new(),
            error: None,
        }
    }

    /// Frames recorded.
    pub fn len(&self) -> usize {
        self.rows.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.rows.len == 0
    }

    /// A finished frame's row (its `engine` and `bottleneck` are joined on reading).
    pub fn push(&mut self, row: &StreamFrame) {
        if let Err(e) = self.rows.push(self.spill_dir.as_deref(), |out| encode(row, out)) {
            self.error.get_or_insert(e);
        }
    }

    /// The engine's final report of the next frame (they come in frame order).
    pub fn push_report(&mut self, report: &FrameReport) {
        self.stops.push(FrameStop::from(report));
        if let Err(e) = self.reports.push(self.spill_dir.as_deref(), |out| encode_report(report, out)) {
            self.error.get_or_insert(e);
        }
    }

    /// Where each frame's submission pass stopped (the reports handed over so far).
    pub fn stops(&self) -> &[FrameStop] {
        &self.stops
    }

    /// The first spill-file error (the run stops on it).
    pub fn take_error(&mut self) -> Option<SpillError> {
        self.error.take()
    }

    /// Each frame's bottleneck, known once the run is over.
    pub fn set_bottlenecks(&mut self, b: Vec<Resource>) {
        self.bottlenecks = b;
    }

    /// The rows in frame order, each joined with its report.
    pub fn read(&self) -> FrameReader<'_> {
        FrameReader { rows: self, next: 0, row_chunk: Chunk::default(), report_chunk: Chunk::default() }
    }
}

/// frames.csv's rows in order.
pub struct FrameReader<'a> {
    rows: &'a FrameRows,
    next: u64,
    row_chunk: Chunk,
    report_chunk: Chunk,
}

impl FrameReader<'_> {
    fn row(&mut self, i: u64) -> Result<StreamFrame, SpillError> {
        let all = self.rows;
        let report = if i < all.reports.len {
            decode_report(all.reports.get(i, &mut self.report_chunk)?)
        } else {
            FrameReport::default()
        };
        let bottleneck = all.bottlenecks.get(i as usize).copied().unwrap_or(Resource::None);
        Ok(decode(all.rows.get(i, &mut self.row_chunk)?, report, bottleneck))
    }
}

impl Iterator for FrameReader<'_> {
    type Item = Result<StreamFrame, SpillError>;

    fn next(&mut self) -> Option<Self::Item> {
        let i = self.next;
        if i >= self.rows.rows.len {
            return None;
        }
        self.next += 1;
        let row = self.row(i);
        if row.is_err() {
            self.next = self.rows.rows.len;
        }
        Some(row)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.rows.rows.len - self.next) as usize;
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
            reused_samples: rng.gen(),
            reads_by_mip: [0; crate::scene::READ_MIPS],
        };
        sampler.reads_by_mip.iter_mut().for_each(|v| *v = rng.gen());
        StreamFrame {
            frame,
            time: Time(rng.gen()),
            sampler,
            engine: random_report(rng),
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

    fn random_report(rng: &mut impl Rng) -> FrameReport {
        let mut t = || Time(rng.gen());
        let (a, b, c, d, e, f, g, h, i, j, k) = (t(), t(), t(), t(), t(), t(), t(), t(), t(), t(), t());
        FrameReport {
            loads: rng.gen(),
            evictions: rng.gen(),
            became_visible: rng.gen(),
            seen_list: rng.gen(),
            bottleneck: [None, Some(crate::engine::Bottleneck::Pool), Some(crate::engine::Bottleneck::UploadCap)]
                [rng.gen_range(0..3)],
            texels_analysed: rng.gen(),
            cpu_analysis: a,
            cpu_sort: b,
            cpu_submit: c,
            cpu_minmip: d,
            tiles_in_flight: rng.gen(),
            pool_used: rng.gen(),
            gpu: crate::engine::FrameGpu { submitted: e, render_start: f, feedback_ready: g },
            gpu_render: h,
            gpu_feedback: i,
            minmip_texels_copied: rng.gen(),
            pass_start: rng.gen_bool(0.5).then_some(j),
            pass_end: rng.gen_bool(0.5).then_some(k),
            pass_late: rng.gen(),
            feedback_maps: rng.gen(),
            feedback_maps_skipped: rng.gen(),
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
        for r in &rows {
            spilled.push_report(&r.engine);
        }
        assert!(spilled.rows.spilled > 0 && spilled.reports.spilled > 0, "the test must spill");
        spilled.set_bottlenecks(rows.iter().map(|r| r.bottleneck).collect());
        let back: Vec<StreamFrame> = spilled.read().collect::<Result<_, _>>().expect("read back");
        assert_eq!(back.len(), rows.len());
        for (b, r) in back.iter().zip(&rows) {
            assert_eq!(b, r);
            assert_eq!(b.sampler.lod_deficit_sum.to_bits(), r.sampler.lod_deficit_sum.to_bits());
        }
    }
}
