//! Regression histories: what linking computes and every answer shows.
//!
//! The serde form of [`Regression`] is the public JSON of `show --json` and
//! `export --format json` (documented in `docs/json.md`): fields may be added,
//! never renamed, and every field decodes with a default so that a summary
//! stored by an older build still reads.

use serde::{Deserialize, Serialize};

use super::{Direction, Kind};

/// Declares [`Status`] from one row per status: its doc, its variant and
/// its [`StatusFacts`]. The enum, [`Status::ALL`] and every fact regtrack
/// decides by a status come from these rows, so a new status is one more
/// row, and no list of statuses elsewhere can miss it.
macro_rules! statuses {
    ($( $(#[$meta:meta])* $variant:ident => $facts:expr, )*) => {
        /// The status of a regression.
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
            Default,
        )]
        #[serde(rename_all = "kebab-case")]
        pub enum Status {
            $( $(#[$meta])* $variant, )*
        }

        impl Status {
            /// Every status, in display order.
            pub const ALL: [Status; [$(Status::$variant),*].len()] = [$(Status::$variant),*];

            /// What regtrack decides by this status.
            pub const fn facts(self) -> StatusFacts {
                match self {
                    $( Status::$variant => $facts, )*
                }
            }
        }
    };
}

statuses! {
    /// Only the robot spoke.
    #[default]
    Reported => StatusFacts {
        name: "reported",
        closed: false,
        fixed: false,
        path: Some(0),
        waits_for: Some(Wait::Reply),
        colour: "31",
    },
    /// A person replied.
    Discussed => StatusFacts {
        name: "discussed",
        closed: false,
        fixed: false,
        path: Some(1),
        waits_for: Some(Wait::Patch),
        colour: "91",
    },
    /// A patch is linked.
    FixProposed => StatusFacts {
        name: "fix-proposed",
        closed: false,
        fixed: false,
        path: Some(2),
        waits_for: Some(Wait::Landing),
        colour: "33",
    },
    /// A table, sentence or Tested-by shows the fix restores the metric.
    FixConfirmed => StatusFacts {
        name: "fix-confirmed",
        closed: false,
        fixed: false,
        path: Some(3),
        waits_for: Some(Wait::Landing),
        colour: "93",
    },
    /// A maintainer applied the fix.
    FixApplied => StatusFacts {
        name: "fix-applied",
        closed: true,
        fixed: true,
        path: Some(4),
        waits_for: None,
        colour: "32",
    },
    /// The fix is in mainline (a pull request that carries it was merged, or
    /// a release holds it).
    Fixed => StatusFacts {
        name: "fixed",
        closed: true,
        fixed: true,
        path: Some(PATH_END),
        waits_for: None,
        colour: "92",
    },
    /// Bisect doubted, cannot reproduce, blamed on layout or noise.
    Disputed => StatusFacts {
        name: "disputed",
        closed: false,
        fixed: false,
        path: None,
        waits_for: None,
        colour: "35",
    },
    /// A maintainer will not chase it.
    Declined => StatusFacts {
        name: "declined",
        closed: true,
        fixed: false,
        path: None,
        waits_for: None,
        colour: "90",
    },
    /// The culprit left its tree before it reached mainline: dropped from
    /// for-next, reverted, or (a patch under review) abandoned.
    CulpritDropped => StatusFacts {
        name: "culprit-dropped",
        closed: true,
        fixed: false,
        path: Some(PATH_END),
        waits_for: None,
        colour: "36",
    },
    /// The report is an improvement; nobody needs to act.
    Improvement => StatusFacts {
        name: "improvement",
        closed: true,
        fixed: false,
        path: None,
        waits_for: None,
        colour: "34",
    },
}

/// The place of the statuses that end the forward path (`fixed`,
/// `culprit-dropped`) on it.
pub const PATH_END: u8 = 5;

/// Everything regtrack decides by a status, given in the status's row of
/// [`Status`]: every place that treats statuses differently reads these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatusFacts {
    /// The kebab-case name used in JSON, the database and on the command
    /// line (serde's name of the variant).
    pub name: &'static str,
    /// Nobody needs to act any more: the group `closed` (the others are the
    /// group `open`).
    pub closed: bool,
    /// A fix landed: the group `landed`.
    pub fixed: bool,
    /// The place on the forward path the status fold moves along
    /// (`reported` 0 to [`PATH_END`], never back); `None` for a side state,
    /// which holds until a later patch or fix moves the history on.
    pub path: Option<u8>,
    /// What an open history with this status waits for, said by the triage
    /// flags and the report's list of what is missing; `None` when it waits
    /// for nothing regtrack can name.
    pub waits_for: Option<Wait>,
    /// The SGR colour code `list` and `show` paint it in on a terminal, one
    /// no other status (nor the triage flags, `95`) has.
    pub colour: &'static str,
}

/// What an open history waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wait {
    /// A person's reply.
    Reply,
    /// A patch.
    Patch,
    /// Its patch applied.
    Landing,
}

