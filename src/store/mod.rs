//! The SQLite store: owns all SQL.
//!
//! One file (default `regtrack.db`), bundled SQLite, WAL mode, schema versioned
//! with `PRAGMA user_version` and forward-only migrations (`sql/NNNN_*.sql`).
//! A database from an older build is upgraded on open; one from a newer build is
//! refused.
//!
//! # Schema (see `sql/` for the DDL)
//! - `messages`: one row per Message-ID (the key): headers, part boundaries,
//!   content hash, provenance (`origin_json`), kind, and where its decoded
//!   body is: a byte range of a `body_blocks` row (v6), which holds the
//!   bodies of consecutive messages LZ4-compressed together; rows written
//!   before v6 have theirs in `bodies` (see [`body`]).
//!   `refs` holds References (space-separated, oldest first; a `message_refs`
//!   table before v5), `message_lists` every List-ID seen.
//! - `duplicates`: later copies of a known Message-ID with different content.
//! - `failures`: messages that could not be parsed: source, offset/commit, reason.
//! - `sources`: incremental progress (last commit per public-inbox epoch).
//! - extraction: `extractions` (JSON, see below), `reports`, `tables` +
//!   `table_rows`, `trailers`, `commit_refs`, `diffs`, `signals`, `events`,
//!   `lore_links`. `extractions.json` holds the whole extraction of a robot
//!   report (perf, functional, build); for any other message it holds only what
//!   has no table of its own (kind, subject and body report facts, profiles,
//!   reproducers, kconfig) and leaves the row-backed lists empty, so list mail
//!   is not written twice; a message with none of those (most list mail)
//!   has no `extractions` row at all.
//! - linking (v2): `threads`, `regressions`, `regression_messages`,
//!   `regression_events` (the status timeline), `marks` (human overrides, keyed by
//!   culprit so they survive re-linking).
//! - `deferred_indexes` (v4): secondary indexes a first ingest dropped and has
//!   yet to build (see [`bulk`]).

pub mod body;
pub mod bulk;
pub mod history;
pub mod insert;
pub mod links;
pub mod migrations;
pub mod reextract;
pub mod session;
pub mod stats;

use std::path::Path;

use rusqlite::Connection;

use crate::error::{Error, Result};

/// Adds the SQL (or operation) that failed to SQLite's errors.
pub(crate) trait DbContext<T> {
    /// Wraps an error with the SQL or operation that failed.
    fn db(self, context: &str) -> Result<T>;
}

impl<T> DbContext<T> for std::result::Result<T, rusqlite::Error> {
    fn db(self, context: &str) -> Result<T> {
        self.map_err(|source| Error::Db {
            context: context.to_string(),
            source: Box::new(source),
        })
    }
}

/// Page size of a new database (bytes). Most LZ4 bodies then fit in one
/// page instead of an overflow chain, and a bulk ingest writes a quarter of
/// the WAL frames SQLite's 4 KiB default takes: 10 % less wall time for the
/// write phase of the linux-ext4 archive, and an 8 % smaller file (see
/// `benches/README.md`). An existing database keeps the size it has.
pub const PAGE_SIZE: i64 = 16384;

/// The path of an in-memory store ([`Store::in_memory`]).
const IN_MEMORY: &str = ":memory:";

/// An open regtrack database.
pub struct Store {
    conn: Connection,
    path: String,
}

impl Store {
    /// Opens (creating if needed) the database at `path`, applies PRAGMAs and migrations.
    pub fn open(path: &Path) -> Result<Store> {
        let conn = Connection::open(path).db(&format!("opening {}", path.display()))?;
        Self::setup(conn, path.display().to_string())
    }

    /// An in-memory database, for tests.
    pub fn in_memory() -> Result<Store> {
        let conn = Connection::open_in_memory().db("opening in-memory database")?;
        Self::setup(conn, IN_MEMORY.to_string())
    }

    fn setup(conn: Connection, path: String) -> Result<Store> {
        conn.busy_timeout(std::time::Duration::from_secs(30))
            .db("busy_timeout")?;
        // Only takes effect before the first table exists, and before WAL mode.
        conn.pragma_update(None, "page_size", PAGE_SIZE)
            .db("PRAGMA page_size")?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .db("PRAGMA journal_mode=WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .db("PRAGMA synchronous=NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .db("PRAGMA foreign_keys=ON")?;
        let mut store = Store { conn, path };
        migrations::migrate(&mut store.conn, &store.path)?;
        Ok(store)
    }

    /// The underlying connection (for the store's own submodules).
    fn conn(&self) -> &Connection {
        &self.conn
    }

    /// A write transaction that takes the write lock at once (`BEGIN
    /// IMMEDIATE`): a second writer waits for it (the busy timeout) instead
    /// of failing when a read transaction cannot be upgraded.
    fn write_tx(&mut self, what: &str) -> Result<rusqlite::Transaction<'_>> {
        self.conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .db(what)
    }

    /// Runs `f` inside one write transaction (`BEGIN IMMEDIATE`): committed
    /// when it returns `Ok`, rolled back otherwise.
    pub fn in_write<T>(&self, what: &str, f: impl FnOnce(&Store) -> Result<T>) -> Result<T> {
        self.conn.execute_batch("BEGIN IMMEDIATE").db(what)?;
        match f(self) {
            Ok(v) => {
                self.conn.execute_batch("COMMIT").db(what)?;
                Ok(v)
            }
            Err(e) => {
                let _ = self.conn.execute_batch("ROLLBACK");
                Err(e)
            }
        }
    }

    /// The path the store was opened from.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// True for an in-memory store: no second connection can open it.
    pub fn is_in_memory(&self) -> bool {
        self.path == IN_MEMORY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pragma<T: rusqlite::types::FromSql>(store: &Store, name: &str) -> T {
        store
            .conn()
            .pragma_query_value(None, name, |r| r.get(0))
            .unwrap()
    }

    #[test]
    fn a_new_database_file_gets_the_larger_page_size_in_wal_mode() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.db");
        let store = Store::open(&path).unwrap();
        assert_eq!(pragma::<i64>(&store, "page_size"), PAGE_SIZE);
        assert_eq!(pragma::<String>(&store, "journal_mode"), "wal");
        drop(store);
        // Reopening changes nothing.
        let store = Store::open(&path).unwrap();
        assert_eq!(pragma::<i64>(&store, "page_size"), PAGE_SIZE);
    }
}
