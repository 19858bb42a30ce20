//! Fuzz target: message parsing (`mail::parse`) of RFC 822 bytes, then the
//! whole extraction of whatever parsed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use regtrack::model::{Origin, RawFormat, RawMessage};

fuzz_target!(|data: &[u8]| {
    let raw = RawMessage {
        origin: Origin::File {
            path: "fuzz".into(),
            offset: 0,
        },
        bytes: data.to_vec().into(),
        format: RawFormat::Rfc822,
    };
    if let Ok(msg) = regtrack::mail::parse(&raw) {
        let _ = regtrack::extract::extract(&msg);
    }
});
