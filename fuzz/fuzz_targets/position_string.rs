//! Position strings on every board geometry of the built-in rule sets: a
//! string either fails with an error or parses to a position that writes
//! back to a string which parses to the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use senet::engine::Position;

/// (squares, row length) of the built-in boards, and a long one.
const BOARDS: [(u8, u8); 3] = [(30, 10), (20, 10), (40, 10)];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for (len, row) in BOARDS {
        if let Ok(pos) = Position::parse(text, len, row) {
            let written = pos.write(len, row);
            let again = Position::parse(&written, len, row).unwrap_or_else(|e| {
                panic!("{written:?} (written from {text:?}) does not parse: {e:?}")
            });
            assert_eq!(
                again.write(len, row),
                written,
                "write is not stable for {text:?}"
            );
        }
    }
});
