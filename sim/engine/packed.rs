//! Real packed content: each scene texture streams from a container written by `sfsim pack`
//! (docs/container.md), so load timing uses the real per-tile `CompressedSize`,
//! `InflatedSize` and request options, and a loaded tile can be decoded through the
//! functional MDU and checked against its hash.
//!
//! Which container a texture uses: scene texture `t` uses `containers[t % len]`. Scenes
//! order textures by set then kind (diffuse, normal, specular), so a list of three names
//! one container per kind and every set repeats them; a list of one serves every texture.
//!
//! Set containers (`sfsim pack --set`, magic `SFSIMSET`): a list of set containers gives set
//! `s` (scene textures 3s, 3s+1, 3s+2) the members 0, 1, 2 of `containers[s % len]`. A list
//! must be all set containers or all single-texture containers; mixing is refused naming the
//! first entry of the other kind.
//!
//! Virtual textures larger (or smaller) than their container are built by repetition. With
//! `shift = log2(virtual width) − log2(container width)` (floor logs), virtual tile
//! (mip m, x, y) reads the container's tile (m', x mod tiles_x(m'), y mod tiles_y(m')) where
//! `m' = clamp(m − shift, 0, last streamable mip of the container)`: a virtual mip finer than
//! the container's mip 0 repeats mip 0, one whose counterpart is in the container's packed
//! tail (or not streamable) uses the container's smallest streamable mip. The virtual
//! texture's packed tail loads the container's tail stream (its last resident stream; a raw
//! tail is charged as one whole raw tile so the request stays valid). Each texture's streams
//! sit in their own 4 GiB file window (`texture << 32` + the container offset), so textures
//! that share a container still read distinct offsets. With set containers the window is the
//! set's (`set << 32` + the stream's offset in the set file), shared by its three textures:
//! a member-1 (or 2) tile placed right after its member-0 companion in the set file is read
//! at exactly `align16(offset + CompressedSize)` of that member-0 tile, so the drive sees the
//! set's tiles of one position as adjacent reads. Under repetition this holds wherever the
//! container tiles the virtual tiles map to are adjacent (e.g. equal-sized members).
//!
//! Verification (`verify`) is host work done when a load completes: it never changes
//! simulated time. `Sample` verifies a tile when a seeded hash of (texture, tile) is 0
//! modulo `sample_every`, so the subset does not depend on load order.

use super::content::{tile_hash, ContentModel, TileStream};
use crate::content::pack::{Container, ContainerError, PackedFile, MEMBER_KINDS, SET_MEMBERS};
use serde::{Deserialize, Serialize};
use sfsim_models::nvme::RequestOptions;
use sfsim_models::texture::{BcFormat, TextureDesc, TileCoord, TILE_BYTES};
use sfsim_models::units::Bytes;
use sfsim_models::ConfigError;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Which loaded tiles are decoded and hash-checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verify {
    /// Every loaded tile.
    All,
    /// About one tile in `sample_every` (seeded, by tile).
    Sample,
    /// None.
    None,
}

/// The scenario's `content: Packed((…))`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PackedConfig {
    /// Container files (relative to the scenario); texture `t` uses `containers[t % len]`, or,
    /// for a list of set containers, set `s` uses `containers[s % len]`.
    pub containers: Vec<PathBuf>,
    /// Which loaded tiles to decode and hash-check (Sample).
    pub verify: Verify,
    /// `Sample` checks about one tile in this many (16).
    pub sample_every: u32,
    /// Picks the sampled subset (1).
    pub seed: u64,
}

impl Default for PackedConfig {
    fn default() -> Self {
        PackedConfig { containers: Vec::new(), verify: Verify::Sample, sample_every: 16, seed: 1 }
    }
}

impl PackedConfig {
    /// At least one container, a sample rate ≥ 1.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.containers.is_empty() {
            return Err(ConfigError::new("containers", "is empty; expected at least one container file"));
        }
        if !(1..=65536).contains(&self.sample_every) {
            return Err(ConfigError::new(
                "sample_every",
                format!("{} is out of range; expected 1..=65536", self.sample_every),
            ));
        }
        Ok(())
    }
}

/// One container and the index of its streams.
#[derive(Debug)]
struct Source {
    container: Container,
    /// Entry index of each streamable tile.
    tiles: HashMap<TileCoord, usize>,
    /// (tiles across, tiles down) per streamable mip.
    grid: Vec<(u32, u32)>,
    /// The stream loaded as a texture's packed tail.
    tail: usize,
}

/// A scene texture's view of its container.
#[derive(Debug, Clone, Copy)]
struct Binding {
    /// Index into `PackedContent::sources`.
    source: usize,
    shift: i64,
    first_packed_mip: u32,
    /// Added to the stream's file offset: the texture's (or, for set containers, the set's)
    /// 4 GiB file window.
    window: u64,
}

