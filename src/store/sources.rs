//! Where ingesting got to and what it could not read: `sources` (the last
//! commit read of each public-inbox epoch, the size and time of each file
//! read whole) and `failures` (messages that could not be parsed, by
//! place).

use rusqlite::{OptionalExtension, params};

use super::DbContext;
use super::Store;
use crate::error::Result;
use crate::model::Origin;

/// Where a failed message was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailureAt {
    /// File path or git directory.
    pub source: String,
    /// Byte offset in a file.
    pub offset: Option<u64>,
    /// Commit in a public-inbox epoch.
    pub git_commit: Option<String>,
}

impl FailureAt {
    /// The place of an [`Origin`].
    pub fn of(origin: &Origin) -> FailureAt {
        match origin {
            Origin::File { path, offset } => FailureAt {
                source: path.clone(),
                offset: Some(*offset),
                git_commit: None,
            },
            Origin::Git { repo, commit } => FailureAt {
                source: repo.clone(),
                offset: None,
                git_commit: Some(commit.clone()),
            },
            Origin::Stdin { offset } => FailureAt {
                source: "<stdin>".into(),
                offset: Some(*offset),
                git_commit: None,
            },
        }
    }
}

/// Whether any failure of a public-inbox commit is recorded (a later read of
/// that commit then clears it, [`clear_git_failure`]).
pub fn has_git_failures(store: &Store) -> Result<bool> {
    store
        .conn()
        .query_row(
            "SELECT EXISTS (SELECT 1 FROM failures WHERE git_commit IS NOT NULL)",
            [],
            |r| r.get(0),
        )
        .db("git failure lookup")
}

/// Forgets the failure of commit `commit` of epoch `repo`, whose message has
/// now been read; true when there was one.
pub fn clear_git_failure(store: &Store, repo: &str, commit: &str) -> Result<bool> {
    let n = store
        .conn()
        .prepare_cached(
            "DELETE FROM failures WHERE source = ?1 AND offset IS NULL AND git_commit = ?2",
        )
        .db("prepare failure delete")?
        .execute(params![repo, commit])
        .db("failure delete")?;
    Ok(n > 0)
}

/// Records a message that could not be parsed (once per place); returns true when new.
pub fn insert_failure(
    store: &Store,
    at: &FailureAt,
    message_id: Option<&str>,
    reason: &str,
    now: i64,
) -> Result<bool> {
    let conn = store.conn();
    let offset = at.offset.map(|o| o as i64);
    let exists: Option<i64> = conn
        .prepare_cached(
            "SELECT id FROM failures WHERE source = ?1 AND offset IS ?2 AND git_commit IS ?3",
        )
        .db("prepare failure lookup")?
        .query_row(params![at.source, offset, at.git_commit], |r| r.get(0))
        .optional()
        .db("failure lookup")?;
    if let Some(id) = exists {
        conn.prepare_cached(
            "UPDATE failures SET reason = ?2, message_id = ?3, at = ?4 WHERE id = ?1",
        )
        .db("prepare failure update")?
        .execute(params![id, reason, message_id, now])
        .db("failure update")?;
        return Ok(false);
    }
    conn.prepare_cached(
        "INSERT INTO failures (source, offset, git_commit, message_id, reason, at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )
    .db("prepare failure insert")?
    .execute(params![
        at.source,
        offset,
        at.git_commit,
        message_id,
        reason,
        now
    ])
    .db("failure insert")?;
    Ok(true)
}

/// Records the progress of an incremental source.
pub fn set_source(
    store: &Store,
    source: &str,
    kind: &str,
    last_commit: Option<&str>,
    now: i64,
) -> Result<()> {
    store
        .conn()
        .prepare_cached(
            "INSERT INTO sources (source, kind, last_commit, updated_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(source) DO UPDATE SET kind = excluded.kind,
             last_commit = excluded.last_commit, updated_at = excluded.updated_at",
        )
        .db("prepare source update")?
        .execute(params![source, kind, last_commit, now])
        .db("source update")?;
    Ok(())
}

/// The `sources.kind` of a file read to its end (mbox, gzip, single message).
pub const FILE_KIND: &str = "file";

/// Records that the file `source` was read to its end at this size and mtime.
pub fn set_file_source(store: &Store, source: &str, size: i64, mtime: i64, now: i64) -> Result<()> {
    store.conn().prepare_cached(
        "INSERT INTO sources (source, kind, size, mtime, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT(source) DO UPDATE SET kind = excluded.kind, size = excluded.size,
             mtime = excluded.mtime, updated_at = excluded.updated_at",
    )
    .db("prepare file source update")?
    .execute(params![source, FILE_KIND, size, mtime, now])
    .db("file source update")?;
    Ok(())
}

/// Incremental sources read before: epoch git directory -> last commit read.
pub fn commit_sources(store: &Store) -> Result<std::collections::HashMap<String, String>> {
    let sql = "SELECT source, last_commit FROM sources WHERE last_commit IS NOT NULL";
    let mut st = store.conn().prepare(sql).db(sql)?;
    let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).db(sql)?;
    rows.collect::<std::result::Result<_, _>>().db(sql)
}

/// Commits of epochs whose message could not be read or parsed in an
/// earlier run: epoch git directory -> commit ids (oldest failure first).
/// Each run reads them again, whatever its progress mark says.
pub fn git_failures(store: &Store) -> Result<std::collections::HashMap<String, Vec<String>>> {
    let sql = "SELECT source, git_commit FROM failures
               WHERE git_commit IS NOT NULL AND offset IS NULL ORDER BY at, id";
    let mut st = store.conn().prepare(sql).db(sql)?;
    let rows = st
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
        .db(sql)?;
    let mut out: std::collections::HashMap<String, Vec<String>> = Default::default();
    for row in rows {
        let (source, commit) = row.db(sql)?;
        out.entry(source).or_default().push(commit);
    }
    Ok(out)
}

/// Files read to their end before: canonical path -> (size, mtime).
pub fn file_sources(store: &Store) -> Result<std::collections::HashMap<String, (i64, i64)>> {
    let sql = "SELECT source, size, mtime FROM sources
               WHERE kind = ?1 AND size IS NOT NULL AND mtime IS NOT NULL";
    let mut st = store.conn().prepare(sql).db(sql)?;
    let rows = st
        .query_map([FILE_KIND], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?))))
        .db(sql)?;
    rows.collect::<std::result::Result<_, _>>().db(sql)
}

/// The current time in Unix seconds.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}
