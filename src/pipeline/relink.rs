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
//! An ingest leaves the signals of all but the robot's test reports
//! unread (reading
//! sentences with the phrase book was a large part of its time, for the
//! few messages a regression involves). The linker reads signals only
//! through [`LinkMessage::signals`], which marks an unread message as
//! asked for; the messages a link asked for are read here from their
//! stored bodies ([`crate::extract::signals_of`]) and the link made again
//! (or, when only the finishing of histories asked, the histories finished
//! again) until it asks for none (`link_reading_signals`). The answer is
//! the one with every signal read, and the relink stores what it read, once.
//!
//! The thread rows need only the skeleton: this connection writes them
//! while a second one reads what the regressions need (WAL: it reads the
//! snapshot before this transaction, whose tables it does not read).
//!
//! An update after an ingest relinks only what the new mail can change
//! ([`relink_incremental`]); the answers equal a full link's (the property
//! is tested over random splits of the corpus and of real archives).
//!
//! Past [`STEPS_FROM`] messages the skeleton and the chosen threads alone
//! would outgrow a few hundred megabytes (about 0.5 KB a message), so a
//! link of everything goes in steps ([`relink_full_in_steps`]): the first
//! [`STEP`] messages linked as if nothing else were stored, then each next
//! [`STEP`] as an update. Its memory is a step's, its answers a link at
//! once's; it takes a few times longer (benches/README.md, "Linking and
//! relinking").

use std::collections::HashMap;

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::link::compose::Histories;
use crate::link::thread::{self, HeaderRow, Skeleton, SkeletonBuilder};
use crate::link::trees::TreeCommit;
use crate::link::{self, LINK_LOGIC_VERSION, LinkInput, LinkMessage, LinkOutput, select};
use crate::model::Kind;
use crate::model::history::{Mark, Regression};
use crate::store::links::RelinkWrite;
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
    /// Messages whose signals an ingest left unread and whose stored body
    /// cannot be read now (Message-ID: reason): they count as saying
    /// nothing, and the next link tries again.
    pub bodies: Vec<String>,
}

impl Unreadable {
    /// True when everything was read.
    pub fn is_empty(&self) -> bool {
        self.extractions.is_empty() && self.marks.is_empty() && self.bodies.is_empty()
    }
}

/// Signals a link read of messages an ingest left them unread in (message
/// row id and its signals, [`crate::extract::signals_of`]), for the relink
/// to store with its histories.
pub type SignalsRead = Vec<(i64, Vec<crate::model::Signal>)>;

/// Messages whose bodies are read back for their signals at a time.
const SIGNALS_BATCH: usize = 512;

/// What a relink did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Relinked {
    /// Whether anything was relinked, and how.
    pub how: How,
    /// Messages threaded again.
    pub messages: u64,
    /// Threads those messages make.
    pub threads: u64,
    /// Regressions computed again.
    pub regressions: u64,
    /// Why an update fell back to relinking everything, if it did.
    pub fell_back: Option<String>,
    /// How a link of everything went in steps ([`relink_full_in_steps`]),
    /// if it did.
    pub steps: Option<Steps>,
    /// Seconds it took.
    pub seconds: f64,
}

/// The steps of a link of everything in steps.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Steps {
    /// How many.
    pub count: u64,
    /// Messages each adds.
    pub size: u64,
    /// Why steps linked everything up to them instead of an update.
    pub gave_up: Vec<String>,
}

/// How a relink went.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum How {
    /// Nothing was stored since the last link: nothing to do.
    #[default]
    Nothing,
    /// Only what the new mail (and marks) can change was relinked.
    Incremental,
    /// Everything was relinked.
    Full,
}

/// Largest share of all messages an update relinks on its own; past it a
/// full relink is about as cheap and is done instead.
pub const INCREMENTAL_SHARE: f64 = 0.5;

/// Messages a link key may hold for an update to follow it: a key shared
/// by more (a title every stable backport repeats, a common commit prefix)
/// makes the update fall back to a full relink, which needs no key.
pub const KEY_CAP: i64 = 20_000;

/// Brings threads and regressions up to date with the stored messages,
/// extractions and marks: nothing (four index-only aggregate queries) when
/// nothing was stored since the last link by this logic version; only
/// what the new messages and marks can change when the last link was by
/// this logic version and nothing was removed since (see
/// [`relink_incremental`]); everything otherwise. Returns what it did, and
/// what it could not read.
pub fn relink(store: &mut Store) -> Result<(Relinked, Unreadable)> {
    relink_with(store, &mut || Ok(()))
}

/// What the stored histories have not taken in yet: messages and marks
/// stored since they were last linked (an ingest still running, or one
/// stopped between storing and linking), or `None` when they are current.
/// A linker of another version counts as nothing pending: the next ingest
/// relinks for it.
pub fn unlinked(store: &Store) -> Result<Option<(i64, i64)>> {
    let now = links::current_state(store, LINK_LOGIC_VERSION)?;
    let Some(stored) = links::stored_state(store)? else {
        return Ok((now.messages > 0).then_some((now.messages, now.marks)));
    };
    if stored.logic_version != LINK_LOGIC_VERSION || stored == now {
        return Ok(None);
    }
    let messages = (now.messages - stored.messages).max(0);
    let marks = (now.marks - stored.marks).max(0);
    Ok((messages > 0 || marks > 0).then_some((messages, marks)))
}

/// [`relink`] that calls `before_write` after reading and before writing
/// (to wait for another connection's writes, such as an index build).
pub fn relink_with(
    store: &mut Store,
    before_write: &mut dyn FnMut() -> Result<()>,
) -> Result<(Relinked, Unreadable)> {
    let started = std::time::Instant::now();
    // A tree sync that stored new commits: they may fix any history.
    if let Some(why) = crate::store::trees::pending(store)? {
        let (mut done, unreadable) = full(store, before_write)?;
        done.fell_back = Some(why);
        done.seconds = started.elapsed().as_secs_f64();
        return Ok((done, unreadable));
    }
    let now = links::current_state(store, LINK_LOGIC_VERSION)?;
    let stored = links::stored_state(store)?;
    let tree_changed = crate::store::trees::changed(store)?;
    // Messages a better copy replaced, with the same linking facts.
    let changed = links::changed_messages(store)?;
    if stored == Some(now) && tree_changed.is_empty() && changed.is_empty() {
        return Ok((Relinked::default(), Unreadable::default()));
    }
    // Damaged summaries are not looked for here (reading every stored one
    // would cost an update as much as the histories stored): readers name
    // them, and `regtrack relink` (`relink_repairing`) rebuilds them.
    let mut fell_back = None;
    // The histories the commits a tree sync changed can reach.
    let tree_regs = if tree_changed.is_empty() || fell_back.is_some() {
        Vec::new()
    } else {
        match tree_regressions(store, &tree_changed)? {
            Ok(r) => r,
            Err(why) => {
                fell_back = Some(why);
                Vec::new()
            }
        }
    };
    if let Some(old) = stored
        && old.logic_version == now.logic_version
        && fell_back.is_none()
    {
        // Only additions can be followed: messages and marks stored after
        // the last link, none removed.
        let added = links::messages_after(store, old.max_message)?;
        let only_added = now.messages - old.messages == added.len() as i64
            && now.marks >= old.marks
            && now.max_mark >= old.max_mark;
        if only_added {
            match relink_incremental(
                store,
                &old,
                &now,
                &added,
                &changed,
                &tree_regs,
                None,
                before_write,
            )? {
                Ok((mut done, unreadable)) => {
                    crate::store::trees::clear_changed(store)?;
                    done.seconds = started.elapsed().as_secs_f64();
                    return Ok((done, unreadable));
                }
                Err(why) => fell_back = Some(why),
            }
        } else {
            fell_back = Some("messages were removed since the last link".into());
        }
    }
    let (mut done, unreadable) = full(store, before_write)?;
    done.fell_back = fell_back;
    done.seconds = started.elapsed().as_secs_f64();
    Ok((done, unreadable))
}