impl Status {
    /// The kebab-case name used in JSON, the database and on the command line.
    pub fn as_str(self) -> &'static str {
        self.facts().name
    }

    /// Parses a status name (as printed by [`Status::as_str`]).
    pub fn parse(s: &str) -> Option<Status> {
        Status::ALL
            .into_iter()
            .find(|st| st.as_str().eq_ignore_ascii_case(s.trim()))
    }

    /// The names of every status, in display order, comma-separated
    /// (`reported, discussed, ...`), as help texts list them.
    pub fn names() -> String {
        Status::ALL.map(Status::as_str).join(", ")
    }

    /// True when nobody needs to act any more.
    pub fn is_closed(self) -> bool {
        self.facts().closed
    }

    /// True for the statuses of a fix that landed (`fix-applied`, `fixed`).
    pub fn is_fixed(self) -> bool {
        self.facts().fixed
    }

    /// True for the statuses that end the forward path (`fixed`,
    /// `culprit-dropped`): what the mail settled so stays.
    pub fn ends_path(self) -> bool {
        self.facts().path == Some(PATH_END)
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a message is attached to a regression.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// A robot report of the culprit.
    Report,
    /// A reply in a report's thread, or a message linking to the history.
    #[default]
    Reply,
    /// A patch (posted, or a diff in a reply).
    Patch,
    /// A reply to a linked patch.
    PatchReply,
    /// A `Revert "<culprit title>"` patch.
    Revert,
    /// A message that only says where a linked patch landed (a pull
    /// request, a for-next announcement, a merge note).
    Landing,
}

impl Role {
    /// The kebab-case name used in JSON and the database.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Report => "report",
            Role::Reply => "reply",
            Role::Patch => "patch",
            Role::PatchReply => "patch-reply",
            Role::Revert => "revert",
            Role::Landing => "landing",
        }
    }
}

/// What kind of patch a linked patch is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum PatchRole {
    /// A posted patch (`[PATCH ...]`, format-patch mail).
    #[default]
    Patch,
    /// A revert of the culprit.
    Revert,
    /// A diff in a reply (an inline draft, "does this help?").
    DebugPatch,
}

impl PatchRole {
    /// The kebab-case name used in JSON and the database.
    pub fn as_str(self) -> &'static str {
        match self {
            PatchRole::Patch => "patch",
            PatchRole::Revert => "revert",
            PatchRole::DebugPatch => "debug-patch",
        }
    }
}

impl std::fmt::Display for PatchRole {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How far a linked patch got.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default,
)]
#[serde(rename_all = "kebab-case")]
pub enum PatchState {
    /// Posted; nothing more known.
    #[default]
    Proposed,
    /// Someone other than its author gave a `Reviewed-by:` or `Acked-by:`.
    Reviewed,
    /// A measurement shows it restores the metric.
    Confirmed,
    /// A maintainer applied it to a tree.
    Applied,
    /// A pull request carrying it was merged into mainline (or a release
    /// holds it).
    Merged,
    /// Another patch fixed the regression instead.
    Superseded,
    /// Dropped from the tree it was applied to, or rejected.
    Dropped,
}

