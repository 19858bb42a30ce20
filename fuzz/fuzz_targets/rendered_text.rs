//! Fuzz target: the reader of archive-rendered text (`[Name <email>]`,
//! `[-- Attachment #1 --]`) and of whitespace-collapsed messages.
#![no_main]

use libfuzzer_sys::fuzz_target;
use regtrack::model::{Origin, RawFormat, RawMessage};

fuzz_target!(|data: &[u8]| {
    for format in [RawFormat::Rendered, RawFormat::Collapsed] {
        let raw = RawMessage {
            origin: Origin::File {
                path: "fuzz".into(),
                offset: 0,
            },
            bytes: data.to_vec().into(),
            format,
        };
        if let Ok(msg) = regtrack::mail::parse(&raw) {
            let _ = regtrack::extract::extract(&msg);
        }
    }
});
