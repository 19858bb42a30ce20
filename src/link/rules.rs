//! Timeline rules: each reads one pattern of mail and says what happened,
//! with the status it speaks for. [`timeline`] runs every rule over a
//! regression's messages in date order; [`super::fold`] then picks the
//! status from the entries.
//!
//! A rule is one function: [`MemberRule`]s read one attached message,
//! [`HistoryRule`]s the whole history. Adding a rule is adding a function to
//! [`MEMBER_RULES`] or [`HISTORY_RULES`] (the order is the order entries of
//! one message take in the timeline) and a test.

use super::LinkMessage;
use super::draft::{Draft, Member};
use super::facts::report_info;
use super::hints::{
    is_robot, is_robot_team, kind_of, names_robot, names_robot_sender, own_trailers,
};
use super::patch::Patches;
use super::regzbot;
use crate::model::history::{
    DoubtKind, Mark, ReportInfo, Role, Scope, Status, TimelineEntry, fmt_change, iso,
};
use crate::model::{Direction, EventKind, Kind, Landing, LandingKind, SignalKind};

/// What a rule says happened.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Happening {
    /// The timeline entry.
    pub entry: TimelineEntry,
    /// It claims a fix (a patch, a confirmation, an `Applied`): a later
    /// `still regression` line then says the fix did not work.
    pub claims_fix: bool,
    /// It is a robot's `[still regression on ...]` line.
    pub still_regression: bool,
    /// It is a `#regzbot introduced` line (the tracker follows the culprit).
    pub tracked: bool,
}

/// What every rule may read besides its message.
pub struct Ctx<'a> {
    /// All messages (members index into them).
    pub msgs: &'a [LinkMessage],
    /// The regression being linked.
    pub draft: &'a Draft,
    /// Index of the first report in date order.
    pub first_report: Option<usize>,
    /// The human marks on this culprit, oldest first.
    pub marks: Vec<&'a Mark>,
    /// Every mark (what a withdrawal names may be on another culprit).
    pub all_marks: &'a [Mark],
    /// The patch identities of the messages.
    pub patches: &'a Patches,
    /// What the robot tested first.
    pub scope: Scope,
    /// Some report found the culprit in mainline (a revert is then its fix,
    /// not a drop).
    pub in_mainline: bool,
    /// The regression's headline metric.
    pub metric: Option<&'a str>,
    /// Who is who among the history's senders.
    pub speakers: super::speaker::Speakers,
}

