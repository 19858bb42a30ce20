//! Links stored messages into threads and regression histories with a status
//! and a timeline. Recomputed from the database after each ingest.
//!
//! [`build`] is pure: threads and regressions of a [`LinkInput`]. [`relink`]
//! computes the same from the store with bounded memory (see
//! [`relink_full`]) and writes it back in one transaction. `build` is
//! split by concern: [`thread`] (JWZ threading), [`culprit`] (short/full id
//! matching), [`attach`] (which messages belong to which regression, and why),
//! [`status`] (timeline, status with evidence, confidence) and [`regzbot`]
//! (the official tracker's command lines).
//!
//! The serde form of [`Regression`] is the public JSON of `show --json` and
//! `export --format json` (documented in `docs/json.md`): fields may be added,
//! never renamed.

pub mod attach;
pub mod culprit;
pub mod regzbot;
pub mod status;
pub mod thread;

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::model::{Extraction, Kind};
use crate::store::Store;

/// One stored message, as linking needs it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LinkMessage {
    /// Row id in `messages` (0 in tests that never touch a store).
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
    /// Everything extracted from the message.
    pub extraction: Extraction,
}

/// A human decision stored by `regtrack mark`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    /// Culprit id the mark was made on (any abbreviation).
    pub culprit: String,
    /// Status set (one of [`Status`]'s names).
    pub status: String,
    /// Free-text note.
    pub note: Option<String>,
    /// Who decided.
    pub author: String,
    /// When, Unix seconds.
    pub at: i64,
}

/// Everything [`build`] reads.
#[derive(Debug, Clone, Default)]
pub struct LinkInput {
    /// All stored messages.
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

/// The status of a regression.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// Only the robot spoke.
    Reported,
    /// A person replied.
    Discussed,
    /// A patch is linked.
    FixProposed,
    /// A table, sentence or Tested-by shows the fix restores the metric.
    FixConfirmed,
    /// A maintainer applied the fix.
    FixApplied,
    /// Bisect doubted, cannot reproduce, blamed on layout or noise.
    Disputed,
    /// A maintainer will not chase it.
    Declined,
    /// The report is an improvement; nobody needs to act.
    Improvement,
}

impl Status {
    /// Every status, in display order.
    pub const ALL: [Status; 8] = [
        Status::Reported,
        Status::Discussed,
        Status::FixProposed,
        Status::FixConfirmed,
        Status::FixApplied,
        Status::Disputed,
        Status::Declined,
        Status::Improvement,
    ];

    /// The kebab-case name used in JSON, the database and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Reported => "reported",
            Status::Discussed => "discussed",
            Status::FixProposed => "fix-proposed",
            Status::FixConfirmed => "fix-confirmed",
            Status::FixApplied => "fix-applied",
            Status::Disputed => "disputed",
            Status::Declined => "declined",
            Status::Improvement => "improvement",
        }
    }

    /// Parses a status name (as printed by [`Status::as_str`]).
    pub fn parse(s: &str) -> Option<Status> {
        Status::ALL
            .into_iter()
            .find(|st| st.as_str().eq_ignore_ascii_case(s.trim()))
    }

    /// True when nobody needs to act any more.
    pub fn is_closed(self) -> bool {
        matches!(
            self,
            Status::FixApplied | Status::Declined | Status::Improvement
        )
    }
}

/// The culprit commit of a regression.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct CulpritInfo {
    /// Longest known id of the commit.
    pub commit: String,
    /// Commit title, when a report or a `Fixes:` tag gave it.
    pub title: Option<String>,
    /// Every other id the commit was named by.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// Longer ids this one is also a prefix of (ambiguous abbreviation).
    #[serde(default)]
    pub ambiguous_with: Vec<String>,
}

/// Why a status was set.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct StatusEvidence {
    /// The status it set.
    pub status: String,
    /// The message that carries the evidence (none for a mark).
    pub message_id: Option<String>,
    /// The sentence, table or rule.
    pub reason: String,
}

/// How trustworthy a report's headline change is, from its own table.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Confidence {
    /// `high`, `medium` or `low`.
    pub level: String,
    /// The headline row's change (as the table prints it).
    pub change_percent: Option<f64>,
    /// The two columns' relative stddevs added (0 where none was printed).
    pub stddev_percent: f64,
    /// True when |change| is larger than the combined stddev.
    pub exceeds_stddev: bool,
    /// Other metrics of the same test that moved by at least 5%.
    pub co_moving: u32,
    /// True when the change is likely noise (level `low`).
    pub likely_noise: bool,
}

