//! `regtrack mark` (a status, `--fix`, `--fixed-in`, `dup-of`) and
//! `regtrack unmark` end to end on the corpus threads: what `show`, `list`
//! and the timeline say after each, ids kept when a duplicate comes back,
//! refusals with their exit statuses, and the histories after the updates
//! equal to a full relink of the same database.

use std::path::Path;

use serde_json::Value;

use crate::common::{Cmd, Run, assert_same_as_full};

/// The ext4 history with a fix posted and applied, and two open ones.
const APPLIED: &str = "5e1f2a3b4c";
const REPORTED: &str = "d15ea5e012";
const PROPOSED: &str = "e5e5e5e5e5";

fn cmd(db: &Path, args: &[&str]) -> Run {
    Cmd::regtrack()
        .db(db)
        .args(args)
        .env("REGTRACK_USER", "Test Person")
        .run()
}

fn ok(db: &Path, args: &[&str]) -> Run {
    let r = cmd(db, args);
    assert!(r.success(), "regtrack {args:?}: {}", r.stderr);
    r
}

fn show(db: &Path, q: &str) -> Value {
    let v = ok(db, &["show", "--json", q]).json();
    assert_eq!(v.as_array().map(Vec::len), Some(1), "{q}: {v:#}");
    v[0].clone()
}

fn events(r: &Value) -> Vec<String> {
    r["timeline"]
        .as_array()
        .expect("timeline")
        .iter()
        .filter_map(|e| e["event"].as_str().map(str::to_string))
        .collect()
}

fn ingested() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("t.db");
    let threads = crate::common::corpus("threads");
    ok(&db, &["-q", "ingest", crate::common::s(&threads)]);
    (dir, db)
}

#[test]
fn a_fix_and_its_release_marked_make_the_history_fixed_until_withdrawn() {
    let (_dir, db) = ingested();
    let before = show(&db, REPORTED);
    assert_eq!(before["status"], "reported");
    let fix = "4b1c2e9d0a7f55aa";
    ok(&db, &["-q", "mark", REPORTED, "--fix", fix]);
    let r = show(&db, REPORTED);
    assert_eq!(r["status"], "fix-applied", "{r:#}");
    assert_eq!(r["fix"]["commit"], fix);
    assert_eq!(r["fix"]["state"], "applied");
    assert_eq!(r["facts"]["marked"], false, "a fix mark does not pin");
    assert!(
        r["fix"]["commit_url"]
            .as_str()
            .is_some_and(|u| u.ends_with(fix)),
        "{:#}",
        r["fix"]
    );
    ok(
        &db,
        &[
            "-q",
            "mark",
            REPORTED,
            "--fixed-in",
            "v6.9",
            "--note",
            "checked",
        ],
    );
    let r = show(&db, REPORTED);
    assert_eq!(r["status"], "fixed", "{r:#}");
    assert_eq!(r["fix"]["release"], "v6.9");
    assert_eq!(r["fix"]["state"], "merged");
    let ev = events(&r);
    assert!(
        ev.contains(&"marked the fix 4b1c2e9d0a7f".to_string()),
        "{ev:?}"
    );
    assert!(
        ev.contains(&"marked fixed in v6.9: checked".to_string()),
        "{ev:?}"
    );
    let listed = ok(
        &db,
        &["list", "--json", "--status", "fixed", "--fixed-in", "v6.9"],
    )
    .json();
    assert!(
        listed
            .as_array()
            .expect("list")
            .iter()
            .any(|x| x["culprit"]["commit"]
                .as_str()
                .is_some_and(|c| c.starts_with(REPORTED))),
        "{listed:#}"
    );
    assert_same_as_full(&db);

    // Withdrawn one by one, newest first; both marks stay in the timeline.
    ok(&db, &["-q", "unmark", REPORTED]);
    let r = show(&db, REPORTED);
    assert_eq!(r["status"], "fix-applied");
    assert_eq!(r["fix"]["release"], Value::Null);
    let ev = events(&r);
    assert!(
        ev.contains(&"marked fixed in v6.9: checked (withdrawn)".to_string()),
        "{ev:?}"
    );
    assert!(
        ev.contains(&"withdrew the mark 'marked fixed in v6.9'".to_string()),
        "{ev:?}"
    );
    ok(&db, &["-q", "unmark", REPORTED]);
    let r = show(&db, REPORTED);
    assert_eq!(r["status"], "reported");
    assert_eq!(r["fix"], Value::Null);
    assert_same_as_full(&db);
    // Nothing left to withdraw: exit status 1, nothing stored.
    let r = cmd(&db, &["unmark", REPORTED]);
    assert_eq!(r.code(), Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("no mark to withdraw"), "{}", r.stderr);
}

#[test]
fn a_status_mark_pins_and_unmark_gives_the_inferred_status_back() {
    let (_dir, db) = ingested();
    ok(
        &db,
        &["-q", "mark", APPLIED, "declined", "--note", "not ours"],
    );
    let r = show(&db, APPLIED);
    assert_eq!(r["status"], "declined");
    assert_eq!(r["facts"]["marked"], true);
    ok(&db, &["-q", "unmark", APPLIED, "--note", "wrong one"]);
    let r = show(&db, APPLIED);
    assert_eq!(r["status"], "fix-applied", "{r:#}");
    let ev = events(&r);
    assert!(
        ev.contains(&"withdrew the mark 'marked declined': wrong one".to_string()),
        "{ev:?}"
    );
}

