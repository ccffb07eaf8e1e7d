//! zlib stage tests: hand-built streams, streams from other encoders, the MDU's rules, and
//! property tests (round trip; random and damaged input never panics).

mod data;
mod differential;
mod handbuilt;
mod props;
mod rules;
mod writer;
