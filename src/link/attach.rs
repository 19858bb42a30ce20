//! Which messages belong to which regression, in what role, and why.
//!
//! A regression is keyed by its culprit (see [`super::culprit`]); every robot
//! performance report of that culprit is one of its reports. One patch
//! reported under several commit ids as it moves between trees (a
//! developer branch, linux-next, the merged id) is one regression: ids are
//! joined when the robot's preamble names the earlier report (`we reported
//! "..." in <link>`), when reports give the same culprit title, and when a
//! `Fixes: <id> ("<culprit title>")` names another id with the culprit's
//! title. Attached to a regression:
//! - every message below a report in its thread (`reply`; a `[PATCH]` or a
//!   reply carrying its own diff there is a `patch`, replies under such a
//!   patch are `patch-reply`);
//! - replies with no usable headers whose subject names the culprit;
//! - messages carrying `Closes:`/`Link:` with a lore URL of any attached
//!   message (every URL form, percent-encoded ids), citing such a URL in their
//!   own text, or carrying `Fixes: <any id of the culprit>` together with a
//!   `Reported-by: kernel test robot` (unless its `Closes:` names only
//!   reports outside the history: a build warning in the same culprit);
//! - reverts of the culprit (`revert`): a revert whose "This reverts commit
//!   `<sha>`" names an id of the culprit, or, without a sha, whose title names
//!   the culprit's and which was posted after the first report;
//! - every other posting of a linked patch (earlier drafts, later versions,
//!   resends: [`super::patch`]), the replies to all linked patches
//!   (`patch-reply`), and the messages that say where a linked patch landed
//!   (`landing`: pull requests, announcements, merge notes).
//!
//! Functional reports of a culprit that also has performance reports join it;
//! on their own they make no regression.

use std::collections::{HashMap, HashSet, VecDeque};

use super::LinkMessage;
use super::culprit::{Culprits, canonical_form, is_hex_id, same_commit};
use super::hints::{
    cited_target, fixes_id, is_report, is_robot_team, kind_of, own_diff, own_trailers, report_ids,
    robot_reported, subject_culprit, title_key, trailer_target,
};
use super::patch::{self, Patches};
use crate::model::history::{Mark, Regression, Role};
use crate::model::{Kind, LandingKind};

/// A message attached to a regression, by index into [`super::LinkInput::messages`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// Index of the message.
    pub idx: usize,
    /// Why it is attached.
    pub role: Role,
    /// Why it was attached.
    pub reason: String,
}

/// A regression before its status is computed.
#[derive(Debug, Clone, Default)]
pub struct Draft {
    /// The culprit key (longest unambiguous id).
    pub key: String,
    /// Every id of the culprit seen.
    pub aliases: Vec<String>,
    /// Candidates when the key is an ambiguous abbreviation.
    pub ambiguous_with: Vec<String>,
    /// Attached messages (reports first, in the order found).
    pub members: Vec<Member>,
    /// Robot reports of other culprits that show the fix in a tree: a later
    /// report whose culprit is a linked patch (by title or commit id), with
    /// that patch's posting.
    pub fix_in_tree: Vec<(usize, usize)>,
    /// The linked patches ([`Patches`] identities), in the order found.
    pub patches: Vec<usize>,
    /// The culprit's own posting, when the archive holds it (a patch under
    /// review, or the patch as posted before it was applied).
    pub culprit_patch: Option<usize>,
    /// Patches weighed as fixes ([`super::candidates`]), best first; the
    /// linked ones are also members.
    pub candidates: Vec<super::candidates::Candidate>,
    set: HashSet<usize>,
}

impl Draft {
    fn add(&mut self, idx: usize, role: Role, reason: String) -> bool {
        self.add_member(Member { idx, role, reason })
    }

    /// Attaches a message unless it is attached already; true when it was not.
    pub fn add_member(&mut self, m: Member) -> bool {
        if self.set.insert(m.idx) {
            self.members.push(m);
            true
        } else {
            false
        }
    }

