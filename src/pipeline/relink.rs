//! Brings the stored threads and regressions up to date: reads the rows
//! linking needs from the store, runs the pure linker, writes the result.
//!
//! Memory stays bounded by the regressions, not the archive: every message
//! is threaded from its headers alone (interned ids, a few hundred bytes a
//! message), and only the whole threads a regression can involve
//! ([`crate::link::select`]) are loaded as [`LinkMessage`]s, their report
//! extractions decoded a batch at a time and prepared
//! ([`crate::link::facts::prepare`]: table facts kept, rows dropped). The
//! result is the same as [`crate::link::build`] on every message.
//!
//! The thread rows need only the skeleton: this connection writes them
//! while a second one reads what the regressions need (WAL: it reads the
//! snapshot before this transaction, whose tables it does not read).

use std::collections::HashMap;

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::link::attach::Linked;
use crate::link::thread::{Skeleton, SkeletonBuilder};
use crate::link::{self, LINK_LOGIC_VERSION, LinkInput, LinkMessage, attach, select};
use crate::model::Kind;
use crate::model::history::{Mark, Regression};
use crate::store::{Store, links};

/// Robot report extractions decoded (and prepared) at a time: bounds the
/// JSON text and whole tables held at once.
const REPORT_BATCH: usize = 64;

/// What a relink read that it could not use.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Unreadable {
    /// Messages whose stored extraction did not decode (Message-ID: error).
    pub extractions: Vec<String>,
    /// Marks whose status this build does not know.
    pub marks: Vec<String>,
}

impl Unreadable {
    /// True when everything was read.
    pub fn is_empty(&self) -> bool {
        self.extractions.is_empty() && self.marks.is_empty()
    }
}

/// Brings threads and regressions up to date with the stored messages,
/// extractions and marks. Does nothing (four index-only aggregate queries)
/// when nothing was stored since the last link by this logic version;
/// recomputes everything otherwise. Returns whether it relinked, and what
/// it could not read.
pub fn relink(store: &mut Store) -> Result<(bool, Unreadable)> {
    relink_with(store, &mut || Ok(()))
}

/// [`relink`] that calls `before_write` after reading and before writing
/// (to wait for another connection's writes, such as an index build).
pub fn relink_with(
    store: &mut Store,
    before_write: &mut dyn FnMut() -> Result<()>,
) -> Result<(bool, Unreadable)> {
    let now = links::current_state(store, LINK_LOGIC_VERSION)?;
    if links::stored_state(store)? == Some(now) {
        return Ok((false, Unreadable::default()));
    }
    let unreadable = relink_full_with(store, before_write)?;
    Ok((true, unreadable))
}

/// Recomputes threads and regressions from scratch, whatever the link state.
pub fn relink_full(store: &mut Store) -> Result<Unreadable> {
    relink_full_with(store, &mut || Ok(()))
}

fn relink_full_with(
    store: &mut Store,
    before_write: &mut dyn FnMut() -> Result<()>,
) -> Result<Unreadable> {
    let state = links::current_state(store, LINK_LOGIC_VERSION)?;
    let (db_ids, sk, seeds) = skeleton(store)?;
    let path = std::path::PathBuf::from(store.path());
    let in_memory = store.is_in_memory();
    let unreadable = std::thread::scope(|scope| -> Result<Unreadable> {
        let (sk, db_ids, seeds) = (&sk, &db_ids, &seeds);
        let (plan, write) = if in_memory {
            let plan = plan(store, db_ids, sk, seeds)?;
            before_write()?;
            (plan, links::begin_relink(store, db_ids, sk)?)
        } else {
            let reading = scope.spawn(move || plan(&Store::open(&path)?, db_ids, sk, seeds));
            let write = before_write().and_then(|()| links::begin_relink(store, db_ids, sk));
            let plan = reading.join().map_err(|_| Error::Message {
                origin: "relink".to_string(),
                reason: "the thread reading the regressions' messages panicked".to_string(),
            })?;
            // A failed write rolls back when dropped.
            (plan?, write?)
        };
        let keys: Vec<&str> = plan.order.iter().map(|(_, c, _)| c.as_str()).collect();
        write.finish(&plan.input.messages, &keys, |j| {
            plan.regression(plan.order[j].2)
        })?;
        Ok(plan.unreadable)
    })?;
    links::set_state(store, &state)?;
    Ok(unreadable)
}

