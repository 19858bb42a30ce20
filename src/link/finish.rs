//! A regression history from a draft: its reports, direction, subsystem
//! and headline (from the reports' facts), its timeline ([`super::rules`]),
//! its status ([`super::fold`]), its patches and its dates.

use std::collections::HashMap;

use super::draft::{Draft, Member};
use super::fold::fold;
use super::hints::{is_robot, kind_of, own_trailers};
use super::patch::{Patches, is_posting};
use super::rules::{self, Ctx, info_of, who};
use super::{LinkMessage, regzbot, scope};
use crate::mail::subject::thread_key;
use crate::model::history::{
    AppliedAt, Attachment, CulpritInfo, Facts, FixCandidate, FixInfo, Headline, Mark, PatchInfo,
    PatchRole, PatchState, Regression, ReportInfo, Role, Scope, Status, TimelineEntry, TrailerKv,
    iso,
};
use crate::model::{Direction, Kind, LandingKind};

/// A subsystem guessed from a patch subject (`Re: [PATCH v2] sched/fair: ...` -> `sched/fair`).
fn patch_subsystem(subject: &str) -> Option<String> {
    let s = thread_key(subject);
    let (head, _) = s.split_once(": ")?;
    // `<id>: netperf.Throughput_tps 12.8% improvement` names a commit, not a
    // subsystem.
    let commit_id = head.len() >= 7 && head.bytes().all(|b| b.is_ascii_hexdigit());
    (head.len() <= 40 && !head.is_empty() && head.split_whitespace().count() <= 3 && !commit_id)
        .then(|| head.to_string())
}

/// The repository the robot took the culprit from, as the first report
/// names it: the robot's GitHub branch of a posted patch (`url:`), else
/// the repository of the tree line under `commit:`. Exports link the
/// culprit there when it is not a mainline commit.
fn repository_of(members: &[&Member], msgs: &[LinkMessage]) -> Option<String> {
    let body = members
        .iter()
        .filter(|m| m.role == Role::Report)
        .find_map(|m| msgs[m.idx].extraction.report.as_deref())?;
    let github = body.url.as_deref().and_then(|u| {
        let at = u.find("github.com/")?;
        let rest = &u[at + "github.com/".len()..];
        let mut parts = rest.split('/');
        let (owner, repo) = (parts.next()?, parts.next()?);
        Some(format!("https://github.com/{owner}/{repo}"))
    });
    github.or_else(|| {
        body.tree_url
            .as_deref()
            .and_then(|l| l.split_whitespace().next())
            .filter(|u| u.starts_with("https://") || u.starts_with("http://"))
            .map(str::to_string)
    })
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

/// A draft's members among `msgs` in date order; ties by Message-ID, so
/// arrival order never matters.
fn in_date_order<'d>(d: &'d Draft, msgs: &[LinkMessage]) -> Vec<&'d Member> {
    let mut members: Vec<&Member> = d.members.iter().filter(|m| m.idx < msgs.len()).collect();
    members.sort_by(|a, b| {
        let (ma, mb) = (&msgs[a.idx], &msgs[b.idx]);
        (ma.date.unwrap_or(i64::MAX), &ma.message_id)
            .cmp(&(mb.date.unwrap_or(i64::MAX), &mb.message_id))
    });
    members
}

/// The date a draft's history starts, as its [`finish`]ed regression says
/// it (`facts.first_unix`: the first report's, else the first human
/// reply's), without finishing it.
pub fn first_date(d: &Draft, msgs: &[LinkMessage]) -> Option<i64> {
    member_facts(&in_date_order(d, msgs), msgs).first_unix
}

/// Dates and counts of a history's members (in date order).
fn member_facts(members: &[&Member], msgs: &[LinkMessage]) -> Facts {
    let mut facts = Facts::default();
    let later = |a: Option<i64>, b: Option<i64>| match (a, b) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    };
    let mut first_reply = None;
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
            Role::Landing => continue,
        }
        if !is_robot(m) {
            facts.human_replies += 1;
            facts.last_human_unix = later(facts.last_human_unix, m.date);
            if first_reply.is_none() {
                first_reply = m.date;
            }
        }
    }
    // A history starts at its first report; only one without a dated
    // report starts at its first human reply (a reply with a wrong Date
    // cannot move a report's history).
    if facts.first_unix.is_none() {
        facts.first_unix = first_reply;
    }
    facts
}