impl PatchState {
    /// The kebab-case name used in JSON and the database.
    pub fn as_str(self) -> &'static str {
        match self {
            PatchState::Proposed => "proposed",
            PatchState::Reviewed => "reviewed",
            PatchState::Confirmed => "confirmed",
            PatchState::Applied => "applied",
            PatchState::Merged => "merged",
            PatchState::Superseded => "superseded",
            PatchState::Dropped => "dropped",
        }
    }
}

impl std::fmt::Display for PatchState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PatchState {
    /// How far a patch got, for choosing a history's fix: merged, applied,
    /// confirmed, reviewed, proposed; superseded and dropped below all.
    pub fn rank(self) -> u8 {
        match self {
            PatchState::Merged => 6,
            PatchState::Applied => 5,
            PatchState::Confirmed => 4,
            PatchState::Reviewed => 3,
            PatchState::Proposed => 2,
            PatchState::Superseded => 1,
            PatchState::Dropped => 0,
        }
    }
}

/// What the robot tested, from the first report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// Mainline (`[linus:master]`, torvalds/linux.git).
    Mainline,
    /// linux-next.
    Next,
    /// A maintainer's tree or branch (`[tytso-ext4:dev]`, `tip sched/core`).
    MaintainerTree,
    /// A developer's own branch (a topic or work-in-progress branch).
    DeveloperBranch,
    /// A patch posted for review (a reply to `[PATCH ...]`, an
    /// intel-lab-lkp/0day-ci branch of it).
    PatchUnderReview,
    /// The report does not say.
    #[default]
    Unknown,
}

impl Scope {
    /// The kebab-case name used in JSON and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Mainline => "mainline",
            Scope::Next => "next",
            Scope::MaintainerTree => "maintainer-tree",
            Scope::DeveloperBranch => "developer-branch",
            Scope::PatchUnderReview => "patch-under-review",
            Scope::Unknown => "unknown",
        }
    }

    /// Every scope.
    pub const ALL: [Scope; 6] = [
        Scope::Mainline,
        Scope::Next,
        Scope::MaintainerTree,
        Scope::DeveloperBranch,
        Scope::PatchUnderReview,
        Scope::Unknown,
    ];

    /// Parses a scope name.
    pub fn parse(s: &str) -> Option<Scope> {
        Scope::ALL
            .into_iter()
            .find(|x| x.as_str().eq_ignore_ascii_case(s.trim()))
    }

    /// True when the tested code is in (or on its way to) a real tree, so
    /// that tracker lines and triage flags make sense.
    pub fn reaches_a_tree(self) -> bool {
        !matches!(self, Scope::PatchUnderReview | Scope::DeveloperBranch)
    }
}

impl std::fmt::Display for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One place a patch landed, as the mail says.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct AppliedAt {
    /// The tree (repository URL or name), when the mail names it.
    pub tree: Option<String>,
    /// The branch, tag or release.
    pub branch: Option<String>,
    /// The commit id, when the mail gives it.
    pub commit: Option<String>,
    /// When (ISO 8601, UTC).
    pub date: Option<String>,
    /// The message that says so.
    pub message_id: String,
    /// `applied`, `for-next`, `pull-request`, `merged`, `tip-bot`,
    /// `stable`, `library-sync` or `dropped`.
    pub kind: String,
}

/// The fix of a regression: the linked patch that got furthest.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct FixInfo {
    /// The patch's own title.
    pub title: String,
    /// The commit id of the fix, when known.
    pub commit: Option<String>,
    /// Every tree or branch it landed in, in order.
    pub trees: Vec<String>,
    /// The posting the history links.
    pub message_id: String,
    /// How far it got.
    pub state: PatchState,
    /// The first release that holds it, when known.
    pub release: Option<String>,
}

