//! Reading link inputs and writing threads, regressions and timelines.
//!
//! [`load_input`] reads every message's headers, References and extraction
//! (report tables pruned to the rows linking reads) plus the marks, for the
//! pure [`crate::link::build`]. `relink` does not hold every message: it
//! threads all of them from interned headers ([`load_skeleton`]), picks the
//! whole threads a regression can involve ([`relink_messages`]) and loads only
//! those ([`load_input_of`]); [`begin_relink`] / [`write_output`] replace the
//! v2 tables in one write transaction (thread rows compared a chunk at a
//! time, regression summaries one at a time), so memory stays bounded and
//! readers (WAL) keep answering from the previous snapshot meanwhile.
//! Regression ids stay stable across re-linking: a culprit keeps the id it had.

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;
use rusqlite::{OptionalExtension, params};

use super::Store;
use crate::error::{DbContext, Result};
use crate::link::culprit::same_commit;
use crate::link::status::{FactsByIndex, ReportFacts, prune_for_linking, report_facts};
use crate::link::{LinkInput, LinkMessage, LinkOutput, Mark, Regression};
use crate::model::{
    CommitRef, DiffFile, Event, EventKind, Extraction, Kind, Signal, SignalKind, SubjectReport,
    Trailer,
};

/// Parses a stored kind name (`perf-report`, ...); unknown names are `Other`.
pub fn parse_kind(s: &str) -> Kind {
    serde_json::from_value(serde_json::Value::String(s.to_string())).unwrap_or_default()
}

/// Reads everything linking needs from the store: every message, with its
/// extraction pruned to what linking reads (see
/// [`crate::link::status::prune_for_linking`]).
pub fn load_input(store: &Store) -> Result<LinkInput> {
    Ok(load_filtered(store, None, false)?.0)
}

/// Like [`load_input`], for the messages whose `messages.id` is in `keep`
/// (ascending) only; robot reports come with their [`ReportFacts`] (by
/// index into the messages) and without table rows, which are all the
/// facts were computed from.
pub fn load_input_of(store: &Store, keep: &[i64]) -> Result<(LinkInput, FactsByIndex)> {
    load_filtered(store, Some(keep), true)
}

/// Robot report extractions parsed (and pruned) at a time: bounds the JSON
/// text and full tables held at once.
const REPORT_BATCH: usize = 64;

