//! `sfsim camera ...` (being written).

#[derive(clap::Subcommand)]
pub enum CameraCommand {}

pub fn execute(command: CameraCommand) -> anyhow::Result<()> {
    match command {}
}
