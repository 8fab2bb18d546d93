//! `senet compare`: several rule sets, or one rule set under several
//! option sets, simulated side by side: how long games last, how balanced
//! they are, how often they end in a draw or not at all, what happens in
//! them, and how much skill matters.

use crate::engine::{Ruleset, Side};
use crate::simulate::{self, EventsMean, GameFigures, Played, Player, RunConfig, Stats};
use serde::Serialize;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct CompareArgs {
    /// The rule sets: a built-in name or a .senet path, with options joined
    /// by `+` (`thai`, `thai+T-9b`, `rules/mine.senet+A-1+A-8`).
    #[arg(required = true, value_name = "RULES[+OPTION...]", value_parser = super::complete::RuleSpec, hide_possible_values = true)]
    pub sets: Vec<String>,
    /// Games per rule set between two random players (1 to 10,000,000).
    #[arg(long, default_value_t = 1000, value_parser = super::game_count)]
    pub games: u64,
    /// Games per rule set for each skill figure (expectimax and greedy
    /// against random), half with each colour; 0 leaves the skill out.
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u64).range(0..=super::MAX_GAMES))]
    pub skill_games: u64,
    /// The seed: the same seed gives the same figures on any thread count.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads (default: every core; at most 256).
    #[arg(long, value_parser = super::thread_count)]
    pub threads: Option<usize>,
    /// Stop a game after this many units (it counts as unfinished; 1 to
    /// 1,000,000; default 2,000, or 1,000,000 for rule sets whose games end
    /// by a turn limit).
    #[arg(long, value_parser = super::unit_cap)]
    pub max_units: Option<usize>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Draw a histogram of game lengths (units per game) per rule set:
    /// SVG, to standard output instead of the table, or to --out.
    #[arg(long, value_enum)]
    pub plot: Option<Plot>,
    /// Where --plot writes.
    #[arg(long, value_name = "FILE", requires = "plot")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    #[value(alias = "human")]
    Text,
    Json,
    Csv,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Plot {
    Svg,
}

/// Mean, median and 90th percentile.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Spread {
    pub mean: f64,
    pub median: f64,
    pub p90: f64,
}

impl Spread {
    fn of(mut v: Vec<u32>) -> Spread {
        if v.is_empty() {
            return Spread {
                mean: 0.0,
                median: 0.0,
                p90: 0.0,
            };
        }
        v.sort_unstable();
        let n = v.len();
        let mean = v.iter().map(|&x| x as f64).sum::<f64>() / n as f64;
        let median = if n % 2 == 1 {
            v[n / 2] as f64
        } else {
            (v[n / 2 - 1] as f64 + v[n / 2] as f64) / 2.0
        };
        // Nearest rank.
        let p90 = v[((0.9 * n as f64).ceil() as usize).clamp(1, n) - 1] as f64;
        Spread { mean, median, p90 }
    }
}

/// A share of decided games with its 95% Wilson interval.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Rate {
    pub rate: f64,
    pub low: f64,
    pub high: f64,
    pub games: u64,
}

impl Rate {
    fn of(wins: u64, decided: u64) -> Rate {
        let [low, high] = simulate::wilson(wins as f64, decided as f64);
        Rate {
            rate: if decided > 0 {
                wins as f64 / decided as f64
            } else {
                0.0
            },
            low,
            high,
            games: decided,
        }
    }
}

/// One rule set's figures.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub rules: String,
    pub games: u64,
    pub units: Spread,
    pub turns: Spread,
    /// The side that moved first, over decided games.
    pub first_player_win_rate: Rate,
    pub draws: u64,
    pub unfinished: u64,
    pub events_per_game: EventsMean,
    /// Expectimax (depth 1) against random, over decided games.
    pub skill_expectimax: Option<Rate>,
    /// Greedy against random, over decided games.
    pub skill_greedy: Option<Rate>,
    #[serde(skip)]
    lengths: Vec<u32>,
}

