//! Fuzz target: the mbox splitter, through `source::open` on a file (the input
//! is written to a temp file; content detection decides how it is read).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let path = std::env::temp_dir().join(format!("regtrack-fuzz-{}.mbox", std::process::id()));
    if std::fs::write(&path, data).is_err() {
        return;
    }
    if let Ok(stream) = regtrack::source::open(&path) {
        for raw in stream.take(100_000).flatten() {
            assert!(raw.bytes.len() <= data.len() + 1);
        }
    }
});
