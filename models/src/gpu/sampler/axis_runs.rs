//! The runs of equal spans along a probe line, found by bisection: a span's edges are
//! monotonic along the probes, so two probes with equal spans have it between them too.

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
    /// The span's edges are monotonic along the probes, so equal spans at two probes mean
    /// equal spans between them: the line is bisected only where it changes.
    #[inline]
    pub(super) fn fill(&mut self, span: &impl Fn(usize) -> (u32, u32), n: usize, ends: ((u32, u32), (u32, u32))) {
        self.push(0, ends.0);
        self.bisect(span, (0, ends.0), (n - 1, ends.1));
    }

    #[inline]
    fn push(&mut self, probe: usize, span: (u32, u32)) {
        self.starts[self.len] = probe as u8;
        self.spans[self.len] = span;
        self.len += 1;
    }

    /// Adds the runs starting in `lo.0 + 1..=hi.0`, given the spans at both ends.
    fn bisect(&mut self, span: &impl Fn(usize) -> (u32, u32), lo: (usize, (u32, u32)), hi: (usize, (u32, u32))) {
        if lo.1 == hi.1 {
            return;
        }
        if hi.0 == lo.0 + 1 {
            self.push(hi.0, hi.1);
            return;
        }
        let mid = (lo.0 + hi.0) / 2;
        let at_mid = (mid, span(mid));
        self.bisect(span, lo, at_mid);
        self.bisect(span, at_mid, hi);
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