    /// True when the message is attached.
    pub fn contains(&self, idx: usize) -> bool {
        self.set.contains(&idx)
    }

    /// True when `id` names the culprit (its key or an alias).
    pub fn names(&self, id: &str) -> bool {
        same_commit(&self.key, id) || self.aliases.iter().any(|a| same_commit(a, id))
    }
}

/// The drafts of a set of messages and their patch identities.
#[derive(Debug, Clone, Default)]
pub struct Linked {
    /// One draft per regression.
    pub drafts: Vec<Draft>,
    /// Every patch identity among the messages.
    pub patches: Patches,
}

/// The regressions of `msgs`, given each message's parent message (index
/// into `msgs`) and depth after threading.
///
/// `msgs` may be a subset of the messages, in their order, as long as it
/// holds whole threads: every message of every thread that holds a report,
/// a subject-named reply or a message that links to one of those, and the
/// postings and landings of their patches and of their culprits (see
/// [`super::select`]); the
/// result is then the same as on all messages.
pub fn regressions(
    msgs: &[LinkMessage],
    parent: &[Option<usize>],
    depth: &[u32],
    marks: &[Mark],
) -> Vec<Regression> {
    let mut linked = drafts(msgs, parent, depth);
    super::marks::merge_duplicates(&mut linked, marks);
    let mut regressions: Vec<Regression> = linked
        .drafts
        .iter()
        .map(|d| super::finish::finish(d, msgs, marks, &linked.patches))
        .collect();
    regressions.sort_by(|a, b| {
        (a.facts.first_unix.unwrap_or(i64::MAX), &a.culprit.commit)
            .cmp(&(b.facts.first_unix.unwrap_or(i64::MAX), &b.culprit.commit))
    });
    regressions
}

fn uf_find(p: &mut [usize], mut x: usize) -> usize {
    while p[x] != x {
        p[x] = p[p[x]];
        x = p[x];
    }
    x
}

fn uf_union(p: &mut [usize], a: usize, b: usize) {
    let (ra, rb) = (uf_find(p, a), uf_find(p, b));
    if ra != rb {
        p[ra.max(rb)] = ra.min(rb);
    }
}

/// A report's culprit title as compared, when it is specific enough to
/// identify a commit (three words or more, not a merge).
fn report_title(m: &LinkMessage) -> Option<String> {
    let t = m.extraction.report.as_ref()?.commit_title.as_deref()?;
    let k = title_key(t);
    (k.split_whitespace().count() >= 3 && !k.starts_with("merge ")).then_some(k)
}

/// True for a report on mainline (`[linus:master]` or the torvalds tree).
fn on_mainline(m: &LinkMessage) -> bool {
    let sr = m.extraction.subject_report.as_deref();
    sr.and_then(|s| s.branch.as_deref())
        .is_some_and(|b| b.starts_with("linus:"))
        || m.extraction
            .report
            .as_ref()
            .and_then(|r| r.tree_url.as_deref())
            .is_some_and(|u| u.contains("torvalds/linux"))
}

