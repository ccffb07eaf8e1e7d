//! Every load's lifecycle record (tiles.csv) in memory that stops growing: a record is
//! final once no tile state points at it any more (evicted, forgotten, or replaced by the
//! tile's next load), and only unfinished ones stay in memory. Finished records are
//! written to a spill file at `index × RECORD_BYTES`, so reading it back in index order
//! gives tiles.csv's rows in load order whatever order the records finished in.
//!
//! What the stats need of the records (latencies, the stage breakdown, visible loads) is
//! summed as each record finishes, and the lifecycle checks of `check_invariants` run on
//! it then, so neither has to read the spill back.
//!
//! Unfinished records live in slots that finished ones free, and a tile state holds its
//! record's slot: every lifecycle event finds its record by indexing, as when all records
//! were one vector (a hash map from load index cost city-flythrough about 10 %).

use super::lifecycle::{TileRecord, LATENCY_STAGES};
use super::TileId;
use crate::spill::{Decoder, Encoder, SpillError, SpillFile};
use crate::stats::Latencies;
use sfsim_models::units::Time;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// Bytes of one record in the spill file: tile (2 × u32), which times are set (u32), the
/// request time and the eight other times (u64 ps each).
pub const RECORD_BYTES: usize = 12 + 8 * 9;

/// Finished records held before they are written out together (about 600 KiB).
const PENDING_RECORDS: usize = 4096;

/// Records read back per spill read.
const READ_CHUNK: usize = 4096;

fn times(r: &TileRecord) -> [Option<Time>; 8] {
    [r.analysed, r.submitted, r.issued, r.read, r.decompressed, r.mapped, r.visible, r.evicted]
}

/// A record as its spill bytes.
pub fn encode(r: &TileRecord, out: &mut Vec<u8>) {
    let mut e = Encoder(std::mem::take(out));
    e.u32(r.tile.texture);
    e.u32(r.tile.index);
    let t = times(r);
    e.u32(t.iter().enumerate().fold(0, |m, (i, t)| m | u32::from(t.is_some()) << i));
    e.u64(r.requested.0);
    for t in t {
        e.u64(t.map_or(0, |t| t.0));
    }
    *out = e.0;
}

/// A record back from [`RECORD_BYTES`] bytes of [`encode`].
pub fn decode(bytes: &[u8]) -> TileRecord {
    let mut d = Decoder(bytes);
    let tile = TileId { texture: d.u32(), index: d.u32() };
    let mask = d.u32();
    let requested = Time(d.u64());
    let mut t = [None; 8];
    for (i, slot) in t.iter_mut().enumerate() {
        let v = d.u64();
        *slot = (mask >> i & 1 == 1).then_some(Time(v));
    }
    let [analysed, submitted, issued, read, decompressed, mapped, visible, evicted] = t;
    TileRecord { tile, requested, analysed, submitted, issued, read, decompressed, mapped, visible, evicted }
}

/// The records' contribution to the stats, summed as they finish (order-free and exact:
/// integer sums and nearest-rank percentiles).
#[derive(Debug, Default)]
pub struct RecordSummary {
    /// First requested → visible, per visible load.
    pub latencies: Latencies,
    /// Per [`LATENCY_STAGES`] entry: its lengths over visible loads and their sum (ps).
    pub stages: Vec<(Latencies, u128)>,
}

impl RecordSummary {
    fn add(&mut self, r: &TileRecord) {
        let Some(v) = r.visible else { return };
        self.latencies.push(v.saturating_sub(r.requested));
        if self.stages.is_empty() {
            self.stages = LATENCY_STAGES.iter().map(|_| (Latencies::default(), 0)).collect();
        }
        for (stage, (lengths, total)) in LATENCY_STAGES.iter().zip(&mut self.stages) {
            if let Some(t) = (stage.length)(r) {
                lengths.push(t);
                *total += u128::from(t.0);
            }
        }
    }

    /// Loads that became visible.
    pub fn visible(&self) -> u64 {
        self.latencies.len()
    }
}

/// The lifecycle records of a run.
#[derive(Debug, Default)]
pub struct RecordStore {
    count: u32,
    /// Unfinished records with their load index, by slot.
    open: Vec<Option<(u32, TileRecord)>>,
    free: Vec<u32>,
    /// Finished, not yet written (sorted by index once the run ends).
    pending: Vec<(u32, TileRecord)>,
    spill: Option<SpillFile>,
    spill_dir: Option<PathBuf>,
    summary: RecordSummary,
    /// Records of loads that failed: they must never become visible.
    failed: BTreeSet<u32>,
    violation: Option<String>,
    error: Option<SpillError>,
    finished: bool,
}

