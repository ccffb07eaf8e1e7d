//! Data-parallel loops that stay on the calling thread when rayon has one thread: handing
//! a frame's work to a lone worker and waiting for it costs two thread wake-ups per loop,
//! a measurable share of a one-core run.

use rayon::prelude::*;

/// Calls `f(i, a_chunk, b_chunk)` for the `i`-th `chunk`-long pieces of `a` and `b`.
pub fn for_each_chunk_pair<A: Send, B: Send>(
    a: &mut [A],
    b: &mut [B],
    chunk: usize,
    f: impl Fn(usize, &mut [A], &mut [B]) + Sync + Send,
) {
    if rayon::current_num_threads() == 1 {
        a.chunks_mut(chunk).zip(b.chunks_mut(chunk)).enumerate().for_each(|(i, (a, b))| f(i, a, b));
    } else {
        a.par_chunks_mut(chunk).zip(b.par_chunks_mut(chunk)).enumerate().for_each(|(i, (a, b))| f(i, a, b));
    }
}
