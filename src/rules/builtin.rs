//! The built-in rule files, embedded in the binary.

/// (name, text, listed). An unlisted built-in loads by name but is left out
/// of [`builtin_names`], which `senet rules list` and the tests over every
/// built-in use. Every built-in is listed now.
const BUILTINS: [(&str, &str, bool); 11] = [
    ("bga", include_str!("../../rules/bga.senet"), true),
    ("bell", include_str!("../../rules/bell.senet"), true),
    (
        "horolsky-kendall",
        include_str!("../../rules/horolsky-kendall.senet"),
        true,
    ),
    (
        "horolsky-meub",
        include_str!("../../rules/horolsky-meub.senet"),
        true,
    ),
    ("jequier", include_str!("../../rules/jequier.senet"), true),
    ("kendall", include_str!("../../rules/kendall.senet"), true),
    (
        "kendall1979",
        include_str!("../../rules/kendall1979.senet"),
        true,
    ),
    ("meub", include_str!("../../rules/meub.senet"), true),
    ("piccione", include_str!("../../rules/piccione.senet"), true),
    ("ryabinin", include_str!("../../rules/ryabinin.senet"), true),
    ("thai", include_str!("../../rules/thai.senet"), true),
];

/// The names of the listed built-in rule sets, sorted.
pub fn builtin_names() -> Vec<&'static str> {
    BUILTINS
        .iter()
        .filter(|(_, _, listed)| *listed)
        .map(|(n, _, _)| *n)
        .collect()
}

/// The name of a built-in rule set, listed or not, as a `'static` string.
pub fn builtin_name(name: &str) -> Option<&'static str> {
    BUILTINS
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(n, _, _)| *n)
}

/// The text of a built-in rule file (listed or not).
pub fn builtin_source(name: &str) -> Option<&'static str> {
    BUILTINS
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, s, _)| *s)
}

/// Every built-in name, listed or not.
pub(crate) fn every_builtin() -> impl Iterator<Item = &'static str> {
    BUILTINS.iter().map(|(n, _, _)| *n)
}
