//! `fmt` round trip: a text that reads without syntax errors is written in
//! canonical form; that form must read without errors into the same games
//! and write to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use senet::notation::{read_all, write_games};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (games, errors) = read_all(text);
    if !errors.is_empty() {
        return;
    }
    let once = write_games(&games, &[]);
    let (again, errors) = read_all(&once);
    assert!(
        errors.is_empty(),
        "canonical text does not read: {errors:?}\n{once}"
    );
    assert_eq!(again.len(), games.len(), "game count changed:\n{once}");
    let twice = write_games(&again, &[]);
    assert_eq!(once, twice, "fmt is not idempotent");
});
