//! Golden tests for the evidence extractors: every `corpus/evidence/NAME.eml` is
//! read (`source::open`, which also detects whitespace-collapsed mail), parsed
//! (`mail::parse`) and extracted (`extract::extract`), and each field named in
//! `NAME.json` must equal the extraction's field exactly (`Pin::TopFields`). Each line-structured
//! mail runs twice, with LF and with CRLF line endings (byte offsets of tables
//! excepted in CRLF).

use std::path::Path;

use regtrack::model::{RawFormat, RawMessage};
use serde_json::Value;

use crate::common::fixtures::fixtures;
use crate::common::golden::{Pin, json_diff, named};

/// Reads a fixture as `regtrack ingest` would (`source::open` detects the form:
/// RFC 822 mail, or a whitespace-collapsed one) and returns its raw message.
fn raw_of(path: &Path) -> Result<RawMessage, String> {
    let mut stream = regtrack::source::open(path).map_err(|e| e.to_string())?;
    stream
        .next()
        .ok_or_else(|| "no message".to_string())?
        .map_err(|e| e.to_string())
}

fn extract(raw: &RawMessage) -> Result<Value, String> {
    let msg = regtrack::mail::parse(raw).map_err(|e| e.to_string())?;
    let ex = regtrack::extract::extract(&msg);
    serde_json::to_value(&ex).map_err(|e| e.to_string())
}

fn drop_offsets(v: &mut Value) {
    if let Some(tables) = v.get_mut("tables").and_then(Value::as_array_mut) {
        for t in tables {
            if let Some(o) = t.as_object_mut() {
                o.remove("offset");
            }
        }
    }
}

#[test]
fn every_evidence_fixture_gives_its_expected_fields_with_lf_and_crlf() {
    let files = fixtures("evidence");
    assert!(files.len() >= 18, "fixtures missing: {}", files.len());
    let mut errors = Vec::new();
    let mut parsed = 0;
    for fx in &files {
        let name = format!("{}.eml", fx.name);
        let expected = fx.expected_json();
        let raw = match raw_of(&fx.input) {
            Ok(r) => r,
            Err(e) => {
                errors.push(format!("{name}: read failed: {e}"));
                continue;
            }
        };
        let got = match extract(&raw) {
            Ok(v) => v,
            Err(e) => {
                errors.push(format!("{name}: parse failed: {e}"));
                continue;
            }
        };
        parsed += 1;
        errors.extend(named(&name, json_diff(&expected, &got, Pin::TopFields)));
        if raw.format == RawFormat::Collapsed {
            continue; // one line: no line endings to vary
        }
        let crlf = RawMessage {
            origin: raw.origin.clone(),
            bytes: String::from_utf8_lossy(&raw.bytes)
                .replace('\n', "\r\n")
                .into_bytes()
                .into(),
            format: raw.format,
        };
        match extract(&crlf) {
            Ok(mut v) => {
                let mut want = expected.clone();
                drop_offsets(&mut v);
                drop_offsets(&mut want);
                errors.extend(named(
                    &format!("{name} (CRLF)"),
                    json_diff(&want, &v, Pin::TopFields),
                ));
            }
            Err(e) => errors.push(format!("{name} (CRLF): parse failed: {e}")),
        }
    }
    eprintln!("{parsed} of {} fixtures compared", files.len());
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}