fn load(spec: &str) -> Result<Ruleset, ExitCode> {
    let mut parts = spec.split('+');
    let name = parts.next().unwrap_or_default();
    let options: Vec<String> = parts.map(String::from).collect();
    super::load_rules_given(name, &options, &super::options::GivenOptions::spec(spec))
}

/// The win rate of `player` against random, half the games with each colour.
fn skill(rules: &Ruleset, player: Player, args: &CompareArgs, threads: usize) -> Rate {
    let mut wins = 0;
    let mut decided = 0;
    for (colour, players) in [
        (Side::White, [player, Player::Random]),
        (Side::Black, [Player::Random, player]),
    ] {
        let config = RunConfig {
            players,
            games: args.skill_games.div_ceil(2),
            seed: args.seed
                ^ if colour == Side::White {
                    0x5111
                } else {
                    0x5112
                },
            threads,
            max_units: super::unit_cap_for(rules, args.max_units),
            keep_units: false,
        };
        for g in simulate::run(rules, &config, &|_| {}) {
            decided += g.winner.is_some() as u64;
            wins += (g.winner == Some(colour)) as u64;
        }
    }
    Rate::of(wins, decided)
}

/// The figures of one rule set; `label` names it as the command line did.
fn row(rules: &Ruleset, label: &str, args: &CompareArgs, threads: usize) -> Row {
    let config = RunConfig {
        players: [Player::Random; 2],
        games: args.games,
        seed: args.seed,
        threads,
        max_units: super::unit_cap_for(rules, args.max_units),
        keep_units: false,
    };
    let games = simulate::run(rules, &config, &|_| {});
    let figures: Vec<GameFigures> = games.iter().map(Played::figures).collect();
    let stats = Stats::from_games(&figures);
    let decided = games.iter().filter(|g| g.winner.is_some()).count() as u64;
    let first = games.iter().filter(|g| g.winner == Some(g.first)).count() as u64;
    let skilled = |p| (args.skill_games > 0).then(|| skill(rules, p, args, threads));
    Row {
        rules: label.to_string(),
        games: stats.games,
        units: Spread::of(games.iter().map(|g| g.unit_count).collect()),
        turns: Spread::of(games.iter().map(|g| g.turns).collect()),
        first_player_win_rate: Rate::of(first, decided),
        draws: stats.draws,
        unfinished: stats.unfinished,
        events_per_game: stats.events_per_game,
        skill_expectimax: skilled(Player::Expectimax(1)),
        skill_greedy: skilled(Player::Greedy),
        lengths: games.iter().map(|g| g.unit_count).collect(),
    }
}

fn rate_text(r: &Option<Rate>) -> String {
    match r {
        Some(r) => format!("{:.3} ({:.3}..{:.3})", r.rate, r.low, r.high),
        None => "-".into(),
    }
}

/// How one line of the table prints a rule set's figure.
type Cell = Box<dyn Fn(&Row) -> String>;

