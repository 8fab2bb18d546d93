//! `senet simulate`: play games between computer players, write their
//! records and summarise them.

use crate::engine::Ruleset;
use crate::notation::record;
use crate::simulate::{self, GameFigures, Played, Player, RunConfig, Stats};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct SimulateArgs {
    /// A built-in rule set, the path of a .senet file, or `-` for a rule
    /// file on standard input (not with `--out`: records name their rule
    /// file).
    #[arg(long, value_name = "NAME|FILE|-", value_parser = super::complete::RuleSpec, hide_possible_values = true)]
    pub rules: String,
    /// Select an option of the rule file (repeatable).
    #[arg(long = "option", value_name = "NAME", value_parser = super::complete::OptionName, hide_possible_values = true)]
    pub options: Vec<String>,
    /// How many games (1 to 10,000,000).
    #[arg(long, default_value_t = 100, value_parser = super::game_count)]
    pub games: u64,
    /// The seed: the same seed gives the same games on any thread count.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads (default: every core; at most 256).
    #[arg(long, value_parser = super::thread_count)]
    pub threads: Option<usize>,
    /// Stop a game after this many units, with result `*` (1 to 1,000,000;
    /// default 2,000, or 1,000,000 for rule sets whose games end by a turn
    /// limit).
    #[arg(long, value_parser = super::unit_cap)]
    pub max_units: Option<usize>,
    /// The players: one for both sides, or `WHITE,BLACK`; each `random`,
    /// `greedy` or `expectimax[:DEPTH]`.
    #[arg(long, value_delimiter = ',', num_args = 1..=2, default_value = "random")]
    pub player: Vec<Player>,
    /// Write the records: a `.sgn` file for all games, or a directory for
    /// one file per game.
    #[arg(long, value_name = "FILE|DIR")]
    pub out: Option<PathBuf>,
    /// With `--out` and a rule file outside the folder of the records: the
    /// folder the records name it from (it must hold the rule file), which
    /// `check` and `replay` then need as their own `--rules-path`. Without
    /// it such a rule file is refused (exit 2): records may name only rule
    /// files in their own folder tree or in a `--rules-path` folder.
    #[arg(long = "rules-path", value_name = "DIR", requires = "out")]
    pub rules_paths: Vec<PathBuf>,
    /// Print statistics (the default when there is no --out).
    #[arg(long)]
    pub stats: bool,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write --out through a symbolic link (the file it names is replaced,
    /// the link stays), or over a file with other hard links. Without it
    /// such files are refused.
    #[arg(long)]
    pub follow_symlinks: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    #[value(alias = "human")]
    Text,
    Json,
}

/// What the `Rules` and `RulesDigest` tags of the simulated records say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesTag {
    /// A built-in name, or the rule file's path relative to the folder the
    /// records are written to (`/`-separated), as `check` resolves it.
    pub spec: String,
    /// `sha256:<hex>` of the rule file, for a rule file.
    pub digest: Option<String>,
}

impl RulesTag {
    /// The rule set's own name, no digest: for a built-in rule set.
    pub fn named(rules: &Ruleset) -> RulesTag {
        RulesTag {
            spec: rules.meta.name.clone(),
            digest: None,
        }
    }

    /// The tags for records written into the folder `out_dir` under the
    /// rules `spec` (as given to `--rules`). A built-in name stays as it
    /// is. A rule file becomes its path from `out_dir`, which `check` and
    /// `replay` resolve within the record's folder tree (docs/security.md),
    /// or else its path from the first of `rules_paths` that holds it,
    /// which readers must give as `--rules-path` too. A rule file outside
    /// all of them cannot be named: `Outside` says so.
    pub fn for_output(
        rules: &Ruleset,
        spec: &str,
        out_dir: &Path,
        rules_paths: &[PathBuf],
    ) -> std::io::Result<Named> {
        if crate::rules::builtin_source(spec).is_some() {
            return Ok(Named::InTree(RulesTag::named(rules)));
        }
        let digest = crate::rules::digest(spec, None)
            .ok()
            .map(|d| format!("sha256:{d}"));
        let file = std::fs::canonicalize(spec)?;
        let dir = std::fs::canonicalize(if out_dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            out_dir
        })?;
        // The path of `file` from `folder`, `/`-separated, when inside it.
        let from = |folder: &Path| -> Option<String> {
            let inside = file.strip_prefix(folder).ok()?;
            let parts = inside
                .components()
                .map(|c| c.as_os_str().to_str())
                .collect::<Option<Vec<&str>>>()?;
            Some(parts.join("/"))
        };
        if let Some(spec) = from(&dir) {
            return Ok(Named::InTree(RulesTag { spec, digest }));
        }
        for folder in rules_paths {
            let canonical = std::fs::canonicalize(folder)?;
            if let Some(spec) = from(&canonical) {
                return Ok(Named::FromRulesPath(
                    RulesTag { spec, digest },
                    folder.clone(),
                ));
            }
        }
        Ok(Named::Outside {
            folder: file.parent().map(Path::to_path_buf).unwrap_or_default(),
            records: dir,
        })
    }
}

