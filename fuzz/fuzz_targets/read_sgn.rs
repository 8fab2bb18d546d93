//! Both SGN readers on arbitrary bytes: the in-memory reader (on the text
//! when it is UTF-8) and the streaming reader (on the raw bytes). Neither may
//! panic, hang or grow without bound; both must agree on how many games they
//! saw when the text is valid UTF-8.
#![no_main]

use libfuzzer_sys::fuzz_target;
use senet::notation::{Reader, StreamReader};

fuzz_target!(|data: &[u8]| {
    let streamed = StreamReader::new(data).count();
    if let Ok(text) = std::str::from_utf8(data) {
        let read = Reader::new(text).count();
        assert_eq!(
            read, streamed,
            "the two readers disagree on the number of games"
        );
    }
});