/// A rule over one attached message.
pub type MemberRule = fn(&Ctx<'_>, &Member, &LinkMessage, &mut Vec<Happening>);

/// A rule over the whole history, after the member rules.
pub type HistoryRule = fn(&Ctx<'_>, &mut Vec<Happening>);

/// The member rules, in the order their entries take for one message.
pub const MEMBER_RULES: &[MemberRule] = &[
    report,
    report_still_regression,
    patch_posted,
    reply,
    sentences,
    tested_by,
    event_lines,
];

/// The history rules.
pub const HISTORY_RULES: &[HistoryRule] = &[landings, culprit_dropped, fix_in_tree, marks];

/// The sender as shown: display name, else address.
pub fn who(m: &LinkMessage) -> Option<String> {
    m.from_name
        .clone()
        .filter(|s| !s.trim().is_empty())
        .or_else(|| m.from_email.clone())
}

fn entry(m: &LinkMessage, event: String, status: Option<Status>) -> Happening {
    Happening {
        entry: TimelineEntry {
            date: iso(m.date),
            unix: m.date,
            from: who(m),
            event,
            status,
            message_id: Some(m.message_id.clone()),
            reopens: false,
            step: false,
            doubt: None,
        },
        ..Happening::default()
    }
}

/// The report facts of a report message.
pub fn info_of(m: &LinkMessage) -> ReportInfo {
    match &m.report_facts {
        Some(f) => f.info.clone(),
        None => report_info(m),
    }
}

/// A robot report: `reported: -5.7% regression of fsmark.files_per_sec
/// (fsmark, linus:master)` for the first, `another report: ...` after it.
/// The first sets `reported`.
pub fn report(ctx: &Ctx<'_>, mem: &Member, m: &LinkMessage, out: &mut Vec<Happening>) {
    if mem.role != Role::Report {
        return;
    }
    let r = info_of(m);
    let first = ctx.first_report == Some(mem.idx);
    let what = match (&r.metric, &r.failure) {
        (Some(mt), _) => format!(
            "{} {} {} of {}",
            if first {
                "reported:"
            } else {
                "another report:"
            },
            fmt_change(r.change_percent),
            r.direction.as_str(),
            mt
        ),
        (None, Some(f)) => format!("functional report: {f}"),
        _ => "report".to_string(),
    };
    let what = match (&r.testcase, &r.branch) {
        (Some(t), Some(b)) => format!("{what} ({t}, {b})"),
        (Some(t), None) => format!("{what} ({t})"),
        (None, Some(b)) => format!("{what} ({b})"),
        _ => what,
    };
    out.push(entry(m, what, first.then_some(Status::Reported)));
}

/// The robot's `[still regression on linus/master 3a2b...]` lines in a
/// later report: after a claimed fix, they say it did not work.
pub fn report_still_regression(
    _ctx: &Ctx<'_>,
    mem: &Member,
    m: &LinkMessage,
    out: &mut Vec<Happening>,
) {
    if mem.role != Role::Report {
        return;
    }
    for ev in m.extraction.events.iter().filter(|e| e.quote_depth == 0) {
        if ev.kind == EventKind::StillRegression {
            let mut h = entry(m, format!("robot: {}", ev.text.trim()), None);
            h.still_regression = true;
            out.push(h);
        }
    }
}

/// A patch, a debug diff or a revert attached to the history:
/// `[PATCH] ext4: fix ...`, a reply with `diff --git` ("does this help?"),
/// `Revert "<culprit title>"`. Sets `fix-proposed`.
pub fn patch_posted(_ctx: &Ctx<'_>, mem: &Member, m: &LinkMessage, out: &mut Vec<Happening>) {
    let kind = match mem.role {
        Role::Revert => "revert posted",
        Role::Patch if kind_of(m) == Kind::Patch => "patch posted",
        Role::Patch => "debug patch posted",
        _ => return,
    };
    let title = m
        .extraction
        .patch
        .as_ref()
        .map(|p| p.title.trim())
        .filter(|t| !t.is_empty())
        .unwrap_or(m.subject.trim());
    let version = m
        .extraction
        .patch
        .as_ref()
        .and_then(|p| p.version)
        .map(|v| format!(" v{v}"))
        .unwrap_or_default();
    let mut h = entry(
        m,
        format!("{kind}{version}: \"{title}\" ({})", mem.reason),
        Some(Status::FixProposed),
    );
    h.claims_fix = true;
    out.push(h);
}

/// A reply: by a person it sets `discussed` (`replied`, `replied to the
/// patch`); the robot's own follow-ups only show.
pub fn reply(_ctx: &Ctx<'_>, mem: &Member, m: &LinkMessage, out: &mut Vec<Happening>) {
    if !matches!(mem.role, Role::Reply | Role::PatchReply) {
        return;
    }
    // A reply whose only news is where a patch landed speaks through the
    // landing rule.
    if is_robot(m)
        && m.extraction
            .landings
            .iter()
            .any(|l| l.kind == LandingKind::Merged)
    {
        return;
    }
    if is_robot(m) {
        out.push(entry(m, "robot follow-up".to_string(), None));
    } else {
        let what = if mem.role == Role::PatchReply {
            "replied to the patch"
        } else {
            "replied"
        };
        let mut h = entry(m, what.to_string(), Some(Status::Discussed));
        // The robot team answering in the report's thread stands by its data
        // unless it says otherwise (its own doubts come after this entry).
        h.entry.reopens = mem.role == Role::Reply && is_robot_team(m);
        out.push(h);
    }
}

/// The author's own confirming or disputing sentences and tables ("the
/// patch restores the performance", "we cannot reproduce", "this is noise",
/// "not worth chasing"): `fix-confirmed`, `disputed` or `declined`. A
/// question ("could you test whether the patch fixes it?") confirms nothing.
/// A culprit that never reached mainline is dropped by a plain word that
/// its series is set aside, that the robot tested a version since replaced,
/// or that it will be dropped ("I'll drop the patch from my tree"):
/// `culprit-dropped`.
pub fn sentences(ctx: &Ctx<'_>, mem: &Member, m: &LinkMessage, out: &mut Vec<Happening>) {
    if matches!(mem.role, Role::Report | Role::Landing) {
        return;
    }
    let posting = matches!(mem.role, Role::Patch | Role::Revert) && kind_of(m) == Kind::Patch;
    let robot_team = is_robot_team(m);
    let disclaimed = super::hints::disclaims_own_diff(m);
    for s in m.signals().iter().filter(|s| s.quote_depth == 0) {
        // A table of the robot team shows a measurement whoever sends it.
        let table = s.commit.is_some();
        let event = format!("{}: \"{}\"", s.kind.as_str(), s.sentence.trim());
        let drop = drops_culprit(s.kind)
            && !s.tentative
            && !ctx.in_mainline
            && !robot_team
            && mem.role == Role::Reply;
        if drop {
            out.push(entry(m, event, Some(Status::CulpritDropped)));
            continue;
        }
        let Some(st) = sentence_status(s.kind, &s.sentence, table, posting, robot_team, mem.role)
        else {
            // A part of the loss won back is a measurement worth showing;
            // it decides nothing.
            if s.kind == SignalKind::PartlyRestores {
                out.push(entry(m, event, None));
                continue;
            }
            // So is an author's word that their own diff is no fix.
            if s.kind == SignalKind::NotAFix && disclaimed {
                out.push(entry(m, event, None));
                continue;
            }
            // A promise in a reply shows in the timeline and raises the
            // doubt of what it promises until that is done.
            if let (Some(doubt), Role::Reply) = (promise_doubt(s.kind), mem.role) {
                let mut h = entry(m, event, None);
                h.entry.doubt = Some(doubt);
                out.push(h);
            }
            continue;
        };
        // "With the patch the regression is gone" beside "this patch is not
        // a fix": the author's own debug diff measured, a diagnosis shown
        // in the timeline, not a fix confirmed.
        if st == Status::FixConfirmed && !table && disclaimed {
            out.push(entry(m, event, None));
            continue;
        }
        // A bystander's decline or dispute is their opinion: a question
        // for a person, not the history's status.
        let opinion = matches!(st, Status::Declined | Status::Disputed)
            && !s.tentative
            && ctx.speakers.opinion_only(m);
        let event = if opinion {
            format!("{event} ({})", super::speaker::Speaker::Bystander.as_str())
        } else {
            event
        };
        // A decline beside a diff of the speaker's own ("this is intended
        // behaviour", and a patch to try) leaves the cost not plainly
        // accepted: a question for a person.
        let with_own_diff = st == Status::Declined && super::hints::own_diff(m);
        let mut h = entry(m, event, Some(st));
        h.claims_fix = st == Status::FixConfirmed;
        if s.tentative || opinion || with_own_diff {
            h.entry.doubt = match st {
                Status::Declined => Some(DoubtKind::PossibleDecline),
                Status::Disputed => Some(DoubtKind::PossibleDispute),
                Status::FixConfirmed => Some(DoubtKind::PossibleConfirmation),
                _ => None,
            };
        }
        out.push(h);
    }
}

/// True for what, said plainly, drops a culprit that never reached
/// mainline: its series set aside, the tested version replaced, a drop or
/// revert promised.
fn drops_culprit(kind: SignalKind) -> bool {
    match kind {
        SignalKind::SetsAside | SignalKind::Superseded | SignalKind::WillRevert => true,
        SignalKind::ConfirmsFix
        | SignalKind::PartlyRestores
        | SignalKind::Disputes
        | SignalKind::CannotReproduce
        | SignalKind::Declines
        | SignalKind::Noise
        | SignalKind::Layout
        | SignalKind::Withdraws
        | SignalKind::WillFix
        | SignalKind::MaybeDeclines
        | SignalKind::MaybeDisputes
        | SignalKind::NotAFix => false,
    }
}

/// The doubt a promise raises: a fix promised may exist unseen; a revert or
/// a series set aside may drop the culprit.
fn promise_doubt(kind: SignalKind) -> Option<DoubtKind> {
    match kind {
        SignalKind::WillFix => Some(DoubtKind::PossibleFix),
        SignalKind::WillRevert | SignalKind::SetsAside | SignalKind::Superseded => {
            Some(DoubtKind::PossibleDrop)
        }
        SignalKind::MaybeDeclines => Some(DoubtKind::PossibleDecline),
        SignalKind::MaybeDisputes => Some(DoubtKind::PossibleDispute),
        SignalKind::ConfirmsFix
        | SignalKind::PartlyRestores
        | SignalKind::Disputes
        | SignalKind::CannotReproduce
        | SignalKind::Declines
        | SignalKind::Noise
        | SignalKind::Layout
        | SignalKind::Withdraws
        | SignalKind::NotAFix => None,
    }
}

/// Words that make a statement a guess, not a measurement: "this should fix
/// it", "I'd expect the regression to be fixed by".
fn hedged(sentence: &str) -> bool {
    const HEDGES: [&str; 14] = [
        // A promise of what a fix will do measures nothing ("v3 will keep
        // the cache so this regression goes away").
        " will ",
        "'ll ",
        "should ",
        "expect",
        "would ",
        "might ",
        "may ",
        "hope",
        "probably",
        "i think",
        "i believe",
        "could ",
        "maybe",
        "if ",
    ];
    // A clause of what the speaker will do with the patch now ("I'll add
    // your Tested-by", "will queue it") hedges nothing it measured.
    static BOOKKEEPING: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"(?:i'll|i will|we'll|we will|will) (?:add|include|pick up|collect|carry|fold in|apply|queue|take|send|post|resend|merge|push)\b[^;,.]*",
        )
        .expect("valid regex")
    });
    // An answer to a quoted question is hedged by its own words, not the
    // question's ("Could you check ...?").
    let l = crate::evidence::signal::own_words(sentence).to_ascii_lowercase();
    let l = BOOKKEEPING.replace_all(&l, " ");
    HEDGES.iter().any(|h| l.contains(h))
}

