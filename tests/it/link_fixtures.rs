//! Whole histories from `corpus/threads/*.mbox` through the real binary
//! (ingest -> extract -> link -> show/list/export/mark), checked against the
//! `NAME.expected.json` written beside each fixture.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(db: &Path, args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_regtrack"))
        .arg("--db")
        .arg(db)
        .args(args)
        .env("REGTRACK_USER", "Test Person")
        .env_remove("NO_COLOR")
        .output()
        .expect("run regtrack");
    assert!(
        out.status.success(),
        "regtrack {args:?} failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn json(db: &Path, args: &[&str]) -> Value {
    let out = run(db, args);
    serde_json::from_slice(&out.stdout).expect("JSON output")
}

fn ingest_fixtures(db: &Path) {
    let dir = root().join("corpus/threads");
    run(db, &["-q", "ingest", dir.to_str().expect("utf-8 path")]);
}

fn expected() -> Vec<(String, Value)> {
    let dir = root().join("corpus/threads");
    let mut v: Vec<(String, Value)> = std::fs::read_dir(&dir)
        .expect("corpus/threads")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".expected.json"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("read expected");
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                serde_json::from_str(&text).expect("expected JSON parses"),
            )
        })
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(v.len(), 6, "six fixtures with expectations");
    v
}

fn strs(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(|s| s.to_string()))
                .collect()
        })
        .unwrap_or_default()
}

fn check(name: &str, want: &Value, got: &Value) {
    let s = |v: &Value, k: &str| v[k].as_str().map(|x| x.to_string());
    assert_eq!(got["culprit"]["commit"], want["culprit"], "{name}: culprit");
    assert_eq!(got["culprit"]["title"], want["title"], "{name}: title");
    assert_eq!(got["subsystem"], want["subsystem"], "{name}: subsystem");
    assert_eq!(got["status"], want["status"], "{name}: status");
    let ev: Vec<String> = got["status_evidence"]
        .as_array()
        .expect("evidence")
        .iter()
        .filter_map(|e| s(e, "status"))
        .collect();
    assert_eq!(ev, strs(&want["evidence"]), "{name}: evidence");
    let last = got["status_evidence"]
        .as_array()
        .and_then(|a| a.iter().rev().find(|e| e["status"] == got["status"]))
        .expect("evidence for the status");
    assert_eq!(
        last["message_id"], want["status_message"],
        "{name}: status message"
    );
    let reports: Vec<String> = got["reports"]
        .as_array()
        .expect("reports")
        .iter()
        .filter_map(|r| s(r, "message_id"))
        .collect();
    assert_eq!(reports, strs(&want["reports"]), "{name}: reports");
    if want.get("report_metrics").is_some() {
        let metrics: Vec<String> = got["reports"]
            .as_array()
            .expect("reports")
            .iter()
            .filter_map(|r| s(r, "metric"))
            .collect();
        assert_eq!(metrics, strs(&want["report_metrics"]), "{name}: metrics");
    }
    let attached: BTreeMap<String, String> = got["attached"]
        .as_array()
        .expect("attached")
        .iter()
        .filter_map(|a| Some((s(a, "message_id")?, s(a, "role")?)))
        .collect();
    let want_attached: BTreeMap<String, String> = want["attached"]
        .as_object()
        .expect("attached")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string()))
        .collect();
    assert_eq!(
        attached, want_attached,
        "{name}: attached messages and roles"
    );
    let mut messages = strs(&got["messages"]);
    messages.sort();
    let mut want_messages: Vec<String> = want_attached.keys().cloned().collect();
    want_messages.sort();
    assert_eq!(messages, want_messages, "{name}: messages");
    let patches: BTreeMap<String, String> = got["patches"]
        .as_array()
        .expect("patches")
        .iter()
        .filter_map(|p| Some((s(p, "message_id")?, s(p, "state")?)))
        .collect();
    let want_patches: BTreeMap<String, String> = want["patches"]
        .as_object()
        .expect("patches")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string()))
        .collect();
    assert_eq!(patches, want_patches, "{name}: patches and states");
    assert_eq!(strs(&got["flags"]), strs(&want["flags"]), "{name}: flags");
    for e in got["timeline"].as_array().expect("timeline") {
        assert!(e["event"].as_str().is_some_and(|x| !x.is_empty()));
    }
}

