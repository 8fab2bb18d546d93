//! The repository against its own documentation: every clause id cited
//! anywhere resolves in the digest of the sources (`docs/sources/`), no text
//! names a file that does not ship, and each built-in rule set's page lists
//! its options.

use senet::rules::sources;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The folders and files whose text the tests read: everything in the
/// repository but the build output.
const SCANNED: [&str; 10] = [
    "README.md",
    "Cargo.toml",
    "rules",
    "src",
    "docs",
    "games",
    "grammar",
    "tests",
    "benches",
    ".ci",
];

fn walk(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for e in entries {
            walk(&e, out);
        }
    } else {
        out.push(path.to_path_buf());
    }
}

/// Every scanned text file: (path relative to the root, text).
fn texts() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for s in SCANNED {
        walk(&root().join(s), &mut files);
    }
    files
        .into_iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(&p).ok()?;
            let rel = p.strip_prefix(root()).unwrap().display().to_string();
            Some((rel, text))
        })
        .collect()
}

/// The clause-shaped words of a line: `[K-9a, P-4]` → `K-9a`, `P-4`;
/// `A-3/lowest` → `A-3`; `T-15..T-17` → `T-15`, `T-17`.
fn clause_words(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| sources::is_clause_id(w))
}

/// Clause-shaped words that are not citations of the project's sources, and
/// where they may appear. `X-n` ids are left for users' own rule files (the
/// examples of docs/rules-language.md and the fixtures use them); the other
/// entries are the ids of one fixture each.
fn not_a_citation(path: &str, id: &str) -> bool {
    let prefix = id.split('-').next().unwrap_or("");
    match prefix {
        "X" => true,
        "UTF" => id == "UTF-8",
        // tests/fixtures/rules/ok/everything.senet cites ids of its own.
        "G" => path.contains("everything.senet"),
        // An error fixture: options that deliberately do not exist.
        _ => path.contains("unknown_option.senet") && (id == "T-14z" || id == "T-99"),
    }
}

#[test]
fn every_cited_clause_resolves_in_the_digest() {
    let defined: BTreeSet<&str> = sources::clauses().iter().map(|c| c.id).collect();
    let mut cited = 0;
    let mut unresolved = Vec::new();
    for (path, text) in texts() {
        // This file spells out the exceptions below.
        if path.ends_with("docs.rs") {
            continue;
        }
        for (n, line) in text.lines().enumerate() {
            // SVG path data (`d="M-13,-17 H13 Q6,0 …"`) is made of
            // clause-shaped words that cite nothing.
            if line.contains("d=\\\"M") || line.contains("d=\"M") {
                continue;
            }
            for id in clause_words(line) {
                if not_a_citation(&path, id) {
                    continue;
                }
                cited += 1;
                if !defined.contains(id) {
                    unresolved.push(format!("{path}:{}: {id}", n + 1));
                }
            }
        }
    }
    assert!(cited > 1000, "the scan found only {cited} citations");
    assert!(
        unresolved.is_empty(),
        "clause ids with no entry in docs/sources:\n{}",
        unresolved.join("\n")
    );
}

/// Names of files that exist only where the project was developed. Built
/// from parts so that this file does not name them itself.
fn unshipped_names() -> Vec<String> {
    let mut names: Vec<String> = ["RULES", "NOTATION", "RECONSTRUCTIONS", "READINGS", "STYLE"]
        .iter()
        .map(|n| format!("{n}.md"))
        .collect();
    names.push(format!("{}/", "shared"));
    names.push(format!("/{}/", "work"));
    names
}

/// A source's seed file name: three digits, `_`, sixteen hex digits.
fn has_seed_name(line: &str) -> bool {
    let b = line.as_bytes();
    (3..b.len()).any(|i| {
        b[i] == b'_'
            && b[i - 3..i].iter().all(u8::is_ascii_digit)
            && b.len() >= i + 17
            && b[i + 1..i + 17]
                .iter()
                .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(c))
    })
}