/// How the records of a simulation can name their rule file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Named {
    /// A built-in name, or a path inside the records' folder tree: found
    /// from any working directory.
    InTree(RulesTag),
    /// A path from a `--rules-path` folder, which the readers need too.
    FromRulesPath(RulesTag, PathBuf),
    /// Outside the records' folder tree and every `--rules-path` folder:
    /// no path in a record could reach it (`..` is refused by readers).
    Outside {
        /// The rule file's folder.
        folder: PathBuf,
        /// The records' folder.
        records: PathBuf,
    },
}

/// The SGN record of a simulated game, naming its rule set by name.
pub fn record_text(
    rules: &Ruleset,
    g: &Played,
    index: u64,
    players: [Player; 2],
    label: &str,
) -> String {
    record_text_tagged(rules, &RulesTag::named(rules), g, index, players, label)
}

/// The SGN record of a simulated game, with `Rules` and `RulesDigest` as
/// `tag` says.
pub fn record_text_tagged(
    rules: &Ruleset,
    tag: &RulesTag,
    g: &Played,
    index: u64,
    players: [Player; 2],
    label: &str,
) -> String {
    let result = record::result_token(g.finished, g.winner);
    let name = |p: Player| p.name();
    let mut tags = vec![
        record::tag("Event", format!("senet simulate {label}")),
        record::tag("Site", "?"),
        record::tag("Date", "????.??.??"),
        record::tag("Round", (index + 1).to_string()),
        record::tag("White", name(players[0])),
        record::tag("Black", name(players[1])),
        record::tag("Result", result.to_string()),
        record::tag("Rules", tag.spec.clone()),
        record::tag(
            "ThrowSource",
            format!("rng:{}:{}", simulate::RNG_NAME, g.seed),
        ),
        record::tag("FirstPlayer", g.first.name()),
    ];
    if let Some(d) = &tag.digest {
        tags.push(record::tag("RulesDigest", d.clone()));
    }
    if !rules.meta.selected.is_empty() {
        tags.push(record::tag("RuleOptions", rules.meta.selected.join("; ")));
    }
    if let Some((side, points)) = g.score {
        tags.push(record::tag("Score", format!("{side} {points}")));
    }
    if !g.finished {
        tags.push(record::tag("Termination", "abandoned"));
    }
    let game = record::game(tags, &g.units, result);
    let mut out = String::new();
    crate::notation::writer::write_game(&game, &mut out);
    out
}

fn players(args: &SimulateArgs) -> [Player; 2] {
    let white = args.player.first().copied().unwrap_or(Player::Random);
    [white, args.player.get(1).copied().unwrap_or(white)]
}

/// The statistics text of `--stats --format text`.
pub fn stats_text(rules: &Ruleset, s: &Stats) -> String {
    let e = &s.events_per_game;
    format!(
        "rules            {}\ngames            {}\nunfinished       {}\ndraws            {}\nunits_mean       {:.1}\nunits_median     {:.1}\nturns_mean       {:.1}\nwhite_win_rate   {:.3} (95% interval {:.3}..{:.3})\nevents_per_game  swap {:.2}, water {:.2}, bear_off {:.2}, pass {:.2}, skip {:.2}, backward {:.2}, truncation {:.2}, queue_join {:.2}\n",
        rules.meta.name,
        s.games,
        s.unfinished,
        s.draws,
        s.units_mean,
        s.units_median,
        s.turns_mean,
        s.white_win_rate.rate,
        s.white_win_rate.low,
        s.white_win_rate.high,
        e.swap,
        e.water,
        e.bear_off,
        e.pass,
        e.skip,
        e.backward,
        e.truncation,
        e.queue_join
    )
}

