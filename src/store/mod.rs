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
//!   before v6 have theirs in `bodies`; a message read from a public-inbox
//!   epoch has none (v17): the epoch's blob is decoded again (see [`body`]).
//!   `refs` holds References (space-separated, oldest first; a `message_refs`
//!   table before v5), `message_lists` every List-ID seen.
//! - `message_copies` (v14): every copy of a Message-ID with distinct
//!   content, the one the `messages` row holds marked `chosen` (the rule:
//!   [`crate::mail::copies`]), and each copy's raw form as byte ranges of
//!   `body_blocks` (see [`copies`]), but for a copy read from a public-inbox
//!   epoch, which the epoch keeps under the commit its origin names. It
//!   replaced `duplicates`, which kept
//!   only the later copies' hashes and origins. A message's only copy has
//!   no row (v16 for a copy read from an epoch, v19 for any): the
//!   `messages` row and its List-IDs hold all of it. `link_changed` (v14): the
//!   messages a better copy replaced since the last link, for the next
//!   update to relink.
//! - a message's raw form (v19): its header block (`messages.head_*`, in a
//!   zstd block of header blocks) followed by its stored body, which is the
//!   raw body when that is not the decoded one (`body_raw`; the body is then
//!   decoded again when read, see [`body`]): nothing is stored twice.
//! - `failures`: messages that could not be parsed: source, offset/commit, reason.
//! - `sources`: incremental progress (last commit per public-inbox epoch).
//! - extraction: `extractions` (JSON, see below), `reports`, `tables` +
//!   `table_rows`, `trailers`, `commit_refs`, `diffs`, `signals`, `events`,
//!   `lore_links`. `extractions.json` holds the whole extraction of a robot
//!   report (perf, functional, build); for any other message it holds only what
//!   has no table of its own (kind, subject and body report facts, profiles,
//!   reproducers, kconfig) and leaves the row-backed lists empty, so list mail
//!   is not written twice; a message with none of those (most list mail)
//!   has no `extractions` row at all. `signals` (v21): an ingest leaves
//!   the signals of all but the robot's performance and functional reports
//!   unread (`messages.signals_read` = 0);
//!   a link reads them from the stored body when it first asks for them
//!   and writes their rows ([`crate::pipeline::relink`]).
//! - what an update relinks by (v10): `link_keys` (every key a message ties
//!   itself to others by, see [`crate::link::keys`], but the patch id and
//!   title keys its `patches` row implies, read from there; rows an older
//!   build wrote hold those too), `thread_ids` (the
//!   thread root of every id only referenced, v16: a message's is its
//!   `threads` row's), `link_chosen`.
//! - linking (v2): `threads`, `regressions`, `regression_messages`,
//!   `regression_events` (the status timeline), `marks` (human decisions, keyed
//!   by culprit so they survive re-linking; v15 adds fix, release, duplicate
//!   and withdrawal marks), `regression_ids` (v15: the id each culprit's
//!   history was given, kept when a duplicate joins another history).
//! - followed kernel trees (v13, see [`trees`]): `trees`, `tree_refs`,
//!   `tree_commits`, `tree_trailers`, `tree_contains`, `tree_link_pending`.
//! - `deferred_indexes` (v4): secondary indexes a first ingest dropped and has
//!   yet to build (see [`bulk`]).

pub mod body;
pub mod bulk;
pub mod copies;
pub mod extractions;
pub mod history;
pub mod links;
pub mod lock;
pub mod messages;
pub mod migrations;
pub mod reextract;
pub mod session;
pub mod sources;
pub mod stats;
pub mod trees;

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
            cause: Box::new(source),
        })
    }
}

/// SQLite's own text of an error (without rusqlite's code suffixes).
fn sqlite_text(e: &rusqlite::Error) -> String {
    match e {
        rusqlite::Error::SqliteFailure(_, Some(msg)) => msg.clone(),
        e => e.to_string(),
    }
}

