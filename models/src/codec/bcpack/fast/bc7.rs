//! Fast BC7: the modelled method's field split and endpoint prediction, with one symbol
//! per field (mode, partition, rotation + index selection, each endpoint channel, all
//! p-bits of a block) and one symbol per 2 or 4 indices.
//!
//! Stream 0: kinds, mode (table by the left block's mode), partition (0 = the same-mode
//! left block's partition, else partition + 1), rotation | index selection << 2. Stream 1:
//! endpoint residuals, endpoint-major (table by mode, channel class R/A or G/B, endpoint
//! role and the size of a related residual), p-bits, reserved blocks' bytes. Stream 2: indices in groups of 4 (2-bit sets)
//! or 2 (3- and 4-bit sets), each index replaced by its difference from a prediction from
//! same-subset neighbours (the index above for 2-bit rows, MED of left/up/up-left for pairs).

use super::super::bc1::bucket;
use super::super::bc7::layout::{pack, parse, Fields, MODES, RESERVED};
use super::super::bc7::{expand, predict_endpoint};
use super::super::driver::Nb;
use super::super::header::MAX_STREAMS;
use super::super::range::{fold, unfold};
use super::super::rans::SymCoder;
use super::bc7_idx::{all_shapes, code_indices, Shape};
use super::{predict3, FastModel, Pos, KIND_TABLES};

// Stream 0 tables: kinds, mode by the left block's mode (10), partition by mode (8),
// rotation + index selection for modes 4 and 5 (2, from ROT_T).
const MODE_T: usize = KIND_TABLES;
const PART_T: usize = MODE_T + 10;
const ROT_T: usize = PART_T + 8;

// Stream 1 tables: endpoints by mode × channel class × role × related residual size (144),
// p-bits by mode (8), reserved blocks' bytes (1).
const EP_TABLES: usize = 8 * 2 * 3 * 3;
const PBIT_T: usize = EP_TABLES;
const RESERVED_T: usize = PBIT_T + 8;
const BODY_TABLES: usize = RESERVED_T + 1;

/// Index groups by index width (2, 3, 4 bits) × how many of the group's texels have a
/// prediction (none, all, some).
const IDX_TABLES: usize = 3 * 3;

/// Partition symbol meaning "the same as the same-mode left block"; partition *p* is *p* + 1.
const SAME_PARTITION: u32 = 0;

/// Alphabet bounds of stream 0's model tables: mode (9 values), partition by mode (64 or 16
/// shapes + "same"), rotation | index selection << 2 for modes 4 and 5.
fn head_limits() -> Vec<usize> {
    let mut out = vec![RESERVED + 1; PART_T - MODE_T];
    out.extend(MODES.iter().map(|m| (1 << m.partition_bits) + 1));
    out.extend([4 << MODES[4].index_select_bits, 4 << MODES[5].index_select_bits]);
    out
}

/// Stream 1: endpoint residuals (the wider of the class's channels: R shares its tables
/// with A), p-bit groups by mode, reserved bytes.
fn body_limits() -> Vec<usize> {
    let mut out = Vec::with_capacity(BODY_TABLES);
    for m in &MODES {
        for class in 0..2 {
            let bits = if class == 0 { m.colour_bits.max(m.alpha_bits) } else { m.colour_bits };
            out.extend([1 << bits; 9]);
        }
    }
    out.extend(MODES.iter().map(|m| 1 << m.pbit_count()));
    out.push(256);
    out
}

/// Stream 2: index groups of 4 × 2 bits, 2 × 3 bits, 2 × 4 bits.
fn idx_limits() -> Vec<usize> {
    let out: Vec<usize> = [256, 64, 256].iter().flat_map(|&l| [l; 3]).collect();
    debug_assert_eq!(out.len(), IDX_TABLES);
    out
}

/// Parsed fields of the last two rows of blocks (slot = index mod 2·row), so each block is
/// parsed once instead of once per neighbour use.
#[derive(Default)]
pub(super) struct Bc7 {
    rows: Vec<Cached>,
    shapes: Vec<Shape>,
}

/// What a block's right and lower neighbours use of it: its mode and partition (the
/// partition "same as left" symbol), and its endpoint 0 widened to 8 bits per channel (the
/// neighbour value the endpoint prediction requantises), `None` for a reserved block. Kept
/// small (not the whole parsed block) so caching a block costs a few stores.
#[derive(Debug, Clone, Copy, Default)]
struct Cached {
    mode: usize,
    partition: u32,
    wide: Option<[u32; 4]>,
}

impl Cached {
    fn new(f: &Fields) -> Self {
        // `neighbour_value` of endpoint 0 at 8 bits, i.e. the widened value itself
        // (requantising 8 bits to 8 is the identity), without its per-call generality.
        let wide = MODES.get(f.mode).map(|info| {
            let p = info.pbit_of(0).map(|p| f.pbits[p]);
            [0, 1, 2, 3].map(|ch| {
                let b = info.channel_bits(ch);
                match (b, p) {
                    (0, _) => 255,
                    (b, Some(p)) => expand((f.ep[0][ch] << 1) | p, b + 1),
                    (b, None) => expand(f.ep[0][ch], b),
                }
            })
        });
        Cached { mode: f.mode, partition: f.partition, wide }
    }
}

