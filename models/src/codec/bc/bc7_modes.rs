//! BC7 encoder settings: a quality preset and a mode mask (XBTC's `--bc7modes`), mapped onto
//! intel_tex_2's `bc7::EncodeSettings`.
//!
//! The ISPC encoder does not take a mode mask; it searches mode groups (kernel.ispc,
//! `CompressBlockBC7_core`):
//! - `mode_selection[0]`: mode 0 (16 partitions), and mode 2 unless `skip_mode2`;
//! - `mode_selection[1]`: modes 1, 3 and 7, each over its `fast_skip_threshold_modeN` best
//!   partitions (0 skips that mode);
//! - `mode_selection[2]`: modes 4 and 5 together;
//! - `mode_selection[3]`: mode 6.
//!
//! So a mask is expressible exactly when it is non-empty, has mode 0 whenever it has mode 2,
//! and has modes 4 and 5 both or neither. Anything else is rejected rather than silently
//! widened, because the mask is a claim about the output (mode-7-only streams compress
//! differently in BCPack). With a mask, each allowed mode gets the larger of the preset's
//! partition count / refinement passes and the largest value among intel's alpha presets up
//! to the requested quality (the one family that gives every mode non-zero values), so a mode
//! the preset skips is still searched properly and effort never drops from fast to slow.
//! Without a mask the preset is used unchanged.

use super::BcError;
use intel_tex_2::bc7;

/// Encoder effort for BC7; the names are intel_tex_2's presets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Bc7Quality {
    /// `opaque_fast_settings` / `alpha_fast_settings`: modes 1, 3, 6 (+ 4/5, 7 with alpha).
    Fast,
    /// `*_basic_settings`: every mode group, few partitions.
    #[default]
    Basic,
    /// `*_slow_settings`: every mode, all 64 partitions, more refinement.
    Slow,
}

impl std::str::FromStr for Bc7Quality {
    type Err = String;

    /// `fast`, `basic` or `slow` (command lines and scenario files).
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "fast" => Ok(Bc7Quality::Fast),
            "basic" => Ok(Bc7Quality::Basic),
            "slow" => Ok(Bc7Quality::Slow),
            _ => Err(format!("`{s}` is not a BC7 quality; expected fast, basic or slow")),
        }
    }
}

/// A set of BC7 modes the encoder may use: bit `m` set allows mode `m`. Only masks the ISPC
/// encoder can search exactly can be built (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bc7Modes(u8);

impl Bc7Modes {
    /// Every mode.
    pub const ALL: Bc7Modes = Bc7Modes(0xFF);
    /// Mode 7 only (`--bc7modes 0x80`): two subsets, RGBA 5.5.5.5 + p-bit endpoints, 2-bit
    /// indices. Compresses better in BCPack+Deflate, at a PSNR between BC1 and full BC7.
    pub const MODE_7_ONLY: Bc7Modes = Bc7Modes(0x80);

    /// The mask `mask`, or an error naming why the encoder cannot search exactly that set.
    pub fn new(mask: u8) -> Result<Bc7Modes, BcError> {
        let reason = if mask == 0 {
            Some("it allows no mode; expected at least one bit set")
        } else if mask & 0b100 != 0 && mask & 0b1 == 0 {
            Some("mode 2 is only searched together with mode 0; expected bit 0 set with bit 2")
        } else if (mask >> 4) & 1 != (mask >> 5) & 1 {
            Some("modes 4 and 5 are searched together; expected bits 4 and 5 both set or both clear")
        } else {
            None
        };
        match reason {
            Some(reason) => Err(BcError::Bc7ModeMask { mask, reason }),
            None => Ok(Bc7Modes(mask)),
        }
    }

    /// The mask, bit `m` = mode `m`.
    pub fn mask(self) -> u8 {
        self.0
    }

    /// True when mode `mode` (0..=7) is allowed.
    pub fn contains(self, mode: u8) -> bool {
        mode < 8 && self.0 >> mode & 1 == 1
    }
}

/// intel_tex_2 settings for `quality`, for an image with (`alpha`) or without a non-opaque
/// texel, restricted to exactly `modes` when given.
pub(super) fn settings(quality: Bc7Quality, alpha: bool, modes: Option<Bc7Modes>) -> bc7::EncodeSettings {
    let preset = match (quality, alpha) {
        (Bc7Quality::Fast, false) => bc7::opaque_fast_settings(),
        (Bc7Quality::Basic, false) => bc7::opaque_basic_settings(),
        (Bc7Quality::Slow, false) => bc7::opaque_slow_settings(),
        (Bc7Quality::Fast, true) => bc7::alpha_fast_settings(),
        (Bc7Quality::Basic, true) => bc7::alpha_basic_settings(),
        (Bc7Quality::Slow, true) => bc7::alpha_slow_settings(),
    };
    let Some(modes) = modes else { return preset };
    let borrowed = borrowed_effort(quality);
    let mut s = preset;
    let on = |m: u8| modes.contains(m);
    // The larger of the preset's effort and the borrowed one (the preset's is 0 for a mode it
    // skips; intel's alpha "basic" tries fewer mode-7 partitions than its "fast").
    let pick = |preset_value: u32, borrowed_value: u32| preset_value.max(borrowed_value);
    for m in 0..8 {
        s.refine_iterations[m] = pick(preset.refine_iterations[m], borrowed.refine_iterations[m]);
    }
    s.mode_selection[0] = on(0);
    s.skip_mode2 = !on(2);
    s.mode_selection[1] = on(1) || on(3) || on(7);
    s.fast_skip_threshold_mode1 =
        if on(1) { pick(preset.fast_skip_threshold_mode1, borrowed.fast_skip_threshold_mode1) } else { 0 };
    s.fast_skip_threshold_mode3 =
        if on(3) { pick(preset.fast_skip_threshold_mode3, borrowed.fast_skip_threshold_mode3) } else { 0 };
    s.fast_skip_threshold_mode7 =
        if on(7) { pick(preset.fast_skip_threshold_mode7, borrowed.fast_skip_threshold_mode7) } else { 0 };
    s.mode_selection[2] = on(4);
    s.mode_selection[3] = on(6);
    s
}

