//! The rule compiler on arbitrary text: the grammar, the checks and the
//! lowering must turn every input into a rule set or diagnostics, and every
//! diagnostic must render. The text is compiled on its own (an `extends`
//! reaches only the built-in rule sets).
#![no_main]

use libfuzzer_sys::fuzz_target;
use senet::diag::SourceFile;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let file = SourceFile::new("fuzz.senet", text);
    if let Err(e) = senet::rules::load_source(file, &[]) {
        let _ = senet::cli::render_with(&e, false);
    }
});
