//! CLI flags out of range, unknown or contradictory.

use super::Case;

pub fn cases() -> Vec<Case> {
    vec![
        Case::new("unknown subcommand", &["rnu"], &["unrecognized subcommand"]),
        Case::new("run without a file", &["run"], &["required"]),
        Case::new("run a missing file", &["run", "nope.ron"], &["nope.ron", "cannot read"]),
    ]
}
