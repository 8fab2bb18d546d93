//! `senet best`: every legal unit of a position with its value, best
//! first; without `--throw`, the value before the throw and per throw.

use super::analyze::EvalArgs;
use crate::analysis::{Evaluator, PositionAnalysis, Value, ValuedUnit};
use serde::Serialize;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct BestArgs {
    /// A built-in rule set, the path of a .senet file, or `-` for a rule
    /// file on standard input.
    #[arg(long, value_name = "NAME|FILE|-", value_parser = super::complete::RuleSpec, hide_possible_values = true)]
    pub rules: String,
    /// Select an option of the rule file (repeatable).
    #[arg(long = "option", value_name = "NAME", value_parser = super::complete::OptionName, hide_possible_values = true)]
    pub options: Vec<String>,
    /// The position string, e.g. `WBWBWBWBWB/10/10 w 0-0 - 1`.
    #[arg(long, value_name = "POS", allow_hyphen_values = true)]
    pub position: String,
    /// The throw; without it, every throw with its probability.
    #[arg(long)]
    pub throw: Option<u8>,
    #[command(flatten)]
    pub eval: EvalArgs,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    #[value(alias = "human")]
    Text,
    Json,
}

#[derive(Serialize)]
struct JsonUnit {
    unit: String,
    value: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<f64>,
}

#[derive(Serialize)]
struct JsonThrow {
    throw: u8,
    probability: f64,
    units: Vec<JsonUnit>,
}

#[derive(Serialize)]
struct JsonPosition {
    position: String,
    value: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<f64>,
    /// Units due or allowed without a throw (a missed turn, a release).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    free: Vec<JsonUnit>,
    throws: Vec<JsonThrow>,
}

#[derive(Serialize)]
struct JsonOneThrow {
    position: String,
    throw: u8,
    units: Vec<JsonUnit>,
}

fn json_units(units: &[ValuedUnit]) -> Vec<JsonUnit> {
    units
        .iter()
        .map(|u| JsonUnit {
            unit: u.unit.to_string(),
            value: round(u.value.win),
            score: u.value.score.map(round),
        })
        .collect()
}

/// Six decimals: well below the rollouts' noise, and the same text on
/// every machine.
pub fn round(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// `0.5123`, with the expected score where the rule set scores.
pub fn value_text(v: &Value) -> String {
    match v.score {
        Some(s) => format!("{:.4}  (score {s:+.2})", v.win),
        None => format!("{:.4}", v.win),
    }
}

fn units_text(out: &mut String, units: &[ValuedUnit]) {
    let width = units
        .iter()
        .map(|u| u.unit.to_string().len())
        .max()
        .unwrap_or(0);
    for u in units {
        out.push_str(&format!(
            "   {:width$}  {}\n",
            u.unit.to_string(),
            value_text(&u.value)
        ));
    }
}

/// The units of one throw, as text or JSON.
fn one_throw(position: String, throw: u8, units: &[ValuedUnit], format: Format) -> String {
    match format {
        Format::Json => {
            let j = JsonOneThrow {
                position,
                throw,
                units: json_units(units),
            };
            serde_json::to_string(&j).expect("plain data serialises") + "\n"
        }
        Format::Text => {
            let mut out = format!("position  {position}\nthrow     {throw}\n");
            if units.is_empty() {
                out.push_str("   no unit: the throw is not allowed now\n");
            }
            units_text(&mut out, units);
            out
        }
    }
}

/// The value before the throw and the units of every throw.
fn every_throw(position: String, a: &PositionAnalysis, format: Format) -> String {
    match format {
        Format::Json => {
            let j = JsonPosition {
                position,
                value: round(a.value.win),
                score: a.value.score.map(round),
                free: json_units(&a.free),
                throws: a
                    .throws
                    .iter()
                    .map(|t| JsonThrow {
                        throw: t.throw,
                        probability: t.probability,
                        units: json_units(&t.units),
                    })
                    .collect(),
            };
            serde_json::to_string(&j).expect("plain data serialises") + "\n"
        }
        Format::Text => {
            let mut out = format!(
                "position  {position}\nvalue     {}  (White's probability of winning)\n",
                value_text(&a.value)
            );
            if !a.free.is_empty() {
                out.push_str("without a throw\n");
                units_text(&mut out, &a.free);
            }
            for t in &a.throws {
                out.push_str(&format!(
                    "throw {} (probability {:.4})\n",
                    t.throw, t.probability
                ));
                units_text(&mut out, &t.units);
            }
            out
        }
    }
}

pub fn run(args: BestArgs) -> ExitCode {
    let rules = match super::load_rules(&args.rules, &args.options) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let settings = match args.eval.settings() {
        Ok(s) => s,
        Err(code) => return code,
    };
    let board = rules.board;
    let pos = match super::position_arg(&rules, &args.position) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let position = pos.write(board.len, board.row_len);
    let mut ev = Evaluator::new(&rules, settings);
    match args.throw {
        Some(t) if !rules.throws.values.contains(&t) => {
            let values: Vec<String> = rules
                .throws
                .distinct_values()
                .iter()
                .map(u8::to_string)
                .collect();
            errln!(
                "error: {t} is not a throw of {} (throws: {})",
                rules.meta.name,
                values.join(", ")
            );
            return ExitCode::from(super::EXIT_USAGE);
        }
        Some(t) => out!(
            "{}",
            one_throw(position, t, &ev.throw(&pos, t), args.format)
        ),
        None => out!("{}", every_throw(position, &ev.analyse(&pos), args.format)),
    }
    ExitCode::SUCCESS
}
