//! The one integration test binary: each module is a family of data-driven
//! tests over files in `tests/`.

mod analysis;
mod browser;
mod check;
mod cli_table;
mod confinement;
mod differential;
mod docs;
mod fuzz_findings;
mod hostile;
mod invariants;
mod newcomer;
mod pictures;
mod refusals;
mod replay;
mod rules_fixtures;
mod scenarios;
mod sgn_fixtures;