/// The error of opening `path`: a file that is not SQLite, or cannot be
/// written or opened, is said in a sentence naming the path once; any other
/// error keeps the operation that failed.
pub(crate) fn open_error(path: &str, what: &str, e: rusqlite::Error) -> Error {
    use rusqlite::ErrorCode as C;
    let reason = match e.sqlite_error_code() {
        Some(C::NotADatabase) => "is not an SQLite database".to_string(),
        Some(C::ReadOnly) => format!("cannot be written ({})", sqlite_text(&e)),
        Some(C::CannotOpen) => format!("cannot be opened ({})", sqlite_text(&e)),
        Some(C::PermissionDenied) => format!("cannot be opened ({})", sqlite_text(&e)),
        _ => {
            return Error::Db {
                context: format!("{what} on '{path}'"),
                cause: Box::new(e),
            };
        }
    };
    Error::Database {
        path: path.to_string(),
        reason,
    }
}

/// Refuses a path that is a folder or no regular file (`/dev/null`), and,
/// when `must_exist`, one that does not exist. Reads no byte of the file:
/// closing a second descriptor of a database file would drop the POSIX
/// locks this process's connections hold on it.
fn check_path(path: &Path, must_exist: bool) -> Result<()> {
    let bad = |reason: String| {
        Err(Error::Database {
            path: path.display().to_string(),
            reason,
        })
    };
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if must_exist {
                bad("does not exist (`regtrack ingest` creates it)".into())
            } else {
                Ok(())
            }
        }
        Err(e) => bad(format!("cannot be read ({e})")),
        Ok(m) if m.is_dir() => bad("is a directory, not a database file".into()),
        Ok(m) if !m.is_file() => bad("is not a regular file".into()),
        Ok(_) => Ok(()),
    }
}

/// Page size of a new database (bytes). Most LZ4 bodies then fit in one
/// page instead of an overflow chain, and a bulk ingest writes a quarter of
/// the WAL frames SQLite's 4 KiB default takes, in less time and a smaller
/// file (see `benches/README.md`, "Body blocks and page size"). An existing
/// database keeps the size it has.
pub const PAGE_SIZE: i64 = 16384;

/// The path of an in-memory store ([`Store::in_memory`]).
const IN_MEMORY: &str = ":memory:";

/// A write transaction of its own, or a savepoint of one already open.
pub(crate) enum WriteTx<'c> {
    Own(rusqlite::Transaction<'c>),
    Nested(rusqlite::Savepoint<'c>),
}

impl std::ops::Deref for WriteTx<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        match self {
            WriteTx::Own(t) => t,
            WriteTx::Nested(s) => s,
        }
    }
}

impl WriteTx<'_> {
    /// Commits the transaction (releases the savepoint).
    pub(crate) fn commit(self) -> rusqlite::Result<()> {
        match self {
            WriteTx::Own(t) => t.commit(),
            WriteTx::Nested(s) => s.commit(),
        }
    }
}

/// An open regtrack database.
pub struct Store {
    conn: Connection,
    path: String,
    /// Regressions read since the last [`history::take_undecodable`] whose
    /// stored summary did not decode (left out of the answer).
    undecodable: std::sync::Mutex<Vec<history::Undecodable>>,
}

impl Store {
    /// Opens (creating if needed) the database at `path` for writing,
    /// applies PRAGMAs and migrations. A folder, a device, a file that is
    /// not SQLite and an SQLite file that is not regtrack's are refused.
    pub fn open(path: &Path) -> Result<Store> {
        Self::check_path(path)?;
        let shown = path.display().to_string();
        let conn = Connection::open(path).map_err(|e| open_error(&shown, "opening", e))?;
        Self::setup(conn, shown)
    }

    /// Refuses a path that cannot be a database file (a directory, a
    /// device, one that cannot be read) before anything is made beside it.
    pub fn check_path(path: &Path) -> Result<()> {
        check_path(path, false)
    }

