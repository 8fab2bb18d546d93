//! `senet board`: one position as a picture (SVG, PNG or the text board),
//! given as a position string or as the position after a unit of a record;
//! and the picture formats of `senet replay` (`--format html|svg`).
//!
//! Stage: arguments → a rule set and a position (or the replay walk of
//! [`super::replay::replay_game`]) → [`crate::picture`] → standard output
//! or a file. SVG and text go to standard output unless `--out` is given;
//! PNG is binary and needs `--out`.
//!
//! Exit codes: 0 the picture was written; 1 the record has problems (the
//! picture shows the game up to the first illegal unit); 2 usage, I/O, a
//! rule set that does not load, a position string that does not read, or
//! no unit at `--at`.

use super::replay::{Format, ReplayArgs, ReplayOptions, StopAt, replay_game};
use crate::engine::{Position, Ruleset, Side, Unit};
use crate::notation::board::{self as text_board, Highlight};
use crate::picture::html::{self, GameView, StepView};
use crate::picture::{png, svg};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct BoardArgs {
    /// A record: draw the position after the unit `--at` of one of its
    /// games (the final position without `--at`).
    #[arg(
        value_name = "GAME.sgn|-",
        conflicts_with = "position",
        required_unless_present = "position"
    )]
    pub file: Option<PathBuf>,
    /// Which game of the record (1 = the first). A game the file does not
    /// have is a problem of the record (exit 1, as `--at` past the end is).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), requires = "file")]
    pub game: u32,
    /// The unit to stop after, as for `senet replay --to`: `12` (round 12),
    /// `12.` / `12...` (White's or Black's turn 12), `12.2` / `12...3`.
    #[arg(long, value_name = "TURN[.UNIT]", value_parser = StopAt::parse, requires = "file")]
    pub at: Option<StopAt>,
    /// A built-in rule set (`senet rules list`), the path of a .senet
    /// file, or `-` for standard input: the rules of `--position`, or of
    /// the record whatever its `Rules` tag says.
    #[arg(long, value_name = "NAME|FILE|-", value_parser = super::complete::RuleSpec, hide_possible_values = true)]
    pub rules: Option<String>,
    /// Select an option of the rule file (repeatable).
    #[arg(long = "option", value_name = "NAME", value_parser = super::complete::OptionName, hide_possible_values = true, requires = "rules")]
    pub options: Vec<String>,
    /// The position string, e.g. `WBWBWBWBWB/10/10 w 0-0 - 1`.
    #[arg(
        long,
        value_name = "POS",
        allow_hyphen_values = true,
        requires = "rules"
    )]
    pub position: Option<String>,
    #[arg(long, value_enum, default_value_t = PictureFormat::Svg)]
    pub format: PictureFormat,
    /// Write to FILE instead of standard output (required for PNG).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// A line of text under the picture (SVG and PNG). A position of a
    /// record is captioned with the unit that led to it unless this is given.
    #[arg(long, value_name = "TEXT")]
    pub caption: Option<String>,
    /// PNG only: pixels per SVG unit (2 suits print and dense screens).
    #[arg(long, default_value_t = 2.0, value_parser = scale)]
    pub scale: f32,
    #[command(flatten)]
    pub record_rules: super::RecordRulesArgs,
}

fn scale(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(s) if (0.25..=8.0).contains(&s) => Ok(s),
        _ => Err(format!("`{text}` is not a scale from 0.25 to 8")),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PictureFormat {
    /// SVG text, to standard output unless `--out` is given.
    Svg,
    /// A PNG image (needs `--out`).
    Png,
    /// The Unicode text board of `senet replay`.
    #[value(alias = "human")]
    Text,
    /// One JSON object: the rule set, the position string and the last unit.
    Json,
}

/// How often `replay --format svg --every` draws the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Every {
    /// After the last unit of every turn.
    Turn,
    /// After every unit.
    Unit,
}

/// Writes `bytes` to `out`, or to standard output.
fn emit(out: Option<&Path>, bytes: &[u8]) -> Result<(), ExitCode> {
    match out {
        // Safe write (docs/security.md): a new file renamed over the old
        // one once complete; a symbolic link is refused.
        Some(path) => {
            super::replace::replace_with(path, false, |w| w.write_all(bytes)).map_err(|e| {
                errln!("error: cannot write {}: {e}", path.display());
                ExitCode::from(super::EXIT_USAGE)
            })
        }
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(bytes)
                .and_then(|_| stdout.flush())
                .map_err(|e| {
                    errln!("error: cannot write to standard output: {e}");
                    ExitCode::from(super::EXIT_USAGE)
                })
        }
    }
}

/// What `senet board` draws.
struct Shown<'a> {
    rules: &'a Ruleset,
    position: Position,
    last: Option<(Side, Unit)>,
}