/// True when a timeline entry is about message `m` or a reply to it.
fn about(e: &TimelineEntry, m: &LinkMessage, members: &[&Member], msgs: &[LinkMessage]) -> bool {
    e.message_id.as_deref() == Some(m.message_id.as_str())
        || members.iter().any(|o| {
            Some(msgs[o.idx].message_id.as_str()) == e.message_id.as_deref()
                && o.role == Role::PatchReply
                && o.reason.contains(m.message_id.as_str())
        })
}

/// The life of one linked patch: every posting, where it landed, how far
/// it got (before superseding, which needs every patch of the history).
#[allow(clippy::too_many_arguments)]
fn patch_life(
    d: &Draft,
    k: usize,
    patches: &Patches,
    members: &[&Member],
    msgs: &[LinkMessage],
    tl: &[TimelineEntry],
    scope: Scope,
) -> Option<PatchInfo> {
    let id = &patches.identities[k];
    let linked: Vec<&Member> = members
        .iter()
        .copied()
        .filter(|m| matches!(m.role, Role::Patch | Role::Revert))
        .filter(|m| patches.identity_of(m.idx) == Some(k))
        .collect();
    let first = linked.first()?;
    let m = &msgs[first.idx];
    let latest = id.postings.last().map_or(m, |&p| &msgs[p]);
    let mut applied: Vec<AppliedAt> = Vec::new();
    let mut state = PatchState::Proposed;
    let mut applied_version = None;
    for at in &patches.landings[k] {
        let Some((lm, l)) = at.of(msgs) else {
            continue;
        };
        applied.push(AppliedAt {
            tree: l.tree.clone(),
            branch: l.branch.clone(),
            commit: l.commit.clone(),
            date: iso(lm.date),
            message_id: lm.message_id.clone(),
            kind: l.kind.as_str().to_string(),
        });
        state = match l.kind {
            LandingKind::Dropped => PatchState::Dropped,
            LandingKind::Merged | LandingKind::Stable | LandingKind::LibrarySync => {
                PatchState::Merged
            }
            _ if state == PatchState::Merged => PatchState::Merged,
            _ => PatchState::Applied,
        };
        if applied_version.is_none() && l.kind != LandingKind::Dropped {
            // The posting it answers, else the last one posted before it.
            applied_version = id
                .postings
                .iter()
                .rev()
                .find(|&&p| msgs[p].date <= lm.date)
                .map(|&p| msgs[p].message_id.clone());
        }
    }
    let first_posting = id.postings.first().copied().unwrap_or(first.idx);
    for &(rep, p) in &d.fix_in_tree {
        if p == first_posting {
            let mainline = info_of(&msgs[rep])
                .branch
                .as_deref()
                .is_some_and(|b| b.starts_with("linus:"));
            let st = if mainline {
                PatchState::Merged
            } else {
                PatchState::Applied
            };
            if st.rank() > state.rank() {
                state = st;
            }
        }
    }
    if state == PatchState::Proposed {
        let postings: Vec<&LinkMessage> = id.postings.iter().map(|&p| &msgs[p]).collect();
        let confirmed = tl.iter().any(|e| {
            e.status == Some(Status::FixConfirmed)
                && postings.iter().any(|p| about(e, p, members, msgs))
        });
        if confirmed {
            state = PatchState::Confirmed;
        } else if !patches.reviews[k].is_empty() {
            state = PatchState::Reviewed;
        }
    }
    let revert = first.role == Role::Revert || id.reverts.0.is_some() || id.reverts.1.is_some();
    let _ = scope;
    Some(PatchInfo {
        message_id: m.message_id.clone(),
        subject: m.subject.clone(),
        from: who(m),
        date: iso(m.date),
        role: if revert {
            PatchRole::Revert
        } else if id
            .postings
            .iter()
            .any(|&p| kind_of(&msgs[p]) == Kind::Patch)
        {
            PatchRole::Patch
        } else {
            PatchRole::DebugPatch
        },
        reason: first.reason.clone(),
        state,
        trailers: own_trailers(latest)
            .map(|t| TrailerKv {
                key: t.key.clone(),
                value: t.value.clone(),
            })
            .collect(),
        title: id.title.clone(),
        versions: id
            .postings
            .iter()
            .map(|&p| msgs[p].message_id.clone())
            .collect(),
        applied_version,
        applied,
    })
}

