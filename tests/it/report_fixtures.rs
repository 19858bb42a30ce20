//! Golden fixtures of the report grammar: every `corpus/report/NAME.eml` is run
//! through `regtrack parse` (LF and CRLF line endings) and compared field by
//! field with `NAME.json`. The expected JSON lists the fields it pins; every
//! field it lists must match (objects recursively, arrays element by element
//! and of equal length, numbers within 1e-9 relative).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn parse_file(path: &Path) -> Vec<Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_regtrack"))
        .arg("parse")
        .arg(path)
        .output()
        .expect("run regtrack parse");
    assert!(
        out.status.success(),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("utf-8 JSON")
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

fn same_number(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

/// Collects the paths where `actual` differs from what `expected` pins.
fn diff(expected: &Value, actual: &Value, path: &str, out: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (k, ev) in e {
                match a.get(k) {
                    Some(av) => diff(ev, av, &format!("{path}.{k}"), out),
                    None => out.push(format!("{path}.{k}: missing")),
                }
            }
        }
        (Value::Array(e), Value::Array(a)) => {
            if e.len() != a.len() {
                out.push(format!(
                    "{path}: {} entries expected, {} found",
                    e.len(),
                    a.len()
                ));
            }
            for (i, (ev, av)) in e.iter().zip(a).enumerate() {
                diff(ev, av, &format!("{path}[{i}]"), out);
            }
        }
        (Value::Number(e), Value::Number(a)) => {
            let (e, a) = (
                e.as_f64().unwrap_or(f64::NAN),
                a.as_f64().unwrap_or(f64::NAN),
            );
            if !same_number(e, a) {
                out.push(format!("{path}: expected {e}, found {a}"));
            }
        }
        (e, a) if e == a => {}
        (e, a) => out.push(format!("{path}: expected {e}, found {a}")),
    }
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

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/report");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("corpus/report")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_report_fixture_parses_to_its_expected_json_with_lf_and_crlf() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let mut failures = Vec::new();
    let files = fixtures();
    assert!(files.len() >= 13, "fixtures missing: {files:?}");
    for eml in &files {
        let expected: Value = serde_json::from_str(
            &std::fs::read_to_string(eml.with_extension("json"))
                .expect("expected JSON beside the .eml"),
        )
        .expect("valid expected JSON");
        let bytes = std::fs::read(eml).expect("fixture");
        let mut crlf = Vec::with_capacity(bytes.len() + bytes.len() / 40);
        for &b in &bytes {
            if b == b'\n' {
                crlf.push(b'\r');
            }
            crlf.push(b);
        }
        let crlf_path = tmp.path().join(eml.file_name().expect("file name"));
        std::fs::write(&crlf_path, crlf).expect("write CRLF copy");
        for (label, path) in [("LF", eml.as_path()), ("CRLF", crlf_path.as_path())] {
            let msgs = parse_file(path);
            if msgs.len() != 1 {
                failures.push(format!(
                    "{} ({label}): {} messages",
                    eml.display(),
                    msgs.len()
                ));
                continue;
            }
            let mut d = Vec::new();
            diff(&expected, &report_view(msgs[0].clone()), "", &mut d);
            for x in d {
                failures.push(format!("{} ({label}): {x}", eml.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_fixture_comparison_notices_a_changed_value() {
    let expected = serde_json::json!({"tables": [{"rows": [{"values": [1.0, 2.0]}]}]});
    let actual = serde_json::json!({"tables": [{"rows": [{"values": [1, 3]}], "x": 1}]});
    let mut d = Vec::new();
    diff(&expected, &actual, "", &mut d);
    assert_eq!(d, [".tables[0].rows[0].values[1]: expected 2, found 3"]);
}
