//! Fast BC7: the modelled method's field split and endpoint prediction, with one symbol
//! per field (mode, partition, rotation + index selection, each endpoint channel, all
//! p-bits of a block) and one symbol per 2 or 4 indices.
//!
//! Stream 0: kinds, mode (table by the left block's mode), partition (64 = the same-mode
//! left block's partition), rotation | index selection << 2. Stream 1: endpoint residuals
//! (table by mode, channel class R/A or G/B, endpoint role and the size of a related
//! residual), p-bits, reserved blocks' bytes. Stream 2: indices in groups of 4 (2-bit sets)
//! or 2 (3- and 4-bit sets), each index replaced by its difference from a prediction from
//! same-subset neighbours (the index above for 2-bit rows, MED of left/up/up-left for pairs).

use super::super::bc1::{bucket, med};
use super::super::bc7::layout::{anchor_mask, pack, parse, subset_map, Fields, MODES, RESERVED};
use super::super::bc7::{neighbour_value, predict_endpoint};
use super::super::driver::Nb;
use super::super::error::BcpackError;
use super::super::header::MAX_STREAMS;
use super::super::range::{fold, unfold};
use super::{predict3, FastModel, Pos, SymCoder, KIND_TABLES};

// Stream 0 tables: kinds, mode by the left block's mode (10), partition by mode (8),
// rotation + index selection for modes 4 and 5 (2).
const MODE_T: usize = KIND_TABLES;
const PART_T: usize = MODE_T + 10;
const ROT_T: usize = PART_T + 8;
const HEAD_TABLES: usize = ROT_T + 2;

// Stream 1 tables: endpoints by mode × channel class × role × related residual size (144),
// p-bits by mode (8), reserved blocks' bytes (1).
const EP_TABLES: usize = 8 * 2 * 3 * 3;
const PBIT_T: usize = EP_TABLES;
const RESERVED_T: usize = PBIT_T + 8;
const BODY_TABLES: usize = RESERVED_T + 1;

/// Index groups by index width (2, 3, 4 bits) × how many of the group's texels have a
/// prediction (none, all, some).
const IDX_TABLES: usize = 3 * 3;

/// Partition symbol meaning "the same as the same-mode left block".
const SAME_PARTITION: u32 = 64;

/// Parsed fields of the last two rows of blocks (slot = index mod 2·row), so each block is
/// parsed once instead of once per neighbour use.
#[derive(Default)]
pub(super) struct Bc7 {
    rows: Vec<Cached>,
}

/// A parsed block and its endpoint 0 widened to 8 bits per channel (the neighbour value the
/// endpoint prediction requantises), `None` for a reserved block.
#[derive(Debug, Clone, Copy, Default)]
struct Cached {
    f: Fields,
    wide: Option<[u32; 4]>,
}

impl Cached {
    fn new(f: Fields) -> Self {
        // neighbour_value at 8 bits is the widened value itself.
        let wide = (f.mode < RESERVED).then(|| [0, 1, 2, 3].map(|ch| neighbour_value(&f, 0, ch, 8).unwrap_or(255)));
        Cached { f, wide }
    }
}

impl Bc7 {
    fn slot(&mut self, at: Pos, index: usize) -> usize {
        if self.rows.len() != 2 * at.row {
            self.rows = vec![Cached::default(); 2 * at.row];
        }
        index % (2 * at.row)
    }
}

fn code_header<C: SymCoder>(c: &mut C, old: &Fields, f: &mut Fields, left: Option<&Fields>) -> Result<(), BcpackError> {
    let lm = left.map_or(9, |l| l.mode);
    let mode = c.sym(MODE_T + lm, old.mode as u32)?;
    if mode as usize > RESERVED {
        return Err(BcpackError::SymbolRange { what: "BC7 mode", value: mode, max: RESERVED as u32 });
    }
    f.mode = mode as usize;
    if f.mode == RESERVED {
        return Ok(());
    }
    let info = &MODES[f.mode];
    let same_left = left.filter(|l| l.mode == f.mode);
    if info.partition_bits > 0 {
        let want = match same_left {
            Some(l) if l.partition == old.partition => SAME_PARTITION,
            _ => old.partition,
        };
        let p = c.sym(PART_T + f.mode, want)?;
        f.partition = match (p, same_left) {
            (SAME_PARTITION, Some(l)) => l.partition,
            (p, _) if p < (1 << info.partition_bits) => p,
            (p, _) => return Err(BcpackError::SymbolRange { what: "BC7 partition", value: p, max: 63 }),
        };
    }
    if info.rotation_bits > 0 {
        let v = c.sym(ROT_T + f.mode - 4, old.rotation | (old.index_select << 2))?;
        let max = 3 | (((1 << info.index_select_bits) - 1) << 2);
        if v > max {
            return Err(BcpackError::SymbolRange { what: "BC7 rotation and index selection", value: v, max });
        }
        f.rotation = v & 3;
        f.index_select = v >> 2;
    }
    Ok(())
}

