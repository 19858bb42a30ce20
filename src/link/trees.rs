//! What the followed kernel trees (`regtrack trees`) say of a history: the
//! culprit found in a tree (its full id, date, trees and first release), the
//! commits that fix it, a revert of it, and the status that follows. Pure:
//! the pipeline looks up the candidate commits of a history by its
//! [`TreeKeys`] and hands them in as [`TreeCommit`] rows; [`apply`] changes
//! the finished [`Regression`] and nothing else.
//!
//! A commit held by a followed ref fixes a history when
//! - a `Closes:` or `Link:` trailer points to any message of the history;
//! - a `Fixes:` trailer names the culprit (any of its ids) and a
//!   `Reported-by:` names the kernel test robot (and no `Closes:` names a
//!   report outside the history);
//! - its title and author are those of a patch of the history;
//! - its diff has the patch id of a patch of the history (looked up by the
//!   pipeline among the patch author's commits, for a patch whose title no
//!   commit has: a title reworded when it was applied).
//!
//! A commit whose `This reverts commit <sha>` names the culprit drops it. A
//! stable backport (`commit <sha> upstream.`) counts as its upstream commit,
//! with the stable tree among the fix's trees.
//!
//! Status: `fixed` when a fix is in a release (the first release tag that
//! contains it, of mainline, a tree named `mainline`, `linus`, `torvalds`
//! or `linux`, or of the tree the regression was reported on; of any
//! followed tree only when it is in none of those); `fix-applied` ("in next
//! only", "in xfs for-next") when a fix is in a followed ref but no release
//! yet. A revert of a culprit that reached mainline is its fix (`fixed`
//! once released); a revert of one that never did is `culprit-dropped`.
//! When several commits fix a history, the one a human named wins, then the
//! strongest reason (a `Closes:`/`Link:` into the history, then a patch's
//! patch id or title and author, then `Fixes:` with the robot's
//! `Reported-by:`, which does not count when the commit's `Closes:` names a
//! report outside the history), then the earliest release. What the mail
//! settled as `fixed` is never lowered; a human mark and an improvement
//! keep their status.

use super::culprit::same_commit;
use super::hints::{names_robot, title_key};
use crate::model::history::{
    FixInfo, PatchState, Regression, Status, StatusEvidence, TimelineEntry, iso,
};
use crate::trees::parse_release;

/// One ref of a followed tree that holds a commit.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TreeRef {
    /// The tree's name (`mainline`, `next`, `stable`).
    pub tree: String,
    /// The ref as followed (`master`, `refs/heads/for-next`, `HEAD`).
    pub refname: String,
    /// The first release tag of that tree containing the commit.
    pub release: Option<String>,
}

impl TreeRef {
    /// `mainline master`, `xfs for-next`; the tree's name alone for `HEAD`.
    pub fn display(&self) -> String {
        let r = self
            .refname
            .strip_prefix("refs/heads/")
            .or_else(|| self.refname.strip_prefix("refs/remotes/"))
            .unwrap_or(&self.refname);
        if r == "HEAD" {
            self.tree.clone()
        } else {
            format!("{} {r}", self.tree)
        }
    }
}

/// One stored commit of a followed tree, as matching reads it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TreeCommit {
    /// Full id (40 hex).
    pub oid: String,
    /// Title (first line of the message).
    pub title: String,
    /// Author name.
    pub author_name: String,
    /// Author email.
    pub author_email: String,
    /// Committer time, Unix seconds.
    pub committer_time: i64,
    /// The commit `This reverts commit <sha>` names.
    pub reverts: Option<String>,
    /// A stable backport's upstream commit.
    pub upstream: Option<String>,
    /// Kept trailers (key, value), in message order.
    pub trailers: Vec<(String, String)>,
    /// The followed refs holding it now (empty: it vanished from them).
    pub refs: Vec<TreeRef>,
    /// The posting of a history's patch whose diff has this commit's patch
    /// id (`git patch-id --stable`), when the pipeline looked it up.
    pub patch_of: Option<String>,
}

