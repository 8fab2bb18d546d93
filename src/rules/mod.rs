//! The rules language: `.senet` text → pest ([`grammar`]) → spanned syntax
//! ([`ast`]) → checks, overlays and options ([`lower`]) → [`Ruleset`].
//!
//! Stage: text in, a checked, span-free [`Ruleset`] out, or every problem of
//! the run as one [`RulesError`]. The reference of the language is
//! `docs/rules-language.md`.

pub mod ast;
mod builtin;
pub mod errors;
pub mod grammar;
pub mod lower;
mod source;
pub mod sources;
mod summary;

pub use builtin::{Group, builtin_group, builtin_names, builtin_source};
pub use errors::{RuleError, RuleWarnings, RulesError};
pub use source::{Confinement, DEFAULT_MAX_RULE_FILE_BYTES, MAX_EXTENDS_CHAIN};
pub use summary::summary;

use crate::diag::SourceFile;
use crate::engine::Ruleset;
use sha2::{Digest, Sha256};
use source::{Origin, Reading, Unread};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn builtins_list() -> String {
    builtin_names().join(", ")
}

/// `did you mean `kendall`? Otherwise ` when `spec` is near a built-in
/// name (`kendal`, `BGA`), or empty.
fn guess_builtin(spec: &str) -> String {
    crate::diag::nearest(spec, builtin_names().iter().copied())
        .map(|n| format!("did you mean `{n}`? Otherwise "))
        .unwrap_or_default()
}

fn io_error(spec: &str, unread: Unread) -> RulesError {
    if let Unread::NotUtf8(file, at) = unread {
        return not_utf8(file, at);
    }
    RulesError::Io {
        path: spec.to_string(),
        reason: unread.reason(),
        builtins: builtins_list(),
        guess: guess_builtin(spec),
    }
}

/// A rule file whose bytes are not UTF-8: an error of the file at the
/// first bad byte (`file` shows each bad byte as U+FFFD), so that it is
/// reported as a problem of the input, not of reading it.
pub fn not_utf8(file: crate::diag::SourceFile, at: usize) -> RulesError {
    RulesError::Invalid {
        file: file.name.clone(),
        count: 1,
        warnings: 0,
        errors: vec![RuleError::Syntax {
            src: file.clone(),
            span: crate::diag::span(at, at + '\u{fffd}'.len_utf8()),
            label: "not UTF-8".to_string(),
            expected: "UTF-8 text".to_string(),
            found: format!("byte {at}, which is not part of a UTF-8 character"),
            help: "a rule file is UTF-8 text: save it as UTF-8".to_string(),
        }],
    }
}

/// Loads a rule set: `spec` is a built-in name or the path of a `.senet`
/// file (relative paths are resolved against `relative_to` when given, else
/// the working directory). `options` names the options to select.
///
/// ```
/// let kendall = senet::rules::load("kendall", None, &[]).unwrap();
/// assert_eq!(kendall.throws().values, [6, 1, 2, 3, 4]);
/// let k15a = senet::rules::load("kendall", None, &["K-15a".to_string()]).unwrap();
/// assert!(k15a.movement().gates.contains(26));
/// ```
pub fn load(
    spec: &str,
    relative_to: Option<&Path>,
    options: &[String],
) -> Result<Ruleset, RulesError> {
    let (origin, file) = source::resolve(spec, relative_to, Reading::AsGiven)
        .map_err(|unread| io_error(spec, unread))?;
    compile_from(origin, file, options, Reading::AsGiven)
}

/// Loads the rule set a game record names: a built-in name, or a file
/// that the [`Confinement`] allows for a record in `record_dir` (`None`
/// for a record read from standard input, which has no folder of its own).
/// A file that is missing and a file outside the allowed folders give the
/// same [`RulesError::Io`]; a file that may be read but is not a regular
/// file, is too large or is not text gives [`RulesError::Unusable`]; a
/// file that does not parse is named, never quoted.
///
/// ```
/// use senet::rules::{Confinement, RulesError};
/// let allowed = Confinement::default();
/// let thai = senet::rules::load_for_record("thai", None, &allowed, &[]).unwrap();
/// assert_eq!(thai.meta().name, "thai");
/// let e = senet::rules::load_for_record("/etc/hostname", None, &allowed, &[]).unwrap_err();
/// assert!(e.is_io());
/// ```
pub fn load_for_record(
    spec: &str,
    record_dir: Option<&Path>,
    confinement: &Confinement,
    options: &[String],
) -> Result<Ruleset, RulesError> {
    let roots = confinement.roots(record_dir);
    let reading = Reading::Confined {
        roots: &roots,
        max_bytes: confinement.max_bytes,
    };
    let (origin, file) =
        source::resolve(spec, record_dir, reading).map_err(|unread| match unread {
            Unread::NotFound | Unread::NotUtf8(..) => io_error(spec, unread),
            Unread::Unusable(reason) => RulesError::Unusable {
                path: spec.to_string(),
                reason,
            },
        })?;
    compile_from(origin, file, options, reading)
}

