//! Reading link inputs and writing threads, regressions and timelines.
//!
//! [`load_input`] reads every message's headers, References and extraction
//! (the `extractions.json` column, parsed in parallel) plus the marks;
//! [`write_output`] replaces the v2 tables in one short write transaction, so
//! readers (WAL) keep answering from the previous snapshot meanwhile.
//! Regression ids stay stable across re-linking: a culprit keeps the id it had.

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;
use rusqlite::params;

use super::Store;
use crate::error::{DbContext, Result};
use crate::link::culprit::same_commit;
use crate::link::{LinkInput, LinkMessage, LinkOutput, Mark};
use crate::model::{
    CommitRef, DiffFile, Event, EventKind, Extraction, Kind, Signal, SignalKind, SubjectReport,
    Trailer,
};

/// Parses a stored kind name (`perf-report`, ...); unknown names are `Other`.
pub fn parse_kind(s: &str) -> Kind {
    serde_json::from_value(serde_json::Value::String(s.to_string())).unwrap_or_default()
}

/// Reads everything linking needs from the store.
pub fn load_input(store: &Store) -> Result<LinkInput> {
    let conn = store.conn();
    // Headers of every message from a covering index (the table rows hold the
    // bodies); whole extractions only for robot reports (tables, body), every
    // other message is assembled from the small per-kind tables, which is far
    // cheaper than parsing its JSON.
    let sql = "SELECT id, message_id, subject, from_name, from_email, date, in_reply_to, kind \
               FROM messages ORDER BY id";
    let mut stmt = conn.prepare(sql).db(sql)?;
    let mut messages: Vec<LinkMessage> = stmt
        .query_map([], |r| {
            Ok(LinkMessage {
                db_id: r.get(0)?,
                message_id: r.get(1)?,
                subject: r.get(2)?,
                from_name: r.get(3)?,
                from_email: r.get(4)?,
                date: r.get(5)?,
                in_reply_to: r.get(6)?,
                references: Vec::new(),
                kind: parse_kind(&r.get::<_, String>(7)?),
                extraction: Extraction::default(),
            })
        })
        .db(sql)?
        .collect::<std::result::Result<_, _>>()
        .db(sql)?;
    let sql = "SELECT m.id, e.json FROM messages m JOIN extractions e ON e.message = m.id \
               WHERE m.kind IN ('perf-report', 'functional-report')";
    let mut stmt = conn.prepare(sql).db(sql)?;
    let reports: Vec<(i64, String)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .db(sql)?
        .collect::<std::result::Result<_, _>>()
        .db(sql)?;
    let parsed: Vec<(i64, Extraction)> = reports
        .into_par_iter()
        .filter_map(|(id, j)| Some((id, serde_json::from_str(&j).ok()?)))
        .collect();
    let pos: HashMap<i64, usize> = messages
        .iter()
        .enumerate()
        .map(|(i, m)| (m.db_id, i))
        .collect();
    for (id, ex) in parsed {
        if let Some(&i) = pos.get(&id) {
            messages[i].extraction = ex;
        }
    }
    let sql = "SELECT message, ref_id FROM message_refs ORDER BY message, pos";
    let mut stmt = conn.prepare(sql).db(sql)?;
    let mut rows = stmt.query([]).db(sql)?;
    while let Some(r) = rows.next().db(sql)? {
        let (msg, rid): (i64, String) = (r.get(0).db(sql)?, r.get(1).db(sql)?);
        if let Some(&i) = pos.get(&msg) {
            messages[i].references.push(rid);
        }
    }
    let need: Vec<bool> = messages
        .iter()
        .map(|m| !matches!(m.kind, Kind::PerfReport | Kind::FunctionalReport))
        .collect();
    load_parts(store, &pos, &need, &mut messages)?;
    let marks = load_marks(store)?;
    Ok(LinkInput { messages, marks })
}

fn enum_of<T: serde::de::DeserializeOwned>(s: &str) -> Option<T> {
    serde_json::from_value(serde_json::Value::String(s.to_string())).ok()
}