/// "cannot reproduce the regression with the fix": the fix works; not a
/// doubt about the report.
fn with_the_fix(sentence: &str) -> bool {
    let l = sentence.to_ascii_lowercase();
    [
        "with the fix",
        "with this fix",
        "with your fix",
        "with the patch",
        "with this patch",
        "with your patch",
        "after applying",
        "with the revert",
        "with your revert",
        "with that patch",
    ]
    .iter()
    .any(|w| l.contains(w))
}

/// The status a confirming or disputing sentence speaks for, in its place
/// (see [`sentences`]); `None` when it speaks for none:
/// - a question ("could you test whether the patch fixes it?") says nothing;
/// - a confirmation needs a measurement: a table, or a plain statement in a
///   reply ("the regression is gone with the patch"), not a patch's own
///   changelog claim nor a guess ("this should fix it");
/// - "cannot reproduce it with the fix" confirms nothing and doubts nothing;
/// - in a patch's changelog, talk of noise or layout is about the patch; in
///   a reply to a patch, a doubt is about that patch;
/// - the robot team asking to ignore its report withdraws it: `disputed`.
pub fn sentence_status(
    kind: SignalKind,
    sentence: &str,
    table: bool,
    posting: bool,
    robot_team: bool,
    role: Role,
) -> Option<Status> {
    let question = sentence.trim_end().ends_with('?');
    if question && !table {
        return None;
    }
    match kind {
        SignalKind::ConfirmsFix => {
            if table {
                return Some(Status::FixConfirmed);
            }
            if posting || hedged(sentence) {
                return None;
            }
            Some(Status::FixConfirmed)
        }
        _ if role == Role::PatchReply => None,
        // A patch's own changelog describes the patch, it decides nothing
        // about the report.
        _ if posting => None,
        SignalKind::CannotReproduce if with_the_fix(sentence) => None,
        SignalKind::Noise | SignalKind::Layout if posting => None,
        SignalKind::Declines | SignalKind::Withdraws if robot_team => Some(Status::Disputed),
        SignalKind::Declines | SignalKind::Withdraws => Some(Status::Declined),
        SignalKind::Disputes
        | SignalKind::CannotReproduce
        | SignalKind::Noise
        | SignalKind::Layout => Some(Status::Disputed),
        // Promises and proposals show in the timeline; what is done about
        // them (a patch, a revert, a drop) decides.
        SignalKind::PartlyRestores
        | SignalKind::WillFix
        | SignalKind::WillRevert
        | SignalKind::SetsAside
        | SignalKind::Superseded
        | SignalKind::MaybeDeclines
        | SignalKind::MaybeDisputes
        // A diff disclaimed as a fix is no member's fix
        // (`link::attach`); it decides nothing about the report.
        | SignalKind::NotAFix => None,
    }
}

