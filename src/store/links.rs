//! The rows linking reads and the tables it writes: threads, regressions,
//! their messages, timelines and metrics, and the link state.
//!
//! Reading is in the shapes `crate::link` takes: every message's threading
//! headers ([`for_each_header`], [`for_each_subject`]), the few facts that
//! choose the messages a regression can involve ([`for_each_own_trailer`],
//! [`for_each_cited_link`], [`for_each_subject_report`]), and the chosen
//! messages themselves ([`load_messages`], [`for_each_report_extraction`],
//! [`load_parts`]). Writing ([`begin_relink`], [`begin_partial_relink`],
//! [`begin_output`], then [`RelinkWrite::finish`]) replaces the link tables
//! in one write transaction (thread rows compared a chunk at a time,
//! regression summaries one at a time), so memory stays bounded and readers
//! (WAL) keep answering from the previous snapshot meanwhile. The ids the
//! regressions are written under are [`crate::link::ids`]'s choice, from
//! the rows [`RelinkWrite::stored_ids`] reads.

use std::collections::{HashMap, HashSet};

use rusqlite::{OptionalExtension, params};

use super::DbContext;
use super::Store;
use crate::error::Result;
use crate::link::ids::StoredIds;
use crate::link::keys::MIN_TITLE_KEY;
use crate::link::thread::{HeaderRow, Skeleton};
use crate::link::{LinkInput, LinkMessage, LinkOutput};
use crate::model::history::{Mark, Regression, Status};
use crate::model::{
    CommitRef, DiffFile, Event, EventKind, Extraction, Kind, Landing, LandingKind, PatchFacts,
    Signal, SignalKind, SubjectReport, Trailer,
};

/// Parses a stored kind name (`perf-report`, ...); unknown names are `Other`.
pub fn parse_kind(s: &str) -> Kind {
    serde_json::from_value(serde_json::Value::String(s.to_string())).unwrap_or_default()
}

/// Decodes a stored extraction (`extractions.json`); fields added since it
/// was written take their defaults.
pub fn decode_extraction(json: &str) -> std::result::Result<Extraction, serde_json::Error> {
    serde_json::from_str(json)
}

