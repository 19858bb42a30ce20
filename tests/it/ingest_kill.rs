//! An interrupted ingest (kill -9 mid-run) leaves a database that passes
//! `PRAGMA integrity_check`, and a re-run completes the job: nothing missing,
//! nothing twice. The killed run was a bulk load (empty database), so it had
//! dropped its secondary indexes: the re-run builds every one of them.

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::sql::{integrity, try_i64};
use crate::common::{Cmd, column, sql_i64};

const MESSAGES: usize = 30_000;

fn big_mbox(path: &Path) {
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let filler = "    1234 \u{b1} 2%  -5.7%  1163 \u{b1} 3%  fsmark.files_per_sec\n".repeat(4);
    for i in 0..MESSAGES {
        write!(
            f,
            "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: Robot <r@x>\nSubject: [t] {i}: m -1% regression\nDate: Tue, 09 May 2023 09:05:00 +0000\nMessage-ID: <kill-{i}@x>\nList-Id: <t.lists>\n\nmessage {i}\n{filler}\n"
        )
        .unwrap();
    }
}

/// Messages stored so far (0 while the database does not exist or is empty).
fn count(db: &Path) -> i64 {
    try_i64(db, "SELECT count(*) FROM messages").unwrap_or(0)
}

#[test]
fn a_killed_ingest_leaves_a_sound_database_and_a_rerun_finishes_the_job() {
    let dir = tempfile::tempdir().unwrap();
    let mbox = dir.path().join("big.mbox");
    big_mbox(&mbox);
    let db = dir.path().join("t.db");
    let mut child = Cmd::regtrack()
        .db(&db)
        .args(["ingest", "--quiet"])
        .arg(&mbox)
        .spawn();
    let started = Instant::now();
    let mut before_kill = 0;
    while started.elapsed() < Duration::from_secs(120) {
        before_kill = count(&db);
        if before_kill > 0 || !child.is_running() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill(); // SIGKILL
    assert!(
        (before_kill as usize) < MESSAGES,
        "the run finished before the kill"
    );

    assert_eq!(integrity(&db), "ok");
    let stored = count(&db);
    // The bulk load defers every randomly keyed index it names.
    let deferred = sql_i64(&db, "SELECT count(*) FROM deferred_indexes");
    assert_eq!(
        deferred as usize,
        regtrack::store::bulk::DEFERRED.len(),
        "{deferred} indexes deferred"
    );

    // A reading command says the histories leave the stored mail out.
    let listed = Cmd::regtrack().db(&db).arg("list").run();
    assert!(
        listed
            .stderr
            .contains("stored since the histories were last linked"),
        "{}",
        listed.stderr
    );

    let v = Cmd::regtrack()
        .db(&db)
        .args(["ingest", "--json"])
        .arg(&mbox)
        .json();
    let listed = Cmd::regtrack().db(&db).arg("list").run();
    assert!(!listed.stderr.contains("last linked"), "{}", listed.stderr);
    assert_eq!(v["new"].as_i64().unwrap(), MESSAGES as i64 - stored);
    assert_eq!(v["known"].as_i64().unwrap(), stored);
    assert_eq!(v["failed"], 0);
    assert_eq!(count(&db), MESSAGES as i64);
    assert_eq!(integrity(&db), "ok");
    assert_eq!(
        sql_i64(&db, "SELECT count(DISTINCT message_id) FROM messages"),
        MESSAGES as i64
    );
    assert_eq!(sql_i64(&db, "SELECT count(*) FROM deferred_indexes"), 0);
    const INDEXES: &str = "SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name";
    let fresh_names: Vec<String> = crate::common::fresh_schema_rows::<(String,)>(INDEXES)
        .into_iter()
        .map(|(n,)| n)
        .collect();
    let names: Vec<String> = column(&db, INDEXES);
    assert_eq!(names, fresh_names);
    assert!(names.iter().any(|n| n == "commit_refs_commit"));
}