/// Compiles rule-file text already in memory. The file's name is used for
/// messages, for the rule set's name (its stem) and to resolve a relative
/// `extends`.
///
/// ```
/// use senet::diag::SourceFile;
/// let text = r#"
///     extends "kendall"
///     throws with 4 sticks: 0 -> 5, 1 -> 1, 2 -> 2, 3 -> 3, 4 -> 4   [T-2]
/// "#;
/// let r = senet::rules::load_source(SourceFile::new("five.senet", text), &[]).unwrap();
/// assert_eq!(r.meta().name, "five");
/// assert_eq!(r.throws().values, [5, 1, 2, 3, 4]);
///
/// let bad = SourceFile::new("bad.senet", "extends \"kendall\"\nat 31: gate\n");
/// let err = senet::rules::load_source(bad, &[]).unwrap_err();
/// assert_eq!(err.errors().len(), 1);
/// ```
pub fn load_source(file: SourceFile, options: &[String]) -> Result<Ruleset, RulesError> {
    let origin =
        match builtin::every_builtin().find(|n| file.name == format!("<builtin>/{n}.senet")) {
            Some(n) => Origin::builtin(n),
            None => Origin::path(PathBuf::from(&file.name)),
        };
    compile_from(origin, file, options, Reading::AsGiven)
}

/// sha256 hex of the bytes of the (top-level) rule file, for the SGN
/// `RulesDigest` tag.
pub fn digest(spec: &str, relative_to: Option<&Path>) -> Result<String, RulesError> {
    let (_, file) = source::resolve(spec, relative_to, Reading::AsGiven)
        .map_err(|unread| io_error(spec, unread))?;
    Ok(sha256_hex(&file.text))
}

/// [`digest`] of the rule file a record names, read as [`load_for_record`]
/// reads it.
pub fn digest_for_record(
    spec: &str,
    record_dir: Option<&Path>,
    confinement: &Confinement,
) -> Result<String, RulesError> {
    let roots = confinement.roots(record_dir);
    let reading = Reading::Confined {
        roots: &roots,
        max_bytes: confinement.max_bytes,
    };
    let (_, file) =
        source::resolve(spec, record_dir, reading).map_err(|unread| io_error(spec, unread))?;
    Ok(sha256_hex(&file.text))
}

/// [`digest`] of rule-file text already in memory (a rule file read from
/// standard input).
pub fn text_digest(text: &str) -> String {
    sha256_hex(text)
}

fn sha256_hex(text: &str) -> String {
    let hash = Sha256::digest(text.as_bytes());
    hash.iter().map(|b| format!("{b:02x}")).collect()
}

fn compile_from(
    origin: Origin,
    file: SourceFile,
    options: &[String],
    reading: Reading<'_>,
) -> Result<Ruleset, RulesError> {
    compile_checked(origin, file, options, reading, false).map(|(r, _)| r)
}

/// Checks a rule file as `senet rules check` does: every error, and the
/// warnings about dead values (a throw value never thrown, an entry rule
/// without a hand, a house never used, an exit where no throw bears a
/// piece off), all in line order. Warnings come
/// back beside the rule set when it compiles, and among the errors when it
/// does not.
///
/// ```
/// use senet::diag::SourceFile;
/// let text = "extends \"kendall\"\nextra throw on 1, 4, 6, 9   [K-6]\n";
/// let (_, warnings) = senet::rules::check_source(SourceFile::new("x.senet", text), &[]).unwrap();
/// assert_eq!(warnings.len(), 1);
/// assert!(warnings[0].is_warning());
/// ```
pub fn check(
    spec: &str,
    relative_to: Option<&Path>,
    options: &[String],
) -> Result<(Ruleset, Vec<RuleError>), RulesError> {
    let (origin, file) = source::resolve(spec, relative_to, Reading::AsGiven)
        .map_err(|unread| io_error(spec, unread))?;
    compile_checked(origin, file, options, Reading::AsGiven, true)
}

