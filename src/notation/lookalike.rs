//! Characters that look like the ASCII of SGN but are not: the en dash a
//! word processor puts in for `-`, `×` for `x`, a no-break space, curly
//! quotes, `…` for `...`.
//!
//! Stage: beside the reader. A syntax error on such a character names it by
//! its code point ([`describe`]), and `senet fmt --fix` replaces each one
//! outside comments and tag values ([`fix_text`]) before the text is read.

/// A character that stands in for ASCII text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LookAlike {
    pub ch: char,
    /// The Unicode name.
    pub name: &'static str,
    /// What SGN writes instead (empty: nothing).
    pub ascii: &'static str,
}

const fn la(ch: char, name: &'static str, ascii: &'static str) -> LookAlike {
    LookAlike { ch, name, ascii }
}

/// Every look-alike this module knows, in code point order.
pub const LOOK_ALIKES: &[LookAlike] = &[
    la('\u{00A0}', "NO-BREAK SPACE", " "),
    la('\u{00D7}', "MULTIPLICATION SIGN", "x"),
    la('\u{0445}', "CYRILLIC SMALL LETTER HA", "x"),
    la('\u{2007}', "FIGURE SPACE", " "),
    la('\u{2009}', "THIN SPACE", " "),
    la('\u{200B}', "ZERO WIDTH SPACE", ""),
    la('\u{2010}', "HYPHEN", "-"),
    la('\u{2011}', "NON-BREAKING HYPHEN", "-"),
    la('\u{2012}', "FIGURE DASH", "-"),
    la('\u{2013}', "EN DASH", "-"),
    la('\u{2014}', "EM DASH", "-"),
    la('\u{2015}', "HORIZONTAL BAR", "-"),
    la('\u{201C}', "LEFT DOUBLE QUOTATION MARK", "\""),
    la('\u{201D}', "RIGHT DOUBLE QUOTATION MARK", "\""),
    la('\u{2024}', "ONE DOT LEADER", "."),
    la('\u{2026}', "HORIZONTAL ELLIPSIS", "..."),
    la('\u{202F}', "NARROW NO-BREAK SPACE", " "),
    la('\u{2033}', "DOUBLE PRIME", "\""),
    la('\u{2212}', "MINUS SIGN", "-"),
    la('\u{2236}', "RATIO", ":"),
    la('\u{2715}', "MULTIPLICATION X", "x"),
    la('\u{3000}', "IDEOGRAPHIC SPACE", " "),
    la('\u{FE63}', "SMALL HYPHEN-MINUS", "-"),
    la('\u{FEFF}', "ZERO WIDTH NO-BREAK SPACE", ""),
    la('\u{FF02}', "FULLWIDTH QUOTATION MARK", "\""),
    la('\u{FF0D}', "FULLWIDTH HYPHEN-MINUS", "-"),
    la('\u{FF0E}', "FULLWIDTH FULL STOP", "."),
    la('\u{FF1A}', "FULLWIDTH COLON", ":"),
];

/// The look-alike `c`, if it is one.
pub fn find(c: char) -> Option<&'static LookAlike> {
    LOOK_ALIKES
        .binary_search_by_key(&c, |l| l.ch)
        .ok()
        .map(|i| &LOOK_ALIKES[i])
}

/// The first look-alike in `text`, with its byte offset.
pub fn first_in(text: &str) -> Option<(usize, &'static LookAlike)> {
    text.char_indices()
        .find_map(|(i, c)| find(c).map(|l| (i, l)))
}

/// `U+2013 EN DASH`.
pub fn describe(l: &LookAlike) -> String {
    format!("U+{:04X} {}", l.ch as u32, l.name)
}