/// A patch member with no identity (a posting too short to identify):
/// linked as itself.
fn lone_patch(
    mem: &Member,
    members: &[&Member],
    msgs: &[LinkMessage],
    tl: &[TimelineEntry],
) -> PatchInfo {
    let m = &msgs[mem.idx];
    let state = if tl
        .iter()
        .any(|e| e.status == Some(Status::FixApplied) && about(e, m, members, msgs))
    {
        PatchState::Applied
    } else if tl
        .iter()
        .any(|e| e.status == Some(Status::FixConfirmed) && about(e, m, members, msgs))
    {
        PatchState::Confirmed
    } else {
        PatchState::Proposed
    };
    let title = m
        .extraction
        .patch
        .as_ref()
        .map(|p| p.title.clone())
        .unwrap_or_default();
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
        state,
        trailers: own_trailers(m)
            .map(|t| TrailerKv {
                key: t.key.clone(),
                value: t.value.clone(),
            })
            .collect(),
        title,
        versions: vec![m.message_id.clone()],
        applied_version: None,
        applied: Vec::new(),
    }
}

/// A reply of the history confirming a fix, and the posting outside the
/// history it says it tested ([`tested_citation`]).
struct Tested<'m, 't> {
    /// The confirming reply.
    reply: &'m LinkMessage,
    /// Its timeline entry (`fix-confirmed`).
    confirms: &'t TimelineEntry,
    /// The tested posting's Message-ID.
    id: String,
    /// The member pointing at it, when the reply answers a pointer.
    via: Option<&'m LinkMessage>,
}

/// The replies of the history that confirm a fix and name, by a lore URL
/// outside the history, the posting they tested ([`tested_citation`]). In
/// a patch's thread a reply's own citation may be anything: there only a
/// pointer it answers names what it tested.
fn tested_confirmations<'m, 't>(
    members: &[&Member],
    msgs: &'m [LinkMessage],
    held: &Held<'m>,
    tl: &'t [TimelineEntry],
    scope: Scope,
) -> Vec<Tested<'m, 't>> {
    let mut out = Vec::new();
    let confirmations = confirmations_by_message(tl);
    for mem in members
        .iter()
        .filter(|m| matches!(m.role, Role::Reply | Role::PatchReply))
    {
        let reply = &msgs[mem.idx];
        let Some(&confirms) = confirmations.get(reply.message_id.as_str()) else {
            continue;
        };
        let Some((id, via)) = tested_citation(reply, held, scope) else {
            continue;
        };
        if mem.role == Role::PatchReply && via.is_none() {
            continue;
        }
        out.push(Tested {
            reply,
            confirms,
            id,
            via,
        });
    }
    out
}

/// Fixes known only by a link: a reply of the history confirming a fix
/// (its timeline entry sets `fix-confirmed`) names the patch it tested by
/// a lore URL outside the history ([`tested_confirmations`]: "I applied the
/// patch [1] on the culprit and the performance is restored", or "yes,
/// your patch set fixes it" below "I've sent a patch set [1]"). Unless a
/// linked patch holds that posting, it is a patch of the history known by
/// its Message-ID alone: the posting may be outside the archive or outside
/// the threads a link loads, so nothing else of it is read, and a full
/// link and an update give the same.
fn cited_fixes(
    members: &[&Member],
    msgs: &[LinkMessage],
    tested: &[Tested<'_, '_>],
    lives: &[PatchInfo],
) -> Vec<PatchInfo> {
    let mut out: Vec<PatchInfo> = Vec::new();
    for t in tested {
        let (m, id) = (t.reply, &t.id);
        let known = lives
            .iter()
            .chain(&out)
            .any(|p| p.message_id == *id || p.versions.contains(id));
        if known {
            continue;
        }
        let reason = match t.via {
            None => format!(
                "cited by {} in {}, which confirms it: {}",
                who(m).unwrap_or_else(|| "a reply".into()),
                m.message_id,
                t.confirms.event
            ),
            Some(p) => format!(
                "cited by {} in {}, which {} in {} confirms: {}",
                who(p).unwrap_or_else(|| "a reply".into()),
                p.message_id,
                who(m).unwrap_or_else(|| "a reply".into()),
                m.message_id,
                t.confirms.event
            ),
        };
        // A Message-ID git send-email made says when it was sent and by
        // whom: the first member of the history (by date) with that address
        // gives the name.
        let sent = crate::mail::msgid::sent_by_git_send_email(id);
        let from = sent.and_then(|(_, address)| {
            members
                .iter()
                .map(|o| &msgs[o.idx])
                .find(|x| {
                    x.from_email
                        .as_deref()
                        .is_some_and(|e| e.trim().eq_ignore_ascii_case(address))
                })
                .and_then(who)
        });
        out.push(PatchInfo {
            message_id: id.clone(),
            role: PatchRole::Patch,
            reason,
            state: PatchState::Confirmed,
            from,
            date: iso(sent.map(|(t, _)| t)),
            versions: vec![id.clone()],
            ..PatchInfo::default()
        });
    }
    out
}