/// `Tested-by: kernel test robot <lkp@intel.com>` (or an `@intel.com`
/// tester) on a fix, not already said by a sentence: `fix-confirmed`.
pub fn tested_by(_ctx: &Ctx<'_>, mem: &Member, m: &LinkMessage, out: &mut Vec<Happening>) {
    if mem.role == Role::Report {
        return;
    }
    for t in own_trailers(m) {
        let said = m
            .signals()
            .iter()
            .any(|s| s.quote_depth == 0 && s.sentence.contains(t.value.trim()));
        if t.key.eq_ignore_ascii_case("tested-by")
            && !said
            && (names_robot(&t.value) || names_robot_sender(&t.value))
        {
            let mut h = entry(
                m,
                format!("Tested-by: {}", t.value.trim()),
                Some(Status::FixConfirmed),
            );
            h.claims_fix = true;
            out.push(h);
        }
    }
}

/// Event lines in the author's own text, in order: a maintainer's
/// `Applied, thanks!` (`fix-applied`), `#regzbot ...` and `#syz ...`
/// commands, `[still regression on ...]` and `[test failed on ...]` lines.
///
/// An `Applied` line that the landing rule already read (it names a linked
/// patch) is left to it.
pub fn event_lines(ctx: &Ctx<'_>, mem: &Member, m: &LinkMessage, out: &mut Vec<Happening>) {
    if matches!(mem.role, Role::Report | Role::Landing) {
        return;
    }
    let landed = ctx
        .draft
        .patches
        .iter()
        .any(|&k| ctx.patches.landings[k].iter().any(|at| at.msg == mem.idx));
    for ev in m.extraction.events.iter().filter(|e| e.quote_depth == 0) {
        match ev.kind {
            EventKind::Applied if landed => {}
            EventKind::Applied => {
                let mut h = entry(
                    m,
                    format!("applied: \"{}\"", ev.text.trim()),
                    Some(Status::FixApplied),
                );
                h.claims_fix = true;
                out.push(h);
            }
            EventKind::Regzbot => {
                let cmd = regzbot::parse(&ev.text);
                let st = match cmd {
                    regzbot::Command::SetStatus(s) => Some(s),
                    _ => None,
                };
                let mut h = entry(m, format!("regzbot: {}", ev.text.trim()), st);
                h.tracked = cmd == regzbot::Command::Introduced;
                out.push(h);
            }
            EventKind::Syz => out.push(entry(m, format!("syzbot: {}", ev.text.trim()), None)),
            EventKind::StillRegression | EventKind::TestFailed => {
                let mut h = entry(m, ev.text.trim().to_string(), None);
                h.still_regression = ev.kind == EventKind::StillRegression;
                out.push(h);
            }
        }
    }
}

