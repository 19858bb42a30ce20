//! Owned domain types shared by every stage of the pipeline.
//!
//! Data flows one way: `source` yields [`RawMessage`]s, `mail` turns them into
//! [`Message`]s, `extract` (with `report` and `evidence`) produces an
//! [`Extraction`] per message, `store` persists both, `link` builds regression
//! histories, and `query`/`export` answer users. This module depends on
//! nothing else in the crate; its serde names are a public interface (the JSON
//! of `regtrack parse`): fields may be added, never renamed.

pub mod history;

use serde::{Deserialize, Serialize};

/// Where a raw message came from, for error reports and provenance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Origin {
    /// A byte offset inside a file (mbox, .eml, Maildir entry, rendered text).
    File {
        /// Path as given on the command line (or found in a folder walk).
        path: String,
        /// Byte offset of the message's first byte (the `From ` line for mbox).
        offset: u64,
    },
    /// A commit in a public-inbox epoch repository (blob `m`).
    Git {
        /// Path of the epoch's git directory.
        repo: String,
        /// Hex id of the commit that holds the message.
        commit: String,
    },
    /// Standard input, at a byte offset.
    Stdin {
        /// Byte offset inside standard input.
        offset: u64,
    },
}

impl Origin {
    /// A short human description, e.g. `lkp.mbox:1234` or `git/0.git@abc123`.
    pub fn describe(&self) -> String {
        match self {
            Origin::File { path, offset } => format!("{path}:{offset}"),
            Origin::Git { repo, commit } => format!("{repo}@{commit}"),
            Origin::Stdin { offset } => format!("<stdin>:{offset}"),
        }
    }
}

/// How the bytes of a raw message are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RawFormat {
    /// An RFC 5322 message (headers, blank line, body).
    Rfc822,
    /// Archive-rendered text: subject line, `[Name <email>]`, `[-- Attachment #N ... --]`.
    Rendered,
    /// A whole message whose newlines were collapsed into spaces.
    Collapsed,
}

/// The bytes of one raw message: a range of a buffer that may hold other
/// messages too (the mbox reader hands out the messages of each read this way,
/// without copying them), or a buffer of its own (`From<Vec<u8>>`). Reads as
/// `[u8]`; cloning shares the buffer.
#[derive(Clone)]
pub struct RawBytes {
    buf: std::sync::Arc<Vec<u8>>,
    start: usize,
    end: usize,
}

impl RawBytes {
    /// `range` of a shared buffer (clamped to the buffer).
    pub fn shared(buf: &std::sync::Arc<Vec<u8>>, range: std::ops::Range<usize>) -> Self {
        let end = range.end.min(buf.len());
        RawBytes {
            buf: std::sync::Arc::clone(buf),
            start: range.start.min(end),
            end,
        }
    }
}

impl From<Vec<u8>> for RawBytes {
    fn from(bytes: Vec<u8>) -> Self {
        let end = bytes.len();
        RawBytes {
            buf: std::sync::Arc::new(bytes),
            start: 0,
            end,
        }
    }
}

impl std::ops::Deref for RawBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        self.buf.get(self.start..self.end).unwrap_or_default()
    }
}

impl std::fmt::Debug for RawBytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

impl PartialEq for RawBytes {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for RawBytes {}

impl<const N: usize> PartialEq<&[u8; N]> for RawBytes {
    fn eq(&self, other: &&[u8; N]) -> bool {
        **self == other[..]
    }
}

impl PartialEq<Vec<u8>> for RawBytes {
    fn eq(&self, other: &Vec<u8>) -> bool {
        **self == other[..]
    }
}

/// One message's bytes as a source yielded them, before any parsing.
#[derive(Debug, Clone)]
pub struct RawMessage {
    /// Where the bytes came from.
    pub origin: Origin,
    /// The message bytes (mbox quoting already undone).
    pub bytes: RawBytes,
    /// The layout the source detected.
    pub format: RawFormat,
}

/// A MIME part kept in the decoded body, as a byte range of [`Message::body`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct BodyPart {
    /// MIME type, e.g. `text/plain` or `text/x-patch`.
    pub content_type: String,
    /// Attachment file name, if any.
    pub filename: Option<String>,
    /// First byte of the part inside the body.
    pub start: usize,
    /// One past the last byte of the part inside the body.
    pub end: usize,
}