/// The timeline entry by which each message confirms a fix (its first),
/// by Message-ID.
fn confirmations_by_message(tl: &[TimelineEntry]) -> HashMap<&str, &TimelineEntry> {
    let mut out: HashMap<&str, &TimelineEntry> = HashMap::new();
    for e in tl.iter().filter(|e| e.status == Some(Status::FixConfirmed)) {
        if let Some(id) = e.message_id.as_deref() {
            out.entry(id).or_insert(e);
        }
    }
    out
}

/// A history's members by Message-ID.
type Held<'m> = HashMap<&'m str, &'m LinkMessage>;

/// The members of a history by Message-ID.
fn held<'m>(members: &[&Member], msgs: &'m [LinkMessage]) -> Held<'m> {
    members
        .iter()
        .map(|o| (msgs[o.idx].message_id.as_str(), &msgs[o.idx]))
        .collect()
}

/// The lore URLs outside the history that a message cites in its own text.
fn outside_citations(m: &LinkMessage, held: &Held<'_>) -> Vec<String> {
    let mut cited: Vec<String> = m
        .extraction
        .lore_links
        .iter()
        .map(|l| super::hints::cited_target(l))
        .filter(|id| !held.contains_key(id.as_str()))
        .collect();
    cited.sort();
    cited.dedup();
    cited
}

/// The posting outside the history a confirming reply `m` says it tested:
/// the one lore URL it cites in its own text; else, when it cites none,
/// the one lore URL cited by the member it answers, when that message
/// posts no diff of its own and the URL's Message-ID is one a patch tool
/// makes ([`crate::mail::msgid::made_by_patch_tool`]; a pointer: "I've just sent out a patch set
/// [1] that should fix these regressions", answered by the robot's team
/// "yes, your patch set totally fixes the regression"). Gives the
/// Message-ID and, for the second form, the pointing message.
fn tested_citation<'m>(
    m: &LinkMessage,
    held: &Held<'m>,
    scope: Scope,
) -> Option<(String, Option<&'m LinkMessage>)> {
    let own = outside_citations(m, held);
    if !own.is_empty() {
        let [id] = own.as_slice() else {
            return None;
        };
        return Some((id.clone(), None));
    }
    // A posting pointed at in the discussion of a patch under review is as
    // likely the culprit's own replacement ("we dropped that approach and
    // now use <URL>") as a fix, which its link alone cannot tell.
    if scope == Scope::PatchUnderReview {
        return None;
    }
    let p = *held.get(m.in_reply_to.as_deref()?)?;
    if super::hints::own_diff(p) || is_posting(p) {
        return None;
    }
    let [id] = outside_citations(p, held).try_into().ok()?;
    crate::mail::msgid::made_by_patch_tool(&id).then_some((id, Some(p)))
}

/// The fix of a history: of its patches that were not superseded or
/// dropped, the one that got furthest (the latest of those that got as far).
fn fix_of(patches: &[PatchInfo]) -> Option<FixInfo> {
    let best = patches
        .iter()
        .filter(|p| !matches!(p.state, PatchState::Superseded | PatchState::Dropped))
        .max_by_key(|p| (p.state.rank(), p.date.clone()))?;
    let mut trees: Vec<String> = Vec::new();
    for a in &best.applied {
        if a.kind == "dropped" {
            continue;
        }
        let t = match (&a.branch, &a.tree) {
            (Some(b), Some(t)) => format!("{t} {b}"),
            (Some(b), None) => b.clone(),
            (None, Some(t)) => t.clone(),
            (None, None) => continue,
        };
        if !trees.contains(&t) {
            trees.push(t);
        }
    }
    // The commit in the tree it got furthest in: the last landing's that has one.
    let commit = best
        .applied
        .iter()
        .rev()
        .filter(|a| a.kind != "merged" && a.kind != "dropped")
        .find_map(|a| a.commit.clone());
    Some(FixInfo {
        title: if best.title.is_empty() {
            best.subject.clone()
        } else {
            best.title.clone()
        },
        commit,
        trees,
        message_id: best.message_id.clone(),
        state: best.state,
        release: None,
    })
}

