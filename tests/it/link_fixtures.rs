//! Whole histories from `corpus/threads/NAME.mbox` through the real binary
//! (ingest -> extract -> link -> show/list/export/mark), checked against the
//! `NAME.json` written beside each fixture: each regression it lists, seen
//! the way the fixture writes it (`view`), must equal what it pins.

use std::path::Path;

use serde_json::{Value, json};

use crate::common::fixtures::fixtures;
use crate::common::golden::{Pin, json_diff, named};
use crate::common::{Cmd, Run};

/// `regtrack --db DB ARGS` as the fixtures' user, colours left to the terminal
/// test; asserts success.
fn run(db: &Path, args: &[&str]) -> Run {
    Cmd::regtrack()
        .db(db)
        .args(args)
        .env("REGTRACK_USER", "Test Person")
        .env_remove("NO_COLOR")
        .ok()
}

fn json(db: &Path, args: &[&str]) -> Value {
    run(db, args).json()
}

fn ingest_fixtures(db: &Path) {
    let dir = crate::common::corpus("threads");
    run(db, &["-q", "ingest", crate::common::s(&dir)]);
}

/// A database of every fixture thread, in a folder removed when dropped.
fn fixtures_db() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("t.db");
    ingest_fixtures(&db);
    (dir, db)
}

fn expected() -> Vec<(String, Value)> {
    let v: Vec<(String, Value)> = fixtures("threads")
        .into_iter()
        .map(|f| (format!("{}.json", f.name), f.expected_json()))
        .collect();
    assert_eq!(v.len(), 18, "eighteen fixtures with expectations");
    v
}

/// One `show --json` regression in the form of the fixtures' expectations.
fn view(got: &Value) -> Value {
    let ids = |list: &Value, key: &str| -> Vec<Value> {
        list.as_array()
            .expect("list")
            .iter()
            .map(|x| x[key].clone())
            .collect()
    };
    let by_id = |list: &Value, key: &str| -> serde_json::Map<String, Value> {
        list.as_array()
            .expect("list")
            .iter()
            .filter_map(|x| Some((x["message_id"].as_str()?.to_string(), x[key].clone())))
            .collect()
    };
    let status_message = got["status_evidence"]
        .as_array()
        .and_then(|a| a.iter().rev().find(|e| e["status"] == got["status"]))
        .map(|e| e["message_id"].clone())
        .expect("evidence for the status");
    json!({
        "culprit": got["culprit"]["commit"],
        "title": got["culprit"]["title"],
        "subsystem": got["subsystem"],
        "status": got["status"],
        "evidence": ids(&got["status_evidence"], "status"),
        "status_message": status_message,
        "reports": ids(&got["reports"], "message_id"),
        "report_metrics": ids(&got["reports"], "metric"),
        "attached": by_id(&got["attached"], "role"),
        "patches": by_id(&got["patches"], "state"),
        "flags": got["flags"],
        "confidence": got["status_confidence"],
        "doubts": ids(&got["doubts"], "kind"),
        "candidates": by_id(&got["fix_candidates"], "linked"),
    })
}