/// One headline row of a report's table.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct HeadlineRow {
    /// Metric name.
    pub metric: String,
    /// Base column value.
    pub base: Option<f64>,
    /// Culprit column value.
    pub value: Option<f64>,
    /// Change of the culprit column.
    pub change: Option<f64>,
    /// `%` or `abs`.
    pub unit: String,
    /// Relative stddev of the base and culprit columns.
    pub stddev_percent: Vec<Option<f64>>,
}

/// One robot report of a regression.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ReportInfo {
    /// Message-ID of the report.
    pub message_id: String,
    /// Subject of the report.
    pub subject: String,
    /// Headline metric.
    pub metric: Option<String>,
    /// Change in percent, signed as the report's table prints it (as written
    /// in the subject or lead when the table has no such row).
    pub change_percent: Option<f64>,
    /// Change as written in the subject or lead (unsigned from 2024 on).
    #[serde(default)]
    pub change_as_written: Option<f64>,
    /// `regression`, `improvement` or `undefined` (from the robot's word).
    pub direction: String,
    /// Test case.
    pub testcase: Option<String>,
    /// Test machine.
    pub test_machine: Option<String>,
    /// Date (ISO 8601, UTC).
    pub date: Option<String>,
    /// Date, Unix seconds.
    pub unix: Option<i64>,
    /// `tree:branch`.
    pub branch: Option<String>,
    /// Failure id of a functional report.
    pub failure: Option<String>,
    /// `perf-report` or `functional-report`.
    pub kind: String,
    /// Confidence from the report's own table.
    pub confidence: Option<Confidence>,
    /// The report's metric row first, then the largest changes.
    #[serde(default)]
    pub headline_rows: Vec<HeadlineRow>,
    /// The "In addition to that, the commit also has significant impact" entries.
    #[serde(default)]
    pub also_impacts: Vec<ImpactInfo>,
}

/// One entry of a report's impact box.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ImpactInfo {
    /// Metric.
    pub metric: Option<String>,
    /// Change in percent as written.
    pub change_percent: Option<f64>,
    /// `regression`, `improvement` or `undefined`.
    pub direction: String,
    /// Test case.
    pub testcase: Option<String>,
    /// Test machine.
    pub test_machine: Option<String>,
}

/// A `key: value` trailer of a patch.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TrailerKv {
    /// Key (`Fixes`, `Closes`, ...).
    pub key: String,
    /// Value.
    pub value: String,
}

/// A patch linked to a regression.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PatchInfo {
    /// Message-ID.
    pub message_id: String,
    /// Subject.
    pub subject: String,
    /// Author.
    pub from: Option<String>,
    /// Date (ISO 8601, UTC).
    pub date: Option<String>,
    /// `patch`, `revert` or `debug-patch`.
    pub role: String,
    /// Why it is linked.
    pub reason: String,
    /// `proposed`, `confirmed` or `applied`.
    pub state: String,
    /// The patch's own trailers.
    pub trailers: Vec<TrailerKv>,
}

/// A message attached to a regression.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Attachment {
    /// Message-ID.
    pub message_id: String,
    /// `report`, `reply`, `patch`, `patch-reply` or `revert`.
    pub role: String,
    /// Why it was attached.
    pub reason: String,
}

/// One entry of a regression's timeline.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TimelineEntry {
    /// Date (ISO 8601, UTC).
    pub date: Option<String>,
    /// Date, Unix seconds.
    pub unix: Option<i64>,
    /// Who (display name or address).
    pub from: Option<String>,
    /// What happened.
    pub event: String,
    /// The status this entry sets, if any.
    pub status: Option<String>,
    /// The message, if any.
    pub message_id: Option<String>,
}

/// The headline metric of a regression across its table's commits.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Headline {
    /// Metric.
    pub metric: String,
    /// Change as the report wrote it.
    pub change_percent: Option<f64>,
    /// Column commits of the table.
    #[serde(default)]
    pub commits: Vec<String>,
    /// Values per column.
    #[serde(default)]
    pub values: Vec<Option<f64>>,
    /// Relative stddev per column.
    #[serde(default)]
    pub stddev_percent: Vec<Option<f64>>,
}

