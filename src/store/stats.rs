//! Read queries behind `regtrack stats`.

use rusqlite::Connection;
use serde::Serialize;

use super::DbContext;
use crate::error::Result;

/// Counts over the whole database (the JSON of `regtrack stats --json`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stats {
    /// Stored messages.
    pub messages: i64,
    /// Messages whose Message-ID was derived from the content.
    pub derived_ids: i64,
    /// Threads (distinct roots after linking; messages without a parent before).
    pub threads: i64,
    /// Recorded parse failures.
    pub failed: i64,
    /// Later copies of known Message-IDs with different content.
    pub duplicates: i64,
    /// Earliest message date (Unix seconds).
    pub first_date: Option<i64>,
    /// Latest message date (Unix seconds).
    pub last_date: Option<i64>,
    /// Messages per List-ID, most first.
    pub lists: Vec<Count>,
    /// Messages per kind, most first.
    pub kinds: Vec<Count>,
    /// Regression histories (after linking).
    pub regressions: i64,
    /// Regression histories per status, most first.
    pub statuses: Vec<StatusCount>,
    /// The inputs read: public-inbox epochs with their last commit, and
    /// files read to their end.
    pub sources: Vec<SourceProgress>,
}

/// A status with how many regression histories have it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatusCount {
    /// The status.
    pub name: String,
    /// How many histories.
    pub regressions: i64,
}

/// A name with a count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Count {
    /// The List-ID or kind.
    pub name: String,
    /// How many messages.
    pub messages: i64,
}

/// Progress of one input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SourceProgress {
    /// Git directory of the epoch, or the file's path.
    pub source: String,
    /// `file` (read to its end; skipped while unchanged) or `public-inbox`
    /// (an epoch).
    pub kind: String,
    /// Last commit ingested (epochs).
    pub last_commit: Option<String>,
}

fn count(conn: &Connection, sql: &str) -> Result<i64> {
    conn.query_row(sql, [], |r| r.get(0)).db(sql)
}

fn counts(conn: &Connection, sql: &str) -> Result<Vec<Count>> {
    let mut st = conn.prepare(sql).db(sql)?;
    let rows = st
        .query_map([], |r| {
            Ok(Count {
                name: r.get(0)?,
                messages: r.get(1)?,
            })
        })
        .db(sql)?;
    rows.collect::<std::result::Result<Vec<_>, _>>().db(sql)
}

/// Regression histories per status, most first.
pub fn regression_statuses(store: &super::Store) -> Result<Vec<StatusCount>> {
    let sql =
        "SELECT status, count(*) AS n FROM regressions GROUP BY status ORDER BY n DESC, status";
    let mut st = store.conn().prepare(sql).db(sql)?;
    st.query_map([], |r| {
        Ok(StatusCount {
            name: r.get(0)?,
            regressions: r.get(1)?,
        })
    })
    .db(sql)?
    .collect::<std::result::Result<Vec<_>, _>>()
    .db(sql)
}

/// Computes [`Stats`].
pub fn stats(store: &super::Store) -> Result<Stats> {
    let conn = store.conn();
    let messages = count(conn, "SELECT count(*) FROM messages")?;
    let linked = count(conn, "SELECT count(*) FROM threads")?;
    let threads = if linked > 0 {
        count(conn, "SELECT count(DISTINCT root_id) FROM threads")?
    } else {
        count(
            conn,
            "SELECT count(*) FROM messages m WHERE m.in_reply_to IS NULL
                OR NOT EXISTS (SELECT 1 FROM messages p WHERE p.message_id = m.in_reply_to)",
        )?
    };
    let (first_date, last_date) = conn
        .query_row("SELECT min(date), max(date) FROM messages", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .db("date range")?;
    let mut st = conn
        .prepare("SELECT source, kind, last_commit FROM sources ORDER BY kind, source")
        .db("sources")?;
    let sources = st
        .query_map([], |r| {
            Ok(SourceProgress {
                source: r.get(0)?,
                kind: r.get(1)?,
                last_commit: r.get(2)?,
            })
        })
        .db("sources")?
        .collect::<std::result::Result<Vec<_>, _>>()
        .db("sources")?;
    Ok(Stats {
        messages,
        derived_ids: count(
            conn,
            "SELECT count(*) FROM messages WHERE message_id_derived",
        )?,
        threads,
        failed: count(conn, "SELECT count(*) FROM failures")?,
        duplicates: count(conn, "SELECT count(*) FROM message_copies WHERE chosen = 0")?,
        first_date,
        last_date,
        lists: counts(
            conn,
            "SELECT list_id, count(*) AS n FROM message_lists GROUP BY list_id ORDER BY n DESC, list_id",
        )?,
        kinds: counts(
            conn,
            "SELECT kind, count(*) AS n FROM messages GROUP BY kind ORDER BY n DESC, kind",
        )?,
        regressions: count(conn, "SELECT count(*) FROM regressions")?,
        statuses: regression_statuses(store)?,
        sources,
    })
}

/// One input regtrack could not read (the JSON of `regtrack failures
/// --json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Failure {
    /// The file or public-inbox git folder.
    pub source: String,
    /// The byte offset of the message in a file.
    pub offset: Option<i64>,
    /// The commit of the message in a public-inbox epoch.
    pub git_commit: Option<String>,
    /// The Message-ID, when one could be read.
    pub message_id: Option<String>,
    /// Why it could not be read.
    pub reason: String,
    /// When it was recorded (Unix seconds).
    pub at: Option<i64>,
}

/// Every recorded failure, by source and offset.
pub fn failures(store: &super::Store) -> Result<Vec<Failure>> {
    let sql = "SELECT source, offset, git_commit, message_id, reason, at FROM failures \
               ORDER BY source, offset, git_commit, id";
    let mut st = store.conn().prepare(sql).db(sql)?;
    let rows = st
        .query_map([], |r| {
            Ok(Failure {
                source: r.get(0)?,
                offset: r.get(1)?,
                git_commit: r.get(2)?,
                message_id: r.get(3)?,
                reason: r.get(4)?,
                at: r.get(5)?,
            })
        })
        .db(sql)?
        .collect::<std::result::Result<Vec<_>, _>>()
        .db(sql)?;
    Ok(rows)
}
