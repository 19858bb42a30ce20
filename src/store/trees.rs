//! The followed kernel trees (schema v13, `sql/0013_trees.sql`): the trees
//! and refs `regtrack trees add` records, what each walk delivered (every
//! commit once, its kept trailers, which ref holds it and the first release
//! of its tree that contains it), the stored release index of each tree,
//! and the candidate commits of a history ([`candidates`]).
//!
//! A sync writes one tree in one transaction ([`Store::in_write`]): a walk
//! that fails leaves nothing of that tree half stored.

use rusqlite::{OptionalExtension, params};

use super::{DbContext, Store};
use crate::error::{Error, Result};
use crate::link::trees::{TreeCommit, TreeKeys, TreeRef, fixes_target, link_target};
use crate::trees::Commit;

/// A recorded tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeRow {
    /// Row id.
    pub id: i64,
    /// Its name (`mainline`).
    pub name: String,
    /// The clone's path, as given.
    pub path: String,
    /// When it was last synced (Unix seconds).
    pub synced_at: Option<i64>,
    /// Its followed refs.
    pub refs: Vec<RefRow>,
}

/// A followed ref of a tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefRow {
    /// Row id.
    pub id: i64,
    /// The ref as given (`master`, `refs/heads/for-next`, `HEAD`).
    pub name: String,
    /// The last commit read (40 hex), `None` before the first walk.
    pub tip: Option<String>,
    /// When it was read (Unix seconds).
    pub read_at: Option<i64>,
}

/// Records tree `name` at `path` following `refs`; refuses a name taken.
pub fn add(store: &Store, name: &str, path: &str, refs: &[String], now: i64) -> Result<()> {
    store.in_write("recording a tree", |s| {
        let sql = "SELECT 1 FROM trees WHERE name = ?1";
        let taken: Option<i64> = s
            .conn()
            .query_row(sql, [name], |r| r.get(0))
            .optional()
            .db(sql)?;
        if taken.is_some() {
            return Err(Error::Query(format!(
                "a tree named '{name}' is recorded already (`regtrack trees` lists them)"
            )));
        }
        let sql = "INSERT INTO trees (name, path, added_at) VALUES (?1, ?2, ?3)";
        s.conn().execute(sql, params![name, path, now]).db(sql)?;
        let tree = s.conn().last_insert_rowid();
        let sql = "INSERT OR IGNORE INTO tree_refs (tree, name) VALUES (?1, ?2)";
        for r in refs {
            s.conn().execute(sql, params![tree, r]).db(sql)?;
        }
        Ok(())
    })
}

/// Every recorded tree with its refs, by name.
pub fn list(store: &Store) -> Result<Vec<TreeRow>> {
    let sql = "SELECT id, name, path, synced_at FROM trees ORDER BY name";
    let mut st = store.conn().prepare(sql).db(sql)?;
    let mut trees: Vec<TreeRow> = st
        .query_map([], |r| {
            Ok(TreeRow {
                id: r.get(0)?,
                name: r.get(1)?,
                path: r.get(2)?,
                synced_at: r.get(3)?,
                refs: Vec::new(),
            })
        })
        .db(sql)?
        .collect::<std::result::Result<_, _>>()
        .db(sql)?;
    let sql = "SELECT id, name, tip, read_at FROM tree_refs WHERE tree = ?1 ORDER BY id";
    let mut st = store.conn().prepare(sql).db(sql)?;
    for t in &mut trees {
        t.refs = st
            .query_map([t.id], |r| {
                Ok(RefRow {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    tip: r.get(2)?,
                    read_at: r.get(3)?,
                })
            })
            .db(sql)?
            .collect::<std::result::Result<_, _>>()
            .db(sql)?;
    }
    Ok(trees)
}

/// True when any tree is recorded.
pub fn any(store: &Store) -> Result<bool> {
    let sql = "SELECT EXISTS (SELECT 1 FROM trees)";
    store.conn().query_row(sql, [], |r| r.get(0)).db(sql)
}