/// The help for a look-alike where SGN expects ASCII.
pub fn help(l: &LookAlike) -> String {
    let with = if l.ascii.is_empty() {
        "delete it".to_string()
    } else if l.ascii == " " {
        "write a plain space (U+0020) instead".to_string()
    } else {
        format!("write `{}` instead", l.ascii)
    };
    let like = match l.ascii {
        "" => "nothing".to_string(),
        " " => "a space".to_string(),
        a => format!("`{a}`"),
    };
    format!(
        "{} looks like {like} but is not ASCII, which SGN needs outside comments and tag values: {with} (`senet fmt --fix` does it)",
        describe(l),
    )
}

/// What to say of a name or position string (`--option`, `RuleOptions`,
/// `--position`, `[Position]`, `[%pos]`) that holds a look-alike: each
/// named by its code point, with the word as it should be written. `None`
/// when there is none.
pub fn in_word(word: &str) -> Option<String> {
    first_in(word)?;
    let mut seen: Vec<&LookAlike> = Vec::new();
    let mut fixed = String::new();
    for c in word.chars() {
        match find(c) {
            Some(l) => {
                if !seen.contains(&l) {
                    seen.push(l);
                }
                fixed.push_str(l.ascii);
            }
            None => fixed.push(c),
        }
    }
    let named: Vec<String> = seen
        .iter()
        .map(|l| match l.ascii {
            "" => format!("{} (an invisible character)", describe(l)),
            " " => format!("{}, which looks like a space", describe(l)),
            a => format!("{}, which looks like `{a}`", describe(l)),
        })
        .collect();
    Some(format!(
        "`{}` has {}: write `{}`",
        crate::diag::printable(word),
        named.join(", and "),
        crate::diag::printable(fixed.trim())
    ))
}

/// One change [`fix_text`] made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    /// Byte offset in the text given to [`fix_text`].
    pub at: usize,
    pub what: String,
}

/// Where a character stands in a line of SGN, for [`fix_text`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Movetext,
    /// Inside `{ … }` (which may span lines).
    Comment,
}

/// The mechanical fixes of `senet fmt --fix` that need no rules: every
/// look-alike outside comments, tag values and escape lines becomes its
/// ASCII; `X` between two digits (`12X15`) becomes `x`; a tag name that
/// differs only in case from one in `known` is written as there. The text
/// that comes back means what the writer meant; what changed is listed.
pub fn fix_text(text: &str, known: &[&str]) -> (String, Vec<Fix>) {
    let mut out = String::with_capacity(text.len());
    let mut fixes = Vec::new();
    let mut place = Place::Movetext;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        if place == Place::Movetext && line.starts_with('%') {
            out.push_str(line);
            continue;
        }
        if place == Place::Movetext && line.trim_start().starts_with('[') {
            fix_tag_line(line, start, known, &mut out, &mut fixes);
            continue;
        }
        let mut prev: Option<char> = None;
        let mut chars = line.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            match place {
                Place::Comment => {
                    if c == '}' {
                        place = Place::Movetext;
                    }
                    out.push(c);
                }
                Place::Movetext => {
                    if c == '{' {
                        place = Place::Comment;
                    }
                    if c == ';' {
                        // To the end of the line.
                        out.push_str(&line[i..]);
                        break;
                    }
                    let next = chars.peek().map(|&(_, n)| n);
                    if let Some(l) = find(c) {
                        out.push_str(l.ascii);
                        fixes.push(Fix {
                            at: start + i,
                            what: format!("{} → `{}`", describe(l), l.ascii),
                        });
                    } else if c == 'X'
                        && prev.is_some_and(|p| p.is_ascii_digit())
                        && next.is_some_and(|n| n.is_ascii_digit())
                    {
                        out.push('x');
                        fixes.push(Fix {
                            at: start + i,
                            what: "`X` → `x` (a swap is written with a small x)".to_string(),
                        });
                    } else {
                        out.push(c);
                    }
                }
            }
            prev = Some(c);
        }
    }
    (out, fixes)
}