/// A parsed, decoded message: the unit that is stored and extracted from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Message {
    /// Message-ID without angle brackets.
    pub message_id: String,
    /// True when the id was derived from the content because none was present.
    pub message_id_derived: bool,
    /// Subject with header folding undone (white space kept otherwise).
    pub subject: String,
    /// Display name of the sender.
    pub from_name: Option<String>,
    /// Address of the sender.
    pub from_email: Option<String>,
    /// Date as Unix seconds, UTC.
    pub date: Option<i64>,
    /// In-Reply-To id, without brackets.
    pub in_reply_to: Option<String>,
    /// References ids in order, without brackets.
    pub references: Vec<String>,
    /// List-ID values (without brackets); a message seen on several lists remembers each.
    pub list_ids: Vec<String>,
    /// Decoded UTF-8 text of all text parts, concatenated in order.
    pub body: String,
    /// Part boundaries inside `body`.
    pub parts: Vec<BodyPart>,
    /// A content hash of the raw message, to tell duplicates from re-ingests.
    pub content_hash: String,
    /// Size of the raw message in bytes.
    pub raw_size: u64,
}

/// What kind of message this is, as `regtrack parse` reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A robot performance report (regression or improvement).
    PerfReport,
    /// A robot functional report (BUG, WARNING, test failure).
    FunctionalReport,
    /// A robot build report.
    BuildReport,
    /// A patch (format-patch mail or `[PATCH ...]` subject).
    Patch,
    /// A reply by a person to some thread.
    Reply,
    /// Anything else.
    #[default]
    Other,
}

impl Kind {
    /// The robot's own mail: its performance, functional and build reports.
    pub fn is_robot_mail(self) -> bool {
        matches!(
            self,
            Kind::PerfReport | Kind::FunctionalReport | Kind::BuildReport
        )
    }

    /// The kebab-case name used in JSON and the database.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::PerfReport => "perf-report",
            Kind::FunctionalReport => "functional-report",
            Kind::BuildReport => "build-report",
            Kind::Patch => "patch",
            Kind::Reply => "reply",
            Kind::Other => "other",
        }
    }
}

/// Whether a report says the metric got worse or better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    /// The robot's word `regression`.
    Regression,
    /// The robot's word `improvement`.
    Improvement,
    /// `undefined` in impact tables, or no word at all.
    #[default]
    Undefined,
}

impl Direction {
    /// The kebab-case name used in JSON and the database.
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Regression => "regression",
            Direction::Improvement => "improvement",
            Direction::Undefined => "undefined",
        }
    }
}

impl std::fmt::Display for Direction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The facts a report subject carries (`[linus:master] [xfs] 2edf06a50f: fsmark... -5.7% regression`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct SubjectReport {
    /// `tree:branch` as written (`linus:master`), if present.
    pub branch: Option<String>,
    /// Subsystem tag (`xfs`, `fs/dax`, `mm, oom`).
    pub subsystem: Option<String>,
    /// Culprit short id (8-40 hex) or tag.
    pub commit: String,
    /// Metric for perf reports (`fsmark.files_per_sec`).
    pub metric: Option<String>,
    /// Change in percent as written (sign kept when present).
    pub change_percent: Option<f64>,
    /// From the words `regression`/`improvement`, never from the sign.
    pub direction: Option<Direction>,
    /// Failure id for functional reports (`BUG:KASAN:...`, `xfstests.btrfs.020.fail`).
    pub failure: Option<String>,
    /// List tags seen before the report part (`LKP`, `lkp-robot`, `RFC`).
    #[serde(default)]
    pub tags: Vec<String>,
    /// Trailing words after the direction (`in mmap1 benchmark`).
    #[serde(default)]
    pub trailing: Option<String>,
    /// True when the subject is a reply/forward (`Re:`, `Fwd:`).
    #[serde(default)]
    pub is_reply: bool,
}

/// One entry of the "In addition to that, the commit also has significant impact" box.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct ImpactEntry {
    /// Test case (`stress-ng`).
    pub testcase: Option<String>,
    /// Metric (`stress-ng.numa.ops_per_sec`).
    pub metric: Option<String>,
    /// Change in percent.
    pub change_percent: Option<f64>,
    /// Direction word.
    pub direction: Option<Direction>,
    /// Test machine description.
    pub test_machine: Option<String>,
    /// Parameters (`key=value` rows) in order.
    pub parameters: Vec<(String, String)>,
}

