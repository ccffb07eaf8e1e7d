//! The positional model, for fields sfsim does not split further: BC6H blocks after their
//! mode, BC2's explicit 4-bit alpha, and reserved BC7 blocks.
//!
//! A block is a *key* (BC6H: its 2- or 5-bit mode) and body bits. The key is coded as a
//! symbol in the context of the left block's key; each body bit is coded in the context
//! of (key, bit position, the same bit of the left block when that block has the same key,
//! the previous bit of this block). Bit positions of a fixed layout carry fixed fields, so
//! this learns per-field statistics (endpoint MSBs, index bits) without parsing them.

use super::bc1::ColourUnit;
use super::driver::{Coder, Model, Nb};
use super::error::BcpackError;
use super::header::MAX_STREAMS;
use super::range::Prob;

/// How the key (the leading mode bits) of a block is found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum KeyKind {
    /// No key: every bit is a body bit.
    None,
    /// BC6H: 2-bit mode when its low bits are 00 or 01, else 5-bit mode.
    Bc6h,
}

impl KeyKind {
    const fn keys(self) -> usize {
        match self {
            KeyKind::None => 1,
            KeyKind::Bc6h => 32,
        }
    }

    /// (key, number of bits it occupies) of a block.
    fn parse(self, v: u128) -> (u32, u32) {
        match self {
            KeyKind::None => (0, 0),
            KeyKind::Bc6h => {
                if v & 3 < 2 {
                    ((v & 3) as u32, 2)
                } else {
                    ((v & 31) as u32, 5)
                }
            }
        }
    }

    /// Bits of a key symbol, or `None` for a symbol no block produces.
    fn key_bits(self, key: u32) -> Option<u32> {
        match self {
            KeyKind::None => Some(0),
            KeyKind::Bc6h if key < 2 => Some(2),
            KeyKind::Bc6h if key & 3 >= 2 => Some(5),
            KeyKind::Bc6h => None,
        }
    }
}

pub(super) fn load(b: &[u8]) -> u128 {
    let mut v = [0u8; 16];
    v[..b.len()].copy_from_slice(b);
    u128::from_le_bytes(v)
}

pub(super) fn store(v: u128, b: &mut [u8]) {
    let n = b.len();
    b.copy_from_slice(&v.to_le_bytes()[..n]);
}

/// Context slots per (key, bit position): left bit 0 / 1 / unusable × previous bit 0 / 1.
const BIT_CTX: usize = 6;

pub(super) struct Positional {
    kind: KeyKind,
    bits: usize,
    key_tree: Vec<[Prob; 32]>,
    body: Vec<Prob>,
}

impl Positional {
    pub(super) fn new(kind: KeyKind, bytes: usize) -> Self {
        let bits = bytes * 8;
        Positional {
            kind,
            bits,
            key_tree: vec![[Prob::default(); 32]; kind.keys() + 1],
            body: vec![Prob::default(); kind.keys() * bits * BIT_CTX],
        }
    }

    /// Codes the block `cur` (key into `ck`, body into `cb`).
    pub(super) fn code<C: Coder>(
        &mut self,
        ck: &mut C,
        cb: &mut C,
        cur: &mut [u8],
        left: Option<&[u8]>,
        block: usize,
    ) -> Result<(), BcpackError> {
        let old = load(cur);
        let left_key = left.map(|l| self.kind.parse(load(l)).0);
        let ctx = left_key.map_or(self.kind.keys(), |k| k as usize);
        let key = ck.tree(&mut self.key_tree[ctx], 5, self.kind.parse(old).0, false);
        let Some(key_bits) = self.kind.key_bits(key) else {
            return Err(BcpackError::InvalidSymbol { block, what: "BC6H mode", value: key, max: 31 });
        };
        self.code_body(cb, key, key_bits, cur, left.filter(|_| left_key == Some(key)));
        Ok(())
    }

    /// Codes the bits of `cur` above its `key_bits`-bit key (already known to be `key`).
    /// `left` is the left block when it has the same key.
    pub(super) fn code_body<C: Coder>(
        &mut self,
        cb: &mut C,
        key: u32,
        key_bits: u32,
        cur: &mut [u8],
        left: Option<&[u8]>,
    ) {
        let old = load(cur);
        let left_bits = left.map(load);
        let mut v = u128::from(key);
        let mut prev = 0usize;
        let base = key as usize * self.bits;
        for pos in key_bits as usize..self.bits {
            let lb = left_bits.map_or(2, |l| ((l >> pos) & 1) as usize);
            let p = &mut self.body[(base + pos) * BIT_CTX + lb * 2 + prev];
            let bit = cb.bit(p, ((old >> pos) & 1) as u32);
            v |= u128::from(bit) << pos;
            prev = bit as usize;
        }
        store(v, cur);
    }
}

pub(super) struct Bc6h {
    model: Positional,
}

impl Default for Bc6h {
    fn default() -> Self {
        Bc6h { model: Positional::new(KeyKind::Bc6h, 16) }
    }
}

impl Model for Bc6h {
    const BLOCK_BYTES: usize = 16;
    /// 0: copy flags + modes, 1: the rest of each block.
    const STREAMS: usize = 2;

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

/// BC2: 16 explicit 4-bit alphas (positional model) and a 4-colour BC1 colour block.
pub(super) struct Bc2 {
    alpha: Positional,
    colour: ColourUnit,
}

impl Default for Bc2 {
    fn default() -> Self {
        Bc2 { alpha: Positional::new(KeyKind::None, 8), colour: ColourUnit::new(true) }
    }
}

impl Model for Bc2 {
    const BLOCK_BYTES: usize = 16;
    /// 0: copy flags + alpha, 1: colour endpoints, 2: selectors.
    const STREAMS: usize = 3;

    fn code<C: Coder>(
        &mut self,
        c: &mut [C; MAX_STREAMS],
        cur: &mut [u8],
        nb: &Nb,
        block: usize,
    ) -> Result<(), BcpackError> {
        let [ca, ce, cs, _] = c;
        let (alpha, colour) = cur.split_at_mut(8);
        let _ = block;
        self.alpha.code_body(ca, 0, 0, alpha, nb.sub(0, 8).left);
        self.colour.code(ce, cs, colour, &nb.sub(8, 8));
        Ok(())
    }
}
