//! Damaged rows: a regression whose stored summary does not decode is named
//! (count and id) by `list`, `export` and `show` instead of vanishing, and
//! `regtrack relink` (or the next ingest that links) rebuilds it.

use std::path::Path;

use crate::common::{Cmd, Run, column, corpus, sql::execute};

fn listed_ids(db: &Path) -> Vec<i64> {
    let v = Cmd::regtrack().db(db).args(["list", "--json"]).json();
    let mut ids: Vec<i64> = v
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|r| r["id"].as_i64())
        .collect();
    ids.sort_unstable();
    ids
}

/// Asserts that `run` names the one damaged row `victim` as left out.
fn assert_left_out(run: &Run, victim: i64, what: &str) {
    assert!(
        run.stderr.contains("1 stored regression left out")
            && run.stderr.contains(&format!("regression {victim}:")),
        "{what} does not name the damaged row: {}",
        run.stderr
    );
}

/// Runs `regtrack relink` and asserts that it names `victim` as the one
/// summary it rebuilt.
fn assert_relink_rebuilds(db: &Path, victim: i64) {
    let run = Cmd::regtrack().db(db).arg("relink").ok();
    assert!(
        run.stderr
            .contains(&format!("1 stored regression did not decode (id {victim})")),
        "{}",
        run.stderr
    );
}

#[test]
fn a_summary_that_does_not_decode_is_reported_and_rebuilt_by_relinking() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    Cmd::regtrack()
        .db(&db)
        .args(["-q", "ingest"])
        .arg(corpus("threads"))
        .ok();
    let all: Vec<i64> = column(&db, "SELECT id FROM regressions ORDER BY id");
    assert!(all.len() >= 2, "{all:?}");
    assert_eq!(listed_ids(&db), all);
    let victim = all[1];
    let before: String = crate::common::one(
        &db,
        &format!("SELECT summary_json FROM regressions WHERE id = {victim}"),
    );
    execute(
        &db,
        &format!("UPDATE regressions SET summary_json = '{{\"culprit\": 7' WHERE id = {victim}"),
    );

    for args in [
        &["list"][..],
        &["--quiet", "list", "--json"],
        &["export", "--format", "md"],
        &["export", "--format", "csv"],
    ] {
        let run = Cmd::regtrack().db(&db).args(args).run();
        run.assert_no_panic();
        assert_left_out(&run, victim, &format!("{args:?}"));
    }
    let others: Vec<i64> = all.iter().copied().filter(|&i| i != victim).collect();
    assert_eq!(listed_ids(&db), others);

    assert_relink_rebuilds(&db, victim);
    let after: String = crate::common::one(
        &db,
        &format!("SELECT summary_json FROM regressions WHERE id = {victim}"),
    );
    assert_eq!(after, before, "rebuilt as it was");
    let run = Cmd::regtrack().db(&db).arg("list").ok();
    assert!(!run.stderr.contains("left out"), "{}", run.stderr);
    assert_eq!(listed_ids(&db), all);

    // An ingest's update does not read every stored summary (its cost
    // would grow with the histories), so it leaves the damage to readers to
    // name and to `relink` to rebuild.
    execute(
        &db,
        &format!("UPDATE regressions SET summary_json = '42' WHERE id = {victim}"),
    );
    let extra = dir.path().join("extra.eml");
    std::fs::write(
        &extra,
        "From: A <a@example.org>\nSubject: unrelated\nDate: Mon, 3 Mar 2025 10:00:00 +0000\n\
         Message-ID: <extra@example.org>\n\nhello\n",
    )
    .unwrap();
    let run = Cmd::regtrack()
        .db(&db)
        .args(["ingest", "--timings"])
        .arg(&extra)
        .ok();
    assert!(
        run.stderr.contains("(an update)"),
        "an update: {}",
        run.stderr
    );
    let run = Cmd::regtrack().db(&db).arg("list").ok();
    assert_left_out(&run, victim, "list after an update");
    assert_relink_rebuilds(&db, victim);
    assert_eq!(listed_ids(&db), all);

    // A summary that is not text at all (a blob a foreign write left) is
    // left out and named the same way, and rebuilt by `relink`.
    execute(
        &db,
        &format!("UPDATE regressions SET summary_json = X'00FF7B' WHERE id = {victim}"),
    );
    let run = Cmd::regtrack()
        .db(&db)
        .args(["export", "--format", "json"])
        .run();
    run.assert_no_panic();
    assert_left_out(&run, victim, "export of a blob summary");
    assert_eq!(listed_ids(&db), others);
    assert_relink_rebuilds(&db, victim);
    assert_eq!(listed_ids(&db), all);
}
