fn main() -> std::process::ExitCode {
    senet::cli::main()
}
