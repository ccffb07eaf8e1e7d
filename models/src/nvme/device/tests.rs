//! The device against its guarantee: stalls cut to the budget, peak rate, and the window
//! invariant under random stalls and IO sizes.

use super::*;
use crate::nvme::StallProfile;
use crate::units::Rate;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Keeps the device's queue full with IOs drawn from `sizes` until `end`.
fn saturate(dev: &mut NvmeDevice, end: Time, sizes: (u64, u64), seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut now, mut id, mut done) = (Time::ZERO, 0u64, Vec::new());
    loop {
        while dev.can_accept() {
            dev.submit(now, id, Bytes(rng.gen_range(sizes.0..=sizes.1)));
            id += 1;
        }
        let Some(t) = dev.next_event().filter(|&t| t <= end) else {
            break;
        };
        dev.advance(t, &mut done);
        now = t;
    }
    dev.finish(end);
}

#[test]
fn periodic_stalls_are_cut_to_the_budget() {
    let cfg = NvmeConfig {
        stalls: StallProfile::Periodic { every: Time::from_ms(20), length: Time::from_ms(15) },
        ..Default::default()
    };
    let mut dev = NvmeDevice::new(&cfg, 1).unwrap();
    saturate(&mut dev, Time::from_secs(2), (65_536, 65_536), 7);
    let s = dev.stats();
    assert!(s.stall_refused > Time::ZERO, "the governor must have refused stall time");
    assert!(s.window_min.unwrap() >= Bytes::mb(500), "{s:?}");
}

#[test]
fn unstalled_device_runs_at_peak_less_command_overhead() {
    let mut dev = NvmeDevice::new(&NvmeConfig::default(), 1).unwrap();
    saturate(&mut dev, Time::from_secs(1), (524_288, 524_288), 7);
    // 512 KiB at 2400 MB/s = 218.45 µs + 0.5 µs overhead → 2394.5 MB/s.
    let per_window = dev.stats().window_min.unwrap().0 as f64 / 0.25 / 1e6;
    assert!((per_window - 2394.5).abs() < 0.5, "{per_window}");
}

fn profile() -> impl Strategy<Value = StallProfile> {
    prop_oneof![
        Just(StallProfile::None),
        (1u64..100, 1u64..100).prop_map(|(every, frac)| StallProfile::Periodic {
            every: Time::from_ms(every),
            length: Time::from_ms(every).mul_div(frac, 101),
        }),
        (1u64..50_000, 1u64..50_000).prop_map(|(gap, len)| StallProfile::Random {
            mean_gap: Time::from_us(gap),
            mean_length: Time::from_us(len),
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    /// SPEC §1: every full 250 ms window with work queued delivers ≥ 500 MB and never
    /// more than peak × 250 ms, whatever the stalls and IO sizes (≥ guarantee_min_io).
    #[test]
    fn every_busy_window_meets_the_guarantee(
        stalls in profile(),
        peak_mb in 2000u64..4000,
        per_io_ns in 0u64..400,
        min_io_kib in prop_oneof![16u64..64, 16u64..2048],
        span_kib in prop_oneof![0u64..32, 0u64..4096],
        seed in any::<u64>(),
    ) {
        let cfg = NvmeConfig {
            peak: Rate::mb_per_sec(peak_mb),
            per_io: Time::from_ns(per_io_ns),
            queue_depth: 64,
            stalls,
            ..Default::default()
        };
        prop_assume!(cfg.validate().is_ok());
        let mut dev = NvmeDevice::new(&cfg, seed).unwrap();
        let min_io = min_io_kib * 1024;
        saturate(&mut dev, Time::from_secs(1), (min_io, min_io + span_kib * 1024), seed);
        let s = dev.stats();
        let min = s.window_min.expect("a saturated second has full windows");
        prop_assert!(min >= Bytes::mb(500), "window_min {} < 500MB ({:?})", min, s);
        // Integer interpolation of paused transfers may round up by a byte per pause.
        let max_allowed = cfg.peak.bytes_in(cfg.window).0 + 64;
        prop_assert!(s.window_max.unwrap().0 <= max_allowed, "window_max {:?}", s.window_max);
    }
}