/// Commits ref `ref_id` holds now.
pub fn ref_commits(store: &Store, ref_id: i64) -> Result<i64> {
    let sql = "SELECT count(*) FROM tree_contains WHERE ref = ?1";
    store.conn().query_row(sql, [ref_id], |r| r.get(0)).db(sql)
}

/// The stored release index bytes of tree `tree`.
pub fn releases(store: &Store, tree: i64) -> Result<Option<Vec<u8>>> {
    let sql = "SELECT releases FROM trees WHERE id = ?1";
    store
        .conn()
        .query_row(sql, [tree], |r| r.get(0))
        .optional()
        .db(sql)
        .map(Option::flatten)
}

/// Stores a tree's release index and the time of its sync.
pub fn set_releases(store: &Store, tree: i64, bytes: &[u8], now: i64) -> Result<()> {
    let sql = "UPDATE trees SET releases = ?2, synced_at = ?3 WHERE id = ?1";
    store
        .conn()
        .execute(sql, params![tree, bytes, now])
        .db(sql)?;
    Ok(())
}

/// Stores the time of a tree's sync (its release index unchanged).
pub fn set_synced(store: &Store, tree: i64, now: i64) -> Result<()> {
    let sql = "UPDATE trees SET synced_at = ?2 WHERE id = ?1";
    store.conn().execute(sql, params![tree, now]).db(sql)?;
    Ok(())
}

/// Stores the tip read on ref `ref_id`.
pub fn set_tip(store: &Store, ref_id: i64, tip: &str, now: i64) -> Result<()> {
    let sql = "UPDATE tree_refs SET tip = ?2, read_at = ?3 WHERE id = ?1";
    store
        .conn()
        .execute(sql, params![ref_id, tip, now])
        .db(sql)?;
    Ok(())
}

/// Forgets what ref `ref_id` held (before a first walk again).
pub fn clear_ref(store: &Store, ref_id: i64) -> Result<()> {
    let sql = "DELETE FROM tree_contains WHERE ref = ?1";
    store.conn().execute(sql, [ref_id]).db(sql)?;
    Ok(())
}

/// Stores commit `c` (once) as held by ref `ref_id` with `release`;
/// returns true when the commit was new to the database.
pub fn put_commit(store: &Store, ref_id: i64, c: &Commit, release: Option<&str>) -> Result<bool> {
    let conn = store.conn();
    let oid = c.id.to_string();
    let sql = "INSERT OR IGNORE INTO tree_commits (oid, title, title_key, author_name, \
               author_email, author_time, committer_time, reverts, upstream) \
               VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";
    let mut st = conn.prepare_cached(sql).db(sql)?;
    let inserted = st
        .execute(params![
            oid,
            c.title,
            crate::link::hints::title_key(&c.title),
            c.author_name,
            c.author_email,
            c.author_time,
            c.committer_time,
            c.reverts.map(|r| r.to_string()),
            c.upstream.map(|r| r.to_string()),
        ])
        .db(sql)?
        > 0;
    let id: i64 = if inserted {
        conn.last_insert_rowid()
    } else {
        let sql = "SELECT id FROM tree_commits WHERE oid = ?1";
        conn.prepare_cached(sql)
            .db(sql)?
            .query_row([&oid], |r| r.get(0))
            .db(sql)?
    };
    if inserted && !c.trailers.is_empty() {
        let sql =
            "INSERT INTO tree_trailers (commit_id, key, value, target) VALUES (?1, ?2, ?3, ?4)";
        let mut st = conn.prepare_cached(sql).db(sql)?;
        for t in &c.trailers {
            let target = match t.key.as_str() {
                "Fixes" => fixes_target(&t.value),
                "Closes" | "Link" => link_target(&t.value),
                _ => None,
            };
            st.execute(params![id, t.key, t.value, target]).db(sql)?;
        }
    }
    let sql = "INSERT INTO tree_contains (ref, commit_id, release) VALUES (?1, ?2, ?3) \
               ON CONFLICT (ref, commit_id) DO UPDATE SET release = excluded.release";
    conn.prepare_cached(sql)
        .db(sql)?
        .execute(params![ref_id, id, release])
        .db(sql)?;
    Ok(inserted)
}

