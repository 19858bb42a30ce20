//! `regtrack parse` as a command: JSON Lines on stdout, standard input with
//! `-`, per-message failures on stderr with their origin, and the exit code
//! (non-zero only when nothing could be read).

use crate::common::Cmd;

fn fixture(name: &str) -> std::path::PathBuf {
    crate::common::corpus("report").join(name)
}

#[test]
fn parse_prints_one_json_object_per_message_with_headers_first_class() {
    let out = Cmd::regtrack()
        .arg("parse")
        .arg(fixture("current-perf-report.eml"))
        .ok();
    let text = std::str::from_utf8(&out.stdout_bytes).expect("utf-8");
    assert_eq!(text.lines().count(), 1);
    let v: serde_json::Value = serde_json::from_str(text.trim()).expect("JSON");
    assert_eq!(
        v["message_id"],
        "202407101441.5a1b2c3d-oliver.sang@intel.com"
    );
    assert_eq!(v["date"], "2024-07-10T06:41:20Z");
    assert_eq!(v["kind"], "perf-report");
    assert_eq!(v["tables"][0]["rows"][2]["values"][0], 2331000000u64);
    for k in [
        "subject",
        "from_name",
        "from_email",
        "in_reply_to",
        "references",
        "diffs",
        "trailers",
    ] {
        assert!(v.get(k).is_some(), "field {k} missing");
    }
}

#[test]
fn parse_reads_standard_input_given_as_dash() {
    let bytes = std::fs::read(fixture("collapsed-reply.eml")).expect("fixture");
    let v = Cmd::regtrack().args(["parse", "-"]).stdin(bytes).json();
    assert_eq!(v["tables"][0]["rows"].as_array().map(Vec::len), Some(4));
}

#[test]
fn parse_fails_only_when_nothing_could_be_read_and_says_why() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = dir.path().join("garbage.txt");
    std::fs::write(&bad, "garbage\n").expect("write");
    let out = Cmd::regtrack().arg("parse").arg(&bad).run();
    out.assert_no_panic();
    assert!(!out.success());
    assert!(out.stderr.contains("garbage.txt"), "{}", out.stderr);
    let out = Cmd::regtrack()
        .arg("parse")
        .arg(&bad)
        .arg(fixture("build-report.eml"))
        .run();
    assert!(out.success(), "one readable message is enough");
    assert_eq!(out.stdout.lines().count(), 1);
}
