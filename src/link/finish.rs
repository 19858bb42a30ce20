//! A regression history from a draft: its reports, direction, subsystem
//! and headline (from the reports' facts), its timeline ([`super::rules`]),
//! its status ([`super::fold`]), its patches and its dates.

use super::attach::{Draft, Member};
use super::culprit::same_commit;
use super::fold::fold;
use super::hints::{is_robot, kind_of, own_trailers};
use super::rules::{self, Ctx, info_of, who};
use super::{LinkMessage, regzbot};
use crate::mail::subject::thread_key;
use crate::model::history::{
    Attachment, CulpritInfo, Facts, Headline, Mark, PatchInfo, PatchRole, PatchState, Regression,
    ReportInfo, Role, Status, TimelineEntry, TrailerKv, iso,
};
use crate::model::{Direction, Kind};

/// The culprit's title, from a report body, a table's commit list or a `Fixes:` tag.
pub fn culprit_title(d: &Draft, msgs: &[LinkMessage]) -> Option<String> {
    for mem in &d.members {
        let Some(m) = msgs.get(mem.idx) else { continue };
        if let Some(t) = m
            .extraction
            .report
            .as_ref()
            .and_then(|r| r.commit_title.clone())
            && !t.trim().is_empty()
        {
            return Some(t);
        }
    }
    for mem in &d.members {
        let Some(m) = msgs.get(mem.idx) else { continue };
        for t in &m.extraction.tables {
            for (c, title) in &t.commit_titles {
                if same_commit(c, &d.key) && !title.trim().is_empty() {
                    return Some(title.clone());
                }
            }
        }
        for t in &m.extraction.trailers {
            if let (Some(c), Some(title)) = (&t.commit, &t.title)
                && same_commit(c, &d.key)
            {
                return Some(title.clone());
            }
        }
    }
    // A commit reference with its title anywhere in the history (`06c4d00466 ("...")`).
    d.members
        .iter()
        .filter_map(|mem| msgs.get(mem.idx))
        .flat_map(|m| m.extraction.commits.iter())
        .find(|c| {
            same_commit(&c.id, &d.key) && c.title.as_deref().is_some_and(|t| !t.trim().is_empty())
        })
        .and_then(|c| c.title.clone())
}

/// A subsystem guessed from a patch subject (`Re: [PATCH v2] sched/fair: ...` -> `sched/fair`).
fn patch_subsystem(subject: &str) -> Option<String> {
    let s = thread_key(subject);
    let (head, _) = s.split_once(": ")?;
    (head.len() <= 40 && !head.is_empty() && head.split_whitespace().count() <= 3)
        .then(|| head.to_string())
}

/// The direction of a history: `regression` when any performance report
/// says so, `improvement` when every one does; a reply-only history takes
/// its subject's word.
fn direction_of(perf: &[&ReportInfo], subject: Option<Direction>) -> Direction {
    if perf.iter().any(|r| r.direction == Direction::Regression) {
        Direction::Regression
    } else if !perf.is_empty() && perf.iter().all(|r| r.direction == Direction::Improvement) {
        Direction::Improvement
    } else if perf.is_empty() {
        subject.unwrap_or(Direction::Undefined)
    } else {
        Direction::Undefined
    }
}

/// Dates and counts of a history's members (in date order).
fn member_facts(members: &[&Member], msgs: &[LinkMessage]) -> Facts {
    let mut facts = Facts::default();
    let later = |a: Option<i64>, b: Option<i64>| match (a, b) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    };
    for mem in members {
        let m = &msgs[mem.idx];
        facts.last_unix = later(facts.last_unix, m.date);
        match mem.role {
            Role::Report => {
                if facts.first_unix.is_none() {
                    facts.first_unix = m.date;
                }
                continue;
            }
            Role::Patch | Role::Revert => {
                if facts.first_patch_unix.is_none() {
                    facts.first_patch_unix = m.date;
                }
            }
            Role::Reply | Role::PatchReply => {}
        }
        if !is_robot(m) {
            facts.human_replies += 1;
            facts.last_human_unix = later(facts.last_human_unix, m.date);
            if facts.first_unix.is_none() {
                // A reply-only regression: the first reply starts the history.
                facts.first_unix = m.date;
            }
        }
    }
    facts
}

/// The state a patch reached, from the timeline entries about it (its own
/// message or replies to it) and the robot's reports on a tree with it.
fn patch_state(
    d: &Draft,
    mem: &Member,
    members: &[&Member],
    msgs: &[LinkMessage],
    tl: &[TimelineEntry],
) -> PatchState {
    let m = &msgs[mem.idx];
    let related = |e: &TimelineEntry| {
        e.message_id.as_deref() == Some(m.message_id.as_str())
            || members.iter().any(|o| {
                Some(msgs[o.idx].message_id.as_str()) == e.message_id.as_deref()
                    && o.role == Role::PatchReply
                    && o.reason.contains(m.message_id.as_str())
            })
    };
    let in_tree = d.fix_in_tree.iter().any(|(_, p)| *p == mem.idx);
    if in_tree
        || tl
            .iter()
            .any(|e| e.status == Some(Status::FixApplied) && related(e))
    {
        PatchState::Applied
    } else if tl
        .iter()
        .any(|e| e.status == Some(Status::FixConfirmed) && related(e))
    {
        PatchState::Confirmed
    } else {
        PatchState::Proposed
    }
}

