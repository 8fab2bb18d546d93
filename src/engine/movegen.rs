//! Move generation.
