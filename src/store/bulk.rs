//! Bulk loading: an ingest into an empty database drops the secondary indexes
//! of the tables it fills and builds them again when it ends.
//!
//! Building an index from sorted rows costs a fraction of keeping it current
//! through every insert (on the linux-ext4 archive the writer spent about a
//! third of its time in index B-trees). The dropped statements are kept in
//! `deferred_indexes` in the same transaction as the drop, so a killed ingest
//! cannot lose an index: the next ingest (or [`restore_indexes`]) builds what
//! is listed there before writing. Queries stay correct meanwhile, only slower.

use rusqlite::Connection;

use crate::error::{DbContext, Result};

/// Tables an ingest writes row by row; their secondary indexes are deferred.
const BULK_TABLES: &[&str] = &[
    "messages",
    "message_refs",
    "message_lists",
    "reports",
    "tables",
    "table_rows",
    "trailers",
    "commit_refs",
    "diffs",
    "signals",
    "events",
    "lore_links",
];

/// Whether the database holds no message yet (an ingest is then a bulk load).
pub fn is_empty(conn: &Connection) -> Result<bool> {
    let any: bool = conn
        .prepare("SELECT 1 FROM messages LIMIT 1")
        .and_then(|mut st| st.exists([]))
        .db("checking for messages")?;
    Ok(!any)
}

/// Drops the secondary indexes of the bulk tables (not the primary keys and
/// unique constraints the writer looks up by), recording each in
/// `deferred_indexes`. Returns how many were dropped.
pub fn defer_indexes(conn: &Connection) -> Result<usize> {
    let tx = conn.unchecked_transaction().db("begin deferring indexes")?;
    let mut indexes: Vec<(String, String, String)> = Vec::new();
    {
        let mut st = tx
            .prepare(
                "SELECT name, tbl_name, sql FROM sqlite_master
                 WHERE type = 'index' AND sql IS NOT NULL ORDER BY name",
            )
            .db("listing indexes")?;
        let rows = st
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .db("listing indexes")?;
        for row in rows {
            indexes.push(row.db("listing indexes")?);
        }
    }
    let mut n = 0;
    for (name, table, sql) in indexes {
        if !BULK_TABLES.contains(&table.as_str()) {
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
    let tx = conn.unchecked_transaction().db("begin building indexes")?;
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
        assert!(before.iter().any(|n| n == "messages_norm_subject"));
        assert!(is_empty(conn).unwrap());
        let dropped = defer_indexes(conn).unwrap();
        let during = index_names(conn);
        assert!(!during.iter().any(|n| n == "messages_norm_subject"));
        assert!(!during.iter().any(|n| n == "table_rows_metric"));
        // The writer's lookups and the link tables keep theirs.
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
