//! Forward-only schema migrations tracked in `PRAGMA user_version`.

use rusqlite::Connection;

use super::DbContext;
use crate::error::{Error, Result};

/// The migrations, in order; migration `i` brings the schema to version `i + 1`.
pub const MIGRATIONS: &[&str] = &[
    include_str!("sql/0001_init.sql"),
    include_str!("sql/0002_link.sql"),
    include_str!("sql/0003_link_state.sql"),
    include_str!("sql/0004_bulk_bodies.sql"),
    include_str!("sql/0005_bodies_apart.sql"),
    include_str!("sql/0006_body_blocks.sql"),
    include_str!("sql/0007_extraction_version.sql"),
    include_str!("sql/0008_patches_landings.sql"),
    include_str!("sql/0009_follow.sql"),
    include_str!("sql/0010_link_keys.sql"),
    include_str!("sql/0011_body_checksums.sql"),
    include_str!("sql/0012_table_omitted_rows.sql"),
    include_str!("sql/0013_trees.sql"),
    include_str!("sql/0014_message_copies.sql"),
    include_str!("sql/0015_mark_kinds.sql"),
    include_str!("sql/0016_lean_rows.sql"),
    include_str!("sql/0017_bodies_in_epochs.sql"),
    include_str!("sql/0018_signal_reading.sql"),
    include_str!("sql/0019_raw_once.sql"),
    include_str!("sql/0020_patch_answers.sql"),
    include_str!("sql/0021_signals_read.sql"),
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// What [`check`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Schema {
    /// At [`SCHEMA_VERSION`].
    Current,
    /// regtrack's at an older version (0: an empty database).
    Old(i64),
}

/// Reads `user_version` and the table names and judges them: a newer
/// version, a negative one, or tables without regtrack's `messages` table
/// (any SQLite file of another program) are refused.
pub fn check(conn: &Connection, path: &str) -> Result<Schema> {
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .db("PRAGMA user_version")?;
    let foreign = |reason: String| Error::Database {
        path: path.to_string(),
        reason: format!("is not a regtrack database: {reason}"),
    };
    if version < 0 {
        return Err(foreign(format!(
            "its user_version is {version}, which no regtrack writes"
        )));
    }
    if version > SCHEMA_VERSION {
        return Err(Error::SchemaTooNew {
            path: path.to_string(),
            found: version,
            supported: SCHEMA_VERSION,
        });
    }
    let sql = "SELECT name FROM sqlite_master WHERE type = 'table' \
               AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name";
    let mut st = conn.prepare(sql).db(sql)?;
    let tables: Vec<String> = st
        .query_map([], |r| r.get(0))
        .db(sql)?
        .collect::<std::result::Result<_, _>>()
        .db(sql)?;
    let ours = tables.iter().any(|t| t == "messages");
    // regtrack sets the version in the transaction that creates its tables:
    // tables at version 0, or a version without `messages`, are another's.
    if (version == 0 && !tables.is_empty()) || (version > 0 && !ours) {
        let shown: Vec<&str> = tables.iter().take(5).map(String::as_str).collect();
        let more = if tables.len() > 5 { ", ..." } else { "" };
        let what = if tables.is_empty() {
            format!("its user_version is {version} but it has no tables")
        } else if ours {
            "it has a `messages` table at user_version 0 (regtrack sets the version with its tables)"
                .to_string()
        } else {
            format!(
                "it has tables ({}{more}) but no `messages` table, at user_version {version}",
                shown.join(", ")
            )
        };
        return Err(foreign(what));
    }
    Ok(if version == SCHEMA_VERSION {
        Schema::Current
    } else {
        Schema::Old(version)
    })
}