/// Every stored message threaded from its headers: the `messages.id` of
/// each (ascending), the skeleton, and which are seeds by kind or subject.
fn skeleton(store: &Store) -> Result<(Vec<i64>, Skeleton, Vec<bool>)> {
    let mut b = SkeletonBuilder::default();
    let mut db_ids = Vec::new();
    let mut kinds: Vec<Kind> = Vec::new();
    links::for_each_header(store, |id, row, refs, kind| {
        db_ids.push(id);
        kinds.push(kind);
        b.add(row, refs.split_ascii_whitespace());
    })?;
    let mut pass = b.link();
    let mut seeds = vec![false; db_ids.len()];
    let at = |id: i64| db_ids.binary_search(&id).ok();
    links::for_each_subject(store, |id, subject| {
        if let Some(i) = at(id) {
            pass.subject(i, subject);
            seeds[i] = select::seeds(kinds[i], subject);
        }
    })?;
    Ok((db_ids, pass.finish(), seeds))
}

/// The messages a regression can involve (indices into the skeleton).
fn chosen(store: &Store, db_ids: &[i64], sk: &Skeleton, seeds: &[bool]) -> Result<Vec<usize>> {
    let at = |id: i64| db_ids.binary_search(&id).ok();
    let mut sel = select::Selection::new(sk);
    for (i, &s) in seeds.iter().enumerate() {
        if s {
            sel.seed(i);
        }
    }
    links::for_each_subject_report(store, |id| {
        if let Some(i) = at(id) {
            sel.seed(i);
        }
    })?;
    sel.members(sk);
    links::for_each_trailer(store, |id, t| {
        if let Some(i) = at(id) {
            sel.trailer(i, t);
        }
    })?;
    links::for_each_cited_link(store, |id, link| {
        if let Some(i) = at(id) {
            sel.cited(i, link);
        }
    })?;
    let first = sel.finish(sk);
    // The other postings of the chosen threads' patches (by title or patch
    // id) and the messages that say where they landed, with their threads.
    let ids: Vec<i64> = first
        .iter()
        .filter_map(|&i| db_ids.get(i).copied())
        .collect();
    let keys = links::patch_keys_of(store, &ids)?;
    let more = links::messages_with_patch_keys(store, &keys)?;
    let extra: Vec<usize> = more.iter().filter_map(|&id| at(id)).collect();
    Ok(select::with_threads(sk, first, &extra))
}

/// Loads the messages whose `messages.id` is in `keep` (ascending), report
/// extractions decoded and prepared a batch at a time, every other message
/// assembled from the per-kind tables, and the marks.
pub fn load_input_of(store: &Store, keep: Option<&[i64]>) -> Result<(LinkInput, Unreadable)> {
    let mut messages = links::load_messages(store, keep)?;
    let pos: HashMap<i64, usize> = messages
        .iter()
        .enumerate()
        .map(|(i, m)| (m.db_id, i))
        .collect();
    let mut unreadable = Unreadable::default();
    let mut batch: Vec<(usize, String)> = Vec::with_capacity(REPORT_BATCH);
    let prepare = |batch: &mut Vec<(usize, String)>,
                   messages: &mut [LinkMessage],
                   unreadable: &mut Unreadable| {
        let work: Vec<(usize, String, LinkMessage)> = std::mem::take(batch)
            .into_iter()
            .filter_map(|(i, j)| Some((i, j, messages.get(i)?.clone())))
            .collect();
        let done: Vec<(usize, std::result::Result<LinkMessage, String>)> = work
            .into_par_iter()
            .map(|(i, j, mut m)| match links::decode_extraction(&j) {
                Ok(ex) => {
                    m.extraction = ex;
                    link::facts::prepare(&mut m);
                    (i, Ok(m))
                }
                Err(e) => (i, Err(format!("{}: {e}", m.message_id))),
            })
            .collect();
        for (i, r) in done {
            match r {
                Ok(m) => {
                    if let Some(slot) = messages.get_mut(i) {
                        *slot = m;
                    }
                }
                Err(e) => unreadable.extractions.push(e),
            }
        }
    };
    links::for_each_report_extraction(store, &pos, |i, json| {
        batch.push((i, json));
        if batch.len() >= REPORT_BATCH {
            prepare(&mut batch, &mut messages, &mut unreadable);
        }
    })?;
    prepare(&mut batch, &mut messages, &mut unreadable);
    let need: Vec<bool> = messages
        .iter()
        .map(|m| !matches!(m.kind, Kind::PerfReport | Kind::FunctionalReport))
        .collect();
    links::load_parts(store, &pos, &need, &mut messages)?;
    for (m, &n) in messages.iter_mut().zip(&need) {
        if n {
            link::facts::prepare(m);
        }
    }
    let (marks, unknown) = links::load_marks(store)?;
    unreadable.marks = unknown;
    Ok((LinkInput { messages, marks }, unreadable))
}