/// Why stored regressions must be rebuilt: the ids of those whose summary
/// does not decode (`None` when every one does).
fn undecodable_reason(store: &Store) -> Result<Option<String>> {
    let bad = crate::store::history::undecodable(store)?;
    if bad.is_empty() {
        return Ok(None);
    }
    let ids: Vec<String> = bad.iter().take(10).map(|b| b.id.to_string()).collect();
    let more = if bad.len() > ids.len() { ", ..." } else { "" };
    Ok(Some(format!(
        "{} stored regression{} did not decode (id {}{more})",
        bad.len(),
        if bad.len() == 1 { "" } else { "s" },
        ids.join(", ")
    )))
}

/// [`relink`], and a full relink even when nothing was stored since the
/// last link if a stored regression's summary does not decode (it is
/// rebuilt; [`Relinked::fell_back`] says which).
pub fn relink_repairing(store: &mut Store) -> Result<(Relinked, Unreadable)> {
    let started = std::time::Instant::now();
    match undecodable_reason(store)? {
        None => relink(store),
        Some(why) => {
            let (mut done, unreadable) = full(store, &mut || Ok(()))?;
            done.fell_back = Some(why);
            done.seconds = started.elapsed().as_secs_f64();
            Ok((done, unreadable))
        }
    }
}

/// Recomputes threads and regressions from scratch, whatever the link state.
pub fn relink_full(store: &mut Store) -> Result<Unreadable> {
    Ok(relink_full_counted(store)?.1)
}

/// [`relink_full`], saying what it relinked.
pub fn relink_full_counted(store: &mut Store) -> Result<(Relinked, Unreadable)> {
    let started = std::time::Instant::now();
    let (mut done, u) = full(store, &mut || Ok(()))?;
    done.seconds = started.elapsed().as_secs_f64();
    Ok((done, u))
}

/// Messages past which a link of everything goes in steps
/// ([`relink_full_in_steps`] of [`STEP`]): a link of them all at once
/// would hold more than about 300 MB.
pub const STEPS_FROM: i64 = 600_000;

/// Messages each step of a link of everything adds, past [`STEPS_FROM`].
pub const STEP: usize = 150_000;

/// A link of everything: at once, or in steps of [`STEP`] messages past
/// [`STEPS_FROM`].
fn full(
    store: &mut Store,
    before_write: &mut dyn FnMut() -> Result<()>,
) -> Result<(Relinked, Unreadable)> {
    let n = links::current_state(store, LINK_LOGIC_VERSION)?.messages;
    if n > STEPS_FROM {
        relink_full_in_steps(store, STEP, before_write)
    } else {
        relink_full_with(store, None, before_write)
    }
}

/// Links everything from scratch a step of `step` messages at a time, so
/// that memory is bounded by a step's reach and not by the archive: the
/// first `step` messages (by `messages.id`) are linked as if nothing else
/// were stored ([`links::set_horizon`]), then each next `step` messages as
/// an update ([`relink_incremental`]) of what is linked so far. An update's
/// answers equal a full link's, so the histories are those of a link of
/// everything at once (tested). A step whose update gives up (a key shared
/// by more than [`KEY_CAP`] messages, a reach over four steps) is a link of
/// everything up to it instead, said in [`Relinked::steps`]. All steps are
/// one write transaction: readers see the histories as they were until the
/// last step commits, and a link stopped half way keeps none of its steps.
pub fn relink_full_in_steps(
    store: &mut Store,
    step: usize,
    before_write: &mut dyn FnMut() -> Result<()>,
) -> Result<(Relinked, Unreadable)> {
    let ends = links::step_ends(store, step)?;
    if ends.len() <= 1 {
        return relink_full_with(store, None, before_write);
    }
    // One transaction holds every step, so that readers see the histories
    // as they were until all are written, and a link stopped half way
    // leaves them so. What `before_write` waits for (an index build on
    // another connection) writes too, so it goes first.
    before_write()?;
    store.begin_write("begin a link in steps")?;
    let stepped = steps(store, &ends, step).and_then(|done| {
        links::set_horizon(store, None)?;
        let state = links::current_state(store, LINK_LOGIC_VERSION)?;
        links::set_state(store, &state)?;
        Ok((done, state))
    });
    if stepped.is_err() {
        // Everything is seen again, and nothing of the steps is kept.
        let _ = links::set_horizon(store, None);
    }
    store.end_write(stepped.is_ok(), "commit a link in steps")?;
    let ((mut unreadable, gave_up), state) = stepped?;
    unreadable.extractions.sort();
    unreadable.extractions.dedup();
    unreadable.marks.sort();
    unreadable.marks.dedup();
    let (threads, regressions) = links::counts(store)?;
    Ok((
        Relinked {
            how: How::Full,
            messages: state.messages as u64,
            threads,
            regressions,
            steps: Some(Steps {
                count: ends.len() as u64,
                size: step as u64,
                gave_up,
            }),
            ..Relinked::default()
        },
        unreadable,
    ))
}

/// The steps of [`relink_full_in_steps`], ending at the messages `ends`:
/// what could not be read, and why steps were links of everything so far.
fn steps(store: &mut Store, ends: &[i64], step: usize) -> Result<(Unreadable, Vec<String>)> {
    let mut unreadable = Unreadable::default();
    let mut gave_up = Vec::new();
    let mut take = |u: Unreadable| {
        unreadable.extractions.extend(u.extractions);
        unreadable.marks.extend(u.marks);
    };
    // The marks are all in the first step, and a duplicate mark joins two
    // histories that nothing else may tie: a step relinks the marked
    // culprits' regressions with whatever it reaches.
    let marked = links::mark_culprits_after(store, 0)?;
    for (k, &end) in ends.iter().enumerate() {
        links::set_horizon(store, Some(end))?;
        // The first step links everything up to its end; each next one is
        // an update, unless it gives up.
        let old = match k {
            0 => None,
            _ => links::stored_state(store)?,
        };
        if let Some(old) = &old {
            let now = links::current_state(store, LINK_LOGIC_VERSION)?;
            let added = links::messages_after(store, old.max_message)?;
            let cap = step.saturating_mul(4).max(2_000);
            let also = regressions_of_culprits(store, &marked)?;
            match relink_incremental(store, old, &now, &added, &[], &also, Some(cap), &mut || {
                Ok(())
            })? {
                Ok((_, u)) => {
                    take(u);
                    continue;
                }
                Err(why) => gave_up.push(format!(
                    "the step to message {end} linked everything up to it ({why})"
                )),
            }
        }
        let (_, u) = relink_full_with(store, Some(end), &mut || Ok(()))?;
        take(u);
    }
    Ok((unreadable, gave_up))
}