#[test]
fn every_fixture_history_links_and_ends_in_its_expected_status() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("t.db");
    ingest_fixtures(&db);
    let all = json(&db, &["list", "--json"]);
    assert_eq!(
        all.as_array().map(|a| a.len()),
        Some(7),
        "seven regressions"
    );
    for (name, exp) in expected() {
        for want in exp["regressions"].as_array().expect("regressions") {
            let culprit = want["culprit"].as_str().expect("culprit");
            // Query by the 10-hex short id of the subject, as users type it.
            let got = json(&db, &["show", "--json", &culprit[..10]]);
            let arr = got.as_array().expect("list");
            assert_eq!(arr.len(), 1, "{name}: one regression for {culprit}");
            check(&name, want, &arr[0]);
        }
    }
}

#[test]
fn re_ingesting_changes_nothing_and_keeps_ids() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("t.db");
    ingest_fixtures(&db);
    let before = json(&db, &["list", "--json"]);
    ingest_fixtures(&db);
    let after = json(&db, &["list", "--json"]);
    assert_eq!(before, after);
}

#[test]
fn a_mark_wins_survives_re_ingest_and_shows_its_author_in_the_timeline() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("t.db");
    ingest_fixtures(&db);
    run(
        &db,
        &[
            "-q",
            "mark",
            "7b8c9d0e1f",
            "declined",
            "--note",
            "setup differs, not chasing",
        ],
    );
    ingest_fixtures(&db);
    let got = json(&db, &["show", "--json", "7b8c9d0e1f"]);
    let r = &got[0];
    assert_eq!(r["status"], "declined");
    let last = r["timeline"]
        .as_array()
        .and_then(|t| t.last())
        .expect("timeline");
    assert_eq!(last["from"], "Test Person");
    assert_eq!(last["event"], "marked declined: setup differs, not chasing");
    assert_eq!(last["status"], "declined");
    let listed = json(&db, &["list", "--json", "--status", "declined"]);
    assert_eq!(listed.as_array().map(|a| a.len()), Some(1));
}