/// The culprit keys of the reports, with the keys of one patch reported
/// under several ids joined: key -> the key of its group.
fn culprit_groups(msgs: &[LinkMessage], culprits: &Culprits) -> HashMap<String, String> {
    let mut keys: Vec<String> = culprits.key.values().cloned().collect();
    keys.sort();
    keys.dedup();
    let at: HashMap<&str, usize> = keys
        .iter()
        .enumerate()
        .map(|(i, k)| (k.as_str(), i))
        .collect();
    let mut uf: Vec<usize> = (0..keys.len()).collect();
    let key_of = |id: &str| -> Option<usize> {
        culprits
            .key_of(&canonical_form(id))
            .and_then(|k| at.get(k).copied())
    };
    let by_id: HashMap<&str, usize> = msgs
        .iter()
        .enumerate()
        .map(|(i, m)| (m.message_id.as_str(), i))
        .collect();
    let report_key = |m: &LinkMessage| -> Option<usize> {
        report_ids(m)
            .iter()
            .max_by_key(|s| s.len())
            .and_then(|id| key_of(id))
    };
    // Titles of the reports' culprits.
    let mut by_title: HashMap<String, usize> = HashMap::new();
    for m in msgs.iter().filter(|m| is_report(m)) {
        let Some(k) = report_key(m) else { continue };
        // The preamble names the earlier report of the same change.
        if let Some(b) = &m.extraction.report {
            for prev in &b.previous {
                if let Some(c) = prev.commit.as_deref().and_then(&key_of) {
                    uf_union(&mut uf, k, c);
                }
                if let Some(&j) = prev.message_id.as_deref().and_then(|id| by_id.get(id))
                    && is_report(&msgs[j])
                    && let Some(c) = report_key(&msgs[j])
                {
                    uf_union(&mut uf, k, c);
                }
            }
        }
        if let Some(t) = report_title(m) {
            match by_title.get(&t) {
                Some(&o) => uf_union(&mut uf, k, o),
                None => {
                    by_title.insert(t, k);
                }
            }
        }
    }
    // A reply naming a culprit in its subject whose report is not in the
    // archive (sent to another list) but quoted: `commit: <id> ("title")`
    // with the title of a reported culprit is the same change under
    // another id, as two reports with one title are.
    for m in msgs.iter().filter(|m| !is_report(m)) {
        let Some(c) = subject_culprit(m) else {
            continue;
        };
        let Some(k) = key_of(&c) else { continue };
        let quoted = m.extraction.commits.iter().find_map(|r| {
            let t = title_key(r.title.as_deref()?);
            (same_commit(&r.id, &c)
                && t.split_whitespace().count() >= 3
                && !t.starts_with("merge "))
            .then_some(t)
        });
        if let Some(o) = quoted.and_then(|t| by_title.get(&t).copied()) {
            uf_union(&mut uf, k, o);
        }
    }
    // A fix naming another id with the culprit's title.
    for m in msgs {
        for t in own_trailers(m) {
            let (Some(id), Some(title)) = (fixes_id(t), t.title.as_deref()) else {
                continue;
            };
            if let (Some(&k), Some(o)) = (by_title.get(&title_key(title)), key_of(&id)) {
                uf_union(&mut uf, k, o);
            }
        }
    }
    // The group's key: its mainline report's, else its first report's.
    let mut rep: HashMap<usize, (bool, i64, usize)> = HashMap::new();
    for m in msgs.iter().filter(|m| is_report(m)) {
        let Some(k) = report_key(m) else { continue };
        let g = uf_find(&mut uf, k);
        let cand = (!on_mainline(m), m.date.unwrap_or(i64::MAX), k);
        let e = rep.entry(g).or_insert(cand);
        if cand < *e {
            *e = cand;
        }
    }
    let mut out = HashMap::new();
    for (i, k) in keys.iter().enumerate() {
        let g = uf_find(&mut uf, i);
        let r = rep.get(&g).map_or(g, |e| e.2);
        out.insert(k.clone(), keys[r].clone());
    }
    out
}