#[test]
fn a_duplicate_joins_the_other_history_and_comes_back_with_its_id() {
    let (_dir, db) = ingested();
    let n_before = ok(&db, &["list", "--json"]).json().as_array().map(Vec::len);
    let a = show(&db, REPORTED);
    let b = show(&db, PROPOSED);
    let out = ok(&db, &["mark", REPORTED, "dup-of", PROPOSED]);
    assert!(out.stderr.contains("a duplicate of"), "{}", out.stderr);
    // Its number is gone: the mark says which history it joined, and the
    // old number, named again, says to use the commit.
    let joined = format!("#{} is now part of #{}", a["id"], b["id"]);
    assert!(out.stderr.contains(&joined), "{}", out.stderr);
    let gone = Cmd::regtrack()
        .db(&db)
        .args(["unmark", &a["id"].to_string()])
        .run();
    assert_eq!(gone.code(), Some(1), "{}", gone.stderr);
    assert!(gone.stderr.contains("culprit commit"), "{}", gone.stderr);
    let n_merged = ok(&db, &["list", "--json"]).json().as_array().map(Vec::len);
    assert_eq!(n_merged, n_before.map(|n| n - 1));
    // Either culprit finds the one history, which holds both reports.
    let merged = show(&db, REPORTED);
    assert_eq!(merged, show(&db, PROPOSED));
    assert_eq!(merged["id"], b["id"]);
    assert!(
        merged["culprit"]["aliases"]
            .as_array()
            .expect("aliases")
            .iter()
            .any(|x| x.as_str().is_some_and(|c| c.starts_with(REPORTED))),
        "{:#}",
        merged["culprit"]
    );
    let reports = merged["reports"].as_array().map(Vec::len).unwrap_or(0);
    let had = a["reports"].as_array().map(Vec::len).unwrap_or(0)
        + b["reports"].as_array().map(Vec::len).unwrap_or(0);
    assert_eq!(reports, had);
    assert!(
        events(&merged)
            .iter()
            .any(|e| e.starts_with("marked d15ea5e01234 a duplicate of e5e5e5e5e5a1")),
        "{:?}",
        events(&merged)
    );
    assert_same_as_full(&db);

    // Withdrawn: two histories again, each with the id it had.
    ok(&db, &["-q", "unmark", PROPOSED]);
    let back = show(&db, REPORTED);
    assert_eq!(back["id"], a["id"]);
    assert_eq!(back["status"], a["status"]);
    assert_eq!(show(&db, PROPOSED)["id"], b["id"]);
    assert!(
        events(&back)
            .iter()
            .any(|e| e.ends_with("(withdrawn)") && e.contains("a duplicate of")),
        "{:?}",
        events(&back)
    );
    assert_same_as_full(&db);
}

#[test]
fn marks_that_cannot_be_made_are_refused_and_store_nothing() {
    let (_dir, db) = ingested();
    let marks = |db: &Path| -> i64 {
        let conn = rusqlite::Connection::open(db).expect("open");
        conn.query_row("SELECT count(*) FROM marks", [], |r| r.get(0))
            .expect("count")
    };
    // A missing regression: 1, as for every query.
    for args in [
        vec!["mark", "abcdef0123", "declined"],
        vec!["mark", REPORTED, "dup-of", "abcdef0123"],
        vec!["unmark", "abcdef0123"],
    ] {
        let r = cmd(&db, &args);
        assert_eq!(r.code(), Some(1), "{args:?}: {}", r.stderr);
    }
    // Usage: 2.
    for args in [
        vec!["mark", REPORTED],
        vec!["mark", REPORTED, "dup-of"],
        vec!["mark", REPORTED, "dup-of", REPORTED],
        vec!["mark", REPORTED, "declined", PROPOSED],
        vec!["mark", REPORTED, "--fix", "not-a-sha"],
        vec!["mark", REPORTED, "--fixed-in", "v6 9"],
        vec!["mark", REPORTED, "bogus"],
    ] {
        let r = cmd(&db, &args);
        assert_eq!(r.code(), Some(2), "{args:?}: {}", r.stderr);
        assert!(!r.stderr.is_empty(), "{args:?} says why");
    }
    assert_eq!(marks(&db), 0);
}

#[test]
fn a_fix_named_by_a_message_id_nobody_stored_is_marked_and_said() {
    let (_dir, db) = ingested();
    let out = ok(
        &db,
        &["mark", REPORTED, "--fix", "<no-such-posting@example.org>"],
    );
    assert!(
        out.stderr
            .contains("no stored message has Message-ID 'no-such-posting@example.org'"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("regtrack fetch"), "{}", out.stderr);
    // A stored posting is named without a note.
    let stored = show(&db, REPORTED)["reports"][0]["message_id"]
        .as_str()
        .expect("a report")
        .to_string();
    let out = ok(&db, &["mark", REPORTED, "--fix", &stored]);
    assert!(!out.stderr.contains("no stored message"), "{}", out.stderr);
}