/// Fills the extraction of every message with `need[i]` from the per-kind tables.
fn load_parts(
    store: &Store,
    pos: &HashMap<i64, usize>,
    need: &[bool],
    messages: &mut [LinkMessage],
) -> Result<()> {
    let conn = store.conn();
    let idx = |id: i64| pos.get(&id).copied().filter(|&i| need[i]);

    let sql = "SELECT message, branch, subsystem, commit_short, metric, change_percent, \
               direction, failure FROM reports WHERE origin = 'subject'";
    let mut stmt = conn.prepare(sql).db(sql)?;
    let mut rows = stmt.query([]).db(sql)?;
    while let Some(r) = rows.next().db(sql)? {
        let Some(i) = idx(r.get(0).db(sql)?) else {
            continue;
        };
        let dir: Option<String> = r.get(6).db(sql)?;
        messages[i].extraction.subject_report = Some(SubjectReport {
            branch: r.get(1).db(sql)?,
            subsystem: r.get(2).db(sql)?,
            commit: r.get::<_, Option<String>>(3).db(sql)?.unwrap_or_default(),
            metric: r.get(4).db(sql)?,
            change_percent: r.get(5).db(sql)?,
            direction: dir.as_deref().and_then(enum_of),
            failure: r.get(7).db(sql)?,
            ..SubjectReport::default()
        });
    }

    let sql = "SELECT message, key, value, suggested, commit_id, title, quote_depth \
               FROM trailers ORDER BY message, idx";
    let mut stmt = conn.prepare(sql).db(sql)?;
    let mut rows = stmt.query([]).db(sql)?;
    while let Some(r) = rows.next().db(sql)? {
        let Some(i) = idx(r.get(0).db(sql)?) else {
            continue;
        };
        messages[i].extraction.trailers.push(Trailer {
            key: r.get(1).db(sql)?,
            value: r.get(2).db(sql)?,
            suggested: r.get::<_, i64>(3).db(sql)? != 0,
            commit: r.get(4).db(sql)?,
            title: r.get(5).db(sql)?,
            quote_depth: r.get::<_, i64>(6).db(sql)?.max(0) as u32,
        });
    }

    let sql = "SELECT message, kind, sentence, quote_depth, commit_id FROM signals \
               ORDER BY message, idx";
    let mut stmt = conn.prepare(sql).db(sql)?;
    let mut rows = stmt.query([]).db(sql)?;
    while let Some(r) = rows.next().db(sql)? {
        let Some(i) = idx(r.get(0).db(sql)?) else {
            continue;
        };
        let kind: String = r.get(1).db(sql)?;
        let Some(kind) = enum_of::<SignalKind>(&kind) else {
            continue;
        };
        messages[i].extraction.signals.push(Signal {
            kind,
            sentence: r.get(2).db(sql)?,
            quote_depth: r.get::<_, i64>(3).db(sql)?.max(0) as u32,
            commit: r.get(4).db(sql)?,
        });
    }

    let sql =
        "SELECT message, kind, tree, sha, text, quote_depth FROM events ORDER BY message, idx";
    let mut stmt = conn.prepare(sql).db(sql)?;
    let mut rows = stmt.query([]).db(sql)?;
    while let Some(r) = rows.next().db(sql)? {
        let Some(i) = idx(r.get(0).db(sql)?) else {
            continue;
        };
        let kind: String = r.get(1).db(sql)?;
        let Some(kind) = enum_of::<EventKind>(&kind) else {
            continue;
        };
        messages[i].extraction.events.push(Event {
            kind,
            tree: r.get(2).db(sql)?,
            sha: r.get(3).db(sql)?,
            text: r.get(4).db(sql)?,
            quote_depth: r.get::<_, i64>(5).db(sql)?.max(0) as u32,
        });
    }

    let sql = "SELECT message, target_id FROM lore_links";
    let mut stmt = conn.prepare(sql).db(sql)?;
    let mut rows = stmt.query([]).db(sql)?;
    while let Some(r) = rows.next().db(sql)? {
        let Some(i) = idx(r.get(0).db(sql)?) else {
            continue;
        };
        messages[i].extraction.lore_links.push(r.get(1).db(sql)?);
    }

    let sql = "SELECT message, commit_id, title, quote_depth FROM commit_refs";
    let mut stmt = conn.prepare(sql).db(sql)?;
    let mut rows = stmt.query([]).db(sql)?;
    while let Some(r) = rows.next().db(sql)? {
        let Some(i) = idx(r.get(0).db(sql)?) else {
            continue;
        };
        messages[i].extraction.commits.push(CommitRef {
            id: r.get(1).db(sql)?,
            title: r.get(2).db(sql)?,
            quote_depth: r.get::<_, i64>(3).db(sql)?.max(0) as u32,
        });
    }

    // Only whether a message carries its own diff matters to linking.
    let sql = "SELECT message, min(quote_depth) FROM diffs GROUP BY message";
    let mut stmt = conn.prepare(sql).db(sql)?;
    let mut rows = stmt.query([]).db(sql)?;
    while let Some(r) = rows.next().db(sql)? {
        let Some(i) = idx(r.get(0).db(sql)?) else {
            continue;
        };
        messages[i].extraction.diffs.push(DiffFile {
            quote_depth: r.get::<_, i64>(1).db(sql)?.max(0) as u32,
            ..DiffFile::default()
        });
    }
    Ok(())
}

