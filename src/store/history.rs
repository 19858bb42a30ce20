//! Read queries behind `show`, `list` and `export`: regression histories as
//! written by linking (the `summary_json` column holds the public JSON form),
//! found through the v2 indexes (subsystem, status, dates, metrics, messages).
//!
//! A row whose summary does not decode (a damaged or foreign write) is left
//! out of the answer and remembered on the [`Store`]: the command says so
//! ([`take_undecodable`]), and a relink rebuilds it ([`undecodable`]).

use rusqlite::params;

use super::DbContext;
use super::Store;
use crate::error::Result;
use crate::model::history::Regression;

/// A stored regression whose summary does not decode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undecodable {
    /// `regressions.id`.
    pub id: i64,
    /// Why it does not decode.
    pub reason: String,
}

fn decode_one(id: i64, json: &str) -> std::result::Result<Regression, Undecodable> {
    match serde_json::from_str::<Regression>(json) {
        Ok(mut r) => {
            r.id = id;
            Ok(r)
        }
        Err(e) => Err(Undecodable {
            id,
            reason: e.to_string(),
        }),
    }
}

/// Remembers on the store the rows that did not decode (each id once).
fn remember_undecodable(store: &Store, bad: Vec<Undecodable>) {
    if bad.is_empty() {
        return;
    }
    let mut seen = store
        .undecodable
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    for b in bad {
        if !seen.iter().any(|s| s.id == b.id) {
            seen.push(b);
        }
    }
}

/// The regressions left out of the answers since the last call, because
/// their stored summary did not decode, by id.
pub fn take_undecodable(store: &Store) -> Vec<Undecodable> {
    let mut seen = store
        .undecodable
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut v = std::mem::take(&mut *seen);
    v.sort_by_key(|u| u.id);
    v
}

/// Every stored regression whose summary does not decode, by id (each
/// summary is decoded: `regtrack relink` calls it to know whether to
/// rebuild them).
pub fn undecodable(store: &Store) -> Result<Vec<Undecodable>> {
    let sql = "SELECT id, summary_json FROM regressions ORDER BY id";
    let mut stmt = store.conn().prepare_cached(sql).db(sql)?;
    let mut rows = stmt.query([]).db(sql)?;
    let mut bad = Vec::new();
    while let Some(row) = rows.next().db(sql)? {
        let id: i64 = row.get(0).db(sql)?;
        if let Err(e) = decode_row(id, row.get_ref(1).db(sql)?) {
            bad.push(e);
        }
    }
    Ok(bad)
}

/// A summary as stored: text that must decode (a blob or a null, which
/// only a foreign write leaves, does not).
fn decode_row(
    id: i64,
    json: rusqlite::types::ValueRef<'_>,
) -> std::result::Result<Regression, Undecodable> {
    match json.as_str() {
        Ok(text) => decode_one(id, text),
        Err(e) => Err(Undecodable {
            id,
            reason: format!("the summary is not text: {e}"),
        }),
    }
}

/// The regressions `sql` selects (`id, summary_json`), each decoded as
/// its row is read: the summaries' text is never held all at once (on the
/// 3-million-message synthetic database it was as large as the decoded
/// histories).
fn query(store: &Store, sql: &str, p: impl rusqlite::Params) -> Result<Vec<Regression>> {
    let mut stmt = store.conn().prepare_cached(sql).db(sql)?;
    let mut rows = stmt.query(p).db(sql)?;
    let mut good = Vec::new();
    let mut bad = Vec::new();
    while let Some(row) = rows.next().db(sql)? {
        let id: i64 = row.get(0).db(sql)?;
        match decode_row(id, row.get_ref(1).db(sql)?) {
            Ok(r) => good.push(r),
            Err(e) => bad.push(e),
        }
    }
    remember_undecodable(store, bad);
    Ok(good)
}

/// Every regression, newest first report first.
pub fn all(store: &Store) -> Result<Vec<Regression>> {
    query(
        store,
        "SELECT id, summary_json FROM regressions ORDER BY first_date DESC, id DESC",
        [],
    )
}