/// A later robot report whose culprit is one of the history's patches (by
/// title or commit id): the robot tested a tree with the fix in it,
/// `fix-applied` (`fixed` when the tree is mainline); an improvement on the
/// regression's own metric also confirms the fix.
pub fn fix_in_tree(ctx: &Ctx<'_>, out: &mut Vec<Happening>) {
    for &(rep, patch) in &ctx.draft.fix_in_tree {
        let (Some(m), Some(p)) = (ctx.msgs.get(rep), ctx.msgs.get(patch)) else {
            continue;
        };
        let info = info_of(m);
        let mainline = info
            .branch
            .as_deref()
            .is_some_and(|b| b.starts_with("linus:"));
        let title = p
            .extraction
            .patch
            .as_ref()
            .map(|x| x.title.clone())
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| p.subject.trim().to_string());
        let what = m
            .extraction
            .subject_report
            .as_ref()
            .map(|s| {
                format!(
                    "{} {}",
                    s.commit,
                    s.metric.clone().or(s.failure.clone()).unwrap_or_default()
                )
            })
            .unwrap_or_else(|| m.subject.clone());
        let same_metric = info.direction == Direction::Improvement
            && info.metric.is_some()
            && info.metric.as_deref() == ctx.metric;
        if same_metric {
            let mut h = entry(
                m,
                format!(
                    "the robot measured the fix \"{title}\": {} improvement of {}",
                    fmt_change(info.change_percent),
                    info.metric.as_deref().unwrap_or("")
                ),
                Some(Status::FixConfirmed),
            );
            h.claims_fix = true;
            out.push(h);
        }
        out.push(entry(
            m,
            format!(
                "the robot tested {} with the fix \"{title}\" ({})",
                if mainline { "mainline" } else { "a tree" },
                what.trim()
            ),
            Some(if mainline {
                Status::Fixed
            } else {
                Status::FixApplied
            }),
        ));
    }
}

/// What a landing says, for the timeline: `applied to for-next of
/// git://.../xfs-linux.git as 7e328e5930ad`.
fn describe(l: &Landing) -> String {
    let verb = match l.kind {
        LandingKind::Applied => "applied",
        LandingKind::ForNext => "in the for-next announcement",
        LandingKind::PullRequest => "in a pull request",
        LandingKind::BranchLog => "in a pasted log",
        LandingKind::Merged => "merged",
        LandingKind::TipBot => "merged into tip",
        LandingKind::Stable => "added to stable",
        LandingKind::LibrarySync => "synced from the kernel",
        LandingKind::Dropped => "dropped",
        LandingKind::WillDrop => "to be dropped",
    };
    let mut s = verb.to_string();
    let place = match (l.branch.as_deref(), l.tree.as_deref()) {
        (Some(b), Some(t)) => Some(format!("{b} of {t}")),
        (Some(x), None) | (None, Some(x)) => Some(x.to_string()),
        (None, None) => None,
    };
    match place {
        // `dropped from tags/nfs-for-6.13-1 of git://...`
        Some(p) if l.kind == LandingKind::Dropped => return format!("{s} from {p}"),
        // `in a pasted log of for-next of axboe-block as 573d5abf3df0`
        Some(p) if l.kind == LandingKind::BranchLog => s.push_str(&format!(" of {p}")),
        Some(p) => s.push_str(&format!(" ({p})")),
        None => {}
    }
    if let Some(c) = &l.commit {
        s.push_str(&format!(" as {}", c.get(..12).unwrap_or(c)));
    }
    s
}

