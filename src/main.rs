fn main() -> std::process::ExitCode {
    // A reader that stops early (`senet rules list | head -1`) closes the
    // pipe: end quietly, as other Unix tools do, instead of panicking in the
    // next `println!`. Rust starts programs with SIGPIPE ignored.
    #[cfg(unix)]
    // SAFETY: sets the default action of one signal, before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    senet::cli::main()
}