/// Draws one position in the chosen format.
fn draw(args: &BoardArgs, shown: &Shown<'_>) -> Result<Vec<u8>, ExitCode> {
    let picture = svg::Picture {
        rules: shown.rules,
        position: &shown.position,
        last: shown.last,
        caption: args.caption.as_deref(),
    };
    match args.format {
        PictureFormat::Svg => Ok(svg::board(&picture).into_bytes()),
        PictureFormat::Png => png::render(&picture, args.scale).map_err(|e| {
            errln!("error: {e}");
            ExitCode::from(super::EXIT_USAGE)
        }),
        PictureFormat::Text => {
            let mut t =
                text_board::draw(shown.rules, &shown.position, &Highlight::default(), false);
            t.push_str(&format!(
                "   {}\n",
                text_board::status(shown.rules, &shown.position)
            ));
            if let Some(c) = &args.caption {
                t.push_str(&format!("   {c}\n"));
            }
            Ok(t.into_bytes())
        }
        PictureFormat::Json => {
            let json = serde_json::json!({
                "rules": shown.rules.meta().name,
                "position": shown.position.to_string(),
                "last": shown.last.map(|(side, unit)| serde_json::json!({
                    "side": side.name(),
                    "unit": unit.to_string(),
                })),
                "caption": args.caption,
            });
            Ok(format!("{json}\n").into_bytes())
        }
    }
}

/// Walks one game of a record for pictures; prints its problems. `None`
/// when there is nothing to draw (the exit code says why).
fn walk(
    text: &str,
    name: &str,
    dir: Option<&Path>,
    opts: &ReplayOptions,
) -> (Option<GameView>, Option<ExitCode>) {
    match replay_game(text, name, dir, opts) {
        Ok((out, view)) => {
            for p in out.warnings.iter().chain(&out.problems) {
                err!("{p}");
            }
            let code = (!out.problems.is_empty()).then(|| ExitCode::from(super::EXIT_INPUT));
            (view, code)
        }
        Err(e) => {
            match &e {
                super::replay::ReplayError::Syntax(rendered) => err!("{rendered}"),
                super::replay::ReplayError::NoSuchGame { .. } => {
                    errln!("{}", e.no_such_game(name))
                }
                super::replay::ReplayError::Rules(r) => {
                    use std::io::IsTerminal;
                    let colour = super::color_choice().on(std::io::stderr().is_terminal());
                    let options = opts.rules.as_ref().map_or(&[][..], |(_, o)| o.as_slice());
                    err!(
                        "{}",
                        super::options::GivenOptions::flags(options).render(r, colour)
                    )
                }
            }
            (None, Some(ExitCode::from(e.exit_code())))
        }
    }
}

/// The last unit of the main line shown, or the start.
fn final_of(view: &GameView) -> (Position, Option<(Side, Unit)>, Option<&StepView>) {
    match view.steps.last() {
        Some(s) => (s.after, Some(s.played), Some(s)),
        None => (view.start, None, None),
    }
}

pub fn run(args: BoardArgs) -> ExitCode {
    if args.format == PictureFormat::Png && args.out.is_none() {
        errln!("error: a PNG picture is binary: give a file with --out FILE.png");
        return ExitCode::from(super::EXIT_USAGE);
    }
    let bytes = if let Some(file) = &args.file {
        if let Err(code) = super::stdin_once(file, args.rules.as_deref()) {
            return code;
        }
        let (name, text, dir) = match super::read_record(file) {
            Ok(r) => r,
            Err(code) => return code,
        };
        let opts = ReplayOptions {
            game: args.game as usize,
            to: args.at,
            format: Format::Svg,
            color: false,
            confinement: args.record_rules.confinement(),
            rules: args.rules.clone().map(|r| (r, args.options.clone())),
            to_flag: "--at",
            command: "board",
        };
        let (view, code) = walk(&text, &name, dir.as_deref(), &opts);
        let Some(view) = view else {
            return code.unwrap_or(ExitCode::from(super::EXIT_INPUT));
        };
        // An `--at` the game never reaches is `senet::replay::past_end`,
        // already shown, exit 1 as in `replay`; one the replay could not
        // place (units after a gap) is refused here.
        if let Some(at) = args.at
            && view.ending.starts_with("The game ends before")
        {
            if let Some(code) = code {
                return code;
            }
            errln!("error: game {} of {name} ends before {at}", args.game);
            return ExitCode::from(super::EXIT_USAGE);
        }
        let (position, last, step) = final_of(&view);
        let shown = Shown {
            rules: &view.rules,
            position,
            last,
        };
        // A position of a record is captioned with its unit unless the
        // caller gives a caption.
        let mut args = args;
        if args.caption.is_none() {
            args.caption = step.map(caption);
        }
        match draw(&args, &shown) {
            Ok(b) => {
                if let Err(c) = emit(args.out.as_deref(), &b) {
                    return c;
                }
                return code.unwrap_or(ExitCode::SUCCESS);
            }
            Err(c) => return c,
        }
    } else {
        // clap requires both with `--position`.
        let (Some(spec), Some(text)) = (&args.rules, &args.position) else {
            errln!("error: give a record, or --rules and --position");
            return ExitCode::from(super::EXIT_USAGE);
        };
        let rules = match super::load_rules(spec, &args.options) {
            Ok(r) => r,
            Err(code) => return code,
        };
        let position = match super::position_arg(&rules, text) {
            Ok(p) => p,
            Err(code) => return code,
        };
        let shown = Shown {
            rules: &rules,
            position,
            last: None,
        };
        match draw(&args, &shown) {
            Ok(b) => b,
            Err(c) => return c,
        }
    };
    match emit(args.out.as_deref(), &bytes) {
        Ok(()) => ExitCode::SUCCESS,
        Err(c) => c,
    }
}