pub fn run(args: SimulateArgs) -> ExitCode {
    if args.rules == "-" && args.out.is_some() {
        errln!(
            "error: records name the rule file they were played under, and a rule file on \
             standard input has no name: give --rules as a built-in name or a path with --out"
        );
        return ExitCode::from(super::EXIT_USAGE);
    }
    let rules = match super::load_rules(&args.rules, &args.options) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let config = RunConfig {
        players: players(&args),
        games: args.games,
        seed: args.seed,
        threads,
        max_units: super::unit_cap_for(&rules, args.max_units),
        keep_units: args.out.is_some(),
    };
    use std::io::IsTerminal;
    let bar = (std::io::stderr().is_terminal() && args.games >= 1000).then(|| {
        let b = indicatif::ProgressBar::new(args.games);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games {per_sec} eta {eta}",
            )
            .expect("the template is valid"),
        );
        b
    });
    let progress = |d: u64| {
        if let Some(b) = &bar
            && (d.is_multiple_of(64) || d == args.games)
        {
            b.set_position(d);
        }
    };
    // Records are written as the games come, in order, each file through
    // a new file that replaces the old one only once complete.
    let want_stats = args.stats || args.out.is_none();
    let mut figures: Vec<GameFigures> = Vec::new();
    let players = players(&args);
    let label = format!("{} seed {}", rules.meta.name, args.seed);
    let follow = args.follow_symlinks;
    let mut keep = |g: &Played| {
        if want_stats {
            figures.push(g.figures());
        }
    };
    // Where the records go decides how their `Rules` tag names a rule file.
    let tag = match &args.out {
        None => RulesTag::named(&rules),
        Some(out) => {
            let sgn = out.extension().is_some_and(|e| e == "sgn");
            // A folder made here for the records is taken away again when
            // no record is written into it.
            let made = !sgn && !out.exists();
            let dir = if sgn {
                out.parent().unwrap_or(Path::new("")).to_path_buf()
            } else {
                if let Err(e) = std::fs::create_dir_all(out) {
                    errln!("error: cannot write {}: {e}", out.display());
                    return ExitCode::from(super::EXIT_USAGE);
                }
                out.clone()
            };
            match RulesTag::for_output(&rules, &args.rules, &dir, &args.rules_paths) {
                Ok(Named::InTree(tag)) => tag,
                Ok(Named::FromRulesPath(tag, folder)) => {
                    errln!(
                        "note: the records name {} as `{}` in --rules-path {}: `senet check` and \
                         `senet replay` find it with the same `--rules-path {}`",
                        args.rules,
                        tag.spec,
                        folder.display(),
                        folder.display()
                    );
                    tag
                }
                Ok(Named::Outside { folder, records }) => {
                    // Readers refuse `..` and absolute paths (a record is
                    // untrusted input): no tag could name the file, and
                    // records that `check` cannot resolve are not written.
                    errln!(
                        "error: the records cannot name {}: it is outside {}, the folder the \
                         records go to, and records name only rule files in their own folder tree or in a \
                         --rules-path folder (docs/security.md); nothing was simulated. Write \
                         the records into {} or a folder below it, or add `--rules-path {}` \
                         (`senet check` and `senet replay` then need the same flag)",
                        args.rules,
                        records.display(),
                        folder.display(),
                        folder.display()
                    );
                    if made {
                        let _ = std::fs::remove_dir(out);
                    }
                    return ExitCode::from(super::EXIT_USAGE);
                }
                Err(e) => {
                    errln!("error: cannot write {}: {e}", out.display());
                    return ExitCode::from(super::EXIT_USAGE);
                }
            }
        }
    };
    let written = match &args.out {
        None => simulate::run_each(&rules, &config, &progress, |_, g| {
            keep(&g);
            Ok::<(), std::io::Error>(())
        }),
        Some(out) if out.extension().is_some_and(|e| e == "sgn") => {
            super::replace::replace_with(out, follow, |w| {
                simulate::run_each(&rules, &config, &progress, |i, g| {
                    if i > 0 {
                        w.write_all(b"\n")?;
                    }
                    w.write_all(
                        record_text_tagged(&rules, &tag, &g, i, players, &label).as_bytes(),
                    )?;
                    keep(&g);
                    Ok(())
                })
            })
        }
        Some(out) => std::fs::create_dir_all(out).and_then(|_| {
            simulate::run_each(&rules, &config, &progress, |i, g| {
                let path = out.join(format!("{}-{:05}.sgn", rules.meta.name, i + 1));
                super::replace::replace_with(&path, follow, |w| {
                    w.write_all(record_text_tagged(&rules, &tag, &g, i, players, &label).as_bytes())
                })?;
                keep(&g);
                Ok(())
            })
        }),
    };
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let (Some(out), Err(e)) = (&args.out, written) {
        errln!("error: cannot write {}: {e}", out.display());
        return ExitCode::from(super::EXIT_USAGE);
    }
    if args.stats || args.out.is_none() {
        let stats = Stats::from_games(&figures);
        match args.format {
            Format::Json => outln!(
                "{}",
                serde_json::to_string(&stats).expect("plain data serialises")
            ),
            Format::Text => out!("{}", stats_text(&rules, &stats)),
        }
    }
    ExitCode::SUCCESS
}
