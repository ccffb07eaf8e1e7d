fn main() -> std::process::ExitCode {
    sfsim::cli::main()
}