/// A regression history: the public JSON unit.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Regression {
    /// Regression id (stable across re-linking for a culprit).
    pub id: i64,
    /// The culprit commit.
    pub culprit: CulpritInfo,
    /// Subsystem tag of the first report.
    pub subsystem: Option<String>,
    /// `tree:branch` of the first report.
    pub branch: Option<String>,
    /// Every `tree:branch` reported.
    #[serde(default)]
    pub branches: Vec<String>,
    /// Current status.
    pub status: String,
    /// The evidence for each status reached, in order.
    pub status_evidence: Vec<StatusEvidence>,
    /// `regression`, `improvement` (every report an improvement) or `undefined`.
    pub direction: String,
    /// Headline metric and its values across the table's commits.
    pub headline: Option<Headline>,
    /// The robot's reports.
    pub reports: Vec<ReportInfo>,
    /// Every attached message id, in date order.
    pub messages: Vec<String>,
    /// Every attached message with its role and reason.
    #[serde(default)]
    pub attached: Vec<Attachment>,
    /// Linked patches.
    pub patches: Vec<PatchInfo>,
    /// Timeline of events.
    pub timeline: Vec<TimelineEntry>,
    /// Triage flags (computed when answering, relative to the current date).
    #[serde(default)]
    pub flags: Vec<String>,
    /// True when a `#regzbot introduced` line names this culprit.
    #[serde(default)]
    pub tracked: bool,
    /// The `#regzbot introduced:` line to paste, for an untracked regression.
    #[serde(default)]
    pub regzbot: Option<String>,
    /// Date of the first report (ISO 8601, UTC).
    pub first_date: Option<String>,
    /// Date of the last attached message (ISO 8601, UTC).
    pub last_date: Option<String>,
    /// Internal facts for flags (Unix seconds).
    #[serde(default)]
    pub facts: Facts,
}

/// Dates and counts behind the triage flags.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Facts {
    /// First report, Unix seconds.
    pub first_unix: Option<i64>,
    /// Last attached message, Unix seconds.
    pub last_unix: Option<i64>,
    /// Last reply by a person, Unix seconds.
    pub last_human_unix: Option<i64>,
    /// Replies by persons.
    pub human_replies: u32,
    /// First linked patch, Unix seconds.
    pub first_patch_unix: Option<i64>,
    /// A `still regression` line came after a fix was claimed.
    pub still_regression_after_fix: bool,
    /// The status came from a human mark.
    pub marked: bool,
}

/// Formats Unix seconds as ISO 8601 UTC.
pub fn iso(unix: Option<i64>) -> Option<String> {
    unix.and_then(|t| chrono::DateTime::from_timestamp(t, 0))
        .map(|d| d.format("%Y-%m-%dT%H:%M:%SZ").to_string())
}

/// Computes threads and regressions from the messages and marks. Pure.
pub fn build(input: &LinkInput) -> LinkOutput {
    attach::build(input)
}

/// Version of the linking logic; bump it whenever `build` would compute
/// something different from the same input, so that stored link tables of an
/// older version are recomputed on the next `relink`.
pub const LINK_LOGIC_VERSION: i64 = 1;

/// Brings threads and regressions up to date with the stored messages,
/// extractions and marks. Does nothing (four index-only aggregate queries)
/// when nothing was stored since the last link by this logic version;
/// recomputes everything otherwise. Returns true when it relinked.
pub fn relink(store: &mut Store) -> Result<bool> {
    relink_with(store, &mut || Ok(()))
}

/// [`relink`] that calls `before_write` after reading and before writing
/// (to wait for another connection's writes, such as an index build).
pub fn relink_with(
    store: &mut Store,
    before_write: &mut dyn FnMut() -> Result<()>,
) -> Result<bool> {
    let now = crate::store::links::current_state(store, LINK_LOGIC_VERSION)?;
    if crate::store::links::stored_state(store)? == Some(now) {
        return Ok(false);
    }
    relink_full_with(store, before_write)?;
    Ok(true)
}

