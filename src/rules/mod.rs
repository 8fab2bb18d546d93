//! The rules language: `.senet` text → spanned AST → checks → `Ruleset`.