/// What a history's reports say of it (in date order), before the
/// timeline: the reports, the direction, subsystem and branch, the
/// branches of all reports, and the headline.
struct Reported {
    reports: Vec<ReportInfo>,
    direction: Direction,
    subsystem: Option<String>,
    branch: Option<String>,
    branches: Vec<String>,
    headline: Option<Headline>,
}

/// What the reports among `members` (in date order) say; a reply-only
/// history takes its facts from a reply's subject.
fn reported(members: &[&Member], msgs: &[LinkMessage]) -> Reported {
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

    let headline = headline_of(&perf, &reports, subject_facts.as_deref(), members, msgs);
    Reported {
        reports,
        direction,
        subsystem,
        branch,
        branches,
        headline,
    }
}

/// The headline: the first regression report's metric and change (else
/// the first report's), with its table columns; a reply-only history's
/// from a reply's subject.
fn headline_of(
    perf: &[&ReportInfo],
    reports: &[ReportInfo],
    subject_facts: Option<&crate::model::SubjectReport>,
    members: &[&Member],
    msgs: &[LinkMessage],
) -> Option<Headline> {
    let head_report = perf
        .iter()
        .find(|r| r.direction == Direction::Regression)
        .or_else(|| perf.first())
        .copied()
        .or_else(|| reports.first());
    match head_report {
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
        None => subject_facts.and_then(|s| {
            s.metric.clone().map(|metric| Headline {
                metric,
                change_percent: s.change_percent,
                ..Headline::default()
            })
        }),
    }
}

/// What the robot tested first: the scope of the first performance report
/// among `members` (in date order), else of the first report.
fn scope_of(members: &[&Member], msgs: &[LinkMessage]) -> Scope {
    let first_report_idx = members
        .iter()
        .find(|m| m.role == Role::Report && kind_of(&msgs[m.idx]) == Kind::PerfReport)
        .or_else(|| members.iter().find(|m| m.role == Role::Report))
        .map(|m| m.idx);
    first_report_idx.map_or(Scope::Unknown, |i| {
        let replies_to_posting = msgs[i]
            .in_reply_to
            .as_deref()
            .and_then(|p| msgs.iter().find(|x| x.message_id == p))
            .is_some_and(is_posting);
        scope::scope_of(&msgs[i], replies_to_posting)
    })
}

/// The lives of a history's patches (by date): every linked patch
/// ([`patch_life`]) and every patch member too short to identify
/// ([`lone_patch`]; a series' cover letter is none), a patch that never got
/// far superseded by a later one that was applied.
fn patch_lives(
    d: &Draft,
    patches: &Patches,
    members: &[&Member],
    msgs: &[LinkMessage],
    tl: &[TimelineEntry],
    scope: Scope,
) -> Vec<PatchInfo> {
    // A confirmation of a posting a reply points at confirms no patch of
    // the thread it sits in.
    let held = held(members, msgs);
    let tested = tested_confirmations(members, msgs, &held, tl, scope);
    let pointed: std::collections::HashSet<&str> = tested
        .iter()
        .filter(|t| t.via.is_some())
        .map(|t| t.reply.message_id.as_str())
        .collect();
    let own_tl: Vec<TimelineEntry>;
    let lives_tl = if pointed.is_empty() {
        tl
    } else {
        own_tl = tl
            .iter()
            .filter(|e| {
                !(e.status == Some(Status::FixConfirmed)
                    && e.message_id
                        .as_deref()
                        .is_some_and(|id| pointed.contains(id)))
            })
            .cloned()
            .collect();
        &own_tl
    };
    let mut lives: Vec<PatchInfo> = d
        .patches
        .iter()
        .filter_map(|&k| patch_life(d, k, patches, members, msgs, lives_tl, scope))
        .collect();
    // A series' cover letter is no patch: its patches are linked themselves.
    for mem in members
        .iter()
        .filter(|m| matches!(m.role, Role::Patch | Role::Revert))
        .filter(|m| patches.identity_of(m.idx).is_none())
        .filter(|m| !super::patch::is_cover(&msgs[m.idx]))
    {
        lives.push(lone_patch(mem, members, msgs, lives_tl));
    }
    let cited = cited_fixes(members, msgs, &tested, &lives);
    lives.extend(cited);
    lives.sort_by(|a, b| (a.date.clone(), &a.message_id).cmp(&(b.date.clone(), &b.message_id)));
    // A patch that never got far is superseded by a later one that was applied.
    let landed_at: Vec<Option<String>> = lives
        .iter()
        .map(|p| {
            matches!(p.state, PatchState::Applied | PatchState::Merged)
                .then(|| p.date.clone())
                .flatten()
        })
        .collect();
    for (i, life) in lives.iter_mut().enumerate() {
        if matches!(
            life.state,
            PatchState::Proposed | PatchState::Reviewed | PatchState::Confirmed
        ) && landed_at.iter().enumerate().any(|(j, l)| {
            j != i
                && l.as_deref()
                    .is_some_and(|d| Some(d) >= life.date.as_deref())
        }) {
            life.state = PatchState::Superseded;
        }
    }
    // A draft in the thread that nobody confirmed is no fix once a posted
    // patch (not a draft) is confirmed, applied or merged: it was a try on
    // the way, and stays in the timeline and among the attached messages.
    let settled = lives.iter().any(|p| {
        p.role == PatchRole::Patch
            && matches!(
                p.state,
                PatchState::Confirmed | PatchState::Applied | PatchState::Merged
            )
    });
    if settled {
        lives.retain(|p| !(p.role == PatchRole::DebugPatch && p.state == PatchState::Proposed));
    }
    lives
}

