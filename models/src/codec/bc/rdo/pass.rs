//! The pass: blocks in tile order, each part's candidates from the window, their rate from a
//! field-level LZ model.

use super::field_index::FieldIndex;
use super::parts::{read_le, write_le, Palette, Part};
use super::target::{Image, Target, FORBIDDEN, REFIT_LANES};
use super::{RdoSettings, CONTINUE_BITS, LITERAL_BITS, MATCH_BITS};
use crate::texture::BcFormat;

/// One pass over a surface: its blocks (`out`, chosen in place), the original texels, and
/// the current tile's finished blocks and field values.
pub(super) struct Pass<'a> {
    format: BcFormat,
    parts: &'static [Part],
    settings: &'a RdoSettings,
    image: Image<'a>,
    blocks_x: usize,
    blocks_y: usize,
    tile_bw: usize,
    tile_bh: usize,
    out: Vec<u8>,
    /// Per part: [endpoint field, index field] values in the current tile.
    seen: Vec<[FieldIndex; 2]>,
    /// The current tile's finished blocks by tile-order index (`None`: not yet visited, or
    /// zero padding past the surface edge).
    slots: Vec<Option<Slot>>,
    /// Scratch: the refits of a part's window's distinct index fields, in window order.
    refits: Vec<Option<u64>>,
}

/// A finished block's fields, their classes in [`Pass::seen`] and palettes, per part, so
/// window scans neither re-decode nor look them up.
#[derive(Debug, Clone, Copy)]
struct Slot {
    fields: [[u64; 2]; 2],
    classes: [[u32; 2]; 2],
    palettes: [Palette; 2],
}

/// A field value and the nearest window distance at which the same field holds it.
#[derive(Debug, Clone, Copy)]
struct Field {
    value: u64,
    nearest: Option<usize>,
}

/// Which field of a part.
const ENDPOINTS: usize = 0;
const INDICES: usize = 1;

/// One candidate value of a part and its cost.
#[derive(Debug, Clone, Copy)]
struct Choice {
    endpoints: u64,
    indices: u64,
    cost: f32,
    /// Block distance of the match covering the index field, if any (continues into the next).
    carry: Option<usize>,
}

/// Estimated bits of a part, and the distance of the match left open for the next field.
#[derive(Debug, Clone, Copy)]
struct Rate {
    bits: f32,
    carry: Option<usize>,
}

impl Rate {
    /// Takes the option if it is cheaper; on a tie, if it leaves a match open and the
    /// option held does not.
    #[inline(always)]
    fn offer(&mut self, bits: f32, carry: Option<usize>) {
        if bits < self.bits || (bits == self.bits && self.carry.is_none() && carry.is_some()) {
            *self = Rate { bits, carry };
        }
    }
}

/// A block of the window: how far back it is, and its fields [endpoints, indices] of the
/// part being chosen.
#[derive(Debug, Clone, Copy)]
struct Back {
    d: usize,
    fields: [u64; 2],
}

/// Tile-local context of the block being optimised.
struct At {
    tx: usize,
    ty: usize,
    /// Tile-order index of the block.
    k: usize,
}

impl<'a> Pass<'a> {
    /// A pass over `blocks`, a `format` surface of `blocks` (x, y) blocks encoded from `image`.
    pub(super) fn new(
        format: BcFormat,
        parts: &'static [Part],
        settings: &'a RdoSettings,
        image: Image<'a>,
        blocks: (usize, usize),
        encoded: &[u8],
    ) -> Pass<'a> {
        let (tile_w, tile_h) = format.tile_texels();
        Pass {
            format,
            parts,
            settings,
            image,
            blocks_x: blocks.0,
            blocks_y: blocks.1,
            tile_bw: (tile_w / 4) as usize,
            tile_bh: (tile_h / 4) as usize,
            out: encoded.to_vec(),
            seen: parts.iter().map(|_| Default::default()).collect(),
            slots: vec![None; (tile_w / 4 * tile_h / 4) as usize],
            refits: Vec::new(),
        }
    }

    /// Runs the pass over every tile; returns the chosen blocks.
    pub(super) fn run(mut self) -> Vec<u8> {
        for ty in 0..self.blocks_y.div_ceil(self.tile_bh) {
            for tx in 0..self.blocks_x.div_ceil(self.tile_bw) {
                self.tile(tx, ty);
            }
        }
        self.out
    }
}