/// A link of everything at once (of the messages up to `horizon`, when
/// set, as [`links::set_horizon`] on `store` shows them).
fn relink_full_with(
    store: &mut Store,
    horizon: Option<i64>,
    before_write: &mut dyn FnMut() -> Result<()>,
) -> Result<(Relinked, Unreadable)> {
    let state = links::current_state(store, LINK_LOGIC_VERSION)?;
    let (db_ids, sk, seeds) = skeleton(store, None)?;
    let path = std::path::PathBuf::from(store.path());
    let in_memory = store.is_in_memory();
    let (regressions, unreadable) = std::thread::scope(|scope| -> Result<(usize, Unreadable)> {
        let (sk, db_ids, seeds) = (&sk, &db_ids, &seeds);
        let (mut plan, write) = if in_memory {
            let plan = plan(store, None, db_ids, sk, seeds)?;
            before_write()?;
            (plan, links::begin_relink(store, db_ids, sk)?)
        } else {
            let reading = scope.spawn(move || {
                let reader = Store::open(&path)?;
                links::set_horizon(&reader, horizon)?;
                plan(&reader, None, db_ids, sk, seeds)
            });
            let write = before_write().and_then(|()| links::begin_relink(store, db_ids, sk));
            let plan = reading.join().map_err(|_| Error::Message {
                origin: "relink".to_string(),
                reason: "the thread reading the regressions' messages panicked".to_string(),
            })?;
            // A failed write rolls back when dropped.
            (plan?, write?)
        };
        let n = write_plan(write, &mut plan)?;
        Ok((n, plan.unreadable))
    })?;
    links::set_state(store, &state)?;
    crate::store::trees::clear_pending(store)?;
    crate::store::trees::clear_changed(store)?;
    links::clear_changed(store)?;
    let threads = distinct_roots(&sk);
    Ok((
        Relinked {
            how: How::Full,
            messages: db_ids.len() as u64,
            threads,
            regressions: regressions as u64,
            ..Relinked::default()
        },
        unreadable,
    ))
}

fn distinct_roots(sk: &Skeleton) -> u64 {
    let mut roots: Vec<u32> = sk.root.clone();
    roots.sort_unstable();
    roots.dedup();
    roots.len() as u64
}

/// An update: relinks only what the new messages (`added`, stored after
/// the last link `old`), the new marks and the tree commits a sync changed
/// (`tree_regs`: the stored regressions they reach, found by
/// `tree_regressions`; in a link in steps, those of marked culprits) can
/// change, and leaves every other thread and regression as stored.
///
/// A full link threads every message, chooses the whole threads a
/// regression can involve ([`select`]: the first step, threads of seeds, of
/// pointers into a seed's thread, of fixes the robot reported; then the
/// threads of the other postings and landings of their patches and of
/// their reports' culprits) and links
/// the chosen messages ([`crate::link::attach`]). Every rule of attachment and patch
/// identity relates two chosen messages through a shared thread or a shared
/// link key ([`crate::link::keys`]); new mail only adds, so a message once
/// chosen stays chosen. What an update can change is therefore found from
/// the store's indexes:
///
/// 1. **Threads**: the whole threads the new messages join
///    (through the `threads` rows of stored messages and `thread_ids`,
///    which maps every id the last threading saw only referenced to its
///    thread's root, and
///    through subjects for mail without References). Only these are
///    threaded again; no other message's thread, parent or depth can move.
/// 2. **Choice**: the touched threads are chosen afresh, next to the
///    threads their messages point to (their reasons to be chosen) and the
///    threads pointing into them (which a new report makes chosen); the
///    first step's choice of any other thread cannot change (its reasons
///    lie in it and in the threads it points to, none touched). A newly
///    chosen patch brings the other postings and landings sharing its title
///    or patch id, wherever they are, and a newly chosen robot report those
///    titled like its culprit (the culprit's own posting, a pull request
///    that dropped it); a touched message becomes another posting or
///    landing when it shares one with a chosen patch or report. The choice
///    of everything else is the one stored (`link_chosen`).
/// 3. **Histories**: from the messages whose choice or thread changed (and
///    the regressions of new marks: the marked culprit's, a duplicate
///    mark's target's, and for a withdrawal those of the mark it
///    withdraws; a history joined by a duplicate is one stored regression,
///    so later mail reaching either culprit reaches both), every chosen message reachable through
///    shared threads, link keys, pointers and stored regressions is
///    relinked together, and the stored regressions holding any of them are
///    replaced. A chosen message outside this closure shares no thread and
///    no key with it, so its regression's inputs did not change. A pull
///    request or for-next announcement stored before lists many patches;
///    what it says of the ones outside the closure is stored already, so
///    only a new one's keys are followed.
///
/// A message whose stored copy a better one replaced (`changed`, with the
/// same headers, kind and linking facts, see `store::messages`) keeps its
/// thread and its choice; when chosen, it starts step 3 as a new message
/// does, so every history its new content can change is relinked.
///
/// A key held by more than [`KEY_CAP`] messages, or a closure over `cap`
/// messages (by default [`INCREMENTAL_SHARE`] of all messages), makes a
/// full relink cheaper: the update says so and does one (`Err` with the
/// reason).
#[allow(clippy::too_many_arguments)]
pub fn relink_incremental(
    store: &mut Store,
    old: &links::LinkState,
    now: &links::LinkState,
    added: &[i64],
    changed: &[i64],
    tree_regs: &[i64],
    cap: Option<usize>,
    before_write: &mut dyn FnMut() -> Result<()>,
) -> Result<std::result::Result<(Relinked, Unreadable), String>> {
    let cap = cap.unwrap_or(((now.messages as f64) * INCREMENTAL_SHARE).max(2_000.0) as usize);
    // The regressions new marks name.
    let culprits = links::mark_culprits_after(store, old.max_mark)?;
    let mut marked_regs = regressions_of_culprits(store, &culprits)?;
    marked_regs.extend_from_slice(tree_regs);
    marked_regs.sort_unstable();
    marked_regs.dedup();
    let marked = links::members_of(store, &marked_regs)?;

    // 1. The threads the new mail touches.
    let touched = match thread_closure(store, added.to_vec(), cap)? {
        Ok(c) => c,
        Err(why) => return Ok(Err(why)),
    };
    // 2. The choice, afresh for the touched threads.
    let choice = match choose_again(store, &touched.messages, cap)? {
        Ok(c) => c,
        Err(why) => return Ok(Err(why)),
    };
    let mut start: Vec<i64> = choice.changed.clone();
    start.extend(marked.iter().copied());
    let replaced_chosen = links::chosen_flags(store, changed)?;
    start.extend(changed.iter().filter(|m| replaced_chosen.contains_key(m)));
    // Their keys are followed as a new message's are.
    let mut added: Vec<i64> = added.to_vec();
    added.extend(changed.iter().copied());
    added.sort_unstable();
    added.dedup();
    let added = &added[..];
    if start.is_empty() {
        // Rethreading is all there is to do.
        let (t_ids, t_sk, _) = skeleton(store, Some(&touched.messages))?;
        before_write()?;
        let write =
            links::begin_partial_relink(store, &t_ids, &t_sk, &touched.old_roots, Vec::new())?;
        write.write_chosen(&[])?;
        write.finish(&[], &[], |_| Regression::default())?;
        links::set_state(store, now)?;
        links::clear_changed(store)?;
        return Ok(Ok((
            Relinked {
                how: How::Incremental,
                messages: t_ids.len() as u64,
                threads: distinct_roots(&t_sk),
                regressions: 0,
                ..Relinked::default()
            },
            Unreadable::default(),
        )));
    }
    // 3. The chosen messages the changes reach.
    let reach = match reach(store, &choice, start, added, cap)? {
        Ok(r) => r,
        Err(why) => return Ok(Err(why)),
    };
    let mut universe: Vec<i64> = touched.messages.clone();
    universe.extend(reach.messages.iter().copied());
    universe.sort_unstable();
    universe.dedup();
    if universe.len() > cap {
        return Ok(Err(format!(
            "the new mail reaches more than {cap} messages"
        )));
    }
    let mut old_roots: Vec<String> = touched.old_roots.clone();
    let outside: Vec<i64> = reach
        .messages
        .iter()
        .copied()
        .filter(|m| touched.messages.binary_search(m).is_err())
        .collect();
    old_roots.extend(links::roots_of_messages(store, &outside)?);
    old_roots.sort_unstable();
    old_roots.dedup();
    let mut replaced: Vec<i64> = reach.regressions.clone();
    replaced.extend(marked_regs.iter().copied());
    replaced.extend(links::regressions_of(store, &touched.messages)?);
    replaced.sort_unstable();
    replaced.dedup();

    let (db_ids, sk, _) = skeleton(store, Some(&universe))?;
    let keep: Vec<usize> = reach
        .messages
        .iter()
        .filter_map(|id| db_ids.binary_search(id).ok())
        .collect();
    let first: Vec<bool> = keep
        .iter()
        .map(|&i| choice.first_of(db_ids[i], &reach.stored_first))
        .collect();
    let mut plan = plan_of(store, &db_ids, &sk, &keep, &first)?;
    before_write()?;
    let write = links::begin_partial_relink(store, &db_ids, &sk, &old_roots, replaced)?;
    let n = write_plan(write, &mut plan)?;
    links::set_state(store, now)?;
    links::clear_changed(store)?;
    Ok(Ok((
        Relinked {
            how: How::Incremental,
            messages: db_ids.len() as u64,
            threads: distinct_roots(&sk),
            regressions: n as u64,
            ..Relinked::default()
        },
        plan.unreadable,
    )))
}

