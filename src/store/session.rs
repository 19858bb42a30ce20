//! What an ingest asks of the store besides rows: the bulk-load guard that
//! owns the connection settings of a large write, a read-only lookup
//! connection for the parse stage, and a checkpointing connection.
//!
//! [`IngestSession`] switches the writer's connection for bulk writing
//! (larger page cache, foreign-key checks off: the writer stores a message's
//! rows right after the message, so their references to it hold by
//! construction, and checking each was a fifth of the writer's CPU; rarer
//! automatic checkpoints while a second connection copies the WAL) and
//! switches it back when it ends or is dropped. A load into an empty database
//! defers its randomly keyed indexes ([`super::bulk`]). Write transactions
//! start as `BEGIN IMMEDIATE`.

use rusqlite::{Connection, OpenFlags};

use super::DbContext;
use super::{Store, bulk};
use crate::error::Result;

/// Page cache of the writer during an ingest into a database that has
/// messages (KiB): every index is live, and its inserts land on pages all
/// over each index.
const WRITER_CACHE_KIB: i64 = 32 << 10;

/// Page cache of the writer during a load into an empty database (KiB):
/// the randomly keyed indexes are deferred, so the writes append to tables
/// and sequential indexes, and a larger cache only fills. It is part of a
/// whole-archive load's peak memory: 8 MiB of it against 32 lowered
/// linux-ext4's by about 30 MiB at a speed not told apart
/// (`benches/README.md`, "Memory bounds").
const BULK_WRITER_CACHE_KIB: i64 = 8 << 10;

/// The writer's own automatic checkpoint threshold during an ingest, in bytes
/// of WAL (set in pages of the database's size).
const WRITER_AUTOCHECKPOINT_BYTES: i64 = 64 << 20;

/// SQLite's default automatic checkpoint threshold (pages).
const DEFAULT_AUTOCHECKPOINT: i64 = 1000;

/// A bulk write in progress (see the module docs).
pub struct IngestSession<'s> {
    store: &'s mut Store,
    bulk: bool,
    background: bool,
    open: bool,
    ended: bool,
}

/// How an ingest session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ended {
    /// Indexes are still deferred and can be built on another connection
    /// ([`bulk::restore_indexes_at`]) while this one reads.
    pub indexes_deferred: bool,
}

impl Store {
    /// Starts an ingest: builds any index a killed ingest left deferred,
    /// defers the randomly keyed ones when the database is empty, and
    /// switches the connection to bulk writing.
    pub fn begin_ingest(&mut self) -> Result<IngestSession<'_>> {
        let conn = self.conn();
        conn.pragma_update(None, "cache_size", -WRITER_CACHE_KIB)
            .db("PRAGMA cache_size")?;
        bulk::restore_indexes(conn)?;
        let bulk = bulk::is_empty(conn)?;
        if bulk {
            bulk::defer_indexes(conn)?;
            conn.pragma_update(None, "cache_size", -BULK_WRITER_CACHE_KIB)
                .db("PRAGMA cache_size")?;
        }
        conn.pragma_update(None, "foreign_keys", "OFF")
            .db("PRAGMA foreign_keys=OFF")?;
        let background = !self.is_in_memory();
        if background {
            let page: i64 = conn
                .pragma_query_value(None, "page_size", |r| r.get(0))
                .db("PRAGMA page_size")?;
            conn.pragma_update(
                None,
                "wal_autocheckpoint",
                WRITER_AUTOCHECKPOINT_BYTES / page.max(512),
            )
            .db("PRAGMA wal_autocheckpoint")?;
        }
        Ok(IngestSession {
            store: self,
            bulk,
            background,
            open: false,
            ended: false,
        })
    }
}

