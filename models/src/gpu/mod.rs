//! GPU side: 5.3 LOD values, sampler feedback maps, MinMip maps and filter, the sampler (being written).
