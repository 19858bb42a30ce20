//! Readers never block, and old databases open.
//!
//! - While `regtrack ingest` reads a large synthetic archive (fed slowly through
//!   standard input so that it surely runs for seconds), `regtrack list` and
//!   `regtrack show ext4` run side by side, again and again: each must answer
//!   within a bounded time with no "locked"/"busy" error.
//! - A database of released schema versions (`tests/data/schema-vN.sql`,
//!   loaded into a fresh file with `PRAGMA user_version = N`) opens with the
//!   current binary (`regtrack stats --json`), is migrated to the current
//!   version, and keeps every row.

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::{Cmd, Run, field, integrity, sql_i64 as count, write_synth};

/// `regtrack --db DB ARGS` with a time limit.
fn regtrack<S: AsRef<std::ffi::OsStr>>(db: &Path, args: &[S], limit: Duration) -> Run {
    Cmd::regtrack().db(db).args(args).limit(limit).run()
}

/// The longest a reader may take while an ingest runs.
const READER_LIMIT: Duration = Duration::from_secs(5);

#[test]
fn list_and_show_keep_answering_while_an_ingest_runs() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("busy.db");
    // A database with something in it before the long ingest starts.
    let first = regtrack(
        &db,
        &[
            "ingest".as_ref(),
            "--quiet".as_ref(),
            crate::common::corpus("bad/no-from-line.eml").as_os_str(),
        ],
        Duration::from_secs(60),
    );
    first.assert_no_panic();
    assert_eq!(first.code(), Some(0), "{}", first.stderr);

    let archive = dir.path().join("synth.mbox");
    write_synth(2500, 11, &archive);
    let data = std::fs::read(&archive).unwrap();

    // Feed the archive over about four seconds, in message-aligned chunks.
    let feed = move |mut stdin: std::process::ChildStdin| {
        let chunks = 40;
        let step = data.len() / chunks + 1;
        let mut at = 0;
        while at < data.len() {
            let mut end = (at + step).min(data.len());
            while end < data.len() && !data[..end].ends_with(b"\n\nFrom ") {
                end += 1;
            }
            let end = if end < data.len() { end - 5 } else { end };
            if stdin.write_all(&data[at..end]).is_err() {
                return;
            }
            let _ = stdin.flush();
            at = end;
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    let mut ingest = Cmd::regtrack()
        .db(&db)
        .args(["ingest", "--quiet", "--json", "-"])
        .stdin_feed(feed)
        .limit(Duration::from_secs(600))
        .spawn();

    let start = Instant::now();
    let mut rounds = 0;
    let mut slowest = Duration::ZERO;
    while ingest.is_running() && start.elapsed() < Duration::from_secs(300) {
        for args in [["list", "--json"].as_slice(), ["show", "ext4"].as_slice()] {
            let run = regtrack(&db, args, READER_LIMIT);
            run.assert_no_panic();
            let lower = run.stderr.to_lowercase();
            assert!(
                !lower.contains("locked") && !lower.contains("busy"),
                "{}: blocked by the ingest: {}",
                run.what,
                run.stderr
            );
            // Either may find nothing yet (exit 1); `list --json` then
            // still answers with a JSON list.
            if args[0] == "list" {
                assert!(
                    matches!(run.code(), Some(0) | Some(1)),
                    "{}: exit {:?}: {}",
                    run.what,
                    run.code(),
                    run.stderr
                );
                let v: serde_json::Value = serde_json::from_str(&run.stdout)
                    .unwrap_or_else(|e| panic!("{}: not JSON ({e}): {}", run.what, run.stdout));
                assert!(v.is_array(), "{}: {}", run.what, run.stdout);
                if run.code() == Some(1) {
                    assert_eq!(v.as_array().map(Vec::len), Some(0), "{}", run.what);
                }
            } else {
                assert!(
                    matches!(run.code(), Some(0) | Some(1)),
                    "{}: exit {:?}: {}",
                    run.what,
                    run.code(),
                    run.stderr
                );
            }
            slowest = slowest.max(run.elapsed);
        }
        rounds += 1;
    }
    let run = ingest.wait();
    run.assert_no_panic();
    assert!(run.success(), "ingest failed: {}", run.stderr);
    assert!(
        rounds >= 3,
        "only {rounds} reader rounds ran during the ingest; the test proves nothing"
    );
    eprintln!("{rounds} reader rounds during ingest; slowest reader {slowest:?}");
    let s = run.summary();
    assert_eq!(
        field(&s, "new") + field(&s, "failed") + field(&s, "duplicates"),
        2500,
        "{s}"
    );
    assert_eq!(integrity(&db), "ok");
}

/// Loads `tests/data/schema-vN.sql` into a fresh database file at version N.
fn old_database(dir: &Path, version: i64) -> std::path::PathBuf {
    let sql_path = crate::common::root()
        .join("tests/data")
        .join(format!("schema-v{version}.sql"));
    let sql = std::fs::read_to_string(&sql_path).unwrap();
    let db = dir.join(format!("v{version}.db"));
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(&sql).unwrap();
    conn.pragma_update(None, "user_version", version).unwrap();
    drop(conn);
    db
}

#[test]
fn a_schema_v1_database_opens_migrates_and_keeps_its_rows() {
    let dir = tempfile::tempdir().unwrap();
    let db = old_database(dir.path(), 1);
    let run = regtrack(&db, &["stats", "--json"], Duration::from_secs(60));
    run.assert_no_panic();
    assert_eq!(run.code(), Some(0), "{}", run.stderr);
    let s = run.summary();
    assert_eq!(field(&s, "messages"), 3, "{s}");
    assert_eq!(field(&s, "failed"), 1, "{s}");

    assert_eq!(
        count(&db, "PRAGMA user_version"),
        regtrack::store::migrations::SCHEMA_VERSION
    );
    // A database keeps the page size it was made with (SQLite's default here).
    assert_eq!(count(&db, "PRAGMA page_size"), 4096);
    assert_eq!(count(&db, "SELECT count(*) FROM messages"), 3);
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM messages WHERE message_id IN \
             ('202503031000.1a2b3c4d-lkp@intel.com', 'reply-1@suse.cz', 'patch-1@huawei.com')"
        ),
        3
    );
    // v5 moved References into a column, in order.
    assert_eq!(
        count(&db, "SELECT count(*) FROM messages WHERE refs <> ''"),
        1
    );
    assert_eq!(
        count(&db, "SELECT count(*) FROM message_copies WHERE chosen = 0"),
        1
    );
    assert_eq!(count(&db, "SELECT count(*) FROM failures"), 1);
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM reports WHERE commit_short = '6f7a8b9c0d' AND subsystem = 'ext4'"
        ),
        1
    );
    assert_eq!(count(&db, "SELECT count(*) FROM trailers"), 1);
    // The tables of later versions exist.
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'regressions'"
        ),
        1
    );
    assert_eq!(integrity(&db), "ok");

    // A body stored as text before schema v4 reads back.
    let mail = regtrack(
        &db,
        &["mail", "<202503031000.1a2b3c4d-lkp@intel.com>"],
        Duration::from_secs(60),
    );
    mail.assert_no_panic();
    assert_eq!(mail.code(), Some(0), "{}", mail.stderr);
    assert!(
        mail.stdout
            .contains("\n\nHello,\n\nkernel test robot noticed a 6.3% regression"),
        "{}",
        mail.stdout
    );
    assert!(
        mail.stdout
            .contains("From: kernel test robot <oliver.sang@intel.com>\n")
    );

    // Its raw form was never stored: named, nothing invented (exit 1), and
    // each message is its own chosen copy.
    let raw = regtrack(
        &db,
        &["mail", "--raw", "202503031000.1a2b3c4d-lkp@intel.com"],
        Duration::from_secs(60),
    );
    raw.assert_no_panic();
    assert_eq!(raw.code(), Some(1), "{}", raw.stderr);
    assert!(raw.stdout.is_empty());
    assert!(
        raw.stderr
            .contains("the raw form of <202503031000.1a2b3c4d-lkp@intel.com> is not stored"),
        "{}",
        raw.stderr
    );
    assert_eq!(
        count(&db, "SELECT count(*) FROM message_copies WHERE chosen = 1"),
        3
    );

    // Opening again is a no-op.
    let again = regtrack(&db, &["stats", "--json"], Duration::from_secs(60));
    again.assert_no_panic();
    assert_eq!(field(&again.summary(), "messages"), 3);
}

