//! Which pixels write sampler feedback in a frame: one in `rate` pixels, stratified — one
//! jittered pixel per block of `rate` pixels — so a frame's samples cover the screen
//! evenly, and re-seeded every frame so that over a few frames every pixel is visited.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub use super::visibility::SampleGrid;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SamplePattern {
    block_w: u32,
    block_h: u32,
}

impl SamplePattern {
    /// One sample per `one_in` pixels; `one_in` must be a power of two (1 = every pixel).
    pub fn new(one_in: u32) -> Option<SamplePattern> {
        if !one_in.is_power_of_two() || one_in > 1 << 16 {
            return None;
        }
        let bits = one_in.trailing_zeros();
        // Wider than tall, like a 16×8 block for 1/128.
        let block_w = 1 << bits.div_ceil(2);
        let block_h = 1 << (bits / 2);
        Some(SamplePattern { block_w, block_h })
    }

    pub fn one_in(&self) -> u32 {
        self.block_w * self.block_h
    }

    /// The pixels sampled in `frame`, row-major by block. Blocks cut by the screen edge
    /// still sample inside the screen.
    pub fn pixels(&self, width: u32, height: u32, seed: u64, frame: u64) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        self.pixels_into(width, height, seed, frame, &mut out);
        out
    }

    /// As [`pixels`](Self::pixels), into a reused buffer.
    pub fn pixels_into(&self, width: u32, height: u32, seed: u64, frame: u64, out: &mut Vec<(u32, u32)>) {
        out.clear();
        if self.one_in() == 1 {
            out.extend((0..height).flat_map(|y| (0..width).map(move |x| (x, y))));
            return;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ frame.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        for by in (0..height).step_by(self.block_h as usize) {
            for bx in (0..width).step_by(self.block_w as usize) {
                let w = self.block_w.min(width - bx);
                let h = self.block_h.min(height - by);
                // One 32-bit draw per block: 16 bits per axis, scaled by multiply-shift
                // (blocks are ≤ 256 pixels a side, so the bias is below 1/256 of a pixel's
                // share).
                let r: u32 = rng.gen();
                out.push((bx + (((r & 0xFFFF) * w) >> 16), by + (((r >> 16) * h) >> 16)));
            }
        }
    }

    /// How the samples of a `width` × `height` frame lie in blocks.
    pub fn grid(&self, width: u32, height: u32) -> SampleGrid {
        SampleGrid {
            block_w: self.block_w,
            block_h: self.block_h,
            blocks_x: width.div_ceil(self.block_w),
            blocks_y: height.div_ceil(self.block_h),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_in_128_is_a_16_by_8_block() {
        let p = SamplePattern::new(128).unwrap();
        assert_eq!((p.block_w, p.block_h), (16, 8));
        assert_eq!(p.pixels(1920, 1080, 1, 0).len(), 120 * 135);
        assert!(SamplePattern::new(100).is_none());
    }

    #[test]
    fn frames_differ_and_are_reproducible() {
        let p = SamplePattern::new(128).unwrap();
        assert_eq!(p.pixels(64, 64, 7, 3), p.pixels(64, 64, 7, 3));
        assert_ne!(p.pixels(64, 64, 7, 3), p.pixels(64, 64, 7, 4));
        assert!(p.pixels(70, 70, 1, 0).iter().all(|&(x, y)| x < 70 && y < 70));
        let g = p.grid(70, 70);
        assert_eq!((g.blocks_x * g.blocks_y) as usize, p.pixels(70, 70, 1, 0).len());
    }
}