/// What the regressions are made from: the messages a regression can
/// involve, one draft per regression and the order they are written in.
struct Plan {
    input: LinkInput,
    linked: Linked,
    /// (first date, culprit, draft index), sorted.
    order: Vec<(i64, String, usize)>,
    unreadable: Unreadable,
}

impl Plan {
    /// The regression of draft `k`, finished.
    fn regression(&self, k: usize) -> Regression {
        link::finish::finish(
            &self.linked.drafts[k],
            &self.input.messages,
            &self.input.marks,
            &self.linked.patches,
        )
    }
}

/// Reads the messages of the threads a regression can involve and drafts
/// the regressions, in the order `attach::regressions` gives them.
fn plan(store: &Store, db_ids: &[i64], sk: &Skeleton, seeds: &[bool]) -> Result<Plan> {
    let keep = chosen(store, db_ids, sk, seeds)?;
    let ids: Vec<i64> = keep
        .iter()
        .filter_map(|&i| db_ids.get(i).copied())
        .collect();
    let (input, unreadable) = load_input_of(store, Some(&ids))?;
    // Parents and depths from the threading of all messages; a parent lies in
    // the same thread, hence among the loaded messages.
    let at: HashMap<u32, usize> = input
        .messages
        .iter()
        .enumerate()
        .filter_map(|(k, m)| {
            let i = db_ids.binary_search(&m.db_id).ok()?;
            Some((*sk.container.get(i)?, k))
        })
        .collect();
    let (parent, depth): (Vec<Option<usize>>, Vec<u32>) = input
        .messages
        .iter()
        .map(|m| match db_ids.binary_search(&m.db_id) {
            Ok(i) => (
                sk.parent
                    .get(i)
                    .copied()
                    .flatten()
                    .and_then(|p| at.get(&p).copied()),
                sk.depth.get(i).copied().unwrap_or(0),
            ),
            Err(_) => (None, 0),
        })
        .unzip();
    drop(at);
    let linked = attach::drafts(&input.messages, &parent, &depth);
    drop((parent, depth));
    let mut plan = Plan {
        input,
        linked,
        order: Vec::new(),
        unreadable,
    };
    // The order of `attach::regressions` (a stable sort: draft order breaks
    // ties), from one finish of each; each is finished again when written,
    // so that no more than one regression is held at a time.
    let mut order: Vec<(i64, String, usize)> = (0..plan.linked.drafts.len())
        .map(|k| {
            let r = plan.regression(k);
            (r.facts.first_unix.unwrap_or(i64::MAX), r.culprit.commit, k)
        })
        .collect();
    order.sort();
    plan.order = order;
    Ok(plan)
}

/// The marks, for callers that show them.
pub fn marks(store: &Store) -> Result<Vec<Mark>> {
    Ok(links::load_marks(store)?.0)
}