/// Drops `oids` from what ref `ref_id` holds (they vanished in a force push).
pub fn vanish(store: &Store, ref_id: i64, oids: &[String]) -> Result<()> {
    let sql = "DELETE FROM tree_contains WHERE ref = ?1 \
               AND commit_id = (SELECT id FROM tree_commits WHERE oid = ?2)";
    let mut st = store.conn().prepare_cached(sql).db(sql)?;
    for o in oids {
        st.execute(params![ref_id, o]).db(sql)?;
    }
    Ok(())
}

/// The commits the refs of tree `tree` hold (all of them, or only those
/// without a release): `(ref, commit row, oid)`.
pub fn held_commits(
    store: &Store,
    tree: i64,
    unreleased_only: bool,
) -> Result<Vec<(i64, i64, String)>> {
    let sql = "SELECT tc.ref, tc.commit_id, c.oid FROM tree_contains tc \
               JOIN tree_refs r ON r.id = tc.ref JOIN tree_commits c ON c.id = tc.commit_id \
               WHERE r.tree = ?1 AND (?2 = 0 OR tc.release IS NULL)";
    let mut st = store.conn().prepare(sql).db(sql)?;
    st.query_map(params![tree, unreleased_only as i64], |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?))
    })
    .db(sql)?
    .collect::<std::result::Result<_, _>>()
    .db(sql)
}

/// Sets the release of a held commit.
pub fn set_release(store: &Store, ref_id: i64, commit: i64, release: Option<&str>) -> Result<()> {
    let sql = "UPDATE tree_contains SET release = ?3 WHERE ref = ?1 AND commit_id = ?2";
    store
        .conn()
        .prepare_cached(sql)
        .db(sql)?
        .execute(params![ref_id, commit, release])
        .db(sql)?;
    Ok(())
}

/// Why the next link must relink everything, if a sync said so.
pub fn pending(store: &Store) -> Result<Option<String>> {
    let sql = "SELECT reason FROM tree_link_pending WHERE id = 1";
    store
        .conn()
        .query_row(sql, [], |r| r.get(0))
        .optional()
        .db(sql)
}

/// Makes the next link relink everything, saying `reason` (a reason
/// already pending is kept).
pub fn set_pending(store: &Store, reason: &str) -> Result<()> {
    let sql = "INSERT OR IGNORE INTO tree_link_pending (id, reason) VALUES (1, ?1)";
    store.conn().execute(sql, [reason]).db(sql)?;
    Ok(())
}

/// Clears [`pending`] (after a full relink).
pub fn clear_pending(store: &Store) -> Result<()> {
    let sql = "DELETE FROM tree_link_pending";
    store.conn().execute(sql, []).db(sql)?;
    Ok(())
}

/// Commit rows of `ids` with where their key `col` is within `[p, p + 'g')`
/// for each prefix: the index does the range, the caller the exact match.
fn ids_by_prefix(store: &Store, sql: &str, prefixes: &[String], out: &mut Vec<i64>) -> Result<()> {
    let mut st = store.conn().prepare_cached(sql).db(sql)?;
    for p in prefixes {
        let p = p.to_ascii_lowercase();
        let Some(head) = p.get(..crate::link::culprit::MIN_ABBREV) else {
            continue;
        };
        let hi = format!("{head}g");
        let rows = st
            .query_map(params![head, hi], |r| r.get::<_, i64>(0))
            .db(sql)?;
        for r in rows {
            out.push(r.db(sql)?);
        }
    }
    Ok(())
}