/// The table, one column per rule set.
pub fn text(rows: &[Row]) -> String {
    let lines: Vec<(&str, Cell)> = vec![
        ("rules", Box::new(|r: &Row| r.rules.clone())),
        ("games", Box::new(|r: &Row| r.games.to_string())),
        (
            "units mean/median/p90",
            Box::new(|r: &Row| {
                format!("{:.1} / {} / {}", r.units.mean, r.units.median, r.units.p90)
            }),
        ),
        (
            "turns mean/median/p90",
            Box::new(|r: &Row| {
                format!("{:.1} / {} / {}", r.turns.mean, r.turns.median, r.turns.p90)
            }),
        ),
        (
            "first player wins",
            Box::new(|r: &Row| rate_text(&Some(r.first_player_win_rate))),
        ),
        ("draws", Box::new(|r: &Row| r.draws.to_string())),
        ("unfinished", Box::new(|r: &Row| r.unfinished.to_string())),
        (
            "swaps/game",
            Box::new(|r: &Row| format!("{:.2}", r.events_per_game.swap)),
        ),
        (
            "water/game",
            Box::new(|r: &Row| format!("{:.2}", r.events_per_game.water)),
        ),
        (
            "passes/game",
            Box::new(|r: &Row| format!("{:.2}", r.events_per_game.pass)),
        ),
        (
            "skips/game",
            Box::new(|r: &Row| format!("{:.2}", r.events_per_game.skip)),
        ),
        (
            "backward/game",
            Box::new(|r: &Row| format!("{:.2}", r.events_per_game.backward)),
        ),
        (
            "truncations/game",
            Box::new(|r: &Row| format!("{:.2}", r.events_per_game.truncation)),
        ),
        (
            "queue joins/game",
            Box::new(|r: &Row| format!("{:.2}", r.events_per_game.queue_join)),
        ),
        (
            "expectimax:1 v random",
            Box::new(|r: &Row| rate_text(&r.skill_expectimax)),
        ),
        (
            "greedy v random",
            Box::new(|r: &Row| rate_text(&r.skill_greedy)),
        ),
    ];
    let cells: Vec<Vec<String>> = lines
        .iter()
        .map(|(_, f)| rows.iter().map(f).collect())
        .collect();
    let label_w = lines.iter().map(|(l, _)| l.len()).max().unwrap_or(0);
    let col_w: Vec<usize> = (0..rows.len())
        .map(|c| {
            cells
                .iter()
                .map(|line| line[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for ((label, _), line) in lines.iter().zip(&cells) {
        out.push_str(&format!("{label:<label_w$}"));
        for (c, cell) in line.iter().enumerate() {
            out.push_str(&format!("  {cell:<w$}", w = col_w[c]));
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out
}

/// One line per rule set, with a header line.
pub fn csv(rows: &[Row]) -> String {
    let mut out = String::from(
        "rules,games,units_mean,units_median,units_p90,turns_mean,turns_median,turns_p90,first_player_win_rate,first_player_low,first_player_high,draws,unfinished,swap,water,bear_off,pass,skip,backward,truncation,queue_join,skill_expectimax,skill_expectimax_low,skill_expectimax_high,skill_greedy,skill_greedy_low,skill_greedy_high\n",
    );
    let opt = |r: &Option<Rate>| match r {
        Some(r) => format!("{},{},{}", r.rate, r.low, r.high),
        None => ",,".into(),
    };
    for r in rows {
        let e = &r.events_per_game;
        let name = if r.rules.contains([',', '"']) {
            format!("\"{}\"", r.rules.replace('"', "\"\""))
        } else {
            r.rules.clone()
        };
        out.push_str(&format!(
            "{name},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
            r.games,
            r.units.mean,
            r.units.median,
            r.units.p90,
            r.turns.mean,
            r.turns.median,
            r.turns.p90,
            r.first_player_win_rate.rate,
            r.first_player_win_rate.low,
            r.first_player_win_rate.high,
            r.draws,
            r.unfinished,
            e.swap,
            e.water,
            e.bear_off,
            e.pass,
            e.skip,
            e.backward,
            e.truncation,
            e.queue_join,
            opt(&r.skill_expectimax),
            opt(&r.skill_greedy),
        ));
    }
    out
}

/// A histogram of units per game, one outlined series per rule set, as a
/// self-contained SVG.
pub fn svg(rows: &[Row]) -> String {
    const W: f64 = 720.0;
    const H: f64 = 360.0;
    const LEFT: f64 = 56.0;
    const BOTTOM: f64 = 40.0;
    const TOP: f64 = 20.0;
    const RIGHT: f64 = 180.0;
    const COLOURS: [&str; 8] = [
        "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
    ];
    const BINS: usize = 40;
    let max = rows
        .iter()
        .flat_map(|r| r.lengths.iter().copied())
        .max()
        .unwrap_or(1)
        .max(1);
    let width = (max as usize).div_ceil(BINS).max(1);
    let counts: Vec<Vec<f64>> = rows
        .iter()
        .map(|r| {
            let mut c = vec![0.0; BINS + 1];
            for &l in &r.lengths {
                c[(l as usize / width).min(BINS)] += 1.0;
            }
            let n = r.lengths.len().max(1) as f64;
            c.iter().map(|x| x / n).collect()
        })
        .collect();
    let top = counts
        .iter()
        .flat_map(|c| c.iter().copied())
        .fold(0.0f64, f64::max)
        .max(1e-9);
    let plot_w = W - LEFT - RIGHT;
    let plot_h = H - TOP - BOTTOM;
    let x = |units: f64| LEFT + plot_w * units / ((BINS + 1) * width) as f64;
    let y = |share: f64| TOP + plot_h * (1.0 - share / top);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" viewBox=\"0 0 {W} {H}\" font-family=\"sans-serif\" font-size=\"11\">\n<title>Units per game</title>\n<rect width=\"{W}\" height=\"{H}\" fill=\"white\"/>\n"
    );
    s.push_str(&format!(
        "<line x1=\"{LEFT}\" y1=\"{b}\" x2=\"{r}\" y2=\"{b}\" stroke=\"black\"/>\n<line x1=\"{LEFT}\" y1=\"{TOP}\" x2=\"{LEFT}\" y2=\"{b}\" stroke=\"black\"/>\n",
        b = TOP + plot_h,
        r = LEFT + plot_w
    ));
    for i in 0..=4 {
        let units = (BINS + 1) * width * i / 4;
        let share = top * i as f64 / 4.0;
        s.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{units}</text>\n<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{:.0}%</text>\n",
            x(units as f64),
            TOP + plot_h + 16.0,
            LEFT - 6.0,
            y(share) + 4.0,
            share * 100.0
        ));
    }
    s.push_str(&format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">units per game (bins of {width})</text>\n",
        LEFT + plot_w / 2.0,
        H - 6.0
    ));
    for (k, (r, c)) in rows.iter().zip(&counts).enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let mut points = format!("{:.1},{:.1}", x(0.0), y(0.0));
        for (b, share) in c.iter().enumerate() {
            let (x0, x1) = (x((b * width) as f64), x(((b + 1) * width) as f64));
            points.push_str(&format!(" {x0:.1},{y:.1} {x1:.1},{y:.1}", y = y(*share)));
        }
        points.push_str(&format!(
            " {:.1},{:.1}",
            x(((BINS + 1) * width) as f64),
            y(0.0)
        ));
        s.push_str(&format!(
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.5\" points=\"{points}\"/>\n"
        ));
        let ly = TOP + 14.0 + 16.0 * k as f64;
        s.push_str(&format!(
            "<line x1=\"{a:.1}\" y1=\"{ly:.1}\" x2=\"{b:.1}\" y2=\"{ly:.1}\" stroke=\"{colour}\" stroke-width=\"3\"/>\n<text x=\"{t:.1}\" y=\"{:.1}\">{}</text>\n",
            ly + 4.0,
            xml_escape(&r.rules),
            a = LEFT + plot_w + 12.0,
            b = LEFT + plot_w + 32.0,
            t = LEFT + plot_w + 38.0,
        ));
    }
    s.push_str("</svg>\n");
    s
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

pub fn run(args: CompareArgs) -> ExitCode {
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let mut rule_sets = Vec::new();
    for spec in &args.sets {
        match load(spec) {
            Ok(r) => rule_sets.push(r),
            Err(code) => return code,
        }
    }
    let rows: Vec<Row> = rule_sets
        .iter()
        .zip(&args.sets)
        .map(|(r, label)| row(r, label, &args, threads))
        .collect();
    if args.plot == Some(Plot::Svg) {
        let picture = svg(&rows);
        match &args.out {
            Some(path) => {
                if let Err(e) = super::replace::replace_with(path, false, |w| {
                    std::io::Write::write_all(w, picture.as_bytes())
                }) {
                    errln!("error: cannot write {}: {e}", path.display());
                    return ExitCode::from(super::EXIT_USAGE);
                }
            }
            None => {
                out!("{picture}");
                return ExitCode::SUCCESS;
            }
        }
    }
    match args.format {
        Format::Text => out!("{}", text(&rows)),
        Format::Csv => out!("{}", csv(&rows)),
        Format::Json => outln!(
            "{}",
            serde_json::to_string_pretty(&rows).expect("plain data serialises")
        ),
    }
    ExitCode::SUCCESS
}
