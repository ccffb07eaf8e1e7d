//! Camera paths (being written).