/// Every mark, oldest first.
pub fn load_marks(store: &Store) -> Result<Vec<Mark>> {
    let sql = "SELECT culprit, status, note, author, at FROM marks ORDER BY at, id";
    let mut stmt = store.conn().prepare(sql).db(sql)?;
    let v = stmt
        .query_map([], |r| {
            Ok(Mark {
                culprit: r.get(0)?,
                status: r.get(1)?,
                note: r.get(2)?,
                author: r.get(3)?,
                at: r.get(4)?,
            })
        })
        .db(sql)?
        .collect::<std::result::Result<Vec<_>, _>>()
        .db(sql)?;
    Ok(v)
}

/// Stores a mark (a human decision keyed by culprit).
pub fn insert_mark(store: &mut Store, mark: &Mark) -> Result<()> {
    let sql = "INSERT INTO marks (culprit, status, note, author, at) VALUES (?1, ?2, ?3, ?4, ?5)";
    store
        .conn()
        .execute(
            sql,
            params![mark.culprit, mark.status, mark.note, mark.author, mark.at],
        )
        .db(sql)?;
    Ok(())
}

/// Replaces threads and regressions with `output`, in one transaction.
pub fn write_output(store: &mut Store, input: &LinkInput, output: &LinkOutput) -> Result<()> {
    let db_id_of: HashMap<&str, i64> = input
        .messages
        .iter()
        .map(|m| (m.message_id.as_str(), m.db_id))
        .collect();
    let tx = store.conn_mut().transaction().db("begin relink")?;
    // Only what changed is written: unchanged thread rows and regressions
    // (same summary) are left alone, so a re-link after a small ingest is a
    // small write.
    let old: Vec<(i64, String, String)> = {
        let sql = "SELECT id, culprit, summary_json FROM regressions";
        let mut stmt = tx.prepare(sql).db(sql)?;
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .db(sql)?
            .collect::<std::result::Result<_, _>>()
            .db(sql)?
    };
    let old_exact: HashMap<&str, i64> = old.iter().map(|(i, c, _)| (c.as_str(), *i)).collect();
    let old_json: HashMap<i64, &str> = old.iter().map(|(i, _, j)| (*i, j.as_str())).collect();
    let mut next_id = old.iter().map(|(i, _, _)| *i).max().unwrap_or(0) + 1;

    // Assign ids: a culprit keeps its id (also when a longer id became known).
    let mut used: HashSet<i64> = HashSet::new();
    let mut assigned: Vec<(i64, String)> = Vec::with_capacity(output.regressions.len());
    for reg in &output.regressions {
        let key = reg.culprit.commit.as_str();
        let id = old_exact
            .get(key)
            .copied()
            .filter(|i| !used.contains(i))
            .or_else(|| {
                old.iter()
                    .find(|(i, c, _)| !used.contains(i) && same_commit(c, key))
                    .map(|(i, _, _)| *i)
            })
            .unwrap_or_else(|| {
                let i = next_id;
                next_id += 1;
                i
            });
        used.insert(id);
        let mut r = reg.clone();
        r.id = id;
        assigned.push((
            id,
            serde_json::to_string(&r).unwrap_or_else(|_| "{}".into()),
        ));
    }
    let changed: Vec<bool> = assigned
        .iter()
        .map(|(id, json)| old_json.get(id) != Some(&json.as_str()))
        .collect();
    {
        let sql = "DELETE FROM regressions WHERE id = ?1";
        let mut del = tx.prepare(sql).db(sql)?;
        for (id, _, _) in &old {
            let keep = assigned
                .iter()
                .zip(&changed)
                .any(|((a, _), ch)| a == id && !ch);
            if !keep {
                // Cascades to regression_messages, regression_events, regression_metrics.
                del.execute(params![id]).db(sql)?;
            }
        }
    }

    {
        let existing: HashMap<i64, (String, Option<String>, u32)> = {
            let sql = "SELECT message, root_id, parent_id, depth FROM threads";
            let mut stmt = tx.prepare(sql).db(sql)?;
            stmt.query_map([], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?, r.get(3)?))))
                .db(sql)?
                .collect::<std::result::Result<_, _>>()
                .db(sql)?
        };
        let sql = "INSERT OR REPLACE INTO threads (message, root_id, parent_id, depth) \
                   VALUES (?1, ?2, ?3, ?4)";
        let mut stmt = tx.prepare(sql).db(sql)?;
        let mut seen: HashSet<i64> = HashSet::with_capacity(input.messages.len());
        for (m, t) in input.messages.iter().zip(&output.threads) {
            if m.db_id == 0 {
                continue;
            }
            seen.insert(m.db_id);
            let same = existing
                .get(&m.db_id)
                .is_some_and(|(r, p, d)| *r == t.root_id && *p == t.parent_id && *d == t.depth);
            if !same {
                stmt.execute(params![m.db_id, t.root_id, t.parent_id, t.depth])
                    .db(sql)?;
            }
        }
        let sql = "DELETE FROM threads WHERE message = ?1";
        let mut del = tx.prepare(sql).db(sql)?;
        for id in existing.keys().filter(|k| !seen.contains(k)) {
            del.execute(params![id]).db(sql)?;
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
    {
        let mut s_reg = tx.prepare(sql_reg).db(sql_reg)?;
        let mut s_msg = tx.prepare(sql_msg).db(sql_msg)?;
        let mut s_ev = tx.prepare(sql_ev).db(sql_ev)?;
        let mut s_met = tx.prepare(sql_met).db(sql_met)?;
        for ((reg, (id, json)), ch) in output.regressions.iter().zip(&assigned).zip(&changed) {
            if !ch {
                continue;
            }
            let id = *id;
            let key = reg.culprit.commit.as_str();
            s_reg
                .execute(params![
                    id,
                    key,
                    reg.culprit.title,
                    reg.subsystem,
                    reg.branch,
                    reg.status,
                    reg.facts.first_unix,
                    reg.facts.last_unix,
                    reg.headline.as_ref().map(|h| h.metric.clone()),
                    reg.headline.as_ref().and_then(|h| h.change_percent),
                    reg.direction,
                    json
                ])
                .db(sql_reg)?;
            for a in &reg.attached {
                if let Some(&mid) = db_id_of.get(a.message_id.as_str())
                    && mid != 0
                {
                    s_msg
                        .execute(params![id, mid, a.role, a.reason])
                        .db(sql_msg)?;
                }
            }
            for e in &reg.timeline {
                s_ev.execute(params![
                    id,
                    e.unix,
                    e.from,
                    e.event,
                    e.status,
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
    tx.commit().db("commit relink")?;
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
