//! Fuzz target: the report grammar (subject and lkp tables) on arbitrary text,
//! via the whole extraction of a message whose subject is the first line and
//! whose body is the rest.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (subject, body) = text.split_once('\n').unwrap_or((&text, ""));
    let msg = regtrack_fuzz_message(subject, body);
    let _ = regtrack::extract::extract(&msg);
});

fn regtrack_fuzz_message(subject: &str, body: &str) -> regtrack::model::Message {
    regtrack::model::Message {
        message_id: "fuzz@example.org".into(),
        message_id_derived: false,
        subject: subject.into(),
        from_name: Some("kernel test robot".into()),
        from_email: Some("oliver.sang@intel.com".into()),
        date: Some(1_740_996_000),
        in_reply_to: None,
        references: Vec::new(),
        list_ids: Vec::new(),
        body: body.into(),
        parts: Vec::new(),
        content_hash: String::new(),
        raw_size: body.len() as u64,
    }
}
