//! Hand-written move-generation scenarios: an oracle independent of the
//! engine. Each `tests/scenarios/<rules>.scn` holds blocks of a position, a
//! throw and the exact set of legal units in canonical SGN form, derived by
//! hand from docs/sources; `after:` lines check `play`. Every failing scenario is
//! reported in one panic, and every clause of each rule set must be cited by
//! some scenario (coverage).

use senet::engine::{Position, Ruleset, Unit};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

/// Fewest scenarios a rule set's file may hold.
const MIN_PER_FILE: usize = 25;

/// The clause ids of docs/sources per rule set (file stem), plus the named
/// variants and the ambiguity rows and precise points that concern it: each
/// must appear in some `clause:` line of that file.
fn required_clauses(rules: &str) -> Vec<String> {
    fn range(prefix: &str, n: u32) -> Vec<String> {
        (1..=n).map(|i| format!("{prefix}-{i}")).collect()
    }
    let (mut ids, extra): (Vec<String>, &[&str]) = match rules {
        "thai" => (
            range("T", 18),
            &[
                "T-9b", "T-10b", "T-14b", "T-14c", "T-17b", "A-1", "A-9", "A-11", "P-2", "P-3",
            ],
        ),
        "kendall" => (
            range("K", 15),
            &[
                "K-9a", "K-9b", "K-15a", "K-15b", "K-15c", "K-15d", "A-1", "A-2", "A-3", "A-4",
                "A-10", "P-1", "P-2", "P-4",
            ],
        ),
        "bga" => (
            range("B", 15),
            &["A-1", "A-4", "A-7", "A-8", "A-9", "A-14", "P-5"],
        ),
        "ryabinin" => (
            range("R", 15),
            &["A-5", "A-6", "A-12", "A-13", "P-1", "P-6"],
        ),
        "kendall1979" => (range("KD", 11), &[]),
        "jequier" => (range("JQ", 10), &[]),
        "meub" => (range("MB", 1), &[]),
        "horolsky-meub" => (range("HM", 9), &["HM-9a", "HM-9b"]),
        "bell" => (range("BL", 7), &[]),
        "piccione" => (range("PC", 8), &[]),
        // A program's reading: every point of its page.
        _ => (
            senet::rules::sources::clauses()
                .into_iter()
                .filter(|c| c.page.file == format!("{rules}.md"))
                .map(|c| c.id.to_string())
                .collect(),
            &[],
        ),
    };
    ids.extend(extra.iter().map(|s| s.to_string()));
    ids
}

#[derive(Debug, Default)]
struct Scenario {
    file: PathBuf,
    line: usize,
    name: String,
    clauses: Vec<String>,
    rules: String,
    options: Vec<String>,
    position: String,
    /// `None`: the units due without a throw (`free_units`).
    throw: Option<u8>,
    legal: Vec<String>,
    /// (line, unit, expected position after it)
    after: Vec<(usize, String, String)>,
}