/// Calls `f(id, headers, references, kind)` for every message in store
/// order (`messages.id` ascending); `references` is the stored
/// space-separated list, oldest first.
pub fn for_each_header(
    store: &Store,
    keep: Option<&[i64]>,
    mut f: impl FnMut(i64, HeaderRow<'_>, &str, Kind),
) -> Result<()> {
    let sql = "SELECT id, message_id, date, in_reply_to, kind, refs FROM messages";
    rows_of(store, sql, "id", keep, |r| {
        let (id, row, refs, kind) = header_of(r, sql)?;
        f(id, row, refs, kind);
        Ok(())
    })
}

/// [`for_each_header`] of the messages `keep` (ascending) with each one's
/// subject too (`f(id, headers, references, kind, subject)`): one look-up
/// per message where [`for_each_header`] and [`for_each_subject`] take two.
pub fn for_each_header_and_subject(
    store: &Store,
    keep: &[i64],
    mut f: impl FnMut(i64, HeaderRow<'_>, &str, Kind, &str),
) -> Result<()> {
    let sql = "SELECT id, message_id, date, in_reply_to, kind, refs, subject FROM messages";
    rows_of(store, sql, "id", Some(keep), |r| {
        let (id, row, refs, kind) = header_of(r, sql)?;
        f(id, row, refs, kind, text(r, 6, sql)?.unwrap_or_default());
        Ok(())
    })
}

/// The first six columns of a [`for_each_header`] row: id, headers,
/// references, kind.
fn header_of<'r>(
    r: &'r rusqlite::Row<'_>,
    sql: &str,
) -> Result<(i64, HeaderRow<'r>, &'r str, Kind)> {
    let id: i64 = r.get(0).db(sql)?;
    let row = HeaderRow {
        message_id: text(r, 1, sql)?.unwrap_or_default(),
        date: r.get(2).db(sql)?,
        in_reply_to: text(r, 3, sql)?,
    };
    let kind = parse_kind(text(r, 4, sql)?.unwrap_or_default());
    Ok((id, row, text(r, 5, sql)?.unwrap_or_default(), kind))
}

/// Calls `each` for every row of `sql` (a `SELECT ... FROM t` without a
/// `WHERE`) in `column` order, of the rows whose `column` is in `keep`
/// (ascending) when given, else of all.
fn rows_of(
    store: &Store,
    sql: &str,
    column: &str,
    keep: Option<&[i64]>,
    each: impl FnMut(&rusqlite::Row<'_>) -> Result<()>,
) -> Result<()> {
    rows_where(store, sql, None, column, keep, each)
}

/// [`rows_of`] of the rows that also meet `filter` (an SQL condition).
fn rows_where(
    store: &Store,
    sql: &str,
    filter: Option<&str>,
    column: &str,
    keep: Option<&[i64]>,
    mut each: impl FnMut(&rusqlite::Row<'_>) -> Result<()>,
) -> Result<()> {
    let (and_filter, where_filter) = match filter {
        Some(f) => (format!(" AND ({f})"), format!(" WHERE {f}")),
        None => (String::new(), String::new()),
    };
    match keep {
        None => {
            let q = format!("{sql}{where_filter} ORDER BY {column}");
            let mut stmt = store.conn().prepare(&q).db(&q)?;
            let mut rows = stmt.query([]).db(&q)?;
            while let Some(r) = rows.next().db(&q)? {
                each(r)?;
            }
            Ok(())
        }
        Some(ids) => in_chunks(
            store,
            &format!("{sql} WHERE {column} IN ({{}}){and_filter} ORDER BY {column}"),
            ids,
            each,
        ),
    }
}

/// Calls `f(id, subject)` for every message in store order.
pub fn for_each_subject(
    store: &Store,
    keep: Option<&[i64]>,
    mut f: impl FnMut(i64, &str),
) -> Result<()> {
    let sql = "SELECT id, subject FROM messages";
    rows_of(store, sql, "id", keep, |r| {
        f(r.get(0).db(sql)?, text(r, 1, sql)?.unwrap_or_default());
        Ok(())
    })
}

/// Calls `f(id)` for every message whose subject parses as a report subject.
pub fn for_each_subject_report(
    store: &Store,
    keep: Option<&[i64]>,
    mut f: impl FnMut(i64),
) -> Result<()> {
    let sql = "SELECT message, origin FROM reports";
    rows_of(store, sql, "message", keep, |r| {
        if text(r, 1, sql)? == Some("subject") {
            f(r.get(0).db(sql)?);
        }
        Ok(())
    })
}

/// Calls `f(id, trailer)` for every own trailer (unquoted, not suggested)
/// whose key is one of `keys` in any case (title left out). The other rows
/// are passed over by SQLite without being read into trailers: on four
/// whole lists the own `Closes:`, `Link:`, `Reported-by:` and `Fixes:` are
/// an eighth of the 352,000 rows.
pub fn for_each_own_trailer(
    store: &Store,
    keep: Option<&[i64]>,
    keys: &[&str],
    mut f: impl FnMut(i64, &Trailer),
) -> Result<()> {
    let sql = "SELECT message, key, value, suggested, commit_id, quote_depth FROM trailers";
    // The keys are the caller's constants; quoted all the same.
    let listed: Vec<String> = keys
        .iter()
        .map(|k| format!("'{}'", k.replace('\'', "''")))
        .collect();
    let filter = format!(
        "quote_depth = 0 AND suggested = 0 AND key COLLATE NOCASE IN ({})",
        listed.join(",")
    );
    rows_where(store, sql, Some(&filter), "message", keep, |r| {
        let t = Trailer {
            key: r.get(1).db(sql)?,
            value: r.get(2).db(sql)?,
            suggested: r.get::<_, i64>(3).db(sql)? != 0,
            commit: r.get(4).db(sql)?,
            title: None,
            quote_depth: r.get::<_, i64>(5).db(sql)?.max(0) as u32,
        };
        f(r.get(0).db(sql)?, &t);
        Ok(())
    })
}

/// Calls `f(id, link)` for every lore link cited in a message's own text.
pub fn for_each_cited_link(
    store: &Store,
    keep: Option<&[i64]>,
    mut f: impl FnMut(i64, &str),
) -> Result<()> {
    let sql = "SELECT message, target_id FROM lore_links";
    rows_of(store, sql, "message", keep, |r| {
        f(r.get(0).db(sql)?, text(r, 1, sql)?.unwrap_or_default());
        Ok(())
    })
}

/// What identifies the patches of some messages: their title keys and
/// patch ids (those a message has), and the title keys of the culprits
/// their robot reports name (the culprit's own posting and the landings
/// naming it are found by them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PatchKeys {
    /// Title keys.
    pub titles: Vec<String>,
    /// Patch ids.
    pub patch_ids: Vec<String>,
    /// The first seven hex digits (lower case) of the culprits the reports
    /// name: the patches whose own `Fixes:` names one are weighed as fixes.
    pub culprits: Vec<String>,
}

/// The seven-digit lower-case prefix of a commit id, if it is one.
fn commit_prefix(id: &str) -> Option<String> {
    let id = id.trim();
    (id.len() >= 7 && id.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| id[..7].to_ascii_lowercase())
}

/// The own `Fixes:` trailers (not suggested, not quoted) as a row filter.
const OWN_FIXES: &str = "key = 'Fixes' COLLATE NOCASE AND suggested = 0 AND quote_depth = 0 \
                         AND commit_id IS NOT NULL";

/// Messages read per `IN (...)` list.
const IN_CHUNK: usize = 500;

/// The key of the culprit title a robot report gives (as
/// [`crate::link::keys`] makes it), without its `t:`.
fn culprit_title_key(title: &str) -> Option<String> {
    crate::link::keys::title(title).map(|k| k["t:".len()..].to_string())
}

/// The title keys and patch ids of the patches among the messages `ids`,
/// and the title keys of the culprits their reports name.
pub fn patch_keys_of(store: &Store, ids: &[i64]) -> Result<PatchKeys> {
    let mut titles: HashSet<String> = HashSet::new();
    let mut patch_ids: HashSet<String> = HashSet::new();
    let mut culprits: HashSet<String> = HashSet::new();
    in_chunks(
        store,
        "SELECT commit_title, commit_short, commit_full FROM reports WHERE message IN ({})",
        ids,
        |r| {
            let t: Option<String> = r.get(0).db("culprit titles")?;
            titles.extend(t.as_deref().and_then(culprit_title_key));
            for col in [1, 2] {
                let c: Option<String> = r.get(col).db("culprit ids")?;
                culprits.extend(c.as_deref().and_then(commit_prefix));
            }
            Ok(())
        },
    )?;
    in_chunks(
        store,
        "SELECT title_key, patch_id FROM patches WHERE message IN ({})",
        ids,
        |r| {
            let t: String = r.get(0).db("patch keys")?;
            if t.len() >= MIN_TITLE_KEY {
                titles.insert(t);
            }
            if let Some(p) = r.get::<_, Option<String>>(1).db("patch keys")? {
                patch_ids.insert(p);
            }
            Ok(())
        },
    )?;
    let mut out = PatchKeys {
        titles: titles.into_iter().collect(),
        patch_ids: patch_ids.into_iter().collect(),
        culprits: culprits.into_iter().collect(),
    };
    out.titles.sort();
    out.patch_ids.sort();
    out.culprits.sort();
    Ok(out)
}

/// Messages carrying a patch with one of these title keys or patch ids, or
/// a landing naming one of the titles (ascending `messages.id`).
pub fn messages_with_patch_keys(store: &Store, keys: &PatchKeys) -> Result<Vec<i64>> {
    let mut out: Vec<i64> = Vec::new();
    if lookups_pay(store, keys.titles.len() * 2 + keys.patch_ids.len())? {
        let conn = store.conn();
        let mut each = |sql: &str, key: &str| -> Result<()> {
            let mut stmt = conn.prepare_cached(sql).db(sql)?;
            let mut rows = stmt.query([key]).db(sql)?;
            while let Some(r) = rows.next().db(sql)? {
                out.push(r.get(0).db(sql)?);
            }
            Ok(())
        };
        for t in &keys.titles {
            each("SELECT message FROM patches WHERE title_key = ?1", t)?;
            each("SELECT message FROM landings WHERE title = ?1", t)?;
        }
        for p in &keys.patch_ids {
            each("SELECT message FROM patches WHERE patch_id = ?1", p)?;
        }
    } else {
        let titles: HashSet<&str> = keys.titles.iter().map(String::as_str).collect();
        let patch_ids: HashSet<&str> = keys.patch_ids.iter().map(String::as_str).collect();
        scan_patch_keys(store, true, |m, title, patch_id, landing| {
            if title.is_some_and(|t| titles.contains(t))
                || (!landing && patch_id.is_some_and(|p| patch_ids.contains(p)))
            {
                out.push(m);
            }
        })?;
    }
    out.extend(messages_fixing(store, &keys.culprits)?);
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// Messages whose own `Fixes:` names a commit beginning with one of these
/// seven-digit prefixes: looked up by the trailers' commit index when it
/// exists and the prefixes are few, else in one pass over the `Fixes:`
/// trailers.
fn messages_fixing(store: &Store, prefixes: &[String]) -> Result<Vec<i64>> {
    let mut out = Vec::new();
    if prefixes.is_empty() {
        return Ok(out);
    }
    if indexes_exist(store, &["trailers_commit"])? && are_few(store, prefixes.len())? {
        let sql = format!(
            "SELECT message FROM trailers WHERE commit_id >= ?1 AND commit_id < ?2 AND {OWN_FIXES}"
        );
        let mut stmt = store.conn().prepare_cached(&sql).db(&sql)?;
        for p in prefixes {
            let mut rows = stmt.query(params![p, format!("{p}~")]).db(&sql)?;
            while let Some(r) = rows.next().db(&sql)? {
                out.push(r.get(0).db(&sql)?);
            }
        }
    } else {
        let wanted: HashSet<&str> = prefixes.iter().map(String::as_str).collect();
        let sql = format!("SELECT message, commit_id FROM trailers WHERE {OWN_FIXES}");
        let mut stmt = store.conn().prepare(&sql).db(&sql)?;
        let mut rows = stmt.query([]).db(&sql)?;
        while let Some(r) = rows.next().db(&sql)? {
            let c: String = r.get(1).db(&sql)?;
            if commit_prefix(&c).is_some_and(|p| wanted.contains(p.as_str())) {
                out.push(r.get(0).db(&sql)?);
            }
        }
    }
    Ok(out)
}

/// Indexes [`messages_with_patch_keys`] and [`patch_holders`] look keys up
/// by.
const PATCH_KEY_INDEXES: [&str; 3] = ["patches_title_key", "patches_patch_id", "landings_title"];

/// Whether `n` look-ups by patch key cost less than one scan of `patches`
/// and `landings`: only when their indexes exist (a bulk load builds them
/// while the first link runs, whose look-ups would then be a scan each)
/// and the keys are few against the stored messages ([`FEW`]).
fn lookups_pay(store: &Store, n: usize) -> Result<bool> {
    Ok(indexes_exist(store, &PATCH_KEY_INDEXES)? && are_few(store, n)?)
}

/// Whether every one of these indexes exists (a bulk load builds them
/// after its rows).
fn indexes_exist(store: &Store, names: &[&str]) -> Result<bool> {
    let sql = "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?1";
    let mut stmt = store.conn().prepare_cached(sql).db(sql)?;
    for name in names {
        let n: i64 = stmt.query_row([name], |r| r.get(0)).db(sql)?;
        if n == 0 {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Calls `each(message, title key, patch id, false)` for every stored patch
/// and, with `landings`, `each(message, title, None, true)` for every
/// landing naming a title.
fn scan_patch_keys(
    store: &Store,
    landings: bool,
    mut each: impl FnMut(i64, Option<&str>, Option<&str>, bool),
) -> Result<()> {
    let sql = "SELECT message, title_key, patch_id FROM patches";
    let mut stmt = store.conn().prepare(sql).db(sql)?;
    let mut rows = stmt.query([]).db(sql)?;
    while let Some(r) = rows.next().db(sql)? {
        each(r.get(0).db(sql)?, text(r, 1, sql)?, text(r, 2, sql)?, false);
    }
    if !landings {
        return Ok(());
    }
    let sql = "SELECT message, title FROM landings WHERE title IS NOT NULL";
    let mut stmt = store.conn().prepare(sql).db(sql)?;
    let mut rows = stmt.query([]).db(sql)?;
    while let Some(r) = rows.next().db(sql)? {
        each(r.get(0).db(sql)?, text(r, 1, sql)?, None, true);
    }
    Ok(())
}

/// The headers of the messages whose `messages.id` is in `keep`
/// (ascending; every message without it), in store order, with empty
/// extractions ([`load_parts`] and [`for_each_report_extraction`] fill them).
pub fn load_messages(store: &Store, keep: Option<&[i64]>) -> Result<Vec<LinkMessage>> {
    let kept = |id: i64| keep.is_none_or(|k| k.binary_search(&id).is_ok());
    let sql = "SELECT id, message_id, subject, from_name, from_email, date, in_reply_to, kind, \
               refs FROM messages";
    let few = match keep {
        Some(k) => are_few(store, k.len())?.then_some(k),
        None => None,
    };
    let mut messages: Vec<LinkMessage> = Vec::with_capacity(keep.map_or(0, |k| k.len()));
    rows_of(store, sql, "id", few, |r| {
        let db_id: i64 = r.get(0).db(sql)?;
        if !kept(db_id) {
            return Ok(());
        }
        messages.push(LinkMessage {
            db_id,
            message_id: r.get(1).db(sql)?,
            subject: r.get(2).db(sql)?,
            from_name: r.get(3).db(sql)?,
            from_email: r.get(4).db(sql)?,
            date: r.get(5).db(sql)?,
            in_reply_to: r.get(6).db(sql)?,
            references: split_refs(text(r, 8, sql)?.unwrap_or_default())
                .map(str::to_string)
                .collect(),
            kind: parse_kind(&r.get::<_, String>(7).db(sql)?),
            extraction: Extraction::default(),
            report_facts: None,
        });
        Ok(())
    })?;
    Ok(messages)
}

/// Calls `f(index, json)` for the stored whole extraction of every robot
/// report among the messages (`pos` maps `messages.id` to an index).
pub fn for_each_report_extraction(
    store: &Store,
    pos: &HashMap<i64, usize>,
    mut f: impl FnMut(usize, String),
) -> Result<()> {
    let sql = "SELECT e.message, e.json FROM messages m JOIN extractions e ON e.message = m.id \
               WHERE m.kind IN ('perf-report', 'functional-report')";
    let few = few_of(store, pos, |_| true)?;
    for_kept_rows(
        store.conn(),
        sql,
        few.as_deref(),
        |id| pos.get(&id).copied(),
        |i, r| {
            f(i, r.get(1).db(sql)?);
            Ok(())
        },
    )
}

/// The Message-IDs of a `messages.refs` value, oldest first.
fn split_refs(refs: &str) -> impl Iterator<Item = &str> {
    refs.split_ascii_whitespace()
}

/// Column `i` as text borrowed from the row (`None` for NULL); other types
/// fail as `get::<String>` would.
fn text<'r>(r: &'r rusqlite::Row<'_>, i: usize, sql: &str) -> Result<Option<&'r str>> {
    match r.get_ref(i).db(sql)? {
        rusqlite::types::ValueRef::Null => Ok(None),
        rusqlite::types::ValueRef::Text(t) => match std::str::from_utf8(t) {
            Ok(s) => Ok(Some(s)),
            Err(_) => r.get::<_, String>(i).db(sql).map(|_| None),
        },
        _ => r.get::<_, String>(i).db(sql).map(|_| None),
    }
}

fn enum_of<T: serde::de::DeserializeOwned>(s: &str) -> Option<T> {
    serde_json::from_value(serde_json::Value::String(s.to_string())).ok()
}

/// Fills the extraction of every message with `need[i]` from the per-kind
/// tables (`pos` maps `messages.id` to an index).
pub fn load_parts(
    store: &Store,
    pos: &HashMap<i64, usize>,
    need: &[bool],
    messages: &mut [LinkMessage],
) -> Result<()> {
    let conn = store.conn();
    let idx = |id: i64| pos.get(&id).copied().filter(|&i| need[i]);
    let few = few_of(store, pos, |i| need[i])?;

    let sql = "SELECT message, branch, subsystem, commit_short, metric, change_percent, \
               direction, failure FROM reports WHERE origin = 'subject'";
    for_kept_rows(conn, sql, few.as_deref(), idx, |i, r| {
        let dir: Option<String> = r.get(6).db(sql)?;
        messages[i].extraction.subject_report = Some(Box::new(SubjectReport {
            branch: r.get(1).db(sql)?,
            subsystem: r.get(2).db(sql)?,
            commit: r.get::<_, Option<String>>(3).db(sql)?.unwrap_or_default(),
            metric: r.get(4).db(sql)?,
            change_percent: r.get(5).db(sql)?,
            direction: dir.as_deref().and_then(enum_of),
            failure: r.get(7).db(sql)?,
            ..SubjectReport::default()
        }));
        Ok(())
    })?;

    let sql = "SELECT message, key, value, suggested, commit_id, title, quote_depth \
               FROM trailers ORDER BY message, idx";
    for_kept_rows(conn, sql, few.as_deref(), idx, |i, r| {
        messages[i].extraction.trailers.push(Trailer {
            key: r.get(1).db(sql)?,
            value: r.get(2).db(sql)?,
            suggested: r.get::<_, i64>(3).db(sql)? != 0,
            commit: r.get(4).db(sql)?,
            title: r.get(5).db(sql)?,
            quote_depth: r.get::<_, i64>(6).db(sql)?.max(0) as u32,
        });
        Ok(())
    })?;

    let sql = "SELECT message, kind, sentence, quote_depth, commit_id, tentative, mentions \
               FROM signals ORDER BY message, idx";
    for_kept_rows(conn, sql, few.as_deref(), idx, |i, r| {
        let kind: String = r.get(1).db(sql)?;
        let Some(kind) = enum_of::<SignalKind>(&kind) else {
            return Ok(());
        };
        messages[i].extraction.signals.push(Signal {
            kind,
            sentence: r.get(2).db(sql)?,
            quote_depth: r.get::<_, i64>(3).db(sql)?.max(0) as u32,
            commit: r.get(4).db(sql)?,
            tentative: r.get::<_, i64>(5).db(sql)? != 0,
            mentions: r.get(6).db(sql)?,
        });
        Ok(())
    })?;

    let sql =
        "SELECT message, kind, tree, sha, text, quote_depth FROM events ORDER BY message, idx";
    for_kept_rows(conn, sql, few.as_deref(), idx, |i, r| {
        let kind: String = r.get(1).db(sql)?;
        let Some(kind) = enum_of::<EventKind>(&kind) else {
            return Ok(());
        };
        messages[i].extraction.events.push(Event {
            kind,
            tree: r.get(2).db(sql)?,
            sha: r.get(3).db(sql)?,
            text: r.get(4).db(sql)?,
            quote_depth: r.get::<_, i64>(5).db(sql)?.max(0) as u32,
        });
        Ok(())
    })?;

    let sql = "SELECT message, target_id FROM lore_links";
    for_kept_rows(conn, sql, few.as_deref(), idx, |i, r| {
        messages[i].extraction.lore_links.push(r.get(1).db(sql)?);
        Ok(())
    })?;

    let sql = "SELECT message, commit_id, title, quote_depth FROM commit_refs";
    for_kept_rows(conn, sql, few.as_deref(), idx, |i, r| {
        messages[i].extraction.commits.push(CommitRef {
            id: r.get(1).db(sql)?,
            title: r.get(2).db(sql)?,
            quote_depth: r.get::<_, i64>(3).db(sql)?.max(0) as u32,
        });
        Ok(())
    })?;

    let sql = "SELECT message, title, title_key, version, part, parts, resend, rfc, patch_id, \
               change_id, base_commit, reverts, reverts_title, upstream, touches, speaks_of \
               FROM patches";
    for_kept_rows(conn, sql, few.as_deref(), idx, |i, r| {
        messages[i].extraction.patch = Some(Box::new(PatchFacts {
            title: r.get(1).db(sql)?,
            title_key: r.get(2).db(sql)?,
            version: r.get(3).db(sql)?,
            part: r.get(4).db(sql)?,
            parts: r.get(5).db(sql)?,
            resend: r.get::<_, i64>(6).db(sql)? != 0,
            rfc: r.get::<_, i64>(7).db(sql)? != 0,
            patch_id: r.get(8).db(sql)?,
            change_id: r.get(9).db(sql)?,
            base_commit: r.get(10).db(sql)?,
            reverts: r.get(11).db(sql)?,
            reverts_title: r.get(12).db(sql)?,
            upstream: r.get(13).db(sql)?,
            touches: split_lines(r.get(14).db(sql)?),
            speaks_of: split_lines(r.get(15).db(sql)?),
        }));
        Ok(())
    })?;

    let sql = "SELECT message, kind, title, commit_id, tree, branch, quote_depth FROM landings \
               ORDER BY message, idx";
    for_kept_rows(conn, sql, few.as_deref(), idx, |i, r| {
        let kind: String = r.get(1).db(sql)?;
        let Some(kind) = enum_of::<LandingKind>(&kind) else {
            return Ok(());
        };
        messages[i].extraction.landings.push(Landing {
            kind,
            title: r.get(2).db(sql)?,
            commit: r.get(3).db(sql)?,
            tree: r.get(4).db(sql)?,
            branch: r.get(5).db(sql)?,
            quote_depth: r.get::<_, i64>(6).db(sql)?.max(0) as u32,
        });
        Ok(())
    })?;

    // Only whether a message carries its own diff matters to linking.
    let sql = "SELECT message, min(quote_depth) FROM diffs GROUP BY message";
    for_kept_rows(conn, sql, few.as_deref(), idx, |i, r| {
        messages[i].extraction.diffs.push(DiffFile {
            quote_depth: r.get::<_, i64>(1).db(sql)?.max(0) as u32,
            ..DiffFile::default()
        });
        Ok(())
    })?;
    Ok(())
}

/// A newline-separated text column as a list (empty for NULL).
fn split_lines(v: Option<String>) -> Vec<String> {
    v.map(|s| s.lines().map(str::to_string).collect())
        .unwrap_or_default()
}

/// Share of the stored messages under which the rows of a few are looked up
/// by `message` (a key prefix of every per-message table) instead of read
/// in one scan: an update's handful, not a full link's thousands.
const FEW: i64 = 16;

/// Whether `n` messages (or keys to look up) are few against the stored
/// messages ([`FEW`]).
fn are_few(store: &Store, n: usize) -> Result<bool> {
    Ok((n as i64).saturating_mul(FEW) <= largest_message_id(store)?)
}

/// The largest `messages.id` (0 when none): about the number of stored
/// messages, read from the end of the table's B-tree without a scan.
pub fn largest_message_id(store: &Store) -> Result<i64> {
    let sql = "SELECT coalesce(max(id), 0) FROM messages";
    store.conn().query_row(sql, [], |r| r.get(0)).db(sql)
}

/// The `messages.id`s of `pos` (ascending) that `want` keeps, when they are
/// few against the stored messages (see [`FEW`]); `None` to scan.
fn few_of(
    store: &Store,
    pos: &HashMap<i64, usize>,
    want: impl Fn(usize) -> bool,
) -> Result<Option<Vec<i64>>> {
    if !are_few(store, pos.len())? {
        return Ok(None);
    }
    let mut ids: Vec<i64> = pos
        .iter()
        .filter(|(_, i)| want(**i))
        .map(|(id, _)| *id)
        .collect();
    ids.sort_unstable();
    Ok(Some(ids))
}

/// `sql` (a `SELECT message, ... FROM t [WHERE ...] [ORDER BY ...|GROUP BY
/// ...]`) restricted to the messages of a `?` list of `n` values.
fn restricted(sql: &str, n: usize) -> String {
    let list = vec!["?"; n].join(",");
    let cut = sql
        .find(" ORDER BY ")
        .or_else(|| sql.find(" GROUP BY "))
        .unwrap_or(sql.len());
    let (head, tail) = sql.split_at(cut);
    let joint = if head.contains(" WHERE ") {
        "AND"
    } else {
        "WHERE"
    };
    format!("{head} {joint} message IN ({list}){tail}")
}

/// Calls `each(i, row)` for every row of `sql` (no parameters) whose first
/// column is a `messages.id` that `index` maps to `i`; rows of other
/// messages are skipped. With `few`, only their rows are asked for (a chunk
/// of them at a time). Errors name the statement.
fn for_kept_rows(
    conn: &rusqlite::Connection,
    sql: &str,
    few: Option<&[i64]>,
    index: impl Fn(i64) -> Option<usize>,
    mut each: impl FnMut(usize, &rusqlite::Row<'_>) -> Result<()>,
) -> Result<()> {
    let mut run = |q: &str, values: &[i64]| -> Result<()> {
        let mut stmt = conn.prepare(q).db(q)?;
        let mut rows = stmt.query(rusqlite::params_from_iter(values)).db(q)?;
        while let Some(r) = rows.next().db(q)? {
            if let Some(i) = index(r.get(0).db(q)?) {
                each(i, r)?;
            }
        }
        Ok(())
    };
    match few {
        None => run(sql, &[]),
        Some(ids) => {
            for chunk in ids.chunks(IN_CHUNK) {
                run(&restricted(sql, chunk.len()), chunk)?;
            }
            Ok(())
        }
    }
}

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
    tx: super::WriteTx<'c>,
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
/// from its stored definition (as [`super::bulk::defer_indexes`] does for a
/// bulk load): rows written in another order than the index's go in much
/// faster that way than row by row into the index (benches/README.md,
/// "Keeping a database current").
fn index_rebuilt_after(
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
fn exists(tx: &rusqlite::Connection, sql: &str) -> Result<bool> {
    tx.query_row(sql, [], |r| r.get(0)).db(sql)
}

/// Maps every id the skeleton threaded but holds no message of (an id only
/// referenced) to its thread's root, in id order. A message's own id needs
/// no row: its `threads` row gives its root (see [`roots_of_ids`]), and
/// the ids of messages would be nearly all the rows.
fn write_thread_ids(tx: &rusqlite::Connection, sk: &Skeleton, fresh: bool) -> Result<()> {
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

/// Thread rows compared with the stored ones at a time.
const THREAD_CHUNK: usize = 4096;

/// Brings the `threads` table to exactly `rows` (message, root, parent,
/// depth): only rows that differ are written, rows of other messages are
/// deleted. Reads the stored rows a chunk at a time (memory stays bounded).
fn write_threads<'a>(
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

/// Replaces the regressions (whose messages are all in `messages`) with
/// the ones `make(k)` gives, the `k`-th stored under id `ids[k]`: the
/// stored regressions `replaced` (all when `None`) are deleted, but for
/// those left unchanged (same id, same summary), which are left alone.
fn write_regressions(
    tx: &rusqlite::Connection,
    messages: &[LinkMessage],
    ids: &[i64],
    replaced: Option<&[i64]>,
    make: impl Fn(usize) -> Regression,
) -> Result<()> {
    let db_id_of: HashMap<&str, i64> = messages
        .iter()
        .map(|m| (m.message_id.as_str(), m.db_id))
        .collect();
    // Only what changed is written: unchanged thread rows and regressions
    // (same summary) are left alone, so a re-link after a small ingest is a
    // small write.
    // Old summaries are compared one at a time (a point query each), so
    // memory holds one summary, not all of them.
    let old: Vec<i64> = match replaced {
        Some(ids) => ids.to_vec(),
        None => {
            let sql = "SELECT id FROM regressions";
            let mut stmt = tx.prepare(sql).db(sql)?;
            stmt.query_map([], |r| r.get(0))
                .db(sql)?
                .collect::<std::result::Result<_, _>>()
                .db(sql)?
        }
    };
    let assigned = ids;
    let json_of = |r: &mut Regression, id: i64| {
        r.id = id;
        serde_json::to_string(&*r).unwrap_or_else(|_| "{}".into())
    };
    let mut changed: Vec<bool> = Vec::with_capacity(ids.len());
    {
        let sql = "SELECT summary_json FROM regressions WHERE id = ?1";
        let mut stmt = tx.prepare(sql).db(sql)?;
        for (k, &id) in assigned.iter().enumerate() {
            // A summary that is not text (a foreign write) is rewritten.
            let before: Option<Option<String>> = stmt
                .query_row(params![id], |r| {
                    Ok(r.get_ref(0)?.as_str().ok().map(str::to_string))
                })
                .optional()
                .db(sql)?;
            changed.push(
                before
                    .flatten()
                    .is_none_or(|b| b != json_of(&mut make(k), id)),
            );
        }
    }
    {
        let unchanged: HashSet<i64> = assigned
            .iter()
            .zip(&changed)
            .filter(|(_, ch)| !**ch)
            .map(|(id, _)| *id)
            .collect();
        let sql = "DELETE FROM regressions WHERE id = ?1";
        let mut del = tx.prepare(sql).db(sql)?;
        for id in &old {
            if !unchanged.contains(id) {
                // Cascades to regression_messages, regression_events, regression_metrics.
                del.execute(params![id]).db(sql)?;
            }
        }
    }

    let sql_reg = "INSERT INTO regressions (id, culprit, title, subsystem, branch, status, \
                   first_date, last_date, headline_metric, headline_change, direction, summary_json) \
                   VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)";
    let sql_msg = "INSERT OR IGNORE INTO regression_messages (regression, message, role, reason) \
                   VALUES (?1, ?2, ?3, ?4)";
    let sql_ev = "INSERT INTO regression_events (regression, date, who, event, status, message_id, reason) \
                  VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
    let sql_met = "INSERT OR IGNORE INTO regression_metrics (regression, metric) VALUES (?1, ?2)";
    let sql_ids = "INSERT OR REPLACE INTO regression_ids (culprit, id) VALUES (?1, ?2)";
    {
        let mut s_ids = tx.prepare(sql_ids).db(sql_ids)?;
        let mut s_reg = tx.prepare(sql_reg).db(sql_reg)?;
        let mut s_msg = tx.prepare(sql_msg).db(sql_msg)?;
        let mut s_ev = tx.prepare(sql_ev).db(sql_ev)?;
        let mut s_met = tx.prepare(sql_met).db(sql_met)?;
        for (k, (&id, ch)) in assigned.iter().zip(&changed).enumerate() {
            if !ch {
                continue;
            }
            let mut reg = make(k);
            let json = json_of(&mut reg, id);
            let reg = &reg;
            let key = reg.culprit.commit.as_str();
            s_reg
                .execute(params![
                    id,
                    key,
                    reg.culprit.title,
                    reg.subsystem,
                    reg.branch,
                    reg.status.as_str(),
                    reg.facts.first_unix,
                    reg.facts.last_unix,
                    reg.headline.as_ref().map(|h| h.metric.clone()),
                    reg.headline.as_ref().and_then(|h| h.change_percent),
                    reg.direction.as_str(),
                    json
                ])
                .db(sql_reg)?;
            s_ids.execute(params![key, id]).db(sql_ids)?;
            for a in &reg.attached {
                if let Some(&mid) = db_id_of.get(a.message_id.as_str())
                    && mid != 0
                {
                    s_msg
                        .execute(params![id, mid, a.role.as_str(), a.reason])
                        .db(sql_msg)?;
                }
            }
            for e in &reg.timeline {
                s_ev.execute(params![
                    id,
                    e.unix,
                    e.from,
                    e.event,
                    e.status.map(|s| s.as_str()),
                    e.message_id,
                    Option::<String>::None
                ])
                .db(sql_ev)?;
            }
            for r in &reg.reports {
                let impacts = r.also_impacts.iter().filter_map(|i| i.metric.as_ref());
                for m in r.metric.iter().chain(impacts) {
                    s_met.execute(params![id, m]).db(sql_met)?;
                }
            }
            if let Some(h) = &reg.headline {
                s_met.execute(params![id, h.metric]).db(sql_met)?;
            }
        }
    }
    Ok(())
}

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

/// Rows of `sql` (one `?` list placeholder written `{}`) for `keys`, asked
/// a chunk at a time; `each` gets every row.
fn in_chunks<K: rusqlite::ToSql>(
    store: &Store,
    sql: &str,
    keys: &[K],
    mut each: impl FnMut(&rusqlite::Row<'_>) -> Result<()>,
) -> Result<()> {
    // Each `{}` takes the chunk's values.
    let lists = sql.matches("{}").count().max(1);
    for chunk in keys.chunks(IN_CHUNK) {
        let list = vec!["?"; chunk.len()].join(",");
        let q = sql.replace("{}", &list);
        let mut stmt = store.conn().prepare(&q).db(&q)?;
        let values = (0..lists).flat_map(|_| chunk.iter());
        let mut rows = stmt.query(rusqlite::params_from_iter(values)).db(&q)?;
        while let Some(r) = rows.next().db(&q)? {
            each(r)?;
        }
    }
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
const MAIL_TABLES: &[(&str, &str)] = &[
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

/// Every stored regression's id and culprit.
pub fn regression_culprits(store: &Store) -> Result<Vec<(i64, String)>> {
    let sql = "SELECT id, culprit FROM regressions";
    let mut stmt = store.conn().prepare(sql).db(sql)?;
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .db(sql)?
        .collect::<std::result::Result<_, _>>()
        .db(sql)
}

/// The messages attached to these regressions.
pub fn members_of(store: &Store, regressions: &[i64]) -> Result<Vec<i64>> {
    let mut out = Vec::new();
    in_chunks(
        store,
        "SELECT message FROM regression_messages WHERE regression IN ({})",
        regressions,
        |r| {
            out.push(r.get(0).db("regression members")?);
            Ok(())
        },
    )?;
    Ok(out)
}

/// The regressions with a patch posted by one of `authors` (address,
/// lower-cased) and its date: `(regression, address, date)`.
pub fn patches_by(store: &Store, authors: &[String]) -> Result<Vec<(i64, String, i64)>> {
    let mut out = Vec::new();
    in_chunks(
        store,
        "SELECT rm.regression, lower(m.from_email), m.date FROM regression_messages rm \
         JOIN messages m ON m.id = rm.message \
         WHERE rm.role = 'patch' AND m.date IS NOT NULL AND lower(m.from_email) IN ({})",
        authors,
        |r| {
            out.push((
                r.get(0).db("patches by")?,
                r.get(1).db("patches by")?,
                r.get(2).db("patches by")?,
            ));
            Ok(())
        },
    )?;
    Ok(out)
}

/// The regressions these messages are attached to.
pub fn regressions_of(store: &Store, messages: &[i64]) -> Result<Vec<i64>> {
    let mut out = Vec::new();
    in_chunks(
        store,
        "SELECT regression FROM regression_messages WHERE message IN ({})",
        messages,
        |r| {
            out.push(r.get(0).db("regressions of messages")?);
            Ok(())
        },
    )?;
    Ok(out)
}

/// The thread roots the threads table gives these messages.
pub fn roots_of_messages(store: &Store, messages: &[i64]) -> Result<Vec<String>> {
    let mut out = Vec::new();
    in_chunks(
        store,
        "SELECT root_id FROM threads WHERE message IN ({})",
        messages,
        |r| {
            out.push(r.get(0).db("thread roots")?);
            Ok(())
        },
    )?;
    Ok(out)
}

/// The thread roots of these ids (Message-IDs of messages or of ids only
/// referenced), as the last link left them: a message's from its `threads`
/// row, an id only referenced from `thread_ids` (a message stored since
/// and not linked yet has no `threads` row, and its id's `thread_ids` row
/// stays until its thread is linked again).
pub fn roots_of_ids(store: &Store, ids: &[&str]) -> Result<Vec<String>> {
    let mut out = Vec::new();
    in_chunks(
        store,
        "SELECT t.root_id FROM messages m JOIN threads t ON t.message = m.id
          WHERE m.message_id IN ({})
         UNION ALL SELECT root FROM thread_ids WHERE id IN ({})",
        ids,
        |r| {
            out.push(r.get(0).db("thread ids")?);
            Ok(())
        },
    )?;
    Ok(out)
}

/// The messages of these threads.
pub fn messages_in_roots(store: &Store, roots: &[String]) -> Result<Vec<i64>> {
    let mut out = Vec::new();
    in_chunks(
        store,
        "SELECT message FROM threads WHERE root_id IN ({})",
        roots,
        |r| {
            out.push(r.get(0).db("thread messages")?);
            Ok(())
        },
    )?;
    Ok(out)
}

/// The Message-ID, In-Reply-To and References of these messages.
pub fn thread_headers_of(
    store: &Store,
    messages: &[i64],
) -> Result<Vec<(String, Option<String>, String)>> {
    let mut out = Vec::new();
    in_chunks(
        store,
        "SELECT message_id, in_reply_to, coalesce(refs, '') FROM messages WHERE id IN ({})",
        messages,
        |r| {
            out.push((
                r.get(0).db("headers")?,
                r.get(1).db("headers")?,
                r.get(2).db("headers")?,
            ));
            Ok(())
        },
    )?;
    Ok(out)
}

/// The link keys of these messages: those `link_keys` holds and those
/// their `patches` rows imply ([`crate::link::keys::implied_by_patch`];
/// a database an older build filled holds those in `link_keys` too, so a
/// key may come twice).
pub fn keys_of(store: &Store, messages: &[i64]) -> Result<Vec<String>> {
    let mut out = Vec::new();
    let sql = format!(
        "SELECT key FROM link_keys WHERE message IN ({{}})
         UNION ALL
         SELECT 'p:' || patch_id FROM patches WHERE message IN ({{}}) AND patch_id IS NOT NULL
         UNION ALL
         SELECT 't:' || title_key FROM patches
         WHERE message IN ({{}}) AND length(CAST(title_key AS BLOB)) >= {MIN_TITLE_KEY}"
    );
    in_chunks(store, &sql, messages, |r| {
        out.push(r.get(0).db("link keys")?);
        Ok(())
    })?;
    Ok(out)
}

/// The patch ids and title keys (of [`MIN_TITLE_KEY`] bytes or more) that the `p:` and
/// `t:` keys among `keys` name: the columns of `patches` that imply them.
fn implied_columns(keys: &[String]) -> (Vec<&str>, Vec<&str>) {
    let ids = keys.iter().filter_map(|k| k.strip_prefix("p:")).collect();
    let titles = keys
        .iter()
        .filter_map(|k| k.strip_prefix("t:"))
        .filter(|t| t.len() >= MIN_TITLE_KEY)
        .collect();
    (ids, titles)
}

/// The messages that have any of these link keys (see [`keys_of`]; a
/// message may come more than once).
pub fn messages_with_keys(store: &Store, keys: &[String]) -> Result<Vec<i64>> {
    let mut out = Vec::new();
    let mut push = |r: &rusqlite::Row<'_>| {
        out.push(r.get(0).db("messages by key")?);
        Ok(())
    };
    in_chunks(
        store,
        "SELECT message FROM link_keys WHERE key IN ({})",
        keys,
        &mut push,
    )?;
    let (ids, titles) = implied_columns(keys);
    in_chunks(
        store,
        "SELECT message FROM patches WHERE patch_id IN ({})",
        &ids,
        &mut push,
    )?;
    in_chunks(
        store,
        "SELECT message FROM patches WHERE title_key IN ({})",
        &titles,
        &mut push,
    )?;
    Ok(out)
}

/// How many messages have each of these link keys (for a key too common
/// to follow): those whose `patches` row implies it, and those holding it
/// in `link_keys` whose row does not (a database an older build filled
/// holds both).
pub fn key_counts(store: &Store, keys: &[String]) -> Result<HashMap<String, i64>> {
    let mut out: HashMap<String, i64> = HashMap::new();
    // Only a `p:` or `t:` key can be implied as well: the others are
    // counted from the index alone.
    let (patch_keys, others): (Vec<&String>, Vec<&String>) = keys
        .iter()
        .partition(|k| k.starts_with("p:") || k.starts_with("t:"));
    let implied_too = format!(
        "SELECT l.key, count(*) FROM link_keys l WHERE l.key IN ({{}})
           AND NOT EXISTS (SELECT 1 FROM patches p WHERE p.message = l.message
                           AND ('p:' || p.patch_id = l.key
                                OR ('t:' || p.title_key = l.key
                                    AND length(CAST(p.title_key AS BLOB)) >= {MIN_TITLE_KEY})))
         GROUP BY l.key"
    );
    for (sql, keys) in [
        (
            "SELECT key, count(*) FROM link_keys WHERE key IN ({}) GROUP BY key",
            &others,
        ),
        (implied_too.as_str(), &patch_keys),
    ] {
        in_chunks(store, sql, keys, |r| {
            *out.entry(r.get(0).db("key counts")?).or_default() +=
                r.get::<_, i64>(1).db("key counts")?;
            Ok(())
        })?;
    }
    let (ids, titles) = implied_columns(keys);
    for (sql, prefix, values) in [
        (
            "SELECT patch_id, count(*) FROM patches WHERE patch_id IN ({}) GROUP BY patch_id",
            "p:",
            &ids,
        ),
        (
            "SELECT title_key, count(*) FROM patches WHERE title_key IN ({}) GROUP BY title_key",
            "t:",
            &titles,
        ),
    ] {
        in_chunks(store, sql, values, |r| {
            let key = format!("{prefix}{}", r.get::<_, String>(0).db("key counts")?);
            *out.entry(key).or_default() += r.get::<_, i64>(1).db("key counts")?;
            Ok(())
        })?;
    }
    Ok(out)
}

/// The `messages.id` of the messages with these Message-IDs.
pub fn rows_of_message_ids(store: &Store, ids: &[&str]) -> Result<Vec<i64>> {
    let mut out = Vec::new();
    in_chunks(
        store,
        "SELECT id FROM messages WHERE message_id IN ({})",
        ids,
        |r| {
            out.push(r.get(0).db("messages by id")?);
            Ok(())
        },
    )?;
    Ok(out)
}

/// Which of these messages are pull requests or for-next announcements
/// (a landing of either kind): hubs that list many patches.
pub fn landing_hubs(store: &Store, messages: &[i64]) -> Result<HashSet<i64>> {
    let mut out = HashSet::new();
    in_chunks(
        store,
        "SELECT DISTINCT message FROM landings WHERE kind IN ('pull-request', 'for-next') \
         AND message IN ({})",
        messages,
        |r| {
            out.insert(r.get(0).db("landing hubs")?);
            Ok(())
        },
    )?;
    Ok(out)
}

/// Which of these messages can start or join a regression by themselves:
/// robot reports, replies whose subject names a culprit, reverts.
pub fn seeds_among(store: &Store, messages: &[i64]) -> Result<Vec<i64>> {
    let mut out = Vec::new();
    in_chunks(
        store,
        "SELECT id FROM messages WHERE id IN ({}) AND kind IN ('perf-report', 'functional-report') \
         UNION SELECT message FROM reports WHERE message IN ({}) AND origin = 'subject' \
         UNION SELECT message FROM patches WHERE message IN ({}) \
             AND (reverts IS NOT NULL OR reverts_title IS NOT NULL)",
        messages,
        |r| {
            out.push(r.get(0).db("seeds")?);
            Ok(())
        },
    )?;
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// Of these messages, the ones the last link chose, each with whether the
/// first step chose it (see the `link_chosen` table).
pub fn chosen_flags(store: &Store, messages: &[i64]) -> Result<HashMap<i64, bool>> {
    let mut out = HashMap::new();
    in_chunks(
        store,
        "SELECT message, first FROM link_chosen WHERE message IN ({})",
        messages,
        |r| {
            out.insert(
                r.get(0).db("chosen messages")?,
                r.get::<_, i64>(1).db("chosen messages")? != 0,
            );
            Ok(())
        },
    )?;
    Ok(out)
}

/// The patch keys of each of these messages: `t:<title key>` of its patch
/// and of its landings, `p:<patch id>` of its patch (the keys by which
/// [`messages_with_patch_keys`] finds it).
pub fn patch_keys_by_message(store: &Store, messages: &[i64]) -> Result<Vec<(i64, String)>> {
    let mut out = Vec::new();
    in_chunks(
        store,
        "SELECT message, 't:' || title_key FROM patches WHERE message IN ({}) \
             AND length(title_key) >= 8 \
         UNION SELECT message, 'p:' || patch_id FROM patches WHERE message IN ({}) \
             AND patch_id IS NOT NULL \
         UNION SELECT message, 't:' || title FROM landings WHERE message IN ({}) \
             AND title IS NOT NULL \
         UNION SELECT message, 'f:' || lower(substr(commit_id, 1, 7)) FROM trailers \
             WHERE message IN ({}) AND key = 'Fixes' COLLATE NOCASE AND suggested = 0 \
             AND quote_depth = 0 AND length(commit_id) >= 7",
        messages,
        |r| {
            out.push((r.get(0).db("patch keys")?, r.get(1).db("patch keys")?));
            Ok(())
        },
    )?;
    Ok(out)
}

/// The robot reports whose culprit begins with the prefix of one of these
/// `f:` keys (a `Fixes:` naming it), each with the key: looked up by the
/// stored link keys (`c:` and the prefix) when their index exists and the
/// keys are few, else one pass over the reports.
fn culprit_holders(store: &Store, keys: &[String], out: &mut Vec<(i64, String)>) -> Result<()> {
    let prefixes: Vec<&str> = keys.iter().filter_map(|k| k.strip_prefix("f:")).collect();
    if prefixes.is_empty() {
        return Ok(());
    }
    if indexes_exist(store, &["link_keys_key"])? && are_few(store, prefixes.len())? {
        let sql = "SELECT DISTINCT r.message FROM link_keys k \
                   JOIN reports r ON r.message = k.message WHERE k.key = ?1";
        let mut stmt = store.conn().prepare_cached(sql).db(sql)?;
        for p in &prefixes {
            let mut rows = stmt.query([format!("c:{p}")]).db(sql)?;
            while let Some(r) = rows.next().db(sql)? {
                out.push((r.get(0).db(sql)?, format!("f:{p}")));
            }
        }
        return Ok(());
    }
    let wanted: HashSet<&str> = prefixes.into_iter().collect();
    let sql = "SELECT message, commit_short, commit_full FROM reports";
    let mut stmt = store.conn().prepare(sql).db(sql)?;
    let mut rows = stmt.query([]).db(sql)?;
    while let Some(r) = rows.next().db(sql)? {
        let m: i64 = r.get(0).db(sql)?;
        let mut held: Vec<String> = Vec::new();
        for col in [1, 2] {
            let c: Option<String> = r.get(col).db(sql)?;
            if let Some(p) = c.as_deref().and_then(commit_prefix)
                && wanted.contains(p.as_str())
                && !held.contains(&p)
            {
                held.push(p);
            }
        }
        out.extend(held.into_iter().map(|p| (m, format!("f:{p}"))));
    }
    Ok(())
}

/// The robot reports whose culprit title has one of these `t:` keys, each
/// with the key: looked up by the stored link keys (a report keeps its
/// culprit title's there) when their index exists and the keys are few,
/// else one pass over the reports.
fn report_holders(store: &Store, keys: &[String], out: &mut Vec<(i64, String)>) -> Result<()> {
    let titles: Vec<&String> = keys.iter().filter(|k| k.starts_with("t:")).collect();
    if titles.is_empty() {
        return Ok(());
    }
    // The title the robot wrote gives the key (the same message's other
    // keys, a `Fixes:` title say, are no report's).
    let wanted: HashSet<&str> = titles.iter().map(|k| k.as_str()).collect();
    let mut take = |m: i64, title: &str| {
        if let Some(k) = crate::link::keys::title(title)
            && wanted.contains(k.as_str())
        {
            out.push((m, k));
        }
    };
    if indexes_exist(store, &["link_keys_key"])? && are_few(store, titles.len())? {
        let sql = "SELECT r.message, r.commit_title FROM link_keys k \
                   JOIN reports r ON r.message = k.message \
                   WHERE k.key = ?1 AND r.commit_title IS NOT NULL";
        let mut stmt = store.conn().prepare_cached(sql).db(sql)?;
        for key in &titles {
            let mut rows = stmt.query([key.as_str()]).db(sql)?;
            while let Some(r) = rows.next().db(sql)? {
                let t: String = r.get(1).db(sql)?;
                take(r.get(0).db(sql)?, &t);
            }
        }
    } else {
        let sql = "SELECT message, commit_title FROM reports WHERE commit_title IS NOT NULL";
        let mut stmt = store.conn().prepare_cached(sql).db(sql)?;
        let mut rows = stmt.query([]).db(sql)?;
        while let Some(r) = rows.next().db(sql)? {
            let t: String = r.get(1).db(sql)?;
            take(r.get(0).db(sql)?, &t);
        }
    }
    Ok(())
}

/// The messages carrying a patch with one of these keys (`t:<title key>`
/// or `p:<patch id>`), or a robot report naming a culprit of that title
/// (see [`patch_keys_of`]), each with the key.
pub fn patch_holders(store: &Store, keys: &[String]) -> Result<Vec<(i64, String)>> {
    let mut out = Vec::new();
    report_holders(store, keys, &mut out)?;
    culprit_holders(store, keys, &mut out)?;
    if !lookups_pay(store, keys.len())? {
        let wanted: HashSet<&str> = keys.iter().map(String::as_str).collect();
        let mut key = String::new();
        scan_patch_keys(store, false, |m, title, patch_id, _| {
            for (prefix, v) in [("t:", title), ("p:", patch_id)] {
                let Some(v) = v else { continue };
                key.clear();
                key.push_str(prefix);
                key.push_str(v);
                if wanted.contains(key.as_str()) {
                    out.push((m, key.clone()));
                }
            }
        })?;
        return Ok(out);
    }
    let conn = store.conn();
    for k in keys {
        let (sql, v) = if let Some(t) = k.strip_prefix("t:") {
            ("SELECT message FROM patches WHERE title_key = ?1", t)
        } else if let Some(p) = k.strip_prefix("p:") {
            ("SELECT message FROM patches WHERE patch_id = ?1", p)
        } else {
            continue;
        };
        let mut stmt = conn.prepare_cached(sql).db(sql)?;
        let mut rows = stmt.query([v]).db(sql)?;
        while let Some(r) = rows.next().db(sql)? {
            out.push((r.get(0).db(sql)?, k.clone()));
        }
    }
    Ok(out)
}