/// The regressions of `msgs` before their status is computed (see
/// [`regressions`], which finishes and orders them).
pub fn drafts(msgs: &[LinkMessage], parent: &[Option<usize>], depth: &[u32]) -> Linked {
    let by_id: HashMap<&str, usize> = msgs
        .iter()
        .enumerate()
        .map(|(i, m)| (m.message_id.as_str(), i))
        .collect();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); msgs.len()];
    for (i, p) in parent.iter().enumerate() {
        if let Some(p) = p
            && let Some(c) = children.get_mut(*p)
        {
            c.push(i);
        }
    }

    // Culprit ids from reports and from reply subjects.
    let mut ids: Vec<String> = Vec::new();
    for m in msgs.iter().filter(|m| is_report(m)) {
        ids.extend(report_ids(m));
    }
    for m in msgs.iter().filter(|m| !is_report(m)) {
        if let Some(c) = subject_culprit(m) {
            ids.push(c);
        }
    }
    let culprits = Culprits::group(ids.iter().map(|s| s.as_str()));
    let groups = culprit_groups(msgs, &culprits);
    let group_of = |k: &str| groups.get(k).cloned().unwrap_or_else(|| k.to_string());
    let key_for = |ids: &[String]| -> Option<String> {
        // The longest id decides (the full id of the body, when present).
        ids.iter()
            .max_by_key(|s| s.len())
            .and_then(|s| culprits.key_of(s))
            .map(&group_of)
    };

    let mut order: Vec<usize> = (0..msgs.len()).collect();
    order.sort_by(|&a, &b| {
        (msgs[a].date.unwrap_or(i64::MAX), &msgs[a].message_id)
            .cmp(&(msgs[b].date.unwrap_or(i64::MAX), &msgs[b].message_id))
    });

    let mut drafts: Vec<Draft> = Vec::new();
    let mut reg_of_key: HashMap<String, usize> = HashMap::new();
    let mut reg_of_report: HashMap<usize, usize> = HashMap::new();
    let new_draft = |key: &str, drafts: &mut Vec<Draft>| {
        drafts.push(Draft {
            key: key.to_string(),
            ambiguous_with: culprits.ambiguous.get(key).cloned().unwrap_or_default(),
            ..Draft::default()
        });
        drafts.len() - 1
    };
    for pass in [Kind::PerfReport, Kind::FunctionalReport] {
        for &i in &order {
            let m = &msgs[i];
            if kind_of(m) != pass {
                continue;
            }
            let rids = report_ids(m);
            let Some(key) = key_for(&rids) else { continue };
            let r = match reg_of_key.get(&key) {
                Some(&r) => r,
                None if pass == Kind::PerfReport => {
                    let r = new_draft(&key, &mut drafts);
                    reg_of_key.insert(key.clone(), r);
                    r
                }
                None => continue,
            };
            let d = &mut drafts[r];
            for id in rids {
                if !same_commit(&id, &d.key) && !d.aliases.contains(&id) {
                    d.aliases.push(id);
                }
            }
            d.add(i, Role::Report, format!("robot report of culprit {key}"));
            reg_of_report.insert(i, r);
        }
    }
    // Every id of a joined group is an alias of its regression.
    for (id, g) in &groups {
        if let Some(&r) = reg_of_key.get(g) {
            let d = &mut drafts[r];
            if !same_commit(id, &d.key) && !d.aliases.iter().any(|a| same_commit(a, id)) {
                d.aliases.push(id.clone());
            }
        }
    }

    // Nearest report ancestor of every message, and whether a patch lies between.
    let mut by_depth: Vec<usize> = (0..msgs.len()).collect();
    by_depth.sort_by_key(|&i| depth.get(i).copied().unwrap_or(0));
    let mut anc: Vec<Option<(usize, Option<usize>)>> = vec![None; msgs.len()];
    for &i in &by_depth {
        if let Some(p) = parent.get(i).copied().flatten() {
            anc[i] = if reg_of_report.contains_key(&p) {
                Some((p, None))
            } else {
                anc[p].map(|(r, patch)| {
                    let is_patch = kind_of(&msgs[p]) == Kind::Patch || own_diff(&msgs[p]);
                    (r, patch.or(is_patch.then_some(p)))
                })
            };
        }
    }

    // Thread members and subject-named replies.
    for &i in &order {
        let m = &msgs[i];
        if reg_of_report.contains_key(&i) {
            continue;
        }
        if let Some((rep, via_patch)) = anc[i] {
            let Some(&r) = reg_of_report.get(&rep) else {
                continue;
            };
            let rep_id = &msgs[rep].message_id;
            let (role, reason) = if kind_of(m) == Kind::Patch {
                (
                    Role::Patch,
                    format!("patch posted in the thread of report {rep_id}"),
                )
            } else if own_diff(m) && !is_robot_team(m) {
                (
                    Role::Patch,
                    format!("debug patch posted in the thread of report {rep_id}"),
                )
            } else if let Some(p) = via_patch {
                (
                    Role::PatchReply,
                    format!(
                        "reply to patch {} in the report's thread",
                        msgs[p].message_id
                    ),
                )
            } else {
                (Role::Reply, format!("in the thread of report {rep_id}"))
            };
            drafts[r].add(i, role, reason);
            continue;
        }
        if is_report(m) {
            continue;
        }
        if let Some(c) = subject_culprit(m)
            && let Some(key) = culprits.key_of(&c).map(group_of)
        {
            let r = match reg_of_key.get(&key) {
                Some(&r) => r,
                None => {
                    let r = new_draft(&key, &mut drafts);
                    reg_of_key.insert(key.clone(), r);
                    r
                }
            };
            if !same_commit(&c, &key) && !drafts[r].aliases.contains(&c) {
                drafts[r].aliases.push(c.clone());
            }
            let role = if (kind_of(m) == Kind::Patch || own_diff(m)) && !is_robot_team(m) {
                Role::Patch
            } else {
                Role::Reply
            };
            drafts[r].add(i, role, format!("subject names culprit {c}"));
        }
    }

    // Which regressions each message id belongs to (lore links point at any of them).
    let mut regs_of_msg: HashMap<usize, Vec<usize>> = HashMap::new();
    for (r, d) in drafts.iter().enumerate() {
        for mem in &d.members {
            regs_of_msg.entry(mem.idx).or_default().push(r);
        }
    }
    let titles: Vec<Option<String>> = drafts
        .iter()
        .map(|d| super::finish::culprit_title(d, msgs).map(|t| title_key(&t)))
        .collect();
    let first_report: Vec<Option<i64>> = drafts
        .iter()
        .map(|d| {
            d.members
                .iter()
                .filter(|m| m.role == Role::Report)
                .filter_map(|m| msgs[m.idx].date)
                .min()
        })
        .collect();

    // Patches linked by Closes/Link, lore citations, Fixes + robot
    // Reported-by, reverts.
    let mut linked: Vec<(usize, usize, Role, String)> = Vec::new();
    for &i in &order {
        let m = &msgs[i];
        if is_report(m) {
            continue;
        }
        let mut targets: Vec<(usize, Role, String)> = Vec::new();
        let role_for = |m: &LinkMessage| {
            if m.extraction.landings.iter().any(|l| {
                matches!(
                    l.kind,
                    LandingKind::PullRequest | LandingKind::ForNext | LandingKind::Merged
                )
            }) {
                // A pull request or announcement citing the report is no
                // discussion of it.
                Role::Landing
            } else if kind_of(m) == Kind::Patch || own_diff(m) {
                Role::Patch
            } else {
                Role::Reply
            }
        };
        for t in own_trailers(m) {
            if let Some(id) = trailer_target(t)
                && let Some(&j) = by_id.get(id.as_str())
                && j != i
            {
                for &r in regs_of_msg.get(&j).map(|v| v.as_slice()).unwrap_or(&[]) {
                    targets.push((r, role_for(m), format!("{}: {}", t.key, t.value)));
                }
            }
        }
        for id in &m.extraction.lore_links {
            let id = cited_target(id);
            if let Some(&j) = by_id.get(id.as_str())
                && j != i
            {
                for &r in regs_of_msg.get(&j).map(|v| v.as_slice()).unwrap_or(&[]) {
                    targets.push((r, role_for(m), format!("cites the lore URL of {id}")));
                }
            }
        }
        if own_trailers(m).any(robot_reported) {
            // The reports its `Closes:` trailers name: a patch closing a
            // report outside a history (a build warning the robot found in
            // the same culprit) is not that history's fix by its `Fixes:`.
            let closes: Vec<Option<usize>> = own_trailers(m)
                .filter(|t| t.key.eq_ignore_ascii_case("closes"))
                .filter_map(trailer_target)
                .map(|id| by_id.get(id.as_str()).copied())
                .collect();
            let closes_elsewhere = |r: usize| {
                super::hints::closes_only_elsewhere(closes.iter().map(|j| {
                    j.is_some_and(|j| regs_of_msg.get(&j).is_some_and(|v| v.contains(&r)))
                }))
            };
            for t in own_trailers(m) {
                let Some(id) = fixes_id(t) else {
                    continue;
                };
                // The culprit by any id, or another id with the culprit's
                // title (the merged commit of a patch the robot tested).
                let titled = t.title.as_deref().map(title_key);
                for (r, d) in drafts.iter().enumerate() {
                    let by_title = titled.is_some() && titled == titles[r];
                    if (d.names(&id) || by_title) && !closes_elsewhere(r) {
                        targets.push((
                            r,
                            role_for(m),
                            format!("Fixes: {} with Reported-by: kernel test robot", t.value),
                        ));
                    }
                }
            }
        }
        if let Some(p) = m.extraction.patch.as_ref().filter(|_| patch::is_posting(m)) {
            for (r, d) in drafts.iter().enumerate() {
                let by_sha = p.reverts.as_deref().is_some_and(|s| d.names(s));
                let by_title = p.reverts.is_none()
                    && p.reverts_title.is_some()
                    && p.reverts_title == titles[r]
                    && matches!((m.date, first_report[r]), (Some(a), Some(b)) if a > b);
                if by_sha {
                    targets.push((r, Role::Revert, "reverts the culprit's commit".into()));
                } else if by_title {
                    targets.push((
                        r,
                        Role::Revert,
                        format!(
                            "reverts \"{}\" after the report",
                            p.reverts_title.as_deref().unwrap_or("")
                        ),
                    ));
                }
            }
        }
        for (r, role, reason) in targets {
            linked.push((r, i, role, reason));
        }
    }
    let mut patch_roots: Vec<(usize, usize)> = Vec::new();
    for (r, i, role, reason) in linked {
        if reg_of_report.get(&i) == Some(&r) {
            continue;
        }
        if drafts[r].add(i, role, reason) && matches!(role, Role::Patch | Role::Revert) {
            patch_roots.push((r, i));
        }
    }

    // Fix candidates: patches related to the history by what they are;
    // the weighty ones are linked as fixes.
    let patches = patch::identify(msgs, parent);
    for (r, d) in drafts.iter_mut().enumerate() {
        let ids: Vec<&str> = std::iter::once(d.key.as_str())
            .chain(d.aliases.iter().map(String::as_str))
            .collect();
        let h = super::candidates::History {
            ids,
            title: titles[r].as_deref(),
            first_report: first_report[r],
            members: d.members.iter().map(|m| (m.idx, m.role)).collect(),
        };
        let found = super::candidates::weigh(msgs, parent, &children, &patches, &h);
        for c in &found {
            if c.links()
                && d.add(
                    c.idx,
                    Role::Patch,
                    format!("fix candidate ({}): {}", c.score, c.reasons.join("; ")),
                )
            {
                patch_roots.push((r, c.idx));
            }
        }
        d.candidates = found;
    }

    // Every posting of a linked patch.
    for (r, d) in drafts.iter_mut().enumerate() {
        let linked_patches: Vec<(usize, Role)> = d
            .members
            .iter()
            .filter(|m| matches!(m.role, Role::Patch | Role::Revert))
            .filter_map(|m| Some((patches.identity_of(m.idx)?, m.role)))
            .collect();
        for (k, role) in linked_patches {
            if !d.patches.contains(&k) {
                d.patches.push(k);
            }
            let id = &patches.identities[k];
            for &p in &id.postings {
                if reg_of_report.contains_key(&p) {
                    continue;
                }
                let reason = match id.title.as_str() {
                    "" => "another posting of a linked diff (same patch id)".to_string(),
                    t => format!("a posting of the linked patch \"{t}\""),
                };
                if d.add(p, role, reason) {
                    patch_roots.push((r, p));
                }
            }
        }
    }
    // Replies to linked patches.
    for (r, p) in patch_roots {
        let mut queue: VecDeque<usize> = children[p].iter().copied().collect();
        let mut seen: HashSet<usize> = HashSet::new();
        while let Some(c) = queue.pop_front() {
            if !seen.insert(c) || reg_of_report.contains_key(&c) {
                continue;
            }
            let role = if kind_of(&msgs[c]) == Kind::Patch {
                Role::Patch
            } else {
                Role::PatchReply
            };
            drafts[r].add(c, role, format!("reply to patch {}", msgs[p].message_id));
            queue.extend(children[c].iter().copied());
        }
    }
    // Where the linked patches landed.
    for d in drafts.iter_mut() {
        for &k in &d.patches.clone() {
            for at in &patches.landings[k] {
                let what = at.of(msgs).map_or(LandingKind::Applied, |(_, l)| l.kind);
                let title = &patches.identities[k].title;
                d.add(
                    at.msg,
                    Role::Landing,
                    format!("{} of the linked patch \"{title}\"", what.as_str()),
                );
            }
        }
    }

    // The culprit's own posting: titled like the culprit, or the posting a
    // report on a patch replies to.
    for (r, d) in drafts.iter_mut().enumerate() {
        let reports: Vec<usize> = d
            .members
            .iter()
            .filter(|m| m.role == Role::Report)
            .map(|m| m.idx)
            .collect();
        let parent_posting = reports.iter().find_map(|&rep| {
            let p = parent.get(rep).copied().flatten()?;
            patches.identity_of(p)
        });
        let titled = titles[r]
            .as_deref()
            .and_then(|t| patches.identities.iter().position(|id| id.title_key == t));
        d.culprit_patch = parent_posting.or(titled).filter(|k| !d.patches.contains(k));
        // A message dropping the culprit's patch decides the history: it is
        // one of its messages.
        if let Some(k) = d.culprit_patch {
            for at in &patches.landings[k] {
                let dropped = at
                    .of(msgs)
                    .is_some_and(|(_, l)| l.kind == LandingKind::Dropped);
                if dropped {
                    let title = &patches.identities[k].title;
                    d.add(
                        at.msg,
                        Role::Landing,
                        format!("dropped the culprit's patch \"{title}\""),
                    );
                }
            }
        }
    }

    // A later robot report on a commit titled like one of a regression's
    // linked patches, or on a commit id a landing gave it: the robot tested
    // a tree that contains the fix.
    let mut report_by_title: HashMap<String, Vec<usize>> = HashMap::new();
    for (&i, _) in reg_of_report.iter() {
        if let Some(t) = msgs[i]
            .extraction
            .report
            .as_ref()
            .and_then(|r| r.commit_title.as_deref())
        {
            let t = title_key(t);
            if !t.is_empty() {
                report_by_title.entry(t).or_default().push(i);
            }
        }
    }
    let mut reports_sorted: Vec<usize> = reg_of_report.keys().copied().collect();
    reports_sorted.sort_unstable();
    for (r, d) in drafts.iter_mut().enumerate() {
        for &k in &d.patches {
            let id = &patches.identities[k];
            let Some(&first) = id.postings.first() else {
                continue;
            };
            let commits: Vec<&str> = patches.landings[k]
                .iter()
                .filter_map(|at| at.of(msgs)?.1.commit.as_deref())
                .filter(|c| is_hex_id(c))
                .collect();
            let by_title = report_by_title
                .get(&id.title_key)
                .map(|v| v.as_slice())
                .unwrap_or(&[]);
            let by_commit = reports_sorted.iter().copied().filter(|&rep| {
                report_ids(&msgs[rep])
                    .iter()
                    .any(|rid| commits.iter().any(|c| same_commit(c, rid)))
            });
            let found: Vec<usize> = by_title.iter().copied().chain(by_commit).collect();
            for rep in found {
                let later = match (msgs[rep].date, msgs[first].date) {
                    (Some(a), Some(b)) => a > b,
                    _ => false,
                };
                if later
                    && reg_of_report.get(&rep) != Some(&r)
                    && kind_of(&msgs[rep]) == Kind::PerfReport
                    && !d.fix_in_tree.contains(&(rep, first))
                {
                    d.fix_in_tree.push((rep, first));
                }
            }
        }
    }

    Linked { drafts, patches }
}