#[test]
fn no_text_names_a_file_that_does_not_ship() {
    let names = unshipped_names();
    let mut found = Vec::new();
    for (path, text) in texts() {
        for (n, line) in text.lines().enumerate() {
            for name in &names {
                if line.contains(name.as_str()) {
                    found.push(format!("{path}:{}: {name}", n + 1));
                }
            }
            if has_seed_name(line) {
                found.push(format!("{path}:{}: a seed file name", n + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "names of files that do not ship:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_seed_name_pattern_matches_only_seed_names() {
    assert!(has_seed_name(&format!("B: 002_{}.txt", "caaaf1d798830e91")));
    assert!(!has_seed_name("run_games_0001"));
    assert!(!has_seed_name("bga-0002.sgn"));
}

/// Each built-in rule set has a page, its source line points to it, and the
/// page lists every option the rule set offers.
#[test]
fn each_builtin_has_a_page_listing_its_options() {
    let pages = sources::pages();
    for name in senet::rules::builtin_names() {
        let r = senet::rules::load(name, None, &[]).unwrap();
        let page = pages
            .iter()
            .find(|p| p.file == format!("{name}.md"))
            .unwrap_or_else(|| panic!("no page docs/sources/{name}.md"));
        let link = format!("docs/sources/{}", page.file);
        assert!(
            r.meta().source.contains(&link),
            "{name}: its source line does not point to {link}: {}",
            r.meta().source
        );
        for (option, _) in &r.meta().options {
            assert!(
                page.text.contains(&format!("`{option}`")),
                "docs/sources/{}: option `{option}` of {name} is not listed",
                page.file
            );
        }
    }
}

/// The index lists every page, and every page's links to other pages work.
#[test]
fn the_index_lists_every_page() {
    let index = std::fs::read_to_string(root().join("docs/sources/README.md")).unwrap();
    let mut on_disk = Vec::new();
    walk(&root().join("docs/sources"), &mut on_disk);
    let on_disk: BTreeSet<String> = on_disk
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .filter(|f| f != "README.md")
        .collect();
    let embedded: BTreeSet<String> = sources::pages()
        .iter()
        .map(|p| p.file.to_string())
        .collect();
    assert_eq!(
        on_disk, embedded,
        "docs/sources and the embedded pages differ"
    );
    for file in &on_disk {
        assert!(
            index.contains(&format!("]({file})")),
            "docs/sources/README.md does not link {file}"
        );
    }
}

fn senet(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("the senet binary runs");
    (
        out.status.code().expect("exited normally"),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Words with single spaces, so that wrapped and unwrapped text compare.
fn words(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn explain_prints_the_clause_from_the_digest_and_what_cites_it() {
    let (code, out, err) = senet(&["rules", "explain", "K-9a"]);
    assert_eq!(code, 0, "{err}");
    let k9a = sources::find("K-9a").unwrap();
    let first_paragraph = out.split("\n\n").next().unwrap();
    assert_eq!(words(first_paragraph), format!("K-9a {}", k9a.text));
    assert!(out.contains("from: docs/sources/kendall.md"), "{out}");
    // The line of `rules show kendall` that cites K-9a, word for word.
    let (_, show, _) = senet(&["rules", "show", "kendall"]);
    let cited = show.lines().find(|l| l.contains("K-9a")).unwrap().trim();
    assert!(words(&out).contains(&format!("kendall: {cited}")), "{out}");
    insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("explain_K-9a", out);
    });
}

#[test]
fn explain_shows_an_option_that_replaces_a_line() {
    let (code, out, err) = senet(&["rules", "explain", "T-17", "--rules", "thai"]);
    assert_eq!(code, 0, "{err}");
    let changed = out
        .split("changed by")
        .nth(1)
        .expect("a changed-by section");
    let changed = words(changed);
    assert!(changed.contains("thai --option T-17b:"), "{out}");
    assert!(
        changed.contains(
            "- Square 30 (House of Horus): a piece here bears off only with a throw of 1. [T-17]"
        ),
        "{out}"
    );
    assert!(
        changed.contains(
            "+ Square 30 (House of Horus): a piece here bears off with any throw. [T-17b]"
        ),
        "{out}"
    );
    // Only the rule set asked for.
    assert!(!out.contains("meub"), "{out}");
}

#[test]
fn explain_takes_an_option_name_for_its_clause() {
    let (code, out, err) = senet(&["rules", "explain", "A-3/lowest"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("A-3  "), "{out}");
    for name in ["thai", "kendall", "bga", "meub"] {
        assert!(
            out.contains(&format!("  {name} --option A-3/lowest: ")),
            "{name}: {out}"
        );
    }
}

#[test]
fn explain_refuses_an_unknown_id_with_a_suggestion() {
    let (code, out, err) = senet(&["rules", "explain", "k-9a"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("senet::rules::unknown_clause"), "{err}");
    assert!(err.contains("did you mean `K-9a`?"), "{err}");
    let (code, _, err) = senet(&["rules", "explain", "K-99"]);
    assert_eq!(code, 2);
    assert!(
        words(&err).contains("the `K` clauses are K-1, K-2,"),
        "{err}"
    );
}

/// Every line of every built-in rule set in words is found by `explain`
/// under each clause it cites, and every option of a built-in shows up
/// under the clause it is named after.
#[test]
fn explain_finds_every_citation_of_the_builtins() {
    for name in senet::rules::builtin_names() {
        let r = senet::rules::load(name, None, &[]).unwrap();
        let specs = [name.to_string()];
        let mut ids: BTreeSet<&str> = BTreeSet::new();
        for (_, clauses) in &r.meta().explained {
            ids.extend(clauses.split(',').map(str::trim).filter(|c| !c.is_empty()));
        }
        for (option, _) in &r.meta().options {
            ids.extend(sources::clause_of_option(option));
        }
        for id in ids {
            let clause = sources::find(id).unwrap_or_else(|| panic!("{name}: {id} unresolved"));
            let out = words(&senet::cli::rules::explain(&clause, &specs).unwrap());
            for (text, clauses) in &r.meta().explained {
                if clauses.split(',').any(|c| c.trim() == id) {
                    let line = words(&format!("{name}: {text} [{clauses}]"));
                    assert!(out.contains(&line), "{id} misses {line}");
                }
            }
            for (option, _) in &r.meta().options {
                if sources::clause_of_option(option) == Some(id) {
                    assert!(
                        out.contains(&format!("{name} --option {option}:")),
                        "{id}: {option}"
                    );
                }
            }
        }
    }
}

/// The arguments of a README command line: `senet` and a trailing
/// `# comment` dropped, double quotes grouping words.
fn command_args(line: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut in_word) = (false, false);
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                in_word = true;
            }
            '#' if !quoted && !in_word => break,
            c if c.is_whitespace() && !quoted => {
                if in_word {
                    args.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        args.push(word);
    }
    assert_eq!(args.first().map(String::as_str), Some("senet"), "{line}");
    args.remove(0);
    args
}

/// Whether `actual` shows the `expected` lines in order, where a line
/// `...` stands for any number of lines left out; without a `...` at
/// either end, the output must start or end there.
fn shows(expected: &[&str], actual: &str) -> Result<(), String> {
    let actual: Vec<&str> = actual.lines().map(str::trim_end).collect();
    let segments: Vec<Vec<&str>> = expected
        .split(|l| l.trim() == "...")
        .map(|s| s.iter().map(|l| l.trim_end()).collect())
        .collect();
    let mut at = 0;
    let last = segments.len() - 1;
    for (i, seg) in segments.iter().enumerate() {
        if seg.is_empty() {
            continue;
        }
        let fits = |k: usize| actual.len() >= k + seg.len() && actual[k..k + seg.len()] == seg[..];
        let found = if i == 0 {
            fits(0).then_some(0)
        } else {
            (at..actual.len()).find(|&k| fits(k))
        };
        let Some(k) = found else {
            return Err(format!(
                "these lines are not in the output:\n{}",
                seg.join("\n")
            ));
        };
        at = k + seg.len();
        if i == last && at != actual.len() {
            return Err(format!("the output goes on after:\n{}", seg.join("\n")));
        }
    }
    Ok(())
}

#[test]
fn shows_matches_in_order_with_elisions() {
    let out = "a\nb\nc\nd\n";
    assert!(shows(&["a", "...", "c", "d"], out).is_ok());
    assert!(shows(&["a", "b", "..."], out).is_ok());
    assert!(shows(&["...", "b", "c", "..."], out).is_ok());
    assert!(shows(&["a", "c", "..."], out).is_err());
    assert!(shows(&["a", "..."], "b\na\n").is_err());
    assert!(shows(&["...", "c"], out).is_err());
    assert!(shows(&["...", "c", "b", "..."], out).is_err());
    assert_eq!(
        command_args(r#"senet moves --position "WB8/10/10 w 0-0 - 1" --throw 3   # note"#),
        ["moves", "--position", "WB8/10/10 w 0-0 - 1", "--throw", "3"]
    );
}

/// Every `$ senet …` line in a ```text block of the README is run from the
/// repository root; what follows it, up to the next `$` line or the end of
/// the block, must be its output (standard error, then standard output).
#[test]
fn readme_examples_match_the_program() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut commands = 0;
    let mut failures = Vec::new();
    for block in readme.split("```text\n").skip(1) {
        let block = block.split("\n```").next().unwrap();
        let mut lines = block.lines().peekable();
        while let Some(line) = lines.next() {
            let Some(command) = line.strip_prefix("$ ") else {
                panic!("README: a text block line outside a command's output: {line}");
            };
            let mut expected = Vec::new();
            while let Some(l) = lines.next_if(|l| !l.starts_with("$ ")) {
                expected.push(l);
            }
            let args = command_args(command);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let (_, out, err) = senet(&args);
            commands += 1;
            if let Err(why) = shows(&expected, &format!("{err}{out}")) {
                failures.push(format!("$ {command}\n{why}\n--- real output:\n{err}{out}"));
            }
        }
    }
    assert!(commands >= 8, "only {commands} README commands were run");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// docs/check.md quotes, under each diagnostic code, the message (and
/// sometimes the help) that the code's fixtures produce: `> message` or
/// `> message   (rule: K-9a, P-4)`, and `> help: text`. Each quote must be
/// what `senet check` really says for one of the fixtures the section names.
#[test]
fn check_md_quotes_the_real_messages() {
    let doc = std::fs::read_to_string(root().join("docs/check.md")).unwrap();
    let mut quotes = 0;
    let mut wrong = Vec::new();
    for section in doc.split("\n#### ").skip(1) {
        let code = section.split('`').nth(1).unwrap_or("?");
        let mut findings: Vec<serde_json::Value> = Vec::new();
        let names: BTreeSet<&str> = section
            .split(|c: char| !(c.is_ascii_alphanumeric() || "._-".contains(c)))
            .filter(|w| w.ends_with(".sgn"))
            .collect();
        for name in names {
            for dir in ["err", "err-syntax", "ok", "ok-check"] {
                let path = format!("tests/fixtures/sgn/{dir}/{name}");
                if root().join(&path).exists() {
                    let (_, out, _) = senet(&["check", "--format", "json", &path]);
                    findings.extend(
                        out.lines()
                            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
                            .filter(|v| v.get("message").is_some()),
                    );
                }
            }
        }
        for quote in section.lines().filter_map(|l| l.strip_prefix("> ")) {
            quotes += 1;
            let found = if let Some(help) = quote.strip_prefix("help:") {
                findings
                    .iter()
                    .any(|f| f["help"].as_str().unwrap_or("").contains(help.trim()))
            } else {
                let (message, clause) = match quote.split_once("   (rule: ") {
                    Some((m, c)) => (m.trim(), Some(c.trim_end_matches(')'))),
                    None => (quote.trim(), None),
                };
                findings
                    .iter()
                    .any(|f| f["message"] == message && clause.is_none_or(|c| f["clause"] == c))
            };
            if !found {
                let real: Vec<String> = findings
                    .iter()
                    .map(|f| format!("{} (rule: {})", f["message"], f["clause"]))
                    .collect();
                wrong.push(format!(
                    "{code}: `> {quote}`\n  real: {}",
                    real.join("\n        ")
                ));
            }
        }
    }
    assert!(quotes >= 30, "only {quotes} quotes found in docs/check.md");
    assert!(
        wrong.is_empty(),
        "docs/check.md quotes messages the program does not give:\n{}",
        wrong.join("\n")
    );
}

/// The ids cited in brackets anywhere in a text: `[LB-4, C-6]` → `LB-4`,
/// `C-6`.
fn bracketed_ids(text: &str) -> BTreeSet<&str> {
    let mut ids = BTreeSet::new();
    for part in text.split('[').skip(1) {
        let Some((inside, _)) = part.split_once(']') else {
            continue;
        };
        ids.extend(
            inside
                .split(',')
                .map(str::trim)
                .filter(|w| sources::is_clause_id(w)),
        );
    }
    ids
}

/// A program's reading cites every point of its page in its rule file: on
/// the declaration that implements it, or, for a point no declaration
/// carries (a deviation note, a behaviour the record decides), in a comment
/// line that names it in brackets, `# [LB-8] ...`.
#[test]
fn each_program_reading_cites_every_point_of_its_page() {
    let mut readings = 0;
    for name in senet::rules::builtin_names() {
        if senet::rules::builtin_group(name) != Some(senet::rules::Group::Program) {
            continue;
        }
        readings += 1;
        let text = senet::rules::builtin_source(name).unwrap();
        let cited = bracketed_ids(text);
        let page = format!("{name}.md");
        let points: Vec<_> = sources::clauses()
            .into_iter()
            .filter(|c| c.page.file == page)
            .collect();
        assert!(!points.is_empty(), "docs/sources/{page} defines no point");
        let uncited: Vec<&str> = points
            .iter()
            .map(|c| c.id)
            .filter(|id| !cited.contains(id))
            .collect();
        assert!(
            uncited.is_empty(),
            "rules/{name}.senet cites no {}",
            uncited.join(", ")
        );
    }
    assert!(readings > 0, "no built-in program reading");
}

/// docs/sgn.md is the standalone notation spec: its `Rules` tag row names
/// every listed built-in rule set.
#[test]
fn the_rules_tag_row_of_sgn_md_names_every_builtin() {
    let sgn = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/sgn.md")).unwrap();
    let row = sgn
        .lines()
        .find(|l| l.starts_with("| `Rules` |"))
        .expect("docs/sgn.md has a `Rules` tag row");
    for name in senet::rules::builtin_names() {
        assert!(
            row.contains(&format!("`{name}`")),
            "the `Rules` row does not name {name}"
        );
    }
}