/// The stored regressions whose culprit is one of `culprits` (any
/// abbreviation); none asked, none read.
fn regressions_of_culprits(store: &Store, culprits: &[String]) -> Result<Vec<i64>> {
    if culprits.is_empty() {
        return Ok(Vec::new());
    }
    Ok(links::regression_culprits(store)?
        .into_iter()
        .filter(|(_, c)| {
            culprits
                .iter()
                .any(|m| crate::link::culprit::same_commit(c, m))
        })
        .map(|(i, _)| i)
        .collect())
}

/// The stored regressions the tree commits `oids` (changed by a sync) can
/// change: those holding a message that shares a link key with one of them
/// (its id, the ids it reverts, back-ports or fixes, its title, a message
/// its `Closes:`/`Link:` names, or that message itself), those with a patch
/// its author posted within the patch-id window (it may carry that patch
/// under another title), and those whose mark names one as the fix. A fix
/// reaches a history through one of these or not at all
/// ([`crate::link::trees`] matches by nothing else), and a culprit found in
/// a tree through its id. `Err` (a full link is cheaper)
/// when a key is shared by more than [`KEY_CAP`] messages.
fn tree_regressions(
    store: &Store,
    oids: &[String],
) -> Result<std::result::Result<Vec<i64>, String>> {
    let keys = crate::store::trees::commit_keys(store, oids)?;
    let counts = links::key_counts(store, &keys)?;
    if let Some((k, n)) = counts.iter().find(|(_, n)| **n > KEY_CAP) {
        return Ok(Err(format!(
            "a changed tree commit's key {k} is shared by {n} messages"
        )));
    }
    let mut msgs = links::messages_with_keys(store, &keys)?;
    let targets: Vec<&str> = keys.iter().filter_map(|k| k.strip_prefix("m:")).collect();
    msgs.extend(links::rows_of_message_ids(store, &targets)?);
    msgs.sort_unstable();
    msgs.dedup();
    let mut regs = links::regressions_of(store, &msgs)?;
    // Patches their authors posted within the patch-id window
    // (`pipeline::trees::PatchIds`): a commit may carry one under another
    // title.
    let authors = crate::store::trees::authors_of(store, oids)?;
    let mut emails: Vec<String> = authors.iter().map(|(e, _)| e.to_lowercase()).collect();
    emails.sort();
    emails.dedup();
    let (before, after) = crate::pipeline::trees::PATCH_ID_WINDOW;
    for (reg, email, date) in links::patches_by(store, &emails)? {
        if authors.iter().any(|(e, t)| {
            e.eq_ignore_ascii_case(&email) && *t >= date - before && *t <= date + after
        }) {
            regs.push(reg);
        }
    }
    // Marks naming one of them as the fix.
    let marked: Vec<String> = links::load_marks(store)?
        .0
        .into_iter()
        .filter(|m| {
            m.fix
                .as_deref()
                .is_some_and(|f| oids.iter().any(|o| crate::link::culprit::same_commit(f, o)))
        })
        .map(|m| m.culprit)
        .collect();
    regs.extend(regressions_of_culprits(store, &marked)?);
    regs.sort_unstable();
    regs.dedup();
    Ok(Ok(regs))
}

/// The choice of messages after an update, where it can differ from the
/// stored one (see [`relink_incremental`], step 2).
struct Choice {
    /// The touched threads, the threads they point to and those pointing
    /// into them, ascending.
    universe: Vec<i64>,
    /// Of `universe`, the chosen ones, each with whether the first step
    /// chose it.
    chosen_here: HashMap<i64, bool>,
    /// Messages outside `universe` chosen now and not before (whole threads).
    chosen_elsewhere: std::collections::HashSet<i64>,
    /// The chosen messages whose choice or thread changed (ascending).
    changed: Vec<i64>,
}

impl Choice {
    /// Whether the first step chose `id` (known to be chosen).
    fn first_of(&self, id: i64, stored_first: &HashMap<i64, bool>) -> bool {
        match self.chosen_here.get(&id) {
            Some(&f) => f,
            None => stored_first.get(&id).copied().unwrap_or(false),
        }
    }
}

