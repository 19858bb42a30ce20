//! The write transaction that replaces the link tables: a full relink
//! ([`begin_relink`]), a partial one ([`begin_partial_relink`]) or a
//! linker's output as is ([`begin_output`]), finished by
//! [`RelinkWrite::finish`]; `link_chosen` and the stored history ids.

use super::*;

/// Opens a write transaction that replaces the thread rows with
/// `output`'s (for the messages of `input` that are stored); the
/// regressions follow ([`RelinkWrite::finish`]). The chosen messages are
/// left as they are.
pub fn begin_output<'c>(
    store: &'c mut Store,
    input: &LinkInput,
    output: &LinkOutput,
) -> Result<RelinkWrite<'c>> {
    let tx = store.write_tx("begin relink")?;
    let rows = input
        .messages
        .iter()
        .zip(&output.threads)
        .filter(|(m, _)| m.db_id != 0)
        .map(|(m, t)| (m.db_id, t.root_id.as_str(), t.parent_id.as_deref(), t.depth));
    write_threads(&tx, rows)?;
    Ok(RelinkWrite {
        tx,
        replaced: None,
        universe: None,
    })
}

/// The relink's write transaction, opened by [`begin_relink`] with the
/// thread rows written; [`RelinkWrite::finish`] adds the regressions and
/// commits. Dropped unfinished, it rolls back.
pub struct RelinkWrite<'c> {
    tx: crate::store::WriteTx<'c>,
    /// For a partial relink, the regressions it replaces (all when `None`).
    replaced: Option<Vec<i64>>,
    /// For a partial relink, the messages it relinks (all when `None`).
    universe: Option<Vec<i64>>,
}

/// Opens the relink's write transaction and replaces the thread rows with
/// the skeleton's. The regressions, made meanwhile from reads on another
/// connection, follow in the same transaction ([`RelinkWrite::finish`]).
pub fn begin_relink<'c>(
    store: &'c mut Store,
    db_ids: &[i64],
    sk: &Skeleton,
) -> Result<RelinkWrite<'c>> {
    let tx = store.write_tx("begin relink")?;
    let name = |c: u32| sk.names.get(c as usize).unwrap_or("");
    let rows = (0..db_ids.len().min(sk.len())).map(|i| {
        (
            db_ids[i],
            name(sk.root[i]),
            sk.parent[i].map(name),
            sk.depth[i],
        )
    });
    // A first link writes every thread row: its index on the root is
    // built once after them (a sort), not row by row in root order.
    let first = !exists(&tx, "SELECT EXISTS (SELECT 1 FROM threads)")?;
    if first {
        index_rebuilt_after(&tx, "threads_root", |tx| write_threads(tx, rows))?;
    } else {
        write_threads(&tx, rows)?;
    }
    // Every id is mapped anew, the same way.
    let sql = "DELETE FROM thread_ids";
    tx.execute(sql, []).db(sql)?;
    index_rebuilt_after(&tx, "thread_ids_root", |tx| write_thread_ids(tx, sk, true))?;
    Ok(RelinkWrite {
        tx,
        replaced: None,
        universe: None,
    })
}

/// The write transaction of a partial relink: the thread rows of the
/// messages `db_ids` (whole threads, threaded in `sk`) are replaced, the
/// ids of the threads they held (`old_roots`) mapped anew, and
/// [`RelinkWrite::finish`] replaces the regressions `replaced` (the ones
/// that had a message among them) with the ones made now.
pub fn begin_partial_relink<'c>(
    store: &'c mut Store,
    db_ids: &[i64],
    sk: &Skeleton,
    old_roots: &[String],
    replaced: Vec<i64>,
) -> Result<RelinkWrite<'c>> {
    let tx = store.write_tx("begin relink")?;
    let name = |c: u32| sk.names.get(c as usize).unwrap_or("");
    let sql = "INSERT INTO threads (message, root_id, parent_id, depth) VALUES (?1, ?2, ?3, ?4)
               ON CONFLICT(message) DO UPDATE SET root_id = excluded.root_id,
                   parent_id = excluded.parent_id, depth = excluded.depth";
    {
        let mut st = tx.prepare(sql).db(sql)?;
        for (i, id) in db_ids.iter().enumerate().take(sk.len()) {
            st.execute(params![
                id,
                name(sk.root[i]),
                sk.parent[i].map(name),
                sk.depth[i]
            ])
            .db(sql)?;
        }
    }
    let sql = "DELETE FROM thread_ids WHERE root = ?1";
    {
        let mut st = tx.prepare(sql).db(sql)?;
        for r in old_roots {
            st.execute([r]).db(sql)?;
        }
    }
    write_thread_ids(&tx, sk, false)?;
    Ok(RelinkWrite {
        tx,
        replaced: Some(replaced),
        universe: Some(db_ids.to_vec()),
    })
}

