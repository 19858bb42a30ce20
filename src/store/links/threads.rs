//! `threads` and `thread_ids`: each message's thread root, written a chunk
//! at a time and compared with the stored rows.

use super::*;

/// Maps every id the skeleton threaded but holds no message of (an id only
/// referenced) to its thread's root, in id order. A message's own id needs
/// no row: its `threads` row gives its root (see [`roots_of_ids`]), and
/// the ids of messages would be nearly all the rows.
pub(super) fn write_thread_ids(
    tx: &rusqlite::Connection,
    sk: &Skeleton,
    fresh: bool,
) -> Result<()> {
    let mut is_message = vec![false; sk.names.len()];
    for &c in &sk.container {
        if let Some(m) = is_message.get_mut(c as usize) {
            *m = true;
        }
    }
    let mut rows: Vec<(&str, &str)> = (0..sk.names.len())
        .filter(|&c| !is_message[c])
        .filter_map(|c| {
            let id = sk.names.get(c)?;
            let root = sk.names.get(*sk.container_root.get(c)? as usize)?;
            Some((id, root))
        })
        .collect();
    rows.sort_unstable();
    let sql = if fresh {
        "INSERT INTO thread_ids (id, root) VALUES (?1, ?2)"
    } else {
        "INSERT OR REPLACE INTO thread_ids (id, root) VALUES (?1, ?2)"
    };
    let mut st = tx.prepare(sql).db(sql)?;
    for (id, root) in rows {
        st.execute(params![id, root]).db(sql)?;
    }
    Ok(())
}

/// Thread rows compared with the stored ones at a time.
pub(super) const THREAD_CHUNK: usize = 4096;

/// Brings the `threads` table to exactly `rows` (message, root, parent,
/// depth): only rows that differ are written, rows of other messages are
/// deleted. Reads the stored rows a chunk at a time (memory stays bounded).
pub(super) fn write_threads<'a>(
    tx: &rusqlite::Connection,
    rows: impl Iterator<Item = (i64, &'a str, Option<&'a str>, u32)>,
) -> Result<()> {
    let sql_old = "SELECT message, root_id, parent_id, depth FROM threads \
                   WHERE message BETWEEN ?1 AND ?2";
    let mut old_stmt = tx.prepare(sql_old).db(sql_old)?;
    // A changed row is updated and a new one inserted: `INSERT OR REPLACE`
    // made SQLite copy every page it touched into a statement journal first
    // (REPLACE may delete, NOT NULL may abort), half the time of a first link.
    let sql_new = "INSERT INTO threads (message, root_id, parent_id, depth) \
                   VALUES (?1, ?2, ?3, ?4)";
    let mut insert = tx.prepare(sql_new).db(sql_new)?;
    let sql_changed = "UPDATE threads SET root_id = ?2, parent_id = ?3, depth = ?4 \
                       WHERE message = ?1";
    let mut update = tx.prepare(sql_changed).db(sql_changed)?;
    let mut seen: Vec<i64> = Vec::new();
    let mut chunk: Vec<(i64, &str, Option<&str>, u32)> = Vec::with_capacity(THREAD_CHUNK);
    let mut flush = |chunk: &mut Vec<(i64, &'a str, Option<&'a str>, u32)>| -> Result<()> {
        let (Some(lo), Some(hi)) = (
            chunk.iter().map(|r| r.0).min(),
            chunk.iter().map(|r| r.0).max(),
        ) else {
            return Ok(());
        };
        let existing: HashMap<i64, (String, Option<String>, u32)> = old_stmt
            .query_map(params![lo, hi], |r| {
                Ok((r.get(0)?, (r.get(1)?, r.get(2)?, r.get(3)?)))
            })
            .db(sql_old)?
            .collect::<std::result::Result<_, _>>()
            .db(sql_old)?;
        for (id, root, parent, depth) in chunk.drain(..) {
            seen.push(id);
            let values = params![id, root, parent, depth];
            match existing.get(&id) {
                Some((r, p, d)) if r == root && p.as_deref() == parent && *d == depth => {}
                Some(_) => {
                    update.execute(values).db(sql_changed)?;
                }
                None => {
                    insert.execute(values).db(sql_new)?;
                }
            }
        }
        Ok(())
    };
    for row in rows {
        chunk.push(row);
        if chunk.len() >= THREAD_CHUNK {
            flush(&mut chunk)?;
        }
    }
    flush(&mut chunk)?;
    seen.sort_unstable();
    let stale: Vec<i64> = {
        let sql = "SELECT message FROM threads";
        let mut q = tx.prepare(sql).db(sql)?;
        let mut rows = q.query([]).db(sql)?;
        let mut v = Vec::new();
        while let Some(r) = rows.next().db(sql)? {
            let id: i64 = r.get(0).db(sql)?;
            if seen.binary_search(&id).is_err() {
                v.push(id);
            }
        }
        v
    };
    let sql = "DELETE FROM threads WHERE message = ?1";
    let mut del = tx.prepare(sql).db(sql)?;
    for id in stale {
        del.execute(params![id]).db(sql)?;
    }
    Ok(())
}
