//! The link state (`link_state`: what the last link saw), `link_changed`
//! and the horizon that shows a link a prefix of the messages.

use super::*;

/// What the link tables were (or would be) computed from: see `link_state`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LinkState {
    /// Version of the linking logic.
    pub logic_version: i64,
    /// Highest `messages.id`.
    pub max_message: i64,
    /// Number of messages.
    pub messages: i64,
    /// Highest `marks.id`.
    pub max_mark: i64,
    /// Number of marks.
    pub marks: i64,
}

/// The state of the stored inputs now (four index-only aggregates).
pub fn current_state(store: &Store, logic_version: i64) -> Result<LinkState> {
    let sql = "SELECT (SELECT coalesce(max(id), 0) FROM messages), \
               (SELECT count(*) FROM messages), \
               (SELECT coalesce(max(id), 0) FROM marks), \
               (SELECT count(*) FROM marks)";
    store
        .conn()
        .query_row(sql, [], |r| {
            Ok(LinkState {
                logic_version,
                max_message: r.get(0)?,
                messages: r.get(1)?,
                max_mark: r.get(2)?,
                marks: r.get(3)?,
            })
        })
        .db(sql)
}

/// The state the link tables were last computed from, if ever.
pub fn stored_state(store: &Store) -> Result<Option<LinkState>> {
    let sql = "SELECT logic_version, max_message, messages, max_mark, marks \
               FROM link_state WHERE id = 1";
    let mut stmt = store.conn().prepare(sql).db(sql)?;
    let mut rows = stmt.query([]).db(sql)?;
    let Some(r) = rows.next().db(sql)? else {
        return Ok(None);
    };
    Ok(Some(LinkState {
        logic_version: r.get(0).db(sql)?,
        max_message: r.get(1).db(sql)?,
        messages: r.get(2).db(sql)?,
        max_mark: r.get(3).db(sql)?,
        marks: r.get(4).db(sql)?,
    }))
}

/// Records that the link tables are current for `state`.
pub fn set_state(store: &Store, state: &LinkState) -> Result<()> {
    let sql = "INSERT OR REPLACE INTO link_state \
               (id, logic_version, max_message, messages, max_mark, marks, linked_at) \
               VALUES (1, ?1, ?2, ?3, ?4, ?5, strftime('%s', 'now'))";
    store
        .conn()
        .execute(
            sql,
            params![
                state.logic_version,
                state.max_message,
                state.messages,
                state.max_mark,
                state.marks
            ],
        )
        .db(sql)?;
    Ok(())
}

/// Forgets the link state, so that the next `relink` recomputes everything.
pub fn clear_state(store: &Store) -> Result<()> {
    let sql = "DELETE FROM link_state";
    store.conn().execute(sql, []).db(sql)?;
    Ok(())
}

/// The messages whose stored copy a better one with the same linking facts
/// replaced since the last link (`link_changed`), ascending.
pub fn changed_messages(store: &Store) -> Result<Vec<i64>> {
    let sql = "SELECT message FROM link_changed ORDER BY message";
    let mut stmt = store.conn().prepare(sql).db(sql)?;
    stmt.query_map([], |r| r.get(0))
        .db(sql)?
        .collect::<std::result::Result<_, _>>()
        .db(sql)
}

/// Forgets [`changed_messages`] (after a relink took them in).
pub fn clear_changed(store: &Store) -> Result<()> {
    let sql = "DELETE FROM link_changed";
    store.conn().execute(sql, []).db(sql)?;
    Ok(())
}

/// The tables of what was read from mail, each with its column naming the
/// message: what [`set_horizon`] limits.
pub(super) const MAIL_TABLES: &[(&str, &str)] = &[
    ("messages", "id"),
    ("bodies", "message"),
    ("commit_refs", "message"),
    ("diffs", "message"),
    ("events", "message"),
    ("extractions", "message"),
    ("landings", "message"),
    ("link_keys", "message"),
    ("lore_links", "message"),
    ("message_copies", "message"),
    ("message_lists", "message"),
    ("patches", "message"),
    ("reports", "message"),
    ("signals", "message"),
    ("tables", "message"),
    ("trailers", "message"),
];