/// The content model over real containers (see the module docs for the mapping).
#[derive(Debug)]
pub struct PackedContent {
    cfg: PackedConfig,
    sources: Vec<Source>,
    textures: Vec<Binding>,
}

/// Fields are relative to the stream workload (`content.containers[i]`).
fn field(i: usize) -> String {
    format!("content.containers[{i}]")
}

impl PackedContent {
    /// Opens every container (paths relative to `base_dir`) and binds the scene's textures
    /// to them; errors name the field and the container file.
    pub fn open(cfg: &PackedConfig, base_dir: &Path, textures: &[TextureDesc]) -> Result<PackedContent, ConfigError> {
        cfg.validate().map_err(|e| e.within("content"))?;
        let files = cfg
            .containers
            .iter()
            .enumerate()
            .map(|(i, path)| {
                PackedFile::open(&base_dir.join(path)).map_err(|e| ConfigError::new(field(i), e.to_string()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        PackedContent::from_files(cfg, files, textures)
    }

    /// Binds the scene's textures to containers already open (`containers[i]` stands for
    /// `cfg.containers[i]` in errors).
    pub fn from_containers(
        cfg: &PackedConfig,
        containers: Vec<Container>,
        textures: &[TextureDesc],
    ) -> Result<PackedContent, ConfigError> {
        PackedContent::from_files(cfg, containers.into_iter().map(PackedFile::Texture).collect(), textures)
    }

    /// Binds the scene's textures to files already open: all single-texture containers
    /// (texture `t` uses `files[t % len]`) or all set containers (set `s` = textures 3s..3s+3
    /// uses the members of `files[s % len]`). `files[i]` stands for `cfg.containers[i]` in
    /// errors.
    pub fn from_files(
        cfg: &PackedConfig,
        files: Vec<PackedFile>,
        textures: &[TextureDesc],
    ) -> Result<PackedContent, ConfigError> {
        let Some(first) = files.first() else {
            return Err(ConfigError::new("content.containers", "is empty; expected at least one container file"));
        };
        let sets = matches!(first, PackedFile::Set(_));
        let kind = |set: bool| if set { "a set container" } else { "a single-texture container" };
        // sources[entry_start[i] + member] is member `member` of files[i] (member 0 for a
        // single container).
        let mut sources = Vec::with_capacity(files.len() * if sets { SET_MEMBERS } else { 1 });
        let len = files.len();
        for (i, file) in files.into_iter().enumerate() {
            let is_set = matches!(file, PackedFile::Set(_));
            if is_set != sets {
                return Err(ConfigError::new(
                    field(i),
                    format!(
                        "{} is {} but containers[0] is {}; expected every entry of one kind (all set containers: \
                         set s uses containers[s % len]; or all single-texture containers: texture t uses \
                         containers[t % len])",
                        file.name(),
                        kind(is_set),
                        kind(sets)
                    ),
                ));
            }
            match file {
                PackedFile::Texture(c) => sources.push(Source::new(c).map_err(|m| ConfigError::new(field(i), m))?),
                PackedFile::Set(set) => {
                    // Each member's `Source::new` checks the set file is under 4 GiB.
                    for member in set.members() {
                        sources.push(Source::new(member.clone()).map_err(|m| ConfigError::new(field(i), m))?);
                    }
                }
            }
        }
        let mut bindings = Vec::with_capacity(textures.len());
        for (t, desc) in textures.iter().enumerate() {
            let (i, source, window, rule) = if sets {
                let (s, member) = (t / SET_MEMBERS, t % SET_MEMBERS);
                let i = s % len;
                (i, i * SET_MEMBERS + member, (s as u64) << 32, format!("set {s} uses containers[{s} % {len}]"))
            } else {
                let i = t % len;
                (i, i, (t as u64) << 32, format!("texture t uses containers[t % {len}]"))
            };
            let container = &sources[source].container;
            let header = container.header();
            if header.desc.format != desc.format {
                return Err(ConfigError::new(
                    field(i),
                    format!(
                        "{} holds {:?} blocks but scene texture {t} ({}) is {:?}; expected a {:?} container ({rule})",
                        container.name(),
                        header.desc.format,
                        MEMBER_KINDS[t % SET_MEMBERS],
                        desc.format,
                        desc.format,
                    ),
                ));
            }
            let shift = i64::from(desc.width.max(1).ilog2()) - i64::from(header.desc.width.max(1).ilog2());
            bindings.push(Binding { source, shift, first_packed_mip: desc.first_packed_mip(), window });
        }
        Ok(PackedContent { cfg: cfg.clone(), sources, textures: bindings })
    }

    /// The container and stream index that virtual `tile` of `texture` reads.
    fn locate(&self, texture: u32, tile: TileCoord) -> (&Source, usize) {
        let (source, index) = self.locate_stream(texture, tile);
        (&self.sources[source], index)
    }

    /// The container (its index in `sources`) and stream index `tile` of `texture` reads.
    fn locate_stream(&self, texture: u32, tile: TileCoord) -> (usize, usize) {
        let b = self.binding(texture);
        let source = &self.sources[b.source];
        if tile.mip >= b.first_packed_mip {
            return (b.source, source.tail);
        }
        let last = source.grid.len() as i64 - 1;
        let mip = (i64::from(tile.mip) - b.shift).clamp(0, last) as u32;
        let (tx, ty) = source.grid[mip as usize];
        let coord = TileCoord { mip, x: tile.x % tx, y: tile.y % ty };
        // `Source::new` indexed every tile of every streamable mip.
        (b.source, source.tiles[&coord])
    }

    fn binding(&self, texture: u32) -> Binding {
        self.textures[texture as usize]
    }

    /// Whether the verify policy checks this tile.
    pub fn should_verify(&self, texture: u32, tile: TileCoord) -> bool {
        match self.cfg.verify {
            Verify::All => true,
            Verify::None => false,
            Verify::Sample => tile_hash(self.cfg.seed, texture, tile).is_multiple_of(u64::from(self.cfg.sample_every)),
        }
    }

    /// The container and the index of the stream `tile` of `texture` reads.
    pub fn stream_of(&self, texture: u32, tile: TileCoord) -> (&Container, usize) {
        let (source, index) = self.locate(texture, tile);
        (&source.container, index)
    }

    /// Decodes the stream the tile loaded through the functional MDU and checks its hash.
    pub fn verify(&self, texture: u32, tile: TileCoord) -> Result<(), ContainerError> {
        let (source, index) = self.locate(texture, tile);
        source.container.decode_stream(index).map(|_| ())
    }

    /// Which container stream (source, index) `tile` of `texture` loads: tiles with the
    /// same stream load the same bytes.
    pub fn stream_key(&self, texture: u32, tile: TileCoord) -> (usize, usize) {
        self.locate_stream(texture, tile)
    }
}

impl Source {
    fn new(container: Container) -> Result<Source, String> {
        let mut tiles = HashMap::new();
        let mut grid: Vec<(u32, u32)> = Vec::new();
        let mut tail = None;
        for (i, e) in container.entries().iter().enumerate() {
            match e.tile {
                Some(c) => {
                    tiles.insert(c, i);
                    let m = c.mip as usize;
                    if grid.len() <= m {
                        grid.resize(m + 1, (0, 0));
                    }
                    grid[m] = (grid[m].0.max(c.x + 1), grid[m].1.max(c.y + 1));
                }
                None if e.resident => tail = Some(i),
                None => {}
            }
        }
        if grid.is_empty() || grid.iter().any(|&(x, y)| x == 0 || y == 0) {
            let h = container.header();
            return Err(format!(
                "{} ({}×{}, {} tile mode) has no streamable 64 KiB tiles; expected one packed with --tilemode sfs \
                 from an image at least one tile in size",
                container.name(),
                h.desc.width,
                h.desc.height,
                h.tile_mode
            ));
        }
        if container.file_bytes() >= 1 << 32 {
            return Err(format!("{} is {} B; expected under 4 GiB", container.name(), container.file_bytes()));
        }
        // Without a packed tail the smallest streamable mip's first tile stands in for it.
        let last = (grid.len() - 1) as u32;
        let tail = tail.unwrap_or(tiles[&TileCoord { mip: last, x: 0, y: 0 }]);
        Ok(Source { container, tiles, grid, tail })
    }
}

impl ContentModel for PackedContent {
    fn stream(&self, texture: u32, _format: BcFormat, tile: TileCoord) -> TileStream {
        let (source, index) = self.locate(texture, tile);
        let e = &source.container.entries()[index];
        let file_offset = source.container.header().data_offset + e.relative_offset;
        let offset = self.binding(texture).window + file_offset;
        let both = e.options.zlib && e.options.bcpack();
        let raw = !e.options.zlib && e.options.bcpack_mode == 0;
        if raw && u64::from(e.compressed_size) != TILE_BYTES {
            // A raw tail smaller than a tile: charged as one raw tile (the engine asks for a
            // whole tile of destination).
            return TileStream {
                compressed: Bytes(TILE_BYTES),
                intermediate: Bytes(0),
                uncompressed: Bytes(TILE_BYTES),
                options: RequestOptions { zlib: false, bcpack_mode: 0, swizzle_mode: 0 },
                offset,
            };
        }
        TileStream {
            compressed: Bytes(u64::from(e.compressed_size)),
            intermediate: Bytes(if both { u64::from(e.inflated_size) } else { 0 }),
            uncompressed: Bytes(TILE_BYTES),
            options: e.options,
            offset,
        }
    }
}

#[cfg(test)]
#[path = "packed_tests.rs"]
pub(super) mod tests;