impl IngestSession<'_> {
    /// True when the database was empty (its indexes are deferred).
    pub fn is_bulk_load(&self) -> bool {
        self.bulk
    }

    /// True when other connections can open the database (a file, not
    /// memory): a checkpointer and an index build may run beside the writer.
    pub fn has_file(&self) -> bool {
        self.background
    }

    /// The store, for the writes of a transaction.
    pub fn store(&self) -> &Store {
        self.store
    }

    /// True inside a write transaction.
    pub fn in_transaction(&self) -> bool {
        self.open
    }

    /// Starts a write transaction (`BEGIN IMMEDIATE`).
    pub fn begin(&mut self) -> Result<()> {
        self.store
            .conn()
            .execute_batch("BEGIN IMMEDIATE")
            .db("begin ingest transaction")?;
        self.open = true;
        Ok(())
    }

    /// Commits the write transaction.
    pub fn commit(&mut self) -> Result<()> {
        self.store
            .conn()
            .execute_batch("COMMIT")
            .db("commit ingest transaction")?;
        self.open = false;
        Ok(())
    }

    /// Ends the session: an open transaction is rolled back (what it wrote
    /// since the last commit is dropped; everything committed stays), the
    /// connection's settings are restored and its page cache given back.
    pub fn end(mut self) -> Result<Ended> {
        self.restore()?;
        let deferred = bulk::any_deferred(self.store.conn())?;
        Ok(Ended {
            indexes_deferred: deferred && self.background,
        })
    }

    fn restore(&mut self) -> Result<()> {
        if self.ended {
            return Ok(());
        }
        self.ended = true;
        let conn = self.store.conn();
        if !conn.is_autocommit() {
            let _ = conn.execute_batch("ROLLBACK");
        }
        self.open = false;
        conn.pragma_update(None, "foreign_keys", "ON")
            .db("PRAGMA foreign_keys=ON")?;
        if self.background {
            conn.pragma_update(None, "wal_autocheckpoint", DEFAULT_AUTOCHECKPOINT)
                .db("PRAGMA wal_autocheckpoint")?;
        }
        // Linking, which usually follows, has no use for the writer's page cache.
        conn.execute_batch("PRAGMA cache_size = -2000; PRAGMA shrink_memory;")
            .db("PRAGMA shrink_memory")
    }
}

impl Drop for IngestSession<'_> {
    fn drop(&mut self) {
        let _ = self.restore();
    }
}

/// A read-only connection that tells which Message-IDs are stored, so that
/// the parse stage skips extracting them (re-ingests then cost little more
/// than parsing).
pub struct Lookup {
    conn: Connection,
}

impl Lookup {
    /// A lookup connection to the store's file (none for an in-memory store,
    /// or when it cannot be opened: then nothing is skipped).
    pub fn open(store: &Store) -> Option<Lookup> {
        if store.is_in_memory() {
            return None;
        }
        Connection::open_with_flags(
            store.path(),
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .ok()
        .map(|conn| Lookup { conn })
    }

    /// Which of `ids` are stored, looked up in one read transaction.
    pub fn stored<'a>(&self, ids: impl Iterator<Item = Option<&'a str>>) -> Vec<bool> {
        let snapshot = self.conn.unchecked_transaction().ok();
        let known = ids
            .map(|id| {
                id.is_some_and(|id| {
                    self.conn
                        .prepare_cached("SELECT 1 FROM messages WHERE message_id = ?1")
                        .and_then(|mut st| st.exists([id]))
                        .unwrap_or(false)
                })
            })
            .collect();
        drop(snapshot);
        known
    }
}

/// A connection that copies the WAL into the database (passive checkpoints)
/// while the writer runs; the writer's own, rarer checkpoints then find
/// little left. Failures are harmless and ignored.
pub struct Checkpointer {
    conn: Connection,
}

impl Checkpointer {
    /// A checkpointing connection to the database file at `path`.
    pub fn open(path: &str) -> Option<Checkpointer> {
        let conn = Connection::open(path).ok()?;
        let _ = conn.busy_timeout(std::time::Duration::from_millis(50));
        Some(Checkpointer { conn })
    }

    /// One passive checkpoint.
    pub fn checkpoint(&self) {
        let _ = self
            .conn
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
    }
}
