//! What a test reads from a database file, on a read-only connection of its
//! own (`Store` keeps its connection to itself): one value, one column, rows
//! of a few columns, `PRAGMA integrity_check`. Every helper opens the file
//! anew, so it sees what the last writer committed.

use std::path::Path;

use rusqlite::types::FromSql;
use rusqlite::{Connection, OpenFlags, Row};

/// A read-only connection to the database file `db`.
pub fn read_only(db: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open_with_flags(
        db,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(std::time::Duration::from_secs(30))?;
    Ok(conn)
}

fn open(db: &Path) -> Connection {
    read_only(db).unwrap_or_else(|e| panic!("open {} read-only: {e}", db.display()))
}

/// The one integer `sql` selects.
pub fn sql_i64(db: &Path, sql: &str) -> i64 {
    one(db, sql)
}

/// The one integer `sql` selects, or None when the database cannot be
/// opened or read (it does not exist yet, say).
pub fn try_i64(db: &Path, sql: &str) -> Option<i64> {
    read_only(db)
        .and_then(|c| c.query_row(sql, [], |r| r.get(0)))
        .ok()
}

/// The one value `sql` selects.
pub fn one<T: FromSql>(db: &Path, sql: &str) -> T {
    open(db)
        .query_row(sql, [], |r| r.get(0))
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// The first column of every row `sql` selects.
pub fn column<T: FromSql>(db: &Path, sql: &str) -> Vec<T> {
    rows::<(T,)>(db, sql).into_iter().map(|(v,)| v).collect()
}

/// Every row `sql` selects, as a tuple of its columns.
pub fn rows<R: FromRow>(db: &Path, sql: &str) -> Vec<R> {
    let conn = open(db);
    let mut stmt = conn.prepare(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    stmt.query_map([], R::from_row)
        .and_then(|rows| rows.collect::<rusqlite::Result<Vec<R>>>())
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// Every row `sql` selects from a new in-memory database with the
/// current schema (what `regtrack` makes a database into).
pub fn fresh_schema_rows<R: FromRow>(sql: &str) -> Vec<R> {
    let mut conn = Connection::open_in_memory().unwrap();
    regtrack::store::migrations::migrate(&mut conn, ":memory:").unwrap();
    let mut stmt = conn.prepare(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    stmt.query_map([], R::from_row)
        .and_then(|rows| rows.collect::<rusqlite::Result<Vec<R>>>())
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// `PRAGMA integrity_check` of the database: `ok` when it is sound.
pub fn integrity(db: &Path) -> String {
    one(db, "PRAGMA integrity_check")
}

/// A row read as a tuple of its first columns.
pub trait FromRow: Sized {
    /// Reads the row.
    fn from_row(r: &Row<'_>) -> rusqlite::Result<Self>;
}

macro_rules! tuple_from_row {
    ($($t:ident $i:tt),+) => {
        impl<$($t: FromSql),+> FromRow for ($($t,)+) {
            fn from_row(r: &Row<'_>) -> rusqlite::Result<Self> {
                Ok(($(r.get::<_, $t>($i)?,)+))
            }
        }
    };
}

tuple_from_row!(A 0);
tuple_from_row!(A 0, B 1);
tuple_from_row!(A 0, B 1, C 2);
tuple_from_row!(A 0, B 1, C 2, D 3);

#[test]
fn the_helpers_read_a_wal_database_that_no_connection_holds_open() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    {
        let store = regtrack::store::Store::open(&db).unwrap();
        drop(store);
    }
    assert_eq!(
        one::<String>(&db, "PRAGMA journal_mode").to_lowercase(),
        "wal"
    );
    assert_eq!(sql_i64(&db, "SELECT count(*) FROM messages"), 0);
    assert_eq!(
        rows::<(i64, String)>(&db, "SELECT 1, 'a' UNION ALL SELECT 2, 'b'"),
        [(1, "a".to_string()), (2, "b".to_string())]
    );
    assert_eq!(integrity(&db), "ok");
    assert!(try_i64(&dir.path().join("missing.db"), "SELECT 1").is_none());
    // Read-only: the helpers cannot change what they read.
    assert!(
        read_only(&db)
            .unwrap()
            .execute_batch("DELETE FROM messages")
            .is_err()
    );
}

/// Runs the statements `sql` on a writable connection of their own (a test
/// damaging a row on purpose).
pub fn execute(db: &Path, sql: &str) {
    let conn = Connection::open(db).unwrap_or_else(|e| panic!("open {}: {e}", db.display()));
    conn.busy_timeout(std::time::Duration::from_secs(30))
        .and_then(|()| conn.execute_batch(sql))
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
}
