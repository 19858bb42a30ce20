//! Links messages into threads and regression histories with a status and a
//! timeline. Pure: rows in (headers, extractions, marks), histories out; this
//! module never names the store, opens a connection or spawns a thread (the
//! pipeline, `crate::pipeline::relink`, feeds it from the store).
//!
//! By concern:
//! - [`thread`]: JWZ threading (one implementation, over interned ids);
//! - [`select`]: which messages a regression can involve, chosen before
//!   their extractions are loaded;
//! - [`hints`]: what a message says about itself and what it points at;
//! - [`culprit`]: short and full ids of one commit;
//! - [`draft`]: a regression before its status is computed, the type the
//!   stages pass on;
//! - [`attach`]: which messages belong to which regression, and why;
//! - [`patch`]: one patch across its postings, and where it landed;
//! - [`candidates`]: patches weighed as fixes by what they are;
//! - [`scope`]: what the robot tested (mainline, next, a maintainer's tree,
//!   a developer's branch, a patch under review);
//! - [`facts`]: what a report's own tables say (headline, confidence);
//! - [`speaker`]: who says something (the robot's team, the culprit's
//!   author, a maintainer, a bystander);
//! - [`rules`]: the timeline, one function per mail pattern;
//! - [`fold`]: the status from the timeline;
//! - [`marks`]: human marks (a status, a fix, a release, a duplicate, a
//!   withdrawal);
//! - [`finish`]: the history put together;
//! - [`doubt`]: how sure its status is, and what could change it;
//! - [`compose`]: the stages in their order, the one composition of the
//!   linker (a full link and an update both call it);
//! - [`ids`]: which id each history is stored under;
//! - [`regzbot`]: the official tracker's command lines.
//! - [`trees`]: what the followed kernel trees say (fix commits, releases,
//!   reverts of the culprit).
//!
//! The serde form of [`crate::model::history::Regression`] is the public
//! JSON (documented in `docs/json.md`).

pub mod attach;
pub mod candidates;
pub mod compose;
pub mod culprit;
pub mod doubt;
pub mod draft;
pub mod facts;
pub mod finish;
pub mod fold;
pub mod hints;
pub mod ids;
pub mod keys;
pub mod marks;
pub mod patch;
pub mod regzbot;
pub mod rules;
pub mod scope;
pub mod select;
pub mod speaker;
pub mod thread;
pub mod trees;

use crate::model::history::{Mark, Regression};
use crate::model::{Extraction, Kind};

/// One stored message, as linking needs it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LinkMessage {
    /// Row id in `messages` (0 for a message that was never stored).
    pub db_id: i64,
    /// Message-ID without brackets.
    pub message_id: String,
    /// Subject.
    pub subject: String,
    /// Sender's display name.
    pub from_name: Option<String>,
    /// Sender's address.
    pub from_email: Option<String>,
    /// Date, Unix seconds.
    pub date: Option<i64>,
    /// In-Reply-To.
    pub in_reply_to: Option<String>,
    /// References, oldest first.
    pub references: Vec<String>,
    /// Message kind (also in `extraction.kind`; this one wins when they differ).
    pub kind: Kind,
    /// Everything extracted from the message (pruned to what linking reads
    /// once [`facts::prepare`]d).
    pub extraction: Extraction,
    /// A robot report's table facts, set by [`facts::prepare`].
    pub report_facts: Option<Box<facts::ReportFacts>>,
    /// Set when the message's signals were not read yet
    /// ([`Extraction::signals_unread`]): the linker reads signals only
    /// through [`LinkMessage::signals`], which marks such a message as
    /// asked for, and a link that asked for unread signals is made again
    /// with them read (`pipeline::relink`). A message whose signals were
    /// never asked for cannot change the answer.
    pub signals_unread: Option<Unread>,
}

impl LinkMessage {
    /// Gives the message the signals read for it: they are no longer
    /// unread.
    pub fn set_signals(&mut self, signals: Vec<crate::model::Signal>) {
        self.extraction.signals = signals;
        self.signals_unread = None;
    }

    /// The message's signals (`extraction.signals`); asking marks a message
    /// whose signals are unread as asked for.
    pub fn signals(&self) -> &[crate::model::Signal] {
        if let Some(u) = &self.signals_unread {
            u.ask();
        }
        &self.extraction.signals
    }
}

/// Whether the linker asked for the signals of a message whose signals are
/// unread ([`LinkMessage::signals_unread`]). Clones share the mark, so the
/// caller keeps one and reads it after the link. It is bookkeeping, not
/// data: any two compare equal.
#[derive(Debug, Clone, Default)]
pub struct Unread(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Unread {
    /// Whether a link asked for the message's signals.
    pub fn asked(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn ask(&self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

impl PartialEq for Unread {
    fn eq(&self, _: &Unread) -> bool {
        true
    }
}

/// Everything [`build`] reads.
#[derive(Debug, Clone, Default)]
pub struct LinkInput {
    /// All messages.
    pub messages: Vec<LinkMessage>,
    /// All marks, oldest first.
    pub marks: Vec<Mark>,
}

/// Everything [`build`] computes.
#[derive(Debug, Clone, Default)]
pub struct LinkOutput {
    /// One entry per input message, same order.
    pub threads: Vec<thread::ThreadInfo>,
    /// Regressions, oldest first report first.
    pub regressions: Vec<Regression>,
}

/// Version of the linking logic; bump it whenever linking would compute
/// something different from the same input, so that stored link tables of
/// an older version are recomputed.
pub const LINK_LOGIC_VERSION: i64 = 11;

/// Threads and regressions of messages held in memory (whole or
/// [`facts::prepare`]d).
pub fn build(input: &LinkInput) -> LinkOutput {
    let mut msgs = input.messages.clone();
    for m in &mut msgs {
        if m.report_facts.is_none() {
            facts::prepare(m);
        }
    }
    let tmsgs: Vec<thread::ThreadMsg<'_>> = msgs
        .iter()
        .map(|m| thread::ThreadMsg {
            message_id: &m.message_id,
            in_reply_to: m.in_reply_to.as_deref(),
            references: &m.references,
            subject: &m.subject,
            date: m.date,
        })
        .collect();
    let sk = thread::thread(&tmsgs);
    let (parent, depth) = parents(&sk);
    drop(tmsgs);
    let input = LinkInput {
        messages: msgs,
        marks: input.marks.clone(),
    };
    let histories = compose::histories::<std::convert::Infallible>(input, &parent, &depth, None)
        .unwrap_or_else(|never| match never {});
    LinkOutput {
        threads: (0..sk.len()).map(|i| sk.info(i)).collect(),
        regressions: histories.all(),
    }
}

/// Each message's parent (as an index into the skeleton's messages) and depth.
pub fn parents(sk: &thread::Skeleton) -> (Vec<Option<usize>>, Vec<u32>) {
    // Container -> message index, for the containers that are messages.
    let at: std::collections::HashMap<u32, usize> = sk
        .container
        .iter()
        .enumerate()
        .map(|(i, &c)| (c, i))
        .collect();
    let parent = (0..sk.len())
        .map(|i| sk.parent[i].and_then(|p| at.get(&p).copied()))
        .collect();
    (parent, sk.depth.clone())
}