#[test]
fn a_schema_v3_database_migrates_keeps_its_history_and_takes_new_mail() {
    let dir = tempfile::tempdir().unwrap();
    let db = old_database(dir.path(), 3);
    let show = regtrack(&db, &["show", "ext4", "--json"], Duration::from_secs(60));
    show.assert_no_panic();
    assert_eq!(show.code(), Some(0), "{}", show.stderr);
    let regs: serde_json::Value = serde_json::from_str(&show.stdout).unwrap();
    assert_eq!(regs.as_array().map(Vec::len), Some(1), "{}", show.stdout);
    assert_eq!(regs[0]["status"], "fix-applied", "{}", show.stdout);
    assert_eq!(regs[0]["messages"].as_array().map(Vec::len), Some(6));
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM bodies WHERE lz4 IS NULL AND text <> ''"
        ),
        6
    );
    // v5 moved References into a column, ordered by their old positions.
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM messages WHERE id = 4 AND refs = \
             '202403151023.5e1f2a3b-lkp@intel.com 20240315101500.aaaa1111@quack3 \
             20240318093000.bbbb2222@quack3'"
        ),
        1
    );
    // The bodies left the messages rows (v5); the rows name their body's
    // block since v6.
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM pragma_table_info('messages') WHERE name IN ('body', 'body_lz4')"
        ),
        0
    );

    // v3 stored bodies as text (kept as such in `bodies`): `mail` prints one.
    let old = regtrack(
        &db,
        &["mail", "20240321120000.12345-1-jack@suse.cz"],
        Duration::from_secs(60),
    );
    assert_eq!(old.code(), Some(0), "{}", old.stderr);
    assert!(
        old.stdout.contains("X-Regtrack-Kind: patch\n"),
        "{}",
        old.stdout
    );
    assert!(old.stdout.contains("\n+++ b/"), "{}", old.stdout);

    // New mail into the migrated database is stored compressed in a block, and
    // is not a bulk load: no index is dropped.
    let indexes = count(
        &db,
        "SELECT count(*) FROM sqlite_master WHERE type = 'index'",
    );
    let m = takes_new_mail_into_a_block(&db);
    assert_eq!(m["from_email"], "cy@example.org");
    assert_eq!(count(&db, "SELECT count(*) FROM bodies"), 6);
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM sqlite_master WHERE type = 'index'"
        ),
        indexes
    );
}