/// Brings `conn` up to [`SCHEMA_VERSION`]; refuses a newer database and one
/// that is not regtrack's ([`check`]). The write lock is taken (`BEGIN
/// IMMEDIATE`, waiting out the busy timeout) before the version is read
/// again and the migrations applied, all in that one transaction: two
/// processes creating or upgrading one database at once apply each
/// migration once.
pub fn migrate(conn: &mut Connection, path: &str) -> Result<()> {
    // A current database needs no lock: its version never goes down.
    if check(conn, path)? == Schema::Current {
        return Ok(());
    }
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(|e| super::open_error(path, "begin migration", e))?;
    let Schema::Old(version) = check(&tx, path)? else {
        return Ok(());
    };
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        tx.execute_batch(sql).db(&format!("migration {}", i + 1))?;
        tx.pragma_update(None, "user_version", (i + 1) as i64)
            .db("set user_version")?;
    }
    tx.commit().db("commit migration")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_apply_in_order_and_set_the_version() {
        let mut conn = Connection::open_in_memory().unwrap();
        migrate(&mut conn, ":memory:").unwrap();
        let v: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(v, SCHEMA_VERSION);
        migrate(&mut conn, ":memory:").unwrap();
    }

    /// A database at the version before the first migration holding
    /// `marker`.
    fn before_migration(marker: &str) -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        let at = MIGRATIONS.iter().position(|m| m.contains(marker)).unwrap();
        for sql in &MIGRATIONS[..at] {
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", at as i64).unwrap();
        conn
    }

    #[test]
    fn marks_and_regression_ids_survive_the_mark_kinds_migration() {
        let mut conn = before_migration("marks_v15");
        conn.execute_batch(
            "INSERT INTO marks (culprit, status, note, author, at)
                 VALUES ('2edf06a50f', 'declined', 'noise', 'me', 5);
             INSERT INTO regressions (id, culprit, status) VALUES (7, '2edf06a50f', 'declined');",
        )
        .unwrap();
        migrate(&mut conn, ":memory:").unwrap();
        let row: (String, Option<String>, Option<String>, Option<i64>) = conn
            .query_row(
                "SELECT culprit, status, fix, withdraws FROM marks",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .unwrap();
        assert_eq!(
            row,
            ("2edf06a50f".into(), Some("declined".into()), None, None)
        );
        let id: i64 = conn
            .query_row(
                "SELECT id FROM regression_ids WHERE culprit = '2edf06a50f'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(id, 7);
    }

    #[test]
    fn the_lean_rows_migration_drops_only_rows_other_tables_give() {
        let mut conn = before_migration("regtrack schema v16");
        let git = r#"{"type":"git","repo":"/e/0.git","commit":"c1"}"#;
        let file = r#"{"type":"file","path":"a.mbox","offset":0}"#;
        conn.execute_batch(&format!(
            "INSERT INTO messages (id, message_id, from_email, content_hash, raw_size,
                                   origin_json, ingested_at)
                 VALUES (1, 'lone@x', 'a@x', 'h1', 10, '{git}', 5),
                        (2, 'two@x', 'a@x', 'h2', 10, '{git}', 5),
                        (3, 'file@x', 'a@x', 'h3', 10, '{file}', 5),
                        (4, 'lists@x', 'a@x', 'h4', 10, '{git}', 5);
             INSERT INTO message_lists VALUES (1, 'l1'), (2, 'l1'), (4, 'l1'), (4, 'l2');
             INSERT INTO message_copies (message, content_hash, origin_json, from_email,
                                         raw_size, lists, chosen, seen_at)
                 VALUES (1, 'h1', '{git}', 'a@x', 10, 'l1', 1, 5),
                        (2, 'h2', '{git}', 'a@x', 10, 'l1', 1, 5),
                        (2, 'h9', '{file}', 'a@x', 12, 'l1', 0, 6),
                        (3, 'h3', '{file}', 'a@x', 10, '', 1, 5),
                        (4, 'h4', '{git}', 'a@x', 10, 'l1', 1, 5);
             INSERT INTO thread_ids VALUES ('lone@x', 'lone@x'), ('gone@x', 'lone@x');"
        ))
        .unwrap();
        migrate(&mut conn, ":memory:").unwrap();
        let kept: Vec<(i64, String)> = conn
            .prepare("SELECT message, content_hash FROM message_copies ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        // The lone epoch copy goes; two copies, a file's copy and a copy
        // whose List-IDs are not the message's stay.
        let want = [(2, "h2"), (2, "h9"), (3, "h3"), (4, "h4")];
        assert_eq!(
            kept,
            want.map(|(m, h)| (m, h.to_string())).to_vec(),
            "copies kept"
        );
        let ids: Vec<String> = conn
            .prepare("SELECT id FROM thread_ids")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert_eq!(ids, ["gone@x"]);
    }

    #[test]
    fn the_raw_once_migration_moves_only_copies_raw_forms_into_their_messages() {
        let mut conn = before_migration("regtrack schema v19");
        let file = |o: u64| format!(r#"{{"type":"file","path":"a.mbox","offset":{o}}}"#);
        let git = r#"{"type":"git","repo":"/e/0.git","commit":"c1"}"#;
        let (f1, f2, f3, f4, f5) = (file(0), file(10), file(20), file(30), file(40));
        conn.execute_batch(&format!(
            "INSERT INTO body_blocks (id, lz4) VALUES (1, x'00'), (2, x'00');
             INSERT INTO messages (id, message_id, from_email, content_hash, raw_size,
                                   origin_json, ingested_at, body_block, body_start, body_len)
                 VALUES (1, 'same@x', 'a@x', 'h1', 30, '{f1}', 5, 1, 0, 10),
                        (2, 'whole@x', 'a@x', 'h2', 40, '{f2}', 5, 1, 10, 10),
                        (3, 'empty@x', 'a@x', 'h3', 20, '{f3}', 5, NULL, NULL, NULL),
                        (4, 'two@x', 'a@x', 'h4', 30, '{f4}', 5, 1, 20, 10),
                        (5, 'old@x', 'a@x', 'h5', 30, '{f5}', 5, 1, 30, 10),
                        (6, 'epoch@x', 'a@x', 'h6', 30, '{git}', 5, NULL, NULL, NULL);
             INSERT INTO message_lists VALUES (1, 'l1'), (2, 'l1'), (3, 'l1'), (4, 'l1');
             INSERT INTO message_copies (message, content_hash, origin_json, from_email,
                     raw_size, lists, chosen, seen_at, head_block, head_start, head_len,
                     tail_block, tail_start, tail_len)
                 VALUES (1, 'h1', '{f1}', 'a@x', 30, 'l1', 1, 5, 2, 0, 20, 1, 0, 10),
                        (2, 'h2', '{f2}', 'a@x', 40, 'l1', 1, 5, 2, 20, 40, NULL, NULL, NULL),
                        (3, 'h3', '{f3}', 'a@x', 20, 'l1', 1, 5, 2, 60, 20, NULL, NULL, NULL),
                        (4, 'h4', '{f4}', 'a@x', 30, 'l1', 1, 5, 2, 80, 20, 1, 20, 10),
                        (4, 'h9', '{f1}', 'a@x', 31, 'l1', 0, 6, 2, 100, 21, 1, 20, 10),
                        (5, 'h5', '{f5}', 'a@x', 30, '', 1, 5, NULL, NULL, NULL, NULL, NULL, NULL);"
        ))
        .unwrap();
        migrate(&mut conn, ":memory:").unwrap();
        let rows = |sql: &str| -> Vec<String> {
            let mut st = conn.prepare(sql).unwrap();
            st.query_map([], |r| r.get(0))
                .unwrap()
                .collect::<rusqlite::Result<_>>()
                .unwrap()
        };
        // The only copies whose raw form is a header range and the body's
        // own range (or no body) go, their header range kept by the message;
        // a whole raw message beside a decoded body, a message's several
        // copies and a copy without a raw form stay.
        assert_eq!(
            rows("SELECT message || ':' || content_hash FROM message_copies ORDER BY id"),
            ["2:h2", "4:h4", "4:h9", "5:h5"]
        );
        assert_eq!(
            rows(
                "SELECT message_id || ':' || coalesce(head_block || '/' || head_start || '/' ||
                        head_len, '-') || ':' || body_raw FROM messages ORDER BY id"
            ),
            [
                "same@x:2/0/20:0",
                "whole@x:-:0",
                "empty@x:2/60/20:0",
                "two@x:-:0",
                "old@x:-:0",
                "epoch@x:-:0"
            ]
        );
    }

    #[test]
    fn a_newer_database_is_refused() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
        let err = migrate(&mut conn, "x.db").unwrap_err();
        assert!(
            err.to_string()
                .contains("newer than this regtrack supports"),
            "{err}"
        );
    }

    #[test]
    fn a_negative_version_or_foreign_tables_are_refused() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.pragma_update(None, "user_version", -3).unwrap();
        let err = migrate(&mut conn, "x.db").unwrap_err().to_string();
        assert!(err.contains("user_version is -3"), "{err}");
        // Another program's tables at version 0: not migrated into.
        let mut conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE foo (x); CREATE TABLE bar (y);")
            .unwrap();
        let err = migrate(&mut conn, "x.db").unwrap_err().to_string();
        assert_eq!(
            err,
            "database 'x.db' is not a regtrack database: it has tables (bar, foo) \
             but no `messages` table, at user_version 0"
        );
        let n: i64 = conn
            .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 2);
        // Or at some version of ours.
        conn.pragma_update(None, "user_version", 3).unwrap();
        assert!(migrate(&mut conn, "x.db").is_err());
    }
}