impl RecordStore {
    /// Spill files go to `dir` (the system's temporary folder when None).
    pub fn set_spill_dir(&mut self, dir: Option<PathBuf>) {
        self.spill_dir = dir;
    }

    /// Records opened so far.
    pub fn len(&self) -> u32 {
        self.count
    }

    /// No record opened yet.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// A new record; its slot (the tile state keeps it while the record is unfinished).
    pub fn open(&mut self, r: TileRecord) -> u32 {
        let entry = Some((self.count, r));
        self.count += 1;
        match self.free.pop() {
            Some(slot) => {
                self.open[slot as usize] = entry;
                slot
            }
            None => {
                self.open.push(entry);
                self.open.len() as u32 - 1
            }
        }
    }

    /// An unfinished record, by slot.
    pub fn get(&self, slot: u32) -> Option<&TileRecord> {
        self.open.get(slot as usize)?.as_ref().map(|(_, r)| r)
    }

    /// An unfinished record, to fill in.
    pub fn get_mut(&mut self, slot: u32) -> Option<&mut TileRecord> {
        self.open.get_mut(slot as usize)?.as_mut().map(|(_, r)| r)
    }

    fn index_of(&self, slot: u32) -> Option<u32> {
        self.open.get(slot as usize)?.as_ref().map(|&(i, _)| i)
    }

    /// Unfinished records (no order).
    pub fn unfinished(&self) -> impl Iterator<Item = &TileRecord> {
        self.open.iter().flatten().map(|(_, r)| r)
    }

    /// The record's load failed: it must never become visible.
    pub fn mark_failed(&mut self, slot: u32) {
        if let Some(i) = self.index_of(slot) {
            self.failed.insert(i);
        }
    }

    /// Whether the record's load failed.
    pub fn is_failed(&self, slot: u32) -> bool {
        self.index_of(slot).is_some_and(|i| self.failed.contains(&i))
    }

    /// Failed loads' records still unfinished.
    pub fn unfinished_failed(&self) -> impl Iterator<Item = &TileRecord> {
        self.open.iter().flatten().filter(|(i, _)| self.failed.contains(i)).map(|(_, r)| r)
    }

    /// No tile points at the record any more: it will not change.
    pub fn finish(&mut self, slot: u32) {
        let Some((index, r)) = self.open.get_mut(slot as usize).and_then(Option::take) else { return };
        self.free.push(slot);
        self.settle(index, &r);
        self.pending.push((index, r));
        if self.pending.len() >= PENDING_RECORDS && !self.finished {
            self.flush();
        }
    }

    fn settle(&mut self, index: u32, r: &TileRecord) {
        self.summary.add(r);
        if self.violation.is_none() {
            let failed = self.failed.remove(&index);
            self.violation = lifecycle_violation(r, failed);
        } else {
            self.failed.remove(&index);
        }
    }

    /// The run is over: every record is final.
    pub fn finish_all(&mut self) {
        if self.finished {
            return;
        }
        // The slots move into `pending` and are freed: one copy of the records at a time.
        let mut pending = std::mem::take(&mut self.pending);
        let finished = pending.len();
        pending.extend(std::mem::take(&mut self.open).into_iter().flatten());
        self.free = Vec::new();
        pending[finished..].sort_unstable_by_key(|&(i, _)| i);
        for (i, r) in &pending[finished..] {
            self.settle(*i, r);
        }
        pending.sort_unstable_by_key(|&(i, _)| i);
        self.pending = pending;
        // Sorted once here (a nearest-rank percentile sorts in place), the stats read the
        // percentiles without sorting a copy of each series.
        let summary = &mut self.summary;
        for l in std::iter::once(&mut summary.latencies).chain(summary.stages.iter_mut().map(|(l, _)| l)) {
            l.percentile(50);
        }
        self.finished = true;
    }