/// The robot's own report body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct ReportBody {
    /// Full 40-hex culprit id from the `commit:` line.
    pub commit_full: Option<String>,
    /// Culprit title from `("...")`.
    pub commit_title: Option<String>,
    /// Metric from the lead sentence.
    pub metric: Option<String>,
    /// Change from the lead sentence.
    pub change_percent: Option<f64>,
    /// Direction from the lead sentence.
    pub direction: Option<Direction>,
    /// Tree URL and branch line under `commit:`.
    pub tree_url: Option<String>,
    /// `url:` line (patch reports).
    pub url: Option<String>,
    /// `base:` line.
    pub base: Option<String>,
    /// `patch link:` line.
    pub patch_link: Option<String>,
    /// `in testcase:` / `testcase:`.
    pub testcase: Option<String>,
    /// `on test machine:` / `test machine:`.
    pub test_machine: Option<String>,
    /// `with following parameters:` / `parameters:` block, in order.
    pub parameters: Vec<(String, String)>,
    /// `test-description:`.
    pub test_description: Option<String>,
    /// `test-url:`.
    pub test_url: Option<String>,
    /// The impact box entries.
    pub also_impacts: Vec<ImpactEntry>,
    /// Suggested `Reported-by:`/`Closes:`/`Link:` tags (not the mail's own trailers).
    pub suggested_tags: Vec<Trailer>,
    /// Reproduce commands or download URL.
    pub reproduce: Vec<String>,
    /// Earlier reports of the same change the preamble names.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub previous: Vec<PreviousReport>,
}

/// A change cell of a comparison table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Change {
    /// Numeric value; null for `+Inf%`/`NaN%`.
    pub value: Option<f64>,
    /// `%` for relative changes, `abs` for absolute differences.
    pub unit: ChangeUnit,
}

/// Unit of a [`Change`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum ChangeUnit {
    /// Relative change in percent.
    #[serde(rename = "%")]
    #[default]
    Percent,
    /// Absolute difference (percent metrics, perf-profile).
    #[serde(rename = "abs")]
    Abs,
}

/// Table layouts the extractors recognise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum TableFormat {
    /// The robot's `%stddev %change %stddev` table (all dialects).
    #[serde(rename = "lkp")]
    #[default]
    Lkp,
    /// The robot's `fail:runs %reproduction fail:runs` table.
    #[serde(rename = "lkp-fail")]
    LkpFail,
    /// mmtests compare-kernels output.
    #[serde(rename = "mmtests")]
    Mmtests,
    /// stress-ng `metrc:` lines.
    #[serde(rename = "stress-ng")]
    StressNg,
}

impl TableFormat {
    /// The name used in JSON and the database.
    pub fn as_str(self) -> &'static str {
        match self {
            TableFormat::Lkp => "lkp",
            TableFormat::LkpFail => "lkp-fail",
            TableFormat::Mmtests => "mmtests",
            TableFormat::StressNg => "stress-ng",
        }
    }
}

