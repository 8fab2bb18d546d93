//! `senet fmt FILE...`: rewrite game records in canonical SGN.
//!
//! Reads each file whole, and writes nothing for a file with a syntax
//! error (its diagnostics go to standard error). Before a file is
//! rewritten, its canonical text is read back and compared with the
//! original, spans aside: formatting never changes meaning. Exit codes:
//! 0 all files canonical or rewritten, 1 a syntax error or (with `--check`)
//! a file not in canonical form, 2 an I/O error.

use crate::diag::SourceFile;
use crate::notation::header::RulesCache;
use crate::notation::reader::{Reader, SyntaxError};
use crate::notation::syntax::Game;
use crate::notation::writer::{sort_tags, write_games};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct FmtArgs {
    /// SGN files or directories (every `*.sgn` below them) to rewrite in
    /// place; `-` reads standard input and prints to standard output.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Print the canonical text instead of rewriting the files.
    #[arg(long)]
    pub stdout: bool,
    /// Change nothing; list the files that are not in canonical form and
    /// exit with 1 if there are any.
    #[arg(long, conflicts_with = "stdout")]
    pub check: bool,
    #[command(flatten)]
    pub record_rules: super::RecordRulesArgs,
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
        sort_tags(&mut g.tags);
        g
    };
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| norm(x) == norm(y))
}

/// Writes `text` to `path` through a file beside it and a rename, so that
/// an interrupted run never leaves a half-written record.
fn replace(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".senet-fmt.tmp");
    let tmp = PathBuf::from(tmp);
    let write = || -> std::io::Result<()> {
        std::fs::write(&tmp, text)?;
        std::fs::set_permissions(&tmp, std::fs::metadata(path)?.permissions())?;
        std::fs::rename(&tmp, path)
    };
    write().inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

pub fn run(args: FmtArgs) -> ExitCode {
    let mut code = 0u8;
    let mut cache = RulesCache::new(args.record_rules.confinement());
    // Directories stand for every `*.sgn` file below them.
    let mut files = Vec::new();
    for path in &args.files {
        if path.is_dir() {
            if let Err(e) = super::sgn_files(path, &mut files) {
                eprintln!("senet fmt: cannot read directory {}: {e}", path.display());
                code = code.max(super::EXIT_USAGE);
            }
        } else {
            files.push(path.clone());
        }
    }
    for path in &files {
        let stdin = path.as_os_str() == "-";
        let name = if stdin {
            "<stdin>".to_string()
        } else {
            path.display().to_string()
        };
        let mut text = String::new();
        let read = if stdin {
            std::io::stdin().read_to_string(&mut text).map(|_| ())
        } else {
            std::fs::read_to_string(path).map(|t| text = t)
        };
        if let Err(e) = read {
            eprintln!("senet fmt: cannot read {name}: {e}");
            code = code.max(super::EXIT_USAGE);
            continue;
        }
        match format_text_with(&text, if stdin { None } else { path.parent() }, &mut cache) {
            Formatted::Syntax(errors) => {
                let source = SourceFile::new(name.clone(), text);
                for e in errors {
                    eprintln!(
                        "{:?}",
                        miette::Report::new(e).with_source_code(source.named())
                    );
                }
                code = code.max(super::EXIT_INPUT);
            }
            Formatted::Text(out) => {
                if args.check {
                    if out != text {
                        println!("not canonical: {name}");
                        code = code.max(super::EXIT_INPUT);
                    }
                } else if args.stdout || stdin {
                    let mut so = std::io::stdout().lock();
                    if let Err(e) = so.write_all(out.as_bytes()).and_then(|_| so.flush()) {
                        eprintln!("senet fmt: cannot write to standard output: {e}");
                        return ExitCode::from(super::EXIT_USAGE);
                    }
                } else if out != text
                    && let Err(e) = replace(path, &out)
                {
                    eprintln!("senet fmt: cannot write {name}: {e}");
                    code = code.max(super::EXIT_USAGE);
                }
            }
        }
    }
    ExitCode::from(code)
}