impl Bc7 {
    fn slot(&mut self, at: Pos, index: usize) -> usize {
        if self.rows.len() != 2 * at.row {
            self.rows = vec![Cached::default(); 2 * at.row];
            self.shapes = all_shapes();
        }
        index % (2 * at.row)
    }
}

fn code_header<C: SymCoder>(c: &mut C, old: &Fields, f: &mut Fields, left: Option<Cached>) {
    let lm = left.map_or(9, |l| l.mode);
    // The mode tables' alphabet is 9: modes 0..=7 and reserved.
    f.mode = c.sym(MODE_T + lm, old.mode as u32) as usize;
    if f.mode == RESERVED {
        return;
    }
    let info = &MODES[f.mode];
    let same_left = left.filter(|l| l.mode == f.mode);
    if info.partition_bits > 0 {
        let want = match same_left {
            Some(l) if l.partition == old.partition => SAME_PARTITION,
            _ => old.partition + 1,
        };
        let p = c.sym(PART_T + f.mode, want);
        c.check(
            p == SAME_PARTITION && same_left.is_none(),
            "a BC7 partition copied from a missing same-mode left block",
        );
        f.partition = match (p, same_left) {
            (SAME_PARTITION, Some(l)) => l.partition,
            (p, _) => p.saturating_sub(1),
        };
    }
    if info.rotation_bits > 0 {
        // The table's alphabet covers exactly the mode's rotation and index-selection bits.
        let v = c.sym(ROT_T + f.mode - 4, old.rotation | (old.index_select << 2));
        f.rotation = v & 3;
        f.index_select = v >> 2;
    }
}

fn code_endpoints<C: SymCoder>(c: &mut C, old: &Fields, f: &mut Fields, wide: [Option<[u32; 4]>; 3]) {
    let info = &MODES[f.mode];
    let mut nb_r = 0u32;
    let mut syms = [[0u32; 4]; 6];
    // Endpoint-major (R, G, B, A of endpoint 0, then of endpoint 1, …): the residual-size
    // context chains each channel to its previous endpoint, and in this order the links of
    // one chain are separated by independent symbols of the other channels, so the CPU
    // overlaps them (channel-major order made one long serial chain per channel).
    for k in 0..info.endpoints() {
        for ch in 0..info.channels() {
            let bits = info.channel_bits(ch);
            let max = (1u32 << bits) - 1;
            let class = usize::from(ch == 1 || ch == 2);
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
            let sym = c.sym(table, fold(old.ep[k][ch], pred, bits));
            syms[k][ch] = sym;
            // Only R of modes 4 and 5 is narrower than its table (shared with A).
            c.check(sym > max, "a BC7 endpoint residual wider than its channel");
            f.ep[k][ch] = unfold(sym, pred, bits);
        }
    }
    let n = info.pbit_count();
    if n > 0 {
        let want = (0..n).fold(0, |acc, p| acc | (old.pbits[p] << p));
        let v = c.sym(PBIT_T + f.mode, want);
        for p in 0..n {
            f.pbits[p] = (v >> p) & 1;
        }
    }
}

impl FastModel for Bc7 {
    const BLOCK_BYTES: usize = 16;
    /// 0: kinds + mode/partition/rotation/index selection, 1: endpoints, p-bits and reserved
    /// blocks, 2: indices.
    const STREAMS: usize = 3;

    fn limits(stream: usize) -> Vec<usize> {
        [head_limits, body_limits, idx_limits][stream]()
    }

    fn code<C: SymCoder>(&mut self, c: &mut [C; MAX_STREAMS], cur: &mut [u8], nb: &Nb, at: Pos) {
        let [ch, ce, ci, _] = c;
        let old = if C::DECODING { Fields::default() } else { parse(cur) };
        let me = self.slot(at, at.index);
        let n = self.rows.len();
        let pick = |present: bool, back: usize| present.then(|| (me + n - back) % n);
        let slots = [pick(nb.left.is_some(), 1), pick(nb.up.is_some(), at.row), pick(nb.up_left.is_some(), at.row + 1)];
        let left = slots[0].map(|s| self.rows[s]);
        let wide = slots.map(|s| s.and_then(|s| self.rows[s].wide));
        let mut f = Fields::default();
        code_header(ch, &old, &mut f, left);
        if f.mode == RESERVED {
            cur[0] = 0;
            for b in cur[1..].iter_mut() {
                *b = ce.sym(RESERVED_T, u32::from(*b)) as u8;
            }
            self.rows[me] = Cached::new(&parse(cur));
            return;
        }
        code_endpoints(ce, &old, &mut f, wide);
        code_indices(ci, &old, &mut f, &self.shapes);
        pack(&f, cur);
        self.rows[me] = Cached::new(&f);
    }

    fn copied(&mut self, at: Pos, from: usize) {
        let me = self.slot(at, at.index);
        let src = self.slot(at, from);
        self.rows[me] = self.rows[src];
    }
}