/// [`check`] for rule-file text already in memory, named as in
/// [`load_source`].
pub fn check_source(
    file: SourceFile,
    options: &[String],
) -> Result<(Ruleset, Vec<RuleError>), RulesError> {
    let origin =
        match builtin::every_builtin().find(|n| file.name == format!("<builtin>/{n}.senet")) {
            Some(n) => Origin::builtin(n),
            None => Origin::path(PathBuf::from(&file.name)),
        };
    compile_checked(origin, file, options, Reading::AsGiven, true)
}

fn compile_checked(
    origin: Origin,
    file: SourceFile,
    options: &[String],
    reading: Reading<'_>,
    with_warnings: bool,
) -> Result<(Ruleset, Vec<RuleError>), RulesError> {
    let top_name = file.name.clone();
    let stem = origin.stem();
    let mut errors = Vec::new();
    let (layers, gaps) = collect_layers(origin, file, reading, &mut errors);
    let mut warnings = Vec::new();
    if !layers.is_empty() {
        let compiled = lower::compile(&layers, &stem, options, &gaps);
        let from_options = compiled.ruleset.is_none()
            && errors.is_empty()
            && !options.is_empty()
            && lower::compile(&layers, &stem, &[], &gaps).ruleset.is_some();
        if from_options {
            errors.extend(against_options(compiled.errors, options));
        } else {
            errors.extend(compiled.errors);
        }
        if with_warnings {
            warnings = compiled.warnings;
        }
        if errors.is_empty()
            && let Some(r) = compiled.ruleset
        {
            in_line_order(&mut warnings, &layers);
            return Ok((r, warnings));
        }
    }
    // Counted once duplicates are gone.
    in_line_order(&mut errors, &layers);
    in_line_order(&mut warnings, &layers);
    let count = errors.len();
    let warned = warnings.len();
    errors.extend(warnings);
    in_line_order(&mut errors, &layers);
    errors.truncate(errors::MAX_SHOWN_ERRORS);
    Err(RulesError::Invalid {
        file: top_name,
        count,
        warnings: warned,
        errors,
    })
}

