//! RecordStore: spill and read-back, the summary's stats, the lifecycle checks.

use super::*;
use crate::stats::percentile;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

fn random_record(rng: &mut impl Rng) -> TileRecord {
    let mut t = || rng.gen_bool(0.7).then(|| Time(rng.gen_range(0..u64::MAX / 2)));
    let (analysed, submitted, issued, read, decompressed, mapped, visible, evicted) =
        (t(), t(), t(), t(), t(), t(), t(), t());
    TileRecord {
        tile: TileId { texture: rng.gen(), index: rng.gen() },
        requested: Time(rng.gen_range(0..u64::MAX / 2)),
        analysed,
        submitted,
        issued,
        read,
        decompressed,
        mapped,
        visible,
        evicted,
    }
}

#[test]
fn a_record_survives_its_spill_bytes() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
    for _ in 0..2000 {
        let r = random_record(&mut rng);
        let mut bytes = Vec::new();
        encode(&r, &mut bytes);
        assert_eq!(bytes.len(), RECORD_BYTES);
        assert_eq!(decode(&bytes), r);
    }
}

#[test]
fn records_finished_in_any_order_read_back_in_load_order_with_exact_stats() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    // Enough to spill several times, some left unfinished until the end.
    let all: Vec<TileRecord> = (0..3 * PENDING_RECORDS + 123).map(|_| random_record(&mut rng)).collect();
    let mut store = RecordStore::default();
    // Records open and finish interleaved, so finished records' slots are reused.
    let mut live: Vec<u32> = Vec::new();
    for r in &all {
        live.push(store.open(r.clone()));
        if rng.gen_bool(0.6) {
            let k = rng.gen_range(0..live.len());
            store.finish(live.swap_remove(k));
        }
    }
    live.shuffle(&mut rng);
    for &slot in &live[..live.len() / 2] {
        store.finish(slot);
    }
    assert!(store.spill.is_some(), "the test must spill");
    assert!(store.open.len() < all.len() / 2, "slots are reused: {}", store.open.len());
    assert_eq!(store.read().collect::<Result<Vec<_>, _>>().expect("read back"), all, "mid-run");
    store.finish_all();
    assert!(store.take_error().is_none());
    assert_eq!(store.read().collect::<Result<Vec<_>, _>>().expect("read back"), all);

    let visible: Vec<&TileRecord> = all.iter().filter(|r| r.visible.is_some()).collect();
    let mut latencies: Vec<Time> = visible.iter().map(|r| r.visible.unwrap().saturating_sub(r.requested)).collect();
    latencies.sort_unstable();
    let summary = store.summary();
    assert_eq!(summary.visible(), visible.len() as u64);
    assert_eq!(summary.latencies.cdf_samples(usize::MAX >> 8), latencies);
    for (stage, (lengths, total)) in LATENCY_STAGES.iter().zip(&summary.stages) {
        let mut want: Vec<Time> = visible.iter().filter_map(|r| (stage.length)(r)).collect();
        want.sort_unstable();
        assert_eq!(*total, want.iter().map(|t| u128::from(t.0)).sum::<u128>(), "{}", stage.name);
        assert_eq!(lengths.percentile_of(95), percentile(&want, 95), "{}", stage.name);
    }
}

#[test]
fn a_record_out_of_order_is_reported_once_it_finishes() {
    let mut store = RecordStore::default();
    let mut r = TileRecord::new(TileId { texture: 0, index: 0 }, Time::from_ms(10));
    r.submitted = Some(Time::from_ms(5));
    let i = store.open(r);
    assert!(store.violation().is_none());
    store.finish(i);
    assert!(store.violation().is_some_and(|v| v.contains("out of order")), "{:?}", store.violation());
}