/// Ingests `corpus/ingest/single.eml` into a migrated database: its body goes
/// into a block (schema v6), `regtrack mail` prints it, and the database is
/// sound. Returns what `mail --json` printed.
fn takes_new_mail_into_a_block(db: &Path) -> serde_json::Value {
    let eml = crate::common::corpus("ingest/single.eml");
    let ingest = regtrack(
        db,
        &[std::ffi::OsStr::new("ingest"), eml.as_os_str()],
        Duration::from_secs(60),
    );
    ingest.assert_no_panic();
    assert_eq!(ingest.code(), Some(0), "{}", ingest.stderr);
    assert_eq!(
        count(
            db,
            "SELECT count(*) FROM messages m JOIN body_blocks k ON k.id = m.body_block \
             WHERE m.message_id = 'single-1@example.org'"
        ),
        1
    );
    let new = regtrack(
        db,
        &["mail", "single-1@example.org", "--json"],
        Duration::from_secs(60),
    );
    assert_eq!(new.code(), Some(0), "{}", new.stderr);
    let m: serde_json::Value = serde_json::from_str(&new.stdout).unwrap();
    assert_eq!(
        m["body"],
        "> > The fix restores it.\nConfirmed on my machine.\n"
    );
    assert_eq!(integrity(db), "ok");
    m
}

#[test]
fn a_schema_v5_database_migrates_reads_its_bodies_and_takes_new_mail() {
    let dir = tempfile::tempdir().unwrap();
    let db = old_database(dir.path(), 5);
    let before = count(&db, "SELECT count(*) FROM messages");
    assert_eq!(before, 6);
    let stats = regtrack(&db, &["stats", "--json"], Duration::from_secs(60));
    assert_eq!(stats.code(), Some(0), "{}", stats.stderr);
    assert_eq!(
        count(&db, "PRAGMA user_version"),
        regtrack::store::migrations::SCHEMA_VERSION
    );
    assert_eq!(count(&db, "SELECT count(*) FROM messages"), before);
    // v5 kept each body in a row of its own, one LZ4 block each: `mail`
    // still reads them.
    assert_eq!(
        count(&db, "SELECT count(*) FROM bodies WHERE lz4 IS NOT NULL"),
        6
    );
    let old = regtrack(
        &db,
        &["mail", "20240321120000.12345-1-jack@suse.cz", "--json"],
        Duration::from_secs(60),
    );
    assert_eq!(old.code(), Some(0), "{}", old.stderr);
    let m: serde_json::Value = serde_json::from_str(&old.stdout).unwrap();
    let body = m["body"].as_str().unwrap();
    assert!(body.contains("\n+++ b/"), "{body}");
    assert!(body.contains("Reported-by: kernel test robot"), "{body}");

    // New mail goes into a block, beside the per-message rows.
    takes_new_mail_into_a_block(&db);
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM body_blocks WHERE id IN (SELECT body_block FROM messages)"
        ),
        1
    );
    assert_eq!(count(&db, "SELECT count(*) FROM bodies"), 6);
}

#[test]
fn a_database_from_a_newer_build_is_refused_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let db = old_database(dir.path(), 1);
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.pragma_update(
        None,
        "user_version",
        regtrack::store::migrations::SCHEMA_VERSION + 1,
    )
    .unwrap();
    drop(conn);
    let run = regtrack(&db, &["stats"], Duration::from_secs(60));
    run.assert_no_panic();
    assert_ne!(run.code(), Some(0));
    assert!(run.stderr.contains("newer"), "{}", run.stderr);
}
