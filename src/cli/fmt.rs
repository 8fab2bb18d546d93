//! `senet fmt FILE...`: rewrite game records in canonical SGN.
//!
//! Reads each file game by game (memory is bounded by one game, not the
//! file), and writes nothing for a file with a syntax error (its
//! diagnostics go to standard error). Each game's canonical text is read
//! back and compared with the original, spans aside: formatting never
//! changes meaning. A file is rewritten through a new file beside it that
//! replaces it in one rename ([`super::replace`]). `--fix` first applies
//! the mechanical fixes ([`fix_text`]: look-alike characters, `X`, tag name
//! case, missing turn numbers) to the whole text, listing each on standard
//! error; it is the only way fmt changes what a record says. Exit codes:
//! 0 all files canonical or rewritten, 1 a syntax error or (with `--check`)
//! a file not in canonical form, 2 an I/O error.

use crate::notation::header::RulesCache;
use crate::notation::reader::{ReadError, Reader, StreamReader, SyntaxError};
use crate::notation::syntax::Game;
use crate::notation::writer::{sort_tags, write_game, write_games};
use std::io::{BufRead, Read, Seek, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct FmtArgs {
    /// SGN files or directories (every `*.sgn` below them) to rewrite in
    /// place; `-` reads standard input and prints to standard output.
    #[arg(required = true, value_name = "FILE|DIR|-")]
    pub files: Vec<PathBuf>,
    /// Print the canonical text instead of rewriting the files.
    #[arg(long)]
    pub stdout: bool,
    /// Change nothing; list the files that are not in canonical form and
    /// exit with 1 if there are any.
    #[arg(long, conflicts_with = "stdout")]
    pub check: bool,
    /// Rewrite a file named through a symbolic link (the file it names is
    /// replaced, the link stays), or a file with other hard links (which
    /// then keep the old text). Without it such files are refused.
    #[arg(long)]
    pub follow_symlinks: bool,
    /// The most bytes one game may take: a longer game is an error (the
    /// file is not rewritten).
    #[arg(long, value_name = "BYTES", default_value_t = super::MAX_GAME_BYTES, value_parser = super::game_bytes)]
    pub max_game_bytes: usize,
    /// Apply the mechanical fixes first, each listed on standard error as
    /// `FILE:LINE:COL: what`: look-alike characters (en or em dash, minus
    /// sign, `×`, no-break space, curly quotes, `…`) outside comments and
    /// tag values, `X` in a swap, tag names in the wrong case, and missing
    /// turn numbers where the game's rules load. Without it, fmt never
    /// changes what a record means.
    #[arg(long)]
    pub fix: bool,
    #[command(flatten)]
    pub record_rules: super::RecordRulesArgs,
}

/// The tag names `--fix` puts in their SGN case.
fn known_tags() -> Vec<&'static str> {
    use crate::notation::check::{PROVENANCE, READ, ROSTER};
    ROSTER
        .iter()
        .chain(&READ)
        .chain(&PROVENANCE)
        .copied()
        .collect()
}

/// `text` with the fixes of `--fix` applied, and each fix as a line
/// `name:line:col: what` (the look-alikes, `X` and tag names placed in the
/// text as given, the turn numbers in the text after those fixes: no fix
/// adds or removes a line).
pub fn fix_text(
    text: &str,
    name: &str,
    dir: Option<&std::path::Path>,
    cache: &mut RulesCache,
) -> (String, Vec<String>) {
    let (mut fixed, fixes) = crate::notation::lookalike::fix_text(text, &known_tags());
    let mut lines: Vec<(usize, usize, String)> = fixes
        .iter()
        .map(|f| {
            let (l, c) = crate::diag::line_col(text, f.at);
            (l, c, f.what.clone())
        })
        .collect();
    // Turn numbers: where the replay finds a turn that starts without one.
    let mut inserts = Vec::new();
    let opts = crate::notation::check::CheckOptions {
        max_findings: usize::MAX,
        ..Default::default()
    };
    for game in Reader::new(&fixed).flatten() {
        let Ok(report) = crate::notation::check::check_game(&game, dir, &opts, cache) else {
            continue;
        };
        for f in &report.findings {
            if f.code == crate::notation::finding::Code::TurnNumberMissing
                && let (Some(turn), Some(side)) = (f.turn, f.side)
            {
                let dots = if side == crate::engine::Side::White {
                    "."
                } else {
                    "..."
                };
                inserts.push((f.span.start, format!("{turn}{dots} ")));
            }
        }
    }
    inserts.sort();
    inserts.dedup();
    for (at, what) in &inserts {
        let (l, c) = crate::diag::line_col(&fixed, *at);
        lines.push((l, c, format!("turn number `{}` added", what.trim_end())));
    }
    lines.sort();
    let lines = lines
        .into_iter()
        .map(|(l, c, what)| format!("{name}:{l}:{c}: {what}"))
        .collect();
    for (at, what) in inserts.iter().rev() {
        fixed.insert_str(*at, what);
    }
    (fixed, lines)
}