/// A tag line: the brackets, name and quotes are fixed, the value is kept.
fn fix_tag_line(line: &str, start: usize, known: &[&str], out: &mut String, fixes: &mut Vec<Fix>) {
    let mut quoted = false;
    let mut escaped = false;
    let mut name_start = None;
    for (i, c) in line.char_indices() {
        if quoted {
            // A curly quote that closes the value: the tag ends after it.
            if !escaped
                && let Some(l) = find(c).filter(|l| l.ascii == "\"")
                && line[i + c.len_utf8()..].trim_start().starts_with(']')
            {
                fixes.push(Fix {
                    at: start + i,
                    what: format!("{} → `\"`", describe(l)),
                });
                out.push('"');
                quoted = false;
                continue;
            }
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                quoted = false;
            }
            continue;
        }
        let c = match find(c) {
            Some(l) if l.ascii.len() == 1 || l.ascii.is_empty() => {
                fixes.push(Fix {
                    at: start + i,
                    what: format!("{} → `{}`", describe(l), l.ascii),
                });
                l.ascii.chars().next()
            }
            _ => Some(c),
        };
        let Some(c) = c else { continue };
        if c == '[' && name_start.is_none() {
            name_start = Some(out.len() + 1);
        }
        if c == '"' {
            quoted = true;
            if let Some(ns) = name_start.take() {
                fix_tag_name(out, ns, start, known, fixes);
            }
        }
        out.push(c);
    }
}

/// The tag name written from `out[ns..]` (up to the space before the
/// value): put in the case of `known` if it differs only in case.
fn fix_tag_name(out: &mut String, ns: usize, start: usize, known: &[&str], fixes: &mut Vec<Fix>) {
    let tail = &out[ns..];
    let lead = tail.len() - tail.trim_start().len();
    let name = tail.trim().to_string();
    if let Some(k) = known
        .iter()
        .find(|k| **k != name && k.eq_ignore_ascii_case(&name))
    {
        let at = ns + lead;
        out.replace_range(at..at + name.len(), k);
        fixes.push(Fix {
            at: start + at - line_offset(out),
            what: format!("tag `{name}` → `{k}`"),
        });
    }
}

/// Where the line being written starts in `out`.
fn line_offset(out: &str) -> usize {
    out.rfind('\n').map_or(0, |i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_for_binary_search() {
        assert!(LOOK_ALIKES.windows(2).all(|w| w[0].ch < w[1].ch));
        assert_eq!(find('–').map(|l| l.ascii), Some("-"));
        assert_eq!(describe(find('\u{2013}').unwrap()), "U+2013 EN DASH");
    }

    #[test]
    fn fixes_movetext_and_tag_names_but_not_comments_or_values() {
        let text =
            "[rules “bga”]\n[Event \"a–b\"]\n\n1.\u{a0}2:9–11 { 9–11 }\n1… 3:8X11 ; 8×11\n*\n";
        let (fixed, fixes) = fix_text(text, &["Rules", "Event"]);
        assert_eq!(
            fixed,
            "[Rules \"bga\"]\n[Event \"a–b\"]\n\n1. 2:9-11 { 9–11 }\n1... 3:8x11 ; 8×11\n*\n"
        );
        let whats: Vec<&str> = fixes.iter().map(|f| f.what.as_str()).collect();
        assert_eq!(
            whats,
            [
                "U+201C LEFT DOUBLE QUOTATION MARK → `\"`",
                "tag `rules` → `Rules`",
                "U+201D RIGHT DOUBLE QUOTATION MARK → `\"`",
                "U+00A0 NO-BREAK SPACE → ` `",
                "U+2013 EN DASH → `-`",
                "U+2026 HORIZONTAL ELLIPSIS → `...`",
                "`X` → `x` (a swap is written with a small x)",
            ]
        );
        // Offsets point into the original text.
        assert_eq!(&text[fixes[1].at..fixes[1].at + 5], "rules");
        assert!(text[fixes[4].at..].starts_with('–'));
    }
}