/// Step 2 of [`relink_incremental`] for the touched messages `touched`
/// (whole threads, ascending).
fn choose_again(
    store: &Store,
    touched: &[i64],
    cap: usize,
) -> Result<std::result::Result<Choice, String>> {
    use std::collections::HashSet;
    // The threads the touched messages point to (their choice is stored),
    // and those pointing into them, a chain of links at a time
    // ([`select::CHAIN_STEPS`]): a new report makes chosen what points at
    // what points at it.
    let keys = links::keys_of(store, touched)?;
    let targets: Vec<&str> = keys.iter().filter_map(|k| k.strip_prefix("m:")).collect();
    let near = links::rows_of_message_ids(store, &targets)?;
    let mut near_roots = links::roots_of_messages(store, &near)?;
    near_roots.sort_unstable();
    near_roots.dedup();
    let mut universe: Vec<i64> = touched.to_vec();
    universe.extend(links::messages_in_roots(store, &near_roots)?);
    universe.sort_unstable();
    universe.dedup();
    let mut frontier: Vec<i64> = touched.to_vec();
    // What points into a seed's thread, then the chain's steps.
    for _ in 0..=select::CHAIN_STEPS {
        let own: Vec<String> = links::thread_headers_of(store, &frontier)?
            .iter()
            .map(|(mid, _, _)| crate::link::keys::message(mid))
            .collect();
        let mut pointing = links::messages_with_keys(store, &own)?;
        pointing.retain(|m| universe.binary_search(m).is_err());
        if pointing.is_empty() {
            break;
        }
        let mut roots = links::roots_of_messages(store, &pointing)?;
        roots.sort_unstable();
        roots.dedup();
        frontier = links::messages_in_roots(store, &roots)?;
        frontier.retain(|m| universe.binary_search(m).is_err());
        frontier.sort_unstable();
        frontier.dedup();
        universe.extend(frontier.iter().copied());
        universe.sort_unstable();
        universe.dedup();
        if universe.len() > cap {
            break;
        }
    }
    if universe.len() > cap {
        return Ok(Err(format!(
            "the new mail reaches more than {cap} messages"
        )));
    }
    let (ids, sk, seeds) = skeleton(store, Some(&universe))?;
    let stored = links::chosen_flags(store, &ids)?;
    let is_touched = |id: i64| touched.binary_search(&id).is_ok();
    // The first step here, and what it had chosen before (a thread's
    // reasons outside these threads are unchanged; a chain of links
    // continues from a thread chosen before).
    let mut from = seeds.clone();
    for (i, id) in ids.iter().enumerate() {
        if stored.get(id) == Some(&true) {
            from[i].prior = true;
        }
    }
    let first_here = first_chosen(store, Some(&ids), &ids, &sk, &from)?;
    let mut first_roots: HashSet<u32> = first_here.iter().map(|&i| sk.root[i]).collect();
    for (i, id) in ids.iter().enumerate() {
        if stored.get(id) == Some(&true) {
            first_roots.insert(sk.root[i]);
        }
    }
    let first = |i: usize| first_roots.contains(&sk.root[i]);
    // Newly first-chosen patches bring their other postings and landings.
    let newly: Vec<i64> = (0..ids.len())
        .filter(|&i| first(i) && stored.get(&ids[i]) != Some(&true))
        .map(|i| ids[i])
        .collect();
    let pk = links::patch_keys_of(store, &newly)?;
    let brought = links::messages_with_patch_keys(store, &pk)?;
    // A touched message sharing a patch key with a first-chosen patch.
    let mut by_key: HashMap<String, Vec<i64>> = HashMap::new();
    for (m, k) in links::patch_keys_by_message(store, touched)? {
        by_key.entry(k).or_default().push(m);
    }
    let mut key_list: Vec<String> = by_key.keys().cloned().collect();
    key_list.sort_unstable();
    let holders = links::patch_holders(store, &key_list)?;
    let outside_holders: Vec<i64> = holders
        .iter()
        .map(|(m, _)| *m)
        .filter(|m| ids.binary_search(m).is_err())
        .collect();
    let outside_first = links::chosen_flags(store, &outside_holders)?;
    let mut joined: HashSet<i64> = HashSet::new();
    for (m, k) in &holders {
        let holder_first = match ids.binary_search(m) {
            Ok(i) => first(i),
            Err(_) => outside_first.get(m) == Some(&true),
        };
        if holder_first && let Some(ms) = by_key.get(k) {
            joined.extend(ms.iter().copied());
        }
    }
    // The chosen threads here.
    let mut roots: HashSet<u32> = first_roots.clone();
    for (i, id) in ids.iter().enumerate() {
        if stored.contains_key(id) || joined.contains(id) || brought.binary_search(id).is_ok() {
            roots.insert(sk.root[i]);
        }
    }
    let mut chosen_here: HashMap<i64, bool> = HashMap::new();
    let mut changed: Vec<i64> = Vec::new();
    for (i, &id) in ids.iter().enumerate() {
        if roots.contains(&sk.root[i]) {
            let f = first(i);
            chosen_here.insert(id, f);
            if is_touched(id) || stored.get(&id) != Some(&f) {
                changed.push(id);
            }
        }
    }
    // Brought from elsewhere: whole threads, new if not chosen before.
    let elsewhere: Vec<i64> = brought
        .iter()
        .copied()
        .filter(|m| ids.binary_search(m).is_err())
        .collect();
    let before = links::chosen_flags(store, &elsewhere)?;
    let fresh: Vec<i64> = elsewhere
        .into_iter()
        .filter(|m| !before.contains_key(m))
        .collect();
    let mut chosen_elsewhere: HashSet<i64> = HashSet::new();
    if !fresh.is_empty() {
        let mut r = links::roots_of_messages(store, &fresh)?;
        r.sort_unstable();
        r.dedup();
        let whole = links::messages_in_roots(store, &r)?;
        let had = links::chosen_flags(store, &whole)?;
        for m in whole {
            if !had.contains_key(&m) {
                chosen_elsewhere.insert(m);
                changed.push(m);
            }
        }
    }
    changed.sort_unstable();
    changed.dedup();
    Ok(Ok(Choice {
        universe: ids,
        chosen_here,
        chosen_elsewhere,
        changed,
    }))
}

/// The chosen messages an update relinks together, with the stored
/// regressions they held.
struct Reach {
    /// Ascending.
    messages: Vec<i64>,
    regressions: Vec<i64>,
    /// The stored first-step flags of the messages outside the choice's
    /// universe.
    stored_first: HashMap<i64, bool>,
}

/// Step 3 of [`relink_incremental`]: the chosen messages reachable from
/// `start` through threads, link keys, pointers and stored regressions.
fn reach(
    store: &Store,
    choice: &Choice,
    start: Vec<i64>,
    added: &[i64],
    cap: usize,
) -> Result<std::result::Result<Reach, String>> {
    use std::collections::HashSet;
    let new: HashSet<i64> = added.iter().copied().collect();
    let in_universe = |m: i64| choice.universe.binary_search(&m).is_ok();
    let mut keys: HashSet<String> = HashSet::new();
    let mut roots: HashSet<String> = HashSet::new();
    let mut regs: HashSet<i64> = HashSet::new();
    let mut stored_first: HashMap<i64, bool> = HashMap::new();
    let u = match closure(start, cap, |frontier, u| {
        let mut next: Vec<i64> = Vec::new();
        // Threads as stored: a touched thread's old roots hold only
        // touched messages, and every touched chosen one is a start.
        let mut new_roots = links::roots_of_messages(store, frontier)?;
        new_roots.retain(|r| roots.insert(r.clone()));
        next.extend(links::messages_in_roots(store, &new_roots)?);
        // Keys, pointers both ways.
        let hubs = links::landing_hubs(store, frontier)?;
        let followed: Vec<i64> = frontier
            .iter()
            .copied()
            .filter(|m| new.contains(m) || !hubs.contains(m))
            .collect();
        let mut new_keys: Vec<String> = links::keys_of(store, &followed)?;
        new_keys.extend(
            links::thread_headers_of(store, frontier)?
                .iter()
                .map(|(mid, _, _)| crate::link::keys::message(mid)),
        );
        new_keys.retain(|k| keys.insert(k.clone()));
        if !new_keys.is_empty() {
            let counts = links::key_counts(store, &new_keys)?;
            if let Some((k, n)) = counts.iter().find(|(_, n)| **n > KEY_CAP) {
                return Ok(Err(format!("the key {k} is shared by {n} messages")));
            }
            next.extend(links::messages_with_keys(store, &new_keys)?);
            let targets: Vec<&str> = new_keys
                .iter()
                .filter_map(|k| k.strip_prefix("m:"))
                .collect();
            next.extend(links::rows_of_message_ids(store, &targets)?);
        }
        // Regressions holding them.
        let mut new_regs = links::regressions_of(store, frontier)?;
        new_regs.retain(|r| regs.insert(*r));
        next.extend(links::members_of(store, &new_regs)?);
        // Only chosen messages are followed.
        next.sort_unstable();
        next.dedup();
        next.retain(|m| !u.contains(m));
        let ask: Vec<i64> = next
            .iter()
            .copied()
            .filter(|&m| !in_universe(m) && !choice.chosen_elsewhere.contains(&m))
            .collect();
        let flags = links::chosen_flags(store, &ask)?;
        next.retain(|m| {
            if in_universe(*m) {
                choice.chosen_here.contains_key(m)
            } else {
                choice.chosen_elsewhere.contains(m) || flags.contains_key(m)
            }
        });
        stored_first.extend(flags);
        Ok(Ok(next))
    })? {
        Ok(u) => u,
        Err(why) => return Ok(Err(why)),
    };
    // The flags of the start messages outside the universe.
    let unknown: Vec<i64> = u
        .iter()
        .copied()
        .filter(|m| !in_universe(*m) && !stored_first.contains_key(m))
        .collect();
    stored_first.extend(links::chosen_flags(store, &unknown)?);
    let mut messages: Vec<i64> = u.into_iter().collect();
    messages.sort_unstable();
    Ok(Ok(Reach {
        messages,
        regressions: regs.into_iter().collect(),
        stored_first,
    }))
}