/// Runs `write` with the index `name` dropped, and makes it again after
/// from its stored definition (as [`crate::store::bulk::defer_indexes`] does for a
/// bulk load): rows written in another order than the index's go in much
/// faster that way than row by row into the index (benches/README.md,
/// "Keeping a database current").
pub(super) fn index_rebuilt_after(
    tx: &rusqlite::Connection,
    name: &str,
    write: impl FnOnce(&rusqlite::Connection) -> Result<()>,
) -> Result<()> {
    let sql = "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?1";
    let create: Option<String> = tx.query_row(sql, [name], |r| r.get(0)).optional().db(sql)?;
    let Some(create) = create else {
        return write(tx);
    };
    let drop = format!("DROP INDEX \"{}\"", name.replace('"', "\"\""));
    tx.execute_batch(&drop).db(&drop)?;
    write(tx)?;
    tx.execute_batch(&create).db(&create)
}

/// Whether a `SELECT EXISTS (...)` query holds.
pub(super) fn exists(tx: &rusqlite::Connection, sql: &str) -> Result<bool> {
    tx.query_row(sql, [], |r| r.get(0)).db(sql)
}

impl RelinkWrite<'_> {
    /// The stored ids [`crate::link::ids::assign`] reads to number the
    /// regressions whose culprits go by `names` (each key first): every
    /// stored regression, the ones this write replaces, the largest id
    /// ever given and the id each of `names` was last given.
    pub fn stored_ids(&self, names: &[Vec<&str>]) -> Result<StoredIds> {
        let live: Vec<(i64, String)> = {
            let sql = "SELECT id, culprit FROM regressions";
            let mut stmt = self.tx.prepare(sql).db(sql)?;
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
                .db(sql)?
                .collect::<std::result::Result<_, _>>()
                .db(sql)?
        };
        let given_max: i64 = {
            let sql = "SELECT COALESCE(MAX(id), 0) FROM regression_ids";
            self.tx.query_row(sql, [], |r| r.get(0)).db(sql)?
        };
        let sql = "SELECT id FROM regression_ids WHERE culprit = ?1";
        let mut st = self.tx.prepare(sql).db(sql)?;
        let mut given: HashMap<String, i64> = HashMap::new();
        for n in names.iter().flatten() {
            if given.contains_key(*n) {
                continue;
            }
            if let Some(id) = st.query_row([n], |r| r.get(0)).optional().db(sql)? {
                given.insert(n.to_string(), id);
            }
        }
        Ok(StoredIds {
            live,
            replaced: self.replaced.clone(),
            given_max,
            given,
        })
    }

    /// Replaces the chosen messages of this relink with `chosen` (each
    /// with whether the first step of the choice chose it).
    pub fn write_chosen(&self, chosen: &[(i64, bool)]) -> Result<()> {
        match &self.universe {
            None => {
                let sql = "DELETE FROM link_chosen";
                self.tx.execute(sql, []).db(sql)?;
            }
            Some(ids) => {
                let sql = "DELETE FROM link_chosen WHERE message = ?1";
                let mut st = self.tx.prepare(sql).db(sql)?;
                for id in ids {
                    st.execute([id]).db(sql)?;
                }
            }
        }
        let sql = "INSERT OR REPLACE INTO link_chosen (message, first) VALUES (?1, ?2)";
        let mut st = self.tx.prepare(sql).db(sql)?;
        for (id, first) in chosen {
            st.execute(params![id, *first as i64]).db(sql)?;
        }
        Ok(())
    }

    /// Stores the signals this relink read of messages an ingest left them
    /// unread in (message row id and its signals), marking them read.
    pub fn write_signals(&self, read: &[(i64, Vec<crate::model::Signal>)]) -> Result<()> {
        for (id, signals) in read {
            crate::store::extractions::write_read_signals(&self.tx, *id, signals)?;
        }
        Ok(())
    }

    /// Replaces the regressions (whose messages are all in `messages`) and
    /// commits threads, chosen messages and regressions together.
    ///
    /// The regressions are made one at a time by `make(k)`, the `k`-th
    /// stored under `ids[k]` ([`crate::link::ids::assign`]), never all held
    /// at once.
    pub fn finish(
        self,
        messages: &[LinkMessage],
        ids: &[i64],
        make: impl Fn(usize) -> Regression,
    ) -> Result<()> {
        write_regressions(&self.tx, messages, ids, self.replaced.as_deref(), make)?;
        self.tx.commit().db("commit relink")
    }
}