/// Builds the finished [`Regression`] of a draft. The reports among `msgs`
/// must be prepared ([`super::facts::prepare`]) or whole; `patches` are the
/// identities of `msgs` ([`super::patch::identify`]).
pub fn finish(d: &Draft, msgs: &[LinkMessage], marks: &[Mark], patches: &Patches) -> Regression {
    let members = in_date_order(d, msgs);

    let Reported {
        reports,
        direction,
        subsystem,
        branch,
        branches,
        headline,
    } = reported(&members, msgs);
    let scope = scope_of(&members, msgs);
    let repository = repository_of(&members, msgs);
    let culprit_title = d.culprit_title(msgs);
    // No subsystem tag: the culprit's title prefix (`ext4: ...`) says it.
    let subsystem = subsystem.or_else(|| culprit_title.as_deref().and_then(patch_subsystem));
    let metric = headline.as_ref().map(|h| h.metric.as_str());
    let ctx = Ctx {
        msgs,
        draft: d,
        first_report: members
            .iter()
            .find(|m| m.role == Role::Report)
            .map(|m| m.idx),
        marks: rules::marks_of(d, marks),
        all_marks: marks,
        patches,
        scope,
        in_mainline: scope == Scope::Mainline
            || reports
                .iter()
                .any(|r| r.branch.as_deref().is_some_and(|b| b.starts_with("linus:"))),
        metric,
        speakers: super::speaker::Speakers::of(
            d,
            culprit_title.as_deref(),
            &members,
            msgs,
            patches,
        ),
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
    let (marked_fix, marked_release) = super::marks::marked_fix(&ctx.marks, marks);

    let patches = patch_lives(d, patches, &members, msgs, &tl, scope);
    let fix = super::marks::apply_fix(
        fix_of(&patches),
        marked_fix.as_deref(),
        marked_release.as_deref(),
    );
    facts.marked_fix = marked_fix;
    facts.marked_release = marked_release;
    facts.marked_patch = super::marks::marked_patches(&ctx.marks, marks).pop();

    let regzbot_line =
        (!tracked && direction != Direction::Improvement).then(|| regzbot::introduced_line(&d.key));
    let key12: String = d.key.chars().take(12).collect();
    let fix_candidates = d
        .candidates
        .iter()
        .filter_map(|c| {
            let m = msgs.get(c.idx)?;
            let title = m
                .extraction
                .patch
                .as_deref()
                .map(|p| p.title.clone())
                .filter(|t| !t.is_empty())
                .unwrap_or_else(|| m.subject.clone());
            Some(FixCandidate {
                message_id: m.message_id.clone(),
                title,
                from: rules::who(m),
                date: iso(m.date),
                score: c.score,
                reasons: c.reasons.clone(),
                linked: c.links(),
                new_version: c.new_version,
                asks: c.asks,
                settle: format!(
                    "regtrack mark {key12} --fix {}",
                    super::doubt::shell_arg(&m.message_id)
                ),
            })
        })
        .collect();
    let mut r = Regression {
        id: 0,
        culprit: CulpritInfo {
            commit: d.key.clone(),
            title: culprit_title,
            repository,
            aliases: d.aliases.clone(),
            ambiguous_with: d.ambiguous_with.clone(),
            ..CulpritInfo::default()
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
        scope,
        fix,
        fix_candidates,
        ..Regression::default()
    };
    super::doubt::assess(&mut r);
    r
}
