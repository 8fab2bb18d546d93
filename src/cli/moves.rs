//! `senet moves`: the legal units of a position for a throw, or the units
//! due without a throw; `--why` adds, for each refused move, the clause
//! that forbids it.

use crate::engine::Unit;
use serde::Serialize;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct MovesArgs {
    /// A built-in rule set (`senet rules list`), the path of a .senet
    /// file, or `-` for a rule file on standard input.
    #[arg(long, value_name = "NAME|FILE|-", value_parser = super::complete::RuleSpec, hide_possible_values = true)]
    pub rules: String,
    /// Select an option of the rule file (repeatable).
    #[arg(long = "option", value_name = "NAME", value_parser = super::complete::OptionName, hide_possible_values = true)]
    pub options: Vec<String>,
    /// The position string, e.g. `WBWBWBWBWB/10/10 w 0-0 - 1`.
    #[arg(long, value_name = "POS", allow_hyphen_values = true)]
    pub position: String,
    /// The throw value; without it, the units due without a throw.
    #[arg(long)]
    pub throw: Option<u8>,
    /// Also list each refused move with the clause that forbids it.
    #[arg(long)]
    pub why: bool,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    #[value(alias = "human")]
    Text,
    Json,
}

/// A position string whose piece count the rules cannot reach.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{message}")]
#[diagnostic(
    code(senet::position::piece_count),
    help("{}", crate::notation::header::PIECE_COUNT_HELP)
)]
struct WrongPieces {
    message: String,
    #[source_code]
    src: String,
    #[label("this position")]
    span: miette::SourceSpan,
}

#[derive(Serialize)]
struct Answer {
    position: String,
    throw: Option<u8>,
    units: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    refused: Option<Vec<RefusedMove>>,
}

#[derive(Serialize)]
struct RefusedMove {
    from: u8,
    to: Option<String>,
    clause: String,
    reason: String,
}

pub fn run(args: MovesArgs) -> ExitCode {
    let rules = match super::load_rules(&args.rules, &args.options) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let board = rules.board;
    let pos = match super::position_arg(&rules, &args.position) {
        Ok(p) => p,
        Err(code) => return code,
    };
    // The check a `Position` tag gets: a position the rules cannot reach
    // would give units that mean nothing.
    if let Some(wrong) = crate::notation::header::wrong_piece_count(&rules, &pos) {
        let diag = WrongPieces {
            message: format!("the position has {wrong}"),
            src: args.position.clone(),
            span: (0, args.position.len()).into(),
        };
        err!("{}", super::render(&diag));
        return ExitCode::from(super::EXIT_USAGE);
    }
    if let Some(t) = args.throw
        && !rules.throws.values.contains(&t)
    {
        let values: Vec<String> = rules
            .throws
            .distinct_values()
            .iter()
            .map(|v| v.to_string())
            .collect();
        errln!(
            "error: a throw of {t} is impossible under `{}` [{}]; the throws are {}",
            rules.meta.name,
            rules.throws.clause,
            values.join(", ")
        );
        return ExitCode::from(super::EXIT_USAGE);
    }
    let mut units: Vec<Unit> = Vec::new();
    match args.throw {
        Some(t) => rules.legal_units(&pos, t, &mut units),
        None => rules.free_units(&pos, &mut units),
    }
    let refused = match (args.why, args.throw) {
        (true, Some(t)) => Some(
            rules
                .refusals(&pos, t)
                .iter()
                .map(|r| RefusedMove {
                    from: r.from,
                    // A piece that may not move at all has no destination.
                    to: if r.to == r.from {
                        None
                    } else if r.to > board.len {
                        Some("off".into())
                    } else {
                        Some(r.to.to_string())
                    },
                    clause: rules.clause_of(r, &pos),
                    reason: crate::notation::replay::refusal_reason(&rules, &pos, r, t),
                })
                .collect(),
        ),
        (true, None) => Some(Vec::new()),
        _ => None,
    };
    let answer = Answer {
        position: pos.write(board.len, board.row_len),
        throw: args.throw,
        units: units.iter().map(|u| u.to_string()).collect(),
        refused,
    };
    match args.format {
        Format::Json => outln!(
            "{}",
            serde_json::to_string(&answer).expect("plain data serialises")
        ),
        Format::Text => {
            if answer.units.is_empty() {
                match args.throw {
                    Some(t) => outln!("no legal unit with a throw of {t}"),
                    None => outln!("no unit is due without a throw: throw the sticks"),
                }
            }
            for u in &answer.units {
                outln!("{u}");
            }
            if let Some(refused) = &answer.refused {
                if !refused.is_empty() {
                    outln!("\nrefused:");
                }
                for r in refused {
                    let clause = if r.clause.is_empty() {
                        String::new()
                    } else {
                        format!(" [{}]", r.clause)
                    };
                    // Square 0 is the hand (PC-2).
                    let from = if r.from == 0 {
                        "hand".to_string()
                    } else {
                        r.from.to_string()
                    };
                    match &r.to {
                        Some(to) => outln!("  {from}-{to}{clause}: {}", r.reason),
                        None => outln!("  {from}{clause}: {}", r.reason),
                    }
                }
            }
        }
    }
    ExitCode::SUCCESS
}
