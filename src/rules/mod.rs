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
mod summary;

pub use builtin::{builtin_names, builtin_source};
pub use errors::{RuleError, RulesError};
pub use summary::summary;

use crate::diag::SourceFile;
use crate::engine::Ruleset;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// Where a rule file came from: a built-in name or a file on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Origin {
    Builtin(&'static str),
    Path(PathBuf),
}

impl Origin {
    fn stem(&self) -> String {
        match self {
            Origin::Builtin(n) => n.to_string(),
            Origin::Path(p) => p
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
        }
    }
    /// The identity used for cycle detection.
    fn id(&self) -> String {
        match self {
            Origin::Builtin(n) => format!("<builtin>/{n}.senet"),
            Origin::Path(p) => std::fs::canonicalize(p)
                .unwrap_or_else(|_| p.clone())
                .display()
                .to_string(),
        }
    }
}

fn builtins_list() -> String {
    builtin_names().join(", ")
}

/// Resolves a spec (built-in name or path) to an origin and its source text.
fn resolve(spec: &str, relative_to: Option<&Path>) -> Result<(Origin, SourceFile), String> {
    if let Some(text) = builtin_source(spec) {
        let name = builtin::builtin_name(spec).unwrap_or("builtin");
        return Ok((
            Origin::Builtin(name),
            SourceFile::new(format!("<builtin>/{name}.senet"), text),
        ));
    }
    let path = match relative_to {
        Some(dir) if Path::new(spec).is_relative() => dir.join(spec),
        _ => PathBuf::from(spec),
    };
    let text = std::fs::read_to_string(&path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            "no built-in rule set has this name and no such file exists".to_string()
        } else {
            e.to_string()
        }
    })?;
    Ok((
        Origin::Path(path.clone()),
        SourceFile::new(path.display().to_string(), text),
    ))
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
    let (origin, file) = resolve(spec, relative_to).map_err(|reason| RulesError::Io {
        path: spec.to_string(),
        reason,
        builtins: builtins_list(),
    })?;
    compile_from(origin, file, options)
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
            Some(n) => Origin::Builtin(n),
            None => Origin::Path(PathBuf::from(&file.name)),
        };
    compile_from(origin, file, options)
}

/// sha256 hex of the bytes of the (top-level) rule file, for the SGN
/// `RulesDigest` tag.
pub fn digest(spec: &str, relative_to: Option<&Path>) -> Result<String, RulesError> {
    let (_, file) = resolve(spec, relative_to).map_err(|reason| RulesError::Io {
        path: spec.to_string(),
        reason,
        builtins: builtins_list(),
    })?;
    let hash = Sha256::digest(file.text.as_bytes());
    Ok(hash.iter().map(|b| format!("{b:02x}")).collect())
}

fn compile_from(
    origin: Origin,
    file: SourceFile,
    options: &[String],
) -> Result<Ruleset, RulesError> {
    let top_name = file.name.clone();
    let stem = origin.stem();
    let mut errors = Vec::new();
    let mut layers = Vec::new();
    let mut chain = Vec::new();
    collect_layers(origin, file, &mut chain, &mut layers, &mut errors);
    if errors.is_empty() {
        match lower::compile(&layers, &stem, options) {
            Ok(r) => return Ok(r),
            Err(e) => errors = e,
        }
    }
    Err(RulesError::Invalid {
        file: top_name,
        count: errors.len(),
        errors,
    })
}

/// Parses a file and, first, the files it extends (depth first), pushing
/// them base first onto `layers`. `chain` holds the files being loaded, to
/// detect cycles.
fn collect_layers(
    origin: Origin,
    file: SourceFile,
    chain: &mut Vec<(String, String)>,
    layers: &mut Vec<lower::Layer>,
    errors: &mut Vec<RuleError>,
) {
    let ast = match grammar::parse(&file) {
        Ok(ast) => ast,
        Err(e) => {
            errors.push(*e);
            return;
        }
    };
    chain.push((origin.id(), file.name.clone()));
    let dir = match &origin {
        Origin::Path(p) => p.parent().map(Path::to_path_buf),
        Origin::Builtin(_) => None,
    };
    for (i, ext) in ast.extends.iter().enumerate() {
        let sp = crate::diag::span(ext.span.start, ext.span.end);
        if i > 0 {
            let first = &ast.extends[0].span;
            errors.push(RuleError::Duplicate {
                src: file.named(),
                span: sp,
                first: crate::diag::span(first.start, first.end),
                what: "`extends`".into(),
            });
            continue;
        }
        let base = match &origin {
            // A built-in file may only extend built-ins.
            Origin::Builtin(_) if builtin_source(&ext.node).is_none() => {
                Err("a built-in rule file can only extend built-in rule sets".to_string())
            }
            _ => resolve(&ext.node, dir.as_deref().or(Some(Path::new(".")))),
        };
        match base {
            Ok((o, f)) => {
                if let Some(pos) = chain.iter().position(|(id, _)| *id == o.id()) {
                    let names: Vec<&str> = chain[pos..]
                        .iter()
                        .map(|(_, n)| n.as_str())
                        .chain([f.name.as_str()])
                        .collect();
                    errors.push(RuleError::OverlayCycle {
                        src: file.named(),
                        span: sp,
                        chain: names.join(" → "),
                    });
                } else {
                    collect_layers(o, f, chain, layers, errors);
                }
            }
            Err(reason) => errors.push(RuleError::UnknownBase {
                src: file.named(),
                span: sp,
                spec: ext.node.clone(),
                reason,
                builtins: builtins_list(),
            }),
        }
    }
    chain.pop();
    layers.push(lower::Layer { file, ast });
}