/// Per-mode partition counts and refinement passes for modes a preset does not search: the
/// largest value among intel's alpha presets up to `quality`. (intel's alpha presets are not
/// monotonic: basic tries 4 mode-7 partitions, fast 8; the maximum keeps "basic" at least as
/// thorough as "fast".)
fn borrowed_effort(quality: Bc7Quality) -> bc7::EncodeSettings {
    let ladder = [bc7::alpha_fast_settings(), bc7::alpha_basic_settings(), bc7::alpha_slow_settings()];
    let upto = match quality {
        Bc7Quality::Fast => 1,
        Bc7Quality::Basic => 2,
        Bc7Quality::Slow => 3,
    };
    let mut out = ladder[0];
    for s in &ladder[1..upto] {
        for m in 0..8 {
            out.refine_iterations[m] = out.refine_iterations[m].max(s.refine_iterations[m]);
        }
        out.fast_skip_threshold_mode1 = out.fast_skip_threshold_mode1.max(s.fast_skip_threshold_mode1);
        out.fast_skip_threshold_mode3 = out.fast_skip_threshold_mode3.max(s.fast_skip_threshold_mode3);
        out.fast_skip_threshold_mode7 = out.fast_skip_threshold_mode7.max(s.fast_skip_threshold_mode7);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expressible_masks() {
        let ok: Vec<u8> = (0..=255u8).filter(|&m| Bc7Modes::new(m).is_ok()).collect();
        // Bits {0, 2}: 3 choices (2 needs 0); bits {1, 3, 6, 7}: 16; bits {4, 5}: 2 (both or
        // neither); minus the empty mask.
        assert_eq!(ok.len(), 3 * 16 * 2 - 1);
        assert!(ok.contains(&0x80) && ok.contains(&0xFF) && ok.contains(&0x40) && ok.contains(&0x30));
        for bad in [0x00u8, 0x04, 0x10, 0x20, 0x84, 0xEF] {
            assert!(Bc7Modes::new(bad).is_err(), "{bad:#04x}");
        }
        let err = Bc7Modes::new(0x10).unwrap_err().to_string();
        assert!(err.contains("0x10") && err.contains("modes 4 and 5"), "{err}");
    }

    #[test]
    fn mode7_only_maps_to_group1_with_only_mode7_partitions() {
        for quality in [Bc7Quality::Fast, Bc7Quality::Basic, Bc7Quality::Slow] {
            for alpha in [false, true] {
                let s = settings(quality, alpha, Some(Bc7Modes::MODE_7_ONLY));
                assert_eq!(s.mode_selection, [false, true, false, false]);
                assert_eq!((s.fast_skip_threshold_mode1, s.fast_skip_threshold_mode3), (0, 0));
                assert!(s.fast_skip_threshold_mode7 > 0);
                assert!(s.refine_iterations[7] > 0);
                assert_eq!(s.channels, if alpha { 4 } else { 3 });
            }
        }
    }

    #[test]
    fn masked_effort_never_drops_with_quality() {
        for alpha in [false, true] {
            let m7 = |q| settings(q, alpha, Some(Bc7Modes::MODE_7_ONLY)).fast_skip_threshold_mode7;
            assert!(m7(Bc7Quality::Fast) <= m7(Bc7Quality::Basic) && m7(Bc7Quality::Basic) <= m7(Bc7Quality::Slow));
            // Slow searches all 64 two-subset partitions.
            assert_eq!(m7(Bc7Quality::Slow), 64);
        }
        // intel's own alpha presets: basic tries 4 mode-7 partitions, fast 8.
        assert!(
            bc7::alpha_basic_settings().fast_skip_threshold_mode7
                < bc7::alpha_fast_settings().fast_skip_threshold_mode7
        );
    }

    #[test]
    fn no_mask_is_the_preset_and_all_searches_everything() {
        let s = settings(Bc7Quality::Fast, false, None);
        assert_eq!(s.mode_selection, bc7::opaque_fast_settings().mode_selection);
        let s = settings(Bc7Quality::Fast, false, Some(Bc7Modes::ALL));
        assert_eq!(s.mode_selection, [true; 4]);
        assert!(!s.skip_mode2);
        assert!(s.fast_skip_threshold_mode1 > 0 && s.fast_skip_threshold_mode3 > 0 && s.fast_skip_threshold_mode7 > 0);
    }
}