impl FixInfo {
    /// Its title, or `<Message-ID>` for a fix known by its link alone (a
    /// posting cited by the reply that confirms it).
    pub fn name(&self) -> String {
        if self.title.is_empty() && !self.message_id.is_empty() {
            format!("<{}>", self.message_id)
        } else {
            self.title.clone()
        }
    }
}

/// How trustworthy a report's headline change is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum ConfidenceLevel {
    /// The change exceeds the stddevs and other metrics moved with it.
    High,
    /// One of the two.
    Medium,
    /// Neither.
    #[default]
    Low,
}

impl ConfidenceLevel {
    /// The kebab-case name used in JSON and the database.
    pub fn as_str(self) -> &'static str {
        match self {
            ConfidenceLevel::High => "high",
            ConfidenceLevel::Medium => "medium",
            ConfidenceLevel::Low => "low",
        }
    }
}

impl std::fmt::Display for ConfidenceLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A human decision stored by `regtrack mark` (or withdrawn by `regtrack
/// unmark`): a status, a fix commit, a release, a duplicate, or the
/// withdrawal of an earlier mark. See [`crate::link::marks`].
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Mark {
    /// `marks.id` (0 before it is stored).
    pub id: i64,
    /// Culprit id the mark was made on (any abbreviation).
    pub culprit: String,
    /// Status set (`None`: the mark names a fix, a release, a duplicate or
    /// withdraws one).
    pub status: Option<Status>,
    /// The fix commit (`mark --fix <sha>`).
    pub fix: Option<String>,
    /// The release the fix shipped in (`mark --fixed-in <tag>`).
    pub fixed_in: Option<String>,
    /// The posting that fixes it (`mark --fix <Message-ID>`): linked as the
    /// history's fix.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix_patch: Option<String>,
    /// The culprit of the history this one duplicates (`mark X dup-of Y`).
    pub dup_of: Option<String>,
    /// The mark this one withdraws (`regtrack unmark`).
    pub withdraws: Option<i64>,
    /// Free-text note.
    pub note: Option<String>,
    /// Who decided.
    pub author: String,
    /// When, Unix seconds.
    pub at: i64,
}

/// The culprit commit of a regression.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CulpritInfo {
    /// Longest known id of the commit.
    pub commit: String,
    /// Commit title, when a report or a `Fixes:` tag gave it.
    pub title: Option<String>,
    /// Every other id the commit was named by.
    pub aliases: Vec<String>,
    /// The repository the robot took it from, as its first report names it
    /// (the tree under `commit:`, or the robot's branch of a posted patch).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repository: Option<String>,
    /// Longer ids this one is also a prefix of (ambiguous abbreviation).
    pub ambiguous_with: Vec<String>,
    /// The full id of the commit as a followed kernel tree holds it
    /// (`regtrack trees`), when one does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tree_commit: Option<String>,
    /// Its committer date in that tree (ISO 8601, UTC).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub committed: Option<String>,
    /// The followed trees and refs holding it (`mainline master`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub trees: Vec<String>,
    /// The first release tag containing it (`v6.9-rc3`), when a followed
    /// tree has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub release: Option<String>,
}

/// Why a status was set.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct StatusEvidence {
    /// The status it set.
    pub status: Status,
    /// The message that carries the evidence (none for a mark).
    pub message_id: Option<String>,
    /// The sentence, table or rule.
    pub reason: String,
}

/// How trustworthy a report's headline change is, from its own table.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Confidence {
    /// `high`, `medium` or `low`.
    pub level: ConfidenceLevel,
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
#[serde(default)]
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
#[serde(default)]
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
    pub change_as_written: Option<f64>,
    /// `regression`, `improvement` or `undefined` (from the robot's word).
    pub direction: Direction,
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
    pub kind: Kind,
    /// Confidence from the report's own table.
    pub confidence: Option<Confidence>,
    /// The report's metric row first, then the largest changes.
    pub headline_rows: Vec<HeadlineRow>,
    /// The "In addition to that, the commit also has significant impact" entries.
    pub also_impacts: Vec<ImpactInfo>,
}

