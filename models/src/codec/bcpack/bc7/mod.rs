//! BC7: every block is parsed into its mode's fields, which are coded in their own streams
//! and contexts.
//!
//! - stream 0: copy flag, mode (context: left and upper blocks' modes), partition (a
//!   "same as the left block" flag, then the shape number), rotation, index selection;
//! - stream 1: endpoints channel by channel (R of every endpoint, then G, B, A) and p-bits;
//!   the first endpoint is predicted from the left/upper/upper-left blocks' first endpoint
//!   (median, requantised to this mode's precision), the others from an earlier endpoint of
//!   the same block; green and blue add red's step so a luminance change is predicted once;
//! - stream 2: indices, each in the context of its left and upper texel's index when that
//!   texel lies in the same subset (anchor indices skip their implied zero MSB).
//!
//! Reserved blocks (first byte 0) code their remaining 120 bits with the positional model.

pub(super) mod layout;
mod tables;

use super::bc1::{bucket, predict};
use super::driver::{Coder, Model, Nb};
use super::error::BcpackError;
use super::generic::{KeyKind, Positional};
use super::header::MAX_STREAMS;
use super::range::{fold, unfold, Prob};
use layout::{anchor_mask, pack, parse, subset_map, Fields, ModeInfo, MODES, RESERVED};

/// Mode symbols 0..=8 (8 = reserved), 9 = no neighbour.
const MODE_CTX: usize = 10;
/// Neighbour index values for context: 8 quantised levels, 8 = none.
const IDX_NB: usize = 9;
const IDX_NONE: usize = 8;

/// Endpoint residual trees per (mode, channel, role, bucket).
const EP_ROLES: usize = 3;
const EP_BUCKETS: usize = 4;

fn ep_tree(mode: usize, ch: usize, role: usize, bucket: usize) -> usize {
    ((mode * 4 + ch) * EP_ROLES + role) * EP_BUCKETS + bucket
}

/// Widens a `bits`-bit value to 8 bits the way BC7 decoders do (MSB replication).
pub(super) fn expand(v: u32, bits: u32) -> u32 {
    if bits >= 8 {
        v & 255
    } else {
        (v << (8 - bits)) | (v >> (2 * bits).saturating_sub(8))
    }
}

/// A neighbour block's endpoint `k`, channel `ch`, requantised to `bits` bits; `None` for a
/// reserved neighbour.
pub(super) fn neighbour_value(nb: &Fields, k: usize, ch: usize, bits: u32) -> Option<u32> {
    if nb.mode >= RESERVED {
        return None;
    }
    let info = &MODES[nb.mode];
    let k = k.min(info.endpoints() - 1);
    let v8 = if ch == 3 && info.alpha_bits == 0 {
        255
    } else {
        let mut b = info.channel_bits(ch);
        let mut v = nb.ep[k][ch];
        if let Some(p) = info.pbit_of(k) {
            v = (v << 1) | nb.pbits[p];
            b += 1;
        }
        expand(v, b)
    };
    let max = (1u32 << bits) - 1;
    Some((v8 * max + 127) / 255)
}

pub(super) struct Bc7 {
    mode: Vec<[Prob; 16]>,
    part_same: [Prob; 8],
    part: Vec<[Prob; 64]>,
    rot: Vec<[Prob; 4]>,
    isel: [Prob; 3],
    ep: Vec<[Prob; 256]>,
    pbit: Vec<Prob>,
    idx: Vec<[Prob; 16]>,
    reserved: Positional,
}

impl Default for Bc7 {
    fn default() -> Self {
        Bc7 {
            mode: vec![[Prob::default(); 16]; MODE_CTX * MODE_CTX],
            part_same: [Prob::default(); 8],
            part: vec![[Prob::default(); 64]; 8],
            rot: vec![[Prob::default(); 4]; 2 * 5],
            isel: [Prob::default(); 3],
            ep: vec![[Prob::default(); 256]; 8 * 4 * EP_ROLES * EP_BUCKETS],
            pbit: vec![Prob::default(); 8 * 6 * 3 * 3],
            idx: vec![[Prob::default(); 16]; 8 * 2 * IDX_NB * IDX_NB],
            reserved: Positional::new(KeyKind::None, 16),
        }
    }
}

impl Bc7 {
    fn code_header<C: Coder>(
        &mut self,
        c: &mut C,
        old: &Fields,
        f: &mut Fields,
        left: Option<&Fields>,
        up: Option<&Fields>,
        block: usize,
    ) -> Result<(), BcpackError> {
        let lm = left.map_or(9, |l| l.mode);
        let um = up.map_or(9, |u| u.mode);
        let mode = c.tree(&mut self.mode[lm * MODE_CTX + um], 4, old.mode as u32, false);
        if mode as usize > RESERVED {
            return Err(BcpackError::InvalidSymbol { block, what: "BC7 mode", value: mode, max: RESERVED as u32 });
        }
        f.mode = mode as usize;
        if f.mode == RESERVED {
            return Ok(());
        }
        let info = &MODES[f.mode];
        let same_left = left.filter(|l| l.mode == f.mode);
        if info.partition_bits > 0 {
            let mut same = 0;
            if let Some(l) = same_left {
                same = c.bit(&mut self.part_same[f.mode], u32::from(old.partition == l.partition));
                if same == 1 {
                    f.partition = l.partition;
                }
            }
            if same == 0 {
                f.partition = c.tree(&mut self.part[f.mode], info.partition_bits, old.partition, false);
            }
        }
        if info.rotation_bits > 0 {
            let ctx = (f.mode - 4) * 5 + same_left.map_or(4, |l| l.rotation as usize);
            f.rotation = c.tree(&mut self.rot[ctx], 2, old.rotation, false);
        }
        if info.index_select_bits > 0 {
            let ctx = same_left.map_or(2, |l| l.index_select as usize);
            f.index_select = c.bit(&mut self.isel[ctx], old.index_select);
        }
        Ok(())
    }

