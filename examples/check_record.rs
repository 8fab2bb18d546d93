//! Checks every game of an SGN file and prints each problem with its line,
//! code and the rule clause that forbids the move:
//!
//! ```sh
//! cargo run --example check_record -- tests/fixtures/sgn/err/illegal_move-K-9a.sgn
//! ```

use senet::notation::Reader;
use senet::notation::check::{CheckOptions, RulesCache, check_game};

fn main() -> std::process::ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: check_record FILE.sgn");
        return std::process::ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    // A `Rules` tag naming a file is looked up next to the record.
    let dir = std::path::Path::new(&path).parent();
    let options = CheckOptions::default();
    let mut cache = RulesCache::default();
    let mut problems = 0;
    for (index, game) in Reader::new(&text).enumerate() {
        let game = match game {
            Ok(g) => g,
            Err(e) => {
                let (line, _) = senet::diag::line_col(&text, e.span.start);
                println!("{path}:{line}: game {}: {e}", index + 1);
                problems += 1;
                continue;
            }
        };
        match check_game(&game, dir, &options, &mut cache) {
            Ok(report) => {
                for f in &report.findings {
                    let (line, col) = senet::diag::line_col(&text, f.span.start);
                    let clause = f.clause.as_deref().unwrap_or("-");
                    println!("{path}:{line}:{col}: {} [{clause}] {}", f.code, f.message);
                    problems += 1;
                }
            }
            Err(e) => {
                println!(
                    "{path}: game {}: the rule file does not load: {}",
                    index + 1,
                    e.0
                );
                problems += 1;
            }
        }
    }
    println!("{problems} problem(s)");
    std::process::ExitCode::from(u8::from(problems > 0))
}
