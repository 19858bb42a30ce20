//! Golden fixtures of the report grammar: every `corpus/report/NAME.eml` is run
//! through `regtrack parse` (LF and CRLF line endings) and compared with
//! `NAME.json`. The expected JSON lists the fields it pins (`Pin::Listed`):
//! every field it lists must match (objects recursively, arrays element by
//! element and of equal length, numbers within 1e-9 relative).

use std::path::Path;

use serde_json::Value;

use crate::common::Cmd;
use crate::common::fixtures::fixtures;
use crate::common::golden::{Pin, json_diff, named};

fn parse_file(path: &Path) -> Vec<Value> {
    Cmd::regtrack().arg("parse").arg(path).ok().json_lines()
}

/// Keeps only the lkp tables and report events, as the fixtures pin them.
fn report_view(mut v: Value) -> Value {
    if let Some(Value::Array(tables)) = v.get_mut("tables") {
        tables.retain(|t| matches!(t["format"].as_str(), Some("lkp" | "lkp-fail")));
    }
    if let Some(Value::Array(events)) = v.get_mut("events") {
        events.retain(|e| matches!(e["kind"].as_str(), Some("still-regression" | "test-failed")));
    }
    v
}

#[test]
fn every_report_fixture_parses_to_its_expected_json_with_lf_and_crlf() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let mut failures = Vec::new();
    let files = fixtures("report");
    assert!(files.len() >= 13, "fixtures missing: {files:?}");
    for fx in &files {
        let expected = fx.expected_json();
        let bytes = std::fs::read(&fx.input).expect("fixture");
        let mut crlf = Vec::with_capacity(bytes.len() + bytes.len() / 40);
        for &b in &bytes {
            if b == b'\n' {
                crlf.push(b'\r');
            }
            crlf.push(b);
        }
        let crlf_path = tmp.path().join(fx.input.file_name().expect("file name"));
        std::fs::write(&crlf_path, crlf).expect("write CRLF copy");
        for (label, path) in [("LF", fx.input.as_path()), ("CRLF", crlf_path.as_path())] {
            let name = format!("{}.eml ({label})", fx.name);
            let msgs = parse_file(path);
            if msgs.len() != 1 {
                failures.push(format!("{name}: {} messages", msgs.len()));
                continue;
            }
            let got = report_view(msgs[0].clone());
            failures.extend(named(&name, json_diff(&expected, &got, Pin::Listed)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