/// The messages reached from `start` by `step` (the next messages of a
/// frontier, given every message reached so far), breadth first; `Err` with
/// the reason when more than `cap` are reached or `step` gives up.
fn closure(
    start: Vec<i64>,
    cap: usize,
    mut step: impl FnMut(
        &[i64],
        &std::collections::HashSet<i64>,
    ) -> Result<std::result::Result<Vec<i64>, String>>,
) -> Result<std::result::Result<std::collections::HashSet<i64>, String>> {
    let mut u = std::collections::HashSet::new();
    let mut frontier = start;
    while !frontier.is_empty() {
        frontier.sort_unstable();
        frontier.dedup();
        frontier.retain(|m| !u.contains(m));
        if frontier.is_empty() {
            break;
        }
        u.extend(frontier.iter().copied());
        if u.len() > cap {
            return Ok(Err(format!(
                "the new mail reaches more than {cap} messages"
            )));
        }
        match step(&frontier, &u)? {
            Ok(next) => frontier = next,
            Err(why) => return Ok(Err(why)),
        }
    }
    Ok(Ok(u))
}

/// The threads of `seeds`, whole: their messages (ascending) and the roots
/// they had. Closed under threading: the stored threads of the messages,
/// those their ids (own, In-Reply-To, References) join, and for mail
/// without References the threads the subject fallback may hang it on
/// (`s:` keys).
fn thread_closure(
    store: &Store,
    seeds: Vec<i64>,
    cap: usize,
) -> Result<std::result::Result<Touched, String>> {
    use std::collections::HashSet;
    let mut roots: HashSet<String> = HashSet::new();
    let mut subjects: HashSet<String> = HashSet::new();
    // Messages read as members of a whole stored thread: their roots and
    // the ids they name are that thread's (threading put every message
    // an id of theirs names, or its `thread_ids` row, in it), so only
    // their subjects can reach further. On a busy day three in four of the
    // closure's messages come this way.
    let mut whole: HashSet<i64> = HashSet::new();
    let u = match closure(seeds, cap, |frontier, _| {
        let mut next = Vec::new();
        let open: Vec<i64> = frontier
            .iter()
            .copied()
            .filter(|m| !whole.contains(m))
            .collect();
        let mut new_roots: Vec<String> = links::roots_of_messages(store, &open)?;
        let headers = links::thread_headers_of(store, &open)?;
        let mut ids: Vec<&str> = Vec::new();
        for (mid, irt, refs) in &headers {
            ids.push(mid);
            if let Some(i) = irt.as_deref().filter(|s| !s.is_empty()) {
                ids.push(i);
            }
            ids.extend(thread::recent_references(refs.split_ascii_whitespace()));
        }
        // Replies of one thread name the same ancestors: each id is
        // looked up once (a day's 999 messages name 3,157 ids, 1,111 of
        // them distinct).
        ids.sort_unstable();
        ids.dedup();
        new_roots.extend(links::roots_of_ids(store, &ids)?);
        new_roots.retain(|r| roots.insert(r.clone()));
        let members = links::messages_in_roots(store, &new_roots)?;
        whole.extend(members.iter().copied());
        next.extend(members);
        let mut subj: Vec<String> = links::keys_of(store, frontier)?
            .into_iter()
            .filter(|k| k.starts_with("s:"))
            .collect();
        subj.retain(|k| subjects.insert(k.clone()));
        next.extend(links::messages_with_keys(store, &subj)?);
        Ok(Ok(next))
    })? {
        Ok(u) => u,
        Err(why) => return Ok(Err(why)),
    };
    let mut messages: Vec<i64> = u.into_iter().collect();
    messages.sort_unstable();
    Ok(Ok(Touched {
        messages,
        old_roots: roots.into_iter().collect(),
    }))
}

/// The threads an update touches: their messages (ascending) and the roots
/// they had.
struct Touched {
    messages: Vec<i64>,
    old_roots: Vec<String>,
}

/// The stored messages (all, or those of `keep`) threaded from their
/// headers: the `messages.id` of each (ascending), the skeleton, and what
/// the choice knows of each before its links (a seed by kind or subject, a
/// patch posting).
fn skeleton(
    store: &Store,
    keep: Option<&[i64]>,
) -> Result<(Vec<i64>, Skeleton, Vec<select::Start>)> {
    let messages = match keep {
        Some(ids) => ids.len(),
        None => usize::try_from(links::largest_message_id(store)?).unwrap_or(0),
    };
    let mut b = SkeletonBuilder::with_capacity(messages);
    let mut db_ids = Vec::with_capacity(messages);
    let mut kinds: Vec<Kind> = Vec::with_capacity(messages);
    let mut add = |id: i64, row: HeaderRow<'_>, refs: &str, kind: Kind| {
        db_ids.push(id);
        kinds.push(kind);
        b.add(row, refs.split_ascii_whitespace());
    };
    // An update's few messages: their subjects are held while the
    // references are linked, so each row is looked up once.
    let held = keep.filter(|ids| ids.len() <= SUBJECTS_HELD);
    let mut subjects = thread::Names::default();
    match held {
        Some(ids) => links::for_each_header_and_subject(store, ids, |id, row, refs, kind, s| {
            add(id, row, refs, kind);
            subjects.push(s);
        })?,
        None => links::for_each_header(store, keep, &mut add)?,
    }
    let mut pass = b.link();
    let mut seeds = vec![select::Start::default(); db_ids.len()];
    let mut subject = |i: usize, s: &str| {
        pass.subject(i, s);
        seeds[i] = select::Start {
            seed: select::seeds(kinds[i], s),
            posting: kinds[i] == Kind::Patch,
            prior: false,
        };
    };
    if held.is_some() {
        for i in 0..subjects.len() {
            subject(i, subjects.get(i).unwrap_or_default());
        }
    } else {
        let at = |id: i64| db_ids.binary_search(&id).ok();
        links::for_each_subject(store, keep, |id, s| {
            if let Some(i) = at(id) {
                subject(i, s);
            }
        })?;
    }
    Ok((db_ids, pass.finish(), seeds))
}

