//! The pass: blocks in tile order, each part's candidates from the window, their rate from a
//! field-level LZ model.

use super::super::color::ColorMode;
use super::parts::{read_le, write_le, Kind, Palette, Part};
use super::target::{Target, FORBIDDEN};
use super::{RdoSettings, CONTINUE_BITS, LITERAL_BITS, MATCH_BITS};
use crate::texture::BcFormat;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Multiplicative hash for u64 field values (std's SipHash is several times slower here and
/// the keys are not attacker-chosen in a way that matters: worst case is a slow pack).
#[derive(Default, Clone, Copy)]
struct FieldHasher(u64);

impl Hasher for FieldHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

/// Field value -> tile-order index of its latest block in the current tile.
type FieldMap = HashMap<u64, usize, BuildHasherDefault<FieldHasher>>;

/// The original texels, RGBA8.
pub(super) struct Image<'a> {
    pub rgba: &'a [u8],
    pub width: usize,
    pub height: usize,
}

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
    /// Per part: [endpoint field, index field] maps.
    seen: Vec<[FieldMap; 2]>,
    /// The current tile's finished blocks by tile-order index (`None`: not yet visited, or
    /// zero padding past the surface edge).
    slots: Vec<Option<Slot>>,
}

/// A finished block's fields and palettes, per part, so window scans do not re-decode them.
#[derive(Debug, Clone, Copy)]
struct Slot {
    fields: [[u64; 2]; 2],
    palettes: [Palette; 2],
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
            seen: parts.iter().map(|_| [FieldMap::default(), FieldMap::default()]).collect(),
            slots: vec![None; (tile_w / 4 * tile_h / 4) as usize],
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
        for maps in &mut self.seen {
            maps.iter_mut().for_each(HashMap::clear);
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
                let mut slot = Slot { fields: [[0; 2]; 2], palettes: [empty; 2] };
                for (p, part) in self.parts.iter().enumerate() {
                    carry = self.part(&at, global, p, *part, carry);
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

    /// Field `which` of part `part` of the block `d` blocks back, if that block exists.
    fn field_back(&self, at: &At, d: usize, p: usize, which: usize) -> Option<u64> {
        let m = at.k.checked_sub(d)?;
        self.slots[m].as_ref().map(|slot| slot.fields[p][which])
    }

    fn target(&self, global: usize, part: Part) -> Target {
        let (bx, by) = (global % self.blocks_x, global / self.blocks_x);
        let img = &self.image;
        let mut t = Target {
            kind: part.kind,
            x: [[0; 3]; 16],
            live: [false; 16],
            opaque: [true; 16],
            check_alpha: part.kind == Kind::Color(ColorMode::Bc1),
            scale: 1.0,
        };
        for i in 0..16 {
            let (x, y) = (bx * 4 + i % 4, by * 4 + i / 4);
            if x < img.width && y < img.height {
                let px = &img.rgba[(y * img.width + x) * 4..][..4];
                t.live[i] = true;
                t.x[i] = match part.kind {
                    Kind::Color(_) => [px[0], px[1], px[2]].map(i32::from),
                    Kind::Alpha { channel } => [i32::from(px[channel]), 0, 0],
                };
            }
        }
        if t.check_alpha {
            let pal = part.kind.palette(self.field(global, part, ENDPOINTS)).rgba;
            let indices = self.field(global, part, INDICES);
            for (i, o) in t.opaque.iter_mut().enumerate() {
                *o = pal[((indices >> (2 * i)) & 3) as usize][3] == 255;
            }
        }
        let channels = if matches!(part.kind, Kind::Color(_)) { 3 } else { 1 };
        let live = t.live.iter().filter(|&&l| l).count() as f32;
        let sigma = (0..channels)
            .map(|c| {
                let vals = || t.x.iter().zip(&t.live).filter(|(_, &l)| l).map(|(v, _)| v[c] as f32);
                let mean = vals().sum::<f32>() / live;
                (vals().map(|v| (v - mean).powi(2)).sum::<f32>() / live).sqrt()
            })
            .fold(0f32, f32::max);
        let s = self.settings;
        if sigma < s.smooth_max_std_dev {
            t.scale = 1.0 + (s.smooth_max_error_scale - 1.0) * (1.0 - sigma / s.smooth_max_std_dev);
        }
        t
    }

    /// Nearest window distance (blocks) at which field `which` of part `p` equals `value`.
    fn nearest(&self, at: &At, p: usize, which: usize, value: u64) -> Option<usize> {
        let m = *self.seen[p][which].get(&value)?;
        let d = at.k - m;
        (d <= self.settings.window_blocks as usize).then_some(d)
    }

    /// Estimated bits of coding part `p` as (`endpoints`, `indices`) after a field whose match
    /// (if any) was `carry` blocks back; `hint` is a distance worth trying besides the nearest.
    /// Returns the bits and the distance carried into the next field.
    fn bits(
        &self,
        at: &At,
        p: usize,
        e: u64,
        s: u64,
        carry: Option<usize>,
        hint: Option<usize>,
    ) -> (f32, Option<usize>) {
        let part = self.parts[p];
        let e_len = part.kind.endpoint_bytes();
        let bb = self.format.block_bytes() as usize;
        let matches = |d: usize, which: usize, v: u64| self.field_back(at, d, p, which) == Some(v);
        let mut e_opts: [(f32, Option<usize>); 4] = [(f32::INFINITY, None); 4];
        e_opts[0] = (LITERAL_BITS * e_len as f32, None);
        if let Some(d) = carry.filter(|&d| matches(d, ENDPOINTS, e)) {
            e_opts[1] = (CONTINUE_BITS, Some(d));
        }
        if e_len >= 3 {
            for (slot, d) in [self.nearest(at, p, ENDPOINTS, e), hint].into_iter().enumerate() {
                if let Some(d) = d.filter(|&d| matches(d, ENDPOINTS, e)) {
                    e_opts[2 + slot] = (match_bits(d * bb), Some(d));
                }
            }
        }
        let s_literal = LITERAL_BITS * (8 - e_len) as f32;
        let s_near = self.nearest(at, p, INDICES, s).map(|d| (match_bits(d * bb), Some(d)));
        let mut best = (f32::INFINITY, None);
        for (e_bits, e_carry) in e_opts {
            if !e_bits.is_finite() {
                continue;
            }
            let mut opts = [(s_literal, None), s_near.unwrap_or((f32::INFINITY, None)), (f32::INFINITY, None)];
            if let Some(d) = e_carry.filter(|&d| matches(d, INDICES, s)) {
                opts[2] = (CONTINUE_BITS, Some(d));
            }
            for (s_bits, s_carry) in opts {
                // Ties go to the option that leaves a match open for the next field.
                let total = e_bits + s_bits;
                if total < best.0 || (total == best.0 && best.1.is_none() && s_carry.is_some()) {
                    best = (total, s_carry);
                }
            }
        }
        best
    }

    /// Chooses part `p` of block `global`, writes it, records its fields; returns the carry.
    fn part(&mut self, at: &At, global: usize, p: usize, part: Part, carry: Option<usize>) -> Option<usize> {
        let target = self.target(global, part);
        let lambda = self.settings.lambda;
        let (e0, s0) = (self.field(global, part, ENDPOINTS), self.field(global, part, INDICES));
        let (bits0, carry0) = self.bits(at, p, e0, s0, carry, None);
        let pal0 = part.kind.palette(e0);
        let d0 = target.error(&pal0, s0, u32::MAX);
        let mut best =
            Choice { endpoints: e0, indices: s0, cost: target.scale * d0 as f32 + lambda * bits0, carry: carry0 };
        // `known`: the candidate's error when the caller already has it.
        let consider =
            |pass: &Self, best: &mut Choice, e: u64, pal: &Palette, s: u64, hint: Option<usize>, known: Option<u32>| {
                let (bits, next) = pass.bits(at, p, e, s, carry, hint);
                let rate = lambda * bits;
                if rate >= best.cost {
                    return;
                }
                let bound = ((best.cost - rate) / target.scale).ceil().min(FORBIDDEN as f32) as u32;
                let d = known.unwrap_or_else(|| target.error(pal, s, bound));
                if d >= FORBIDDEN {
                    return;
                }
                let cost = target.scale * d as f32 + rate;
                if cost < best.cost {
                    *best = Choice { endpoints: e, indices: s, cost, carry: next };
                }
            };
        // The block's own fields improved for quality alone: refitted endpoints, best indices.
        if let Some(e) = target.refit(s0) {
            consider(self, &mut best, e, &part.kind.palette(e), s0, None, None);
        }
        let (s, err) = target.best_indices(&pal0, u32::MAX);
        consider(self, &mut best, e0, &pal0, s, None, Some(err));
        let window = self.settings.window_blocks as usize;
        let index_bytes = (8 - part.kind.endpoint_bytes()) as f32;
        for d in 1..=window.min(at.k) {
            let Some(slot) = self.slots[at.k - d].as_ref() else { continue };
            let ([ej, sj], pal_j) = (slot.fields[p], &slot.palettes[p]);
            // The whole part of the earlier block.
            consider(self, &mut best, ej, pal_j, sj, Some(d), None);
            // Each distinct field value once, at its nearest distance.
            if self.nearest(at, p, ENDPOINTS, ej) == Some(d) {
                // Fewest bits these endpoints can cost (indices continuing a match at best)
                // bound the error worth computing.
                let floor =
                    self.bits(at, p, ej, u64::MAX, carry, Some(d)).0 - LITERAL_BITS * index_bytes + CONTINUE_BITS;
                let room = best.cost - lambda * floor;
                if room > 0.0 {
                    let (s, err) =
                        target.best_indices(pal_j, (room / target.scale).ceil().min(FORBIDDEN as f32) as u32);
                    consider(self, &mut best, ej, pal_j, s, Some(d), Some(err));
                }
            }
            if self.nearest(at, p, INDICES, sj) == Some(d) {
                consider(self, &mut best, e0, &pal0, sj, Some(d), None);
                if let Some(e) = target.refit(sj) {
                    consider(self, &mut best, e, &part.kind.palette(e), sj, Some(d), None);
                }
            }
        }
        let range_e = self.field_range(global, part, ENDPOINTS);
        write_le(&mut self.out[range_e], best.endpoints);
        let range_s = self.field_range(global, part, INDICES);
        write_le(&mut self.out[range_s], best.indices);
        self.seen[p][ENDPOINTS].insert(best.endpoints, at.k);
        self.seen[p][INDICES].insert(best.indices, at.k);
        best.carry
    }
}

/// Estimated bits of a new match `distance` bytes back: [`MATCH_BITS`] plus Deflate's extra
/// distance bits (0 for 1..=4, then one more per doubling: 13 at 16385..=32768).
fn match_bits(distance: usize) -> f32 {
    let extra = if distance <= 4 { 0 } else { (usize::BITS - (distance - 1).leading_zeros()) as usize - 2 };
    MATCH_BITS + extra as f32
}