/// Makes this connection read only the messages up to `horizon`
/// (`messages.id`) and what was read from them, as if nothing later were
/// stored: a temporary view of each mail table, named as the table, hides
/// the later rows (SQLite resolves a name in `temp` before `main`). The
/// link tables are not hidden, so a link of everything can be made a
/// horizon at a time. `None` shows everything again.
pub fn set_horizon(store: &Store, horizon: Option<i64>) -> Result<()> {
    let mut sql = String::new();
    for (table, column) in MAIL_TABLES {
        sql.push_str(&format!("DROP VIEW IF EXISTS temp.{table};\n"));
        if let Some(h) = horizon {
            sql.push_str(&format!(
                "CREATE TEMP VIEW {table} AS SELECT * FROM main.{table} WHERE {column} <= {h};\n"
            ));
        }
    }
    store
        .conn()
        .execute_batch(&sql)
        .db("set the link horizon")?;
    Ok(())
}

/// Every `step`-th `messages.id` (the `step`-th, the `2 step`-th, ...) and
/// the last one, ascending: where a link in steps of `step` messages stops.
pub fn step_ends(store: &Store, step: usize) -> Result<Vec<i64>> {
    let sql = "SELECT id FROM main.messages ORDER BY id";
    let mut stmt = store.conn().prepare(sql).db(sql)?;
    let mut rows = stmt.query([]).db(sql)?;
    let (mut ends, mut n, mut last) = (Vec::new(), 0usize, None);
    while let Some(r) = rows.next().db(sql)? {
        let id: i64 = r.get(0).db(sql)?;
        n += 1;
        last = Some(id);
        if n % step.max(1) == 0 {
            ends.push(id);
        }
    }
    if let Some(l) = last
        && ends.last() != Some(&l)
    {
        ends.push(l);
    }
    Ok(ends)
}

/// How many threads and regressions are stored.
pub fn counts(store: &Store) -> Result<(u64, u64)> {
    let sql = "SELECT (SELECT count(DISTINCT root_id) FROM threads), \
               (SELECT count(*) FROM regressions)";
    store
        .conn()
        .query_row(sql, [], |r| {
            Ok((r.get::<_, i64>(0)? as u64, r.get::<_, i64>(1)? as u64))
        })
        .db(sql)
}

/// The `messages.id` of every message stored after `after`, ascending.
pub fn messages_after(store: &Store, after: i64) -> Result<Vec<i64>> {
    let sql = "SELECT id FROM messages WHERE id > ?1 ORDER BY id";
    let mut stmt = store.conn().prepare(sql).db(sql)?;
    stmt.query_map([after], |r| r.get(0))
        .db(sql)?
        .collect::<std::result::Result<_, _>>()
        .db(sql)
}

/// The culprits of the marks made after mark `after`.
pub fn mark_culprits_after(store: &Store, after: i64) -> Result<Vec<String>> {
    // A duplicate mark changes its target's history too, and a withdrawal
    // the histories of the mark it withdraws.
    let sql = "SELECT culprit FROM marks WHERE id > ?1
               UNION SELECT dup_of FROM marks WHERE id > ?1 AND dup_of IS NOT NULL
               UNION SELECT w.culprit FROM marks m JOIN marks w ON w.id = m.withdraws WHERE m.id > ?1
               UNION SELECT w.dup_of FROM marks m JOIN marks w ON w.id = m.withdraws
                     WHERE m.id > ?1 AND w.dup_of IS NOT NULL";
    let mut stmt = store.conn().prepare(sql).db(sql)?;
    stmt.query_map([after], |r| r.get(0))
        .db(sql)?
        .collect::<std::result::Result<_, _>>()
        .db(sql)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_state_reads_back_as_set_until_cleared() {
        let store = Store::in_memory().unwrap();
        assert_eq!(stored_state(&store).unwrap(), None);
        let now = current_state(&store, 7).unwrap();
        assert_eq!(
            now,
            LinkState {
                logic_version: 7,
                ..LinkState::default()
            }
        );
        let state = LinkState {
            logic_version: 7,
            max_message: 12,
            messages: 10,
            max_mark: 3,
            marks: 2,
        };
        set_state(&store, &state).unwrap();
        assert_eq!(stored_state(&store).unwrap(), Some(state));
        clear_state(&store).unwrap();
        assert_eq!(stored_state(&store).unwrap(), None);
        assert_eq!(changed_messages(&store).unwrap(), Vec::<i64>::new());
    }
}