/// The status a landing of a fix speaks for: `fix-applied` for a tree
/// (an `Applied` reply, a b4 thank-you, a for-next announcement, a pull
/// request, tip-bot), `fixed` for mainline (pr-tracker-bot's merge note, a
/// stable backport, a library sync of the kernel commit). A revert of a
/// culprit that had not reached mainline drops the culprit instead.
pub fn landing_status(kind: LandingKind, revert: bool, in_mainline: bool) -> Option<Status> {
    let dropped = revert && !in_mainline;
    match kind {
        LandingKind::Dropped | LandingKind::WillDrop => None,
        _ if dropped => Some(Status::CulpritDropped),
        LandingKind::Merged | LandingKind::Stable | LandingKind::LibrarySync => Some(Status::Fixed),
        LandingKind::Applied
        | LandingKind::ForNext
        | LandingKind::BranchLog
        | LandingKind::PullRequest
        | LandingKind::TipBot => Some(Status::FixApplied),
    }
}

/// Where the history's patches landed (`Applied, thanks!`, a b4 thank-you
/// entry `[1/2] title` + `commit: <sha>`, a for-next announcement or pull
/// request listing the title, pr-tracker-bot's "has been merged into
/// torvalds/linux.git"): see [`landing_status`].
pub fn landings(ctx: &Ctx<'_>, out: &mut Vec<Happening>) {
    for &k in &ctx.draft.patches {
        let id = &ctx.patches.identities[k];
        let revert = id.reverts.0.is_some() || id.reverts.1.is_some();
        for at in &ctx.patches.landings[k] {
            let Some((m, l)) = at.of(ctx.msgs) else {
                continue;
            };
            let title = if id.title.is_empty() {
                "the linked diff".to_string()
            } else {
                format!("\"{}\"", id.title)
            };
            let mut h = entry(
                m,
                format!("{}: {title}", describe(l)),
                landing_status(l.kind, revert, ctx.in_mainline),
            );
            if l.kind == LandingKind::WillDrop {
                continue;
            }
            h.claims_fix = l.kind != LandingKind::Dropped;
            out.push(h);
        }
    }
}

/// The culprit left its tree before mainline: a maintainer dropped the
/// culprit's own posting (`Dropped from for-next`, or a pull request's or
/// series' change log names its title: `Removed the patch "..."`; a drop
/// more than 14 days before the first report only shows), or, for a patch under
/// review, its author or a reviewer means to drop it (`would you mind if I
/// drop it from my series`), `culprit-dropped`.
pub fn culprit_dropped(ctx: &Ctx<'_>, out: &mut Vec<Happening>) {
    let Some(k) = ctx.draft.culprit_patch else {
        return;
    };
    let first_report = ctx.first_report.and_then(|i| ctx.msgs.get(i)?.date);
    for at in &ctx.patches.landings[k] {
        let Some((m, l)) = at.of(ctx.msgs) else {
            continue;
        };
        let gone = l.kind == LandingKind::Dropped
            || (l.kind == LandingKind::WillDrop && ctx.scope == Scope::PatchUnderReview);
        if !gone || ctx.in_mainline {
            continue;
        }
        if m.date
            .zip(first_report)
            .is_some_and(|(d, f)| d < f - EARLIER_DROP)
        {
            out.push(entry(
                m,
                format!("an earlier application of the culprit was {}", describe(l)),
                None,
            ));
        } else {
            out.push(entry(
                m,
                format!("the culprit was {}", describe(l)),
                Some(Status::CulpritDropped),
            ));
        }
    }
}

/// How long before the first report a drop of the culprit's patch is of an
/// earlier application of it: the robot tested the patch after it came
/// back (a linux-next report lags its tree by days, not weeks).
const EARLIER_DROP: i64 = 14 * 86_400;

/// The human marks on the culprit (`regtrack mark 2edf06a50f declined`,
/// `--fix`, `dup-of`, `regtrack unmark`; see [`super::marks`]): a status
/// mark wins over every other rule.
pub fn marks(ctx: &Ctx<'_>, out: &mut Vec<Happening>) {
    for entry in super::marks::entries(&ctx.marks, ctx.all_marks) {
        out.push(Happening {
            claims_fix: entry.step,
            entry,
            ..Happening::default()
        });
    }
}

/// The marks made on the draft's culprit (any abbreviation, or an alias),
/// the duplicate marks naming it as their target, and the withdrawals of
/// either.
pub fn marks_of<'a>(d: &Draft, marks: &'a [Mark]) -> Vec<&'a Mark> {
    let on = |mk: &Mark| d.names(&mk.culprit) || mk.dup_of.as_deref().is_some_and(|t| d.names(t));
    marks
        .iter()
        .filter(|mk| match mk.withdraws {
            Some(w) => marks.iter().any(|x| x.id == w && on(x)),
            None => on(mk),
        })
        .collect()
}

