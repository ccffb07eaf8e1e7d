//! The packed-file reader: `PackedFile::parse` (a texture container or a set container),
//! then every stream of every member decoded and hash-checked, and every mip's blocks.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sfsim::content::pack::{Container, PackedFile};

fn exercise(c: &Container) {
    for i in 0..c.stream_count() + 1 {
        let _ = c.stream(i);
        let _ = c.decode_stream(i);
    }
    for level in 0..c.regions().mips.len() as u32 + 1 {
        let _ = c.mip_blocks(level);
    }
}

fuzz_target!(|data: &[u8]| {
    match PackedFile::parse("fuzz", data.to_vec()) {
        Ok(PackedFile::Texture(c)) => exercise(&c),
        Ok(PackedFile::Set(s)) => {
            let _ = s.file_bytes();
            s.members().iter().for_each(exercise);
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