fn load_filtered(
    store: &Store,
    keep: Option<&[i64]>,
    with_facts: bool,
) -> Result<(LinkInput, FactsByIndex)> {
    let conn = store.conn();
    let kept = |id: i64| keep.is_none_or(|k| k.binary_search(&id).is_ok());
    // Headers of every message (the rows hold no bodies since schema v5);
    // whole extractions only for robot reports (tables, body), every
    // other message is assembled from the small per-kind tables, which is far
    // cheaper than parsing its JSON.
    let sql = "SELECT id, message_id, subject, from_name, from_email, date, in_reply_to, kind, \
               refs FROM messages ORDER BY id";
    let mut stmt = conn.prepare(sql).db(sql)?;
    let mut messages: Vec<LinkMessage> = Vec::with_capacity(keep.map_or(0, |k| k.len()));
    let mut rows = stmt.query([]).db(sql)?;
    while let Some(r) = rows.next().db(sql)? {
        let db_id: i64 = r.get(0).db(sql)?;
        if !kept(db_id) {
            continue;
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
        });
    }
    let pos: HashMap<i64, usize> = messages
        .iter()
        .enumerate()
        .map(|(i, m)| (m.db_id, i))
        .collect();
    let sql = "SELECT m.id, e.json FROM messages m JOIN extractions e ON e.message = m.id \
               WHERE m.kind IN ('perf-report', 'functional-report')";
    let mut stmt = conn.prepare(sql).db(sql)?;
    let mut rows = stmt.query([]).db(sql)?;
    let mut batch: Vec<(usize, String)> = Vec::with_capacity(REPORT_BATCH);
    let mut facts = FactsByIndex::new();
    let parse_batch = |batch: &mut Vec<(usize, String)>,
                       messages: &mut [LinkMessage],
                       facts: &mut FactsByIndex| {
        let work: Vec<(usize, String, LinkMessage)> = std::mem::take(batch)
            .into_iter()
            .filter_map(|(i, j)| Some((i, j, messages.get(i)?.clone())))
            .collect();
        let parsed: Vec<(usize, Extraction, Option<ReportFacts>)> = work
            .into_par_iter()
            .filter_map(|(i, j, mut head)| {
                head.extraction = serde_json::from_str(&j).ok()?;
                let f = with_facts.then(|| report_facts(&head));
                let mut ex = head.extraction;
                prune_for_linking(&mut ex);
                if with_facts {
                    // Every row-dependent fact is in `f`.
                    for t in &mut ex.tables {
                        t.rows = Vec::new();
                        t.commits = Vec::new();
                    }
                }
                Some((i, ex, f))
            })
            .collect();
        for (i, ex, f) in parsed {
            if let Some(m) = messages.get_mut(i) {
                m.extraction = ex;
            }
            if let Some(f) = f {
                facts.insert(i, f);
            }
        }
    };
    while let Some(r) = rows.next().db(sql)? {
        let Some(&i) = pos.get(&r.get::<_, i64>(0).db(sql)?) else {
            continue;
        };
        batch.push((i, r.get(1).db(sql)?));
        if batch.len() >= REPORT_BATCH {
            parse_batch(&mut batch, &mut messages, &mut facts);
        }
    }
    parse_batch(&mut batch, &mut messages, &mut facts);
    let need: Vec<bool> = messages
        .iter()
        .map(|m| !matches!(m.kind, Kind::PerfReport | Kind::FunctionalReport))
        .collect();
    load_parts(store, &pos, &need, &mut messages)?;
    let marks = load_marks(store)?;
    Ok((LinkInput { messages, marks }, facts))
}

/// Every message's threading, computed from the headers and References
/// alone (Message-IDs interned once), without holding whole messages: what
/// [`crate::link::relink_full`] needs for the `threads` table and to pick the
/// messages a regression can involve. Same threading as
/// [`crate::link::thread::thread`] on all messages.
#[derive(Debug, Default)]
pub struct Skeleton {
    /// `messages.id` of every message, ascending (store order).
    pub db_ids: Vec<i64>,
    /// Container (index into `names`) of every message's own Message-ID.
    pub container: Vec<u32>,
    /// Message-ID of every container (messages and ids only referenced).
    pub names: Names,
    /// Parent container of every message, after threading.
    pub parent: Vec<Option<u32>>,
    /// Root container of every message's thread.
    pub root: Vec<u32>,
    /// Depth of every message below its root.
    pub depth: Vec<u32>,
    /// Messages that start a regression or can link to one whatever else
    /// is stored: robot reports and `Revert "..."` subjects.
    pub seed: Vec<bool>,
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

/// Interned Message-IDs: one text buffer and where each id ends, so that an
/// archive's half million ids cost their bytes, not an allocation each.
#[derive(Debug, Default)]
pub struct Names {
    text: String,
    ends: Vec<usize>,
}

impl Names {
    /// The id of container `c`.
    pub fn get(&self, c: usize) -> Option<&str> {
        let end = *self.ends.get(c)?;
        let start = match c.checked_sub(1) {
            Some(p) => *self.ends.get(p)?,
            None => 0,
        };
        self.text.get(start..end)
    }