/// One row of a table. Which fields are set depends on the table's format.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct TableRow {
    /// Metric / stat name (the stressor for stress-ng).
    pub metric: String,
    /// One value per column (lkp, mmtests).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<Option<f64>>,
    /// lkp: relative stddev in percent per column; null when no `±` was printed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stddev_percent: Vec<Option<f64>>,
    /// lkp: true per column where no `±` was printed because the robot judged the stddev
    /// small (it prints it only above 2%).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stddev_small: Vec<bool>,
    /// lkp/mmtests: change per column; the base column's is null.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<Option<Change>>,
    /// mmtests: the statistic (`Hmean`, `Amean`, `Stddev`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stat: Option<String>,
    /// mmtests: `*...*` significance marks per column.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub significant: Vec<bool>,
    /// lkp-fail: failing runs per column.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fails: Vec<Option<u64>>,
    /// lkp-fail: total runs per column.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<Option<u64>>,
    /// lkp-fail: reproduction delta in percent points per column (base null).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reproduction: Vec<Option<f64>>,
    /// stress-ng: bogo ops.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bogo_ops: Option<f64>,
    /// stress-ng: real time (s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub real_time: Option<f64>,
    /// stress-ng: user time (s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usr_time: Option<f64>,
    /// stress-ng: system time (s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sys_time: Option<f64>,
    /// stress-ng: bogo ops/s (real time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bogo_ops_per_sec_real: Option<f64>,
    /// stress-ng: bogo ops/s (usr+sys time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bogo_ops_per_sec_cpu: Option<f64>,
}

/// A table found in a message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Table {
    /// Layout of the table.
    pub format: TableFormat,
    /// Quote depth of the table's lines (0 = the author's own text).
    pub quote_depth: u32,
    /// Group parameters (`compiler` -> `gcc-12`, ...), in order.
    #[serde(default)]
    pub params: Vec<(String, String)>,
    /// Column ids: commit ids / tags (lkp), kernel names (mmtests), run PIDs (stress-ng).
    #[serde(default)]
    pub commits: Vec<String>,
    /// Titles from a `commit:` list, keyed like `commits` where known.
    #[serde(default)]
    pub commit_titles: Vec<(String, String)>,
    /// Parsed rows in order.
    pub rows: Vec<TableRow>,
    /// Rows that did not fit the layout and were skipped (never guessed).
    pub skipped_rows: u32,
    /// Rows that fit but were left out by the cap ([`Table::MAX_ROWS`] per
    /// table, and a budget per message): counted, not stored.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub omitted_rows: u32,
    /// Byte offset in the body where the table starts.
    #[serde(default)]
    pub offset: usize,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Table {
    /// The most rows one table stores; the rest are counted in
    /// `omitted_rows`. The robot's tables have tens to a few hundred rows.
    pub const MAX_ROWS: usize = 10_000;

    /// Stores `row`, or counts it in `omitted_rows` once the table holds
    /// [`Table::MAX_ROWS`]. Returns whether it was stored.
    pub fn push_row(&mut self, row: TableRow) -> bool {
        if self.rows.len() < Self::MAX_ROWS {
            self.rows.push(row);
            true
        } else {
            self.omitted_rows = self.omitted_rows.saturating_add(1);
            false
        }
    }
}

/// One hunk of a unified diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Hunk {
    /// `-l` start line.
    pub old_start: u32,
    /// `,s` old line count.
    pub old_lines: u32,
    /// `+l` start line.
    pub new_start: u32,
    /// `,s` new line count.
    pub new_lines: u32,
    /// Text after the second `@@` (function context).
    pub context: String,
    /// Lines added.
    pub added: u32,
    /// Lines removed.
    pub removed: u32,
}

/// One file of an inline diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct DiffFile {
    /// Old path (`a/` stripped); null for a hunk quoted without a file header.
    pub old_path: Option<String>,
    /// New path (`b/` stripped); null for a hunk quoted without a file header.
    pub new_path: Option<String>,
    /// Quote depth of the diff lines.
    pub quote_depth: u32,
    /// Hunks in order.
    pub hunks: Vec<Hunk>,
    /// `new file mode` seen.
    #[serde(default)]
    pub new_file: bool,
    /// `deleted file mode` seen.
    #[serde(default)]
    pub deleted_file: bool,
}