/// What formatting one text came to.
pub enum Formatted {
    /// The canonical text.
    Text(String),
    /// The text does not read; nothing to write.
    Syntax(Vec<SyntaxError>),
}

/// The canonical form of an SGN text, checked to mean the same.
pub fn format_text(text: &str) -> Formatted {
    format_text_in(text, None)
}

/// [`format_text`] for a file in `dir`, against which a `Rules` path is
/// resolved (within the record's own folder tree).
pub fn format_text_in(text: &str, dir: Option<&std::path::Path>) -> Formatted {
    format_text_with(text, dir, &mut RulesCache::default())
}

/// [`format_text_in`] with the rule sets of `cache`, which also says where
/// the rule files that records name may be read from.
pub fn format_text_with(
    text: &str,
    dir: Option<&std::path::Path>,
    cache: &mut RulesCache,
) -> Formatted {
    let mut reader = Reader::new(text);
    let mut games = Vec::new();
    let mut errors = Vec::new();
    for g in reader.by_ref() {
        match g {
            Ok(g) => games.push(g),
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Formatted::Syntax(errors);
    }
    // Where the game names rules that load, the replay knows which moves
    // were swaps and which throws give another throw: write `x` and `+`.
    for g in &mut games {
        crate::notation::check::canonical_marks(g, dir, cache);
    }
    let out = write_games(&games, reader.trailing());
    let again: Vec<Game> = Reader::new(&out).filter_map(Result::ok).collect();
    assert!(
        same_meaning(&games, &again),
        "senet fmt: the canonical text does not read back as the same games (a bug in the writer)"
    );
    Formatted::Text(out)
}

fn same_meaning(a: &[Game], b: &[Game]) -> bool {
    let norm = |g: &Game| {
        let mut g = g.without_spans();
        // Read back alone, a game is the first of its text.
        g.index = 0;
        sort_tags(&mut g.tags);
        g
    };
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| norm(x) == norm(y))
}

/// Compares what is written with a file's current content, byte by byte,
/// as it is written: whether a file changes is known without holding it.
struct Compare {
    old: Box<dyn Read>,
    same: bool,
    chunk: Vec<u8>,
}

impl Compare {
    fn new(path: &std::path::Path) -> std::io::Result<Compare> {
        let file = std::fs::File::open(path)?;
        Ok(Compare::of(Box::new(std::io::BufReader::with_capacity(
            1 << 16,
            file,
        ))))
    }
    /// A comparison with text already read (standard input).
    fn of(old: Box<dyn Read>) -> Compare {
        Compare {
            old,
            same: true,
            chunk: Vec::new(),
        }
    }
    fn feed(&mut self, new: &[u8]) -> std::io::Result<()> {
        if !self.same {
            return Ok(());
        }
        self.chunk.resize(new.len(), 0);
        let mut got = 0;
        while got < new.len() {
            let n = self.old.read(&mut self.chunk[got..])?;
            if n == 0 {
                break;
            }
            got += n;
        }
        self.same = got == new.len() && self.chunk[..] == *new;
        Ok(())
    }
    /// Whether the old content was exactly what was fed.
    fn finish(mut self) -> std::io::Result<bool> {
        let mut rest = [0u8; 1];
        Ok(self.same && self.old.read(&mut rest)? == 0)
    }
}

/// Where the canonical text of a file goes.
enum Sink {
    /// A new file that replaces the old one if the text differs.
    Replace(Box<super::replace::Replacement>, Compare),
    /// Nothing written: `--check`.
    Check(Compare),
    /// A spool that goes to standard output once the whole file has read
    /// without a syntax error (`--stdout`, standard input).
    Spool(std::io::BufWriter<std::fs::File>),
}

impl Sink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        match self {
            Sink::Replace(r, c) => {
                c.feed(bytes)?;
                r.writer().write_all(bytes)
            }
            Sink::Check(c) => c.feed(bytes),
            Sink::Spool(w) => w.write_all(bytes),
        }
    }
}