/// The commits that may say something of a history with keys `keys`: those
/// whose id, revert or `Fixes:` shares the first 7 hex of a culprit id,
/// whose `Closes:`/`Link:` names one of its messages, whose title key is
/// one of its patches', and the stable backports of those. Each with the refs holding it now (none when it
/// vanished). Over-approximates; [`crate::link::trees::apply`] decides.
pub fn candidates(store: &Store, keys: &TreeKeys) -> Result<Vec<TreeCommit>> {
    let mut ids: Vec<i64> = Vec::new();
    ids_by_prefix(
        store,
        "SELECT id FROM tree_commits WHERE oid >= ?1 AND oid < ?2",
        &keys.commits,
        &mut ids,
    )?;
    ids_by_prefix(
        store,
        "SELECT id FROM tree_commits WHERE oid >= ?1 AND oid < ?2",
        &keys.fixes,
        &mut ids,
    )?;
    ids_by_prefix(
        store,
        "SELECT id FROM tree_commits WHERE reverts >= ?1 AND reverts < ?2",
        &keys.commits,
        &mut ids,
    )?;
    ids_by_prefix(
        store,
        "SELECT commit_id FROM tree_trailers WHERE target >= ?1 AND target < ?2 AND key = 'Fixes'",
        &keys.commits,
        &mut ids,
    )?;
    let sql = "SELECT commit_id FROM tree_trailers WHERE target = ?1";
    let mut st = store.conn().prepare_cached(sql).db(sql)?;
    for m in &keys.message_ids {
        for r in st.query_map([m], |r| r.get::<_, i64>(0)).db(sql)? {
            ids.push(r.db(sql)?);
        }
    }
    let sql = "SELECT id FROM tree_commits WHERE title_key = ?1";
    let mut st = store.conn().prepare_cached(sql).db(sql)?;
    for t in &keys.titles {
        for r in st.query_map([t], |r| r.get::<_, i64>(0)).db(sql)? {
            ids.push(r.db(sql)?);
        }
    }
    // Stable backports of any of them.
    let sql = "SELECT b.id FROM tree_commits c JOIN tree_commits b ON b.upstream = c.oid \
               WHERE c.id = ?1";
    let mut st = store.conn().prepare_cached(sql).db(sql)?;
    let mut backports = Vec::new();
    for id in &ids {
        for r in st.query_map([id], |r| r.get::<_, i64>(0)).db(sql)? {
            backports.push(r.db(sql)?);
        }
    }
    ids.extend(backports);
    ids.sort_unstable();
    ids.dedup();
    ids.into_iter().map(|id| commit_row(store, id)).collect()
}

/// Commit row `id` with its trailers and holding refs.
fn commit_row(store: &Store, id: i64) -> Result<TreeCommit> {
    let conn = store.conn();
    let sql = "SELECT oid, title, author_name, author_email, committer_time, reverts, upstream \
               FROM tree_commits WHERE id = ?1";
    let mut c = conn
        .prepare_cached(sql)
        .db(sql)?
        .query_row([id], |r| {
            Ok(TreeCommit {
                oid: r.get(0)?,
                title: r.get(1)?,
                author_name: r.get(2)?,
                author_email: r.get(3)?,
                committer_time: r.get(4)?,
                reverts: r.get(5)?,
                upstream: r.get(6)?,
                ..TreeCommit::default()
            })
        })
        .db(sql)?;
    let sql = "SELECT key, value FROM tree_trailers WHERE commit_id = ?1 ORDER BY rowid";
    c.trailers = conn
        .prepare_cached(sql)
        .db(sql)?
        .query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))
        .db(sql)?
        .collect::<std::result::Result<_, _>>()
        .db(sql)?;
    let sql = "SELECT t.name, r.name, tc.release FROM tree_contains tc \
               JOIN tree_refs r ON r.id = tc.ref JOIN trees t ON t.id = r.tree \
               WHERE tc.commit_id = ?1 ORDER BY t.name, r.id";
    c.refs = conn
        .prepare_cached(sql)
        .db(sql)?
        .query_map([id], |r| {
            Ok(TreeRef {
                tree: r.get(0)?,
                refname: r.get(1)?,
                release: r.get(2)?,
            })
        })
        .db(sql)?
        .collect::<std::result::Result<_, _>>()
        .db(sql)?;
    Ok(c)
}