/// A trailer line (`Fixes:`, `Reported-by:`, ...).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Trailer {
    /// Key as written, canonical case (`Reported-by`).
    pub key: String,
    /// Value with surrounding white space trimmed.
    pub value: String,
    /// True inside the robot's "kindly add following tag" block.
    #[serde(default)]
    pub suggested: bool,
    /// Fixes: the commit id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// Fixes: the commit title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Quote depth of the trailer line.
    #[serde(default)]
    pub quote_depth: u32,
}

/// A commit referenced in the text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct CommitRef {
    /// Hex id (7-40), full when known.
    pub id: String,
    /// Title, when given as `("title")`.
    pub title: Option<String>,
    /// Smallest quote depth it appeared at.
    pub quote_depth: u32,
}

/// One line of a perf report profile or call chain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct ProfileEntry {
    /// Percentage, if printed on the line.
    pub percent: Option<f64>,
    /// Symbol name.
    pub symbol: String,
    /// Module / DSO (`[kernel]`), if printed.
    pub module: Option<String>,
    /// Depth in the call-chain tree (0 = top).
    pub depth: u32,
    /// Quote depth of the line.
    pub quote_depth: u32,
}

/// A command line given to reproduce a result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Reproducer {
    /// The command, with any `# `/`$ ` prompt removed.
    pub command: String,
    /// Quote depth of the line.
    pub quote_depth: u32,
}

/// A Kconfig option change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct KconfigChange {
    /// Option name without the `CONFIG_` prefix.
    pub option: String,
    /// Value before (`y`, `m`, `"str"`, `not set`), null if absent.
    pub before: Option<String>,
    /// Value after, null if removed.
    pub after: Option<String>,
}

/// What a sentence of a reply (or a table, or a trailer) says about a
/// regression (the phrase families of `grammar/evidence-signal.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum SignalKind {
    /// A fix restores performance.
    ConfirmsFix,
    /// A comparison table's last column (a diff on top of the culprit)
    /// wins back part of the headline's loss, not all of it: a measured
    /// step towards a fix, never a confirmation.
    PartlyRestores,
    /// The bisect or the report is doubted.
    #[default]
    Disputes,
    /// The result cannot be reproduced.
    CannotReproduce,
    /// The cost is accepted: expected, intended, a trade-off, not worth
    /// chasing.
    Declines,
    /// The change is called noise.
    Noise,
    /// The change is blamed on code or data layout.
    Layout,
    /// The report is taken back: a false alarm, a broken test set-up,
    /// "please ignore this report".
    Withdraws,
    /// A fix is promised ("I'll send a fix").
    WillFix,
    /// A revert or drop of the culprit is promised or proposed.
    WillRevert,
    /// The culprit's series is set aside ("let's put this on hold").
    SetsAside,
    /// The robot tested a version of the culprit that a newer one replaces
    /// ("that is the original v1 patch", "I have sent out another patch").
    Superseded,
    /// A sentence that leans towards accepting the cost without saying it
    /// ("the slowdown ... correctness", "a trade-off for the results"): a
    /// question for a person, never a decision.
    MaybeDeclines,
    /// A sentence that leans towards doubting the report without saying it
    /// ("this is strange since the patch changes no functionality"): a
    /// question for a person, never a decision.
    MaybeDisputes,
    /// The author of a diff says it is no fix: a pointer to where the cost
    /// comes from, a debug aid, an experiment ("this patch is not a fix",
    /// "only meant for testing", "I don't expect much difference"). Read
    /// only of a message carrying its own diff.
    NotAFix,
}

impl SignalKind {
    /// The kebab-case name used in JSON and the database.
    pub fn as_str(self) -> &'static str {
        match self {
            SignalKind::ConfirmsFix => "confirms-fix",
            SignalKind::PartlyRestores => "partly-restores",
            SignalKind::Disputes => "disputes",
            SignalKind::CannotReproduce => "cannot-reproduce",
            SignalKind::Declines => "declines",
            SignalKind::Noise => "noise",
            SignalKind::Layout => "layout",
            SignalKind::Withdraws => "withdraws",
            SignalKind::WillFix => "will-fix",
            SignalKind::WillRevert => "will-revert",
            SignalKind::SetsAside => "sets-aside",
            SignalKind::Superseded => "superseded",
            SignalKind::MaybeDeclines => "maybe-declines",
            SignalKind::MaybeDisputes => "maybe-disputes",
            SignalKind::NotAFix => "not-a-fix",
        }
    }
}