/// Errors that only the selected options cause, in a built-in file, are
/// the options' doing: they are reported against the options, not as
/// lines of the built-in file to edit. In the user's own files they keep
/// their place in the file.
fn against_options(errors: Vec<RuleError>, options: &[String]) -> Vec<RuleError> {
    let named: Vec<&str> = options
        .iter()
        .flat_map(|o| o.split(';'))
        .map(str::trim)
        .filter(|o| !o.is_empty())
        .collect();
    errors
        .into_iter()
        .map(|e| {
            let about_options = matches!(
                e,
                RuleError::UnknownOption { .. }
                    | RuleError::OptionRepeated { .. }
                    | RuleError::OptionConflict { .. }
            );
            let builtin = e.file_name().is_some_and(|f| f.starts_with("<builtin>/"));
            if about_options || !builtin {
                return e;
            }
            RuleError::OptionCombination {
                options: named
                    .iter()
                    .map(|o| format!("`{o}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                what: e.to_string(),
                help: "each option works alone; select fewer of them".into(),
            }
        })
        .collect()
}

/// Sorts problems by file (in chain order, base first) and, in each file,
/// by position; problems without a position (a missing declaration) come
/// after the others of their file. The same problem found twice at the
/// same place (a house off the board, checked where it is declared and
/// again as a square) is reported once.
fn in_line_order(errors: &mut Vec<RuleError>, layers: &[lower::Layer]) {
    errors.sort_by_cached_key(|e| {
        let file = e.file_name();
        let rank = layers
            .iter()
            .position(|l| Some(&l.file.name) == file.as_ref())
            .unwrap_or(layers.len());
        (rank, e.offset().unwrap_or(usize::MAX))
    });
    errors.dedup_by(|a, b| {
        a.offset().is_some()
            && a.offset() == b.offset()
            && a.file_name() == b.file_name()
            && a.to_string() == b.to_string()
    });
}

/// Parses a file and the files it extends, one after the other, and
/// returns them base first. Each file is looked up once and its identity
/// kept in a map, so a chain of `n` files costs `n` reads and lookups; a
/// chain longer than [`MAX_EXTENDS_CHAIN`] is an error. Errors come out
/// base first too: each file's own after those of the files it extends.
fn collect_layers(
    origin: Origin,
    file: SourceFile,
    reading: Reading<'_>,
    errors: &mut Vec<RuleError>,
) -> (Vec<lower::Layer>, lower::Gaps) {
    let mut gaps = lower::Gaps::default();
    let mut layers = Vec::new();
    // Per file of the chain, top first: the errors found in it.
    let mut found: Vec<Vec<RuleError>> = Vec::new();
    // The files of the chain by identity, with their place in `names`.
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut names: Vec<String> = Vec::new();
    let mut next = Some((origin, file));
    while let Some((origin, file)) = next.take() {
        let mut mine = Vec::new();
        let (ast, unparsed) = match reading {
            // A file named by a record that is not a rule file is named,
            // never quoted: it may be anything.
            Reading::Confined { .. } => match grammar::parse(&file) {
                Ok(ast) => (ast, false),
                Err(_) => {
                    mine.push(RuleError::NotRuleFile {
                        name: file.name.clone(),
                    });
                    found.push(mine);
                    gaps.chain_cut = true;
                    break;
                }
            },
            // A file the user named: every syntax error, and the
            // declarations that parse are checked too.
            Reading::AsGiven => {
                let recovered = grammar::parse_recovering(&file);
                let unparsed = !recovered.errors.is_empty();
                mine.extend(recovered.errors);
                match recovered.file {
                    Some(ast) => (ast, unparsed),
                    None => {
                        found.push(mine);
                        gaps.chain_cut = true;
                        break;
                    }
                }
            }
        };
        gaps.unparsed.push(unparsed);
        seen.insert(origin.id(), names.len());
        names.push(file.name.clone());
        if let Some(ext) = ast.extends.first() {
            let sp = crate::diag::span(ext.span.start, ext.span.end);
            let base = match &origin {
                // A built-in file may only extend built-ins.
                Origin::Builtin(_) if builtin_source(&ext.node).is_none() => {
                    Err("a built-in rule file can only extend built-in rule sets".to_string())
                }
                _ => {
                    let dir = origin.dir();
                    source::resolve(&ext.node, dir.as_deref().or(Some(Path::new("."))), reading)
                        .map_err(|u| u.reason())
                }
            };
            match base {
                Ok(_) if names.len() >= MAX_EXTENDS_CHAIN => {
                    gaps.chain_cut = true;
                    mine.push(RuleError::ChainTooLong {
                        src: file.clone(),
                        span: sp,
                        limit: MAX_EXTENDS_CHAIN,
                    });
                }
                Ok((o, f)) => match seen.get(&o.id()) {
                    Some(&pos) => {
                        gaps.chain_cut = true;
                        let chain: Vec<&str> = names[pos..]
                            .iter()
                            .map(String::as_str)
                            .chain([f.name.as_str()])
                            .collect();
                        mine.push(RuleError::OverlayCycle {
                            src: file.clone(),
                            span: sp,
                            chain: chain.join(" → "),
                        });
                    }
                    None => next = Some((o, f)),
                },
                Err(reason) => {
                    gaps.chain_cut = true;
                    mine.push(RuleError::UnknownBase {
                        src: file.clone(),
                        span: sp,
                        spec: ext.node.clone(),
                        reason,
                        builtins: builtins_list(),
                        guess: guess_builtin(&ext.node),
                    })
                }
            }
        }
        let first = ast.extends.first().map(|e| e.span);
        for ext in ast.extends.iter().skip(1) {
            let first = first.expect("a second `extends` has a first");
            mine.push(RuleError::Duplicate {
                src: file.clone(),
                span: crate::diag::span(ext.span.start, ext.span.end),
                first: crate::diag::span(first.start, first.end),
                what: "`extends`".into(),
            });
        }
        found.push(mine);
        layers.push(lower::Layer { file, ast });
    }
    errors.extend(found.into_iter().rev().flatten());
    layers.reverse();
    gaps.unparsed.reverse();
    (layers, gaps)
}