/// What the candidate commits of a history are looked up by.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TreeKeys {
    /// The culprit's ids (key first, then aliases): commits with these ids,
    /// reverts of them, `Fixes:` naming them.
    pub commits: Vec<String>,
    /// Every Message-ID of the history (`Closes:`/`Link:` targets).
    pub message_ids: Vec<String>,
    /// Title keys ([`title_key`]) of the history's patches.
    pub titles: Vec<String>,
    /// The fix commit a human named (`regtrack mark --fix`).
    pub fixes: Vec<String>,
}

/// The keys of a finished history.
pub fn keys(r: &Regression) -> TreeKeys {
    let mut titles: Vec<String> = r
        .patches
        .iter()
        .map(|p| {
            title_key(if p.title.is_empty() {
                &p.subject
            } else {
                &p.title
            })
        })
        .filter(|k| k.len() >= super::keys::MIN_TITLE_KEY)
        .collect();
    titles.sort();
    titles.dedup();
    TreeKeys {
        commits: culprit_ids(r),
        message_ids: r.messages.clone(),
        titles,
        fixes: r.facts.marked_fix.iter().cloned().collect(),
    }
}

fn culprit_ids(r: &Regression) -> Vec<String> {
    std::iter::once(r.culprit.commit.clone())
        .chain(r.culprit.aliases.iter().cloned())
        .filter(|c| !c.is_empty())
        .collect()
}

/// The commit id a `Fixes:` value starts with.
pub fn fixes_target(value: &str) -> Option<String> {
    let id = value.split_whitespace().next()?;
    super::culprit::is_hex_id(id).then(|| id.to_ascii_lowercase())
}

/// The Message-ID a `Closes:`/`Link:` value points to.
pub fn link_target(value: &str) -> Option<String> {
    crate::mail::msgid::url_message_id(value)
}

/// Why `c` fixes `r`, if it does.
/// Why `c` fixes `r`, if it does, with the strength of the reason (lower
/// is stronger: a mark, then a `Closes:`/`Link:` into the history, then a
/// patch's patch id or title and author, then `Fixes:` with the robot's
/// `Reported-by:`).
fn fix_reason(r: &Regression, ids: &[String], c: &TreeCommit) -> Option<(u8, String)> {
    if r.facts.marked_fix.as_deref().is_some_and(|f| {
        same_commit(f, &c.oid) || c.upstream.as_deref().is_some_and(|u| same_commit(f, u))
    }) {
        return Some((0, "marked as the fix".into()));
    }
    for (k, v) in &c.trailers {
        if (k == "Closes" || k == "Link")
            && let Some(m) = link_target(v)
            && r.messages.contains(&m)
        {
            return Some((1, format!("{k}: {m}")));
        }
    }
    if let Some(p) = &c.patch_of
        && r.patches.iter().any(|x| &x.message_id == p)
    {
        return Some((2, format!("patch id of patch {p}")));
    }
    let key = title_key(&c.title);
    if key.len() >= super::keys::MIN_TITLE_KEY {
        let by = |p: &crate::model::history::PatchInfo| {
            p.from.as_deref().is_some_and(|f| {
                let f = f.trim();
                f.eq_ignore_ascii_case(c.author_name.trim())
                    || f.eq_ignore_ascii_case(c.author_email.trim())
            })
        };
        if let Some(p) = r.patches.iter().find(|p| {
            title_key(if p.title.is_empty() {
                &p.subject
            } else {
                &p.title
            }) == key
                && by(p)
        }) {
            return Some((2, format!("title and author of patch {}", p.message_id)));
        }
    }
    let robot = c
        .trailers
        .iter()
        .any(|(k, v)| k.starts_with("Reported") && names_robot(v));
    // A `Closes:` says which report the commit closes: one outside the
    // history (a build warning the robot reported on the same culprit) is
    // not this regression's fix.
    let closes_elsewhere = super::hints::closes_only_elsewhere(
        c.trailers
            .iter()
            .filter(|(k, _)| k == "Closes")
            .filter_map(|(_, v)| link_target(v))
            .map(|m| r.messages.contains(&m)),
    );
    if robot && !closes_elsewhere {
        for (k, v) in &c.trailers {
            if k == "Fixes"
                && let Some(t) = fixes_target(v)
                && ids.iter().any(|id| same_commit(id, &t))
            {
                return Some((3, format!("Fixes: {t} with Reported-by: kernel test robot")));
            }
        }
    }
    None
}