impl Pass<'_> {
    fn tile(&mut self, tx: usize, ty: usize) {
        for fields in &mut self.seen {
            fields.iter_mut().for_each(FieldIndex::clear);
        }
        self.slots.fill(None);
        let mut carry = None;
        for by in 0..self.tile_bh {
            for bx in 0..self.tile_bw {
                let at = At { tx, ty, k: by * self.tile_bw + bx };
                let Some(global) = self.global(&at, at.k) else {
                    carry = None; // zero padding of an edge tile sits between this and the next block
                    continue;
                };
                let empty = Palette { rgba: [[0; 4]; 8], len: 0 };
                let mut slot = Slot { fields: [[0; 2]; 2], classes: [[0; 2]; 2], palettes: [empty; 2] };
                for (p, part) in self.parts.iter().enumerate() {
                    (carry, slot.classes[p]) = self.part(&at, global, p, *part, carry);
                    slot.fields[p] = [self.field(global, *part, ENDPOINTS), self.field(global, *part, INDICES)];
                    slot.palettes[p] = part.kind.palette(slot.fields[p][ENDPOINTS]);
                }
                self.slots[at.k] = Some(slot);
            }
        }
    }

    /// Surface block index of tile-order index `m` of the tile at `at`, if inside the surface.
    fn global(&self, at: &At, m: usize) -> Option<usize> {
        let gx = at.tx * self.tile_bw + m % self.tile_bw;
        let gy = at.ty * self.tile_bh + m / self.tile_bw;
        (gx < self.blocks_x && gy < self.blocks_y).then_some(gy * self.blocks_x + gx)
    }

    fn field_range(&self, global: usize, part: Part, which: usize) -> std::ops::Range<usize> {
        let start = global * self.format.block_bytes() as usize + part.offset;
        let split = start + part.kind.endpoint_bytes();
        if which == ENDPOINTS {
            start..split
        } else {
            split..start + 8
        }
    }

    fn field(&self, global: usize, part: Part, which: usize) -> u64 {
        read_le(&self.out[self.field_range(global, part, which)])
    }

    /// The block `d` blocks back with its fields of part `p`, if that block exists.
    fn back(&self, at: &At, d: usize, p: usize) -> Option<Back> {
        let m = at.k.checked_sub(d)?;
        self.slots[m].as_ref().map(|slot| Back { d, fields: slot.fields[p] })
    }

    /// `value` of field `which` of part `p`, with its nearest window distance (blocks).
    fn nearest(&self, at: &At, p: usize, which: usize, value: u64) -> Field {
        let latest = self.seen[p][which].latest_of(value);
        Field { value, nearest: latest.and_then(|m| self.within_window(at, m)) }
    }

    /// Field `which` of part `p` of a finished block's `slot`, with its nearest window distance.
    fn slot_field(&self, at: &At, p: usize, which: usize, slot: &Slot) -> Field {
        let latest = self.seen[p][which].latest_of_class(slot.classes[p][which]);
        Field { value: slot.fields[p][which], nearest: self.within_window(at, latest) }
    }

    /// The distance back to tile-order index `m`, if inside the window.
    fn within_window(&self, at: &At, m: usize) -> Option<usize> {
        let d = at.k - m;
        (d <= self.settings.window_blocks as usize).then_some(d)
    }

    /// Refits, into `out`, the block's own index field `own`, then each distinct index field
    /// of part `p` in the window, in window order (nearest first, each value at its nearest
    /// block), several at a time.
    fn refit_indices(&self, at: &At, p: usize, target: &Target, own: u64, out: &mut Vec<Option<u64>>) {
        out.clear();
        let mut lanes = [own; REFIT_LANES];
        let mut filled = 1;
        for d in 1..=(self.settings.window_blocks as usize).min(at.k) {
            let Some(slot) = self.slots[at.k - d].as_ref() else { continue };
            let indices = self.slot_field(at, p, INDICES, slot);
            if indices.nearest == Some(d) {
                lanes[filled] = indices.value;
                filled += 1;
                if filled == REFIT_LANES {
                    out.extend(target.refit_lanes(lanes));
                    filled = 0;
                }
            }
        }
        if filled > 0 {
            // The lanes past `filled` hold earlier fields again: fitted, and left out.
            out.extend(&target.refit_lanes(lanes)[..filled]);
        }
    }

    /// Estimated bits of coding part `p` as (`endpoints`, `indices`) after a field whose match
    /// (if any) was at block `carry`; `hint` is a block worth trying besides the nearest.
    /// Returns the bits and the distance carried into the next field.
    fn bits(&self, at: &At, p: usize, e: Field, s: Field, carry: Option<Back>, hint: Option<Back>) -> Rate {
        let e_len = self.parts[p].kind.endpoint_bytes();
        let bb = self.format.block_bytes() as usize;
        let s_literal = LITERAL_BITS * (8 - e_len) as f32;
        let s_near = s.nearest.map(|d| (match_bits(d * bb), d));
        let mut best = Rate { bits: f32::INFINITY, carry: None };
        // Each way of coding the endpoints, then each way of coding the indices after it.
        let mut after_endpoints = |e_bits: f32, e_match: Option<Back>| {
            best.offer(e_bits + s_literal, None);
            if let Some((s_bits, d)) = s_near {
                best.offer(e_bits + s_bits, Some(d));
            }
            if let Some(b) = e_match.filter(|b| b.fields[INDICES] == s.value) {
                best.offer(e_bits + CONTINUE_BITS, Some(b.d));
            }
        };
        after_endpoints(LITERAL_BITS * e_len as f32, None);
        if let Some(b) = carry.filter(|b| b.fields[ENDPOINTS] == e.value) {
            after_endpoints(CONTINUE_BITS, Some(b));
        }
        if e_len >= 3 {
            let nearest = e.nearest.and_then(|d| self.back(at, d, p));
            for b in [nearest, hint].into_iter().flatten() {
                if b.fields[ENDPOINTS] == e.value {
                    after_endpoints(match_bits(b.d * bb), Some(b));
                }
            }
        }
        best
    }

    /// Chooses part `p` of block `global`, writes it, records its fields; returns the carry
    /// and the fields' classes.
    fn part(
        &mut self,
        at: &At,
        global: usize,
        p: usize,
        part: Part,
        carry: Option<usize>,
    ) -> (Option<usize>, [u32; 2]) {
        let (e0, s0) = (self.field(global, part, ENDPOINTS), self.field(global, part, INDICES));
        let target = Target::new(&self.image, self.blocks_x, global, part.kind, (e0, s0), self.settings);
        let lambda = self.settings.lambda;
        let (e0, s0) = (self.nearest(at, p, ENDPOINTS, e0), self.nearest(at, p, INDICES, s0));
        // The block the previous field's match was at, looked up once for every candidate.
        let carry = carry.and_then(|d| self.back(at, d, p));
        let Rate { bits: bits0, carry: carry0 } = self.bits(at, p, e0, s0, carry, None);
        let pal0 = part.kind.palette(e0.value);
        let d0 = target.error(&pal0, s0.value, u32::MAX);
        let cost0 = target.scale * d0 as f32 + lambda * bits0;
        let mut best = Choice { endpoints: e0.value, indices: s0.value, cost: cost0, carry: carry0 };
        // `known`: the candidate's error when the caller already has it.
        let consider = |pass: &Self,
                        best: &mut Choice,
                        e: Field,
                        pal: &Palette,
                        s: Field,
                        hint: Option<Back>,
                        known: Option<u32>| {
            let Rate { bits, carry: next } = pass.bits(at, p, e, s, carry, hint);
            let rate = lambda * bits;
            if rate >= best.cost {
                return;
            }
            let bound = error_bound((best.cost - rate) / target.scale);
            let d = known.unwrap_or_else(|| target.error(pal, s.value, bound));
            if d >= FORBIDDEN {
                return;
            }
            let cost = target.scale * d as f32 + rate;
            if cost < best.cost {
                *best = Choice { endpoints: e.value, indices: s.value, cost, carry: next };
            }
        };
        // The block's own fields improved for quality alone: refitted endpoints, best indices.
        let mut refits = std::mem::take(&mut self.refits);
        self.refit_indices(at, p, &target, s0.value, &mut refits);
        let mut refits_in_order = refits.iter();
        if let Some(&Some(e)) = refits_in_order.next() {
            consider(self, &mut best, self.nearest(at, p, ENDPOINTS, e), &part.kind.palette(e), s0, None, None);
        }
        let (s, err) = target.best_indices(&pal0, u32::MAX);
        consider(self, &mut best, e0, &pal0, self.nearest(at, p, INDICES, s), None, Some(err));
        let window = self.settings.window_blocks as usize;
        let index_bytes = (8 - part.kind.endpoint_bytes()) as f32;
        // Indices no field holds (wider than any): what the endpoints cost at least.
        let no_indices = Field { value: u64::MAX, nearest: None };
        for d in 1..=window.min(at.k) {
            let Some(slot) = self.slots[at.k - d].as_ref() else { continue };
            let (ej, sj) = (self.slot_field(at, p, ENDPOINTS, slot), self.slot_field(at, p, INDICES, slot));
            let pal_j = &slot.palettes[p];
            let here = Some(Back { d, fields: slot.fields[p] });
            // The whole part of the earlier block.
            consider(self, &mut best, ej, pal_j, sj, here, None);
            // Each distinct field value once, at its nearest distance.
            if ej.nearest == Some(d) {
                // Fewest bits these endpoints can cost (indices continuing a match at best)
                // bound the error worth computing.
                let floor =
                    self.bits(at, p, ej, no_indices, carry, here).bits - LITERAL_BITS * index_bytes + CONTINUE_BITS;
                let room = best.cost - lambda * floor;
                if room > 0.0 {
                    let (s, err) = target.best_indices(pal_j, error_bound(room / target.scale));
                    consider(self, &mut best, ej, pal_j, self.nearest(at, p, INDICES, s), here, Some(err));
                }
            }
            if sj.nearest == Some(d) {
                consider(self, &mut best, e0, &pal0, sj, here, None);
                if let Some(&Some(e)) = refits_in_order.next() {
                    consider(self, &mut best, self.nearest(at, p, ENDPOINTS, e), &part.kind.palette(e), sj, here, None);
                }
            }
        }
        self.refits = refits;
        let range_e = self.field_range(global, part, ENDPOINTS);
        write_le(&mut self.out[range_e], best.endpoints);
        let range_s = self.field_range(global, part, INDICES);
        write_le(&mut self.out[range_s], best.indices);
        let classes =
            [self.seen[p][ENDPOINTS].record(best.endpoints, at.k), self.seen[p][INDICES].record(best.indices, at.k)];
        (best.carry, classes)
    }
}

/// The error bound `(x).ceil().min(FORBIDDEN) as u32` for a positive (or NaN) `x`,
/// without a call to libm's `ceilf` (the target has no rounding instruction by default):
/// below 2^26 an `f32`'s integer part and the test for a fraction are exact.
pub(super) fn error_bound(x: f32) -> u32 {
    let x = x.min(FORBIDDEN as f32); // NaN gives FORBIDDEN, as `ceil` then `min` did
    let whole = x as u32;
    whole + u32::from((whole as f32) < x)
}

/// Estimated bits of a new match `distance` bytes back: [`MATCH_BITS`] plus Deflate's extra
/// distance bits (0 for 1..=4, then one more per doubling: 13 at 16385..=32768).
fn match_bits(distance: usize) -> f32 {
    let extra = if distance <= 4 { 0 } else { (usize::BITS - (distance - 1).leading_zeros()) as usize - 2 };
    MATCH_BITS + extra as f32
}
