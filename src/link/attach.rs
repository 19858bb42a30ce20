//! Which messages belong to which regression, in what role, and why.
//!
//! A regression is keyed by its culprit (see [`super::culprit`]); every robot
//! performance report of that culprit is one of its reports. Attached to it:
//! - every message below a report in its thread (`reply`; a `[PATCH]` or a
//!   reply carrying its own diff there is a `patch`, replies under such a
//!   patch are `patch-reply`);
//! - replies with no usable headers whose subject names the culprit;
//! - messages carrying `Closes:`/`Link:` with a lore URL of any attached
//!   message (every URL form, percent-encoded ids), citing such a URL in their
//!   own text, or carrying `Fixes: <culprit>` together with a
//!   `Reported-by: kernel test robot`; `Revert "<culprit title>"` patches
//!   (`revert`); and the replies to all of those (`patch-reply`).
//!
//! Functional reports of a culprit that also has performance reports join it;
//! on their own they make no regression.

use std::collections::{HashMap, HashSet, VecDeque};

use super::LinkMessage;
use super::culprit::{Culprits, same_commit};
use super::hints::{
    cited_target, fixes_id, is_report, is_robot, kind_of, own_diff, own_trailers, report_ids,
    revert_title, robot_reported, subject_culprit, title_key, trailer_target,
};
use crate::mail::subject::thread_key;
use crate::model::Kind;
use crate::model::history::{Mark, Regression, Role};

/// A message attached to a regression, by index into [`LinkInput::messages`].
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
    /// report whose culprit is a linked patch (by title), with that patch's index.
    pub fix_in_tree: Vec<(usize, usize)>,
    set: HashSet<usize>,
}

impl Draft {
    fn add(&mut self, idx: usize, role: Role, reason: String) -> bool {
        if self.set.insert(idx) {
            self.members.push(Member { idx, role, reason });
            true
        } else {
            false
        }
    }

    /// True when the message is attached.
    pub fn contains(&self, idx: usize) -> bool {
        self.set.contains(&idx)
    }
}

/// The regressions of `msgs`, given each message's parent message (index
/// into `msgs`) and depth after threading.
///
/// `msgs` may be a subset of the store, in store order, as long as it holds
/// whole threads: every message of every thread that holds a report, a
/// subject-named reply or a message that links to one of those (see
/// `store::links::relink_messages`); the result is then the same as on all
/// messages.
pub fn regressions(
    msgs: &[LinkMessage],
    parent: &[Option<usize>],
    depth: &[u32],
    marks: &[Mark],
) -> Vec<Regression> {
    let mut regressions: Vec<Regression> = drafts(msgs, parent, depth)
        .iter()
        .map(|d| super::finish::finish(d, msgs, marks))
        .collect();
    regressions.sort_by(|a, b| {
        (a.facts.first_unix.unwrap_or(i64::MAX), &a.culprit.commit)
            .cmp(&(b.facts.first_unix.unwrap_or(i64::MAX), &b.culprit.commit))
    });
    regressions
}