    /// Opens an existing database for a command that only reads: read-only,
    /// nothing created, no migration, so a read-only file or folder still
    /// answers. One that needs migrating is opened for writing and migrated
    /// when it can be, and refused saying so when it cannot.
    pub fn open_read_only(path: &Path) -> Result<Store> {
        check_path(path, true)?;
        let shown = path.display().to_string();
        let conn = match Self::read_only(path, false) {
            // A WAL database in a folder this process cannot write, with no
            // `-shm` file: SQLite cannot open it read-only but as immutable
            // (nobody can be writing it: nobody could create the `-shm`).
            Err(e)
                if matches!(
                    e.sqlite_error_code(),
                    Some(rusqlite::ErrorCode::CannotOpen | rusqlite::ErrorCode::ReadOnly)
                ) =>
            {
                Self::read_only(path, true)
            }
            r => r,
        }
        .map_err(|e| open_error(&shown, "opening", e))?;
        conn.busy_timeout(std::time::Duration::from_secs(30))
            .db("busy_timeout")?;
        match migrations::check(&conn, &shown)? {
            migrations::Schema::Current => Ok(Store {
                conn,
                path: shown,
                undecodable: Default::default(),
            }),
            migrations::Schema::Old(found) => {
                drop(conn);
                Store::open(path).map_err(|e| {
                    let cause = match e {
                        Error::Database { reason, .. } => reason,
                        Error::Db { cause, .. } => format!("cannot be migrated ({cause})"),
                        e => format!("cannot be migrated ({e})"),
                    };
                    Error::Database {
                        path: shown,
                        reason: format!(
                            "has schema version {found} and needs migrating to {}, but it {cause}",
                            migrations::SCHEMA_VERSION
                        ),
                    }
                })
            }
        }
    }

    /// A read-only connection, that opens and reads the file at once (so
    /// that an unopenable WAL database fails here).
    fn read_only(path: &Path, immutable: bool) -> std::result::Result<Connection, rusqlite::Error> {
        use rusqlite::OpenFlags as F;
        let flags = F::SQLITE_OPEN_READ_ONLY | F::SQLITE_OPEN_NO_MUTEX | F::SQLITE_OPEN_URI;
        let conn = if immutable {
            let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
            let encoded = percent_encoding::utf8_percent_encode(
                &abs.to_string_lossy(),
                percent_encoding::NON_ALPHANUMERIC,
            )
            .to_string()
            .replace("%2F", "/");
            Connection::open_with_flags(format!("file:{encoded}?immutable=1"), flags)?
        } else {
            Connection::open_with_flags(path, flags)?
        };
        conn.query_row("SELECT count(*) FROM sqlite_master", [], |_| Ok(()))?;
        Ok(conn)
    }

    /// An in-memory database, for tests.
    pub fn in_memory() -> Result<Store> {
        let conn = Connection::open_in_memory().db("opening in-memory database")?;
        Self::setup(conn, IN_MEMORY.to_string())
    }