    fn code_endpoints<C: Coder>(&mut self, c: &mut C, old: &Fields, f: &mut Fields, nbs: [Option<&Fields>; 3]) {
        let info: &ModeInfo = &MODES[f.mode];
        let mut syms = [[0u32; 4]; 6];
        let mut nb_r = 0u32;
        for ch in 0..info.channels() {
            let bits = info.channel_bits(ch);
            let max = (1u32 << bits) - 1;
            for k in 0..info.endpoints() {
                let (pred, role) = predict_endpoint(f, k, ch, max, &mut nb_r, || {
                    predict(nbs.map(|n| n.and_then(|n| neighbour_value(n, 0, ch, bits))), 1 << (bits - 1))
                });
                let b = match ch {
                    1 | 2 => bucket(syms[k][0]),
                    _ if k > 0 => bucket(syms[k - 1][ch]),
                    _ => 0,
                };
                let tree = &mut self.ep[ep_tree(f.mode, ch, role, b)];
                let sym = c.tree(tree, bits, fold(old.ep[k][ch], pred, bits), false);
                syms[k][ch] = sym;
                f.ep[k][ch] = unfold(sym, pred, bits);
            }
        }
        let left = nbs[0].filter(|l| l.mode == f.mode);
        let mut prev = 2usize;
        for p in 0..info.pbit_count() {
            let lp = left.map_or(2, |l| l.pbits[p] as usize);
            let ctx = ((f.mode * 6 + p) * 3 + prev) * 3 + lp;
            f.pbits[p] = c.bit(&mut self.pbit[ctx], old.pbits[p]);
            prev = f.pbits[p] as usize;
        }
    }

    fn code_indices<C: Coder>(&mut self, c: &mut C, old: &Fields, f: &mut Fields) {
        let info = &MODES[f.mode];
        let map = subset_map(info, f.partition as usize);
        let anchors = anchor_mask(info, f.partition as usize);
        for set in 0..2 {
            let bits = if set == 0 { info.index_bits } else { info.index2_bits };
            if bits == 0 {
                continue;
            }
            let shift = bits.saturating_sub(3);
            let base = (f.mode * 2 + set) * IDX_NB * IDX_NB;
            let (src, dst) = if set == 0 { (&old.idx, &mut f.idx) } else { (&old.idx2, &mut f.idx2) };
            for t in 0..16 {
                let s = (map >> (2 * t)) & 3;
                let same = |u: usize| (map >> (2 * u)) & 3 == s;
                let left = if t % 4 > 0 && same(t - 1) { (dst[t - 1] >> shift) as usize } else { IDX_NONE };
                let up = if t >= 4 && same(t - 4) { (dst[t - 4] >> shift) as usize } else { IDX_NONE };
                let anchor = if set == 0 { (anchors >> t) & 1 == 1 } else { t == 0 };
                let probs = &mut self.idx[base + left * IDX_NB + up];
                dst[t] = c.tree(probs, bits, src[t], anchor);
            }
        }
    }
}

impl Model for Bc7 {
    const BLOCK_BYTES: usize = 16;
    /// 0: copy flags + mode/partition/rotation/index selection, 1: endpoints + p-bits,
    /// 2: indices.
    const STREAMS: usize = 3;

    fn code<C: Coder>(
        &mut self,
        c: &mut [C; MAX_STREAMS],
        cur: &mut [u8],
        nb: &Nb,
        block: usize,
    ) -> Result<(), BcpackError> {
        let [ch, ce, ci, _] = c;
        let old = parse(cur);
        let nbs = [nb.left, nb.up, nb.up_left].map(|b| b.map(parse));
        let mut f = Fields::default();
        self.code_header(ch, &old, &mut f, nbs[0].as_ref(), nbs[1].as_ref(), block)?;
        if f.mode == RESERVED {
            self.reserved.code_body(ce, 0, 8, cur, None);
            return Ok(());
        }
        self.code_endpoints(ce, &old, &mut f, [nbs[0].as_ref(), nbs[1].as_ref(), nbs[2].as_ref()]);
        self.code_indices(ci, &old, &mut f);
        pack(&f, cur);
        Ok(())
    }
}

/// The prediction of endpoint `k`, channel `ch` (0..=`max`) and its role context (0: the
/// first endpoint, 1: the second of a pair, 2: a later pair's first), shared by both
/// entropy methods (docs/bcpack.md). The first endpoint comes from the neighbours
/// (`neighbours`, evaluated only then); green and blue follow red's step from there
/// (`nb_r` carries red's neighbour prediction); the others follow their pair or the
/// block's first endpoint the same way.
#[inline(always)]
pub(in crate::codec::bcpack) fn predict_endpoint(
    f: &Fields,
    k: usize,
    ch: usize,
    max: u32,
    nb_r: &mut u32,
    neighbours: impl FnOnce() -> u32,
) -> (u32, usize) {
    if k == 0 {
        let nbp = neighbours();
        let pred = match ch {
            0 => {
                *nb_r = nbp;
                nbp
            }
            1 | 2 => (nbp + f.ep[0][0]).saturating_sub(*nb_r).min(max),
            _ => nbp,
        };
        (pred, 0)
    } else {
        let r = if k % 2 == 1 { k - 1 } else { 0 };
        let pred = match ch {
            1 | 2 => (f.ep[r][ch] + f.ep[k][0]).saturating_sub(f.ep[r][0]).min(max),
            _ => f.ep[r][ch],
        };
        (pred, if k % 2 == 1 { 1 } else { 2 })
    }
}