/// What `got` gets wrong of `want` (every pinned field), and the checks of
/// its own consistency: its messages are the attached ones, every timeline
/// entry says what happened.
fn check(name: &str, want: &Value, got: &Value) -> Vec<String> {
    let mut errors: Vec<String> =
        named(name, json_diff(want, &view(got), Pin::TopFields)).collect();
    let mut messages: Vec<&str> = got["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    messages.sort();
    let mut attached: Vec<&str> = got["attached"]
        .as_array()
        .expect("attached")
        .iter()
        .filter_map(|a| a["message_id"].as_str())
        .collect();
    attached.sort();
    if messages != attached {
        errors.push(format!(
            "{name}: messages {messages:?} are not the attached {attached:?}"
        ));
    }
    for e in got["timeline"].as_array().expect("timeline") {
        if e["event"].as_str().is_none_or(str::is_empty) {
            errors.push(format!("{name}: a timeline entry without an event: {e}"));
        }
    }
    errors
}

#[test]
fn every_fixture_history_links_and_ends_in_its_expected_status() {
    let (_dir, db) = fixtures_db();
    let all = json(&db, &["list", "--json"]);
    assert_eq!(
        all.as_array().map(|a| a.len()),
        Some(28),
        "twenty-eight regressions"
    );
    let mut errors = Vec::new();
    for (name, exp) in expected() {
        for want in exp["regressions"].as_array().expect("regressions") {
            let culprit = want["culprit"].as_str().expect("culprit");
            // Query by the 10-hex short id of the subject, as users type it.
            let got = json(&db, &["show", "--json", &culprit[..10]]);
            let arr = got.as_array().expect("list");
            assert_eq!(arr.len(), 1, "{name}: one regression for {culprit}");
            errors.extend(check(&format!("{name} {}", &culprit[..10]), want, &arr[0]));
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn re_ingesting_changes_nothing_and_keeps_ids() {
    let (_dir, db) = fixtures_db();
    let before = json(&db, &["list", "--json"]);
    ingest_fixtures(&db);
    let after = json(&db, &["list", "--json"]);
    assert_eq!(before, after);
}

#[test]
fn a_mark_wins_survives_re_ingest_and_shows_its_author_in_the_timeline() {
    let (_dir, db) = fixtures_db();
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
    // It, the hedged decline and the bystander's of their own fixtures.
    let listed = json(&db, &["list", "--json", "--status", "declined"]);
    assert_eq!(listed.as_array().map(|a| a.len()), Some(3));
}

#[test]
fn show_finds_histories_by_subsystem_metric_message_id_and_id() {
    let (_dir, db) = fixtures_db();
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
    assert_eq!(culprits(&json(&db, &["show", "--json", "ext4"])).len(), 11);
    let id = json(&db, &["show", "--json", "c0ffee0123"])[0]["id"].clone();
    let by_id = json(&db, &["show", "--json", &id.to_string()]);
    assert_eq!(culprits(&by_id), ["c0ffee0123"]);
    // Nothing matches: exit 1, empty JSON list.
    let out = Cmd::regtrack()
        .db(&db)
        .args(["show", "--json", "nosuchthing.metric"])
        .run();
    assert_eq!(out.code(), Some(1));
    assert_eq!(out.json(), json!([]));
}

#[test]
fn human_output_has_no_colours_when_piped_and_colours_when_forced() {
    let (_dir, db) = fixtures_db();
    let plain = run(&db, &["show", "5e1f2a3b4c"]).stdout;
    assert!(!plain.contains('\u{1b}'), "no escapes when piped");
    assert!(plain.contains("status: fix-applied"), "{plain}");
    assert!(
        plain.contains("Fixes: 5e1f2a3b4c5d (\"ext4: take the orphan lock only when needed\")")
    );
    assert!(plain.contains("Theodore Ts'o"));
    assert!(plain.contains("fsmark.files_per_sec"));
    let colour = run(&db, &["--color", "always", "show", "5e1f2a3b4c"]).stdout;
    assert!(colour.contains("\u{1b}["));
    let list = run(&db, &["list"]).stdout;
    let lines: Vec<&str> = list.lines().collect();
    assert_eq!(lines.len(), 28);
    // Newest first.
    for (i, culprit) in [
        (0, "7c1d2e3f4a"),
        (1, "8d9e0f1a2b"),
        (2, "7c8d9e0f1a"),
        (3, "6b7c8d9e0f"),
        (4, "5a6b7c8d9e"),
        (5, "b6dea6c7fe"),
        (6, "a0a1a2a3a4"),
        (10, "9b5c6d7e8f"),
        (11, "b10cca7e11"),
        (12, "8a4b5c6d7e"),
        (13, "5f1a2b3c1b"),
        (16, "7e3f4a5b6c"),
        (17, "6d2e3f4a5b"),
        (21, "3c9e5a7d1b"),
        (23, "5e1f2a3b4c"),
    ] {
        assert!(lines[i].contains(culprit), "line {i}: {list}");
    }
    let improvements = run(&db, &["list", "--direction", "improvement"]).stdout;
    assert_eq!(improvements.lines().count(), 3);
    let big = run(&db, &["list", "--min-change", "20"]).stdout;
    assert_eq!(big.lines().count(), 7, "{big}"); // +92.5% thrice, +23.3%, +21.0%, -69.4% and -29.4%
    let since = run(
        &db,
        &["list", "--since", "2024-06-01", "--until", "2024-08-01"],
    )
    .stdout;
    assert_eq!(since.lines().count(), 5, "{since}");
    assert!(
        since.contains("9b5c6d7e8f")
            && since.contains("8a4b5c6d7e")
            && since.contains("d15ea5e012")
            && since.contains("5f1a2b3c1b")
            && since.contains("b10cca7e11"),
        "{since}"
    );
}

/// The statuses an export lists after the open ones.
const CLOSED: &[&str] = &[
    "fix-applied",
    "fixed",
    "declined",
    "improvement",
    "culprit-dropped",
];

#[test]
fn exports_put_open_regressions_first_grouped_by_subsystem() {
    let (dir, db) = fixtures_db();
    let md = run(&db, &["export", "--format", "md"]).stdout;
    let open = md.find("## Open").expect("open section");
    let closed = md.find("## Closed").expect("closed section");
    assert!(open < closed);
    assert!(md[open..closed].contains("7b8c9d0e1f2a"));
    assert!(md[closed..].contains("5e1f2a3b4c5d"));
    assert!(md[open..closed].contains("### ext4") && md[open..closed].contains("### jbd2"));
    let csv = run(&db, &["export", "--format", "csv"]).stdout;
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 29);
    assert!(rows[0].starts_with("id,subsystem,status,age_days"));
    // fixed-history's fix is applied, and the later versions of
    // retitled-fix, change-id-fix, next-version and renamed-version, and
    // the fix of the improvement read as a bug; fix-in-tree's is in
    // mainline.
    assert_eq!(
        rows.iter().filter(|r| r.contains(",fix-applied,")).count(),
        6
    );
    assert_eq!(rows.iter().filter(|r| r.contains(",fixed,")).count(), 1);
    let j = json(&db, &["export", "--format", "json"]);
    let arr = j.as_array().expect("array");
    assert_eq!(arr.len(), 28);
    // Open first.
    let statuses: Vec<&str> = arr.iter().filter_map(|r| r["status"].as_str()).collect();
    let first_closed = statuses
        .iter()
        .position(|s| CLOSED.contains(s))
        .expect("a closed one");
    assert!(
        statuses[first_closed..].iter().all(|s| CLOSED.contains(s)),
        "{statuses:?}"
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
            crate::common::s(&html_path),
        ],
    );
    let html = std::fs::read_to_string(&html_path).expect("html");
    assert!(html.contains("<table id=\"regs\">"));
    assert!(html.contains("<svg class=\"chart\""));
    // Nothing is fetched; the links go to lore and to the commits only
    // (a posted patch's culprit on the robot's branch of it, under the
    // robot's current or its older GitHub organisation; a maintainer
    // tree's culprit in that tree).
    assert!(!html.contains("src=\"http"));
    for href in html.split("href=\"").skip(1) {
        assert!(
            href.starts_with("https://lore.kernel.org/all/")
                || href.starts_with("https://git.kernel.org/torvalds/c/")
                || href.starts_with("https://git.kernel.org/pub/scm/linux/kernel/git/")
                || href.starts_with("https://github.com/intel-lab-lkp/linux/commit/")
                || href.starts_with("https://github.com/0day-ci/linux/commit/"),
            "{}",
            &href[..href.len().min(80)]
        );
    }
}

#[test]
fn a_mark_naming_a_candidate_posting_links_it_and_settles_the_history() {
    let (_dir, db) = fixtures_db();
    let before = &json(&db, &["show", "--json", "5a6b7c8d9e"])[0];
    assert_eq!(before["status_confidence"], "unsure");
    let settle = before["doubts"][0]["settle"].as_str().expect("settle");
    assert_eq!(
        settle,
        "regtrack mark 5a6b7c8d9e0f --fix stranger-ivo-1@example.org"
    );
    // The line as offered, run as written.
    let args: Vec<&str> = settle.split(' ').skip(1).collect();
    let mut all = vec!["-q"];
    all.extend(args);
    run(&db, &all);
    let after = &json(&db, &["show", "--json", "5a6b7c8d9e"])[0];
    assert_eq!(after["status_confidence"], "sure");
    assert_eq!(after["doubts"], json!([]));
    let patches: Vec<&str> = after["patches"]
        .as_array()
        .expect("patches")
        .iter()
        .filter_map(|p| p["message_id"].as_str())
        .collect();
    assert!(
        patches.contains(&"stranger-ivo-1@example.org"),
        "{patches:?}"
    );
    let last = after["timeline"]
        .as_array()
        .and_then(|t| t.last())
        .expect("timeline");
    assert_eq!(last["event"], "marked the fix <stranger-ivo-1@example.org>");
    // A Message-ID that is no Message-ID is refused, naming it.
    let bad = Cmd::regtrack()
        .db(&db)
        .args(["mark", "5a6b7c8d9e", "--fix", "not an id@ x"])
        .run();
    assert_eq!(bad.code(), Some(2), "{}", bad.stderr);
    assert!(bad.stderr.contains("is not a Message-ID"), "{}", bad.stderr);
}

#[test]
fn unsure_histories_are_flagged_listed_reported_and_marked_in_html() {
    let (_dir, db) = fixtures_db();
    let unsure = json(&db, &["list", "--json", "--unsure"]);
    let culprits: Vec<&str> = unsure
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|r| r["culprit"]["commit"].as_str())
        .map(|c| &c[..10])
        .collect();
    assert!(culprits.contains(&"6b7c8d9e0f"), "{culprits:?}");
    assert!(culprits.contains(&"5a6b7c8d9e"), "{culprits:?}");
    for r in unsure.as_array().expect("list") {
        assert_eq!(r["status_confidence"], "unsure");
        assert!(!r["doubts"].as_array().expect("doubts").is_empty());
        assert!(
            r["flags"]
                .as_array()
                .expect("flags")
                .contains(&json!("unsure"))
        );
    }
    // The sure ones are not listed, and say so.
    let all = json(&db, &["list", "--json"]);
    let sure = all
        .as_array()
        .expect("list")
        .iter()
        .filter(|r| r["status_confidence"] == "sure")
        .count();
    assert_eq!(sure + culprits.len(), all.as_array().expect("list").len());
    assert!(sure > 0);
    let plain = run(&db, &["list", "--unsure"]).stdout;
    assert!(plain.lines().all(|l| l.contains("unsure")), "{plain}");
    let report = run(
        &db,
        &[
            "report",
            "--format",
            "text",
            "--now",
            "2025-02-10",
            "--since",
            "60d",
        ],
    )
    .stdout;
    let needs = report.find("== Needs a decision (").expect("section");
    assert!(
        report[needs..].contains("regtrack mark 6b7c8d9e0f1a declined"),
        "{report}"
    );
    let html = run(&db, &["export", "--format", "html"]).stdout;
    assert!(html.contains("<span class=\"unsure\""));
    assert!(html.contains("settle it: <code>regtrack mark 6b7c8d9e0f1a declined</code>"));
}

#[test]
fn a_fix_known_by_its_link_takes_its_time_and_author_from_a_git_send_email_id() {
    let (_dir, db) = fixtures_db();
    let got = json(&db, &["show", "--json", "8a4b5c6d7e"]);
    let r = got.as_array().and_then(|a| a.first()).unwrap_or(&got);
    let cited = r["patches"]
        .as_array()
        .expect("patches")
        .iter()
        .find(|p| p["message_id"] == "20240605212808.4242-1-pat@example.org")
        .expect("the posting the reply points at");
    assert_eq!(cited["state"], "confirmed", "{cited}");
    // The reply that points at it is Pat Dev's, from the id's address.
    assert_eq!(cited["from"], "Pat Dev", "{cited}");
    assert_eq!(cited["date"], "2024-06-05T21:28:08Z", "{cited}");
    assert_eq!(cited["subject"], "", "{cited}");
    // `show` says how to read it.
    let shown = run(&db, &["show", "8a4b5c6d7e"]).stdout;
    assert!(
        shown.contains(
            "not in the database; to read it: regtrack fetch 20240605212808.4242-1-pat@example.org"
        ),
        "{shown}"
    );
}

#[test]
fn what_regtrack_prints_can_be_given_back_to_it() {
    let (_dir, db) = fixtures_db();
    let one = json(&db, &["show", "--json", "6b7c8d9e0f1a"]);
    let r = one.as_array().and_then(|a| a.first()).expect("one history");
    let id = r["id"].as_i64().expect("id");
    // `#12`, as `show` and `list` name a history.
    let by_hash = json(&db, &["show", "--json", &format!("#{id}")]);
    assert_eq!(by_hash, one);
    // A report's lore URL, as every output prints it.
    let report = r["reports"][0]["message_id"].as_str().expect("report id");
    let url = format!(
        "https://lore.kernel.org/all/{}/",
        report.replace('@', "%40")
    );
    let by_url = json(&db, &["show", "--json", &url]);
    assert_eq!(by_url, one);
    let mail = run(&db, &["mail", &url]).stdout;
    assert!(mail.contains(&format!("Message-ID: <{report}>")), "{mail}");
    // A commit prefix too short says why nothing matched.
    let short = Cmd::regtrack().db(&db).args(["show", "6b7c"]).run();
    assert!(
        short
            .stderr
            .contains("a commit prefix needs 7 hex digits or more"),
        "{}",
        short.stderr
    );
}
