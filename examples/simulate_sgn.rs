//! Plays games between two computer players and writes them as SGN on
//! standard output, each naming its rule set and the seed of its throws:
//!
//! ```sh
//! cargo run --example simulate_sgn -- thai 3 > games.sgn
//! ```

use senet::notation::{record, writer};
use senet::simulate::{Player, RNG_NAME, RunConfig, run};

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let spec = args.first().map_or("bga", String::as_str);
    let games = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(2);
    let rules = match senet::rules::load(spec, None, &[]) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return std::process::ExitCode::from(2);
        }
    };
    let config = RunConfig {
        players: [Player::Greedy, Player::Random],
        games,
        seed: 1,
        threads: 1,
        max_units: 2000,
        keep_units: true,
    };
    let mut out = String::new();
    for (index, played) in run(&rules, &config, &|_| {}).into_iter().enumerate() {
        let result = record::result_token(played.finished, played.winner);
        let tags = vec![
            record::tag("Event", format!("simulated {spec} games")),
            record::tag("Site", "?"),
            record::tag("Date", "????.??.??"),
            record::tag("Round", (index + 1).to_string()),
            record::tag("White", Player::Greedy.name()),
            record::tag("Black", Player::Random.name()),
            record::tag("Result", result.to_string()),
            record::tag("Rules", rules.meta().name.clone()),
            record::tag("ThrowSource", format!("rng:{RNG_NAME}:{}", played.seed)),
            record::tag("FirstPlayer", played.first.name()),
        ];
        writer::write_game(&record::game(tags, &played.units, result), &mut out);
        out.push('\n');
    }
    print!("{out}");
    std::process::ExitCode::SUCCESS
}