fn code_endpoints<C: SymCoder>(
    c: &mut C,
    old: &Fields,
    f: &mut Fields,
    wide: [Option<[u32; 4]>; 3],
) -> Result<(), BcpackError> {
    let info = &MODES[f.mode];
    let mut nb_r = 0u32;
    let mut syms = [[0u32; 4]; 6];
    for ch in 0..info.channels() {
        let bits = info.channel_bits(ch);
        let max = (1u32 << bits) - 1;
        let class = usize::from(ch == 1 || ch == 2);
        for k in 0..info.endpoints() {
            let (pred, role) = predict_endpoint(f, k, ch, max, &mut nb_r, || {
                let at = |n: Option<[u32; 4]>| n.map(|w| (w[ch] * max + 127) / 255);
                predict3(at(wide[0]), at(wide[1]), at(wide[2]), 1 << (bits - 1))
            });
            // Whether the related residual (R's for G and B, the previous endpoint's for R and
            // A) was zero: flat areas make both small.
            let calm = match ch {
                1 | 2 => bucket(syms[k][0]).min(2),
                _ if k > 0 => bucket(syms[k - 1][ch]).min(2),
                _ => 2,
            };
            let table = ((f.mode * 2 + class) * 3 + role) * 3 + calm;
            let sym = c.sym(table, fold(old.ep[k][ch], pred, bits))?;
            syms[k][ch] = sym;
            if sym > max {
                return Err(BcpackError::SymbolRange { what: "BC7 endpoint residual", value: sym, max });
            }
            f.ep[k][ch] = unfold(sym, pred, bits);
        }
    }
    let n = info.pbit_count();
    if n > 0 {
        let want = (0..n).fold(0, |acc, p| acc | (old.pbits[p] << p));
        let v = c.sym(PBIT_T + f.mode, want)?;
        if v >> n != 0 {
            return Err(BcpackError::SymbolRange { what: "BC7 p-bits", value: v, max: (1 << n) - 1 });
        }
        for p in 0..n {
            f.pbits[p] = (v >> p) & 1;
        }
    }
    Ok(())
}

/// Which texels have a same-subset left, upper and upper-left texel (bit t = texel t).
struct NbMasks {
    left: u16,
    up: u16,
    up_left: u16,
}

impl NbMasks {
    fn new(map: u32) -> Self {
        let subset = |t: usize| (map >> (2 * t)) & 3;
        let (mut left, mut up, mut up_left) = (0, 0, 0);
        for t in 0..16 {
            let bit = 1u16 << t;
            if t % 4 > 0 && subset(t - 1) == subset(t) {
                left |= bit;
            }
            if t >= 4 && subset(t - 4) == subset(t) {
                up |= bit;
            }
            if t % 4 > 0 && t >= 4 && subset(t - 5) == subset(t) {
                up_left |= bit;
            }
        }
        NbMasks { left, up, up_left }
    }
}

/// Prediction of texel `t`'s index from already known indices `v`: a whole-row group
/// (2-bit indices) only has the row above; pairs also use the left and upper-left texels
/// (MED), all within the texel's subset.
#[inline(always)]
fn predict_index(m: &NbMasks, group: usize, t: usize, v: &[u32; 16]) -> Option<u32> {
    let has = |mask: u16| (mask >> t) & 1 == 1;
    let up = has(m.up).then(|| v[t - 4]);
    if group == 4 {
        return up;
    }
    let left = has(m.left).then(|| v[t - 1]);
    let up_left = has(m.up_left).then(|| v[t - 5]);
    match (left, up, up_left) {
        (Some(l), Some(u), Some(ul)) => Some(med(l, u, ul)),
        (Some(l), Some(u), None) => Some((l + u) / 2),
        (Some(l), None, _) => Some(l),
        (None, u, _) => u,
    }
}