fn short(id: &str) -> &str {
    id.get(..12).unwrap_or(id)
}

/// The earliest of some release names (mainline order; others by name).
fn earliest<'a>(names: impl Iterator<Item = &'a str>) -> Option<String> {
    names
        .min_by(|a, b| match (parse_release(a), parse_release(b)) {
            (Some(x), Some(y)) => x.cmp(&y),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => a.cmp(b),
        })
        .map(str::to_string)
}

/// Where a group of commits is: `next master`, `mainline master, stable linux-6.1.y`.
fn trees_of(commits: &[&TreeCommit]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in commits {
        for r in &c.refs {
            let d = r.display();
            if !out.contains(&d) {
                out.push(d);
            }
        }
    }
    out
}

/// `in next only`, `in xfs for-next`, `in mainline master and stable linux-6.1.y`.
fn where_phrase(commits: &[&TreeCommit]) -> String {
    let only_next = commits
        .iter()
        .flat_map(|c| &c.refs)
        .all(|r| matches!(r.tree.as_str(), "next" | "linux-next"));
    if only_next {
        "in next only".to_string()
    } else {
        format!("in {}", trees_of(commits).join(" and "))
    }
}

fn entry(c: &TreeCommit, event: String, status: Option<Status>) -> TimelineEntry {
    TimelineEntry {
        date: iso(Some(c.committer_time)),
        unix: Some(c.committer_time),
        from: Some(c.author_name.clone()).filter(|s| !s.is_empty()),
        event,
        status,
        message_id: None,
        reopens: false,
        step: false,
        doubt: None,
    }
}

/// True for mainline by the names people give it.
fn is_mainline(tree: &str) -> bool {
    ["mainline", "linus", "torvalds", "linux"]
        .iter()
        .any(|n| tree.eq_ignore_ascii_case(n))
}

/// The first release of a commit (or a fix and its backports) that counts:
/// a release of mainline or of the tree the regression was reported on
/// (`xfs` for `xfs:for-next`); only when none of the refs holding it is
/// one of those, the first release of any (a stable point release when
/// only stable is followed).
fn release_in(refs: &[&TreeRef], scope_tree: Option<&str>) -> Option<String> {
    let home = |r: &TreeRef| {
        is_mainline(&r.tree) || scope_tree.is_some_and(|s| r.tree.eq_ignore_ascii_case(s))
    };
    if refs.iter().any(|r| home(r)) {
        earliest(
            refs.iter()
                .filter(|r| home(r))
                .filter_map(|r| r.release.as_deref()),
        )
    } else {
        earliest(refs.iter().filter_map(|r| r.release.as_deref()))
    }
}

/// The tree a regression was reported on (`xfs` of `xfs:for-next`).
fn scope_tree(r: &Regression) -> Option<&str> {
    r.branch.as_deref().and_then(|b| b.split(':').next())
}

fn release_of(c: &TreeCommit, scope: Option<&str>) -> Option<String> {
    release_in(&c.refs.iter().collect::<Vec<_>>(), scope)
}

