//! Fuzz target: the report grammar on arbitrary text: `parse_subject` on the
//! first line, `parse_tables`, `parse_report_body`, `parse_events` on the whole,
//! then the whole extraction of a robot message made of it.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (subject, body) = text.split_once('\n').unwrap_or((&text, ""));
    let _ = regtrack::report::subject::parse_subject(subject);
    let _ = regtrack::report::table::parse_tables(&text);
    let _ = regtrack::report::body::parse_report_body(&text);
    let _ = regtrack::report::body::parse_events(&text);
    let msg = regtrack::model::Message {
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
    };
    let _ = regtrack::extract::extract(&msg);
});
