//! A texture set's tiles at one position: one DirectStorage request each, with its own
//! BcpackMode, submitted together; when the file holds them back to back the drive reads
//! them as one IO (one command overhead, one access latency) and the MDU runs three jobs.

use crate::common::{run_file, stat};
use sfsim::iopath::IoPath;
use sfsim::models::nvme::{Request, RequestOptions, Source};
use sfsim::models::units::{Bytes, Time};
use sfsim::models::Hardware;

fn tile(offset: u64, compressed: u64, bcpack_mode: u32) -> Request {
    Request {
        source: Source::File { offset },
        source_size: Bytes(compressed),
        intermediate_size: Bytes(compressed + 1000),
        destination_size: Bytes::kib(64),
        options: RequestOptions { zlib: true, bcpack_mode, swizzle_mode: 0 },
        fill: false,
    }
}

/// Diffuse BC7, normal BC5, specular BC4, each 16-byte aligned after the one before.
fn set_at(base: u64) -> Vec<(Request, u64)> {
    let sizes = [30_001u64, 28_000, 20_500];
    let modes = [7, 5, 4];
    let mut offset = base;
    let mut out = Vec::new();
    for (i, (&size, &mode)) in sizes.iter().zip(&modes).enumerate() {
        out.push((tile(offset, size, mode), i as u64));
        offset = (offset + size).next_multiple_of(16);
    }
    out
}

fn run(hw: &Hardware, batches: &[Vec<(Request, u64)>]) -> (IoPath, Vec<sfsim::iopath::Completed>) {
    let mut io = IoPath::new(hw, 1).unwrap();
    for b in batches {
        io.enqueue_all(Time::ZERO, b).unwrap();
    }
    let mut done = Vec::new();
    while let Some(t) = io.next_wake() {
        io.process(t, &mut done);
    }
    io.finish(done.iter().map(|c| c.done).max().unwrap());
    (io, done)
}

#[test]
fn a_set_load_is_one_io_at_the_drive_and_three_mdu_jobs_with_their_own_modes() {
    let hw = Hardware::default();
    let (mut io, done) = run(&hw, &[set_at(1 << 20)]);
    assert_eq!(io.device_stats().ios, 1, "one IO at the drive");
    assert_eq!(io.merged_reads(), 2);
    assert_eq!(io.device_stats().bytes, 30_001 + 28_000 + 20_500, "padding is not read");
    let jobs: Vec<_> = io.drain_jobs().collect();
    assert_eq!(jobs.len(), 3, "three MDU jobs");
    let mut inputs: Vec<u64> = jobs.iter().map(|j| j.input.0).collect();
    inputs.sort_unstable();
    assert_eq!(inputs, [20_500, 28_000, 30_001], "one job per request, its own bytes");
    assert!(jobs.iter().all(|j| j.output == Bytes::kib(64)));
    // Each request was checked with its own BcpackMode (BC7, BC5, BC4) and completed.
    assert_eq!(done.len(), 3);
    let mut tags: Vec<u64> = done.iter().map(|c| c.tag).collect();
    tags.sort_unstable();
    assert_eq!(tags, [0, 1, 2]);
    // One read: every request's bytes left the drive at the same time.
    assert!(done.iter().all(|c| c.read == done[0].read));

    // Closed form: one command overhead and one access latency for all three.
    let n = &hw.nvme;
    let bytes = Bytes(30_001 + 28_000 + 20_500);
    assert_eq!(done[0].read, n.per_io + n.peak.time_for(bytes) + n.latency);
}

#[test]
fn reads_submitted_apart_or_not_adjacent_are_separate_ios() {
    let hw = Hardware::default();
    // The same three requests, each its own Submit.
    let apart: Vec<Vec<_>> = set_at(0).into_iter().map(|r| vec![r]).collect();
    let (io, done) = run(&hw, &apart);
    assert_eq!((io.device_stats().ios, io.merged_reads()), (3, 0));
    let merged_read = run(&hw, &[set_at(0)]).1[0].read;
    assert!(done.iter().map(|c| c.read).max().unwrap() > merged_read, "three IOs take longer");
    // A gap of 16 bytes or more breaks adjacency.
    let mut gapped = set_at(0);
    gapped[2].0.source = Source::File { offset: 30_016 + 28_000 + 16 };
    assert_eq!(run(&hw, &[gapped]).0.device_stats().ios, 2);
    // Off: no merging at all.
    let mut off = Hardware::default();
    off.nvme.merge_adjacent = false;
    assert_eq!(run(&off, &[set_at(0)]).0.device_stats().ios, 3);
}

#[test]
fn a_merged_io_stays_within_max_io() {
    let mut hw = Hardware::default();
    hw.nvme.max_io = Bytes::kib(64);
    hw.staging = Bytes::mib(1);
    // 30 + 28 KB fit 64 KiB; the third read starts a new IO.
    let (io, _) = run(&hw, &[set_at(0)]);
    assert_eq!((io.device_stats().ios, io.merged_reads()), (2, 1));
}

#[test]
fn the_intermediate_holds_staging_until_its_job_ends() {
    let hw = Hardware { staging: Bytes::kib(512), ..Hardware::default() };
    let mut io = IoPath::new(&hw, 1).unwrap();
    io.enqueue_all(Time::ZERO, &set_at(0)).unwrap();
    // 78.5 KB compressed + 81.5 KB intermediate are held while the set is in flight.
    assert_eq!(io.staging().used().0, 78_501 + 81_501);
    // A request whose one IO cannot fit the whole buffer is refused, not left waiting.
    let mut big = tile(0, 200_000, 7);
    big.intermediate_size = Bytes(400_000);
    big.destination_size = Bytes(600_000);
    let err = io.enqueue(Time::ZERO, big, 9).unwrap_err().to_string();
    assert!(err.contains("staging") && err.contains("512KiB"), "{err}");
}

#[test]
fn shared_per_set_on_a_set_interleaved_file_merges_every_set_load() {
    let sets = ["workload.engine.feedback=SharedPerSet", "workload.content.layout=SetInterleaved", "duration=1500ms"];
    let merged = run_file("scenarios/quickstart.ron", &sets);
    let per_texture =
        run_file("scenarios/quickstart.ron", &sets[..1].iter().chain(&sets[2..]).copied().collect::<Vec<_>>());
    let tiles = stat(&merged, "engine.tiles_loaded");
    assert!(tiles > 100.0, "{tiles} tiles");
    assert!(stat(&merged, "nvme.merged_reads") > 0.5 * tiles, "most set tiles ride one IO");
    assert_eq!(stat(&per_texture, "nvme.merged_reads"), 0.0, "separate files: separate IOs");
    assert!(stat(&merged, "nvme.ios") < stat(&per_texture, "nvme.ios"));
}