    fn setup(conn: Connection, path: String) -> Result<Store> {
        conn.busy_timeout(std::time::Duration::from_secs(30))
            .db("busy_timeout")?;
        // Another program's file is refused before anything is written to it.
        if path != IN_MEMORY {
            migrations::check(&conn, &path).map_err(|e| match e {
                Error::Db { cause, context } => match cause.downcast::<rusqlite::Error>() {
                    Ok(e) => open_error(&path, &context, *e),
                    Err(cause) => Error::Db { context, cause },
                },
                e => e,
            })?;
        }
        // Only takes effect before the first table exists, and before WAL mode.
        conn.pragma_update(None, "page_size", PAGE_SIZE)
            .map_err(|e| open_error(&path, "PRAGMA page_size", e))?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(|e| open_error(&path, "PRAGMA journal_mode=WAL", e))?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .db("PRAGMA synchronous=NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .db("PRAGMA foreign_keys=ON")?;
        let mut store = Store {
            conn,
            path,
            undecodable: Default::default(),
        };
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
    /// Inside a transaction already open ([`Store::begin_write`]) it is a
    /// savepoint of it, committed with it.
    fn write_tx(&mut self, what: &str) -> Result<WriteTx<'_>> {
        if self.conn.is_autocommit() {
            Ok(WriteTx::Own(
                self.conn
                    .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
                    .db(what)?,
            ))
        } else {
            Ok(WriteTx::Nested(self.conn.savepoint().db(what)?))
        }
    }

    /// Opens a write transaction (`BEGIN IMMEDIATE`) that the writes until
    /// [`Store::end_write`] join, so that readers see none of them, or all:
    /// a link of everything in steps holds one over all its steps.
    pub fn begin_write(&self, what: &str) -> Result<()> {
        self.conn.execute_batch("BEGIN IMMEDIATE").db(what)
    }

    /// Ends the transaction [`Store::begin_write`] opened: commits it when
    /// `commit`, else rolls it back (nothing of it is kept).
    pub fn end_write(&self, commit: bool, what: &str) -> Result<()> {
        if self.conn.is_autocommit() {
            return Ok(());
        }
        let sql = if commit { "COMMIT" } else { "ROLLBACK" };
        self.conn.execute_batch(sql).db(what)
    }

    /// Runs `f` inside one write transaction (`BEGIN IMMEDIATE`): committed
    /// when it returns `Ok`, rolled back otherwise.
    pub fn in_write<T>(&self, what: &str, f: impl FnOnce(&Store) -> Result<T>) -> Result<T> {
        self.begin_write(what)?;
        match f(self) {
            Ok(v) => {
                self.end_write(true, what)?;
                Ok(v)
            }
            Err(e) => {
                let _ = self.end_write(false, what);
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

/// A parsed message with Message-ID `id` and body `body`, read from
/// standard input: what the store's tests insert.
#[cfg(test)]
pub(crate) fn test_message(id: &str, body: &str) -> crate::model::Message {
    let raw = crate::model::RawMessage {
        bytes: format!("Message-ID: <{id}>\nSubject: s\n\n{body}")
            .into_bytes()
            .into(),
        origin: crate::model::Origin::Stdin { offset: 0 },
        format: crate::model::RawFormat::Rfc822,
    };
    crate::mail::parse(&raw).expect("parses")
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
    fn a_read_only_open_of_a_missing_file_creates_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("none.db");
        let err = Store::open_read_only(&path).err().unwrap().to_string();
        assert_eq!(
            err,
            format!(
                "database '{}' does not exist (`regtrack ingest` creates it)",
                path.display()
            )
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn folders_devices_and_other_files_are_refused_in_one_sentence() {
        let dir = tempfile::tempdir().unwrap();
        for open in [Store::open, Store::open_read_only] {
            let err = |p: &Path| open(p).err().unwrap().to_string();
            assert_eq!(
                err(dir.path()),
                format!(
                    "database '{}' is a directory, not a database file",
                    dir.path().display()
                )
            );
            assert_eq!(
                err(Path::new("/dev/null")),
                "database '/dev/null' is not a regular file"
            );
            let junk = dir.path().join("junk.db");
            std::fs::write(&junk, [7u8; 4096]).unwrap();
            assert!(err(&junk).ends_with("junk.db' is not an SQLite database"));
            // Another program's SQLite file: refused, and left as it was.
            let other = dir.path().join("other.db");
            let conn = Connection::open(&other).unwrap();
            conn.execute_batch("CREATE TABLE IF NOT EXISTS notes (t TEXT);")
                .unwrap();
            drop(conn);
            let before = std::fs::read(&other).unwrap();
            let e = err(&other);
            assert!(
                e.contains("is not a regtrack database: it has tables (notes)"),
                "{e}"
            );
            assert_eq!(std::fs::read(&other).unwrap(), before);
            let neg = dir.path().join("neg.db");
            let conn = Connection::open(&neg).unwrap();
            conn.pragma_update(None, "user_version", -1).unwrap();
            drop(conn);
            assert!(err(&neg).contains("its user_version is -1"));
        }
    }

    #[test]
    fn a_read_only_open_reads_and_refuses_to_write() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.db");
        drop(Store::open(&path).unwrap());
        let store = Store::open_read_only(&path).unwrap();
        let n: i64 = store
            .conn()
            .query_row("SELECT count(*) FROM messages", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 0);
        assert!(store.conn().execute("DELETE FROM messages", []).is_err());
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