/// Changes `r` by what the candidate commits `commits` say (see the module
/// docs); commits that match nothing are ignored, so the candidates may
/// over-approximate.
pub fn apply(r: &mut Regression, commits: &[TreeCommit]) {
    let ids = culprit_ids(r);
    let held: Vec<&TreeCommit> = commits.iter().filter(|c| !c.refs.is_empty()).collect();
    if held.is_empty() || ids.is_empty() {
        return;
    }
    let mut timeline: Vec<TimelineEntry> = Vec::new();
    let culprit = culprit_commit(r, &ids, &held, &mut timeline);
    // A revert of the culprit.
    let revert = held.iter().copied().find(|c| {
        c.reverts
            .as_deref()
            .is_some_and(|x| ids.iter().any(|id| same_commit(id, x)))
    });
    let groups = fix_groups(r, &ids, &held, culprit, revert);
    let scope = scope_tree(r).map(str::to_string);
    let best = best_fix(r, &groups, scope.as_deref());
    let mut new_status = fixes_said(r, &groups, best, revert.is_some(), &mut timeline);
    if let Some(c) = revert {
        let (s, reason, rel) = revert_said(r, c, scope.as_deref());
        let take = new_status.as_ref().is_none_or(|(n, _)| *n != Status::Fixed);
        if take {
            new_status = Some((s, reason.clone()));
            if best.is_none() {
                set_fix(r, &c.oid, c, &[c], rel);
            }
        }
        timeline.push(entry(c, reason, take.then_some(s)));
    }
    if let Some((s, reason)) = new_status {
        raise_status(r, s, reason);
    }
    if !timeline.is_empty() {
        r.timeline.extend(timeline);
        r.timeline.sort_by_key(|e| e.unix.unwrap_or(i64::MAX));
    }
    // What the trees say may settle or raise a doubt.
    super::doubt::assess(r);
}

/// Finds the culprit itself among the `held` commits (its own commit
/// before a backport of it) by the culprit's `ids`; sets what `r` says of
/// the culprit's commit and says it in `timeline`. Gives the commit found.
fn culprit_commit<'c>(
    r: &mut Regression,
    ids: &[String],
    held: &[&'c TreeCommit],
    timeline: &mut Vec<TimelineEntry>,
) -> Option<&'c TreeCommit> {
    let culprit = held
        .iter()
        .copied()
        .filter(|c| c.upstream.is_none())
        .find(|c| ids.iter().any(|id| same_commit(id, &c.oid)))
        .or_else(|| {
            held.iter()
                .copied()
                .find(|c| ids.iter().any(|id| same_commit(id, &c.oid)))
        })?;
    r.culprit.tree_commit = Some(culprit.oid.clone());
    r.culprit.committed = iso(Some(culprit.committer_time));
    r.culprit.trees = trees_of(&[culprit]);
    r.culprit.release = release_of(culprit, scope_tree(r));
    let rel = match &r.culprit.release {
        Some(v) => format!(", first released in {v}"),
        None => String::new(),
    };
    timeline.push(entry(
        culprit,
        format!(
            "culprit committed {}: {}{rel}",
            where_phrase(&[culprit]),
            short(&culprit.oid)
        ),
        None,
    ));
    Some(culprit)
}

/// The fixes of a history among a group of commits: the upstream commit (a
/// backport is its upstream's), the commit and its backports, and why it
/// fixes the history (strength, words).
type FixGroup<'c> = (String, Vec<&'c TreeCommit>, (u8, String));

/// The commits among `held` that fix `r` (neither the culprit nor its
/// revert), grouped by upstream commit, backports that say nothing
/// themselves joining their upstream's group.
fn fix_groups<'c>(
    r: &Regression,
    ids: &[String],
    held: &[&'c TreeCommit],
    culprit: Option<&TreeCommit>,
    revert: Option<&TreeCommit>,
) -> Vec<FixGroup<'c>> {
    let mut groups: Vec<FixGroup<'c>> = Vec::new();
    for c in held.iter().copied() {
        if Some(c) == culprit || Some(c) == revert || ids.iter().any(|id| same_commit(id, &c.oid)) {
            continue;
        }
        let Some(why) = fix_reason(r, ids, c) else {
            continue;
        };
        let canon = c.upstream.clone().unwrap_or_else(|| c.oid.clone());
        match groups.iter_mut().find(|g| g.0 == canon) {
            Some(g) => g.1.push(c),
            None => groups.push((canon, vec![c], why)),
        }
    }
    // Backports of a fix that say nothing themselves join it.
    for c in held.iter().copied() {
        if let Some(up) = &c.upstream
            && let Some(g) = groups.iter_mut().find(|g| &g.0 == up)
            && !g.1.contains(&c)
        {
            g.1.push(c);
        }
    }
    groups
}

