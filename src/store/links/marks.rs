//! `marks` (human decisions, keyed by culprit) and `followed` (when a
//! history's culprit was last followed in a tree).

use super::*;

/// Every mark, oldest first, and the ones whose status this build does not
/// know (as `culprit: status`), which are left out.
pub fn load_marks(store: &Store) -> Result<(Vec<Mark>, Vec<String>)> {
    let sql = "SELECT id, culprit, status, note, author, at, fix, fixed_in, dup_of, withdraws, \
               fix_patch FROM marks ORDER BY at, id";
    let mut stmt = store.conn().prepare(sql).db(sql)?;
    let rows: Vec<(Mark, Option<String>)> = stmt
        .query_map([], |r| {
            Ok((
                Mark {
                    id: r.get(0)?,
                    culprit: r.get(1)?,
                    status: None,
                    note: r.get(3)?,
                    author: r.get(4)?,
                    at: r.get(5)?,
                    fix: r.get(6)?,
                    fixed_in: r.get(7)?,
                    dup_of: r.get(8)?,
                    withdraws: r.get(9)?,
                    fix_patch: r.get(10)?,
                },
                r.get(2)?,
            ))
        })
        .db(sql)?
        .collect::<std::result::Result<_, _>>()
        .db(sql)?;
    let mut marks = Vec::with_capacity(rows.len());
    let mut unknown = Vec::new();
    for (mut mark, status) in rows {
        match status.as_deref().map(|s| (s, Status::parse(s))) {
            Some((s, None)) => unknown.push(format!("{}: {s}", mark.culprit)),
            Some((_, st)) => {
                mark.status = st;
                marks.push(mark);
            }
            None => marks.push(mark),
        }
    }
    Ok((marks, unknown))
}

/// When `follow` last asked about the regression of this culprit (Unix seconds).
pub fn followed_at(store: &Store, culprit: &str) -> Result<Option<i64>> {
    let sql = "SELECT at FROM follows WHERE culprit = ?1";
    store
        .conn()
        .query_row(sql, [culprit], |r| r.get(0))
        .optional()
        .db(sql)
}

/// Records that `follow` asked about the regression of this culprit at `at`.
pub fn set_followed(store: &Store, culprit: &str, at: i64) -> Result<()> {
    let sql = "INSERT INTO follows (culprit, at) VALUES (?1, ?2)
               ON CONFLICT(culprit) DO UPDATE SET at = excluded.at";
    store
        .conn()
        .execute(sql, params![culprit, at])
        .db(sql)
        .map(|_| ())
}

/// Stores a mark (a human decision keyed by culprit) and returns its id.
pub fn insert_mark(store: &mut Store, mark: &Mark) -> Result<i64> {
    let sql = "INSERT INTO marks (culprit, status, note, author, at, fix, fixed_in, dup_of, \
               withdraws, fix_patch) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
    let conn = store.conn();
    conn.execute(
        sql,
        params![
            mark.culprit,
            mark.status.map(|s| s.as_str()),
            mark.note,
            mark.author,
            mark.at,
            mark.fix,
            mark.fixed_in,
            mark.dup_of,
            mark.withdraws,
            mark.fix_patch
        ],
    )
    .db(sql)?;
    Ok(conn.last_insert_rowid())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_follow_time_reads_back_and_is_replaced() {
        let store = Store::in_memory().unwrap();
        assert_eq!(followed_at(&store, "0123456789ab").unwrap(), None);
        set_followed(&store, "0123456789ab", 100).unwrap();
        set_followed(&store, "0123456789ab", 200).unwrap();
        assert_eq!(followed_at(&store, "0123456789ab").unwrap(), Some(200));
        assert_eq!(followed_at(&store, "fedcba987654").unwrap(), None);
        let (marks, _) = load_marks(&store).unwrap();
        assert!(marks.is_empty());
    }
}
