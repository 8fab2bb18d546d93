//! The legal units of a position for each throw, under a built-in rule set
//! or a rule file:
//!
//! ```sh
//! cargo run --example legal_units -- kendall "WBWBWBWBWB/10/10 w 0-0 - 2"
//! ```

use senet::engine::Position;

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [spec, position] = args.as_slice() else {
        eprintln!("usage: legal_units RULES POSITION");
        return std::process::ExitCode::from(2);
    };
    let rules = match senet::rules::load(spec, None, &[]) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return std::process::ExitCode::from(2);
        }
    };
    let board = rules.board();
    let position = match Position::parse(position, board.len, board.row_len) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return std::process::ExitCode::from(2);
        }
    };
    let mut units = Vec::new();
    for &throw in &rules.throws().values {
        rules.legal_units(&position, throw, &mut units);
        let texts: Vec<String> = units.iter().map(|u| u.to_string()).collect();
        println!("throw {throw}: {}", texts.join(" "));
        // Play the first one to show the position it leads to.
        if let Some(first) = units.first()
            && let Ok((next, _effects)) = rules.play(&position, first)
        {
            println!("  after {first}: {next}");
        }
    }
    std::process::ExitCode::SUCCESS
}