/// The caption of a picture after a unit: `12... Black 3:5-8`.
fn caption(s: &StepView) -> String {
    format!("after {} {} {}", s.label, s.played.0, s.text)
}

/// `senet replay --format html|svg`: the page of every game (or the one
/// asked for), one picture, or a strip of numbered pictures.
pub fn replay_pictures(args: &ReplayArgs, text: &str, name: &str, dir: Option<&Path>) -> ExitCode {
    let mut worst: Option<ExitCode> = None;
    let games: Vec<usize> = match (args.format, args.game) {
        (Format::Html, None) => {
            let n = crate::notation::reader::Reader::new(text).count().max(1);
            (1..=n).collect()
        }
        (_, g) => vec![g.unwrap_or(1) as usize],
    };
    let mut views = Vec::new();
    for g in games {
        let opts = ReplayOptions {
            game: g,
            to: args.to,
            format: args.format,
            color: false,
            confinement: args.record_rules.confinement(),
            rules: args.rules.clone().map(|r| (r, args.options.clone())),
            to_flag: "--to",
            command: "replay",
        };
        let (view, code) = walk(text, name, dir, &opts);
        if code.is_some() {
            worst = worst.or(code);
        }
        views.extend(view);
    }
    let done = worst.unwrap_or(ExitCode::SUCCESS);
    if views.is_empty() {
        return worst.unwrap_or(ExitCode::from(super::EXIT_INPUT));
    }
    let result = match (args.format, args.every) {
        (Format::Html, _) => emit(args.out.as_deref(), html::page(&views).as_bytes()),
        (_, None) => {
            let view = &views[0];
            let (position, last, step) = final_of(view);
            let label = step.map(caption);
            let picture = svg::Picture {
                rules: &view.rules,
                position: &position,
                last,
                caption: label.as_deref(),
            };
            emit(args.out.as_deref(), svg::board(&picture).as_bytes())
        }
        (_, Some(every)) => strip(&views[0], every, args.out.as_deref()),
    };
    match result {
        Ok(()) => done,
        Err(c) => c,
    }
}

/// The start and the position after every turn (or unit), one numbered SVG
/// file each in `dir`: `000.svg` the start, then `001.svg`, … in order.
fn strip(view: &GameView, every: Every, dir: Option<&Path>) -> Result<(), ExitCode> {
    let Some(dir) = dir else {
        errln!("error: --every writes one file per picture: give a directory with --out");
        return Err(ExitCode::from(super::EXIT_USAGE));
    };
    std::fs::create_dir_all(dir).map_err(|e| {
        errln!("error: cannot create {}: {e}", dir.display());
        ExitCode::from(super::EXIT_USAGE)
    })?;
    /// A picture of the strip: the position, the unit that led to it, and
    /// the caption.
    type Shot = (Position, Option<(Side, Unit)>, String);
    let mut shots: Vec<Shot> = vec![(view.start, None, "start".to_string())];
    for (i, s) in view.steps.iter().enumerate() {
        // The last unit of a turn: the next unit is played by the other
        // side, or this is the last unit.
        let turn_ends = view.steps.get(i + 1).is_none_or(|n| {
            n.played.0 != s.played.0 || n.label.split('.').next() != s.label.split('.').next()
        });
        if every == Every::Unit || turn_ends {
            shots.push((s.after, Some(s.played), caption(s)));
        }
    }
    let width = shots.len().to_string().len().max(3);
    for (n, (position, last, label)) in shots.iter().enumerate() {
        let picture = svg::Picture {
            rules: &view.rules,
            position,
            last: *last,
            caption: Some(label),
        };
        let path = dir.join(format!("{n:0width$}.svg"));
        emit(Some(&path), svg::board(&picture).as_bytes())?;
    }
    Ok(())
}