/// The first release of a group of commits, for a history reported on
/// `scope` (its tree).
fn release_of_group(g: &[&TreeCommit], scope: Option<&str>) -> Option<String> {
    let refs: Vec<&TreeRef> = g.iter().flat_map(|c| &c.refs).collect();
    release_in(&refs, scope)
}

/// The best of the fix groups (index into `groups`): the one a human
/// named, then by the strength of the reason (a `Closes:` into the history
/// over a bare `Fixes:`), then the earliest released, else the one in most
/// refs.
fn best_fix(r: &Regression, groups: &[FixGroup<'_>], scope: Option<&str>) -> Option<usize> {
    let rank = |g: &[&TreeCommit]| {
        let rel = release_of_group(g, scope);
        match rel.as_deref().and_then(parse_release) {
            Some(v) => (0u8, Some(v), usize::MAX - trees_of(g).len()),
            None if rel.is_some() => (1, None, usize::MAX - trees_of(g).len()),
            None => (2, None, usize::MAX - trees_of(g).len()),
        }
    };
    // The fix a human named comes first.
    let marked = |canon: &str| {
        !r.facts
            .marked_fix
            .as_deref()
            .is_some_and(|f| same_commit(f, canon))
    };
    (0..groups.len()).min_by_key(|&i| (marked(&groups[i].0), groups[i].2.0, rank(&groups[i].1)))
}

/// Says every fix group in `timeline`; the best one (`best`) sets the fix
/// of `r` and gives the status it speaks for (`fixed` once released, else
/// `fix-applied`, or none while a culprit's revert is there to decide).
fn fixes_said(
    r: &mut Regression,
    groups: &[FixGroup<'_>],
    best: Option<usize>,
    reverted: bool,
    timeline: &mut Vec<TimelineEntry>,
) -> Option<(Status, String)> {
    let scope = scope_tree(r).map(str::to_string);
    let mut new_status = None;
    for (i, (canon, group, (_, why))) in groups.iter().enumerate() {
        let rel = release_of_group(group, scope.as_deref());
        let first = group
            .iter()
            .find(|c| &c.oid == canon)
            .copied()
            .unwrap_or(group[0]);
        let rel_text = match &rel {
            Some(v) => format!(", first released in {v}"),
            None => String::new(),
        };
        let event = format!(
            "fix committed {}: {} (\"{}\"){rel_text} ({why})",
            where_phrase(group),
            short(canon),
            first.title
        );
        let status = if Some(i) == best {
            let s = match &rel {
                Some(_) => Some(Status::Fixed),
                None if reverted => None,
                None => Some(Status::FixApplied),
            };
            if let Some(s) = s {
                let reason = match &rel {
                    Some(v) => format!(
                        "fixed in {v} by {} (\"{}\"), {}; {why}",
                        short(canon),
                        first.title,
                        where_phrase(group)
                    ),
                    None => format!(
                        "fix {}: {} (\"{}\"); {why}",
                        where_phrase(group),
                        short(canon),
                        first.title
                    ),
                };
                new_status = Some((s, reason));
            }
            set_fix(r, canon, first, group, rel.clone());
            s
        } else {
            None
        };
        timeline.push(entry(first, event, status));
    }
    new_status
}

/// What a revert `c` of the culprit says: a culprit that reached mainline
/// is fixed by its revert (once a release holds it), one that never did
/// left its tree. Gives the status, the reason and the revert's release.
fn revert_said(
    r: &Regression,
    c: &TreeCommit,
    scope: Option<&str>,
) -> (Status, String, Option<String>) {
    let rel = release_of(c, scope);
    let reached_mainline = r.culprit.release.is_some()
        || r.culprit
            .trees
            .iter()
            .any(|t| is_mainline(t.split(' ').next().unwrap_or("")))
        || r.scope == crate::model::history::Scope::Mainline
        || r.branch.as_deref().is_some_and(|b| b.starts_with("linus:"));
    let (s, reason) = match (&rel, reached_mainline) {
        (Some(v), true) => (
            Status::Fixed,
            format!(
                "fixed in {v}: the culprit reverted {} by {} (\"{}\")",
                where_phrase(&[c]),
                short(&c.oid),
                c.title
            ),
        ),
        (None, true) => (
            Status::FixApplied,
            format!(
                "culprit reverted {} by {} (\"{}\"), not released yet",
                where_phrase(&[c]),
                short(&c.oid),
                c.title
            ),
        ),
        (_, false) => (
            Status::CulpritDropped,
            format!(
                "culprit reverted {} by {} (\"{}\")",
                where_phrase(&[c]),
                short(&c.oid),
                c.title
            ),
        ),
    };
    (s, reason, rel)
}

/// Sets the status the trees speak for (`s`: `fix-applied`, `fixed` or
/// `culprit-dropped`, for `reason`) on `r`, unless a human mark or an
/// improvement keeps its status, or the mail settled more: a history at
/// the end of the path stays there (a `fixed` one stays `fixed`).
fn raise_status(r: &mut Regression, s: Status, reason: String) {
    if r.facts.marked || r.status == Status::Improvement {
        return;
    }
    let raise = if s == Status::Fixed {
        true
    } else if s.ends_path() {
        r.status != Status::Fixed
    } else {
        !r.status.ends_path()
    };
    if raise {
        r.status = s;
        r.status_evidence.push(StatusEvidence {
            status: s,
            message_id: None,
            reason,
        });
    }
}

/// Sets the fix of `r` to the tree commit `canon` (`first` its commit,
/// `group` it and its backports).
fn set_fix(
    r: &mut Regression,
    canon: &str,
    first: &TreeCommit,
    group: &[&TreeCommit],
    release: Option<String>,
) {
    let key = title_key(&first.title);
    let posting = r
        .patches
        .iter()
        .find(|p| {
            title_key(if p.title.is_empty() {
                &p.subject
            } else {
                &p.title
            }) == key
        })
        .map(|p| p.message_id.clone());
    let state = if release.is_some() {
        PatchState::Merged
    } else {
        PatchState::Applied
    };
    let fix = r.fix.get_or_insert_with(FixInfo::default);
    let same = title_key(&fix.title) == key;
    if !same {
        fix.trees.clear();
        fix.message_id = posting.unwrap_or_default();
    } else if let Some(p) = posting
        && fix.message_id.is_empty()
    {
        fix.message_id = p;
    }
    fix.title = first.title.clone();
    fix.commit = Some(canon.to_string());
    for t in trees_of(group) {
        if !fix.trees.contains(&t) {
            fix.trees.push(t);
        }
    }
    // A release a human named stands.
    if r.facts.marked_release.is_none() {
        fix.release = release;
    }
    if state.rank() > fix.state.rank() || !same {
        fix.state = state;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::history::{CulpritInfo, PatchInfo, PatchRole};

    const CULPRIT: &str = "2edf06a50f5bbe664283f3c55c480fc013221d70";

    fn reg() -> Regression {
        Regression {
            culprit: CulpritInfo {
                commit: CULPRIT.into(),
                aliases: vec!["2edf06a50f".into()],
                ..CulpritInfo::default()
            },
            status: Status::FixProposed,
            messages: vec!["report@intel.com".into(), "patch@example.org".into()],
            patches: vec![PatchInfo {
                message_id: "patch@example.org".into(),
                title: "xfs: restore the fast path".into(),
                from: Some("Jane Dev".into()),
                role: PatchRole::Patch,
                ..PatchInfo::default()
            }],
            ..Regression::default()
        }
    }

    fn at(tree: &str, release: Option<&str>) -> TreeRef {
        TreeRef {
            tree: tree.into(),
            refname: "master".into(),
            release: release.map(str::to_string),
        }
    }

    fn commit(oid: char, title: &str, trailers: &[(&str, &str)], refs: Vec<TreeRef>) -> TreeCommit {
        TreeCommit {
            oid: std::iter::repeat_n(oid, 40).collect(),
            title: title.into(),
            author_name: "Jane Dev".into(),
            author_email: "jane@example.org".into(),
            committer_time: 1_700_000_000,
            trailers: trailers
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            refs,
            ..TreeCommit::default()
        }
    }

    #[test]
    fn only_a_mainline_release_counts_when_mainline_holds_the_fix() {
        let closes = [("Closes", "https://lore.kernel.org/oe-lkp/report@intel.com")];
        // In mainline (not released yet) and released in stable 6.8.5.
        let mut r = reg();
        let up = commit('a', "xfs: fix", &closes, vec![at("mainline", None)]);
        let mut back = commit('b', "xfs: fix", &[], vec![at("stable", Some("v6.8.5"))]);
        back.upstream = Some(up.oid.clone());
        apply(&mut r, &[up.clone(), back.clone()]);
        assert_eq!(r.status, Status::FixApplied, "{:?}", r.status_evidence);
        assert_eq!(r.fix.as_ref().and_then(|f| f.release.clone()), None);
        // Only stable followed: its point release is what there is.
        let mut r = reg();
        let mut only_back = back.clone();
        only_back.trailers = closes
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        apply(&mut r, &[only_back]);
        assert_eq!(r.status, Status::Fixed);
        assert_eq!(r.fix.and_then(|f| f.release).as_deref(), Some("v6.8.5"));
        // Reported on xfs:for-next: a release of the xfs tree counts too.
        let mut r = reg();
        r.branch = Some("xfs:for-next".into());
        let c = commit(
            'c',
            "xfs: fix",
            &closes,
            vec![at("xfs", Some("xfs-6.9-fixes-1")), at("mainline", None)],
        );
        apply(&mut r, &[c]);
        assert_eq!(r.status, Status::Fixed);
        assert_eq!(
            r.fix.and_then(|f| f.release).as_deref(),
            Some("xfs-6.9-fixes-1")
        );
    }

    #[test]
    fn a_closes_into_the_history_beats_a_fixes_closing_another_report() {
        let mut r = reg();
        // A build-warning fix of the same culprit, released the same day.
        let warn = commit(
            'a',
            "xfs: use NULL for the iovec",
            &[
                ("Fixes", &CULPRIT[..12]),
                ("Reported-by", "kernel test robot <lkp@intel.com>"),
                (
                    "Closes",
                    "https://lore.kernel.org/oe-kbuild-all/warning@intel.com/",
                ),
            ],
            vec![at("mainline", Some("v6.9-rc1"))],
        );
        let fix = commit(
            'b',
            "xfs: restore the fast path",
            &[("Closes", "https://lore.kernel.org/oe-lkp/report@intel.com")],
            vec![at("mainline", Some("v6.9-rc1"))],
        );
        apply(&mut r, &[warn.clone(), fix.clone()]);
        assert_eq!(
            r.fix.as_ref().and_then(|f| f.commit.clone()),
            Some(fix.oid.clone())
        );
        // Alone, the build-warning fix is no fix of this regression.
        let mut r = reg();
        apply(&mut r, &[warn]);
        assert_eq!(r.status, Status::FixProposed);
        assert!(r.fix.is_none());
    }

    #[test]
    fn a_revert_of_a_mainline_culprit_is_its_fix_and_mail_s_fixed_stays() {
        let revert = |release: Option<&str>| {
            let mut c = commit('c', "Revert \"xfs: x\"", &[], vec![at("mainline", release)]);
            c.reverts = Some(CULPRIT.into());
            c
        };
        let mut r = reg();
        r.branch = Some("linus:master".into());
        apply(&mut r, &[revert(Some("v6.9-rc2"))]);
        assert_eq!(r.status, Status::Fixed, "{:?}", r.status_evidence);
        assert_eq!(
            r.fix.as_ref().and_then(|f| f.release.clone()).as_deref(),
            Some("v6.9-rc2")
        );
        let mut r = reg();
        r.branch = Some("linus:master".into());
        apply(&mut r, &[revert(None)]);
        assert_eq!(r.status, Status::FixApplied);
        // Never in mainline: dropped; but a fixed from the mail stays.
        let mut r = reg();
        r.branch = Some("xfs:for-next".into());
        apply(&mut r, &[revert(None)]);
        assert_eq!(r.status, Status::CulpritDropped);
        let mut r = reg();
        r.branch = Some("xfs:for-next".into());
        r.status = Status::Fixed;
        apply(&mut r, &[revert(None)]);
        assert_eq!(r.status, Status::Fixed);
    }

    #[test]
    fn a_released_fix_by_closes_is_fixed() {
        let mut r = reg();
        let c = commit(
            'a',
            "xfs: something else",
            &[("Closes", "https://lore.kernel.org/oe-lkp/report@intel.com")],
            vec![at("mainline", Some("v6.9-rc3"))],
        );
        apply(&mut r, &[c]);
        assert_eq!(r.status, Status::Fixed);
        let fix = r.fix.expect("fix");
        assert_eq!(fix.release.as_deref(), Some("v6.9-rc3"));
        assert_eq!(fix.trees, ["mainline master"]);
        assert_eq!(fix.commit.as_deref(), Some(&*"a".repeat(40)));
    }

    #[test]
    fn next_only_is_fix_applied_and_a_revert_drops() {
        let mut r = reg();
        let c = commit(
            'b',
            "xfs: restore the fast path",
            &[],
            vec![at("next", None)],
        );
        apply(&mut r, std::slice::from_ref(&c));
        assert_eq!(r.status, Status::FixApplied);
        assert!(
            r.status_evidence
                .last()
                .unwrap()
                .reason
                .contains("in next only")
        );
        assert_eq!(r.fix.as_ref().unwrap().message_id, "patch@example.org");

        let mut r = reg();
        let mut rv = commit('c', "Revert \"xfs: x\"", &[], vec![at("mainline", None)]);
        rv.reverts = Some(CULPRIT.into());
        apply(&mut r, &[c, rv]);
        assert_eq!(r.status, Status::CulpritDropped);
    }

    #[test]
    fn fixes_needs_the_robot_and_vanished_commits_do_nothing() {
        let mut r = reg();
        let only_fixes = commit(
            'd',
            "xfs: other",
            &[("Fixes", "2edf06a50f5b (\"x\")")],
            vec![at("mainline", Some("v6.9"))],
        );
        apply(&mut r, &[only_fixes]);
        assert_eq!(r.status, Status::FixProposed);
        let with_robot = commit(
            'd',
            "xfs: other",
            &[
                ("Fixes", "2edf06a50f5b (\"x\")"),
                ("Reported-by", "kernel test robot <oliver.sang@intel.com>"),
            ],
            Vec::new(),
        );
        apply(&mut r, std::slice::from_ref(&with_robot));
        assert_eq!(r.status, Status::FixProposed);
        let mut held = with_robot;
        held.refs = vec![at("mainline", Some("v6.9"))];
        let mut culprit = commit('2', "x", &[], vec![at("mainline", Some("v6.8-rc1"))]);
        culprit.oid = CULPRIT.into();
        apply(&mut r, &[held, culprit]);
        assert_eq!(r.status, Status::Fixed);
        assert_eq!(r.culprit.release.as_deref(), Some("v6.8-rc1"));
        assert_eq!(r.culprit.tree_commit.as_deref(), Some(CULPRIT));
    }
}