/// Regressions whose indexed columns pass these bounds (any may be `None`),
/// newest first: `status`, first report in `[since, until)`, `direction`, and
/// |headline change| at least `min_change`.
pub fn filtered(
    store: &Store,
    status: Option<&str>,
    since: Option<i64>,
    until: Option<i64>,
    direction: Option<&str>,
    min_change: Option<f64>,
    list: Option<&str>,
) -> Result<Vec<Regression>> {
    // The list's name is a part of a List-ID, matched literally: `%`, `_`
    // and the escape itself are escaped for LIKE.
    let list = list.map(|l| {
        let literal = l
            .trim_matches(['<', '>'])
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        format!("%{literal}%")
    });
    query(
        store,
        "SELECT id, summary_json FROM regressions r \
         WHERE (?1 IS NULL OR status = ?1) \
           AND (?2 IS NULL OR first_date >= ?2) \
           AND (?3 IS NULL OR first_date < ?3) \
           AND (?4 IS NULL OR direction = ?4) \
           AND (?5 IS NULL OR abs(headline_change) >= ?5) \
           AND (?6 IS NULL OR EXISTS (SELECT 1 FROM regression_messages rm \
                 JOIN message_lists ml ON ml.message = rm.message \
                 WHERE rm.regression = r.id AND ml.list_id LIKE ?6 ESCAPE '\\')) \
         ORDER BY first_date DESC, id DESC",
        params![status, since, until, direction, min_change, list],
    )
}

/// The regression with this id.
pub fn by_id(store: &Store, id: i64) -> Result<Vec<Regression>> {
    query(
        store,
        "SELECT id, summary_json FROM regressions WHERE id = ?1",
        params![id],
    )
}

/// Regressions whose subsystem is `subsystem` (case-insensitive).
pub fn by_subsystem(store: &Store, subsystem: &str) -> Result<Vec<Regression>> {
    query(
        store,
        "SELECT id, summary_json FROM regressions WHERE subsystem = ?1 COLLATE NOCASE \
         ORDER BY first_date DESC, id DESC",
        params![subsystem],
    )
}

/// Every distinct subsystem.
pub fn subsystems(store: &Store) -> Result<Vec<String>> {
    let sql = "SELECT DISTINCT subsystem FROM regressions WHERE subsystem IS NOT NULL";
    let mut stmt = store.conn().prepare_cached(sql).db(sql)?;
    let v = stmt
        .query_map([], |r| r.get(0))
        .db(sql)?
        .collect::<std::result::Result<Vec<String>, _>>()
        .db(sql)?;
    Ok(v)
}

/// Regressions that a message belongs to (Message-ID, with or without brackets).
pub fn by_message(store: &Store, message_id: &str) -> Result<Vec<Regression>> {
    let mid = message_id
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>');
    query(
        store,
        "SELECT r.id, r.summary_json FROM regressions r \
         JOIN regression_messages rm ON rm.regression = r.id \
         JOIN messages m ON m.id = rm.message WHERE m.message_id = ?1 \
         ORDER BY r.first_date DESC, r.id DESC",
        params![mid],
    )
}

/// Regressions with a report metric starting with `prefix`.
pub fn by_metric_prefix(store: &Store, prefix: &str) -> Result<Vec<Regression>> {
    // A range scan on the metric index: [prefix, prefix + U+10FFFF).
    let upper = format!("{prefix}\u{10FFFF}");
    query(
        store,
        "SELECT id, summary_json FROM regressions WHERE id IN \
         (SELECT regression FROM regression_metrics WHERE metric >= ?1 AND metric < ?2) \
         ORDER BY first_date DESC, id DESC",
        params![prefix, upper],
    )
}

/// Regressions whose culprit id starts with `prefix` (lower-case hex).
pub fn by_culprit_prefix(store: &Store, prefix: &str) -> Result<Vec<Regression>> {
    let upper = format!("{prefix}\u{10FFFF}");
    query(
        store,
        "SELECT id, summary_json FROM regressions WHERE culprit >= ?1 AND culprit < ?2 \
         ORDER BY first_date DESC, id DESC",
        params![prefix, upper],
    )
}
