//! The one integration test binary: each module is a family of data-driven
//! tests over files in `tests/`.

mod check;
mod differential;
mod hostile;
mod invariants;
mod replay;
mod rules_fixtures;
mod scenarios;
mod sgn_fixtures;