/// An unnamed file for `--stdout`'s spool: created with a random name in
/// the temporary folder and removed at once, so nothing else can open it.
fn spool() -> std::io::Result<std::fs::File> {
    let dir = std::env::temp_dir();
    loop {
        let path = dir.join(format!(".senet-fmt.{:016x}", rand::random::<u64>()));
        let mut o = std::fs::OpenOptions::new();
        o.read(true).write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.mode(0o600);
        }
        match o.open(&path) {
            Ok(f) => {
                let _ = std::fs::remove_file(&path);
                return Ok(f);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Formats one stream game by game into `sink`: only one game is in
/// memory at a time. Syntax errors are printed as they are met (the
/// reading goes on, to report them all); `Ok(false)` when there was one.
fn format_stream(
    name: &str,
    input: Box<dyn BufRead>,
    dir: Option<&std::path::Path>,
    sink: &mut Sink,
    max_game: usize,
    cache: &mut RulesCache,
    missing_turns: &mut Vec<String>,
) -> std::io::Result<bool> {
    let mut reader = StreamReader::new(input).with_max_game(max_game);
    let mut text = String::new();
    let mut clean = true;
    let mut first = true;
    while let Some(next) = reader.next_game() {
        match next {
            Ok(mut game) => {
                // A comment that swallowed moves is kept as it is: the
                // warning `check` gives says so while formatting.
                let mut found = Vec::new();
                crate::notation::check::swallowed_moves(&game.intro, &game.nodes, &mut found);
                if matches!(sink, Sink::Check(_)) {
                    // `--fix` adds the turn numbers a turn starts without:
                    // a text that lacks one is not canonical.
                    let opts = crate::notation::check::CheckOptions::default();
                    if let Ok(report) = crate::notation::check::check_game(&game, dir, &opts, cache)
                    {
                        let source = reader.source();
                        for f in report
                            .findings
                            .iter()
                            .filter(|f| f.code == crate::notation::finding::Code::TurnNumberMissing)
                        {
                            let (l, c) = crate::diag::line_col(
                                &source.text,
                                f.span.start.saturating_sub(source.offset),
                            );
                            missing_turns.push(format!("{}:{c}", source.line + l));
                        }
                    }
                }
                for f in &found {
                    let report = super::FindingReport {
                        f,
                        src: miette::NamedSource::new(name, reader.source()),
                        game: game.index,
                        players: String::new(),
                    };
                    err!("{}", super::render(&report));
                }
                if crate::notation::check::canonical_marks(&mut game, dir, cache).is_none()
                    && !game.nodes.is_empty()
                {
                    errln!("{}", unchecked(name, &game));
                }
                text.clear();
                if !first {
                    text.push('\n');
                }
                first = false;
                write_game(&game, &mut text);
                let again: Vec<Game> = Reader::new(&text).filter_map(Result::ok).collect();
                if !same_meaning(std::slice::from_ref(&game), &again) {
                    // A defect of the writer: the file is left as it is.
                    return Err(std::io::Error::other(format!(
                        "game {} does not read back the same in canonical form (a bug in the writer); the file is left as it is",
                        game.index
                    )));
                }
                if clean {
                    sink.write(text.as_bytes())?;
                }
                reader.recycle(game);
            }
            Err(ReadError::Syntax(e)) => {
                clean = false;
                let report = miette::Report::new(e)
                    .with_source_code(miette::NamedSource::new(name, reader.source()));
                err!("{}", super::render(report.as_ref()));
            }
            Err(ReadError::Io(e)) => return Err(e),
        }
    }
    if clean {
        text.clear();
        for e in reader.trailing() {
            text.push('%');
            text.push_str(&e.line);
            text.push('\n');
        }
        sink.write(text.as_bytes())?;
    }
    Ok(clean)
}

/// What fmt could not do for a game whose rules it cannot load: its marks
/// and turn numbers follow the rules, so they are left as written. Said in
/// every mode, so that `--check` passing or `--fix` fixing nothing is not
/// taken for a clean bill.
fn unchecked(name: &str, game: &Game) -> String {
    let why = match game.tag("Rules") {
        None => "has no `Rules` tag".to_string(),
        Some(rules) => format!(
            "names rules that do not load here (`{}`; `senet check` says why)",
            crate::diag::printable(rules)
        ),
    };
    format!(
        "note: {name}: game {} {why}, so its turn numbers and its `x` and `+` marks were \
         neither checked nor fixed; with the tag, `senet fmt --fix` adds missing turn numbers",
        game.index
    )
}

/// Formats one file (or standard input, `-`) as the flags say; the exit
/// code it comes to.
fn format_file(
    path: &std::path::Path,
    args: &FmtArgs,
    cache: &mut RulesCache,
) -> Result<u8, String> {
    let stdin = path.as_os_str() == "-";
    let name = if stdin {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    };
    let dir = if stdin { None } else { path.parent() };
    // Standard input under `--check` is held to compare the canonical text
    // with; `--fix` looks across lines (comments, games): the whole text.
    let whole = args.fix || (stdin && args.check);
    let mut original = None;
    let input: Box<dyn BufRead> = if whole {
        let text = match super::read_record_text(path) {
            Ok((_, text, _)) => text,
            Err(code) => return Ok(code),
        };
        let text = if args.fix {
            let (fixed, lines) = fix_text(&text, &name, dir, cache);
            for l in &lines {
                errln!("{}", crate::diag::printable(l));
            }
            original = Some(text.into_bytes());
            fixed
        } else {
            original = Some(text.clone().into_bytes());
            text
        };
        Box::new(std::io::Cursor::new(text.into_bytes()))
    } else if stdin {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    } else {
        let f = std::fs::File::open(path).map_err(|e| format!("cannot read {name}: {e}"))?;
        Box::new(std::io::BufReader::with_capacity(1 << 16, f))
    };
    let io = |what: &str| {
        let name = name.clone();
        let what = what.to_string();
        move |e: std::io::Error| format!("cannot {what} {name}: {e}")
    };
    let mut sink = if args.check {
        match original.filter(|_| stdin) {
            Some(bytes) => Sink::Check(Compare::of(Box::new(std::io::Cursor::new(bytes)))),
            None => Sink::Check(Compare::new(path).map_err(io("read"))?),
        }
    } else if args.stdout || stdin {
        Sink::Spool(std::io::BufWriter::new(spool().map_err(io("spool"))?))
    } else {
        Sink::Replace(
            Box::new(
                super::replace::Replacement::create(path, args.follow_symlinks)
                    .map_err(io("write"))?,
            ),
            Compare::new(path).map_err(io("read"))?,
        )
    };
    let mut missing_turns = Vec::new();
    if !format_stream(
        &name,
        input,
        dir,
        &mut sink,
        args.max_game_bytes,
        cache,
        &mut missing_turns,
    )
    .map_err(io("format"))?
    {
        // The spool or the new file goes unused: nothing is written.
        return Ok(super::EXIT_INPUT);
    }
    match sink {
        Sink::Check(c) => {
            if !c.finish().map_err(io("read"))? {
                outln!("not canonical: {name}");
                return Ok(super::EXIT_INPUT);
            }
            if !missing_turns.is_empty() {
                outln!(
                    "not canonical: {name} (a turn starts without its turn number at {}; `senet fmt --fix` adds it)",
                    missing_turns.join(", ")
                );
                return Ok(super::EXIT_INPUT);
            }
        }
        Sink::Spool(w) => {
            let mut f = w.into_inner().map_err(|e| io("spool")(e.into_error()))?;
            f.seek(std::io::SeekFrom::Start(0)).map_err(io("spool"))?;
            let mut so = std::io::stdout().lock();
            std::io::copy(&mut f, &mut so)
                .and_then(|_| so.flush())
                .map_err(|e| format!("cannot write to standard output: {e}"))?;
        }
        Sink::Replace(r, c) => {
            if !c.finish().map_err(io("read"))? {
                r.commit().map_err(io("write"))?;
            }
        }
    }
    Ok(0)
}

pub fn run(args: FmtArgs) -> ExitCode {
    let mut code = 0u8;
    let mut cache = RulesCache::new(args.record_rules.confinement());
    // Directories stand for every `*.sgn` file below them.
    let mut files = Vec::new();
    for path in &args.files {
        if path.is_dir() {
            if let Err(e) = super::sgn_files(path, &mut files) {
                errln!("senet fmt: cannot read directory {}: {e}", path.display());
                code = code.max(super::EXIT_USAGE);
            }
        } else {
            files.push(path.clone());
        }
    }
    for path in &files {
        match format_file(path, &args, &mut cache) {
            Ok(c) => code = code.max(c),
            Err(message) => {
                errln!("senet fmt: {message}");
                code = code.max(super::EXIT_USAGE);
            }
        }
    }
    ExitCode::from(code)
}