fn parse_file(path: &Path) -> Result<Vec<Scenario>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    let mut cur: Option<Scenario> = None;
    let mut errors = Vec::new();
    let finish = |cur: &mut Option<Scenario>, out: &mut Vec<Scenario>, errors: &mut Vec<String>| {
        if let Some(s) = cur.take() {
            let mut missing = Vec::new();
            if s.name.is_empty() {
                missing.push("scenario");
            }
            if s.rules.is_empty() {
                missing.push("rules");
            }
            if s.position.is_empty() {
                missing.push("position");
            }
            if s.clauses.is_empty() {
                missing.push("clause");
            }
            if missing.is_empty() {
                out.push(s);
            } else {
                errors.push(format!(
                    "{}:{}: scenario block lacks {}",
                    s.file.display(),
                    s.line,
                    missing.join(", ")
                ));
            }
        }
    };
    let mut seen_throw = false;
    let mut seen_legal = false;
    for (i, raw) in text.lines().enumerate() {
        let lineno = i + 1;
        let line = match raw.find('#') {
            Some(p) => &raw[..p],
            None => raw,
        }
        .trim();
        if raw.trim().is_empty() {
            if let Some(s) = &cur
                && (!seen_throw || !seen_legal)
            {
                errors.push(format!(
                    "{}:{}: scenario `{}` lacks throw: or legal:",
                    path.display(),
                    s.line,
                    s.name
                ));
            }
            finish(&mut cur, &mut out, &mut errors);
            continue;
        }
        if line.is_empty() {
            continue; // a comment line
        }
        let Some((key, value)) = line.split_once(':') else {
            errors.push(format!(
                "{}:{lineno}: expected `key: value`",
                path.display()
            ));
            continue;
        };
        let value = value.trim();
        let s = cur.get_or_insert_with(|| {
            seen_throw = false;
            seen_legal = false;
            Scenario {
                file: path.to_path_buf(),
                line: lineno,
                ..Default::default()
            }
        });
        match key.trim() {
            "scenario" => s.name = value.to_string(),
            "clause" => s.clauses.extend(
                value
                    .split([' ', ',', ';'])
                    .filter(|c| !c.is_empty())
                    .map(str::to_string),
            ),
            "rules" => s.rules = value.to_string(),
            "options" => s.options.extend(
                value
                    .split(';')
                    .map(str::trim)
                    .filter(|o| !o.is_empty())
                    .map(str::to_string),
            ),
            "position" => s.position = value.to_string(),
            "throw" => {
                seen_throw = true;
                if value == "none" {
                    s.throw = None;
                } else {
                    match value.trim_end_matches('+').parse::<u8>() {
                        Ok(v) => s.throw = Some(v),
                        Err(_) => {
                            errors.push(format!("{}:{lineno}: bad throw `{value}`", path.display()))
                        }
                    }
                }
            }
            "legal" => {
                seen_legal = true;
                s.legal.extend(value.split_whitespace().map(str::to_string));
            }
            "after" => match value.split_once("=>") {
                Some((unit, pos)) => {
                    s.after
                        .push((lineno, unit.trim().to_string(), pos.trim().to_string()))
                }
                None => errors.push(format!(
                    "{}:{lineno}: `after:` is `<unit> => <position>`",
                    path.display()
                )),
            },
            other => errors.push(format!(
                "{}:{lineno}: unknown key `{other}`",
                path.display()
            )),
        }
    }
    if let Some(s) = &cur
        && (!seen_throw || !seen_legal)
    {
        errors.push(format!(
            "{}:{}: scenario `{}` lacks throw: or legal:",
            path.display(),
            s.line,
            s.name
        ));
    }
    finish(&mut cur, &mut out, &mut errors);
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors.join("\n"))
    }
}

fn panic_text(p: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_string()
    }
}

/// Runs one scenario; returns the problems found (empty: it passed).
fn run(
    s: &Scenario,
    cache: &mut BTreeMap<(String, Vec<String>), Result<Ruleset, String>>,
) -> Vec<String> {
    let mut problems = Vec::new();
    let key = (s.rules.clone(), s.options.clone());
    let rules = cache.entry(key).or_insert_with(|| {
        let options = s.options.clone();
        match catch_unwind(AssertUnwindSafe(|| {
            senet::rules::load(&s.rules, None, &options)
        })) {
            Ok(Ok(r)) => Ok(r),
            Ok(Err(e)) => Err(format!(
                "rule set `{}` with options {:?} does not load: {e:?}",
                s.rules, s.options
            )),
            Err(p) => Err(format!(
                "loading rule set `{}` panicked: {}",
                s.rules,
                panic_text(p)
            )),
        }
    });
    let rules = match rules {
        Ok(r) => r,
        Err(e) => return vec![e.clone()],
    };
    let pos = match Position::parse(&s.position, rules.board().len, rules.board().row_len) {
        Ok(p) => p,
        Err(e) => return vec![format!("position `{}` does not parse: {e}", s.position)],
    };
    let written = pos.write(30, 10);
    if written != s.position {
        problems.push(format!(
            "position `{}` is not canonical: reads back as `{written}`",
            s.position
        ));
    }
    let mut units: Vec<Unit> = Vec::new();
    let generated = catch_unwind(AssertUnwindSafe(|| {
        let mut out = Vec::new();
        match s.throw {
            Some(t) => rules.legal_units(&pos, t, &mut out),
            None => rules.free_units(&pos, &mut out),
        }
        out
    }));
    match generated {
        Ok(u) => units = u,
        Err(p) => problems.push(format!("move generation panicked: {}", panic_text(p))),
    }
    let got: Vec<String> = units.iter().map(|u| u.to_string()).collect();
    let got_set: BTreeSet<&str> = got.iter().map(String::as_str).collect();
    let want_set: BTreeSet<&str> = s.legal.iter().map(String::as_str).collect();
    if want_set.len() != s.legal.len() {
        problems.push("the expected set lists a unit twice".to_string());
    }
    if got_set.len() != got.len() {
        problems.push(format!(
            "the engine generated a unit twice: {}",
            got.join(" ")
        ));
    }
    if got_set != want_set {
        let missing: Vec<&str> = want_set.difference(&got_set).copied().collect();
        let unexpected: Vec<&str> = got_set.difference(&want_set).copied().collect();
        problems.push(format!(
            "legal units differ\n      expected:   {}\n      got:        {}\n      missing:    {}\n      unexpected: {}",
            s.legal.join(" "),
            got.join(" "),
            missing.join(" "),
            unexpected.join(" "),
        ));
    }
    for (line, unit_text, expected) in &s.after {
        let Some(unit) = units.iter().find(|u| u.to_string() == *unit_text) else {
            problems.push(format!(
                "line {line}: after `{unit_text}`: the engine did not generate this unit"
            ));
            continue;
        };
        match catch_unwind(AssertUnwindSafe(|| rules.play(&pos, unit))) {
            Ok(Ok((next, _effects))) => {
                let got = next.write(30, 10);
                if got != *expected {
                    problems.push(format!(
                        "line {line}: after `{unit_text}`\n      expected: {expected}\n      got:      {got}"
                    ));
                }
            }
            Ok(Err(refusal)) => problems.push(format!(
                "line {line}: play(`{unit_text}`) refused: {refusal:?}"
            )),
            Err(p) => problems.push(format!(
                "line {line}: play(`{unit_text}`) panicked: {}",
                panic_text(p)
            )),
        }
    }
    problems
}