/// One entry of a report's impact box.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ImpactInfo {
    /// Metric.
    pub metric: Option<String>,
    /// Change in percent as written.
    pub change_percent: Option<f64>,
    /// `regression`, `improvement` or `undefined`.
    pub direction: Direction,
    /// Test case.
    pub testcase: Option<String>,
    /// Test machine.
    pub test_machine: Option<String>,
}

/// A `key: value` trailer of a patch.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct TrailerKv {
    /// Key (`Fixes`, `Closes`, ...).
    pub key: String,
    /// Value.
    pub value: String,
}

/// A patch linked to a regression.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
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
    pub role: PatchRole,
    /// Why it is linked.
    pub reason: String,
    /// `proposed`, `reviewed`, `confirmed`, `applied`, `merged`,
    /// `superseded` or `dropped`.
    pub state: PatchState,
    /// The patch's own trailers.
    pub trailers: Vec<TrailerKv>,
    /// The patch's own title (the subject without `Re:` and `[PATCH ...]`).
    pub title: String,
    /// Every posting of the patch (draft, v1 ... vN, resends), oldest first.
    pub versions: Vec<String>,
    /// The posting that was applied, when known.
    pub applied_version: Option<String>,
    /// Where it landed, in date order.
    pub applied: Vec<AppliedAt>,
}

/// A message attached to a regression.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Attachment {
    /// Message-ID.
    pub message_id: String,
    /// `report`, `reply`, `patch`, `patch-reply` or `revert`.
    pub role: Role,
    /// Why it was attached.
    pub reason: String,
}

/// One entry of a regression's timeline.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
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
    pub status: Option<Status>,
    /// The message, if any.
    pub message_id: Option<String>,
    /// The robot team answered in the thread: a "cannot reproduce" before
    /// it no longer holds (read by the status fold; not part of the JSON).
    #[serde(skip)]
    pub reopens: bool,
    /// A human mark that moves the status forward as a message would (a fix
    /// commit or release named) instead of setting it (read by the status
    /// fold; not part of the JSON).
    #[serde(skip)]
    pub step: bool,
    /// The entry is weak evidence of its status or a promise: the doubt it
    /// raises (read when the history is finished; not part of the JSON).
    #[serde(skip)]
    pub doubt: Option<DoubtKind>,
}

/// How sure regtrack is of a history's status (`status_confidence`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum StatusConfidence {
    /// Every piece of evidence behind the status is plain and nothing
    /// points elsewhere.
    #[default]
    Sure,
    /// The evidence is weak or conflicting: see the history's `doubts`.
    Unsure,
}

impl StatusConfidence {
    /// The kebab-case name used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            StatusConfidence::Sure => "sure",
            StatusConfidence::Unsure => "unsure",
        }
    }
}

/// What a doubt is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum DoubtKind {
    /// A reply reads like a decline but is hedged or weak.
    #[default]
    PossibleDecline,
    /// A reply reads like a dispute (or a withdrawal) but is hedged or weak.
    PossibleDispute,
    /// A reply reads like a fix confirmed but limits it to the speaker's
    /// own set-up ("the regression was gone, at least on my system").
    PossibleConfirmation,
    /// A patch may be the fix, but nothing ties it firmly (a fix candidate
    /// below the linking threshold, a promised fix never found).
    PossibleFix,
    /// A landing was matched only loosely (by a short or common title).
    PossibleLanding,
    /// The culprit's series may have been set aside or dropped.
    PossibleDrop,
    /// Pieces of evidence point different ways.
    ConflictingEvidence,
}

impl DoubtKind {
    /// The kebab-case name used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            DoubtKind::PossibleDecline => "possible-decline",
            DoubtKind::PossibleDispute => "possible-dispute",
            DoubtKind::PossibleConfirmation => "possible-confirmation",
            DoubtKind::PossibleFix => "possible-fix",
            DoubtKind::PossibleLanding => "possible-landing",
            DoubtKind::PossibleDrop => "possible-drop",
            DoubtKind::ConflictingEvidence => "conflicting-evidence",
        }
    }
}

