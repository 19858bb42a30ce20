//! Fuzz target: the diff parser (`parse_diffs`, `scan_collapsed`), then the
//! whole extraction of a patch message whose body is the input.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let body = String::from_utf8_lossy(data);
    let _ = regtrack::evidence::diff::parse_diffs(&body);
    let _ = regtrack::evidence::diff::scan_collapsed(&body);
    let msg = regtrack::model::Message {
        message_id: "fuzz-diff@example.org".into(),
        message_id_derived: false,
        subject: "[PATCH] ext4: fuzz".into(),
        from_name: Some("A U Thor".into()),
        from_email: Some("author@example.org".into()),
        date: None,
        in_reply_to: None,
        references: Vec::new(),
        list_ids: Vec::new(),
        body: body.clone().into_owned(),
        parts: Vec::new(),
        content_hash: String::new(),
        raw_size: data.len() as u64,
    };
    let _ = regtrack::extract::extract(&msg);
});