#[test]
fn scenarios() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "scn"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no scenario files in {}", dir.display());

    let mut report = String::new();
    let mut failed = 0usize;
    let mut total = 0usize;
    let mut cache = BTreeMap::new();
    // Silence the default hook while engine panics are caught per scenario.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for file in &files {
        let stem = file.file_stem().unwrap().to_string_lossy().to_string();
        let scenarios = match parse_file(file) {
            Ok(s) => s,
            Err(e) => {
                writeln!(report, "{e}").unwrap();
                failed += 1;
                continue;
            }
        };
        if scenarios.len() < MIN_PER_FILE {
            writeln!(
                report,
                "{}: only {} scenarios (at least {MIN_PER_FILE} wanted)",
                file.display(),
                scenarios.len()
            )
            .unwrap();
            failed += 1;
        }
        let cited: BTreeSet<&str> = scenarios
            .iter()
            .flat_map(|s| s.clauses.iter().map(String::as_str))
            .collect();
        // `K-9a` also cites `K-9`.
        let covers = |id: &str| {
            cited.contains(id)
                || cited
                    .iter()
                    .any(|c| c.trim_end_matches(|ch: char| ch.is_ascii_lowercase()) == id)
        };
        let uncovered: Vec<String> = required_clauses(&stem)
            .into_iter()
            .filter(|id| !covers(id))
            .collect();
        if !uncovered.is_empty() {
            writeln!(
                report,
                "{}: no scenario cites {}",
                file.display(),
                uncovered.join(", ")
            )
            .unwrap();
            failed += 1;
        }
        for s in &scenarios {
            total += 1;
            if s.rules != stem {
                writeln!(
                    report,
                    "{}:{}: scenario `{}` uses rules `{}` in {stem}.scn",
                    file.display(),
                    s.line,
                    s.name,
                    s.rules
                )
                .unwrap();
            }
            let problems = run(s, &mut cache);
            if !problems.is_empty() {
                failed += 1;
                writeln!(
                    report,
                    "\n{}:{}: `{}` [{}] options [{}]\n    position {}  throw {}",
                    file.display(),
                    s.line,
                    s.name,
                    s.clauses.join(" "),
                    s.options.join("; "),
                    s.position,
                    s.throw.map_or("none".to_string(), |t| t.to_string()),
                )
                .unwrap();
                for p in problems {
                    writeln!(report, "    {p}").unwrap();
                }
            }
        }
    }
    std::panic::set_hook(hook);
    if !report.is_empty() {
        panic!("{failed} problem(s) in {total} scenarios:\n{report}");
    }
}
