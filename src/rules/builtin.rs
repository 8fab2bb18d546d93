//! The built-in rule files, embedded in the binary.

const BUILTINS: [(&str, &str); 7] = [
    ("bga", include_str!("../../rules/bga.senet")),
    ("jequier", include_str!("../../rules/jequier.senet")),
    ("kendall", include_str!("../../rules/kendall.senet")),
    ("kendall1979", include_str!("../../rules/kendall1979.senet")),
    ("meub", include_str!("../../rules/meub.senet")),
    ("ryabinin", include_str!("../../rules/ryabinin.senet")),
    ("thai", include_str!("../../rules/thai.senet")),
];

/// The names of the built-in rule sets, sorted.
pub fn builtin_names() -> Vec<&'static str> {
    BUILTINS.iter().map(|(n, _)| *n).collect()
}

/// The text of a built-in rule file.
pub fn builtin_source(name: &str) -> Option<&'static str> {
    BUILTINS.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}