/// The regressions of `msgs` before their status is computed (see
/// [`regressions`], which finishes and orders them).
pub fn drafts(msgs: &[LinkMessage], parent: &[Option<usize>], depth: &[u32]) -> Vec<Draft> {
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
    let key_for = |ids: &[String]| -> Option<String> {
        // The longest id decides (the full id of the body, when present).
        ids.iter()
            .max_by_key(|s| s.len())
            .and_then(|s| culprits.key_of(s))
            .map(|s| s.to_string())
    };

    let mut order: Vec<usize> = (0..msgs.len()).collect();
    order.sort_by(|&a, &b| {
        (msgs[a].date.unwrap_or(i64::MAX), &msgs[a].message_id)
            .cmp(&(msgs[b].date.unwrap_or(i64::MAX), &msgs[b].message_id))
    });

    let mut drafts: Vec<Draft> = Vec::new();
    let mut reg_of_key: HashMap<String, usize> = HashMap::new();
    let mut reg_of_report: HashMap<usize, usize> = HashMap::new();
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
                    drafts.push(Draft {
                        key: key.clone(),
                        ambiguous_with: culprits.ambiguous.get(&key).cloned().unwrap_or_default(),
                        ..Draft::default()
                    });
                    reg_of_key.insert(key.clone(), drafts.len() - 1);
                    drafts.len() - 1
                }
                None => continue,
            };
            let d = &mut drafts[r];
            for id in rids {
                if id != d.key && !d.aliases.contains(&id) {
                    d.aliases.push(id);
                }
            }
            d.add(i, Role::Report, format!("robot report of culprit {key}"));
            reg_of_report.insert(i, r);
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
            } else if own_diff(m) && !is_robot(m) {
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
            && let Some(key) = culprits.key_of(&c).map(|s| s.to_string())
        {
            let r = match reg_of_key.get(&key) {
                Some(&r) => r,
                None => {
                    drafts.push(Draft {
                        key: key.clone(),
                        ambiguous_with: culprits.ambiguous.get(&key).cloned().unwrap_or_default(),
                        ..Draft::default()
                    });
                    reg_of_key.insert(key.clone(), drafts.len() - 1);
                    drafts.len() - 1
                }
            };
            if c != key && !drafts[r].aliases.contains(&c) {
                drafts[r].aliases.push(c.clone());
            }
            drafts[r].add(i, Role::Reply, format!("subject names culprit {c}"));
        }
    }

    // Which regressions each message id belongs to (lore links point at any of them).
    let mut regs_of_msg: HashMap<usize, Vec<usize>> = HashMap::new();
    for (r, d) in drafts.iter().enumerate() {
        for mem in &d.members {
            regs_of_msg.entry(mem.idx).or_default().push(r);
        }
    }
    let keys: Vec<String> = drafts.iter().map(|d| d.key.clone()).collect();

    // Patches linked by Closes/Link, lore citations, Fixes + robot Reported-by, reverts.
    let titles: Vec<Option<String>> = drafts
        .iter()
        .map(|d| super::finish::culprit_title(d, msgs).map(|t| title_key(&t)))
        .collect();
    let mut linked: Vec<(usize, usize, Role, String)> = Vec::new();
    for &i in &order {
        let m = &msgs[i];
        if is_report(m) {
            continue;
        }
        let mut targets: Vec<(usize, Role, String)> = Vec::new();
        let role_for = |m: &LinkMessage| {
            if kind_of(m) == Kind::Patch || own_diff(m) {
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
            for t in own_trailers(m) {
                let Some(id) = fixes_id(t) else {
                    continue;
                };
                for (r, k) in keys.iter().enumerate() {
                    if same_commit(k, &id) {
                        targets.push((
                            r,
                            role_for(m),
                            format!("Fixes: {} with Reported-by: kernel test robot", t.value),
                        ));
                    }
                }
            }
        }
        if let Some(t) = revert_title(&m.subject) {
            for (r, title) in titles.iter().enumerate() {
                if title.as_deref() == Some(t.as_str()) {
                    targets.push((r, Role::Revert, format!("reverts \"{t}\"")));
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
        if drafts[r].add(i, role, reason) && role != Role::Reply {
            patch_roots.push((r, i));
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

    // A later robot report on a commit titled like one of a regression's
    // linked patches: the robot tested a tree that contains the fix.
    let mut report_by_title: HashMap<String, Vec<usize>> = HashMap::new();
    for (&i, _) in reg_of_report.iter() {
        if let Some(t) = msgs[i]
            .extraction
            .report
            .as_ref()
            .and_then(|r| r.commit_title.as_deref())
        {
            let t = thread_key(t);
            if !t.is_empty() {
                report_by_title.entry(t).or_default().push(i);
            }
        }
    }
    for (r, d) in drafts.iter_mut().enumerate() {
        let patches: Vec<usize> = d
            .members
            .iter()
            .filter(|m| matches!(m.role, Role::Patch | Role::Revert))
            .filter(|m| kind_of(&msgs[m.idx]) == Kind::Patch)
            .map(|m| m.idx)
            .collect();
        for p in patches {
            let title = thread_key(&msgs[p].subject);
            let Some(reports) = report_by_title.get(&title) else {
                continue;
            };
            for &rep in reports {
                let later = match (msgs[rep].date, msgs[p].date) {
                    (Some(a), Some(b)) => a > b,
                    _ => false,
                };
                if later
                    && reg_of_report.get(&rep) != Some(&r)
                    && !d.fix_in_tree.contains(&(rep, p))
                {
                    d.fix_in_tree.push((rep, p));
                }
            }
        }
    }

    drafts
}
