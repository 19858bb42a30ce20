//! Bulk loading: an ingest into an empty database drops the secondary indexes
//! with randomly ordered keys and builds them again when it ends.
//!
//! Building such an index from sorted rows costs a fraction of keeping it
//! current through every insert (on the linux-ext4 archive the writer once
//! spent about a third of its time in index B-trees). The dropped statements are kept in
//! `deferred_indexes` in the same transaction as the drop, so a killed ingest
//! cannot lose an index: the next ingest (or [`restore_indexes`]) builds what
//! is listed there before writing. Queries stay correct meanwhile, only slower.

use rusqlite::Connection;

use super::DbContext;
use crate::error::Result;

/// The indexes a bulk load defers: those whose keys arrive in random order
/// (commit ids, metric names, Message-IDs, subsystems), where every insert
/// lands on another B-tree page. Indexes keyed by message row id, kind or date
/// grow at their right edge as mail is written in order, which costs an
/// insert little; they are kept current (a sort would cost more).
pub const DEFERRED: &[&str] = &[
    "commit_refs_commit",
    "landings_commit",
    "link_keys_key",
    "landings_title",
    "lore_links_target",
    "patches_change_id",
    "patches_patch_id",
    "patches_title_key",
    "reports_commit",
    "reports_metric",
    "reports_subsystem",
    "table_rows_metric",
];

/// Whether the database holds no message yet (an ingest is then a bulk load).
pub fn is_empty(conn: &Connection) -> Result<bool> {
    let any: bool = conn
        .prepare("SELECT 1 FROM messages LIMIT 1")
        .and_then(|mut st| st.exists([]))
        .db("checking for messages")?;
    Ok(!any)
}

/// Drops the `DEFERRED` indexes (never the primary keys and unique
/// constraints the writer looks up by), recording each in
/// `deferred_indexes`. Returns how many were dropped.
pub fn defer_indexes(conn: &Connection) -> Result<usize> {
    let tx = rusqlite::Transaction::new_unchecked(conn, rusqlite::TransactionBehavior::Immediate)
        .db("begin deferring indexes")?;
    let mut indexes: Vec<(String, String)> = Vec::new();
    {
        let mut st = tx
            .prepare(
                "SELECT name, sql FROM sqlite_master
                 WHERE type = 'index' AND sql IS NOT NULL ORDER BY name",
            )
            .db("listing indexes")?;
        let rows = st
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .db("listing indexes")?;
        for row in rows {
            indexes.push(row.db("listing indexes")?);
        }
    }
    let mut n = 0;
    for (name, sql) in indexes {
        if !DEFERRED.contains(&name.as_str()) {
            continue;
        }
        tx.execute(
            "INSERT OR REPLACE INTO deferred_indexes (name, sql) VALUES (?1, ?2)",
            [&name, &sql],
        )
        .db("recording a deferred index")?;
        tx.execute_batch(&format!("DROP INDEX \"{}\"", name.replace('"', "\"\"")))
            .db(&format!("dropping index {name}"))?;
        n += 1;
    }
    tx.commit().db("commit deferring indexes")?;
    Ok(n)
}

/// Builds every index listed in `deferred_indexes` and empties the list, in
/// one transaction. Returns how many were built (0 when none was deferred).
pub fn restore_indexes(conn: &Connection) -> Result<usize> {
    let pending: Vec<(String, String)> = {
        let mut st = conn
            .prepare("SELECT name, sql FROM deferred_indexes ORDER BY name")
            .db("listing deferred indexes")?;
        let rows = st
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .db("listing deferred indexes")?;
        rows.collect::<std::result::Result<_, _>>()
            .db("listing deferred indexes")?
    };
    if pending.is_empty() {
        return Ok(0);
    }
    let tx = rusqlite::Transaction::new_unchecked(conn, rusqlite::TransactionBehavior::Immediate)
        .db("begin building indexes")?;
    for (name, sql) in &pending {
        let exists: bool = tx
            .prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?1")
            .and_then(|mut st| st.exists([name]))
            .db("checking an index")?;
        if !exists {
            tx.execute_batch(sql)
                .db(&format!("building index {name}"))?;
        }
    }
    tx.execute_batch("DELETE FROM deferred_indexes")
        .db("clearing deferred indexes")?;
    tx.commit().db("commit building indexes")?;
    Ok(pending.len())
}

/// [`restore_indexes`] on the store's own connection.
pub fn restore_indexes_of(store: &super::Store) -> Result<usize> {
    restore_indexes(store.conn())
}

/// Whether some index is deferred (listed in `deferred_indexes`).
pub fn any_deferred(conn: &Connection) -> Result<bool> {
    conn.prepare("SELECT 1 FROM deferred_indexes LIMIT 1")
        .and_then(|mut st| st.exists([]))
        .db("listing deferred indexes")
}

/// [`restore_indexes`] on a connection of its own to the database file at
/// `path`, so that other connections read meanwhile (WAL); `cache_kib` bounds
/// its page cache, which also bounds the sorter's memory before it spills.
pub fn restore_indexes_at(path: &str, cache_kib: i64) -> Result<usize> {
    let conn = Connection::open(path).db(&format!("opening {path} to build indexes"))?;
    conn.busy_timeout(std::time::Duration::from_secs(600))
        .db("busy_timeout")?;
    conn.pragma_update(None, "cache_size", -cache_kib)
        .db("PRAGMA cache_size")?;
    restore_indexes(&conn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    fn index_names(conn: &Connection) -> Vec<String> {
        let mut st = conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name")
            .unwrap();
        st.query_map([], |r| r.get(0))
            .unwrap()
            .collect::<std::result::Result<_, _>>()
            .unwrap()
    }

    #[test]
    fn deferred_indexes_are_dropped_recorded_and_built_again_identically() {
        let store = Store::in_memory().unwrap();
        let conn = store.conn();
        let before = index_names(conn);
        assert!(before.iter().any(|n| n == "table_rows_metric"));
        assert!(is_empty(conn).unwrap());
        let dropped = defer_indexes(conn).unwrap();
        let during = index_names(conn);
        assert!(!during.iter().any(|n| n == "table_rows_metric"));
        assert!(!during.iter().any(|n| n == "commit_refs_commit"));
        assert_eq!(dropped, DEFERRED.len());
        // The writer's lookups, indexes that grow in row order and the link
        // tables keep theirs.
        assert!(during.iter().any(|n| n == "messages_date"));
        assert!(during.iter().any(|n| n == "diffs_depth"));
        assert!(during.iter().any(|n| n == "sqlite_autoindex_messages_1"));
        assert!(during.iter().any(|n| n == "threads_root"));
        assert_eq!(before.len() - during.len(), dropped);
        let listed: i64 = conn
            .query_row("SELECT count(*) FROM deferred_indexes", [], |r| r.get(0))
            .unwrap();
        assert_eq!(listed as usize, dropped);
        assert_eq!(restore_indexes(conn).unwrap(), dropped);
        assert_eq!(index_names(conn), before);
        assert_eq!(restore_indexes(conn).unwrap(), 0);
    }
}