    /// How many ids there are.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
}

/// Builds [`Names`], finding an id already seen through a table of indexes
/// hashed by the id's text.
#[derive(Default)]
struct Interner {
    names: Names,
    table: hashbrown::HashTable<u32>,
    hasher: hashbrown::DefaultHashBuilder,
}

impl Interner {
    fn intern(&mut self, s: &str) -> u32 {
        use std::hash::BuildHasher;
        let Interner {
            names,
            table,
            hasher,
        } = self;
        let h = hasher.hash_one(s);
        if let Some(&c) = table.find(h, |&c| names.get(c as usize) == Some(s)) {
            return c;
        }
        let c = u32::try_from(names.len()).unwrap_or(u32::MAX);
        names.text.push_str(s);
        names.ends.push(names.text.len());
        table.insert_unique(h, c, |&c| {
            hasher.hash_one(names.get(c as usize).unwrap_or_default())
        });
        c
    }
}

/// Threads every stored message (see [`Skeleton`]).
pub fn load_skeleton(store: &Store) -> Result<Skeleton> {
    use crate::link::thread::{Forest, chain, normalize_subject};
    let conn = store.conn();
    let mut index = Interner::default();
    let mut sk = Skeleton::default();
    let mut irt: Vec<Option<u32>> = Vec::new();
    let mut no_refs: Vec<bool> = Vec::new();
    let mut dates: Vec<Option<i64>> = Vec::new();
    // References, oldest first, as ranges of one flat list.
    let mut refs: Vec<u32> = Vec::new();
    let mut range: Vec<(u32, u32)> = Vec::new();
    let sql = "SELECT id, message_id, date, in_reply_to, kind, refs FROM messages ORDER BY id";
    let mut stmt = conn.prepare(sql).db(sql)?;
    let mut rows = stmt.query([]).db(sql)?;
    while let Some(r) = rows.next().db(sql)? {
        sk.db_ids.push(r.get(0).db(sql)?);
        let mid = text(r, 1, sql)?.unwrap_or_default();
        sk.container.push(index.intern(mid));
        dates.push(r.get(2).db(sql)?);
        let i = text(r, 3, sql)?;
        let i = i.filter(|s| !s.is_empty());
        let at = refs.len() as u32;
        for rid in split_refs(text(r, 5, sql)?.unwrap_or_default()) {
            refs.push(index.intern(rid));
        }
        range.push((at, refs.len() as u32));
        no_refs.push(i.is_none() && refs.len() as u32 == at);
        irt.push(i.map(|s| index.intern(s)));
        let kind = parse_kind(text(r, 4, sql)?.unwrap_or_default());
        sk.seed
            .push(matches!(kind, Kind::PerfReport | Kind::FunctionalReport));
    }
    let n = sk.db_ids.len();
    let mut forest = Forest::default();
    forest.parent.resize(index.names.len(), None);
    for i in 0..n {
        let me = sk.container[i] as usize;
        let (a, b) = range[i];
        let own = refs.get(a as usize..b as usize).unwrap_or(&[]);
        let ch = chain(
            own.iter().map(|&c| c as usize),
            irt[i].map(|c| c as usize),
            me,
        );
        forest.link(me, &ch);
    }
    drop((refs, range, irt));
    let Interner { names, table, .. } = index;
    drop(table);
    sk.names = names;

    // Subject fallback, as `thread::thread` does it, reading subjects once.
    let mut roots: HashMap<String, (Option<i64>, usize)> = HashMap::new();
    let mut hang: Vec<(usize, String)> = Vec::new();
    let sql = "SELECT id, subject FROM messages ORDER BY id";
    let mut stmt = conn.prepare(sql).db(sql)?;
    let mut rows = stmt.query([]).db(sql)?;
    while let Some(r) = rows.next().db(sql)? {
        let Ok(i) = sk.db_ids.binary_search(&r.get(0).db(sql)?) else {
            continue;
        };
        let subject = text(r, 1, sql)?.unwrap_or_default();
        let c = sk.container[i] as usize;
        let names = &sk.names;
        forest.offer_root(
            &mut roots,
            c,
            subject,
            dates[i],
            names.get(c).unwrap_or_default(),
            |x| names.get(x).unwrap_or(""),
        );
        if forest.wants_subject_parent(c, no_refs[i], subject) {
            hang.push((c, normalize_subject(subject)));
        }
        if crate::link::attach::is_revert_subject(subject) {
            sk.seed[i] = true;
        }
    }
    for (c, key) in &hang {
        forest.hang_reply(&roots, *c, key);
    }
    drop((roots, hang, dates, no_refs));

    let mut memo: Vec<Option<(usize, u32)>> = vec![None; forest.parent.len()];
    sk.parent.reserve_exact(n);
    sk.root.reserve_exact(n);
    sk.depth.reserve_exact(n);
    for &c in &sk.container {
        let c = c as usize;
        let (r, d) = forest.root_of(c, &mut memo);
        sk.root.push(r as u32);
        sk.depth.push(d);
        sk.parent
            .push(forest.parent.get(c).copied().flatten().map(|p| p as u32));
    }
    Ok(sk)
}

/// Indices (into the skeleton, ascending) of the messages a regression can
/// involve: the whole threads of robot reports, of replies whose subject
/// names a culprit (`reports` rows of origin `subject`), of revert subjects,
/// of messages whose `Closes:`/`Link:` trailer or cited lore URL points into
/// one of those threads, and of messages with `Fixes:` and a robot
/// `Reported-by:`. Linking only these gives the same regressions as
/// linking everything (see [`crate::link::attach::regressions`]).
pub fn relink_messages(store: &Store, sk: &Skeleton) -> Result<Vec<usize>> {
    use crate::link::attach::{lore_msgid, names_robot};
    use crate::link::culprit::is_hex_id;
    let conn = store.conn();
    let n = sk.db_ids.len();
    let at = |id: i64| sk.db_ids.binary_search(&id).ok();
    let mut seed = sk.seed.clone();
    let sql = "SELECT message FROM reports WHERE origin = 'subject'";
    let mut stmt = conn.prepare(sql).db(sql)?;
    let mut rows = stmt.query([]).db(sql)?;
    while let Some(r) = rows.next().db(sql)? {
        if let Some(i) = at(r.get(0).db(sql)?) {
            seed[i] = true;
        }
    }
    // Every message that can be a member before patches are linked.
    let roots: HashSet<u32> = (0..n).filter(|&i| seed[i]).map(|i| sk.root[i]).collect();
    let members: HashSet<&str> = (0..n)
        .filter(|&i| roots.contains(&sk.root[i]))
        .filter_map(|i| sk.names.get(sk.container[i] as usize))
        .collect();
    let mut robot = vec![false; n];
    let mut fixes = vec![false; n];
    let sql = "SELECT message, key, value, suggested, commit_id, quote_depth FROM trailers";
    for_kept_rows(conn, sql, at, |i, r| {
        let own = r.get::<_, i64>(3).db(sql)? == 0 && r.get::<_, i64>(5).db(sql)?.max(0) == 0;
        if !own {
            return Ok(());
        }
        let key = text(r, 1, sql)?.unwrap_or_default().to_ascii_lowercase();
        let value = text(r, 2, sql)?.unwrap_or_default();
        match key.as_str() {
            "closes" | "link" => {
                seed[i] |= lore_msgid(value).is_some_and(|id| members.contains(id.as_str()));
            }
            "reported-by" => robot[i] |= names_robot(value),
            "fixes" => {
                let commit: Option<String> = r.get(4).db(sql)?;
                let id = commit
                    .or_else(|| value.split_whitespace().next().map(|s| s.to_string()))
                    .unwrap_or_default();
                fixes[i] |= is_hex_id(&id);
            }
            _ => {}
        }
        Ok(())
    })?;
    let sql = "SELECT message, target_id FROM lore_links";
    for_kept_rows(conn, sql, at, |i, r| {
        let t = text(r, 1, sql)?.unwrap_or_default();
        let id = lore_msgid(t).unwrap_or_else(|| t.trim_matches(['<', '>']).to_string());
        if members.contains(id.as_str()) {
            seed[i] = true;
        }
        Ok(())
    })?;
    drop(members);
    let roots: HashSet<u32> = (0..n)
        .filter(|&i| seed[i] || (robot[i] && fixes[i]))
        .map(|i| sk.root[i])
        .collect();
    Ok((0..n).filter(|&i| roots.contains(&sk.root[i])).collect())
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
    for_kept_rows(conn, sql, idx, |i, r| {
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
    for_kept_rows(conn, sql, idx, |i, r| {
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

    let sql = "SELECT message, kind, sentence, quote_depth, commit_id FROM signals \
               ORDER BY message, idx";
    for_kept_rows(conn, sql, idx, |i, r| {
        let kind: String = r.get(1).db(sql)?;
        let Some(kind) = enum_of::<SignalKind>(&kind) else {
            return Ok(());
        };
        messages[i].extraction.signals.push(Signal {
            kind,
            sentence: r.get(2).db(sql)?,
            quote_depth: r.get::<_, i64>(3).db(sql)?.max(0) as u32,
            commit: r.get(4).db(sql)?,
        });
        Ok(())
    })?;

    let sql =
        "SELECT message, kind, tree, sha, text, quote_depth FROM events ORDER BY message, idx";
    for_kept_rows(conn, sql, idx, |i, r| {
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
    for_kept_rows(conn, sql, idx, |i, r| {
        messages[i].extraction.lore_links.push(r.get(1).db(sql)?);
        Ok(())
    })?;

    let sql = "SELECT message, commit_id, title, quote_depth FROM commit_refs";
    for_kept_rows(conn, sql, idx, |i, r| {
        messages[i].extraction.commits.push(CommitRef {
            id: r.get(1).db(sql)?,
            title: r.get(2).db(sql)?,
            quote_depth: r.get::<_, i64>(3).db(sql)?.max(0) as u32,
        });
        Ok(())
    })?;

    // Only whether a message carries its own diff matters to linking.
    let sql = "SELECT message, min(quote_depth) FROM diffs GROUP BY message";
    for_kept_rows(conn, sql, idx, |i, r| {
        messages[i].extraction.diffs.push(DiffFile {
            quote_depth: r.get::<_, i64>(1).db(sql)?.max(0) as u32,
            ..DiffFile::default()
        });
        Ok(())
    })?;
    Ok(())
}

/// Calls `each(i, row)` for every row of `sql` (no parameters) whose first
/// column is a `messages.id` that `index` maps to `i`; rows of other
/// messages are skipped. Errors name the statement.
fn for_kept_rows(
    conn: &rusqlite::Connection,
    sql: &str,
    index: impl Fn(i64) -> Option<usize>,
    mut each: impl FnMut(usize, &rusqlite::Row<'_>) -> Result<()>,
) -> Result<()> {
    let mut stmt = conn.prepare(sql).db(sql)?;
    let mut rows = stmt.query([]).db(sql)?;
    while let Some(r) = rows.next().db(sql)? {
        if let Some(i) = index(r.get(0).db(sql)?) {
            each(i, r)?;
        }
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
    let tx = store.conn_mut().transaction().db("begin relink")?;
    let rows = input
        .messages
        .iter()
        .zip(&output.threads)
        .filter(|(m, _)| m.db_id != 0)
        .map(|(m, t)| (m.db_id, t.root_id.as_str(), t.parent_id.as_deref(), t.depth));
    write_threads(&tx, rows)?;
    let keys: Vec<&str> = output
        .regressions
        .iter()
        .map(|r| r.culprit.commit.as_str())
        .collect();
    write_regressions(&tx, &input.messages, &keys, |k| {
        output.regressions[k].clone()
    })?;
    tx.commit().db("commit relink")?;
    Ok(())
}

/// The relink's write transaction, opened by [`begin_relink`] with the
/// thread rows written; [`RelinkWrite::finish`] adds the regressions and
/// commits. Dropped unfinished, it rolls back.
pub struct RelinkWrite<'c> {
    tx: rusqlite::Transaction<'c>,
}

/// Opens the relink's write transaction and replaces the thread rows with
/// the skeleton's. The regressions, made meanwhile from reads on another
/// connection, follow in the same transaction ([`RelinkWrite::finish`]).
pub fn begin_relink<'c>(store: &'c mut Store, sk: &Skeleton) -> Result<RelinkWrite<'c>> {
    let tx = store.conn_mut().transaction().db("begin relink")?;
    let name = |c: u32| sk.names.get(c as usize).unwrap_or("");
    let rows = (0..sk.db_ids.len()).map(|i| {
        (
            sk.db_ids[i],
            name(sk.root[i]),
            sk.parent[i].map(name),
            sk.depth[i],
        )
    });
    write_threads(&tx, rows)?;
    Ok(RelinkWrite { tx })
}

impl RelinkWrite<'_> {
    /// Replaces the regressions (whose messages are all in `messages`) and
    /// commits threads and regressions together.
    ///
    /// The regressions are made one at a time by `make(k)` (in the order of
    /// `keys`, their culprits), never all held at once.
    pub fn finish(
        self,
        messages: &[LinkMessage],
        keys: &[&str],
        make: impl Fn(usize) -> Regression,
    ) -> Result<()> {
        write_regressions(&self.tx, messages, keys, make)?;
        self.tx.commit().db("commit relink")
    }
}

/// Thread rows compared with the stored ones at a time.
const THREAD_CHUNK: usize = 4096;

/// Brings the `threads` table to exactly `rows` (message, root, parent,
/// depth): only rows that differ are written, rows of other messages are
/// deleted. Reads the stored rows a chunk at a time (memory stays bounded).
fn write_threads<'a>(
    tx: &rusqlite::Transaction<'_>,
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

/// Replaces the regressions (whose messages are all in `messages`): a
/// culprit keeps its id, unchanged regressions (same summary) are left alone.
fn write_regressions(
    tx: &rusqlite::Transaction<'_>,
    messages: &[LinkMessage],
    keys: &[&str],
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
    let old: Vec<(i64, String)> = {
        let sql = "SELECT id, culprit FROM regressions";
        let mut stmt = tx.prepare(sql).db(sql)?;
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .db(sql)?
            .collect::<std::result::Result<_, _>>()
            .db(sql)?
    };
    let old_exact: HashMap<&str, i64> = old.iter().map(|(i, c)| (c.as_str(), *i)).collect();
    let mut next_id = old.iter().map(|(i, _)| *i).max().unwrap_or(0) + 1;

    // Assign ids: a culprit keeps its id (also when a longer id became known).
    let mut used: HashSet<i64> = HashSet::new();
    let mut assigned: Vec<i64> = Vec::with_capacity(keys.len());
    for &key in keys {
        let id = old_exact
            .get(key)
            .copied()
            .filter(|i| !used.contains(i))
            .or_else(|| {
                old.iter()
                    .find(|(i, c)| !used.contains(i) && same_commit(c, key))
                    .map(|(i, _)| *i)
            })
            .unwrap_or_else(|| {
                let i = next_id;
                next_id += 1;
                i
            });
        used.insert(id);
        assigned.push(id);
    }
    let json_of = |r: &mut Regression, id: i64| {
        r.id = id;
        serde_json::to_string(&*r).unwrap_or_else(|_| "{}".into())
    };
    let mut changed: Vec<bool> = Vec::with_capacity(keys.len());
    {
        let sql = "SELECT summary_json FROM regressions WHERE id = ?1";
        let mut stmt = tx.prepare(sql).db(sql)?;
        for (k, &id) in assigned.iter().enumerate() {
            let before: Option<String> = stmt
                .query_row(params![id], |r| r.get(0))
                .optional()
                .db(sql)?;
            changed.push(before.is_none_or(|b| b != json_of(&mut make(k), id)));
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
        for (id, _) in &old {
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
    {
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
