//! The `sfsim` binary: the command line (`sim/cli/`) is private to the binary; it
//! uses the library only through its public API.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