/// One doubt about a history's status, for a person to settle.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Doubt {
    /// What it is about.
    pub kind: DoubtKind,
    /// The message that raised it.
    pub message_id: Option<String>,
    /// The sentence or patch that raised it.
    pub said: String,
    /// The `regtrack mark ...` command that settles it.
    pub settle: String,
}

/// A patch that may fix a regression, with the reasons it was weighed.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct FixCandidate {
    /// The posting's Message-ID.
    pub message_id: String,
    /// The patch's title.
    pub title: String,
    /// Its author.
    pub from: Option<String>,
    /// When it was posted (ISO 8601, UTC).
    pub date: Option<String>,
    /// The weight of the reasons together (linked as a fix from
    /// [`FixCandidate::LINK_SCORE`] on).
    pub score: u32,
    /// The reasons, in words.
    pub reasons: Vec<String>,
    /// True when the score linked it as a fix.
    pub linked: bool,
    /// A later version of the culprit's own patch (a series under review
    /// answering its report with its next version).
    #[serde(default)]
    pub new_version: bool,
    /// True when it is tied to the history closely enough to ask a person
    /// (while unlinked it raises a `possible-fix` doubt); a candidate that
    /// does not ask is shown for reference only.
    pub asks: bool,
    /// The `regtrack mark ...` command that settles it.
    pub settle: String,
}

impl FixCandidate {
    /// The score from which a candidate is linked as a fix.
    pub const LINK_SCORE: u32 = 6;
}

/// The headline metric of a regression across its table's commits.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Headline {
    /// Metric.
    pub metric: String,
    /// Change as the report wrote it.
    pub change_percent: Option<f64>,
    /// Column commits of the table.
    pub commits: Vec<String>,
    /// Values per column.
    pub values: Vec<Option<f64>>,
    /// Relative stddev per column.
    pub stddev_percent: Vec<Option<f64>>,
}

/// A regression history: the public JSON unit.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
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
    pub branches: Vec<String>,
    /// Current status.
    pub status: Status,
    /// The evidence for each status reached, in order.
    pub status_evidence: Vec<StatusEvidence>,
    /// `regression`, `improvement` (every report an improvement) or `undefined`.
    pub direction: Direction,
    /// Headline metric and its values across the table's commits.
    pub headline: Option<Headline>,
    /// The robot's reports.
    pub reports: Vec<ReportInfo>,
    /// Every attached message id, in date order.
    pub messages: Vec<String>,
    /// Every attached message with its role and reason.
    pub attached: Vec<Attachment>,
    /// Linked patches.
    pub patches: Vec<PatchInfo>,
    /// Timeline of events.
    pub timeline: Vec<TimelineEntry>,
    /// Triage flags (computed when answering, relative to the current date).
    pub flags: Vec<String>,
    /// True when a `#regzbot introduced` line names this culprit.
    pub tracked: bool,
    /// The `#regzbot introduced:` line to paste, for an untracked regression.
    pub regzbot: Option<String>,
    /// Date of the first report (ISO 8601, UTC).
    pub first_date: Option<String>,
    /// Date of the last attached message (ISO 8601, UTC).
    pub last_date: Option<String>,
    /// Internal facts for flags (Unix seconds).
    pub facts: Facts,
    /// What the robot tested.
    pub scope: Scope,
    /// The fix: the linked patch that got furthest, if any.
    pub fix: Option<FixInfo>,
    /// How sure the status is.
    pub status_confidence: StatusConfidence,
    /// What could change the status, each with the command that settles it.
    pub doubts: Vec<Doubt>,
    /// Patches that may fix the regression, weighed (see `docs/json.md`).
    pub fix_candidates: Vec<FixCandidate>,
}