/// Every rule over `members` (in date order), then the history rules, in
/// the order they were said; [`sort`] orders them by date.
pub fn timeline(ctx: &Ctx<'_>, members: &[&Member]) -> Vec<Happening> {
    let mut out = Vec::new();
    for mem in members {
        let Some(m) = ctx.msgs.get(mem.idx) else {
            continue;
        };
        for rule in MEMBER_RULES {
            rule(ctx, mem, m, &mut out);
        }
    }
    for rule in HISTORY_RULES {
        rule(ctx, &mut out);
    }
    out
}

/// True when a robot's `still regression` line came after a dated fix
/// claim (in the order things were said).
pub fn still_regression_after_fix(said: &[Happening]) -> bool {
    let mut claimed = false;
    for h in said {
        if h.still_regression && claimed {
            return true;
        }
        claimed |= h.claims_fix && h.entry.unix.is_some();
    }
    false
}

/// The entries in date order (stable: one message's entries keep their order).
pub fn sort(said: Vec<Happening>) -> Vec<TimelineEntry> {
    let mut tl: Vec<TimelineEntry> = said.into_iter().map(|h| h.entry).collect();
    tl.sort_by_key(|e| e.unix.unwrap_or(i64::MAX));
    tl
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Event, Signal};

    fn ctx<'a>(msgs: &'a [LinkMessage], d: &'a Draft, patches: &'a Patches) -> Ctx<'a> {
        Ctx {
            msgs,
            draft: d,
            first_report: None,
            marks: Vec::new(),
            all_marks: &[],
            patches,
            scope: Scope::Mainline,
            in_mainline: true,
            metric: None,
            speakers: Default::default(),
        }
    }

    fn reply_with(f: impl FnOnce(&mut LinkMessage)) -> (LinkMessage, Member) {
        let mut m = LinkMessage {
            message_id: "r@x".into(),
            from_name: Some("Jan Kara".into()),
            date: Some(100),
            ..LinkMessage::default()
        };
        f(&mut m);
        let mem = Member {
            idx: 0,
            role: Role::Reply,
            reason: String::new(),
        };
        (m, mem)
    }

    fn run(rule: MemberRule, m: &LinkMessage, mem: &Member) -> Vec<Happening> {
        let d = Draft::default();
        let msgs = [m.clone()];
        let patches = Patches::default();
        let mut out = Vec::new();
        rule(&ctx(&msgs, &d, &patches), mem, m, &mut out);
        out
    }

    /// The culprit's posting (message 0), a report (message 1, on day 30)
    /// and a message dropping the posting on day `drop_day` (message 2).
    fn dropped_culprit(drop_day: i64, in_mainline: bool) -> Vec<Happening> {
        let day = 86_400;
        let drop = Landing {
            kind: LandingKind::Dropped,
            branch: Some("for-next".into()),
            ..Landing::default()
        };
        let msgs = [
            LinkMessage {
                message_id: "p@x".into(),
                date: Some(day),
                ..LinkMessage::default()
            },
            LinkMessage {
                message_id: "r@x".into(),
                date: Some(30 * day),
                ..LinkMessage::default()
            },
            LinkMessage {
                message_id: "d@x".into(),
                from_name: Some("Maintainer".into()),
                date: Some(drop_day * day),
                extraction: crate::model::Extraction {
                    landings: vec![drop],
                    ..Default::default()
                },
                ..LinkMessage::default()
            },
        ];
        let mut d = Draft::default();
        d.culprit_patch = Some(0);
        let patches = Patches {
            identities: vec![super::super::patch::Identity::default()],
            landings: vec![vec![super::super::patch::LandingAt { msg: 2, landing: 0 }]],
            reviews: vec![Vec::new()],
            ..Patches::default()
        };
        let mut c = ctx(&msgs, &d, &patches);
        c.first_report = Some(1);
        c.scope = Scope::Next;
        c.in_mainline = in_mainline;
        let mut out = Vec::new();
        culprit_dropped(&c, &mut out);
        out
    }

    #[test]
    fn a_drop_of_the_culprit_s_patch_drops_it_unless_weeks_before_the_report_or_in_mainline() {
        // A day before the report (linux-next lags) and after it: dropped.
        for day in [29, 40] {
            let out = dropped_culprit(day, false);
            assert_eq!(out.len(), 1, "day {day}");
            assert_eq!(
                out[0].entry.status,
                Some(Status::CulpritDropped),
                "day {day}"
            );
            assert_eq!(
                out[0].entry.event, "the culprit was dropped from for-next",
                "day {day}"
            );
        }
        // Three weeks before: the patch came back and was tested then.
        let out = dropped_culprit(9, false);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].entry.status, None);
        assert!(out[0].entry.event.starts_with("an earlier application"));
        // A culprit the robot found in mainline did not leave its tree.
        assert!(dropped_culprit(29, true).is_empty());
    }

    #[test]
    fn sentences_speak_for_a_status_only_in_their_place() {
        use SignalKind::*;
        let st =
            |k, s, table, posting, team, role| sentence_status(k, s, table, posting, team, role);
        assert_eq!(
            st(
                ConfirmsFix,
                "The regression is gone with the patch.",
                false,
                false,
                false,
                Role::Reply
            ),
            Some(Status::FixConfirmed)
        );
        assert_eq!(
            st(
                ConfirmsFix,
                "This restores the performance.",
                false,
                true,
                false,
                Role::Patch
            ),
            None
        );
        assert_eq!(
            st(
                ConfirmsFix,
                "I'd expect that the regression should be fixed by it.",
                false,
                false,
                false,
                Role::Reply
            ),
            None
        );
        assert_eq!(
            st(
                CannotReproduce,
                "I am not able to reproduce the regression with the fix.",
                false,
                false,
                false,
                Role::Reply
            ),
            None
        );
        assert_eq!(
            st(
                CannotReproduce,
                "I can't reproduce it with your revert.",
                false,
                false,
                false,
                Role::PatchReply
            ),
            None
        );
        assert_eq!(
            st(
                Disputes,
                "You mean the regression was attributed to the wrong commit?",
                false,
                false,
                false,
                Role::Reply
            ),
            None
        );
        assert_eq!(
            st(
                Declines,
                "Please ignore this report.",
                false,
                false,
                true,
                Role::Reply
            ),
            Some(Status::Disputed)
        );
        assert_eq!(
            st(
                Noise,
                "The fix for [1] assumes that 3% is noise.",
                false,
                true,
                false,
                Role::Patch
            ),
            None
        );
    }

    #[test]
    fn a_question_confirms_nothing_but_a_statement_does() {
        let (m, mem) = reply_with(|m| {
            for s in [
                "Could you test whether the patch fixes it?",
                "The patch fixes it.",
            ] {
                m.extraction.signals.push(Signal {
                    kind: SignalKind::ConfirmsFix,
                    sentence: s.into(),
                    ..Signal::default()
                });
            }
        });
        let said = run(sentences, &m, &mem);
        assert_eq!(said.len(), 1);
        assert_eq!(said[0].entry.status, Some(Status::FixConfirmed));
        assert!(said[0].claims_fix);
    }

    #[test]
    fn a_robot_tested_by_confirms_a_fix() {
        let (m, mem) = reply_with(|m| {
            m.extraction.trailers.push(crate::model::Trailer {
                key: "Tested-by".into(),
                value: "kernel test robot <lkp@intel.com>".into(),
                ..Default::default()
            });
        });
        let said = run(tested_by, &m, &mem);
        assert_eq!(said[0].entry.status, Some(Status::FixConfirmed));
    }

    #[test]
    fn applied_and_regzbot_lines_speak_for_their_status() {
        let (m, mem) = reply_with(|m| {
            for (kind, text) in [
                (EventKind::Applied, "Applied, thanks!"),
                (EventKind::Regzbot, "#regzbot introduced: 2edf06a50f ^"),
            ] {
                m.extraction.events.push(Event {
                    kind,
                    tree: None,
                    sha: None,
                    text: text.into(),
                    quote_depth: 0,
                });
            }
        });
        let said = run(event_lines, &m, &mem);
        assert_eq!(said[0].entry.status, Some(Status::FixApplied));
        assert!(said[1].tracked);
    }

    #[test]
    fn a_still_regression_line_counts_only_after_a_dated_claim() {
        let claim = |unix| Happening {
            claims_fix: true,
            entry: TimelineEntry {
                unix,
                ..TimelineEntry::default()
            },
            ..Happening::default()
        };
        let still = Happening {
            still_regression: true,
            ..Happening::default()
        };
        assert!(!still_regression_after_fix(&[
            still.clone(),
            claim(Some(1))
        ]));
        assert!(!still_regression_after_fix(&[claim(None), still.clone()]));
        assert!(still_regression_after_fix(&[claim(Some(1)), still]));
    }

    #[test]
    fn the_robots_own_follow_up_sets_no_status() {
        let (mut m, mem) = reply_with(|_| {});
        m.from_name = Some("kernel test robot".into());
        let said = run(reply, &m, &mem);
        assert_eq!(said[0].entry.status, None);
    }
}
