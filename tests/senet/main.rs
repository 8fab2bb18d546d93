//! The one integration test binary: each module is a family of data-driven
//! tests over files in `tests/`.

mod analysis;
mod check;
mod differential;
mod invariants;
mod replay;
mod rules_fixtures;
mod scenarios;
mod sgn_fixtures;
