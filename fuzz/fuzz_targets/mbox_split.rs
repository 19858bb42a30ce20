//! Fuzz target: the mbox splitter and content detection, on bytes in memory:
//! `source::files::open_reader` (what `ingest` does with a file) and
//! `source::mbox::MboxReader` with both unquotings. A message is never larger
//! than its input, except from gzip input, where it stays within `MAX_MESSAGE`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use regtrack::source::mbox::{MAX_MESSAGE, MboxReader, Place, Quoting, Unquoted, unquote};

fuzz_target!(|data: &[u8]| {
    let bound = if data.starts_with(&[0x1f, 0x8b]) {
        MAX_MESSAGE
    } else {
        data.len() + 1
    };
    if let Ok(stream) = regtrack::source::files::open_reader(
        Box::new(std::io::Cursor::new(data.to_vec())),
        Place::File("fuzz.mbox".into()),
        std::path::Path::new("fuzz.mbox"),
        0,
    ) {
        for raw in stream.take(100_000).flatten() {
            assert!(raw.bytes.len() <= bound);
        }
    }
    let r = MboxReader::new(std::io::Cursor::new(data), Vec::new(), Place::Stdin);
    for raw in r.take(100_000).flatten() {
        for quoting in [Quoting::Rd, Quoting::O] {
            match unquote(&raw.bytes, quoting) {
                Unquoted::Within(range) => assert!(range.start <= range.end && range.end <= raw.bytes.len()),
                Unquoted::Copied(bytes) => assert!(bytes.len() <= raw.bytes.len()),
            }
        }
    }
});