/// A sentence (or table, or trailer) that says something about a regression.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Signal {
    /// What it says.
    pub kind: SignalKind,
    /// The sentence, white space folded.
    pub sentence: String,
    /// Quote depth; only depth 0 speaks for the mail's author.
    pub quote_depth: u32,
    /// For table signals: the commit whose column confirms the fix.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// Said as a guess (hedged, or a phrase that is only ever a guess).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tentative: bool,
    /// A commit id the sentence names (which report or patch it is about).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mentions: Option<String>,
}

/// Kinds of events read from mail text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum EventKind {
    /// `[still regression on <tree>/<branch> <sha>]`.
    StillRegression,
    /// `[test failed on ...]`.
    TestFailed,
    /// A `#regzbot ...` command line.
    Regzbot,
    /// A `#syz ...` command line.
    Syz,
    /// A maintainer's "applied"/"queued" reply.
    #[default]
    Applied,
}

/// An event line found in a message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Event {
    /// What kind of event.
    pub kind: EventKind,
    /// Tree/branch (`linus/master`) where given.
    pub tree: Option<String>,
    /// Commit id where given.
    pub sha: Option<String>,
    /// The line as written.
    pub text: String,
    /// Quote depth.
    pub quote_depth: u32,
}

/// Everything extracted from one message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Extraction {
    /// Message kind.
    pub kind: Kind,
    /// Facts of a report subject (also on replies to reports).
    pub subject_report: Option<Box<SubjectReport>>,
    /// The robot's own report body.
    pub report: Option<Box<ReportBody>>,
    /// Tables of every format.
    pub tables: Vec<Table>,
    /// Inline diffs.
    pub diffs: Vec<DiffFile>,
    /// Trailers (own and suggested).
    pub trailers: Vec<Trailer>,
    /// Referenced commits.
    pub commits: Vec<CommitRef>,
    /// Profile lines and call chains.
    pub profiles: Vec<ProfileEntry>,
    /// Reproducer commands.
    pub reproducers: Vec<Reproducer>,
    /// Kconfig changes.
    pub kconfig: Vec<KconfigChange>,
    /// Confirming/disputing signals.
    pub signals: Vec<Signal>,
    /// Event lines (still-regression, regzbot, syz, applied).
    pub events: Vec<Event>,
    /// Lore URLs cited in the unquoted text (message ids they point to).
    pub lore_links: Vec<String>,
    /// What identifies the patch this message carries, if it carries one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patch: Option<Box<PatchFacts>>,
    /// Where patches landed, as this message says (applied replies, b4
    /// thank-yous, for-next announcements, pull requests, merge notes).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub landings: Vec<Landing>,
    /// The signals were not read yet ([`crate::extract::extract_each_deferred`]):
    /// `signals` is empty, and a link reads them when it first asks for
    /// them. Never serialized: robot mail, whose extraction is kept as
    /// JSON, is always read.
    #[serde(skip)]
    pub signals_unread: bool,
}

