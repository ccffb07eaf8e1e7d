//! The runs of equal spans along a probe line.

use super::super::limits::MAX_ANISOTROPY;

/// The runs of equal values of one axis's span of regions along the probes: (first probe,
/// span) in probe order.
#[derive(Default)]
pub(super) struct AxisRuns {
    len: usize,
    starts: [u8; MAX_ANISOTROPY as usize],
    spans: [(u32, u32); MAX_ANISOTROPY as usize],
}

impl AxisRuns {
    /// The runs of `span` over probes `0..n` (n >= 1) whose end probes have spans `ends`.
    /// The spans' edges are monotonic along the probes: equal ends are one run. Otherwise
    /// every probe between the ends is worked out, in a loop without data-dependent
    /// branches (bisecting would work out fewer, but its branches on the spans mispredict
    /// and cost more than the probes).
    #[inline]
    pub(super) fn fill(&mut self, span: &impl Fn(usize) -> (u32, u32), n: usize, ends: ((u32, u32), (u32, u32))) {
        self.starts[0] = 0;
        self.spans[0] = ends.0;
        self.len = 1;
        if ends.0 == ends.1 {
            return; // monotonic edges: the same span all along
        }
        // The last run's span stays in a register, not re-read from the array.
        let mut last = ends.0;
        for probe in 1..n {
            let at = if probe == n - 1 { ends.1 } else { span(probe) };
            // Written always, kept only when the span changed (at most one run per probe,
            // so the slot exists).
            self.starts[self.len] = probe as u8;
            self.spans[self.len] = at;
            self.len += usize::from(at != last);
            last = at;
        }
    }

    /// Calls `emit` with the (x, y) spans of each run of equal rectangles, in probe order.
    #[inline]
    pub(super) fn merge(&self, ys: &AxisRuns, mut emit: impl FnMut((u32, u32), (u32, u32))) {
        let start = |runs: &AxisRuns, k: usize| if k < runs.len { usize::from(runs.starts[k]) } else { usize::MAX };
        let (mut i, mut j) = (0, 0);
        loop {
            emit(self.spans[i], ys.spans[j]);
            let (next_x, next_y) = (start(self, i + 1), start(ys, j + 1));
            let next = next_x.min(next_y);
            if next == usize::MAX {
                return;
            }
            i += usize::from(next_x == next);
            j += usize::from(next_y == next);
        }
    }
}
