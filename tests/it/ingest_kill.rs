//! An interrupted ingest (kill -9 mid-run) leaves a database that passes
//! `PRAGMA integrity_check`, and a re-run completes the job: nothing missing,
//! nothing twice. The killed run was a bulk load (empty database), so it had
//! dropped its secondary indexes: the re-run builds every one of them.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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

fn count(db: &Path) -> i64 {
    let Ok(conn) = rusqlite::Connection::open(db) else {
        return 0;
    };
    conn.query_row("SELECT count(*) FROM messages", [], |r| r.get(0))
        .unwrap_or(0)
}

#[test]
fn a_killed_ingest_leaves_a_sound_database_and_a_rerun_finishes_the_job() {
    let dir = tempfile::tempdir().unwrap();
    let mbox = dir.path().join("big.mbox");
    big_mbox(&mbox);
    let db = dir.path().join("t.db");
    let bin = env!("CARGO_BIN_EXE_regtrack");
    let mut child = Command::new(bin)
        .env_remove("REGTRACK_DB")
        .arg("--db")
        .arg(&db)
        .args(["ingest", "--quiet"])
        .arg(&mbox)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let mut before_kill = 0;
    while started.elapsed() < Duration::from_secs(120) {
        before_kill = count(&db);
        if before_kill > 0 || child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL on unix
    child.wait().unwrap();
    assert!(
        (before_kill as usize) < MESSAGES,
        "the run finished before the kill"
    );

    let conn = rusqlite::Connection::open(&db).unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    let stored = count(&db);
    let deferred: i64 = conn
        .query_row("SELECT count(*) FROM deferred_indexes", [], |r| r.get(0))
        .unwrap();
    // The bulk load defers its six randomly keyed indexes.
    assert_eq!(deferred, 6, "{deferred} indexes deferred");
    drop(conn);

    let out = Command::new(bin)
        .env_remove("REGTRACK_DB")
        .arg("--db")
        .arg(&db)
        .args(["ingest", "--json"])
        .arg(&mbox)
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["new"].as_i64().unwrap(), MESSAGES as i64 - stored);
    assert_eq!(v["known"].as_i64().unwrap(), stored);
    assert_eq!(v["failed"], 0);
    assert_eq!(count(&db), MESSAGES as i64);
    let conn = rusqlite::Connection::open(&db).unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    let distinct: i64 = conn
        .query_row("SELECT count(DISTINCT message_id) FROM messages", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(distinct, MESSAGES as i64);
    let left: i64 = conn
        .query_row("SELECT count(*) FROM deferred_indexes", [], |r| r.get(0))
        .unwrap();
    assert_eq!(left, 0);
    let mut fresh = rusqlite::Connection::open_in_memory().unwrap();
    regtrack::store::migrations::migrate(&mut fresh, ":memory:").unwrap();
    let names = |c: &rusqlite::Connection| -> Vec<String> {
        let mut st = c
            .prepare("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name")
            .unwrap();
        st.query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    assert_eq!(names(&conn), names(&fresh));
    assert!(names(&conn).iter().any(|n| n == "commit_refs_commit"));
}