#[test]
fn show_finds_histories_by_subsystem_metric_message_id_and_id() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("t.db");
    ingest_fixtures(&db);
    let culprits = |v: &Value| -> Vec<String> {
        v.as_array()
            .expect("list")
            .iter()
            .filter_map(|r| r["culprit"]["commit"].as_str().map(|s| s[..10].to_string()))
            .collect()
    };
    assert_eq!(
        culprits(&json(&db, &["show", "--json", "jbd2"])),
        ["a0a1a2a3a4", "f1f2f3f4f5", "7b8c9d0e1f"]
    );
    assert_eq!(
        culprits(&json(&db, &["show", "--json", "stress-ng.fiemap"])),
        ["d15ea5e012"]
    );
    assert_eq!(
        culprits(&json(
            &db,
            &["show", "--json", "<20240815100000.88-review@example.org>"]
        )),
        ["e5e5e5e5e5"]
    );
    assert_eq!(culprits(&json(&db, &["show", "--json", "ext4"])).len(), 4);
    let id = json(&db, &["show", "--json", "c0ffee0123"])[0]["id"].clone();
    let by_id = json(&db, &["show", "--json", &id.to_string()]);
    assert_eq!(culprits(&by_id), ["c0ffee0123"]);
    // Nothing matches: exit 1, empty JSON list.
    let out = Command::new(env!("CARGO_BIN_EXE_regtrack"))
        .arg("--db")
        .arg(&db)
        .args(["show", "--json", "nosuchthing.metric"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn human_output_has_no_colours_when_piped_and_colours_when_forced() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("t.db");
    ingest_fixtures(&db);
    let plain = String::from_utf8(run(&db, &["show", "5e1f2a3b4c"]).stdout).expect("utf-8");
    assert!(!plain.contains('\u{1b}'), "no escapes when piped");
    assert!(plain.contains("status: fix-applied"), "{plain}");
    assert!(
        plain.contains("Fixes: 5e1f2a3b4c5d (\"ext4: take the orphan lock only when needed\")")
    );
    assert!(plain.contains("Theodore Ts'o"));
    assert!(plain.contains("fsmark.files_per_sec"));
    let colour = String::from_utf8(run(&db, &["--color", "always", "show", "5e1f2a3b4c"]).stdout)
        .expect("utf-8");
    assert!(colour.contains("\u{1b}["));
    let list = String::from_utf8(run(&db, &["list"]).stdout).expect("utf-8");
    let lines: Vec<&str> = list.lines().collect();
    assert_eq!(lines.len(), 7);
    // Newest first.
    assert!(lines[0].contains("a0a1a2a3a4"), "{list}");
    assert!(lines[6].contains("5e1f2a3b4c"), "{list}");
    let improvements =
        String::from_utf8(run(&db, &["list", "--direction", "improvement"]).stdout).expect("utf-8");
    assert_eq!(improvements.lines().count(), 2);
    let big = String::from_utf8(run(&db, &["list", "--min-change", "20"]).stdout).expect("utf-8");
    assert_eq!(big.lines().count(), 2, "{big}"); // +92.5% and +23.3%
    let since = String::from_utf8(
        run(
            &db,
            &["list", "--since", "2024-06-01", "--until", "2024-08-01"],
        )
        .stdout,
    )
    .expect("utf-8");
    assert_eq!(since.lines().count(), 1, "{since}");
}

#[test]
fn exports_put_open_regressions_first_grouped_by_subsystem() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("t.db");
    ingest_fixtures(&db);
    let md = String::from_utf8(run(&db, &["export", "--format", "md"]).stdout).expect("utf-8");
    let open = md.find("## Open").expect("open section");
    let closed = md.find("## Closed").expect("closed section");
    assert!(open < closed);
    assert!(md[open..closed].contains("7b8c9d0e1f2a"));
    assert!(md[closed..].contains("5e1f2a3b4c5d"));
    assert!(md[open..closed].contains("### ext4") && md[open..closed].contains("### jbd2"));
    let csv = String::from_utf8(run(&db, &["export", "--format", "csv"]).stdout).expect("utf-8");
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 8);
    assert!(rows[0].starts_with("id,subsystem,status,age_days"));
    assert_eq!(
        rows.iter().filter(|r| r.contains(",fix-applied,")).count(),
        2
    );
    let j = json(&db, &["export", "--format", "json"]);
    let arr = j.as_array().expect("array");
    assert_eq!(arr.len(), 7);
    // Open first.
    let statuses: Vec<&str> = arr.iter().filter_map(|r| r["status"].as_str()).collect();
    let first_closed = statuses
        .iter()
        .position(|s| ["fix-applied", "declined", "improvement"].contains(s))
        .expect("a closed one");
    assert!(
        statuses[first_closed..]
            .iter()
            .all(|s| ["fix-applied", "declined", "improvement"].contains(s))
    );
    let html_path = dir.path().join("t.html");
    run(
        &db,
        &[
            "-q",
            "export",
            "--format",
            "html",
            "--out",
            html_path.to_str().expect("utf-8"),
        ],
    );
    let html = std::fs::read_to_string(&html_path).expect("html");
    assert!(html.contains("<table id=\"regs\">"));
    assert!(html.contains("<svg class=\"chart\""));
    assert!(!html.contains("src=\"http") && !html.contains("href=\"http"));
}
