//! The checker on arbitrary records: read, check against the built-in rule
//! sets the record names, and render every finding as the command line
//! does. Rule files are only looked up among the built-ins (no folder is
//! given), so the target never reads the disk.
#![no_main]

use libfuzzer_sys::fuzz_target;
use senet::notation::Reader;
use senet::notation::check::{CheckOptions, check_game};
use senet::notation::header::RulesCache;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut cache = RulesCache::default();
    let opts = CheckOptions::default();
    for (index, game) in Reader::new(text).enumerate() {
        let game = match game {
            Ok(game) => game,
            Err(e) => {
                let _ = senet::cli::render_with(&e, false);
                continue;
            }
        };
        let Ok(report) = check_game(&game, None, &opts, &mut cache) else {
            continue;
        };
        for f in &report.findings {
            let shown = senet::cli::FindingReport {
                f,
                src: miette::NamedSource::new("fuzz.sgn", text.to_string()),
                game: index + 1,
                players: String::new(),
            };
            let _ = senet::cli::render_with(&shown, false);
        }
    }
});