fn code_indices<C: SymCoder>(c: &mut C, old: &Fields, f: &mut Fields) -> Result<(), BcpackError> {
    let info = &MODES[f.mode];
    let map = subset_map(info, f.partition as usize);
    let anchors = anchor_mask(info, f.partition as usize);
    let nbm = NbMasks::new(map);
    for set in 0..2 {
        let bits = if set == 0 { info.index_bits } else { info.index2_bits };
        if bits == 0 {
            continue;
        }
        let mask = (1u32 << bits) - 1;
        let group = if bits == 2 { 4 } else { 2 };
        let (src, dst) = if set == 0 { (&old.idx, &mut f.idx) } else { (&old.idx2, &mut f.idx2) };
        let base = (bits as usize - 2) * 3;
        let pred = |t: usize, v: &[u32; 16]| predict_index(&nbm, group, t, v);
        for t0 in (0..16).step_by(group) {
            let mut want = 0;
            if !C::DECODING {
                let mut known = *dst;
                for k in 0..group {
                    let t = t0 + k;
                    let d = pred(t, &known).map_or(src[t], |p| src[t].wrapping_sub(p) & mask);
                    known[t] = src[t];
                    want |= d << (bits as usize * k);
                }
            }
            let with = (t0..t0 + group).filter(|&t| pred(t, dst).is_some()).count();
            let table = base
                + if with == 0 {
                    0
                } else if with == group {
                    1
                } else {
                    2
                };
            let sym = c.sym(table, want)?;
            if sym >> (bits as usize * group) != 0 {
                return Err(BcpackError::SymbolRange {
                    what: "BC7 index group",
                    value: sym,
                    max: (1 << (bits * group as u32)) - 1,
                });
            }
            for k in 0..group {
                let t = t0 + k;
                let d = (sym >> (bits as usize * k)) & mask;
                let v = pred(t, dst).map_or(d, |p| (d + p) & mask);
                let anchor = if set == 0 { (anchors >> t) & 1 == 1 } else { t == 0 };
                if anchor && v >> (bits - 1) != 0 {
                    return Err(BcpackError::SymbolRange { what: "BC7 anchor index", value: v, max: mask >> 1 });
                }
                dst[t] = v;
            }
        }
    }
    Ok(())
}

impl FastModel for Bc7 {
    const BLOCK_BYTES: usize = 16;
    /// 0: kinds + mode/partition/rotation/index selection, 1: endpoints, p-bits and reserved
    /// blocks, 2: indices.
    const TABLES: &'static [usize] = &[HEAD_TABLES, BODY_TABLES, IDX_TABLES];

    fn code<C: SymCoder>(
        &mut self,
        c: &mut [C; MAX_STREAMS],
        cur: &mut [u8],
        nb: &Nb,
        at: Pos,
    ) -> Result<(), BcpackError> {
        let [ch, ce, ci, _] = c;
        let old = if C::DECODING { Fields::default() } else { parse(cur) };
        let me = self.slot(at, at.index);
        let n = self.rows.len();
        let pick = |present: bool, back: usize| present.then(|| (me + n - back) % n);
        let slots = [pick(nb.left.is_some(), 1), pick(nb.up.is_some(), at.row), pick(nb.up_left.is_some(), at.row + 1)];
        let left = slots[0].map(|s| &self.rows[s].f);
        let wide = slots.map(|s| s.and_then(|s| self.rows[s].wide));
        let mut f = Fields::default();
        code_header(ch, &old, &mut f, left)?;
        if f.mode == RESERVED {
            cur[0] = 0;
            for b in cur[1..].iter_mut() {
                *b = ce.sym(RESERVED_T, u32::from(*b))? as u8;
            }
            self.rows[me] = Cached::new(parse(cur));
            return Ok(());
        }
        code_endpoints(ce, &old, &mut f, wide)?;
        code_indices(ci, &old, &mut f)?;
        pack(&f, cur);
        self.rows[me] = Cached::new(f);
        Ok(())
    }

    fn copied(&mut self, at: Pos, from: usize) {
        let me = self.slot(at, at.index);
        let src = self.slot(at, from);
        self.rows[me] = self.rows[src];
    }
}
