//! The IO workload's throughput series: the drive's and the MDU's bytes per guarantee
//! window and per fine bin, from the path's transfer and job logs.
//!
//! [`Bins::add_span`] gives each bin the difference of the span's cumulative shares at the
//! bin's two edges, and a share depends only on where its edge lies. So when every window
//! edge is a fine-bin edge (the window a whole number of fine bins), a window's bytes are
//! exactly the sum of its fine bins', and only the fine bins are kept (half the additions
//! per IO); otherwise both are.

use crate::iopath::IoPath;
use crate::stats::Bins;
use sfsim_models::units::Time;

/// Per-window and per-fine-bin bytes of the drive (`nvme`) and the MDU (`input`, `output`).
pub(super) struct ThroughputBins {
    fine: [Bins; 3],
    /// Per-window bins, kept only when windows are not a whole number of fine bins.
    window: Option<[Bins; 3]>,
    window_width: Time,
}

/// Per-bin bytes of the drive, the MDU's input and its output.
pub(super) type Series = (Vec<u64>, Vec<u64>, Vec<u64>);

impl ThroughputBins {
    pub(super) fn new(window: Time, fine: Time) -> Self {
        let bins = |width| [Bins::new(width), Bins::new(width), Bins::new(width)];
        let aligned = window.0.is_multiple_of(fine.0);
        ThroughputBins { fine: bins(fine), window: (!aligned).then(|| bins(window)), window_width: window }
    }

    /// Adds the transfers and jobs the path logged since the last drain.
    pub(super) fn drain(&mut self, path: &mut IoPath) {
        let [nvme, input, output] = &mut self.fine;
        let mut window = self.window.as_mut();
        for t in path.drain_transfers() {
            nvme.add_span(t.start, t.end, t.bytes);
            if let Some([nvme, _, _]) = window.as_deref_mut() {
                nvme.add_span(t.start, t.end, t.bytes);
            }
        }
        for j in path.drain_jobs() {
            input.add_span(j.start, j.end, j.input.0);
            output.add_span(j.start, j.end, j.output.0);
            if let Some([_, input, output]) = window.as_deref_mut() {
                input.add_span(j.start, j.end, j.input.0);
                output.add_span(j.start, j.end, j.output.0);
            }
        }
    }

    /// The first `count` fine bins.
    pub(super) fn fine(&self, count: usize) -> Series {
        let [nvme, input, output] = &self.fine;
        (nvme.values(count), input.values(count), output.values(count))
    }

    /// The first `count` windows.
    pub(super) fn windows(&self, count: usize) -> Series {
        if let Some([nvme, input, output]) = &self.window {
            return (nvme.values(count), input.values(count), output.values(count));
        }
        let per_window = (self.window_width.0 / self.fine[0].width().0) as usize;
        let (nvme, input, output) = self.fine(count * per_window);
        let sums = |fine: Vec<u64>| fine.chunks(per_window.max(1)).map(|c| c.iter().sum()).collect();
        (sums(nvme), sums(input), sums(output))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Windows summed from fine bins equal windows binned directly, for any spans.
        #[test]
        fn windows_from_fine_bins_equal_direct_windows(
            spans in proptest::collection::vec((0u64..2_000, 0u64..700, 0u64..1_000_000), 1..60),
            per_window in 1u64..30,
        ) {
            let (fine, window) = (Time(10), Time(10 * per_window));
            let mut direct = Bins::new(window);
            let mut bins = ThroughputBins::new(window, fine);
            prop_assert!(bins.window.is_none());
            for &(start, length, bytes) in &spans {
                direct.add_span(Time(start), Time(start + length), bytes);
                bins.fine[0].add_span(Time(start), Time(start + length), bytes);
            }
            let count = (2_700 / window.0 + 1) as usize;
            prop_assert_eq!(bins.windows(count).0, direct.values(count));
        }
    }
}
