//! BC7 (first cut: positional model keyed by the block mode).

use super::driver::{Coder, Model, Nb};
use super::error::BcpackError;
use super::generic::{KeyKind, Positional};
use super::header::MAX_STREAMS;

pub(super) struct Bc7 {
    model: Positional,
}

impl Default for Bc7 {
    fn default() -> Self {
        Bc7 { model: Positional::new(KeyKind::Bc6h, 16) }
    }
}

impl Model for Bc7 {
    const BLOCK_BYTES: usize = 16;
    const STREAMS: usize = 3;

    fn code<C: Coder>(
        &mut self,
        c: &mut [C; MAX_STREAMS],
        cur: &mut [u8],
        nb: &Nb,
        block: usize,
    ) -> Result<(), BcpackError> {
        let [ck, cb, ..] = c;
        self.model.code(ck, cb, cur, nb.left, block)
    }
}
