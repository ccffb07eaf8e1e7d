//! Texture formats, 64 KiB tile shapes, mip chains, packed tail, feedback/MinMip map sizes (being written).