/// Recomputes threads and regressions from scratch, whatever the link state.
///
/// Memory stays bounded by the regressions, not the archive: every message
/// is threaded from its headers alone ([`crate::store::links::load_skeleton`]),
/// and only the whole threads a regression can involve
/// ([`crate::store::links::relink_messages`]) are loaded as [`LinkMessage`]s,
/// with their tables pruned to the rows linking reads. The result is the
/// same as [`build`] on every message.
pub fn relink_full(store: &mut Store) -> Result<()> {
    relink_full_with(store, &mut || Ok(()))
}

fn relink_full_with(store: &mut Store, before_write: &mut dyn FnMut() -> Result<()>) -> Result<()> {
    use crate::store::links;
    let state = links::current_state(store, LINK_LOGIC_VERSION)?;
    let sk = links::load_skeleton(store)?;
    // The thread rows need only the skeleton: this connection writes them
    // while a second one reads what the regressions need (WAL: it reads the
    // snapshot before this transaction, whose tables it does not read). An
    // in-memory database has no second connection: one after the other.
    let path = std::path::PathBuf::from(store.path());
    let in_memory = store.is_in_memory();
    std::thread::scope(|scope| -> Result<()> {
        let sk = &sk;
        let (plan, write) = if in_memory {
            let plan = plan_regressions(store, sk)?;
            before_write()?;
            (plan, links::begin_relink(store, sk)?)
        } else {
            let reading = scope.spawn(move || plan_regressions(&Store::open(&path)?, sk));
            let write = before_write().and_then(|()| links::begin_relink(store, sk));
            let plan = reading.join().map_err(|_| crate::error::Error::Message {
                origin: "relink".to_string(),
                reason: "the thread reading the regressions' messages panicked".to_string(),
            })?;
            // A failed write rolls back when dropped.
            (plan?, write?)
        };
        let keys: Vec<&str> = plan.order.iter().map(|(_, c, _)| c.as_str()).collect();
        write.finish(&plan.input.messages, &keys, |j| {
            plan.regression(plan.order[j].2)
        })
    })?;
    links::set_state(store, &state)
}

/// What the regressions are made from: the messages a regression can
/// involve, their facts, one draft per regression and the order they are
/// written in.
struct Plan {
    input: LinkInput,
    facts: status::FactsByIndex,
    drafts: Vec<attach::Draft>,
    /// (first date, culprit, draft index), sorted.
    order: Vec<(i64, String, usize)>,
}

impl Plan {
    /// The regression of draft `k`, finished.
    fn regression(&self, k: usize) -> Regression {
        status::finish_with(
            &self.drafts[k],
            &self.input.messages,
            &self.input.marks,
            Some(&self.facts),
        )
    }
}

/// Reads the messages of the threads a regression can involve and drafts
/// the regressions, in the order `attach::regressions` gives them.
fn plan_regressions(store: &Store, sk: &crate::store::links::Skeleton) -> Result<Plan> {
    use crate::store::links;
    let keep = links::relink_messages(store, sk)?;
    let ids: Vec<i64> = keep
        .iter()
        .filter_map(|&i| sk.db_ids.get(i).copied())
        .collect();
    let (input, facts) = links::load_input_of(store, &ids)?;
    // Parents and depths from the threading of all messages; a parent lies in
    // the same thread, hence among the loaded messages.
    let at: std::collections::HashMap<u32, usize> = input
        .messages
        .iter()
        .enumerate()
        .filter_map(|(k, m)| {
            let i = sk.db_ids.binary_search(&m.db_id).ok()?;
            Some((*sk.container.get(i)?, k))
        })
        .collect();
    let (parent, depth): (Vec<Option<usize>>, Vec<u32>) = input
        .messages
        .iter()
        .map(|m| match sk.db_ids.binary_search(&m.db_id) {
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
    let drafts = attach::drafts(&input.messages, &parent, &depth);
    drop((parent, depth));
    let mut plan = Plan {
        input,
        facts,
        drafts,
        order: Vec::new(),
    };
    // The order of `attach::regressions` (a stable sort: draft order breaks
    // ties), from one finish of each; each is finished again when written,
    // so that no more than one regression is held at a time.
    let mut order: Vec<(i64, String, usize)> = (0..plan.drafts.len())
        .map(|k| {
            let r = plan.regression(k);
            (r.facts.first_unix.unwrap_or(i64::MAX), r.culprit.commit, k)
        })
        .collect();
    order.sort();
    plan.order = order;
    Ok(plan)
}