/// Builds the finished [`Regression`] of a draft. The reports among `msgs`
/// must be prepared ([`super::facts::prepare`]) or whole.
pub fn finish(d: &Draft, msgs: &[LinkMessage], marks: &[Mark]) -> Regression {
    let mut members: Vec<&Member> = d.members.iter().filter(|m| m.idx < msgs.len()).collect();
    // Date order; ties by Message-ID, so arrival order never matters.
    members.sort_by(|a, b| {
        let (ma, mb) = (&msgs[a.idx], &msgs[b.idx]);
        (ma.date.unwrap_or(i64::MAX), &ma.message_id)
            .cmp(&(mb.date.unwrap_or(i64::MAX), &mb.message_id))
    });

    let reports: Vec<ReportInfo> = members
        .iter()
        .filter(|m| m.role == Role::Report)
        .map(|m| info_of(&msgs[m.idx]))
        .collect();
    let perf: Vec<&ReportInfo> = reports
        .iter()
        .filter(|r| r.kind == Kind::PerfReport)
        .collect();
    // Reply-only regressions take their facts from the subject.
    let subject_facts = members
        .iter()
        .find_map(|m| msgs[m.idx].extraction.subject_report.clone());
    let direction = direction_of(&perf, subject_facts.as_ref().and_then(|s| s.direction));
    let first_report_msg = members
        .iter()
        .find(|m| m.role == Role::Report && kind_of(&msgs[m.idx]) == Kind::PerfReport)
        .or_else(|| members.iter().find(|m| m.role == Role::Report))
        .map(|m| &msgs[m.idx]);
    let facts_src = first_report_msg
        .and_then(|m| m.extraction.subject_report.clone())
        .or(subject_facts.clone());
    let subsystem = facts_src
        .as_ref()
        .and_then(|s| s.subsystem.clone())
        .or_else(|| first_report_msg.and_then(|m| patch_subsystem(&m.subject)));
    let mut branches: Vec<String> = Vec::new();
    for r in &reports {
        if let Some(b) = &r.branch
            && !branches.contains(b)
        {
            branches.push(b.clone());
        }
    }
    let branch = facts_src
        .as_ref()
        .and_then(|s| s.branch.clone())
        .or_else(|| branches.first().cloned());

    // Headline: the first regression report (else the first report).
    let head_report = perf
        .iter()
        .find(|r| r.direction == Direction::Regression)
        .or_else(|| perf.first())
        .copied()
        .or_else(|| reports.first());
    let headline = match head_report {
        Some(r) => r.metric.clone().map(|metric| {
            let msg = members
                .iter()
                .find(|m| msgs[m.idx].message_id == r.message_id)
                .map(|m| &msgs[m.idx]);
            let (commits, values, stddev) = match msg.and_then(|m| m.report_facts.as_ref()) {
                Some(f) => f.headline.clone(),
                None => msg.and_then(|m| super::facts::headline_columns(m, &metric)),
            }
            .unwrap_or_default();
            Headline {
                metric,
                change_percent: r.change_percent,
                commits,
                values,
                stddev_percent: stddev,
            }
        }),
        None => subject_facts.as_ref().and_then(|s| {
            s.metric.clone().map(|metric| Headline {
                metric,
                change_percent: s.change_percent,
                ..Headline::default()
            })
        }),
    };

    let ctx = Ctx {
        msgs,
        draft: d,
        first_report: members
            .iter()
            .find(|m| m.role == Role::Report)
            .map(|m| m.idx),
        marks: rules::marks_of(d, marks),
    };
    let said = rules::timeline(&ctx, &members);
    let mut facts = member_facts(&members, msgs);
    facts.still_regression_after_fix = rules::still_regression_after_fix(&said);
    let tracked = said.iter().any(|h| h.tracked);
    let tl = rules::sort(said);
    let folded = fold(
        &tl,
        direction,
        reports.first().map(|r| r.message_id.as_str()),
    );
    facts.marked = folded.marked;

    let patches: Vec<PatchInfo> = members
        .iter()
        .filter(|m| matches!(m.role, Role::Patch | Role::Revert))
        .map(|mem| {
            let m = &msgs[mem.idx];
            PatchInfo {
                message_id: m.message_id.clone(),
                subject: m.subject.clone(),
                from: who(m),
                date: iso(m.date),
                role: if mem.role == Role::Revert {
                    PatchRole::Revert
                } else if kind_of(m) == Kind::Patch {
                    PatchRole::Patch
                } else {
                    PatchRole::DebugPatch
                },
                reason: mem.reason.clone(),
                state: patch_state(d, mem, &members, msgs, &tl),
                trailers: own_trailers(m)
                    .map(|t| TrailerKv {
                        key: t.key.clone(),
                        value: t.value.clone(),
                    })
                    .collect(),
            }
        })
        .collect();

    let regzbot_line =
        (!tracked && direction != Direction::Improvement).then(|| regzbot::introduced_line(&d.key));
    Regression {
        id: 0,
        culprit: CulpritInfo {
            commit: d.key.clone(),
            title: culprit_title(d, msgs),
            aliases: d.aliases.clone(),
            ambiguous_with: d.ambiguous_with.clone(),
        },
        subsystem,
        branch,
        branches,
        status: folded.status,
        status_evidence: folded.evidence,
        direction,
        headline,
        reports,
        messages: members
            .iter()
            .map(|m| msgs[m.idx].message_id.clone())
            .collect(),
        attached: members
            .iter()
            .map(|m| Attachment {
                message_id: msgs[m.idx].message_id.clone(),
                role: m.role,
                reason: m.reason.clone(),
            })
            .collect(),
        patches,
        timeline: tl,
        flags: Vec::new(),
        tracked,
        regzbot: regzbot_line,
        first_date: iso(facts.first_unix),
        last_date: iso(facts.last_unix),
        facts,
    }
}
