//! The digest of the sources: the pages of `docs/sources/`, compiled into
//! the binary, and the clause ids they define.
//!
//! Stage: embedded Markdown in, [`Clause`] lookups out. Every id that a rule
//! file cites (`[K-9a]`), that a message names or that a record's
//! `[%rule …]` uses is an entry of one page: a list item that opens with the
//! id in bold, `- **K-9a** text`, its text running on in lines indented by
//! two spaces. `senet rules explain` prints an entry; a repository test
//! checks that every id cited anywhere has one.

/// A page of `docs/sources/`: its file name and text.
macro_rules! page {
    ($stem:literal) => {
        (
            concat!($stem, ".md"),
            include_str!(concat!("../../docs/sources/", $stem, ".md")),
        )
    };
}

/// The pages, in the order of the index (`docs/sources/README.md`).
const PAGES: &[(&str, &str)] = &[
    page!("thai"),
    page!("kendall"),
    page!("bga"),
    page!("ryabinin"),
    page!("readings"),
    page!("kendall1979"),
    page!("bell"),
    page!("piccione"),
    page!("jequier"),
    page!("meub"),
    page!("programs"),
    page!("horolsky-meub"),
    page!("horolsky-kendall"),
    page!("ludii-bell"),
    page!("ludii-jequier"),
    page!("ludii-kendall"),
    page!("ludii-piccione"),
    page!("macabot"),
    page!("gym-senet-kendall"),
    page!("gym-senet-skiryuk"),
];

/// One page of the digest: a source or a published reconstruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    /// The file name in `docs/sources/` (`kendall.md`).
    pub file: &'static str,
    /// The page's heading (`K — the Kendall-style rules`).
    pub title: &'static str,
    /// Its `Rule set:` line: the built-in rule sets that follow it.
    pub rule_sets: &'static str,
    /// Its `Source:` line: the bibliographic source.
    pub source: &'static str,
    /// The whole text of the page.
    pub text: &'static str,
}

/// One clause of the digest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clause {
    /// The id, as cited: `K-9a`.
    pub id: &'static str,
    /// The clause in words, its lines joined by single spaces.
    pub text: String,
    /// The page that defines it.
    pub page: Page,
}

/// Every page of the digest.
pub fn pages() -> Vec<Page> {
    PAGES.iter().map(|&(file, text)| page(file, text)).collect()
}

fn page(file: &'static str, text: &'static str) -> Page {
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .map(str::trim)
            .unwrap_or("")
    };
    Page {
        file,
        title: field("# "),
        rule_sets: field("Rule set:"),
        source: field("Source:"),
        text,
    }
}

/// Every clause of the digest, page by page, in the order written.
pub fn clauses() -> Vec<Clause> {
    pages().into_iter().flat_map(page_clauses).collect()
}

/// The clause with this id, if the digest defines it.
pub fn find(id: &str) -> Option<Clause> {
    clauses().into_iter().find(|c| c.id == id)
}

fn page_clauses(page: Page) -> Vec<Clause> {
    let mut out: Vec<Clause> = Vec::new();
    let mut open = false;
    for line in page.text.lines() {
        if let Some((id, rest)) = entry_start(line) {
            out.push(Clause {
                id,
                text: rest.trim().to_string(),
                page,
            });
            open = true;
        } else if open && line.starts_with("  ") && !line.trim().is_empty() {
            // A continuation line of the open entry (two-space indent).
            if let Some(c) = out.last_mut() {
                c.text.push(' ');
                c.text.push_str(line.trim());
            }
        } else {
            open = false;
        }
    }
    out
}

/// `- **K-9a** text` → (`K-9a`, `text`).
fn entry_start(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix("- **")?;
    let (id, text) = rest.split_once("**")?;
    is_clause_id(id).then_some((id, text))
}

/// Whether `s` has the shape of a clause id: capital letters, a hyphen, a
/// number and optional lower-case letters (`K-9a`, `A-10`, `KD-4`). Option
/// names may add `/word` (`A-3/lowest`); that is not part of the clause id.
pub fn is_clause_id(s: &str) -> bool {
    let Some((prefix, rest)) = s.split_once('-') else {
        return false;
    };
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    !prefix.is_empty()
        && prefix.chars().all(|c| c.is_ascii_uppercase())
        && digits > 0
        && rest[digits..].chars().all(|c| c.is_ascii_lowercase())
}

/// The clause an option name stands for: `A-3/lowest` → `A-3`, `K-15a` →
/// `K-15a`; a plain option name (`five`) stands for none.
pub fn clause_of_option(name: &str) -> Option<&str> {
    let id = name.split('/').next().unwrap_or(name);
    is_clause_id(id).then_some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_has_a_title_a_source_and_rule_sets() {
        for p in pages() {
            assert!(!p.title.is_empty(), "{}: no `# ` title", p.file);
            assert!(!p.source.is_empty(), "{}: no `Source:` line", p.file);
            assert!(!p.rule_sets.is_empty(), "{}: no `Rule set:` line", p.file);
        }
    }

    #[test]
    fn ids_are_unique_and_texts_not_empty() {
        let all = clauses();
        let mut seen = std::collections::BTreeSet::new();
        for c in &all {
            assert!(seen.insert(c.id), "{} is defined twice", c.id);
            assert!(c.text.len() > 10, "{} has no text", c.id);
        }
    }

    #[test]
    fn an_entry_runs_on_over_indented_lines() {
        let k9a = find("K-9a").expect("K-9a is in kendall.md");
        assert_eq!(k9a.page.file, "kendall.md");
        assert!(k9a.text.starts_with("Exception to K-9:"), "{}", k9a.text);
        assert!(
            k9a.text.ends_with("a pair protects itself."),
            "{}",
            k9a.text
        );
        assert!(!k9a.text.contains("  "));
    }

    #[test]
    fn clause_id_shapes() {
        for ok in ["K-9a", "A-10", "KD-4", "T-14c", "MB-1"] {
            assert!(is_clause_id(ok), "{ok}");
        }
        for bad in ["K9a", "k-9", "K-", "K-9A", "-9", "UTF-8x1"] {
            assert!(!is_clause_id(bad), "{bad}");
        }
        assert_eq!(clause_of_option("A-3/lowest"), Some("A-3"));
        assert_eq!(clause_of_option("K-15a"), Some("K-15a"));
        assert_eq!(clause_of_option("five"), None);
    }
}
