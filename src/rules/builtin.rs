//! The built-in rule files, embedded in the binary.

/// Which list of `senet rules list` a built-in rule set belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// A source or a published reconstruction (docs/sources).
    Source,
    /// How another program plays, its deviations from its own text included.
    Program,
}

impl Group {
    /// The name `senet rules list --format json` gives the group.
    pub fn name(self) -> &'static str {
        match self {
            Group::Source => "source",
            Group::Program => "program",
        }
    }
}

/// (name, text, listed, group). An unlisted built-in loads by name but is
/// left out of [`builtin_names`], which `senet rules list` and the tests over
/// every built-in use. Every built-in is listed now.
const BUILTINS: &[(&str, &str, bool, Group)] = &[
    (
        "bga",
        include_str!("../../rules/bga.senet"),
        true,
        Group::Source,
    ),
    (
        "bell",
        include_str!("../../rules/bell.senet"),
        true,
        Group::Source,
    ),
    (
        "jequier",
        include_str!("../../rules/jequier.senet"),
        true,
        Group::Source,
    ),
    (
        "kendall",
        include_str!("../../rules/kendall.senet"),
        true,
        Group::Source,
    ),
    (
        "kendall1979",
        include_str!("../../rules/kendall1979.senet"),
        true,
        Group::Source,
    ),
    (
        "meub",
        include_str!("../../rules/meub.senet"),
        true,
        Group::Source,
    ),
    (
        "piccione",
        include_str!("../../rules/piccione.senet"),
        true,
        Group::Source,
    ),
    (
        "ryabinin",
        include_str!("../../rules/ryabinin.senet"),
        true,
        Group::Source,
    ),
    (
        "thai",
        include_str!("../../rules/thai.senet"),
        true,
        Group::Source,
    ),
    (
        "gym-senet-kendall",
        include_str!("../../rules/gym-senet-kendall.senet"),
        true,
        Group::Program,
    ),
    (
        "gym-senet-skiryuk",
        include_str!("../../rules/gym-senet-skiryuk.senet"),
        true,
        Group::Program,
    ),
    (
        "horolsky-kendall",
        include_str!("../../rules/horolsky-kendall.senet"),
        true,
        Group::Program,
    ),
    (
        "horolsky-meub",
        include_str!("../../rules/horolsky-meub.senet"),
        true,
        Group::Program,
    ),
    (
        "ludii-bell",
        include_str!("../../rules/ludii-bell.senet"),
        true,
        Group::Program,
    ),
    (
        "ludii-jequier",
        include_str!("../../rules/ludii-jequier.senet"),
        true,
        Group::Program,
    ),
    (
        "ludii-kendall",
        include_str!("../../rules/ludii-kendall.senet"),
        true,
        Group::Program,
    ),
    (
        "ludii-piccione",
        include_str!("../../rules/ludii-piccione.senet"),
        true,
        Group::Program,
    ),
    (
        "macabot",
        include_str!("../../rules/macabot.senet"),
        true,
        Group::Program,
    ),
];

/// The names of the listed built-in rule sets: the sources, then the
/// programs' readings, each group sorted.
pub fn builtin_names() -> Vec<&'static str> {
    BUILTINS
        .iter()
        .filter(|(_, _, listed, _)| *listed)
        .map(|(n, _, _, _)| *n)
        .collect()
}

/// The group of a built-in rule set, listed or not.
pub fn builtin_group(name: &str) -> Option<Group> {
    BUILTINS
        .iter()
        .find(|(n, _, _, _)| *n == name)
        .map(|(_, _, _, g)| *g)
}

/// The name of a built-in rule set, listed or not, as a `'static` string.
pub fn builtin_name(name: &str) -> Option<&'static str> {
    BUILTINS
        .iter()
        .find(|(n, _, _, _)| *n == name)
        .map(|(n, _, _, _)| *n)
}

/// The text of a built-in rule file (listed or not).
pub fn builtin_source(name: &str) -> Option<&'static str> {
    BUILTINS
        .iter()
        .find(|(n, _, _, _)| *n == name)
        .map(|(_, s, _, _)| *s)
}

/// Every built-in name, listed or not.
pub(crate) fn every_builtin() -> impl Iterator<Item = &'static str> {
    BUILTINS.iter().map(|(n, _, _, _)| *n)
}