    /// Writes the pending records at their offsets, consecutive ones in one write.
    fn flush(&mut self) {
        if self.error.is_some() {
            self.pending.clear();
            return;
        }
        self.pending.sort_unstable_by_key(|&(i, _)| i);
        let spill = match self.spill.take() {
            Some(s) => Ok(s),
            None => SpillFile::create(self.spill_dir.as_deref()),
        };
        let mut spill = match spill {
            Ok(s) => s,
            Err(e) => {
                self.error = Some(e);
                self.pending.clear();
                return;
            }
        };
        let mut bytes = Vec::new();
        let mut run_start = None;
        let mut next = 0;
        for (i, r) in self.pending.drain(..) {
            if run_start.is_some() && i != next {
                let at = run_start.unwrap_or(0) as u64 * RECORD_BYTES as u64;
                if let Err(e) = spill.write_at(at, &bytes) {
                    self.error.get_or_insert(e);
                }
                bytes.clear();
                run_start = None;
            }
            run_start.get_or_insert(i);
            encode(&r, &mut bytes);
            next = i + 1;
        }
        if let Some(start) = run_start {
            if let Err(e) = spill.write_at(start as u64 * RECORD_BYTES as u64, &bytes) {
                self.error.get_or_insert(e);
            }
        }
        self.spill = Some(spill);
    }

    /// The first spill-file error (the run stops on it).
    pub fn take_error(&mut self) -> Option<SpillError> {
        self.error.take()
    }

    /// The first finished record whose lifecycle was out of order (or a failed load that
    /// became visible).
    pub fn violation(&self) -> Option<&str> {
        self.violation.as_deref()
    }

    /// What the stats need of the records finished so far (all of them after
    /// [`finish_all`](Self::finish_all)).
    pub fn summary(&self) -> &RecordSummary {
        &self.summary
    }

    /// Every record in index (load) order: unfinished ones as they are now.
    pub fn read(&self) -> RecordReader<'_> {
        let memory = if self.finished {
            std::borrow::Cow::Borrowed(&self.pending[..])
        } else {
            let mut all: Vec<(u32, TileRecord)> =
                self.open.iter().flatten().cloned().chain(self.pending.iter().cloned()).collect();
            all.sort_unstable_by_key(|&(i, _)| i);
            std::borrow::Cow::Owned(all)
        };
        RecordReader { store: self, memory, next: 0, in_memory: 0, chunk: Vec::new(), chunk_start: 0 }
    }
}

/// The lifecycle checks of a finished record.
pub fn lifecycle_violation(r: &TileRecord, failed: bool) -> Option<String> {
    if failed && (r.visible.is_some() || r.mapped.is_some() && r.decompressed.is_some()) {
        return Some(format!("{r:?}: a failed load was made visible"));
    }
    let mut last = Some(r.requested);
    for t in [r.submitted, r.read, r.decompressed].into_iter().flatten() {
        if last.is_some_and(|l| t < l) {
            return Some(format!("{r:?}: lifecycle times out of order"));
        }
        last = Some(t);
    }
    if let Some(v) = r.visible {
        let (Some(d), Some(m)) = (r.decompressed, r.mapped) else {
            return Some(format!("{r:?}: visible before it was decompressed and mapped"));
        };
        if v < d || v < m {
            return Some(format!("{r:?}: visible before its data and mapping were ready"));
        }
    }
    if let (Some(e), Some(v)) = (r.evicted, r.visible) {
        if e < v {
            return Some(format!("{r:?}: evicted before visible"));
        }
    }
    None
}

/// Records in index order: those still in memory from there, the rest from the spill file.
pub struct RecordReader<'a> {
    store: &'a RecordStore,
    /// Records not in the spill file, by index.
    memory: std::borrow::Cow<'a, [(u32, TileRecord)]>,
    next: u32,
    in_memory: usize,
    chunk: Vec<u8>,
    chunk_start: u32,
}

impl Iterator for RecordReader<'_> {
    type Item = Result<TileRecord, SpillError>;

    fn next(&mut self) -> Option<Self::Item> {
        let s = self.store;
        while self.next < s.count {
            let i = self.next;
            self.next += 1;
            if let Some((p, r)) = self.memory.get(self.in_memory) {
                if *p == i {
                    self.in_memory += 1;
                    return Some(Ok(r.clone()));
                }
            }
            let Some(spill) = &s.spill else { continue };
            let offset_in_chunk = i.wrapping_sub(self.chunk_start) as usize * RECORD_BYTES;
            if self.chunk.is_empty() || offset_in_chunk >= self.chunk.len() {
                let n = READ_CHUNK.min((s.count - i) as usize);
                self.chunk.resize(n * RECORD_BYTES, 0);
                self.chunk_start = i;
                if let Err(e) = spill.read_at(u64::from(i) * RECORD_BYTES as u64, &mut self.chunk) {
                    self.next = s.count;
                    return Some(Err(e));
                }
            }
            let at = (i - self.chunk_start) as usize * RECORD_BYTES;
            return Some(Ok(decode(&self.chunk[at..at + RECORD_BYTES])));
        }
        None
    }
}

#[cfg(test)]
#[path = "records_tests.rs"]
mod tests;