/// Dates and counts behind the triage flags.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
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
    /// The fix commit a human named (`mark --fix`).
    pub marked_fix: Option<String>,
    /// The release a human named (`mark --fixed-in`).
    pub marked_release: Option<String>,
    /// The fix posting a human named (`mark --fix <Message-ID>`).
    pub marked_patch: Option<String>,
}

/// A change as regtrack prints it: with its sign (`-5.7%`, `+12.0%`), or `?`;
/// from a million percent on as the robot prints it (`+6e+13%`,
/// `+1.2e+06%`), never a long expansion.
pub fn fmt_change(c: Option<f64>) -> String {
    match c {
        Some(v) if v.is_finite() && v.abs() >= 1e6 => {
            let e = format!("{:.1e}", v.abs());
            let (m, x) = e.split_once('e').unwrap_or((&e, "0"));
            let m = m.strip_suffix(".0").unwrap_or(m);
            let x: i32 = x.parse().unwrap_or(0);
            let sign = if v < 0.0 { '-' } else { '+' };
            format!("{sign}{m}e{}{:02}%", if x < 0 { "-" } else { "+" }, x.abs())
        }
        Some(v) if v.is_finite() => format!("{v:+.1}%"),
        Some(v) => format!("{v}%"),
        None => "?".into(),
    }
}

/// Formats Unix seconds as ISO 8601 UTC.
pub fn iso(unix: Option<i64>) -> Option<String> {
    unix.and_then(|t| chrono::DateTime::from_timestamp(t, 0))
        .map(|d| d.format("%Y-%m-%dT%H:%M:%SZ").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_changes_print_as_the_robot_prints_them() {
        assert_eq!(fmt_change(Some(6e13)), "+6e+13%");
        assert_eq!(fmt_change(Some(-1.23e6)), "-1.2e+06%");
        assert_eq!(fmt_change(Some(1e100)), "+1e+100%");
        assert_eq!(fmt_change(Some(-5.7)), "-5.7%");
        assert_eq!(fmt_change(Some(999_999.0)), "+999999.0%");
        assert_eq!(fmt_change(None), "?");
    }

    #[test]
    fn the_facts_of_every_status_agree_with_each_other() {
        let mut colours = std::collections::HashSet::new();
        for s in Status::ALL {
            let f = s.facts();
            // One colour each, none the triage flags' (bright magenta).
            assert!(colours.insert(f.colour) && f.colour != "95", "{s}");
            assert!(!f.fixed || f.closed, "{s} is fixed but open");
            assert!(
                f.waits_for.is_none() || !f.closed,
                "{s} is closed but waits"
            );
            assert!(f.path.is_none_or(|p| p <= PATH_END), "{s}");
        }
        assert!(Status::Fixed.ends_path() && Status::CulpritDropped.ends_path());
        assert!(!Status::FixApplied.ends_path() && !Status::Disputed.ends_path());
        assert_eq!(
            Status::names(),
            "reported, discussed, fix-proposed, fix-confirmed, fix-applied, fixed, disputed, \
             declined, culprit-dropped, improvement"
        );
    }

    #[test]
    fn enums_keep_their_json_names() {
        for s in Status::ALL {
            assert_eq!(
                serde_json::to_value(s).unwrap(),
                serde_json::Value::from(s.as_str())
            );
        }
        assert_eq!(
            serde_json::to_value(Role::PatchReply).unwrap(),
            "patch-reply"
        );
        assert_eq!(
            serde_json::to_value(PatchRole::DebugPatch).unwrap(),
            "debug-patch"
        );
        assert_eq!(serde_json::to_value(ConfidenceLevel::High).unwrap(), "high");
    }

    #[test]
    fn a_summary_missing_later_fields_still_decodes() {
        let r: Regression = serde_json::from_str(
            r#"{"id": 3, "culprit": {"commit": "abc1234"}, "status": "disputed"}"#,
        )
        .unwrap();
        assert_eq!(r.id, 3);
        assert_eq!(r.status, Status::Disputed);
        assert!(r.patches.is_empty());
    }
}