/// Most messages whose subjects [`skeleton`] holds while it links their
/// references (one look-up per message instead of two); more, as in a
/// full link, are read in two passes so that memory does not grow with the
/// archive (subjects average about 70 bytes: 7 MB at most).
const SUBJECTS_HELD: usize = 100_000;

/// The messages the first step of [`select`] chooses (indices into the
/// skeleton, ascending), among all or those of `keep`.
fn first_chosen(
    store: &Store,
    keep: Option<&[i64]>,
    db_ids: &[i64],
    sk: &Skeleton,
    seeds: &[select::Start],
) -> Result<Vec<usize>> {
    let at = |id: i64| db_ids.binary_search(&id).ok();
    let mut sel = select::Selection::new(sk);
    for (i, &s) in seeds.iter().enumerate() {
        sel.start(i, s);
    }
    links::for_each_subject_report(store, keep, |id| {
        if let Some(i) = at(id) {
            sel.seed(i);
        }
    })?;
    sel.members(sk);
    links::for_each_own_trailer(store, keep, &select::TRAILER_KEYS, |id, t| {
        if let Some(i) = at(id) {
            sel.trailer(i, t);
        }
    })?;
    links::for_each_cited_link(store, keep, |id, link| {
        if let Some(i) = at(id) {
            sel.cited(i, link);
        }
    })?;
    Ok(sel.finish(sk))
}

/// The messages a regression can involve (indices into the skeleton,
/// ascending), among all or those of `keep`, each with whether the first
/// step chose it.
fn chosen(
    store: &Store,
    keep: Option<&[i64]>,
    db_ids: &[i64],
    sk: &Skeleton,
    seeds: &[select::Start],
) -> Result<(Vec<usize>, Vec<bool>)> {
    let at = |id: i64| db_ids.binary_search(&id).ok();
    let first = first_chosen(store, keep, db_ids, sk, seeds)?;
    // The other postings of the chosen threads' patches (by title or patch
    // id) and the messages that say where they landed, with their threads.
    let ids: Vec<i64> = first
        .iter()
        .filter_map(|&i| db_ids.get(i).copied())
        .collect();
    let keys = links::patch_keys_of(store, &ids)?;
    let more = links::messages_with_patch_keys(store, &keys)?;
    // Inside an update's closure every one of them is among its messages
    // (they share a title or patch id key); `at` skips any other.
    let extra: Vec<usize> = more.iter().filter_map(|&id| at(id)).collect();
    let all = select::with_threads(sk, first.clone(), &extra);
    let flags = all.iter().map(|i| first.binary_search(i).is_ok()).collect();
    Ok((all, flags))
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
    let mut ids: Vec<i64> = pos.keys().copied().collect();
    ids.sort_unstable();
    for id in links::signals_unread(store, &ids)? {
        if let Some(m) = pos.get(&id).and_then(|&i| messages.get_mut(i)) {
            m.signals_unread = Some(link::Unread::default());
        }
    }
    for (m, &n) in messages.iter_mut().zip(&need) {
        if n {
            link::facts::prepare(m);
        }
    }
    let (marks, unknown) = links::load_marks(store)?;
    unreadable.marks = unknown;
    Ok((LinkInput { messages, marks }, unreadable))
}

/// The signals of the stored messages `ids` (ascending), read from their
/// stored bodies ([`crate::extract::signals_of`]) a batch at a time on the
/// rayon pool; a message whose body cannot be read is named in
/// `unreadable` and left out, and a panicking extractor reads none.
fn read_signals(store: &Store, ids: &[i64], unreadable: &mut Unreadable) -> Result<SignalsRead> {
    let mut read: SignalsRead = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(SIGNALS_BATCH) {
        let (msgs, broken) = crate::store::reextract::messages_by_id(store, chunk)?;
        unreadable
            .bodies
            .extend(broken.into_iter().map(|(_, why)| why));
        read.par_extend(msgs.par_iter().map(|(id, m)| {
            let signals = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                crate::extract::signals_of(m)
            }))
            .unwrap_or_default();
            (*id, signals)
        }));
    }
    Ok(read)
}

/// Messages the histories a link made to see what they ask may hold in all
/// for them to be kept and written as made ([`link_reading_signals`]);
/// past it they are made again when written, one at a time, so that memory
/// stays bounded by one history.
const KEPT_HISTORY_MESSAGES: usize = 10_000;

/// Histories finished at a time on the rayon pool to see what they ask.
const FINISHED_TOGETHER: usize = 32;

/// Links `input` until it asks for no unread signals: the signals of every
/// message the link asked for ([`LinkMessage::signals`]) are read from the
/// store (a few dozen messages of an archive's thousands). Signals the
/// drafting asked for make the link start again with them read; signals
/// only the finishing of histories asked for are given to the histories,
/// which are finished again (the drafts did not read them, so they stand).
/// Every message whose signals can change the answer is then read, so the
/// answer is the one with every signal read. Returns the histories, the
/// histories as last finished when few enough to keep
/// ([`KEPT_HISTORY_MESSAGES`]), and the signals read.
fn link_reading_signals(
    store: &Store,
    mut input: LinkInput,
    parent: &[Option<usize>],
    depth: &[u32],
    unreadable: &mut Unreadable,
) -> Result<(Histories, Option<Vec<Regression>>, SignalsRead)> {
    let mut read: SignalsRead = Vec::new();
    let asked_of = |marks: &[(usize, link::Unread)]| -> Vec<usize> {
        marks
            .iter()
            .filter(|(_, u)| u.asked())
            .map(|(i, _)| *i)
            .collect()
    };
    loop {
        let marks: Vec<(usize, link::Unread)> = input
            .messages
            .iter()
            .enumerate()
            .filter_map(|(i, m)| Some((i, m.signals_unread.clone()?)))
            .collect();
        if marks.is_empty() {
            let histories = histories_of(store, input, parent, depth)?;
            return Ok((histories, None, read));
        }
        let mut histories = histories_of(store, input, parent, depth)?;
        let drafting = asked_of(&marks);
        if !drafting.is_empty() {
            input = histories.into_input();
            let (each, got) = read_for(store, &input.messages, &drafting, unreadable)?;
            for (&i, signals) in drafting.iter().zip(each) {
                input.messages[i].set_signals(signals);
            }
            read.extend(got);
            continue;
        }
        // A history is finished when asked for (the status rules read the
        // signals then): each is made here to see what it asks, and kept
        // for the write while they are few. The members whose sentences
        // the rules read are read first, so that a second finishing is
        // rare (on archives whose histories hold most messages it was).
        let mut marks = marks;
        let first: Vec<usize> = histories
            .members_finishing_reads()
            .into_iter()
            .filter(|&i| histories.messages()[i].signals_unread.is_some())
            .collect();
        read.extend(give_signals(store, &mut histories, &first, unreadable)?);
        marks.retain(|(i, _)| first.binary_search(i).is_err());
        loop {
            let mut made: Option<Vec<Regression>> = Some(Vec::with_capacity(histories.len()));
            let mut held = 0usize;
            let all: Vec<usize> = (0..histories.len()).collect();
            for some in all.chunks(FINISHED_TOGETHER) {
                let finished: Vec<Regression> =
                    some.par_iter().map(|&j| histories.regression(j)).collect();
                for r in finished {
                    held += r.messages.len();
                    match &mut made {
                        Some(v) if held <= KEPT_HISTORY_MESSAGES => v.push(r),
                        _ => made = None,
                    }
                }
            }
            let finishing = asked_of(&marks);
            if finishing.is_empty() {
                return Ok((histories, made, read));
            }
            read.extend(give_signals(store, &mut histories, &finishing, unreadable)?);
            marks.retain(|(i, _)| finishing.binary_search(i).is_err());
        }
    }
}

