//! Standard output for a command's results.
//!
//! `print!` panics when standard output cannot be written (a full disk,
//! `> /dev/full`) and `let _ = write!(…)` forgets the failure, so a run
//! would crash or end with exit 0 and half its output missing. Results go
//! through here instead: the first failure is kept, later output is
//! dropped, and [`finish`] turns it into an I/O error (exit 2) when the
//! command returns. A closed pipe never reaches here: the binary restores
//! the default action of SIGPIPE, which ends the process quietly.

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::OnceLock;

/// The first failure to write standard output, as it will be reported.
static FAILED: OnceLock<String> = OnceLock::new();

/// Keeps `e` as the failure of standard output (the first one wins).
pub fn failed(e: &io::Error) {
    let _ = FAILED.set(e.to_string());
}

/// Whether standard output has failed: the rest of the output is dropped.
pub fn has_failed() -> bool {
    FAILED.get().is_some()
}

/// `print!` without the panic: see the module docs.
pub fn print(args: std::fmt::Arguments) {
    if has_failed() {
        return;
    }
    if let Err(e) = io::stdout().lock().write_fmt(args) {
        failed(&e);
    }
}

/// `eprint!` without the panic: when standard error cannot be written
/// there is nowhere left to say so, and the exit code still tells.
pub fn eprint(args: std::fmt::Arguments) {
    let _ = io::stderr().lock().write_fmt(args);
}

/// Raw bytes to standard output, flushed.
pub fn bytes(b: &[u8]) {
    if has_failed() {
        return;
    }
    let mut so = io::stdout().lock();
    if let Err(e) = so.write_all(b).and_then(|()| so.flush()) {
        failed(&e);
    }
}

/// Flushes standard output; with a failure on the way, the command's exit
/// code becomes 2 and standard error says why.
pub fn finish(code: ExitCode) -> ExitCode {
    if let Err(e) = io::stdout().flush() {
        failed(&e);
    }
    match FAILED.get() {
        Some(e) => {
            errln!("error: cannot write to standard output: {e}");
            ExitCode::from(super::EXIT_USAGE)
        }
        None => code,
    }
}

/// A buffered standard output for many small writes (`check`'s findings):
/// a failed write is kept for [`finish`] as well as returned.
pub struct Buffered(io::BufWriter<io::Stdout>);

impl Buffered {
    pub fn new() -> Buffered {
        Buffered(io::BufWriter::new(io::stdout()))
    }
}

impl Default for Buffered {
    fn default() -> Self {
        Buffered::new()
    }
}

impl Write for Buffered {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if has_failed() {
            // Dropped, as everything after the first failure.
            return Ok(buf.len());
        }
        self.0.write(buf).inspect_err(failed)
    }
    fn flush(&mut self) -> io::Result<()> {
        if has_failed() {
            return Ok(());
        }
        self.0.flush().inspect_err(failed)
    }
}