/// What identifies a patch across its forms (grammar: `grammar/evidence-patch.md`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct PatchFacts {
    /// The patch's own title: the subject without `Re:`, list tags and the
    /// `[PATCH v3 2/7]` tag (empty for a diff in a reply).
    pub title: String,
    /// The title as compared across versions: lower-cased, white space
    /// folded, a final period dropped (see `evidence::patch::title_key`).
    pub title_key: String,
    /// `v3` of `[PATCH v3 2/7]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<u32>,
    /// `2` of `[PATCH v3 2/7]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub part: Option<u32>,
    /// `7` of `[PATCH v3 2/7]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parts: Option<u32>,
    /// `RESEND` in the tag.
    pub resend: bool,
    /// `RFC` in the tag.
    pub rfc: bool,
    /// Stable patch id of the mail's own diff (see `evidence::patch::patch_id`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patch_id: Option<String>,
    /// b4's `change-id:` line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change_id: Option<String>,
    /// `base-commit:` line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_commit: Option<String>,
    /// The commit a revert names (`This reverts commit <40 hex>.`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reverts: Option<String>,
    /// The title a revert names (`Revert "<title>"`), as a title key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reverts_title: Option<String>,
    /// A stable backport's upstream commit (`commit <40 hex> upstream.`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upstream: Option<String>,
    /// What its own diff touches: each file (`fs/ext4/inode.c`) and each
    /// function a hunk header names (`fs/ext4/inode.c:ext4_write_begin`),
    /// in order, at most [`PatchFacts::MAX_TOUCHES`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub touches: Vec<String>,
    /// The words of its own changelog that speak of performance or of the
    /// robot (`performance`, `regression`, `kernel test robot`, ...), each
    /// once, lower case.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub speaks_of: Vec<String>,
    /// One sentence of its own changelog names the robot and speaks of
    /// performance or a regression ("thanks to the 0day robot for catching
    /// a performance bug"), not only a trailer crediting it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub robot_perf: bool,
    /// A cover letter's shortlog: the titles of the series' parts, as
    /// title keys (every part, also those not posted to this list).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub series_titles: Vec<String>,
}

impl PatchFacts {
    /// The most files and functions [`PatchFacts::touches`] keeps.
    pub const MAX_TOUCHES: usize = 64;
}

/// How a message says a patch landed (or left a tree).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum LandingKind {
    /// A maintainer's reply: `Applied, thanks!`, `Queued for 6.5`, a b4 thank-you entry.
    #[default]
    Applied,
    /// A line of a for-next announcement's shortlog.
    ForNext,
    /// A line of a pull request's shortlog.
    PullRequest,
    /// A commit of a branch's log someone pasted (`git log --graph
    /// --oneline --decorate` of a remote-tracking branch).
    BranchLog,
    /// pr-tracker-bot: the pull request was merged into mainline.
    Merged,
    /// tip-bot2: the commit was merged into a branch of tip.
    TipBot,
    /// Added to a stable tree.
    Stable,
    /// A library sync naming the kernel commit (`Source kernel commit: <sha>`).
    LibrarySync,
    /// Dropped from a tree (`Dropped from for-next`, `I've dropped the series`).
    Dropped,
    /// Someone means to drop the patch (`I'll drop it from my series`,
    /// `we can drop this patch`): for a patch under review, it is gone.
    WillDrop,
}

impl LandingKind {
    /// The kebab-case name used in JSON and the database.
    pub fn as_str(self) -> &'static str {
        match self {
            LandingKind::Applied => "applied",
            LandingKind::ForNext => "for-next",
            LandingKind::PullRequest => "pull-request",
            LandingKind::BranchLog => "branch-log",
            LandingKind::Merged => "merged",
            LandingKind::TipBot => "tip-bot",
            LandingKind::Stable => "stable",
            LandingKind::LibrarySync => "library-sync",
            LandingKind::Dropped => "dropped",
            LandingKind::WillDrop => "will-drop",
        }
    }
}

/// One landing a message states (grammar: `grammar/evidence-landing.md`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Landing {
    /// What kind of landing.
    pub kind: LandingKind,
    /// The title of the patch it names, as a title key; none when it is
    /// about the patch the message replies to (`Applied, thanks!`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The commit id it gives.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The tree (repository URL or name) it names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tree: Option<String>,
    /// The branch, tag or release (`for-next`, `tags/ext4_for_linus`, `6.1-stable`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// Quote depth of the lines it was read from.
    pub quote_depth: u32,
}

/// An earlier report the robot's preamble names (`we reported "<subject>" in
/// <lore URL> when this commit was on <tree>`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct PreviousReport {
    /// The culprit id of the quoted subject.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The Message-ID of the lore URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
}