/// [`read_for`] the histories' messages `which`, given to the histories
/// ([`Histories::set_signals`]). Returns what was read, to be stored.
fn give_signals(
    store: &Store,
    histories: &mut Histories,
    which: &[usize],
    unreadable: &mut Unreadable,
) -> Result<SignalsRead> {
    let (each, got) = read_for(store, histories.messages(), which, unreadable)?;
    for (&i, signals) in which.iter().zip(each) {
        histories.set_signals(i, signals);
    }
    Ok(got)
}

/// Reads the signals of `messages[i]` for each `i` of `which` (ascending)
/// from the store: the signals of each, in the order of `which` (none for
/// a body that cannot be read, named in `unreadable`), and what was read,
/// to be stored.
fn read_for(
    store: &Store,
    messages: &[LinkMessage],
    which: &[usize],
    unreadable: &mut Unreadable,
) -> Result<(Vec<Vec<crate::model::Signal>>, SignalsRead)> {
    if which.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let mut ids: Vec<i64> = which.iter().map(|&i| messages[i].db_id).collect();
    ids.sort_unstable();
    let got = read_signals(store, &ids, unreadable)?;
    let mut by_id: HashMap<i64, Vec<crate::model::Signal>> = got.iter().cloned().collect();
    let each = which
        .iter()
        .map(|&i| by_id.remove(&messages[i].db_id).unwrap_or_default())
        .collect();
    Ok((each, got))
}

/// What a relink writes: the histories of the chosen messages, and the
/// choice.
struct Plan {
    histories: Histories,
    /// The chosen messages (`messages.id`), each with whether the first
    /// step of the choice chose it.
    chosen: Vec<(i64, bool)>,
    unreadable: Unreadable,
    /// The signals read of messages an ingest left them unread in.
    signals: SignalsRead,
    /// `histories` made already, when few enough to keep (else each is made
    /// as it is written).
    made: Option<Vec<Regression>>,
}

/// Reads the messages of the threads a regression can involve and links
/// them.
fn plan(
    store: &Store,
    universe: Option<&[i64]>,
    db_ids: &[i64],
    sk: &Skeleton,
    seeds: &[select::Start],
) -> Result<Plan> {
    let (keep, first) = chosen(store, universe, db_ids, sk, seeds)?;
    plan_of(store, db_ids, sk, &keep, &first)
}

/// [`plan`] of the chosen messages `keep` (indices into the skeleton,
/// ascending, whole threads), each with whether the first step chose it.
fn plan_of(
    store: &Store,
    db_ids: &[i64],
    sk: &Skeleton,
    keep: &[usize],
    first: &[bool],
) -> Result<Plan> {
    let chosen: Vec<(i64, bool)> = keep
        .iter()
        .zip(first)
        .filter_map(|(&i, &f)| Some((*db_ids.get(i)?, f)))
        .collect();
    let ids: Vec<i64> = chosen.iter().map(|(i, _)| *i).collect();
    let (input, mut unreadable) = load_input_of(store, Some(&ids))?;
    let (parent, depth) = threading_of(&input.messages, db_ids, sk);
    let (histories, made, signals) =
        link_reading_signals(store, input, &parent, &depth, &mut unreadable)?;
    Ok(Plan {
        histories,
        made,
        chosen,
        unreadable,
        signals,
    })
}

/// Each loaded message's parent (index into `msgs`) and depth, from the
/// threading of all messages (`sk`, whose messages are `db_ids`); a parent
/// lies in the same thread, hence among the loaded messages.
fn threading_of(
    msgs: &[LinkMessage],
    db_ids: &[i64],
    sk: &Skeleton,
) -> (Vec<Option<usize>>, Vec<u32>) {
    let at: HashMap<u32, usize> = msgs
        .iter()
        .enumerate()
        .filter_map(|(k, m)| {
            let i = db_ids.binary_search(&m.db_id).ok()?;
            Some((*sk.container.get(i)?, k))
        })
        .collect();
    msgs.iter()
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
        .unzip()
}

/// The linker ([`link::compose::histories`]) over loaded messages, with
/// the candidate commits of the followed trees looked up in `store` when
/// a tree is followed.
fn histories_of(
    store: &Store,
    input: LinkInput,
    parent: &[Option<usize>],
    depth: &[u32],
) -> Result<Histories> {
    if !crate::store::trees::any(store)? {
        return link::compose::histories(input, parent, depth, None);
    }
    let mut patch_ids = crate::pipeline::trees::PatchIds::new(store)?;
    let mut lookup = |r: &Regression| -> Result<Vec<TreeCommit>> {
        let keys = link::trees::keys(r);
        let mut found = crate::store::trees::candidates(store, &keys)?;
        let more = patch_ids.commits_for(store, r, &found)?;
        for c in more {
            match found.iter_mut().find(|f| f.oid == c.oid) {
                Some(f) => f.patch_of = c.patch_of,
                None => found.push(c),
            }
        }
        Ok(found)
    };
    link::compose::histories(input, parent, depth, Some(&mut lookup))
}

/// Writes a plan's chosen messages and histories through `write` and
/// commits: the histories numbered by [`link::ids::assign`] from the
/// stored ids, then made one at a time as they are written. Returns how
/// many histories it wrote.
fn write_plan(write: RelinkWrite<'_>, plan: &mut Plan) -> Result<usize> {
    let made = plan.made.take().unwrap_or_default();
    let h = &plan.histories;
    let names: Vec<Vec<&str>> = (0..h.len()).map(|j| h.culprit_names(j)).collect();
    let ids = link::ids::assign(&names, &write.stored_ids(&names)?);
    write.write_chosen(&plan.chosen)?;
    write.write_signals(&plan.signals)?;
    // `finish` may ask for a history more than once (to compare it with
    // the stored one, then to write it).
    write.finish(h.messages(), &ids, |j| match made.get(j) {
        Some(r) => r.clone(),
        None => h.regression(j),
    })?;
    Ok(h.len())
}

/// Replaces the stored threads and regressions with `output` (the link of
/// `input`, as [`link::build`] gives it), in one transaction; the
/// regressions keep their ids as a relink's do ([`link::ids::assign`]).
pub fn write_output(store: &mut Store, input: &LinkInput, output: &LinkOutput) -> Result<()> {
    let write = links::begin_output(store, input, output)?;
    let names: Vec<Vec<&str>> = output
        .regressions
        .iter()
        .map(|r| {
            std::iter::once(r.culprit.commit.as_str())
                .chain(r.culprit.aliases.iter().map(String::as_str))
                .collect()
        })
        .collect();
    let ids = link::ids::assign(&names, &write.stored_ids(&names)?);
    write.finish(&input.messages, &ids, |k| output.regressions[k].clone())
}

/// The marks, for callers that show them.
pub fn marks(store: &Store) -> Result<Vec<Mark>> {
    Ok(links::load_marks(store)?.0)
}
