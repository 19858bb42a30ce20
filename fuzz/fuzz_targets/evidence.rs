//! Fuzz target: every evidence extractor's pure entry point (diffs, trailers,
//! mmtests, stress-ng) and the whole evidence pass over a reply whose body is
//! the input, in its line form and in its whitespace-collapsed form.
#![no_main]

use libfuzzer_sys::fuzz_target;
use regtrack::evidence;

fuzz_target!(|data: &[u8]| {
    let body = String::from_utf8_lossy(data).into_owned();
    let _ = evidence::diff::parse_diffs(&body);
    let _ = evidence::trailer::parse_trailers(&body);
    let _ = evidence::mmtests::parse_mmtests(&body);
    let _ = evidence::stressng::parse_stress_ng(&body);
    let _ = evidence::diff::scan_collapsed(&body);
    let msg = regtrack::model::Message {
        message_id: "fuzz-evidence@example.org".into(),
        message_id_derived: false,
        subject: "Re: [linus:master] [xfs]  2edf06a50f:  fsmark.files_per_sec -5.7% regression"
            .into(),
        from_name: Some("A U Thor".into()),
        from_email: Some("author@example.org".into()),
        date: None,
        in_reply_to: None,
        references: Vec::new(),
        list_ids: Vec::new(),
        body,
        parts: Vec::new(),
        content_hash: String::new(),
        raw_size: data.len() as u64,
    };
    let mut ex = regtrack::model::Extraction::default();
    evidence::extract_evidence(&msg, &mut ex);
});
