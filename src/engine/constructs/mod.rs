//! Rule constructs, one module each: a construct's model data, how the
//! engine resolves it and how it reads (the `rules show` sentence and the
//! `rules summary` token) live together, so that adding a variant of a
//! construct touches its module, its grammar rule and its lowering only.
//!
//! Stage: handed span-free values by the rules compiler (`crate::rules`),
//! used by move generation and play (`super::movegen`).

pub mod relocation;
